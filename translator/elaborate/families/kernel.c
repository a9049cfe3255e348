/* kernel.c - the kernel and module families: probe points resolved
 * through the kernel's debugging information:
 *
 *   kernel.function("PATTERN[@FILE[:LINE]]")[.call|.inline|.exported]
 *   kernel.function("PATTERN[@FILE[:LINE]]").return[.maxactive(N)]
 *   module("MOD").function("PATTERN[@FILE[:LINE]]")...  (same suffixes)
 *   kernel.statement("PATTERN@FILE:LINE")[.nearest], module("MOD").statement(...)
 *   kernel.statement(ADDR).absolute   (guru mode)
 *   kernel.trace("SUBSYS:NAME")       (tracepoint.c)
 *   kernel.data(ADDR or "SYM")...     (hwbkpt.c)
 *
 * Each function (or inline instance, or statement address) found by the
 * session's provider (debuginfo/debuginfo.h) becomes one derived kprobe registered at
 * symbol + offset, carrying the provider's dbg_function so that target
 * variables can be resolved for it.
 */
#include "family.h"
#include "debuginfo/debuginfo.h"

#include <stdlib.h>
#include <string.h>

/* split_spec - "PATTERN[@FILE[:LINE]]" into its parts (heap strings). */
static int split_spec(const char *spec, struct dbg_query *q,
		      const struct source_loc *loc)
{
	const char *at = strchr(spec, '@');
	if (!at) {
		q->func = xstrdup(spec);
		return 0;
	}
	q->func = xstrndup(spec, at - spec);
	{
		const char *colon = strrchr(at + 1, ':'), *plus = strrchr(at + 1, '+');
		if (plus && (!colon || plus > colon)) {
			/* FUNC@FILE+N: N lines after the declaration */
			colon = plus;
			q->line_relative = 1;
		}
		if (colon && !strcmp(colon + 1, "*")) {
			/* every line of the function(s) */
			q->line = 1;
			q->line_end = 1 << 30;
			q->file = xstrndup(at + 1, colon - at - 1);
		} else if (colon) {
			char *end;
			long l = strtol(colon + 1, &end, 10);
			if (*end == '-' && l > 0) {
				/* a range of lines N-M */
				long e = strtol(end + 1, &end, 10);
				q->line_end = !*end && e >= l ? (int)e : 0;
				if (!q->line_end)
					end = (char *)"-";
			}
			if (*end || l <= 0) {
				diag_error(loc, "bad line number '%s' in \"%s\" "
					   "(expected FUNC@FILE:LINE or "
					   "FUNC@FILE+N)", colon + 1, spec);
				return -1;
			}
			q->line = l;
			q->file = xstrndup(at + 1, colon - at - 1);
		} else
			q->file = xstrdup(at + 1);
	}
	if (!*q->func)
		q->func = "*";
	return 0;
}

/* canonical_pp - the pp() text of one derived probe:
 * kernel.function("vfs_read@fs/read_write.c:450").return */
static char *canonical_pp(const struct dbg_function *fn, int statement,
			  int is_return, const char *suffix)
{
	struct strbuf b = {0};
	if (fn->module)
		strbuf_printf(&b, "module(\"%s\").", fn->module);
	else
		strbuf_add(&b, "kernel.");
	strbuf_printf(&b, "%s(\"%s", statement ? "statement" : "function",
		      fn->name);
	if (fn->file) {
		strbuf_printf(&b, "@%s", fn->file);
		if (fn->line)
			strbuf_printf(&b, ":%d", fn->line);
	}
	strbuf_add(&b, "\")");
	if (is_return)
		strbuf_add(&b, ".return");
	if (suffix)
		strbuf_add(&b, suffix);
	return b.s;
}

/* ftrace_can_run - whether kernel function @fn has an __fentry__ call
 * (or the kernel's table of them is unknown).  A wildcard leaves out the
 * functions the kernel built notrace -- out-of-line copies of inline
 * functions, tracepoint glue, assembly -- as bpftrace's kprobe wildcards
 * do: ftrace cannot run them, and kprobes on the hot ones among them
 * (memset, set_pte, bsearch...) trap on nearly every call the kernel
 * makes, registering the rest included.  A function named alone is
 * probed wherever it is. */
static int ftrace_can_run(struct session *s, const struct dbg_function *fn)
{
	struct ksyms *k;
	uint64_t a, site;
	if (fn->module || !fn->symbol || !(k = ksyms_for(s)) ||
	    ksyms_addr(k, fn->symbol, &a) < 0)
		return 1;
	return ksyms_ftrace_site(k, a + fn->offset, &site) != 0;
}

static struct derived_probe *new_kprobe(struct session *s, struct probe *p,
					struct probe_point *pp)
{
	struct derived_probe *d = xcalloc(1, sizeof(*d));
	d->kind = DP_KPROBE;
	d->probe = p;
	d->point = pp;
	d->optional = pp->optional;
	vec_push(&s->derived, d);
	return d;
}

