/* netfilter.c - netfilter hook probe points (stapprobes(3stap)):
 *
 *   netfilter.hook("HOOK").pf("PF")[.priority("PRIO")]
 *   netfilter.pf("PF").hook("HOOK")[.priority("PRIO")]
 *
 * HOOK is a hook name (NF_INET_PRE_ROUTING, NF_IP_LOCAL_IN,
 * NF_IP6_FORWARD, NF_ARP_OUT, NF_BR_POST_ROUTING, ...) or number, PF a
 * protocol family (NFPROTO_IPV4, NFPROTO_IPV6, NFPROTO_ARP,
 * NFPROTO_BRIDGE, ...) or number, PRIO the hook's priority (a number,
 * or NF_IP_PRI_FIRST / NF_IP_PRI_LAST; default 0).  The probe runs for
 * every packet passing the hook in the initial network namespace.
 *
 * Its context variables are rewritten here into calls of the netfilter
 * tapset's functions (tapset/linux/netfilter.stp): $hooknum, $skb (a
 * struct sk_buff *), $in and $out (struct net_device *, 0 when none),
 * $okfn, and $verdict, the packet's fate (NF_ACCEPT = 1 unless the
 * probe sets it; guru mode may set NF_DROP = 0 or NF_ACCEPT). */
#include "family.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct nf_name {
	const char *name;
	int value;
};

static const struct nf_name hooks[] = {
	{ "NF_INET_PRE_ROUTING", 0 }, { "NF_INET_LOCAL_IN", 1 },
	{ "NF_INET_FORWARD", 2 }, { "NF_INET_LOCAL_OUT", 3 },
	{ "NF_INET_POST_ROUTING", 4 },
	{ "NF_IP_PRE_ROUTING", 0 }, { "NF_IP_LOCAL_IN", 1 },
	{ "NF_IP_FORWARD", 2 }, { "NF_IP_LOCAL_OUT", 3 },
	{ "NF_IP_POST_ROUTING", 4 },
	{ "NF_IP6_PRE_ROUTING", 0 }, { "NF_IP6_LOCAL_IN", 1 },
	{ "NF_IP6_FORWARD", 2 }, { "NF_IP6_LOCAL_OUT", 3 },
	{ "NF_IP6_POST_ROUTING", 4 },
	{ "NF_ARP_IN", 0 }, { "NF_ARP_OUT", 1 }, { "NF_ARP_FORWARD", 2 },
	{ "NF_BR_PRE_ROUTING", 0 }, { "NF_BR_LOCAL_IN", 1 },
	{ "NF_BR_FORWARD", 2 }, { "NF_BR_LOCAL_OUT", 3 },
	{ "NF_BR_POST_ROUTING", 4 }, { "NF_BR_BROUTING", 5 },
	{ NULL, 0 },
};

static const struct nf_name pfs[] = {
	{ "NFPROTO_UNSPEC", 0 }, { "NFPROTO_INET", 1 }, { "NFPROTO_IPV4", 2 },
	{ "NFPROTO_ARP", 3 }, { "NFPROTO_NETDEV", 5 }, { "NFPROTO_BRIDGE", 7 },
	{ "NFPROTO_IPV6", 10 }, { "NFPROTO_DECNET", 12 },
	{ "PF_INET", 2 }, { "PF_INET6", 10 }, { "AF_INET", 2 },
	{ "AF_INET6", 10 },
	{ NULL, 0 },
};

/* the kernel's enum nf_ip_hook_priorities and nf_ip6_hook_priorities
 * (uapi linux/netfilter_ipv4.h, netfilter_ipv6.h) */
static const struct nf_name prios[] = {
#define NF_PRI(name, v) { "NF_IP_PRI_" name, v }, { "NF_IP6_PRI_" name, v }
	NF_PRI("FIRST", INT_MIN), NF_PRI("RAW_BEFORE_DEFRAG", -450),
	NF_PRI("CONNTRACK_DEFRAG", -400), NF_PRI("RAW", -300),
	NF_PRI("SELINUX_FIRST", -225), NF_PRI("CONNTRACK", -200),
	NF_PRI("MANGLE", -150), NF_PRI("NAT_DST", -100),
	NF_PRI("FILTER", 0), NF_PRI("SECURITY", 50), NF_PRI("NAT_SRC", 100),
	NF_PRI("SELINUX_LAST", 225), NF_PRI("CONNTRACK_HELPER", 300),
	NF_PRI("LAST", INT_MAX),
#undef NF_PRI
	{ "NF_IP_PRI_CONNTRACK_CONFIRM", INT_MAX },
	{ NULL, 0 },
};

/* the largest hook number per family (hooks past it do not exist) */
static int max_hook(int pf)
{
	return pf == 3 ? 2 : pf == 7 ? 5 : pf == 5 ? 1 : 4;
}

/* name_or_number - the value of component @c's argument: a number, or a
 * string naming an entry of @tab or holding a number; 0 or -1 */
