/* stp_hit.h - the common path of every probe hit, inline so that the
 * event handlers (kprobes, kretprobes) run it without a call of their
 * own: state checks, the claim of this CPU's context, the handler, error
 * reporting and the output flush.  Included by context.c, probes.c and
 * by generated code that has kprobes (their pre_handlers, made with
 * stp_kprobe_hit, inline the probe's handler too). */
#ifndef STP_HIT_H
#define STP_HIT_H

#include <linux/percpu.h>
#include <linux/hrtimer.h>
#include <linux/kprobes.h>
#include <linux/preempt.h>
#include "stp_internal.h"

/* Everything one CPU needs for a probe hit; allocated once at module
 * load, never on the stack. */
struct stp_cpu {
	struct stp_print_buf pb;   /* this hit's output */
#ifdef STP_TIMING
	struct stp_stat *timing;   /* -t: [stp_module.nprobes], this CPU's
	                            * hits and cycles of each probe, written
	                            * only by this CPU's hits (busy held) */
#endif
	struct stp_context ctx;
};

/* Run-time state of one probe of the table (probes.c). */
struct stp_probe_rt {
	const struct stp_probe_desc *p;
	int registered;
	int rc;                    /* the registration's error, 0 if none */
	int deferred;              /* a module probe waiting for its module */
	union {
		struct hrtimer timer;
		struct kprobe kp;
		struct kretprobe krp;
		struct perf_event **evs;  /* STP_PROBE_PERF: [nr_cpu_ids] */
	} u;
};

/* This CPU's stp_cpu (context.c; NULL until stp_contexts_alloc): one
 * per-CPU load on the hit path. */
DECLARE_PER_CPU(struct stp_cpu *, stp_cpu_ptr);
/* This CPU's two tests of a hit in one word (context.c), so that a hit
 * that cannot fail (STP_HIT_NOERR) makes both with one load: @busy, 1
 * while a hit owns this CPU's stp_cpu, written by this CPU only (its
 * interrupts and NMIs included); @closed, 0 only while the run's gate
 * lets the run's hits through (state RUNNING, no exit requested), a copy
 * of stp_gate that stp_gate_publish() writes on every CPU.  (Bytes of
 * their own: the two writers never write each other's.) */
union stp_cpu_gate {
	struct {
		u8 busy;
		u8 closed;
	};
	u16 word;
};
DECLARE_PER_CPU(union stp_cpu_gate, stp_cpu_gate);

/* stp_hit_finish - the end of a hit whose handler recorded an error or
 * printed: report/flush (context.c, out of line: rare or slow anyway). */
void stp_hit_finish(struct stp_cpu *sc, const struct stp_probe_desc *p);

/* Deferred hits (context.c): a timer probe whose tick finds this CPU's
 * context busy (it interrupted a hit) waits in this CPU's queue and runs
 * as soon as that hit ends, instead of being skipped.  The number
 * waiting: read after every hit's release. */
DECLARE_PER_CPU(int, stp_ndeferred);
/* stp_defer - queue @p's hit on this CPU.  Returns false when it cannot
 * wait (the queue is full, or @p already waits: this tick is then
 * skipped).  Context: any but NMI, this CPU's context busy. */
bool stp_defer(const struct stp_probe_desc *p);
/* stp_run_deferred - run the queued hits (each as a hit of its own);
 * returns when the queue is empty, at once when a caller further out on
 * this CPU is already running them.  Context: preemption disabled, this
 * CPU's context free. */
void stp_run_deferred(void);

#ifdef STP_TIMING
#include <linux/timex.h>
/* stp_timing_add - count one hit of probe @p on this CPU (the per-CPU
 * part of sc->timing; @p not of the probe table: nothing) that took
 * @cycles (get_cycles() units).  timing.c.  Context: this CPU's context
 * held; does not sleep, takes no lock. */
void stp_timing_add(struct stp_cpu *sc, const struct stp_probe_desc *p,
		    s64 cycles);
/* a hit is a run of the probe's body: not of a .return probe's entry
 * handler (which saves its @entry values) */
