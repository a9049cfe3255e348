/* kset.c - probe sets (kset.h): their tables decoded, their rows
 * attached in batches and detached, pp() of their hits.
 *
 * A set's rows are split by how they attach: a function entry ftrace
 * can run goes to the set's ftrace_ops, thousands per ftrace update
 * (kset_ftrace.c); what ftrace refuses, and every inline site, statement
 * or function without an __fentry__ call, becomes a kprobe, registered
 * one by one (the kernel has no batch for them); .return rows go to one
 * fprobe (kset_fprobe.c) where the kernel has fprobes, else become
 * kretprobes.  Detaching is batched the same way, with one
 * unregister_kprobes() and one unregister_kretprobes() per set.  Everything that grows with
 * the rows is vmalloc'd.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/kprobes.h>
#include "kset.h"

DEFINE_PER_CPU(unsigned long, stp_kset_missed);

static struct stp_kset_rt **stp_ksets;     /* [stp_nksets] */
static int stp_nksets;

/* stp_vlq - the next unsigned VLQ of table @t at *@pos (see struct
 * stp_kset); 0 past the end. */
static u64 stp_vlq(const char *t, size_t *pos)
{
	u64 v = 0;
	int shift = 0;

	for (;;) {
		char ch = t[*pos];
		unsigned d;

		if (ch >= 'A' && ch <= 'Z')
			d = ch - 'A';
		else if (ch >= 'a' && ch <= 'z')
			d = ch - 'a' + 26;
		else if (ch >= '0' && ch <= '9')
			d = ch - '0' + 52;
		else if (ch == '+')
			d = 62;
		else if (ch == '/')
			d = 63;
		else
			return v;       /* the end (NUL) */
		(*pos)++;
		if (shift < 64)
			v |= (u64)(d & 31) << shift;
		shift += 5;
		if (!(d & 32))
			return v;
	}
}

static s64 stp_svlq(const char *t, size_t *pos)
{
	u64 v = stp_vlq(t, pos);

	return v & 1 ? -(s64)(v >> 1) - 1 : (s64)(v >> 1);
}

/* stp_kset_decode - @s's tables into arrays.  Returns 0 or -errno.
 * Process context; may sleep. */
static int stp_kset_decode(struct stp_kset_rt *s)
{
	const struct stp_kset *k = s->k;
	size_t pos = 0, off;
	u64 a = 0;
	s64 f = 0;
	u32 i;

	s->addr = kvmalloc_array(k->nrows, sizeof(*s->addr), GFP_KERNEL);
	s->func = kvmalloc_array(k->nrows, sizeof(*s->func), GFP_KERNEL);
	s->funcs = kvmalloc_array(max(k->nfuncs, 1u), sizeof(*s->funcs),
				  GFP_KERNEL);
	s->file_off = kvmalloc_array(max(k->nfiles, 1u),
				     sizeof(*s->file_off), GFP_KERNEL);
	if (!s->addr || !s->func || !s->funcs || !s->file_off)
		return -ENOMEM;
	for (i = 0; i < k->nrows; i++) {
		u64 v = stp_vlq(k->rows, &pos);

		a += v >> 1;
		f += stp_svlq(k->rows, &pos);
		if (a > U32_MAX || f < 0 || f >= k->nfuncs)
			return -EINVAL;
		s->addr[i] = a;
		s->func[i] = f | (v & 1 ? STP_KSET_KPROBE : 0);
	}
	for (i = 0, pos = 0, off = 0; i < k->nfuncs; i++) {
		s->funcs[i].file = stp_vlq(k->funcs, &pos);
		s->funcs[i].line = stp_vlq(k->funcs, &pos);
		s->funcs[i].name = off;
		off += strlen(k->names + off) + 1;
		if (s->funcs[i].file > k->nfiles)
			return -EINVAL;
	}
	for (i = 0, off = 0; i < k->nfiles; i++) {
		s->file_off[i] = off;
		off += strlen(k->files + off) + 1;
	}
	return 0;
}

