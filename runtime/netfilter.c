/* netfilter.c - netfilter.hook("HOOK").pf("PF") probes: one nf_hook_ops
 * per probe, registered in the initial network namespace.  The hook runs
 * the probe with the context's tp_args holding the packet, the hook
 * state and the address of the verdict (see STP_NF_ARG_*), which the
 * netfilter tapset's functions read and (for $verdict) write; the hook
 * returns the verdict, NF_ACCEPT unless the probe dropped the packet.
 *
 * Hooks run in softirq or process context with preemption possibly
 * enabled; stp_run_probe_args disables it itself. */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/netfilter.h>
#include <net/net_namespace.h>
#include "stp_internal.h"

static struct nf_hook_ops *stp_nf_ops;  /* [stp_module.nprobes] */
static bool *stp_nf_registered;

/* stp_nf_hook - run the probe of @priv for packet @skb at hook @state */
static unsigned int stp_nf_hook(void *priv, struct sk_buff *skb,
				const struct nf_hook_state *state)
{
	const struct stp_probe_desc *p = priv;
	unsigned long args[12] = { 0 };
	unsigned int verdict = NF_ACCEPT;

	args[STP_NF_ARG_SKB] = (unsigned long)skb;
	args[STP_NF_ARG_STATE] = (unsigned long)state;
	args[STP_NF_ARG_VERDICT] = (unsigned long)&verdict;
	stp_run_probe_args(p, NULL, STP_STATE_RUNNING, args);
	/* only these two are safe to return for a packet we do not own
	 * (__nf_set_verdict refuses the others) */
	return verdict == NF_DROP ? NF_DROP : NF_ACCEPT;
}

int stp_netfilter_register(void)
{
	int i, n = 0, rc;

	for (i = 0; i < stp_module.nprobes; i++)
		n += stp_module.probes[i].kind == STP_PROBE_NETFILTER;
	if (!n)
		return 0;
	stp_nf_ops = kvcalloc(stp_module.nprobes, sizeof(*stp_nf_ops),
			     GFP_KERNEL);
	stp_nf_registered = kvcalloc(stp_module.nprobes,
				    sizeof(*stp_nf_registered), GFP_KERNEL);
	if (!stp_nf_ops || !stp_nf_registered) {
		stp_netfilter_unregister();
		return -ENOMEM;
	}
	for (i = 0; i < stp_module.nprobes; i++) {
		const struct stp_probe_desc *p = &stp_module.probes[i];
		struct nf_hook_ops *o = &stp_nf_ops[i];

		if (p->kind != STP_PROBE_NETFILTER)
			continue;
		o->hook = stp_nf_hook;
		o->priv = (void *)p;
		o->pf = p->nf_pf;
		o->hooknum = p->nf_hook;
		o->priority = p->nf_priority;
		rc = nf_register_net_hook(&init_net, o);
		if (rc) {
			stp_ctl_send_text(STP_MSG_ERROR,
				"ERROR: probe %s registration failed (rc %d) "
				"near %s\n", p->pp ? p->pp : "?", rc,
				p->loc ? p->loc : "?");
			stp_netfilter_unregister();
			return rc;
		}
		stp_nf_registered[i] = true;
	}
	return 0;
}

void stp_netfilter_unregister(void)
{
	int i;

	for (i = 0; stp_nf_ops && stp_nf_registered &&
	     i < stp_module.nprobes; i++)
		if (stp_nf_registered[i]) {
			nf_unregister_net_hook(&init_net, &stp_nf_ops[i]);
			stp_nf_registered[i] = false;
		}
	kvfree(stp_nf_ops);
	kvfree(stp_nf_registered);
	stp_nf_ops = NULL;
	stp_nf_registered = NULL;
}