int match_kernel_absolute(struct session *s, struct probe *p,
			  struct probe_point *pp, struct pp_component *c)
{
	struct ksyms *k;
	struct derived_probe *d;
	const char *sym;
	uint64_t off;
	if (!s->guru) {
		diag_error(&pp->loc, "%s.statement(ADDR).absolute is allowed "
			   "in guru mode (-g) only", pp_comp(pp, 0)->name);
		return -1;
	}
	if (!(k = ksyms_for(s)))
		return -1;
	sym = ksyms_symbol_at(k, (uint64_t)c->arg->num, &off);
	if (!sym) {
		diag_error(&c->arg->loc, "no kernel function contains address "
			   "0x%llx", (unsigned long long)c->arg->num);
		return -1;
	}
	d = new_kprobe(s, p, pp);
	d->symbol = xstrdup(sym);
	d->offset = off;
	d->pp_text = probe_point_str(pp);
	return 0;
}

/* find_in_modules - find_functions for @q in each module whose name
 * matches the wildcard q->module (module("dccp*")); the total found, -1
 * after an error, -2 when no module matches */
static int find_in_modules(struct session *s, struct dbg_provider *prov,
			   struct dbg_query *q, struct vec *found)
{
	struct vec names = {0};
	const char *pattern = q->module;
	int n = 0, r = 0;
	if (dbg_module_names(s, pattern, &names) == 0)
		r = -2;
	for (int i = 0; i < names.n && r >= 0; i++) {
		q->module = names.items[i];
		r = prov->find_functions(prov, q, found);
		n += r > 0 ? r : 0;
	}
	q->module = pattern;
	free(names.items);       /* the names live on in what was found */
	return r < 0 ? r : n;
}

/* find_alias - find_functions for @q under the name the kernel's symbol
 * table gives q->func's address, when q->func (no wildcard) is a symbol
 * DWARF does not know: an alias (__x64_sys_getppid of __do_sys_getppid,
 * SYSCALL_DEFINE0's), whose parameters and code are its target's.
 * Returns what find_functions does, 0 when there is no such alias. */
static int find_alias(struct session *s, struct dbg_provider *prov,
		      struct dbg_query *q, struct vec *found)
{
	const char *name = q->func, *alias;
	struct ksyms *k;
	int n;
	if (!name || strpbrk(name, "*?[") || !(k = ksyms_for(s)) ||
	    !(alias = ksyms_alias(k, name)))
		return 0;
	q->func = alias;
	n = prov->find_functions(prov, q, found);
	q->func = name;
	if (n > 0 && stp_verbose > 1)
		fprintf(stderr, "kernel.function(\"%s\"): an alias of %s\n",
			name, alias);
	return n;
}

