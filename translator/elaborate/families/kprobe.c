/* kprobe.c - kprobe.function("SYM") and kprobe.module("M").function("SYM"),
 * [.call|.return[.maxactive(N)]]: a kprobe on a symbol, no debuginfo;
 * kprobe.statement(ADDR).absolute (guru mode): as kernel.statement's. */
#include "family.h"
#include "debuginfo/debuginfo.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* check_symbol - whether the target kernel (or its module @mod) has
 * symbol @sym, asked of that kernel's symbol table (debuginfo vmlinux,
 * System.map, or /proc/kallsyms: see ksyms.h).  A symbol the kernel
 * lacks drops the point with a warning at @c, in pass 2 rather than as
 * a registration failure at load time (SystemTap accepts the point and
 * warns when it cannot register it); an optional point (`?`, `!`) is
 * dropped silently and the next alternative tried.  A symbol kprobes
 * refuse is left to the runtime, which names it (or warns, for a
 * wildcard's); so is every symbol when the kernel's or module's symbol
 * table cannot be read (no System.map, a compressed .ko.xz).  Returns 0
 * (keep the point), or 1 (drop it). */
static int check_symbol(struct session *s, struct pp_component *c,
			const char *mod, const char *sym)
{
	struct ksyms *k;
	uint64_t addr;
	char *why = NULL;
	if (mod) {
		if (!(k = ksyms_module(s, mod, &why))) {
			free(why);
			return 0;
		}
	} else {
		int errs = diag_error_count(), quiet = diag_quiet;
		diag_quiet = 1;         /* no table: nothing to check against */
		k = ksyms_for(s);
		diag_quiet = quiet;
		diag_rewind(errs);
		if (!k)
			return 0;
	}
	if (ksyms_addr(k, sym, &addr) < 0) {
		diag_warning(&c->arg->loc, "%s%s%s %s has no symbol %s: the point "
			     "is left out", mod ? "module " : "", mod ? mod : "",
			     mod ? " of kernel" : "kernel", s->kernel_release, sym);
		return 1;
	}
	return 0;
}

/* kprobe.function("SYM")[.return][.maxactive(N)]
 * kprobe.module("MOD").function("SYM")[.return][.maxactive(N)] */
static int match_kprobe(struct session *s, struct probe *p,
			struct probe_point *pp)
{
	struct pp_component *c = pp_comp(pp, 1), *c_sym;
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
	c_sym = c;
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
	if (check_symbol(s, c_sym, mod, sym))
		return 0;
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
