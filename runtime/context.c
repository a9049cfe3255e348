/* context.c - per-CPU probe contexts, the common probe-hit path and the
 * frame arena of script locals. */
#include <linux/module.h>
#include <linux/vmalloc.h>
#include <linux/slab.h>
#include <linux/delay.h>
#include <linux/preempt.h>
#include "stp_hit.h"

DEFINE_PER_CPU(struct stp_cpu *, stp_cpu_ptr);
DEFINE_PER_CPU(union stp_cpu_gate, stp_cpu_gate) = { .closed = 1 };

void stp_gate_publish(void)
{
	const union stp_gate run = {
		.state = ATOMIC_INIT(STP_STATE_RUNNING),
		.exit_requested = ATOMIC_INIT(0),
	};
	u64 w;
	int cpu;

	do {
		w = READ_ONCE(stp_gate.word);
		for_each_possible_cpu(cpu)
			WRITE_ONCE(per_cpu(stp_cpu_gate, cpu).closed,
				   w != run.word);
		/* our copies before the second look: a change we missed is
		 * seen there (its writer copies after it changes) */
		smp_mb();
	} while (READ_ONCE(stp_gate.word) != w);
}

/* The deferred hits of each CPU (stp_defer), oldest first: touched by
 * this CPU only, with interrupts off. */
#define STP_DEFER_MAX 16
DEFINE_PER_CPU(int, stp_ndeferred);
static DEFINE_PER_CPU(const struct stp_probe_desc *[STP_DEFER_MAX],
		      stp_deferred);
static DEFINE_PER_CPU(int, stp_draining);       /* stp_run_deferred runs */

static struct stp_cpu **stp_cpus;  /* [nr_cpu_ids], NULL if not possible */

/* -t: each CPU's per-probe statistics follow its struct stp_cpu */
#ifdef STP_TIMING
#define STP_CPU_TIMING_BYTES (stp_module.nprobes * sizeof(struct stp_stat))
#else
#define STP_CPU_TIMING_BYTES 0
#endif

int stp_contexts_alloc(void)
{
	int cpu;

	stp_cpus = kcalloc(nr_cpu_ids, sizeof(*stp_cpus), GFP_KERNEL);
	if (!stp_cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		stp_cpus[cpu] = vzalloc(sizeof(struct stp_cpu) +
					STP_CPU_TIMING_BYTES);
		if (!stp_cpus[cpu]) {
			stp_contexts_free();
			return -ENOMEM;
		}
#ifdef STP_TIMING
		stp_cpus[cpu]->timing = (struct stp_stat *)(stp_cpus[cpu] + 1);
#endif
		per_cpu(stp_cpu_ptr, cpu) = stp_cpus[cpu];
	}
	return 0;
}

void stp_contexts_free(void)
{
	unsigned int cpu;

	if (!stp_cpus)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (cpu_possible(cpu))
			per_cpu(stp_cpu_ptr, cpu) = NULL;
		vfree(stp_cpus[cpu]);
	}
	kfree(stp_cpus);
	stp_cpus = NULL;
}

struct stp_print_buf *stp_print_buf_of(struct stp_context *c)
{
	return &container_of(c, struct stp_cpu, ctx)->pb;
}

/**
 * stp_check_skipped - after a hit was skipped: report once that more than
 * MAXSKIPPED were and end the run as errors do (error probes instead of
 * end probes).  Context: any; does not sleep.
 */
void stp_check_skipped(void)
{
	static atomic_t reported = ATOMIC_INIT(0);

#ifdef STP_SUPPRESS_HANDLER_ERRORS
	return;         /* no MAXSKIPPED: counted, reported at the end */
#endif
	if (atomic_read(&stp_skipped) > MAXSKIPPED &&
	    atomic_cmpxchg(&reported, 0, 1) == 0) {
		stp_ctl_send_text(STP_MSG_ERROR,
			"ERROR: Skipped too many probes, check MAXSKIPPED\n");
		atomic_set(&stp_error_exit, 1);  /* error probes, not end */
		stp_request_exit();
	}
}

static __always_inline void stp_run_common(const struct stp_probe_desc *p,
			   struct pt_regs *regs, int want,
			   void (*handler)(struct stp_context *c),
			   void *entry_data, const unsigned long *tp_args,
			   const struct stp_perf_values *perf);

void stp_run_probe(const struct stp_probe_desc *p, struct pt_regs *regs,
		   int want)
{
	stp_run_common(p, regs, want, p->handler, NULL, NULL, NULL);
}

void stp_run_handler(const struct stp_probe_desc *p, struct pt_regs *regs,
		     int want, void (*handler)(struct stp_context *c),
		     void *entry_data, const struct stp_perf_values *perf)
{
	stp_run_common(p, regs, want, handler, entry_data, NULL, perf);
}

