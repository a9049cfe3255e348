/* tracepoints.c - kernel.trace probes: STP_PROBE_TRACEPOINT entries of the
 * probe table attached to the kernel's tracepoints by name.
 *
 * One generic callback serves every tracepoint: on x86-64 every integer
 * or pointer argument travels in its own 64-bit slot, so a function
 * declared with twelve unsigned longs after the probe data receives any
 * tracepoint's arguments in order (slots beyond the tracepoint's own are
 * garbage and never read: the translator only names real arguments).
 * The probe's descriptor is the callback's data, so several probes may
 * share a tracepoint.  syscalls:sys_enter_NAME / sys_exit_NAME probes sit
 * on raw_syscalls' sys_enter / sys_exit and filter on the syscall number.
 *
 * A module's tracepoint (symbol "MODULE:NAME") is armed when the module
 * is there: at the start if it is loaded, else when it loads (the
 * tracepoint module notifier, before the module's init runs), and
 * disarmed when it unloads; armed again if it loads again.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/compat.h>
#include <asm/syscall.h>
#include "stp_internal.h"

/* Run-time state of one tracepoint probe. */
struct stp_tp_rt {
	const struct stp_probe_desc *p;
	const char *name;          /* the tracepoint's name */
	int modlen;                /* a module's: the length of the module
	                            * name p->symbol starts with; 0: kernel */
	struct module *mod;        /* the module whose tracepoint tp is */
	struct tracepoint *tp;     /* found by name, or NULL */
	int registered;
};

static struct stp_tp_rt *stp_tps;
static int stp_ntps;
static bool stp_tp_nb_on;      /* the module notifier is registered */

/* stp_tp_syscall_is - syscalls:sys_enter_NAME / sys_exit_NAME probes run
 * for their native syscall only: the number is sys_enter's id argument
 * (@a1), or at sys_exit the one saved in the user registers (@a0). */
static int stp_tp_syscall_is(const struct stp_probe_desc *p, unsigned long a0,
			     unsigned long a1)
{
	long nr;

	if (in_compat_syscall())
		return 0;
	nr = p->syscall_filter == 1 ? (long)a1 :
	     syscall_get_nr(current, (struct pt_regs *)a0);
	return nr == p->syscall_nr;
}

static void stp_tp_probe(void *data, unsigned long a0, unsigned long a1,
			 unsigned long a2, unsigned long a3, unsigned long a4,
			 unsigned long a5, unsigned long a6, unsigned long a7,
			 unsigned long a8, unsigned long a9, unsigned long a10,
			 unsigned long a11)
{
	const struct stp_probe_desc *p = data;
	unsigned long args[12] = { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9,
				   a10, a11 };

	if (p->syscall_filter && !stp_tp_syscall_is(p, a0, a1))
		return;
	stp_run_probe_args(p, NULL, STP_STATE_RUNNING, args);
}

/* stp_tp_find - for_each_kernel_tracepoint callback: give @tp to every
 * probe naming it. */
static void stp_tp_find(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < stp_ntps; i++)
		if (!stp_tps[i].modlen && !stp_tps[i].tp &&
		    !strcmp(stp_tps[i].name, tp->name))
			stp_tps[i].tp = tp;
}

/* stp_tp_module_is - @r is a probe of a tracepoint of module @mod */
static bool stp_tp_module_is(const struct stp_tp_rt *r, const struct module *mod)
{
	return r->modlen && strlen(mod->name) == r->modlen &&
	       !strncmp(mod->name, r->p->symbol, r->modlen);
}

/* stp_tp_module_coming - arm the probes of @mod's tracepoints.  A
 * failure is a warning: the module is not ours to refuse. */
static void stp_tp_module_coming(struct module *mod)
{
	unsigned int j;
	int i, rc;

	for (i = 0; i < stp_ntps; i++) {
		struct stp_tp_rt *r = &stp_tps[i];

		if (r->registered || !stp_tp_module_is(r, mod))
			continue;
		for (j = 0; j < mod->num_tracepoints; j++) {
			struct tracepoint *tp =
				tracepoint_ptr_deref(&mod->tracepoints_ptrs[j]);

			if (!strcmp(tp->name, r->name))
				break;
		}
		if (j == mod->num_tracepoints)
			continue;
		r->tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[j]);
		rc = tracepoint_probe_register(r->tp, stp_tp_probe, (void *)r->p);
		if (rc) {
			r->tp = NULL;
			stp_ctl_send_text(STP_MSG_WARNING,
				"WARNING: probe %s registration failed (rc %d) "
				"near %s\n", r->p->pp, rc,
				r->p->loc ? r->p->loc : "?");
			continue;
		}
		r->mod = mod;
		r->registered = 1;
	}
}