static const struct stp_kset_func *stp_kset_fn(const struct stp_kset_rt *s,
					       u32 row)
{
	return &s->funcs[s->func[row] & ~STP_KSET_KPROBE];
}

static unsigned long stp_kset_addr(const struct stp_kset_rt *s, u32 row)
{
	return s->k->base + s->addr[row] + s->delta;
}

const char *stp_kset_function(struct stp_context *c)
{
	const struct stp_kset_rt *s = c->kset;

	if (!s || c->probe != s->p)
		return NULL;
	return s->k->names + stp_kset_fn(s, c->kset_row)->name;
}

void stp_pp(struct stp_context *c, char *dst)
{
	const struct stp_kset_rt *s = c->kset;
	const struct stp_kset_func *f;
	int n;

	if (!s || c->probe != s->p) {
		stp_strcpy(dst, c->probe ? c->probe->pp : "");
		return;
	}
	f = stp_kset_fn(s, c->kset_row);
	n = scnprintf(dst, MAXSTRINGLEN, "%s%s", s->k->pp_prefix,
		      s->k->names + f->name);
	if (f->file)
		n += scnprintf(dst + n, MAXSTRINGLEN - n, "@%s",
			       s->k->files + s->file_off[f->file - 1]);
	if (f->file && f->line)
		n += scnprintf(dst + n, MAXSTRINGLEN - n, ":%u", f->line);
	scnprintf(dst + n, MAXSTRINGLEN - n, "%s", s->k->pp_suffix);
}

/* ---- kprobes and kretprobes ---- */

static int stp_kset_ret_fn(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *krp = get_kretprobe(ri);
	struct stp_kset_krp *k;

	if (!krp)
		return 0;
	k = container_of(krp, struct stp_kset_krp, krp);
	if (k->set->p->entry_handler && *(int *)ri->data != 1)
		return 0;       /* no entry values (see stp_kretprobe_fn) */
	preempt_disable();
	stp_hit(k->set->p, regs, STP_STATE_RUNNING, k->set->p->handler,
		ri->data, NULL, NULL, 0, k->set, k->row);
	preempt_enable();
	return 0;
}

static int stp_kset_entry_fn(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct kretprobe *krp = get_kretprobe(ri);
	struct stp_kset_krp *k;

	*(int *)ri->data = 0;
	if (!krp)
		return 0;
	k = container_of(krp, struct stp_kset_krp, krp);
	preempt_disable();
	stp_hit(k->set->p, regs, STP_STATE_RUNNING, k->set->p->entry_handler,
		ri->data, NULL, NULL, 0, k->set, k->row);
	preempt_enable();
	return 0;
}

/* stp_kset_failed - row @row of @s could not be attached (@rc) */
static void stp_kset_failed(struct stp_kset_rt *s, u32 row, int rc)
{
	if (!s->failed++) {
		s->first_failed = row;
		s->first_rc = rc;
	}
}

/* stp_kset_kprobes - attach the @n rows @rows of @s by kprobes (entry
 * sets) or kretprobes (.return sets), one by one with a chance to
 * reschedule between them.  Returns 0 or -ENOMEM. */
static int stp_kset_kprobes(struct stp_kset_rt *s, const u32 *rows, u32 n)
{
	const struct stp_probe_desc *p = s->p;
	u32 i;
	int rc;

	if (!n)
		return 0;
	s->kp_on = kvcalloc(n, sizeof(*s->kp_on), GFP_KERNEL);
	if (p->is_return)
		s->krps = kvcalloc(n, sizeof(*s->krps), GFP_KERNEL);
	else
		s->kps = kvcalloc(n, sizeof(*s->kps), GFP_KERNEL);
	if (!s->kp_on || (!s->krps && !s->kps))
		return -ENOMEM;
	s->nkp = n;
	for (i = 0; i < n; i++) {
		void *addr = (void *)stp_kset_addr(s, rows[i]);

		if (p->is_return) {
			struct stp_kset_krp *k = &s->krps[i];

			k->set = s;
			k->row = rows[i];
			k->krp.kp.addr = addr;
			k->krp.handler = stp_kset_ret_fn;
			k->krp.maxactive = p->maxactive;
			if (p->entry_handler) {
				k->krp.entry_handler = stp_kset_entry_fn;
				k->krp.data_size = p->entry_size;
			}
			rc = register_kretprobe(&k->krp);
		} else {
			struct stp_kset_kp *k = &s->kps[i];

			k->set = s;
			k->row = rows[i];
			k->kp.addr = addr;
			k->kp.pre_handler = s->k->kprobe_pre;
			rc = register_kprobe(&k->kp);
		}
		if (rc)
			stp_kset_failed(s, rows[i], rc);
		else
			s->kp_on[i] = 1;
		cond_resched();
	}
	return 0;
}

