/* kset.h - probe sets: the kernel points of one handler as the rows of
 * a table (struct stp_kset, made by translator/codegen/kset_gen.c),
 * attached in batches (kset.c): function entries ftrace can run through
 * one ftrace_ops for the whole set (kset_ftrace.c: an ftrace update per
 * few thousand),
 * the rest -- inline sites, statements, functions without an __fentry__
 * call -- as kprobes, .return points as kretprobes.
 *
 * The hit paths are inline so that each set's generated callbacks
 * (stp_ksetN_ft, stp_ksetN_kp) inline its handler, as kprobe
 * pre_handlers do (stp_hit.h).  Included by generated code with sets and
 * by kset*.c.
 */
#ifndef STP_KSET_H
#define STP_KSET_H

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/trace_recursion.h>
#include "stp_hit.h"

/* .return sets through one fprobe, entry and exit handler (kset_fprobe.c),
 * where the kernel has fprobes of this shape; else kretprobes */
#if defined(STP_HAVE_FPROBE) && defined(STP_HAVE_FPROBE_ENTRY_RET_IP)
#define STP_KSET_FPROBE 1
#include <linux/fprobe.h>
#endif

/* A function of a set: its name (offset in the set's names), its file
 * (0: none; else 1 + index in the set's files) and line (0: none). */
struct stp_kset_func {
	u32 name, file, line;
};

struct stp_kset_rt;

/* A row attached by a kprobe (or kretprobe): its set and row. */
struct stp_kset_kp {
	struct kprobe kp;
	struct stp_kset_rt *set;
	u32 row;
};

struct stp_kset_krp {
	struct kretprobe krp;
	struct stp_kset_rt *set;
	u32 row;
};

/* Run-time state of one set (kset.c; vmalloc'd, as is everything that
 * grows with its rows).  Written at registration (process context),
 * read-only while probes run. */
struct stp_kset_rt {
	const struct stp_probe_desc *p;   /* its entry of the probe table */
	const struct stp_kset *k;         /* p->kset */
	unsigned long delta;              /* KASLR: run-time - link-time */
	u32 *addr;                        /* [k->nrows] link-time address -
	                                   * k->base, ascending */
	u32 *func;                        /* [k->nrows] function index; bit
	                                   * 31: attach by kprobe */
	struct stp_kset_func *funcs;      /* [k->nfuncs] */
	u32 *file_off;                    /* [k->nfiles] offsets in k->files */
	/* rows run by ftrace (kset_ftrace.c; kset_fprobe.c for .return) */
	struct ftrace_ops ops;
#ifdef STP_KSET_FPROBE
	struct fprobe fp;
#endif
	unsigned long *ips;               /* [nft] their call sites */
	u32 nft;
	bool ops_on;                      /* ops (fp) registered */
	/* rows run by kprobes or (.return) kretprobes */
	struct stp_kset_kp *kps;          /* [nkp] */
	struct stp_kset_krp *krps;        /* [nkp] */
	u32 nkp;
	u8 *kp_on;                        /* [nkp] registered */
	/* rows that could not be attached: count, first, its error */
	u32 failed, first_failed;
	int first_rc;
};

#define STP_KSET_KPROBE (1u << 31)        /* in stp_kset_rt.func[] */

/**
 * stp_kset_row - the row of set @s at run-time address @ip: the last
 * row at or below it (an ftrace call site follows its function's start
 * by up to 4 bytes).  Context: any; does not sleep.
 */
