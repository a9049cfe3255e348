/* kset_ftrace.c - a probe set's function entries through one ftrace_ops
 * (kset.h): the ops' filter gets every call site at once
 * (ftrace_set_filter_ips, no text change while the ops is not
 * registered) and registering it patches them all in one update.
 *
 * A site ftrace does not know (a function it refuses or disabled, or a
 * set made without the kernel's table of call sites) makes the whole
 * filter call fail with -EINVAL.  The sites are then sifted on a scratch
 * ops, whose filter starts empty each time (reset) so that a try costs
 * its own sites only: halves that fail are halved again down to single
 * sites, which are left to kprobes.
 *
 * The callback is the set's generated stp_ksetN_ft (kset.h: ftrace's
 * recursion guard, the CPU's context, the handler inlined).  The ops has
 * FTRACE_OPS_FL_RECURSION (the callback guards itself, so that a refused
 * hit is counted) and, when the handler may read registers,
 * FTRACE_OPS_FL_SAVE_REGS.
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
	struct ftrace_ops *scratch;
	u32 i, m = 0;
	int rc;

	s->ops.func = s->k->ftrace_fn;
	s->ops.flags = FTRACE_OPS_FL_RECURSION |
		       (s->k->regs ? FTRACE_OPS_FL_SAVE_REGS : 0);
	rc = ftrace_set_filter_ips(&s->ops, ips, n, 0, 1);
	if (rc == 0) {
		memset(ok, 1, n);
		m = n;
	} else if (rc == -EINVAL) {
		scratch = kzalloc(sizeof(*scratch), GFP_KERNEL);
		if (!scratch)
			return -ENOMEM;
		stp_kset_sift(scratch, ips, n, ok);
		ftrace_free_filter(scratch);
		kfree(scratch);
		for (i = 0; i < n; i++)
			if (ok[i])
				ips[m++] = ips[i];
		rc = m ? ftrace_set_filter_ips(&s->ops, ips, m, 0, 1) : -EINVAL;
	}
	if (rc) {
		ftrace_free_filter(&s->ops);
		memset(ok, 0, n);
		return rc;
	}
	s->nft = m;
	return m;
}

int stp_kset_ftrace_start(struct stp_kset_rt *s)
{
	int rc = register_ftrace_function(&s->ops);

	if (rc) {
		ftrace_free_filter(&s->ops);
		s->nft = 0;
		return rc;
	}
	s->ops_on = true;
	return 0;
}

void stp_kset_ftrace_detach(struct stp_kset_rt *s)
{
	/* waits for every callback still running (ftrace's RCU-tasks
	 * grace periods for a dynamic ops) */
	unregister_ftrace_function(&s->ops);
	ftrace_free_filter(&s->ops);
	s->ops_on = false;
}