/* stp_tp_module_going - disarm the probes of @mod's tracepoints (before
 * the kernel checks that none is left on them) */
static void stp_tp_module_going(struct module *mod)
{
	int i;

	for (i = 0; i < stp_ntps; i++) {
		struct stp_tp_rt *r = &stp_tps[i];

		if (!r->registered || r->mod != mod)
			continue;
		tracepoint_probe_unregister(r->tp, stp_tp_probe, (void *)r->p);
		r->registered = 0;
		r->tp = NULL;
		r->mod = NULL;
	}
}

/* stp_tp_notify - the tracepoint module notifier: called under the
 * kernel's tracepoint_module_list_mutex (so never concurrently), for
 * each loaded module when registered, then as modules come and go */
static int stp_tp_notify(struct notifier_block *nb, unsigned long state,
			 void *data)
{
	struct tp_module *tm = data;

	if (state == MODULE_STATE_COMING)
		stp_tp_module_coming(tm->mod);
	else if (state == MODULE_STATE_GOING)
		stp_tp_module_going(tm->mod);
	return NOTIFY_OK;
}

static struct notifier_block stp_tp_nb = { .notifier_call = stp_tp_notify };

int stp_tracepoints_register(void)
{
	int i, n = 0, mods = 0, rc;

	for (i = 0; i < stp_module.nprobes; i++)
		n += stp_module.probes[i].kind == STP_PROBE_TRACEPOINT;
	if (!n)
		return 0;
	stp_tps = kvcalloc(n, sizeof(*stp_tps), GFP_KERNEL);
	if (!stp_tps)
		return -ENOMEM;
	for (i = 0; i < stp_module.nprobes; i++) {
		const struct stp_probe_desc *p = &stp_module.probes[i];
		const char *colon;

		if (p->kind != STP_PROBE_TRACEPOINT)
			continue;
		colon = strchr(p->symbol, ':');
		stp_tps[stp_ntps].p = p;
		stp_tps[stp_ntps].name = colon ? colon + 1 : p->symbol;
		stp_tps[stp_ntps].modlen = colon ? colon - p->symbol : 0;
		stp_ntps++;
	}
	for_each_kernel_tracepoint(stp_tp_find, NULL);
	for (i = 0; i < stp_ntps; i++) {
		struct stp_tp_rt *r = &stp_tps[i];

		if (r->modlen) {
			mods++;         /* the module notifier arms it */
			continue;
		}
		rc = r->tp ? tracepoint_probe_register(r->tp, stp_tp_probe,
						       (void *)r->p)
			   : -ENOENT;
		if (rc == 0) {
			r->registered = 1;
			continue;
		}
		if (r->p->optional)
			continue;
		if (!r->tp)
			stp_ctl_send_text(STP_MSG_ERROR,
				"ERROR: probe %s registration failed: the "
				"kernel has no tracepoint %s near %s\n",
				r->p->pp, r->p->symbol,
				r->p->loc ? r->p->loc : "?");
		else
			stp_ctl_send_text(STP_MSG_ERROR,
				"ERROR: probe %s registration failed (rc %d) "
				"near %s\n", r->p->pp, rc,
				r->p->loc ? r->p->loc : "?");
		stp_tracepoints_unregister();
		return rc;
	}
	if (mods) {
		rc = register_tracepoint_module_notifier(&stp_tp_nb);
		if (rc) {
			stp_ctl_send_text(STP_MSG_ERROR, "ERROR: cannot follow "
					  "module tracepoints (rc %d)\n", rc);
			stp_tracepoints_unregister();
			return rc;
		}
		stp_tp_nb_on = true;
	}
	return 0;
}

void stp_tracepoints_unregister(void)
{
	int i;

	if (!stp_tps)
		return;
	if (stp_tp_nb_on) {
		/* waits for a running notifier call */
		unregister_tracepoint_module_notifier(&stp_tp_nb);
		stp_tp_nb_on = false;
	}
	for (i = 0; i < stp_ntps; i++) {
		struct stp_tp_rt *r = &stp_tps[i];

		if (!r->registered)
			continue;
		tracepoint_probe_unregister(r->tp, stp_tp_probe, (void *)r->p);
		r->registered = 0;
	}
	/* no callback may still run when the module's text goes away (nor
	 * one of a tracepoint of a module that went before) */
	tracepoint_synchronize_unregister();
	kvfree(stp_tps);
	stp_tps = NULL;
	stp_ntps = 0;
}