/* stp_kset_attach - decode @s and attach its rows.  Returns 0 or
 * -errno (rows that fail are counted in s->failed). */
static int stp_kset_attach(struct stp_kset_rt *s)
{
	const struct stp_kset *k = s->k;
	unsigned long *ips = NULL;
	u32 *ftrows = NULL, *kprows, nft = 0, nkp = 0, i;
	bool ft = !s->p->is_return && k->ftrace_fn;    /* through ftrace */
	u8 *ok = NULL;
	int rc = stp_kset_decode(s);

	if (rc)
		return rc;
	kprows = kvmalloc_array(k->nrows, sizeof(*kprows), GFP_KERNEL);
	if (!kprows)
		return -ENOMEM;
#ifdef STP_KSET_FPROBE
	ft = ft || s->p->is_return;                     /* fprobe's */
#endif
	if (ft) {
		ips = kvmalloc_array(k->nrows, sizeof(*ips), GFP_KERNEL);
		ftrows = kvmalloc_array(k->nrows, sizeof(*ftrows), GFP_KERNEL);
		ok = kvzalloc(k->nrows, GFP_KERNEL);
		if (!ips || !ftrows || !ok) {
			rc = -ENOMEM;
			goto out;
		}
	}
	for (i = 0; i < k->nrows; i++) {
		if (ips && !(s->func[i] & STP_KSET_KPROBE)) {
			ftrows[nft] = i;
			ips[nft++] = stp_kset_addr(s, i);
		} else {
			kprows[nkp++] = i;
		}
	}
	if (nft) {
		/* the filter first (no text changes yet): what ftrace
		 * refuses (ok[i] 0) goes to kprobes too */
		rc = stp_kset_ftrace_filter(s, ips, nft, ok);
		for (i = 0; i < nft; i++)
			if (!ok[i])
				kprows[nkp++] = ftrows[i];
	}
	/* then the kprobes: registering them is slow once every function
	 * is traced (each call through the set's callback) */
	rc = stp_kset_kprobes(s, kprows, nkp);
	if (!rc && s->nft) {
		/* the ftrace rows, in batches */
#ifdef STP_KSET_FPROBE
		if (s->p->is_return)
			rc = stp_kset_fprobe_start(s);
		else
#endif
			rc = stp_kset_ftrace_start(s);
		if (rc) {
			for (i = 0; i < nft; i++)
				if (ok[i])
					stp_kset_failed(s, ftrows[i], rc);
			rc = 0;
		}
	}
out:
	kvfree(ok);
	kvfree(ftrows);
	kvfree(ips);
	kvfree(kprows);
	return rc;
}

/* stp_kset_report - after attaching @s: a warning for a wildcard's rows
 * that failed, an error (returned as -errno) for other rows. */
static int stp_kset_report(struct stp_kset_rt *s)
{
	const struct stp_probe_desc *p = s->p;
	const char *name;

	if (!s->failed || p->optional)
		return 0;
	name = s->k->names + stp_kset_fn(s, s->first_failed)->name;
	if (p->wildcard) {
		stp_ctl_send_text(STP_MSG_WARNING,
			"WARNING: %u of %u probes of %s could not be registered "
			"(first: %s rc %d)\n", s->failed, s->k->nrows,
			p->pattern ? p->pattern : p->pp, name, s->first_rc);
		return 0;
	}
	stp_ctl_send_text(STP_MSG_ERROR,
		"ERROR: probe %s (%s) registration failed (rc %d) near %s\n",
		p->pp, name, s->first_rc, p->loc ? p->loc : "?");
	return s->first_rc;
}

