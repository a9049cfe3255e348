/* kset_fprobe.c - a .return probe set's functions through one fprobe
 * (kset.h), on kernels that have fprobes (STP_KSET_FPROBE: 6.12's cloud
 * kernel; 6.1's has none, and its .return rows are kretprobes, one by
 * one).  The fprobe's entry handler runs the set's entry handler (what
 * @entry and $params of the .return body save), its exit handler the
 * body, both with ftrace's recursion guard (fprobe's) and this CPU's
 * context; a call either finds taken, or that comes in an NMI, is
 * skipped and counted (stp_kset_missed), as is one fprobe could not give
 * a return hook (its nmissed).  Call sites go to the fprobe's ftrace_ops
 * STP_KSET_CHUNK at a time, as kset_ftrace.c does for entries.
 */
#include <linux/module.h>
#include "kset.h"

#ifdef STP_KSET_FPROBE
#include <linux/fprobe.h>

/* stp_kset_fprobe_entry - the entry of a call of one of set @fp's
 * functions: the set's entry handler into @data (its first int 1 when it
 * saved its values).  Returns 0: the exit handler runs at the return.
 * Context: ftrace callback (fprobe's recursion guard held). */
static int stp_kset_fprobe_entry(struct fprobe *fp, unsigned long ip,
				 unsigned long ret_ip, struct pt_regs *regs,
				 void *data)
{
	struct stp_kset_rt *s = container_of(fp, struct stp_kset_rt, fp);

	*(int *)data = 0;
	if (!s->p->entry_handler)
		return 0;
	if (unlikely(in_nmi() || this_cpu_read(stp_cpu_gate.busy))) {
		this_cpu_inc(stp_kset_missed);
		return 0;
	}
	stp_hit(s->p, regs, STP_STATE_RUNNING, s->p->entry_handler, data,
		NULL, NULL, 0, s, stp_kset_row(s, ip));
	return 0;
}

/* stp_kset_fprobe_exit - the return of that call: the .return body.
 * Context: rethook handler (fprobe's recursion guard held). */
static void stp_kset_fprobe_exit(struct fprobe *fp, unsigned long ip,
				 unsigned long ret_ip, struct pt_regs *regs,
				 void *data)
{
	struct stp_kset_rt *s = container_of(fp, struct stp_kset_rt, fp);

	if (s->p->entry_handler && *(int *)data != 1)
		return;         /* no entry values (see stp_kretprobe_fn) */
	if (unlikely(in_nmi() || this_cpu_read(stp_cpu_gate.busy))) {
		this_cpu_inc(stp_kset_missed);
		return;
	}
	stp_hit(s->p, regs, STP_STATE_RUNNING, s->p->handler, data, NULL,
		NULL, 0, s, stp_kset_row(s, ip));
}

int stp_kset_fprobe_start(struct stp_kset_rt *s)
{
	unsigned long *ips;
	u32 i, n;
	int rc = 0;

	s->fp.entry_handler = stp_kset_fprobe_entry;
	s->fp.exit_handler = stp_kset_fprobe_exit;
	s->fp.entry_data_size = max_t(size_t, sizeof(int), s->p->entry_size);
	/* the return hooks for every site at once, as fprobe would make
	 * them for a single registration (a .maxactive(N) per function) */
	s->fp.nr_maxactive = min_t(u64, INT_MAX, (u64)s->nft *
		(s->p->maxactive ? s->p->maxactive : 2 * num_possible_cpus()));
	for (i = 0; i < s->nft && !rc; i += STP_KSET_CHUNK) {
		ips = stp_kset_chunk(s, i, &n);
		if (i == 0) {
			rc = register_fprobe_ips(&s->fp, ips, n);
			s->ops_on = !rc;
		} else {
			rc = ftrace_set_filter_ips(&s->fp.ops, ips, n, 0, 0);
		}
		cond_resched();
	}
	if (rc && s->ops_on)
		stp_kset_fprobe_detach(s);
	return rc;
}

void stp_kset_fprobe_detach(struct stp_kset_rt *s)
{
	unsigned long *ips;
	u32 i, n;

	for (i = (s->nft - 1) / STP_KSET_CHUNK * STP_KSET_CHUNK; i > 0;
	     i -= STP_KSET_CHUNK) {
		ips = stp_kset_chunk(s, i, &n);
		ftrace_set_filter_ips(&s->fp.ops, ips, n, 1, 0);
		cond_resched();
	}
	/* waits for the handlers still running, frees the return hooks */
	unregister_fprobe(&s->fp);
	atomic_add(s->fp.nmissed, &stp_skipped);
	s->ops_on = false;
}

#endif