#define STP_TIMING_START(t) ((t) = get_cycles())
#define STP_TIMING_END(sc, p, h, t) do { \
	if ((h) == (p)->handler) \
		stp_timing_add(sc, p, (s64)(get_cycles() - (t))); \
} while (0)
#else
#define STP_TIMING_START(t) ((void)(t))
#define STP_TIMING_END(sc, p, h, t) do { } while (0)
#endif

#define STP_HIT_LIGHT 1            /* stp_hit's modes */
#define STP_HIT_MISS 2
#define STP_HIT_NOERR 4

/* Hits a probe set's callbacks skipped on this CPU (kset.c): its context
 * was busy (a hit inside a hit: from an interrupt, or from a function
 * the handler calls), ftrace saw a recursion, or an NMI.  Like a
 * kprobe's nmissed, counted as skipped at the end without ending the
 * run. */
DECLARE_PER_CPU(unsigned long, stp_kset_missed);

/**
 * stp_hit_light_run - a hit of the run that cannot fail (@mode has
 * STP_HIT_NOERR and STP_HIT_LIGHT, @want is RUNNING, no -t): when the
 * run's gate is open and this CPU's context free (one load), run
 * @handler without claiming the context (the error path the compiler
 * keeps is never taken, and a hit that comes meanwhile, from an
 * interrupt, runs as it would after this one) and return true; else
 * false, and stp_hit's full tests sort the hit out.  Context: as
 * stp_hit.
 */
static __always_inline bool stp_hit_light_run(int want, int mode,
		void (*handler)(struct stp_context *c))
{
#ifndef STP_TIMING
	if ((mode & STP_HIT_NOERR) && (mode & STP_HIT_LIGHT) &&
	    want == STP_STATE_RUNNING &&
	    likely(!this_cpu_read(stp_cpu_gate.word))) {
		handler(&__this_cpu_read(stp_cpu_ptr)->ctx);
		return true;
	}
#endif
	return false;
}

/**
 * stp_hit - run @handler for probe @p on this CPU's context if the
 * session is in state @want; @entry_data is a .return probe's instance
 * data, @perf the perf counters read for a process probe (or NULL),
 * @tp_args (12, or NULL) the tracepoint arguments.  A hit inside a
 * hit on this CPU is skipped and counted.  @mode (a constant), bits:
 * STP_HIT_LIGHT, the translator found that @handler reads nothing of
 * the context but c->error and cannot print, and counts its statements
 * in a local (codegen's light_body): the fields nothing reads are then
 * not reset; STP_HIT_MISS, a hit inside a hit is counted as a probe
 * set's (stp_kset_missed: reported at the end, as a kprobe's nmissed,
 * not against MAXSKIPPED); STP_HIT_NOERR (with LIGHT), the translator
 * found that @handler cannot record an error either (it names none, and
 * runs at most MAXACTION statements): a hit of the run (@want RUNNING)
 * then touches nothing of this CPU's context and does not claim it
 * (without -t, whose counts are the context's), so that it costs one
 * load past ftrace's or kprobes' own guards: this CPU's stp_cpu_gate.
 * Context: preemption disabled by the caller (the kernel does it for
 * kprobe and kretprobe handlers; stp_run_common does it for the others,
 * so that stp_wait_probes_idle()'s grace period covers every hit);
 * does not sleep.
 */