static int name_or_number(struct pp_component *c, struct probe_point *pp,
			  const struct nf_name *tab, const char *what,
			  int64_t *v)
{
	const char *s;
	char *end;
	if (c->arg && c->arg->kind == E_NUM) {
		*v = c->arg->num;
		return 0;
	}
	if (str_arg(c, pp, &s) < 0)
		return -1;
	for (int i = 0; tab[i].name; i++)
		if (!strcmp(tab[i].name, s)) {
			*v = tab[i].value;
			return 0;
		}
	*v = strtoll(s, &end, 0);
	if (*s && !*end)
		return 0;
	diag_error(&c->arg->loc, "unknown netfilter %s '%s'", what, s);
	return -1;
}

struct nf_rewrite {
	int guru;
	int bad;
};

/* the tapset function behind each context variable, and the struct a
 * pointer variable points to (for $skb->len) */
static const struct {
	const char *var, *fn, *type;
} ctxvars[] = {
	{ "$hooknum", "__nf_hooknum", NULL },
	{ "$skb", "__nf_skb", "sk_buff" },
	{ "$in", "__nf_in", "net_device" },
	{ "$out", "__nf_out", "net_device" },
	{ "$okfn", "__nf_okfn", NULL },
	{ "$verdict", "__nf_verdict", NULL },
	{ NULL, NULL, NULL },
};

/* rewrite_ctx - one expression of the body (pre-order walk) */
static void rewrite_ctx(void *arg, struct expr *e, int *skip)
{
	struct nf_rewrite *r = arg;
	struct expr *t = e->kind == E_ASSIGN ? e->a : e, *call;
	int i;
	if (!t || t->kind != E_TARGET)
		return;
	for (i = 0; ctxvars[i].var && strcmp(ctxvars[i].var, t->name); i++)
		;
	if (!ctxvars[i].var)
		return;
	if (e->kind == E_ASSIGN) {
		if (i != 5 || t->components.n || e->op != OP_NONE) {
			diag_error(&e->loc, "only $verdict of a netfilter probe "
				   "can be assigned (with =)");
			r->bad = 1;
			return;
		}
		if (!r->guru) {
			diag_error(&e->loc, "$verdict of a netfilter probe "
				   "can be set in guru mode (-g) only");
			r->bad = 1;
			return;
		}
		/* $verdict = V: __nf_set_verdict(V) */
		e->kind = E_CALL;
		e->name = "__nf_set_verdict";
		memset(&e->args, 0, sizeof(e->args));
		vec_push(&e->args, e->b);
		e->a = e->b = NULL;
		return;
	}
	*skip = 1;
	call = xcalloc(1, sizeof(*call));
	call->kind = E_CALL;
	call->loc = t->loc;
	call->name = ctxvars[i].fn;
	if (!t->components.n) {
		*t = *call;
		free(call);
		return;
	}
	if (!ctxvars[i].type) {
		diag_error(&t->loc, "%s of a netfilter probe is a number: it "
			   "has no members", ctxvars[i].var);
		r->bad = 1;
		return;
	}
	/* $skb->len: @cast(__nf_skb(), "sk_buff", "kernel")->len */
	t->kind = E_CAST;
	t->name = ctxvars[i].type;
	t->module = "kernel";
	t->a = call;
}

static int match_netfilter(struct session *s, struct probe *p,
			   struct probe_point *pp)
{
	struct nf_rewrite r = {0};
	struct derived_probe *d;
	int64_t hook = -1, pf = -1, prio = 0;
	int i;
	for (i = 1; pp_comp(pp, i); i++) {
		struct pp_component *c = pp_comp(pp, i);
		if (pp_is(c, "hook") && hook < 0) {
			if (name_or_number(c, pp, hooks, "hook", &hook) < 0)
				return -1;
		} else if (pp_is(c, "pf") && pf < 0) {
			if (name_or_number(c, pp, pfs, "protocol family", &pf) < 0)
				return -1;
		} else if (pp_is(c, "priority") && hook >= 0 && pf >= 0) {
			if (name_or_number(c, pp, prios, "priority", &prio) < 0)
				return -1;
		} else {
			break;
		}
	}
	if (hook < 0 || pf < 0) {
		diag_error(&pp->loc, "expected netfilter.hook(\"HOOK\")"
			   ".pf(\"PF\")[.priority(\"N\")] in %s",
			   probe_point_str(pp));
		return -1;
	}
	if (extra_components(pp, i) < 0)
		return -1;
	if (pf > 12 || pf < 0 || hook > max_hook((int)pf)) {
		diag_error(&pp->loc, "netfilter has no hook %lld for protocol "
			   "family %lld", (long long)hook, (long long)pf);
		return -1;
	}
	if (prio < INT_MIN || prio > INT_MAX) {
		diag_error(&pp->loc, "netfilter priority %lld out of range",
			   (long long)prio);
		return -1;
	}
	r.guru = s->guru;
	ast_walk_stmt(p->body, rewrite_ctx, &r);
	if (r.bad)
		return -1;
	d = new_derived(s, DP_NETFILTER, p, pp);
	d->nf_hook = (int)hook;
	d->nf_pf = (int)pf;
	d->nf_priority = (int)prio;
	return 0;
}

static const char *const netfilter_forms[] = {
	"netfilter.hook(STRING).pf(STRING)",
	"netfilter.hook(STRING).pf(STRING).priority(STRING)",
	"netfilter.pf(STRING).hook(STRING)",
	"netfilter.pf(STRING).hook(STRING).priority(STRING)", NULL,
};

const struct family family_netfilter = { "netfilter", match_netfilter,
					 netfilter_forms };
