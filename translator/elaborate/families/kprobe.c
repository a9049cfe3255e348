/* kprobe.c - kprobe.function("SYM") and kprobe.module("M").function("SYM"),
 * [.call|.return[.maxactive(N)]]: a kprobe on a symbol, no debuginfo;
 * kprobe.statement(ADDR).absolute (guru mode): as kernel.statement's. */
#include "family.h"

#include <stdlib.h>
#include <string.h>

/* kprobe.function("SYM")[.return][.maxactive(N)]
 * kprobe.module("MOD").function("SYM")[.return][.maxactive(N)] */
static int match_kprobe(struct session *s, struct probe *p,
			struct probe_point *pp)
{
	struct pp_component *c = pp_comp(pp, 1);
	const char *mod = NULL, *sym;
	struct derived_probe *d;
	int i = 1, is_return = 0;
	int64_t maxactive = 0;
	if (pp_is(c, "statement") && pp_is(pp_comp(pp, 2), "absolute")) {
		int64_t addr;
		if (num_arg(c, pp, &addr, 1) < 0 || extra_components(pp, 3) < 0)
			return -1;
		return match_kernel_absolute(s, p, pp, c);
	}
	if (pp_is(c, "module")) {
		if (str_arg(c, pp, &mod) < 0)
			return -1;
		c = pp_comp(pp, ++i);
	}
	if (!pp_is(c, "function")) {
		diag_error(&pp->loc, "expected kprobe.function(\"SYMBOL\"), "
			   "kprobe.module(\"MOD\").function(\"SYMBOL\") or "
			   "kprobe.statement(ADDRESS).absolute");
		return -1;
	}
	if (str_arg(c, pp, &sym) < 0)
		return -1;
	if (strpbrk(sym, "*?[")) {
		diag_error(&c->arg->loc, "kprobe.function does not take "
			   "wildcards; name one symbol");
		return -1;
	}
	for (c = pp_comp(pp, ++i); c; c = pp_comp(pp, ++i)) {
		if (pp_is(c, "return") && !c->arg)
			is_return = 1;
		else if (pp_is(c, "call") && !c->arg && !is_return)
			;   /* the entry, as without .return */
		else if (pp_is(c, "maxactive") && is_return) {
			if (maxactive_arg(c, pp, &maxactive) < 0)
				return -1;
		} else {
			diag_error(&pp->loc, "unexpected '.%s' in %s (expected "
				   ".return or .return.maxactive(N))", c->name,
				   probe_point_str(pp));
			return -1;
		}
	}
	d = new_derived(s, DP_KPROBE, p, pp);
	d->symbol = mod ? xasprintf("%s:%s", mod, sym) : xstrdup(sym);
	d->is_return = is_return;
	d->func_entry = 1;
	d->maxactive = maxactive;
	return 0;
}

static const char *const kprobe_forms[] = {
	"kprobe.function(STRING)", "kprobe.function(STRING).call",
	"kprobe.function(STRING).return",
	"kprobe.function(STRING).return.maxactive(NUMBER)",
	"kprobe.module(STRING).function(STRING)",
	"kprobe.module(STRING).function(STRING).return",
	"kprobe.statement(NUMBER).absolute", NULL,
};

const struct family family_kprobe = { "kprobe", match_kprobe, kprobe_forms };