static __always_inline void stp_hit(const struct stp_probe_desc *p,
				    struct pt_regs *regs, int want,
				    void (*handler)(struct stp_context *c),
				    void *entry_data,
				    const struct stp_perf_values *perf,
				    const unsigned long *tp_args, int mode,
				    const struct stp_kset_rt *kset, u32 row)
{
	const int light = mode & STP_HIT_LIGHT;
	struct stp_cpu *sc;
	struct stp_context *c;
	cycles_t t0 = 0;           /* -t: the hit's start */

	if (stp_hit_light_run(want, mode, handler))
		return;
	/* After exit() (or too many errors) only end probes run, as in
	 * SystemTap: the run is already stopping.  Both tests in one load,
	 * compared with a constant. */
	if (want != STP_STATE_STOPPING) {
		const union stp_gate run = {
			.state = ATOMIC_INIT(want),
			.exit_requested = ATOMIC_INIT(0),
		};

		if (READ_ONCE(stp_gate.word) != run.word)
			return;
	} else if (atomic_read(&stp_session_state) != want) {
		return;
	}
	/* After errors ended the run, error probes run instead of end
	 * probes (and instead of the end probes left, when an end probe's
	 * error ended it). */
	if (want == STP_STATE_STOPPING && p->kind == STP_PROBE_END &&
	    atomic_read(&stp_error_exit))
		return;
	/* Test and set need no atomic instruction: whatever interrupts
	 * this CPU between them (an NMI included) has run to its end, and
	 * released busy, before we go on. */
	if (unlikely(this_cpu_read(stp_cpu_gate.busy))) {
		/* a probe hit inside a probe hit on this CPU: a timer's
		 * runs when that one ends, others are skipped */
		if (mode & STP_HIT_MISS) {
			this_cpu_inc(stp_kset_missed);
			return;
		}
		if (p->kind == STP_PROBE_TIMER && want == STP_STATE_RUNNING &&
		    stp_defer(p))
			return;
		atomic_inc(&stp_skipped);
		atomic_inc(&stp_skipped_reentrant);
		stp_check_skipped();
		return;
	}
	this_cpu_write(stp_cpu_gate.busy, 1);
	barrier();          /* the claim before the hit's stores */
	sc = this_cpu_read(stp_cpu_ptr);
	c = &sc->ctx;
	/* (NULL already in a light hit; stored, the compiler sees whether
	 * the handler can set it and drops the test below if not) */
	c->error = NULL;           /* (error_loc is set along with it) */
	if (!light) {
		c->actions = 0;
		c->probe = p;
		c->kset = kset;
		c->kset_row = row;
		c->regs = regs;
		c->entry_data = entry_data;
		c->perf_values = perf;
		c->rx_ngroups = -1;
		c->nesting = 0;
		c->next = 0;
		c->frame_used = 0;
		if (tp_args)
			memcpy(c->tp_args, tp_args, sizeof(c->tp_args));
	}
	/* begin/end run in stapio's process: let their flushes wait for
	 * stapio to drain the relay when it runs on another CPU (the
	 * budget is 0 otherwise, and again after such a hit) */
	if (want != STP_STATE_RUNNING && num_online_cpus() > 1)
		sc->pb.wait_budget_ns = STP_END_FLUSH_WAIT_NS;

	STP_TIMING_START(t0);
	handler(c);

	if (unlikely((!light && sc->pb.len) || c->error ||
		     (want != STP_STATE_RUNNING && sc->pb.wait_budget_ns)))
		stp_hit_finish(sc, p);
	STP_TIMING_END(sc, p, handler, t0);
	barrier();          /* the hit's stores before the release */
	this_cpu_write(stp_cpu_gate.busy, 0);
	barrier();          /* the release before the look at the queue: a
	                     * tick after it runs by itself */
	if (unlikely(this_cpu_read(stp_ndeferred)))
		stp_run_deferred();
}

/**
 * stp_kprobe_hit - the pre_handler of kprobe @kp (of a struct
 * stp_probe_rt) running @handler; with a constant @handler the compiler
 * inlines it.  The handler sees the probed address in regs->ip (int3
 * and ftrace-based kprobes leave ip past it): addr(), probefunc() and
 * backtraces start there; restored for the kernel's single-stepping.
 * With @light (a constant, see stp_hit) the handler reads no registers:
 * regs->ip is left alone.  Returns 0.  Context: kprobe handler
 * (preemption disabled by the kernel); does not sleep.
 */
static __always_inline int stp_kprobe_hit(struct kprobe *kp,
					  struct pt_regs *regs,
					  void (*handler)(struct stp_context *c),
					  int light)
{
	struct stp_probe_rt *r = container_of(kp, struct stp_probe_rt, u.kp);
	unsigned long ip = regs->ip;

	if (!light)
		regs->ip = (unsigned long)kp->addr;
	stp_hit(r->p, regs, STP_STATE_RUNNING, handler, NULL, NULL, NULL,
		light, NULL, 0);
	if (!light)
		regs->ip = ip;
	return 0;
}

#endif