void stp_run_probe_args(const struct stp_probe_desc *p, struct pt_regs *regs,
			int want, const unsigned long *tp_args)
{
	stp_run_common(p, regs, want, p->handler, NULL, tp_args, NULL);
}

/* stp_run_common - stp_run_handler(), and the tracepoint arguments
 * @tp_args (12, or NULL) copied into the context first. */
static __always_inline void stp_run_common(const struct stp_probe_desc *p,
			   struct pt_regs *regs, int want,
			   void (*handler)(struct stp_context *c),
			   void *entry_data, const unsigned long *tp_args,
			   const struct stp_perf_values *perf)
{
	/* Everything from the state check to the end runs with preemption
	 * disabled: stp_wait_probes_idle()'s synchronize_rcu() then waits
	 * for every hit that saw the old state (no shared counter to bounce
	 * between CPUs on every hit). */
	preempt_disable();
	stp_hit(p, regs, want, handler, entry_data, perf, tp_args, 0, NULL, 0);
	preempt_enable();
}

void stp_hit_finish(struct stp_cpu *sc, const struct stp_probe_desc *p)
{
	struct stp_context *c = &sc->ctx;

	if (sc->pb.len)
		stp_print_flush(c);
	sc->pb.len = 0;
	sc->pb.wait_budget_ns = 0;
#ifdef STP_SUPPRESS_HANDLER_ERRORS
	/* --suppress-handler-errors: the error ended this hit only; it is
	 * counted and the run goes on (the count is reported at the end) */
	if (c->error) {
		atomic_inc(&stp_errors);
		return;
	}
#endif
	if (c->error) {
		stp_ctl_send_text(STP_MSG_ERROR, "ERROR: %s near %s\n",
				  c->error, c->error_loc ? c->error_loc :
				  (p->loc ? p->loc : p->pp));
		if (atomic_inc_return(&stp_errors) > MAXERRORS) {
			atomic_set(&stp_error_exit, 1);
			stp_request_exit();
		}
	}
}

bool stp_defer(const struct stp_probe_desc *p)
{
	const struct stp_probe_desc **q;
	unsigned long flags;
	bool queued = false;
	int n, i;

	local_irq_save(flags);
	q = *this_cpu_ptr(&stp_deferred);
	n = this_cpu_read(stp_ndeferred);
	for (i = 0; i < n && q[i] != p; i++)
		;
	if (i == n && n < STP_DEFER_MAX) {
		q[n] = p;
		this_cpu_write(stp_ndeferred, n + 1);
		queued = true;
	}
	local_irq_restore(flags);
	return queued;
}

void stp_run_deferred(void)
{
	const struct stp_probe_desc **q, *p;
	unsigned long flags;
	int n;

	if (this_cpu_read(stp_draining) || in_nmi())
		return;         /* an outer call takes what was queued (an
				 * NMI interrupting a release: the release) */
	this_cpu_write(stp_draining, 1);
	for (;;) {
		local_irq_save(flags);
		q = *this_cpu_ptr(&stp_deferred);
		n = this_cpu_read(stp_ndeferred);
		p = n ? q[0] : NULL;
		if (n) {
			memmove(q, q + 1, (n - 1) * sizeof(*q));
			this_cpu_write(stp_ndeferred, n - 1);
		} else {
			this_cpu_write(stp_draining, 0);
		}
		local_irq_restore(flags);
		if (!p)
			return;
		stp_hit(p, NULL, STP_STATE_RUNNING, p->handler, NULL, NULL,
			NULL, 0, NULL, 0);
	}
}

void stp_wait_probes_idle(void)
{
	/* probe hits run with preemption disabled (stp_run_common): a
	 * grace period is the end of every hit that started before */
	synchronize_rcu();
}

/**
 * stp_frame_push - stp_frame_enter of a frame zeroed whole.
 * Context: probe handler; does not sleep.
 */
void *stp_frame_push(struct stp_context *c, size_t size, const char *loc)
{
	return stp_frame_enter(c, size, size, loc);
}

/**
 * stp_frame_pop - release the most recent frame of @size bytes (the size
 * given to the matching stp_frame_push).  Context: probe handler.
 */
void stp_frame_pop(struct stp_context *c, size_t size)
{
	size_t sz = ALIGN(size, 8);

	if (WARN_ON_ONCE(sz > c->frame_used || c->nesting <= 0))
		return;
	c->frame_used -= sz;
	c->nesting--;
}

/**
 * stp_arena_alloc - see stp_runtime.h.  Context: probe handler.
 */
void *stp_arena_alloc(struct stp_context *c, size_t size, const char *loc)
{
	return stp_arena_take(c, size, loc);
}