/* match_kernel - kernel.* and module("M").* points */
static int match_kernel(struct session *s, struct probe *p, struct probe_point *pp)
{
	struct pp_component *c = pp_comp(pp, 0);
	struct dbg_query q = {0};
	struct dbg_provider *prov;
	struct vec found = {0};
	const char *spec, *what;
	int i = 1, is_return = 0, statement, n, k, wild;
	int64_t maxactive = 0;
	const char *suffix = NULL;

	if (pp_is(c, "module")) {
		if (!c->arg || c->arg->kind != E_STR) {
			diag_error(&pp->loc, "module needs a name: "
				   "module(\"MOD\").function(\"FUNC\")");
			return -1;
		}
		q.module = c->arg->str;
	}
	c = pp_comp(pp, 1);
	if (!q.module && pp_is(c, "trace"))
		return match_kernel_trace(s, p, pp);
	if (!q.module && pp_is(c, "data"))
		return match_kernel_data(s, p, pp);     /* hwbkpt.c */
	if (!pp_is(c, "function") && !pp_is(c, "statement")) {
		diag_error(&pp->loc, "expected %s.function(\"PATTERN\")%s or "
			   "%s.statement(\"PATTERN@FILE:LINE\")",
			   q.module ? "module(\"MOD\")" : "kernel",
			   q.module ? "" : ", kernel.trace(\"SUBSYS:NAME\")",
			   q.module ? "module(\"MOD\")" : "kernel");
		return -1;
	}
	what = c->name;
	statement = pp_is(c, "statement");
	if (statement && c->arg && c->arg->kind == E_NUM &&
	    pp_is(pp_comp(pp, 2), "absolute") && !pp_comp(pp, 3) && !q.module)
		return match_kernel_absolute(s, p, pp, c);
	if (!c->arg || c->arg->kind != E_STR) {
		diag_error(c->arg ? &c->arg->loc : &pp->loc,
			   "%s needs a string: %s(\"PATTERN[@FILE[:LINE]]\")",
			   what, what);
		return -1;
	}
	spec = c->arg->str;
	if (split_spec(spec, &q, &c->arg->loc) < 0)
		return -1;
	if (statement) {
		if (!q.line) {
			diag_error(&c->arg->loc, "statement needs a line: "
				   "statement(\"FUNC@FILE:LINE\")");
			return -1;
		}
		q.flags |= DBG_Q_STATEMENT;
	}
	for (c = pp_comp(pp, ++i); c; c = pp_comp(pp, ++i)) {
		if (statement && pp_is(c, "nearest") && !c->arg &&
		    !(q.flags & DBG_Q_NEAREST)) {
			/* a line without code: the nearest one with code */
			q.flags |= DBG_Q_NEAREST;
			continue;
		}
		if (statement) {
			diag_error(&pp->loc, "unexpected '.%s' after %s.statement",
				   c->name, q.module ? "module" : "kernel");
			return -1;
		}
		if (pp_is(c, "return") && !c->arg && !(q.flags & DBG_Q_INLINE)) {
			is_return = 1;
			q.flags |= DBG_Q_CALL;
		} else if (pp_is(c, "call") && !c->arg && !is_return &&
			   !(q.flags & DBG_Q_INLINE)) {
			q.flags |= DBG_Q_CALL;
			suffix = ".call";
		} else if (pp_is(c, "inline") && !c->arg && !is_return &&
			   !(q.flags & DBG_Q_CALL)) {
			q.flags |= DBG_Q_INLINE;
			suffix = ".inline";
		} else if (pp_is(c, "exported") && !c->arg) {
			q.flags |= DBG_Q_EXPORTED;
		} else if (pp_is(c, "maxactive") && is_return) {
			if (maxactive_arg(c, pp, &maxactive) < 0)
				return -1;
		} else {
			diag_error(&pp->loc, "unexpected '.%s' in %s (expected "
				   ".call, .return, .inline, .exported or "
				   ".return.maxactive(N))", c->name,
				   probe_point_str(pp));
			return -1;
		}
	}
	if (!(prov = dbg_provider_for(s)))
		return -1;
	if (q.module && strpbrk(q.module, "*?[")) {
		n = find_in_modules(s, prov, &q, &found);
		if (n == -2)
			goto nomodule;
	} else {
		n = prov->find_functions(prov, &q, &found);
	}
	if (n == 0 && !q.module)
		n = find_alias(s, prov, &q, &found);
	if (n < 0)
		return -1;
	if (n == 0) {
		if (pp->optional)
			return 0;
		if (0) {
nomodule:
			if (pp->optional)
				return 0;
			diag_error(&pp->loc, "%s: no kernel module matches "
				   "'%s'", probe_point_str(pp), q.module);
			return -1;
		}
		diag_error(&pp->loc, "%s matches no probeable %s%s%s",
			   probe_point_str(pp),
			   (q.flags & DBG_Q_INLINE) ? "inline instance" :
			   statement ? "statement" : "function",
			   q.module ? " in module " : "",
			   q.module ? q.module : "");
		return -1;
	}
	/* a name pattern with wildcards (not a name several static
	 * functions share) */
	wild = strpbrk(q.func, "*?[") != NULL;
	n = 0;
	for (k = 0; k < found.n; k++) {
		struct dbg_function *fn = found.items[k];
		struct derived_probe *d;
		if (is_return && fn->inlined)
			continue;
		if (wild && !statement && !fn->inlined &&
		    !ftrace_can_run(s, fn)) {
			n++;    /* see ftrace_can_run */
			continue;
		}
		d = new_kprobe(s, p, pp);
		d->fn = fn;
		d->symbol = fn->module ? xasprintf("%s:%s", fn->module,
						   fn->symbol)
				       : xstrdup(fn->symbol);
		d->offset = fn->offset;
		d->func_entry = !statement && !fn->inlined;
		d->is_return = is_return;
		d->maxactive = maxactive;
		d->wildcard = found.n > 1;
		d->pp_text = canonical_pp(fn, statement, is_return,
					  (q.flags & DBG_Q_EXPORTED) ?
					  ".exported" : suffix);
	}
	if (n && stp_verbose)
		fprintf(stderr, "stap: %s: %d functions left out: the kernel "
			"built them without an ftrace call (notrace)\n",
			probe_point_str(pp), n);
	if (n && n == found.n && !pp->optional) {
		diag_error(&pp->loc, "%s matches only functions the kernel "
			   "built notrace (name one to probe it)",
			   probe_point_str(pp));
		free(found.items);
		return -1;
	}
	free(found.items);
	return 0;
}

static const char *const kernel_forms[] = {
	"kernel.function(STRING)", "kernel.function(STRING).call",
	"kernel.function(STRING).return",
	"kernel.function(STRING).return.maxactive(NUMBER)",
	"kernel.function(STRING).inline", "kernel.function(STRING).exported",
	"kernel.statement(STRING)", "kernel.statement(STRING).nearest",
	"kernel.statement(NUMBER).absolute",
	"kernel.trace(STRING)", "kernel.data(NUMBER).write",
	"kernel.data(NUMBER).rw", "kernel.data(NUMBER).length(NUMBER).write",
	"kernel.data(NUMBER).length(NUMBER).rw", "kernel.data(STRING).write",
	"kernel.data(STRING).rw", NULL,
};

static const char *const module_forms[] = {
	"module(STRING).function(STRING)",
	"module(STRING).function(STRING).call",
	"module(STRING).function(STRING).return",
	"module(STRING).function(STRING).inline",
	"module(STRING).statement(STRING)", NULL,
};

const struct family family_kernel = { "kernel", match_kernel, kernel_forms };
const struct family family_module = { "module", match_kernel, module_forms };
