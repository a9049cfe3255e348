/* context.c - per-CPU probe contexts, the common probe-hit path and the
 * frame arena of script locals. */
#include <linux/module.h>
#include <linux/vmalloc.h>
#include <linux/slab.h>
#include <linux/delay.h>
#include <linux/preempt.h>
#include <asm/local.h>
#include "stp_internal.h"

/* Everything one CPU needs for a probe hit; allocated once at module
 * load, never on the stack. */
struct stp_cpu {
	local_t busy;              /* 1 while a handler owns ctx; only this
	                            * CPU touches it (interrupts and NMIs
	                            * included), so no bus-locked operation */
	struct stp_print_buf pb;   /* this hit's output */
	struct stp_context ctx;
};

static struct stp_cpu **stp_cpus;  /* [nr_cpu_ids], NULL if not possible */

int stp_contexts_alloc(void)
{
	int cpu;

	stp_cpus = kcalloc(nr_cpu_ids, sizeof(*stp_cpus), GFP_KERNEL);
	if (!stp_cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		stp_cpus[cpu] = vzalloc(sizeof(struct stp_cpu));
		if (!stp_cpus[cpu]) {
			stp_contexts_free();
			return -ENOMEM;
		}
	}
	return 0;
}

void stp_contexts_free(void)
{
	unsigned int cpu;

	if (!stp_cpus)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		vfree(stp_cpus[cpu]);
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
			   void *entry_data, const unsigned long *tp_args);

void stp_run_probe(const struct stp_probe_desc *p, struct pt_regs *regs,
		   int want)
{
	stp_run_common(p, regs, want, p->handler, NULL, NULL);
}

void stp_run_handler(const struct stp_probe_desc *p, struct pt_regs *regs,
		     int want, void (*handler)(struct stp_context *c),
		     void *entry_data)
{
	stp_run_common(p, regs, want, handler, entry_data, NULL);
}

void stp_run_probe_args(const struct stp_probe_desc *p, struct pt_regs *regs,
			int want, const unsigned long *tp_args)
{
	stp_run_common(p, regs, want, p->handler, NULL, tp_args);
}

/* stp_run_common - stp_run_handler(), and the tracepoint arguments
 * @tp_args (12, or NULL) copied into the context first. */
static __always_inline void stp_run_common(const struct stp_probe_desc *p,
			   struct pt_regs *regs, int want,
			   void (*handler)(struct stp_context *c),
			   void *entry_data, const unsigned long *tp_args)
{
	struct stp_cpu *sc;
	struct stp_context *c;

	/* Everything from the state check to the end runs with preemption
	 * disabled: stp_wait_probes_idle()'s synchronize_rcu() then waits
	 * for every hit that saw the old state (no shared counter to bounce
	 * between CPUs on every hit). */
	preempt_disable();
	if (atomic_read(&stp_session_state) != want)
		goto out;
	/* After exit() (or too many errors) only end probes run, as in
	 * SystemTap: the run is already stopping. */
	if (want != STP_STATE_STOPPING && atomic_read(&stp_exit_requested))
		goto out;
	/* After errors ended the run, error probes run instead of end
	 * probes (and instead of the end probes left, when an end probe's
	 * error ended it). */
	if (want == STP_STATE_STOPPING && p->kind == STP_PROBE_END &&
	    atomic_read(&stp_error_exit))
		goto out;
	sc = stp_cpus[smp_processor_id()];
	if (local_cmpxchg(&sc->busy, 0, 1) != 0) {
		/* a probe hit inside a probe hit on this CPU */
		atomic_inc(&stp_skipped);
		stp_check_skipped();
		goto out;
	}
	c = &sc->ctx;
	c->probe = p;
	c->regs = regs;
	c->entry_data = entry_data;
	c->error = NULL;
	c->error_loc = NULL;
	c->actions = 0;
	c->rx_ngroups = -1;
	c->nesting = 0;
	c->next = 0;
	c->frame_used = 0;
	if (tp_args)
		memcpy(c->tp_args, tp_args, sizeof(c->tp_args));
	sc->pb.len = 0;
	/* begin/end run in stapio's process: let their flushes wait for
	 * stapio to drain the relay when it runs on another CPU */
	sc->pb.wait_budget_ns = (want != STP_STATE_RUNNING &&
				 num_online_cpus() > 1) ?
		STP_END_FLUSH_WAIT_NS : 0;

	handler(c);

	if (sc->pb.len)
		stp_print_flush(c);
	if (c->error) {
		stp_ctl_send_text(STP_MSG_ERROR, "ERROR: %s near %s\n",
				  c->error, c->error_loc ? c->error_loc :
				  (p->loc ? p->loc : p->pp));
		if (atomic_inc_return(&stp_errors) > MAXERRORS) {
			atomic_set(&stp_error_exit, 1);
			stp_request_exit();
		}
	}
	barrier();          /* the hit's stores before the release */
	local_set(&sc->busy, 0);
out:
	preempt_enable();
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
