/* kset_ftrace.c - a probe set's function entries through one ftrace_ops
 * (kset.h): the ops' filter gets thousands of call sites at a time
 * (ftrace_set_filter_ips), each such batch patched in one ftrace update.
 *
 * A site ftrace does not know (a function it refuses or disabled, or a
 * set made without the kernel's table of call sites) makes the whole
 * filter call fail with -EINVAL.  The sites are first tried on a scratch
 * ops, never registered, whose filter starts empty each time (reset) so
 * that a try costs its own sites only: halves that fail are halved again
 * down to single sites, which are left to kprobes.
 *
 * The update is made in chunks of STP_KSET_CHUNK sites, a
 * register_ftrace_function for the first, a filter change of the
 * registered ops for each next: the kernel patches a whole update
 * without a scheduling point, and tens of thousands of sites in one (8 s
 * in the TCG lab, minutes on a busy host) made RCU report a stall.
 * Detaching takes the chunks away in reverse order the same way.
 *
 * The callback is the set's generated stp_ksetN_ft (kset.h: ftrace's
 * recursion guard, the CPU's context, the handler inlined).  It guards
 * itself, so that a refused hit is counted: the ops leaves out
 * FTRACE_OPS_FL_RECURSION, which (since Linux 5.11) asks ftrace to wrap
 * the callback in a guard of its own (ftrace_ops_assist_func: a second
 * recursion test, and an indirect call, on every hit, and refused hits
 * that nobody counts).  It has FTRACE_OPS_FL_SAVE_REGS when the handler
 * may read registers.
 */
#include <linux/module.h>
#include <linux/ftrace.h>
#include "kset.h"

/* stp_kset_sift - mark in @ok the sites of @ips[0..@n) ftrace knows, by
 * trying them on @scratch.  Process context; may sleep. */
static void stp_kset_sift(struct ftrace_ops *scratch, unsigned long *ips,
			  u32 n, u8 *ok)
{
	int rc = ftrace_set_filter_ips(scratch, ips, n, 0, 1);

	if (rc == 0) {
		memset(ok, 1, n);
		return;
	}
	if (rc != -EINVAL || n == 1)
		return;
	cond_resched();
	stp_kset_sift(scratch, ips, n / 2, ok);
	stp_kset_sift(scratch, ips + n / 2, n - n / 2, ok + n / 2);
}

int stp_kset_ftrace_filter(struct stp_kset_rt *s, unsigned long *ips, u32 n,
			   u8 *ok)
{
	struct ftrace_ops *scratch = kzalloc(sizeof(*scratch), GFP_KERNEL);
	u32 i, m = 0;

	if (!scratch)
		return -ENOMEM;
	stp_kset_sift(scratch, ips, n, ok);
	ftrace_free_filter(scratch);
	kfree(scratch);
	for (i = 0; i < n; i++)
		m += ok[i];
	s->ips = m ? kvmalloc_array(m, sizeof(*s->ips), GFP_KERNEL) : NULL;
	if (!s->ips) {
		memset(ok, 0, n);
		return m ? -ENOMEM : -EINVAL;
	}
	for (i = m = 0; i < n; i++)
		if (ok[i])
			s->ips[m++] = ips[i];
	s->nft = m;
	return m;
}

int stp_kset_ftrace_start(struct stp_kset_rt *s)
{
	unsigned long *ips;
	u32 i, n;
	int rc = 0;

	s->ops.func = s->k->ftrace_fn;
	s->ops.flags = s->k->regs ? FTRACE_OPS_FL_SAVE_REGS : 0;
	for (i = 0; i < s->nft && !rc; i += STP_KSET_CHUNK) {
		ips = stp_kset_chunk(s, i, &n);
		rc = ftrace_set_filter_ips(&s->ops, ips, n, 0, i == 0);
		if (!rc && i == 0) {
			rc = register_ftrace_function(&s->ops);
			s->ops_on = !rc;
		}
		cond_resched();
	}
	if (rc && s->ops_on)
		stp_kset_ftrace_detach(s);
	else if (rc)
		ftrace_free_filter(&s->ops);
	return rc;
}

void stp_kset_ftrace_detach(struct stp_kset_rt *s)
{
	unsigned long *ips;
	u32 i, n;

	/* the last chunks first, the first one by unregistering (an empty
	 * filter would trace every function) */
	for (i = (s->nft - 1) / STP_KSET_CHUNK * STP_KSET_CHUNK; i > 0;
	     i -= STP_KSET_CHUNK) {
		ips = stp_kset_chunk(s, i, &n);
		ftrace_set_filter_ips(&s->ops, ips, n, 1, 0);
		cond_resched();
	}
	/* waits for every callback still running (ftrace's RCU-tasks
	 * grace periods for a dynamic ops) */
	unregister_ftrace_function(&s->ops);
	ftrace_free_filter(&s->ops);
	s->ops_on = false;
}
