/* probes.c - registration of timer (hrtimer), kprobe/kretprobe and perf
 * (perf.c) probes, and running begin/end probes.
 *
 * Probes are registered one by one (with a chance to reschedule between
 * them, so thousands of kprobes do not hog the CPU).  A probe that fails
 * is an error that ends the start, unless it is optional or one of many
 * a wildcard matched: those are counted, and one warning per pattern
 * says how many could not be registered.
 *
 * A kprobe on a module's function ("MOD:sym") whose module is not loaded
 * at the start is deferred, not an error: a module notifier arms it when
 * the module comes (before its init function runs) and disarms it when
 * the module goes, as often as the module is loaded and unloaded. */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/hrtimer.h>
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include "kset.h"

static struct stp_probe_rt *stp_rt;   /* [stp_module.nprobes] */

/* Serializes the module notifier's (un)registrations with each other and
 * with the start's; the notifier is registered while any probe waits. */
static DEFINE_MUTEX(stp_modprobe_mutex);
static bool stp_modnotify_on;

/* stp_timer_period - the next period of timer probe @p in ns: period_ns,
 * plus a uniform random offset in [-randomize_ns, +randomize_ns] for
 * .randomize(M) (the translator keeps M below the period). */
static u64 stp_timer_period(const struct stp_probe_desc *p)
{
	u64 span;

	if (!p->randomize_ns)
		return p->period_ns;
	span = 2 * p->randomize_ns + 1;
	return p->period_ns - p->randomize_ns +
	       (span > U32_MAX ? get_random_u64() % span
			       : get_random_u32() % (u32)span);
}

static enum hrtimer_restart stp_timer_fn(struct hrtimer *t)
{
	struct stp_probe_rt *r = container_of(t, struct stp_probe_rt, u.timer);

	stp_run_probe(r->p, NULL, STP_STATE_RUNNING);
	hrtimer_forward_now(t, ns_to_ktime(stp_timer_period(r->p)));
	return HRTIMER_RESTART;
}

static int stp_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct stp_probe_rt *r = container_of(kp, struct stp_probe_rt, u.kp);

	return stp_kprobe_hit(kp, regs, r->p->handler, 0);
}

/* stp_kretprobe_rt - the probe of kretprobe instance @ri, or NULL when
 * the kretprobe is going away */
static struct stp_probe_rt *stp_kretprobe_rt(struct kretprobe_instance *ri)
{
	struct kretprobe *krp = get_kretprobe(ri);

	return krp ? container_of(krp, struct stp_probe_rt, u.krp) : NULL;
}

static int stp_kretprobe_fn(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct stp_probe_rt *r = stp_kretprobe_rt(ri);

	if (!r)
		return 0;
	if (r->p->entry_handler && *(int *)ri->data != 1)
		/* no entry values, no body: the entry hit was skipped (and
		 * counted as such), failed with an error, or came before the
		 * run started (registration) or after exit() */
		return 0;
	preempt_disable();
	stp_hit(r->p, regs, STP_STATE_RUNNING, r->p->handler, ri->data, NULL,
		NULL, 0, NULL, 0);
	preempt_enable();
	return 0;
}

/* stp_kretprobe_entry - a .return probe's entry: save the values its
 * body reads with @entry (and $params) in the instance data. */
static int stp_kretprobe_entry(struct kretprobe_instance *ri,
			       struct pt_regs *regs)
{
	struct stp_probe_rt *r = stp_kretprobe_rt(ri);

	*(int *)ri->data = 0;
	if (!r)
		return 0;
	preempt_disable();
	stp_hit(r->p, regs, STP_STATE_RUNNING, r->p->entry_handler, ri->data,
		NULL, NULL, 0, NULL, 0);
	preempt_enable();
	return 0;
}