static inline u32 stp_kset_row(const struct stp_kset_rt *s, unsigned long ip)
{
	unsigned long off = ip - s->delta - s->k->base;
	u32 lo = 0, hi = s->k->nrows;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (s->addr[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

/* stp_ftrace_bit_in_nmi - whether the callback that took recursion bit
 * @bit (ftrace_test_recursion_trylock's, >= 0) runs in an NMI: the bit
 * tells its context, with in_nmi() asked only when it does not (the
 * context's own bit was taken: the transition bit). */
#ifdef STP_HAVE_FTRACE_CTX_BIT
#define stp_ftrace_bit_in_nmi(bit) \
	((bit) == TRACE_FTRACE_START + TRACE_CTX_NMI || \
	 ((bit) == TRACE_FTRACE_START + TRACE_CTX_TRANSITION && in_nmi()))
#else
#define stp_ftrace_bit_in_nmi(bit) in_nmi()
#endif

/**
 * stp_kset_ftrace_slow - the part of stp_kset_ftrace_hit a light hit
 * that cannot fail does not need, out of line (a noinline function of
 * the set, made by codegen, runs it), so that its calls cost the fast
 * path no stack frame: ftrace's recursion guard gave @bit (>= 0, not an
 * NMI's); this CPU's context, taken, has the hit skipped and counted
 * (stp_kset_missed, stp_hit.h).  Unless @light (a constant: see
 * stp_hit), the handler gets the full registers (the set's ops asks for
 * them) with regs->ip at the call site @ip, restored.  Releases @bit.
 * Context: ftrace callback, not NMI; does not sleep.
 */
static __always_inline void stp_kset_ftrace_slow(struct ftrace_ops *op,
		unsigned long ip, struct ftrace_regs *fregs, int bit,
		void (*handler)(struct stp_context *c), int light)
{
	struct stp_kset_rt *s = container_of(op, struct stp_kset_rt, ops);
	struct pt_regs *regs = NULL;
	unsigned long saved = 0;

	if (!light) {
		regs = ftrace_get_regs(fregs);
		if (regs) {
			saved = regs->ip;
			regs->ip = ip;
		}
	}
	stp_hit(s->p, regs, STP_STATE_RUNNING, handler, NULL, NULL, NULL,
		light | STP_HIT_MISS, light ? NULL : s,
		light ? 0 : stp_kset_row(s, ip));
	if (regs)
		regs->ip = saved;
	ftrace_test_recursion_unlock(bit);
}

/**
 * stp_kset_ftrace_hit - the ftrace_ops callback of a set running
 * @handler at call site @ip (from @parent_ip); with a constant @handler
 * the compiler inlines it.  ftrace's recursion guard, then this CPU's
 * context: a hit that finds either taken, or comes in an NMI, is
 * skipped and counted (stp_kset_missed, stp_hit.h).  A light hit that
 * cannot fail (stp_hit's STP_HIT_NOERR) with the context free runs here;
 * every other hit goes on in @slow (stp_kset_ftrace_slow), by a tail
 * call, so that this function needs no stack frame of its own.
 * Context: ftrace callback, any context; does not sleep.
 */
static __always_inline void stp_kset_ftrace_hit(struct ftrace_ops *op,
		unsigned long ip, unsigned long parent_ip,
		struct ftrace_regs *fregs,
		void (*handler)(struct stp_context *c), int light,
		void (*slow)(struct ftrace_ops *op, unsigned long ip,
			     struct ftrace_regs *fregs, int bit))
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (unlikely(bit < 0)) {
		this_cpu_inc(stp_kset_missed);
		return;
	}
	/* (the trylock disabled preemption) */
	if (unlikely(stp_ftrace_bit_in_nmi(bit))) {
		this_cpu_inc(stp_kset_missed);
		ftrace_test_recursion_unlock(bit);
		return;
	}
	if (stp_hit_light_run(STP_STATE_RUNNING, light, handler)) {
		ftrace_test_recursion_unlock(bit);
		return;
	}
	slow(op, ip, fregs, bit);
}

/**
 * stp_kset_kprobe_hit - the pre_handler of a set's kprobe row running
 * @handler (inlined when constant), as stp_kprobe_hit.  Returns 0.
 * Context: kprobe handler; does not sleep.
 */
static __always_inline int stp_kset_kprobe_hit(struct kprobe *kp,
		struct pt_regs *regs,
		void (*handler)(struct stp_context *c), int light)
{
	struct stp_kset_kp *k = container_of(kp, struct stp_kset_kp, kp);
	unsigned long ip = regs->ip;

	if (!light)
		regs->ip = (unsigned long)kp->addr;
	stp_hit(k->set->p, regs, STP_STATE_RUNNING, handler, NULL, NULL, NULL,
		light | STP_HIT_MISS, k->set, k->row);
	if (!light)
		regs->ip = ip;
	return 0;
}

/* ---- kset.c ---- */

/* stp_ksets_register - attach every set of the probe table; a row that
 * fails is counted (one warning per wildcard set) or, outside a
 * wildcard, an error.  Returns 0 or -errno (then nothing is attached).
 * Process context; may sleep (seconds for thousands of kprobes). */
int stp_ksets_register(void);
/* stp_ksets_unregister - detach them all, batched; counts the hits
 * skipped meanwhile.  Process context; may sleep. */
void stp_ksets_unregister(void);

/* ---- the ftrace method (kset_ftrace.c) ---- */

/* Sites patched per ftrace update (kset_ftrace.c). */
#define STP_KSET_CHUNK 4096

/* stp_kset_ftrace_filter - find which of the @n call sites @ips (run-time
 * addresses) of set @s ftrace takes, not patching them: ok[i] says
 * whether ips[i] was (those ftrace refuses are left to kprobes); they
 * are kept in s->ips.  Returns their number (s->nft), or -errno when
 * ftrace takes none (ok[] all 0).  Process context; may sleep. */
int stp_kset_ftrace_filter(struct stp_kset_rt *s, unsigned long *ips, u32 n,
			   u8 *ok);
/* stp_kset_ftrace_start - patch them all, an ftrace update per
 * STP_KSET_CHUNK: the set's callback runs from now on.  Returns 0 or
 * -errno (then none is).  Process context; may sleep. */
int stp_kset_ftrace_start(struct stp_kset_rt *s);
/* stp_kset_ftrace_detach - undo it; returns when no callback runs any
 * more.  Process context; may sleep. */
void stp_kset_ftrace_detach(struct stp_kset_rt *s);

/* stp_kset_chunk - the call sites of the update starting at s->ips[@i]:
 * *@n of them (at most STP_KSET_CHUNK) */
static inline unsigned long *stp_kset_chunk(struct stp_kset_rt *s, u32 i,
					    u32 *n)
{
	*n = min_t(u32, STP_KSET_CHUNK, s->nft - i);
	return s->ips + i;
}

#ifdef STP_KSET_FPROBE
/* stp_kset_fprobe_start - a .return set's call sites s->ips (found by
 * stp_kset_ftrace_filter) through the set's fprobe, STP_KSET_CHUNK per
 * ftrace update.  Returns 0 or -errno (then none is).  Process context;
 * may sleep. */
int stp_kset_fprobe_start(struct stp_kset_rt *s);
/* stp_kset_fprobe_detach - undo it, counting the returns fprobe could
 * not hook as skipped.  Process context; may sleep. */
void stp_kset_fprobe_detach(struct stp_kset_rt *s);
#endif

#endif