int stp_ksets_register(void)
{
	int i, n = 0, rc = 0;

	for (i = 0; i < stp_module.nprobes; i++)
		n += stp_module.probes[i].kset != NULL;
	if (!n)
		return 0;
	stp_ksets = kvcalloc(n, sizeof(*stp_ksets), GFP_KERNEL);
	if (!stp_ksets)
		return -ENOMEM;
	for (i = 0; i < stp_module.nprobes && !rc; i++) {
		const struct stp_probe_desc *p = &stp_module.probes[i];
		struct stp_kset_rt *s;

		if (!p->kset)
			continue;
		s = kvzalloc(sizeof(*s), GFP_KERNEL);
		if (!s) {
			rc = -ENOMEM;
			break;
		}
		stp_ksets[stp_nksets++] = s;
		s->p = p;
		s->k = p->kset;
		s->delta = (unsigned long)&_printk - s->k->anchor;
		rc = stp_kset_attach(s);
		if (!rc)
			rc = stp_kset_report(s);
	}
	if (rc)
		stp_ksets_unregister();
	return rc;
}

/* stp_kset_detach - detach @s's kprobes in one batch and count what
 * they missed as skipped.  May sleep. */
static void stp_kset_detach_kprobes(struct stp_kset_rt *s)
{
	void **v;
	unsigned long missed = 0;
	u32 i, n = 0;

	if (!s->nkp)
		return;
	v = kvmalloc_array(s->nkp, sizeof(*v), GFP_KERNEL);
	for (i = 0; i < s->nkp; i++) {
		if (!s->kp_on[i])
			continue;
		if (v)
			v[n++] = s->krps ? (void *)&s->krps[i].krp
					 : (void *)&s->kps[i].kp;
		else if (s->krps)
			unregister_kretprobe(&s->krps[i].krp);
		else
			unregister_kprobe(&s->kps[i].kp);
	}
	if (n && s->krps)
		unregister_kretprobes((struct kretprobe **)v, n);
	else if (n)
		unregister_kprobes((struct kprobe **)v, n);
	kvfree(v);
	for (i = 0; i < s->nkp; i++) {
		if (!s->kp_on[i])
			continue;
		s->kp_on[i] = 0;
		if (s->krps)
			missed += s->krps[i].krp.nmissed +
				  s->krps[i].krp.kp.nmissed;
		else
			missed += s->kps[i].kp.nmissed;
	}
	atomic_add(missed, &stp_skipped);
}

void stp_ksets_unregister(void)
{
	unsigned long missed = 0;
	int i, cpu;

	for (i = 0; i < stp_nksets; i++) {
		struct stp_kset_rt *s = stp_ksets[i];

#ifdef STP_KSET_FPROBE
		if (s->ops_on && s->p->is_return)
			stp_kset_fprobe_detach(s);
#endif
		if (s->ops_on)
			stp_kset_ftrace_detach(s);
		stp_kset_detach_kprobes(s);
	}
	for (i = 0; i < stp_nksets; i++) {
		struct stp_kset_rt *s = stp_ksets[i];

		kvfree(s->ips);
		kvfree(s->kps);
		kvfree(s->krps);
		kvfree(s->kp_on);
		kvfree(s->addr);
		kvfree(s->func);
		kvfree(s->funcs);
		kvfree(s->file_off);
		kvfree(s);
	}
	kvfree(stp_ksets);
	stp_ksets = NULL;
	stp_nksets = 0;
	for_each_possible_cpu(cpu) {
		missed += per_cpu(stp_kset_missed, cpu);
		per_cpu(stp_kset_missed, cpu) = 0;
	}
	atomic_add(missed, &stp_skipped);
	atomic_add(missed, &stp_skipped_reentrant);
}