static int stp_register_one(struct stp_probe_rt *r)
{
	const struct stp_probe_desc *p = r->p;
	int rc;

	switch (p->kind) {
	case STP_PROBE_TIMER:
		if (!p->period_ns)
			return -EINVAL;
#ifdef STP_HAVE_HRTIMER_SETUP
		hrtimer_setup(&r->u.timer, stp_timer_fn, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL);
#else
		hrtimer_init(&r->u.timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		r->u.timer.function = stp_timer_fn;
#endif
		hrtimer_start(&r->u.timer, ns_to_ktime(stp_timer_period(p)),
			      HRTIMER_MODE_REL);
		return 0;
	case STP_PROBE_KPROBE:
		if (!p->symbol)
			return -EINVAL;
		if (p->is_return) {
			memset(&r->u.krp, 0, sizeof(r->u.krp));
			r->u.krp.kp.symbol_name = p->symbol;
			r->u.krp.kp.offset = p->offset;
			r->u.krp.handler = stp_kretprobe_fn;
			r->u.krp.maxactive = p->maxactive;
			if (p->entry_handler) {
				r->u.krp.entry_handler = stp_kretprobe_entry;
				r->u.krp.data_size = p->entry_size;
			}
			rc = register_kretprobe(&r->u.krp);
		} else {
			memset(&r->u.kp, 0, sizeof(r->u.kp));
			r->u.kp.symbol_name = p->symbol;
			r->u.kp.offset = p->offset;
			r->u.kp.pre_handler = p->kprobe_pre ? p->kprobe_pre :
				stp_kprobe_pre;
			rc = register_kprobe(&r->u.kp);
		}
		return rc;
	case STP_PROBE_PERF:
		return stp_perf_register(p, &r->u.evs);
	default:
		return 0;
	}
}

/* stp_probe_kind_registered - the kinds stp_register_one handles */
static bool stp_probe_kind_registered(const struct stp_probe_desc *p)
{
	if (p->kset)
		return false;   /* a probe set: kset.c */
	return p->kind == STP_PROBE_TIMER || p->kind == STP_PROBE_KPROBE ||
	       p->kind == STP_PROBE_PERF;
}

/* stp_warn_wildcards - one warning per wildcard pattern some of whose
 * probes failed to register:
 * "WARNING: N of M probes of PATTERN could not be registered (first:
 * SYMBOL rc R)".  Probes of one pattern are adjacent in the table. */
static void stp_warn_wildcards(void)
{
	int i = 0, j;

	while (i < stp_module.nprobes) {
		const struct stp_probe_desc *p = &stp_module.probes[i];
		const struct stp_probe_rt *first = NULL;
		int failed = 0;

		if (!p->wildcard || !p->pattern) {
			i++;
			continue;
		}
		for (j = i; j < stp_module.nprobes &&
		     stp_module.probes[j].wildcard &&
		     stp_module.probes[j].pattern &&
		     !strcmp(stp_module.probes[j].pattern, p->pattern); j++)
			if (stp_rt[j].rc) {
				if (!first)
					first = &stp_rt[j];
				failed++;
			}
		if (failed)
			stp_ctl_send_text(STP_MSG_WARNING,
				"WARNING: %d of %d probes of %s could not be "
				"registered (first: %s rc %d)\n", failed, j - i,
				p->pattern, first->p->symbol ? first->p->symbol :
				first->p->pp, first->rc);
		i = j;
	}
}

/* stp_probe_module_is - is @r a kprobe on a function of module @name
 * (symbol "NAME:sym")? */
static bool stp_probe_module_is(const struct stp_probe_rt *r, const char *name)
{
	const char *sym = r->p->symbol;
	size_t n = strlen(name);

	return r->p->kind == STP_PROBE_KPROBE && sym &&
	       !strncmp(sym, name, n) && sym[n] == ':';
}

/* stp_count_missed - after kprobe or kretprobe @r is unregistered:
 * the hits the kernel could not run us for count as skipped; with -t
 * (STP_TIMING) each probe that missed some says so.  Process context. */
static void stp_count_missed(struct stp_probe_rt *r)
{
	unsigned long m1, m2 = 0;

	if (r->p->is_return) {
		m1 = r->u.krp.nmissed;          /* no free instance */
		m2 = r->u.krp.kp.nmissed;       /* the entry kprobe's */
	} else {
		m1 = r->u.kp.nmissed;
	}
	atomic_add(m1 + m2, &stp_skipped);
#ifdef STP_TIMING
	if (m1)
		stp_warn("Skipped due to missed %s on '%s': %lu",
			 r->p->is_return ? "kretprobe/1" : "kprobe", r->p->pp,
			 m1);
	if (m2)
		stp_warn("Skipped due to missed kretprobe/2 on '%s': %lu",
			 r->p->pp, m2);
#endif
}

/* stp_unregister_kprobe - unregister one kprobe or kretprobe of the
 * table, counting its missed hits as skipped.  May sleep. */
static void stp_unregister_kprobe(struct stp_probe_rt *r)
{
	if (r->p->is_return)
		unregister_kretprobe(&r->u.krp);
	else
		unregister_kprobe(&r->u.kp);
	stp_count_missed(r);
	r->registered = 0;
}

/* stp_module_event - the module notifier: arm the deferred probes of a
 * module that comes, disarm those of a module that goes.  Process
 * context, may sleep; a probe that fails to arm is reported and stays
 * deferred. */
static int stp_module_event(struct notifier_block *nb, unsigned long what,
			    void *data)
{
	struct module *mod = data;
	int i, rc;

	if (what != MODULE_STATE_COMING && what != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&stp_modprobe_mutex);
	for (i = 0; stp_rt && i < stp_module.nprobes; i++) {
		struct stp_probe_rt *r = &stp_rt[i];

		if (!r->deferred || !stp_probe_module_is(r, mod->name))
			continue;
		if (what == MODULE_STATE_GOING) {
			if (r->registered)
				stp_unregister_kprobe(r);
			continue;
		}
		if (r->registered)
			continue;
		rc = stp_register_one(r);
		if (rc == 0)
			r->registered = 1;
		else if (!r->p->optional)
			stp_ctl_send_text(STP_MSG_WARNING,
				"WARNING: probe %s could not be armed in module "
				"%s (rc %d)\n", r->p->pp ? r->p->pp : "?",
				mod->name, rc);
	}
	mutex_unlock(&stp_modprobe_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block stp_module_nb = {
	.notifier_call = stp_module_event,
};

/* Registration progress for stapio (STP_MSG_PROGRESS), which shows it
 * on a terminal: registering thousands of kprobes takes seconds (ten
 * for 1000 under TCG). */
#ifndef STP_PROGRESS_AFTER_MS
#define STP_PROGRESS_AFTER_MS 1000      /* first report after this long */
#endif
#define STP_PROGRESS_EVERY_MS 250

/* stp_progress - report @done of @total probes registered, started at
 * jiffies @t0, last reported at *@last (0: never): when due, or @final
 * (the end; only when an earlier one went out).  Context: the START
 * write, may sleep. */
static void stp_progress(u32 done, u32 total, unsigned long t0,
			 unsigned long *last, bool final)
{
	struct stp_msg_progress m = {
		.done = done, .total = total,
		.ms = jiffies_to_msecs(jiffies - t0),
	};

	if (final ? !*last :
	    (m.ms < STP_PROGRESS_AFTER_MS ||
	     (*last && time_before(jiffies, *last +
				   msecs_to_jiffies(STP_PROGRESS_EVERY_MS)))))
		return;
	*last = jiffies | 1;
	stp_ctl_send(STP_MSG_PROGRESS, &m, sizeof(m));
}

int stp_probes_register(void)
{
	unsigned long t0 = jiffies, last = 0;
	int i, rc;

	stp_uvars_register();                   /* uvars.c: before probes */
	stp_rt = kvcalloc(max(stp_module.nprobes, 1), sizeof(*stp_rt),
			  GFP_KERNEL);
	if (!stp_rt)
		return -ENOMEM;
	for (i = 0; i < stp_module.nprobes; i++) {
		const char *sym = stp_module.probes[i].symbol;

		stp_rt[i].p = &stp_module.probes[i];
		if (stp_rt[i].p->kind == STP_PROBE_KPROBE && sym &&
		    strchr(sym, ':'))
			stp_modnotify_on = true;
	}
	/* the notifier first, so that a module loading meanwhile is seen;
	 * it waits on the mutex until the start has tried every probe */
	mutex_lock(&stp_modprobe_mutex);
	if (stp_modnotify_on) {
		rc = register_module_notifier(&stp_module_nb);
		if (rc) {
			stp_modnotify_on = false;
			mutex_unlock(&stp_modprobe_mutex);
			return rc;
		}
	}
	for (i = 0; i < stp_module.nprobes; i++) {
		struct stp_probe_rt *r = &stp_rt[i];

		if (!stp_probe_kind_registered(r->p))
			continue;
		rc = stp_register_one(r);
		cond_resched();
		stp_progress(i + 1, stp_module.nprobes, t0, &last, false);
		if (rc == 0) {
			r->registered = 1;
			r->deferred = r->p->kind == STP_PROBE_KPROBE &&
				      r->p->symbol && strchr(r->p->symbol, ':');
			continue;
		}
		if (rc == -ENOENT && r->p->kind == STP_PROBE_KPROBE &&
		    r->p->symbol && strchr(r->p->symbol, ':')) {
			/* its module is not loaded (yet) */
			r->deferred = 1;
			continue;
		}
		if (r->p->optional)     /* "?": no word about it */
			continue;
		r->rc = rc;
		if (r->p->wildcard)     /* counted for stp_warn_wildcards */
			continue;
		stp_ctl_send_text(STP_MSG_ERROR,
			"ERROR: probe %s registration failed (rc %d%s) near %s\n",
			r->p->pp ? r->p->pp : "?", rc,
			r->p->kind == STP_PROBE_PERF &&
			(rc == -ENOENT || rc == -EOPNOTSUPP) ?
			": no such perf event on this machine" : "",
			r->p->loc ? r->p->loc : "?");
		mutex_unlock(&stp_modprobe_mutex);
		stp_probes_unregister();
		return rc;
	}
	mutex_unlock(&stp_modprobe_mutex);
	stp_progress(stp_module.nprobes, stp_module.nprobes, t0, &last, true);
	stp_warn_wildcards();
	rc = stp_ksets_register();              /* kset.c */
	if (!rc)
		rc = stp_tracepoints_register(); /* tracepoints.c */
	if (!rc)
		rc = stp_procfs_register();     /* procfs.c */
	if (!rc)
		rc = stp_netfilter_register();  /* netfilter.c */
	if (!rc)
		rc = stp_hwbkpt_register();     /* hwbkpt.c */
	if (!rc)
		rc = stp_perf_counters_register(); /* perf_counter.c */
	if (!rc)
		rc = stp_uprobes_register();    /* uprobes.c */
	if (!rc)
		rc = stp_uprocess_register();   /* uprocess.c */
	if (rc)
		stp_probes_unregister();
	return rc;
}

void stp_probes_unregister(void)
{
	struct kprobe **kps;
	struct kretprobe **krps;
	int i, nk = 0, nr = 0;

	stp_uprocess_unregister();              /* uprocess.c */
	stp_uprobes_unregister();               /* uprobes.c */
	stp_perf_counters_unregister();         /* perf_counter.c */
	stp_netfilter_unregister();             /* netfilter.c */
	stp_hwbkpt_unregister();                /* hwbkpt.c */
	stp_procfs_unregister();                /* procfs.c */
	stp_tracepoints_unregister();           /* tracepoints.c */
	if (stp_modnotify_on) {
		/* waits for a running notifier call */
		unregister_module_notifier(&stp_module_nb);
		stp_modnotify_on = false;
	}
	if (!stp_rt) {
		stp_uvars_unregister();         /* uvars.c */
		return;
	}
	/* Timers and perf events first: hrtimer_cancel waits for a running
	 * callback, perf event removal runs on the event's CPU. */
	for (i = 0; i < stp_module.nprobes; i++) {
		struct stp_probe_rt *r = &stp_rt[i];

		if (r->registered && r->p->kind == STP_PROBE_TIMER) {
			hrtimer_cancel(&r->u.timer);
			r->registered = 0;
		}
		if (r->registered && r->p->kind == STP_PROBE_PERF) {
			stp_perf_unregister(r->u.evs);
			r->registered = 0;
			cond_resched();
		}
	}
	stp_ksets_unregister();                 /* kset.c */
	kps = kvcalloc(max(stp_module.nprobes, 1), sizeof(*kps), GFP_KERNEL);
	krps = kvcalloc(max(stp_module.nprobes, 1), sizeof(*krps), GFP_KERNEL);
	for (i = 0; i < stp_module.nprobes; i++) {
		struct stp_probe_rt *r = &stp_rt[i];

		if (!r->registered || r->p->kind != STP_PROBE_KPROBE)
			continue;
		if (r->p->is_return) {
			if (krps)
				krps[nr++] = &r->u.krp;
			else
				unregister_kretprobe(&r->u.krp);
		} else {
			if (kps)
				kps[nk++] = &r->u.kp;
			else
				unregister_kprobe(&r->u.kp);
		}
	}
	/* One grace period per batch instead of one per probe. */
	if (nk)
		unregister_kprobes(kps, nk);
	if (nr)
		unregister_kretprobes(krps, nr);
	kvfree(kps);
	kvfree(krps);
	for (i = 0; i < stp_module.nprobes; i++) {
		struct stp_probe_rt *r = &stp_rt[i];

		if (!r->registered)
			continue;
		stp_count_missed(r);
		r->registered = 0;
	}
	stp_wait_probes_idle();
	kvfree(stp_rt);
	stp_rt = NULL;
	stp_uvars_unregister();                 /* uvars.c: after probes */
}

void stp_run_kind(enum stp_probe_kind kind, int want)
{
	int i;

	for (i = 0; i < stp_module.nprobes; i++)
		if (stp_module.probes[i].kind == kind)
			stp_run_probe(&stp_module.probes[i], NULL, want);
}
