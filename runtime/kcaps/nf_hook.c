/* nf_hook - netfilter hooks: nf_register_net_hook(net, ops) with a hook
 * hook(priv, skb, state) (6.1 and 6.12).
 * @serves netfilter/hooks
 */
#include <linux/netfilter.h>
#include <net/net_namespace.h>

static unsigned int stp_kcap_nf_hook_fn(void *priv, struct sk_buff *skb,
					const struct nf_hook_state *state)
{
	return NF_ACCEPT;
}

static void stp_kcap_nf_hook(struct nf_hook_ops *ops)
{
	ops->hook = stp_kcap_nf_hook_fn;
	nf_register_net_hook(&init_net, ops);
	nf_unregister_net_hook(&init_net, ops);
}
