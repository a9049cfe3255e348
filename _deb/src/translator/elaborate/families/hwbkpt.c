/* hwbkpt.c - hardware breakpoints (stapprobes(3stap), HARDWARE
 * BREAKPOINTS), dispatched to by the kernel family:
 *
 *   kernel.data(ADDRESS)[.length(LEN)].write | .rw
 *   kernel.data("SYMBOL").write | .rw
 *
 * The probe runs after an instruction wrote (.write) or read or wrote
 * (.rw; x86 has no read-only watchpoints) any byte of the watched range.
 * ADDRESS is a run-time kernel address, used as given.  A SYMBOL is a
 * kernel data symbol: checked here in the kernel's symbol table and
 * carried as its link-time address plus that of an anchor (_printk), so
 * the runtime adds the KASLR displacement it finds.  LEN (default 1) is
 * rounded up to a length the debug registers support (1, 2, 4, 8 on
 * x86-64); more is an error, and so is .length with a SYMBOL (as in
 * SystemTap), and an ADDRESS that is not a multiple of the length (the
 * debug registers cannot watch it).  More than 4 such probes draw a
 * warning: x86 has 4 debug registers, so the surplus fails to register.
 */
#include "family.h"
#include "debuginfo/debuginfo.h"

#include <stdlib.h>
#include <string.h>

#define HWBKPT_MAX_LEN 8       /* x86-64 debug registers: 1, 2, 4, 8 */
#define HWBKPT_SLOTS 4

int match_kernel_data(struct session *s, struct probe *p,
		      struct probe_point *pp)
{
	struct pp_component *c = pp_comp(pp, 1);
	struct derived_probe *d;
	struct ksyms *k;
	uint64_t addr = 0, anchor = 0;
	int64_t len = 1;
	const char *sym = NULL;
	const struct source_loc *argloc;
	int i = 2, rw, n = 0, has_len = 0;

	if (!c->arg) {
		diag_error(&pp->loc, "kernel.data needs an address or a "
			   "symbol: kernel.data(ADDRESS) or kernel.data(\"SYMBOL\")");
		return -1;
	}
	argloc = &c->arg->loc;
	if (c->arg->kind == E_STR) {
		sym = c->arg->str;
		if (!*sym) {
			diag_error(&c->arg->loc, "kernel.data(\"\"): empty symbol");
			return -1;
		}
	} else if (num_arg(c, pp, (int64_t *)&addr, 1) < 0)
		return -1;
	else if (!addr) {
		diag_error(&c->arg->loc, "kernel.data(0): not an address");
		return -1;
	}
	c = pp_comp(pp, i);
	if (pp_is(c, "length")) {
		if (sym) {
			diag_error(&pp->loc, ".length is not valid with a symbol "
				   "name: kernel.data(\"SYMBOL\").write or .rw");
			return -1;
		}
		if (num_arg(c, pp, &len, 1) < 0)
			return -1;
		if (len <= 0 || len > HWBKPT_MAX_LEN) {
			diag_error(&c->arg->loc, "kernel.data length %lld: this "
				   "architecture watches 1 to %d bytes",
				   (long long)len, HWBKPT_MAX_LEN);
			return -1;
		}
		has_len = 1;
		len = len <= 1 ? 1 : len <= 2 ? 2 : len <= 4 ? 4 : 8;
		c = pp_comp(pp, ++i);
	}
	if (!c || c->arg || (!pp_is(c, "write") && !pp_is(c, "rw"))) {
		diag_error(&pp->loc, "expected kernel.data(...).write or .rw in "
			   "%s", probe_point_str(pp));
		return -1;
	}
	rw = pp_is(c, "rw");
	if (extra_components(pp, i + 1) < 0)
		return -1;
	if (!sym && (addr & (len - 1))) {
		diag_error(argloc, "kernel.data(%#llx): the address of a %lld-byte "
			   "hardware breakpoint must be a multiple of %lld",
			   (unsigned long long)addr, (long long)len,
			   (long long)len);
		return -1;
	}
	if (sym) {
		if (!(k = ksyms_for(s)))
			return -1;
		if (ksyms_addr(k, sym, &addr) < 0) {
			if (pp->optional)
				return 0;
			diag_error(argloc,
				   "kernel.data(\"%s\"): no such kernel symbol",
				   sym);
			return -1;
		}
		if (ksyms_addr(k, "_printk", &anchor) < 0) {
			diag_error(&pp->loc, "kernel.data(\"%s\"): the kernel's "
				   "symbol table lacks _printk, needed to "
				   "relocate the address", sym);
			return -1;
		}
	}
	for (i = 0; i < s->derived.n; i++)
		n += ((struct derived_probe *)s->derived.items[i])->kind ==
		     DP_HWBKPT;
	if (n == HWBKPT_SLOTS)
		diag_warning(&pp->loc, "more than %d kernel.data probes: the "
			     "processor has %d debug registers, the others "
			     "will fail to register", HWBKPT_SLOTS, HWBKPT_SLOTS);
	d = new_derived(s, DP_HWBKPT, p, pp);
	if (!sym) {     /* pp() shows the address in hex */
		free(d->pp_text);
		d->pp_text = has_len ?
			xasprintf("kernel.data(%#llx).length(%lld).%s",
				  (unsigned long long)addr, (long long)len,
				  rw ? "rw" : "write") :
			xasprintf("kernel.data(%#llx).%s",
				  (unsigned long long)addr, rw ? "rw" : "write");
	}
	d->symbol = sym ? xstrdup(sym) : NULL;
	d->offset = (int64_t)addr;
	d->hw_len = len;
	d->hw_rw = rw;
	d->hw_anchor = anchor;
	return 0;
}
