/* tracepoints.c - the kernel's tracepoints, for kernel.trace("SUBSYS:NAME")
 * (elaborate/families/tracepoint.c): dbg_find_tracepoints().
 *
 * The kernel's tracepoints are the BTF typedefs btf_trace_NAME (a pointer
 * to the probe prototype: void *__data, then the tracepoint's arguments).
 * The argument names come from the FUNC __bpf_trace_CLASS (CLASS: the
 * event class the trace headers name, or the event itself), whose
 * parameters are named; the subsystem from the trace headers
 * (tp_headers.c).  Each match is a dbg_function (is_tracepoint) that
 * resolves $ARG to c->tp_args[i] (btf.c).
 * syscalls:sys_enter_NAME / sys_exit_NAME are added by syscalls.c.
 */
#include "btf_int.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* The tracepoints of a session, built on first use. */
struct tp_table {
	struct session *s;
	struct btf_prov *bp;
	struct vec events;          /* struct tp_event *, by name */
};

static struct tp_table *table;

static struct tp_event *event_named(struct tp_table *t, const char *name)
{
	int lo = 0, hi = t->events.n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		int c = strcmp(((struct tp_event *)t->events.items[mid])->name,
			       name);
		if (!c)
			return t->events.items[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static struct tp_table *table_for(struct session *s)
{
	struct dbg_provider *p;
	char *why = NULL;
	if (table && table->s == s)
		return table;
	if (!(p = dbg_btf_for(s)))
		return NULL;
	table = xcalloc(1, sizeof(*table));
	table->s = s;
	table->bp = (struct btf_prov *)p;
	if (tp_headers_load(s, &table->events, &why) < 0) {
		diag_warning(NULL, "tracepoint subsystems unknown (%s): "
			     "kernel.trace(\"NAME\") still works", why);
		free(why);
	}
	return table;
}

/* proto_of - the FUNC_PROTO id the typedef btf_trace_NAME points to */
static __u32 proto_of(struct btf_prov *bp, const struct btf_type *td)
{
	const struct btf_type *ptr = btf__type_by_id(bp->btf, td->type);
	__u32 id;
	if (!ptr || !btf_is_ptr(ptr))
		return 0;
	id = btf_resolved(bp, ptr->type);
	ptr = btf__type_by_id(bp->btf, id);
	return ptr && btf_is_func_proto(ptr) ? id : 0;
}

/* named_proto - the id of __bpf_trace_NAME or __bpf_trace_CLASS when its
 * prototype has the parameters of @proto (by count), else @proto itself
 * (unnamed parameters: no $variables). */
static __u32 named_proto(struct btf_prov *bp, const char *name,
			 const struct tp_event *e, __u32 proto)
{
	const struct btf_type *pt = btf__type_by_id(bp->btf, proto);
	const char *cands[2] = { name, e ? e->cls : NULL };
	int i;
	for (i = 0; i < 2 && cands[i]; i++) {
		char *fname = xasprintf("__bpf_trace_%s", cands[i]);
		int id = btf__find_by_name_kind(bp->btf, fname, BTF_KIND_FUNC);
		free(fname);
		if (id > 0) {
			const struct btf_type *f = btf__type_by_id(bp->btf, id);
			const struct btf_type *fp = btf__type_by_id(bp->btf,
								    f->type);
			if (fp && btf_is_func_proto(fp) &&
			    btf_vlen(fp) == btf_vlen(pt))
				return id;
		}
	}
	return proto;
}

/* match_modules - append the tracepoints of modules matching
 * @psys:@pname: each one's prototype from its module's split BTF, its
 * symbol "MODULE:NAME" (the runtime arms it when the module loads) */
static void match_modules(struct tp_table *t, const char *psys,
			  const char *pname, struct vec *out)
{
	struct vec *mp = tp_module_points(t->s);
	int i;
	for (i = 0; i < mp->n; i++) {
		struct tp_modpoint *m = mp->items[i];
		struct btf_prov *bp;
		const struct btf_type *td;
		const struct tp_event *e;
		struct dbg_function *fn;
		char *tdname, *why = NULL;
		const char *sys;
		int id;
		__u32 proto;
		if (fnmatch(pname, m->name, 0))
			continue;
		sys = tp_modpoint_sys(t->bp, m);
		if (fnmatch(psys, sys, 0))
			continue;
		if (!(bp = btf_module_prov(t->bp, m->module, &why))) {
			diag_warning(NULL, "tracepoint %s of module %s: %s",
				     m->name, m->module, why);
			free(why);
			continue;
		}
		tdname = xasprintf("btf_trace_%s", m->name);
		id = btf__find_by_name_kind(bp->btf, tdname, BTF_KIND_TYPEDEF);
		free(tdname);
		if (id <= 0 || !(td = btf__type_by_id(bp->btf, id)) ||
		    !(proto = proto_of(bp, td)))
			continue;
		e = event_named(t, m->name);
		fn = xcalloc(1, sizeof(*fn));
		fn->prov = &bp->p;
		fn->module = xstrdup(m->module);
		fn->name = *sys ? xasprintf("%s:%s", sys, m->name) :
				  xstrdup(m->name);
		fn->symbol = xasprintf("%s:%s", m->module, m->name);
		fn->is_tracepoint = 1;
		fn->handle = (void *)(uintptr_t)named_proto(bp, m->name, e,
							     proto);
		vec_push(out, fn);
	}
}

int dbg_find_tracepoints(struct session *s, const char *psys,
			 const char *pname, struct vec *out)
{
	struct tp_table *t;
	struct btf_prov *bp;
	int first = out->n, i;
	__u32 id;
	if (!(t = table_for(s)))
		return -1;
	bp = t->bp;
	for (id = 1; id < bp->ntypes; id++) {
		const struct btf_type *td = btf__type_by_id(bp->btf, id);
		const char *n = btf__name_by_offset(bp->btf, td->name_off);
		const struct tp_event *e;
		struct dbg_function *fn;
		__u32 proto;
		if (!btf_is_typedef(td) || strncmp(n, "btf_trace_", 10))
			continue;
		n += 10;
		if (fnmatch(pname, n, 0))
			continue;
		e = event_named(t, n);
		if (fnmatch(psys, e ? e->sys : "", 0) ||
		    !(proto = proto_of(bp, td)))
			continue;
		fn = xcalloc(1, sizeof(*fn));
		fn->prov = &bp->p;
		fn->name = e ? xasprintf("%s:%s", e->sys, n) : xstrdup(n);
		fn->symbol = (char *)n;
		fn->is_tracepoint = 1;
		fn->handle = (void *)(uintptr_t)named_proto(bp, n, e, proto);
		vec_push(out, fn);
	}
	/* the modules' too, unless one exact name already matched (names
	 * are unique: a kernel one is not looked for again in ~1000 .ko) */
	if (out->n == first || strpbrk(pname, "*?["))
		match_modules(t, psys, pname, out);
	tp_match_syscalls(s, bp, psys, pname, out);
	for (i = first; i < out->n; i++) {
		struct dbg_function *fn = out->items[i];
		fn->syscall_filter = tp_syscall_filter(fn, &fn->syscall_nr);
	}
	return out->n - first;
}
