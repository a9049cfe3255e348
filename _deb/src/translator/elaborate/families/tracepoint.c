/* tracepoint.c - kernel.trace("SUBSYS:NAME"), wildcards in both parts;
 * "NAME" alone means any subsystem.  The kernel's tracepoints and their
 * argument types come from its BTF (dbg_find_tracepoints()); each match
 * becomes a DP_TRACEPOINT derived probe whose dbg_function resolves $ARG
 * to the tracepoint's I-th argument.  syscalls:sys_enter_NAME and
 * sys_exit_NAME are raw_syscalls tracepoints filtered on the number.
 */
#include "family.h"
#include "debuginfo/debuginfo.h"

#include <stdlib.h>
#include <string.h>

static void split_pattern(const char *spec, char **sys, char **name)
{
	const char *colon = strchr(spec, ':');
	if (colon) {
		*sys = xstrndup(spec, colon - spec);
		*name = xstrdup(colon + 1);
	} else {
		*sys = xstrdup("*");
		*name = xstrdup(spec);
	}
}

int match_kernel_trace(struct session *s, struct probe *p,
		       struct probe_point *pp)
{
	struct pp_component *c = pp->components.n > 1 ?
				 pp->components.items[1] : NULL;
	struct vec found = {0};
	char *psys, *pname;
	int i, n;
	if (!c || !c->arg || c->arg->kind != E_STR || pp->components.n > 2) {
		diag_error(&pp->loc, "expected kernel.trace(\"SUBSYS:NAME\")");
		return -1;
	}
	split_pattern(c->arg->str, &psys, &pname);
	n = dbg_find_tracepoints(s, psys, pname, &found);
	free(psys);
	free(pname);
	if (n < 0)
		return -1;
	if (!found.n) {
		if (pp->optional)
			return 0;
		diag_error(&c->arg->loc, "no tracepoint matches \"%s\" (the "
			   "kernel's are in its BTF, subsystems from its trace "
			   "headers)", c->arg->str);
		return -1;
	}
	for (i = 0; i < found.n; i++) {
		struct dbg_function *fn = found.items[i];
		struct derived_probe *d = new_derived(s, DP_TRACEPOINT, p, pp);
		free(d->pp_text);
		d->wildcard = found.n > 1;
		d->symbol = xstrdup(fn->symbol);
		d->fn = fn;
		d->pp_text = xasprintf("kernel.trace(\"%s\")", fn->name);
		d->syscall_filter = fn->syscall_filter;
		d->syscall_nr = fn->syscall_nr;
	}
	free(found.items);
	return 0;
}
