/* codegen.c - pass 3: the C source of the module.
 *
 * Layout of the generated file: globals and their locks, frame structs and
 * prototypes, script functions, probe handlers (each with the list of
 * global locks it takes), the probe table and `stp_module`.
 */
#include "codegen.h"
#include "codegen_int.h"
#include "debuginfo/debuginfo.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *c_quote(const char *s, size_t len)
{
	struct strbuf b = {0};
	size_t i;
	strbuf_addc(&b, '"');
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '"' || ch == '\\')
			strbuf_printf(&b, "\\%c", ch);
		else if (ch == '\n')
			strbuf_add(&b, "\\n");
		else if (ch == '\t')
			strbuf_add(&b, "\\t");
		else if (ch < 32 || ch >= 127 || ch == '?')
			strbuf_printf(&b, "\\%03o", ch);  /* '?': no trigraphs */
		else
			strbuf_addc(&b, (char)ch);
	}
	strbuf_addc(&b, '"');
	return strbuf_detach(&b);
}

char *loc_literal(const struct source_loc *loc)
{
	char *t = xasprintf("%s:%d:%d", loc->file ? loc->file : "?",
			    loc->line, loc->col);
	char *q = c_quote(t, strlen(t));
	free(t);
	return q;
}

void emit(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	int i;
	for (i = 0; i < g->indent + 1; i++)
		strbuf_addc(g->out, '\t');
	va_start(ap, fmt);
	strbuf_vprintf(g->out, fmt, ap);
	va_end(ap);
	strbuf_addc(g->out, '\n');
}

char *var_ref(struct gen *g, const struct sym *y)
{
	if (y->kind == SYM_GLOBAL && y->pcpu)
		return xasprintf("STP_PCPU_READ(g_%s)", y->name);
	if (y->kind == SYM_GLOBAL)
		return xasprintf("g_%s", y->name);
	return xasprintf("f->l_%s", y->name);
}

char *c_type_decl(enum stp_type t, const char *name)
{
	if (t == TYPE_STRING)
		return xasprintf("char %s[MAXSTRINGLEN]", name);
	return xasprintf("s64 %s", name);
}

char *frame_decl(const struct sym *y, const char *name)
{
	if (y->type == TYPE_STATS)  /* see STP_LSTAT_WORDS */
		return xasprintf("s64 %s[STP_LSTAT_WORDS(%d)]", name,
				 lstat_spec(y)->buckets);
	return c_type_decl(y->type, name);
}

char *fn_cname(const struct functiondecl *fn)
{
	if (fn->overload_ix)
		return xasprintf("fn_%s_%d_o%d", fn->name, fn->params.n,
				 fn->overload_ix);
	return xasprintf("fn_%s_%d", fn->name, fn->params.n);
}

/* ---- which globals each body uses, for locking ---- */

struct usage {
	char *read, *write;          /* one flag per global index */
	char *add;                   /* statistics: `<<<` (shared lock) */
};

static void use_expr(struct usage *u, struct expr *e, int lvalue,
		     struct vec *callees);

static void use_args(struct usage *u, struct vec *v, struct vec *callees)
{
	int i;
	for (i = 0; i < v->n; i++)
		use_expr(u, v->items[i], 0, callees);
}

static void use_expr(struct usage *u, struct expr *e, int lvalue,
		     struct vec *callees)
{
	if (!e)
		return;
	if (e->kind == E_STATS_ADD && e->a && e->a->sym &&
	    e->a->sym->kind == SYM_GLOBAL && e->a->sym->type == TYPE_STATS) {
		/* per-CPU accumulation: the lock is only taken shared */
		u->add[e->a->sym->index] = 1;
		use_args(u, &e->a->args, callees);
		use_expr(u, e->b, 0, callees);
		return;
	}
	if ((e->kind == E_SYM || e->kind == E_INDEX || e->kind == E_IN) &&
	    e->sym && e->sym->kind == SYM_GLOBAL) {
		u->read[e->sym->index] |= !lvalue || e->kind == E_IN;
		u->write[e->sym->index] |= lvalue;
	}
	if (e->kind == E_CALL && e->func)
		push_callees(callees, e);
	use_expr(u, e->a, e->kind == E_ASSIGN || e->kind == E_INCDEC ||
		 e->kind == E_STATS_ADD, callees);
	if (e->kind == E_ASSIGN && e->op != OP_NONE)
		use_expr(u, e->a, 0, callees);
	if (e->kind == E_INCDEC)
		use_expr(u, e->a, 0, callees);
	use_expr(u, e->b, 0, callees);
	use_expr(u, e->c, 0, callees);
	if (e->kind != E_INDEX && e->kind != E_IN)
		use_args(u, &e->args, callees);
	else
		use_args(u, &e->args, callees);
}

static void use_stmt(struct usage *u, struct stmt *st, struct vec *callees)
{
	struct sym *y;
	int i;
	if (!st)
		return;
	if ((y = pcpu_update(st)) && y->pcpu) {
		/* a per-CPU counter's update: the lock (arrays) is shared */
		u->add[y->index] = 1;
		if (st->e->a->kind == E_INDEX)
			use_args(u, &st->e->a->args, callees);
		use_expr(u, st->e->b, 0, callees);
		return;
	}
	for (i = 0; i < st->stmts.n; i++)
		use_stmt(u, st->stmts.items[i], callees);
	use_expr(u, st->e, st->kind == S_DELETE, callees);
	use_expr(u, st->init, 0, callees);
	use_expr(u, st->step, 0, callees);
	use_expr(u, st->array, 1, callees);  /* foreach sorts in place */
	use_expr(u, st->limit, 0, callees);
	for (i = 0; i < st->slice.n; i++)
		use_expr(u, st->slice.items[i], 0, callees);
	for (i = 0; i < st->keys.n; i++)
		use_expr(u, st->keys.items[i], 1, callees);
	use_expr(u, st->value, 1, callees);
	if (st->catch_sym && st->catch_sym->kind == SYM_GLOBAL)
		u->write[st->catch_sym->index] = 1;
	use_stmt(u, st->body, callees);
	use_stmt(u, st->els, callees);
}

/* pragma_global - the global named after the @i-th "pragma:read:" or
 * "pragma:write:" comment of embedded C @c (langref 3.8), with
 * *@write set for a write; NULL past the last (or for an unknown name) */
static struct sym *pragma_global(struct session *s, const char *c, int i,
				 int *write, int *more)
{
	const char *p = c;
	int k;
	*more = 0;
	for (k = 0; (p = strstr(p, "pragma:")); p++) {
		const char *n;
		size_t len;
		if (!strncmp(p + 7, "read:", 5))
			n = p + 12, *write = 0;
		else if (!strncmp(p + 7, "write:", 6))
			n = p + 13, *write = 1;
		else
			continue;
		if (k++ < i)
			continue;
		*more = 1;
		for (len = 0; n[len] == '_' || isalnum((unsigned char)n[len]); len++)
			;
		for (k = 0; k < s->globals.n; k++) {
			struct sym *g = s->globals.items[k];
			if (strlen(g->name) == len && !strncmp(g->name, n, len))
				return g;
		}
		return NULL;
	}
	return NULL;
}

/* use_pragmas - the globals embedded C @c reads and writes through
 * STAP_GLOBAL_GET_/SET_ (its pragma:read:NAME, pragma:write:NAME) */
static void use_pragmas(struct session *s, struct usage *u, const char *c)
{
	int i, w, more = 1;
	for (i = 0; more; i++) {
		struct sym *g = pragma_global(s, c, i, &w, &more);
		if (g && w)
			u->write[g->index] = 1;
		else if (g)
			u->read[g->index] = 1;
	}
}

/* body_usage - globals used by @body and, transitively, its callees. */
static void body_usage(struct session *s, struct stmt *body, struct usage *u)
{
	struct vec work = {0};
	int i, j;
	use_stmt(u, body, &work);
	for (i = 0; i < work.n; i++) {
		struct functiondecl *fn = work.items[i];
		for (j = 0; j < i; j++)
			if (work.items[j] == fn)
				break;
		if (j < i)
			continue;       /* seen already */
		use_stmt(u, fn->body, &work);
		if (fn->embedded_c)
			use_pragmas(s, u, fn->embedded_c);
	}
	free(work.items);
}

/* ---- bodies ---- */

/* The frame struct's marker after the script's locals: only they are
 * zeroed on entry (stp_frame_enter), not the temporaries after them. */
#define FRAME_ZERO_END "\tchar zero_end[0];    /* locals above start zeroed */\n"

static void gen_locals(struct strbuf *frame, struct vec *v)
{
	int i;
	for (i = 0; i < v->n; i++) {
		struct sym *y = v->items[i];
		char *n = xasprintf("l_%s", y->name);
		char *d = frame_decl(y, n);
		strbuf_printf(frame, "\t%s;\n", d);
		free(d);
		free(n);
	}
}

static void gen_function_proto(struct strbuf *o, struct functiondecl *fn)
{
	char *cn = fn_cname(fn);
	int i;
	strbuf_printf(o, "static %s %s(struct stp_context *c",
		      fn->ret == TYPE_STRING ? "void" : "s64", cn);
	if (fn->ret == TYPE_STRING)
		strbuf_add(o, ", char *ret");
	for (i = 0; i < fn->params.n; i++) {
		struct sym *p = fn->params.items[i];
		strbuf_printf(o, ", %s a_%s", p->type == TYPE_STRING ?
			      "const char *" : "s64", p->name);
	}
	strbuf_add(o, ")");
	free(cn);
}

/* gen_global_macros - STAP_GLOBAL_GET_NAME(keys...) and
 * STAP_GLOBAL_SET_NAME(keys..., value) for each global embedded C @c
 * names in a pragma:read:NAME / pragma:write:NAME comment (langref 3.8):
 * scalars and arrays of numbers or strings; @undef: their #undefs */
static void gen_global_macros(struct session *s, struct strbuf *o,
			      const char *c, int undef)
{
	int i, w, more, k;
	for (i = 0, more = 1; more; i++) {
		struct sym *g = pragma_global(s, c, i, &w, &more);
		struct strbuf keys = {0}, params = {0};
		int str;
		if (!g || g->type == TYPE_STATS)
			continue;
		str = g->type == TYPE_STRING;
		if (undef) {
			strbuf_printf(o, "#undef STAP_GLOBAL_GET_%s\n"
				      "#undef STAP_GLOBAL_SET_%s\n", g->name,
				      g->name);
			continue;
		}
		strbuf_printf(o, "#ifndef STAP_GLOBAL_GET_%s\n", g->name);
		if (!g->arity) {
			strbuf_printf(o, "#define STAP_GLOBAL_GET_%s() (g_%s)\n",
				      g->name, g->name);
			if (str)
				strbuf_printf(o, "#define STAP_GLOBAL_SET_%s(v) "
					      "stp_strcpy(g_%s, (v))\n", g->name,
					      g->name);
			else
				strbuf_printf(o, "#define STAP_GLOBAL_SET_%s(v) "
					      "(g_%s = (v))\n", g->name, g->name);
			strbuf_add(o, "#endif\n");
			continue;
		}
		for (k = 0; k < g->arity; k++) {
			strbuf_printf(&params, "%sk%d", k ? ", " : "", k);
			strbuf_printf(&keys, "%s{ .%c = (k%d) }", k ? ", " : "",
				      g->key_types[k] == TYPE_STRING ? 's' : 'l',
				      k);
		}
		strbuf_printf(o, "#define STAP_GLOBAL_GET_%s(%s) ({ union stp_key "
			      "__k[] = { %s }; stp_map_get_%s(&g_%s, __k); })\n",
			      g->name, strbuf_str(&params), strbuf_str(&keys),
			      str ? "str" : "long", g->name);
		strbuf_printf(o, "#define STAP_GLOBAL_SET_%s(%s, v) ({ union "
			      "stp_key __k[] = { %s }; void *__p = stp_map_ref(c, "
			      "&g_%s, __k, STAP_LOC); if (__p) %s; })\n", g->name,
			      strbuf_str(&params), strbuf_str(&keys), g->name,
			      str ? "stp_strcpy((char *)__p, (v))"
				  : "*(s64 *)__p = (v)");
		strbuf_add(o, "#endif\n");
		free(keys.s);
		free(params.s);
	}
}

static void gen_embedded_function(struct session *s, struct strbuf *o,
				  struct functiondecl *fn)
{
	char *l = loc_literal(&fn->loc);
	int i, str = fn->ret == TYPE_STRING;
	strbuf_printf(o, "/* %s:%d: function %s (embedded C) */\n",
		      fn->loc.file, fn->loc.line, fn->name);
	gen_function_proto(o, fn);
	strbuf_add(o, "\n{\n");
	if (!str)
		strbuf_add(o, "\ts64 __retvalue = 0;\n");
	else
		strbuf_add(o, "\tret[0] = '\\0';\n");
	strbuf_add(o, "#define CONTEXT c\n");
	strbuf_printf(o, "#define STAP_RETVALUE %s\n", str ? "ret" : "__retvalue");
	/* STAP_RETURN(v), or STAP_RETURN() in a function without a value:
	 * __STP_RET_PICK selects the store only when v is given */
	strbuf_add(o, "#define __STP_RET_PICK(_0, _1, N, ...) N\n");
	strbuf_printf(o, "#define STAP_RETURN(...) do { __STP_RET_PICK(_, "
		      "##__VA_ARGS__, %s, (void)0); goto __stp_out; } while (0)\n",
		      str ? "stp_strcpy(ret, (__VA_ARGS__))"
			  : "__retvalue = (__VA_ARGS__)");
	/* errors name the call site (set by the caller in c->call_loc) */
	strbuf_printf(o, "#define STAP_LOC (c->call_loc ? c->call_loc : %s)\n", l);
	strbuf_add(o, "#define STAP_NEXT do { c->next = 1; goto __stp_out; } "
		   "while (0)\n");
	strbuf_add(o, "#define STAP_PRINTF(...) stp_printf(c, __VA_ARGS__)\n");
	strbuf_add(o, "#define STAP_ERROR(...) do { snprintf(c->error_buf, "
		      "sizeof(c->error_buf), __VA_ARGS__); stp_error(c, "
		      "c->error_buf, STAP_LOC); goto __stp_out; } while (0)\n");
	for (i = 0; i < fn->params.n; i++) {
		struct sym *p = fn->params.items[i];
		strbuf_printf(o, "#define STAP_ARG_%s a_%s\n", p->name, p->name);
	}
	gen_global_macros(s, o, fn->embedded_c, 0);
	/* deref_fault: where kread() & co. go on a fault (stp_deref.h) */
	strbuf_printf(o, "\t{\n%s\n\t}\n\tgoto __stp_out;\n"
		      "deref_fault: __attribute__((unused));\n__stp_out:\n",
		      fn->embedded_c);
	strbuf_add(o, "#undef CONTEXT\n#undef STAP_RETVALUE\n#undef STAP_RETURN\n"
		   "#undef STAP_ERROR\n#undef STAP_LOC\n#undef STAP_NEXT\n"
		   "#undef STAP_PRINTF\n#undef __STP_RET_PICK\n");
	gen_global_macros(s, o, fn->embedded_c, 1);
	for (i = 0; i < fn->params.n; i++)
		strbuf_printf(o, "#undef STAP_ARG_%s\n",
			      ((struct sym *)fn->params.items[i])->name);
	strbuf_printf(o, "\treturn%s;\n}\n\n", str ? "" : " __retvalue");
	free(l);
}

static int gen_script_function(struct session *s, struct strbuf *o,
			       struct functiondecl *fn)
{
	struct strbuf body = {0};
	struct gen g = { .s = s, .out = &body, .func = fn, .err_label = "out" };
	char *cn = fn_cname(fn), *l = loc_literal(&fn->loc);
	int i, str = fn->ret == TYPE_STRING;
	gen_locals(&g.frame, &fn->params);
	gen_locals(&g.frame, &fn->locals);
	strbuf_add(&g.frame, FRAME_ZERO_END);
	gen_stmt(&g, fn->body);
	strbuf_printf(o, "/* %s:%d: function %s */\nstruct %s_frame {\n"
		      "\tchar unused;\n%s};\n\n", fn->loc.file, fn->loc.line,
		      fn->name, cn, strbuf_str(&g.frame));
	gen_function_proto(o, fn);
	strbuf_printf(o, "\n{\n\tstruct %s_frame *f;\n", cn);
	if (!str)
		strbuf_add(o, "\ts64 ret = 0;\n");
	else
		strbuf_add(o, "\tret[0] = '\\0';\n");
	/* stp_frame_enter counts the nesting depth against MAXNESTING */
	strbuf_printf(o, "\tf = stp_frame_enter(c, sizeof(*f), "
		      "offsetof(struct %s_frame, zero_end), %s);\n"
		      "\tif (unlikely(!f))\n\t\treturn%s;\n", cn, l,
		      str ? "" : " 0");
	for (i = 0; i < fn->params.n; i++) {
		struct sym *p = fn->params.items[i];
		if (p->type == TYPE_STRING)
			strbuf_printf(o, "\tstp_strcpy(f->l_%s, a_%s);\n",
				      p->name, p->name);
		else
			strbuf_printf(o, "\tf->l_%s = a_%s;\n", p->name, p->name);
	}
	strbuf_printf(o, "%s\tgoto out;\nout:\n\tstp_frame_leave(c, f);\n"
		      "\treturn%s;\n}\n\n", strbuf_str(&body),
		      str ? "" : " ret");
	free(body.s);
	free(g.frame.s);
	free(cn);
	free(l);
	return g.failed ? -1 : 0;
}

static struct session *dump_session;   /* for dumped_global */

/* dumped_global - a global of the user's script that it writes but never
 * reads: printed at the end of the run (tapset globals are not). */
static int dumped_global(const struct sym *y)
{
	int i;
	if (!y->written || y->read || y->is_private || !dump_session)
		return 0;
	for (i = 0; i < dump_session->user->globals.n; i++)
		if (dump_session->user->globals.items[i] == y)
			return 1;
	return 0;
}

static void gen_lock_list(struct session *s, struct strbuf *o,
			  const char *name, struct stmt *body, int *nlocks)
{
	struct usage u;
	int i, n = 0;
	u.read = xcalloc(s->globals.n + 1, 1);
	u.write = xcalloc(s->globals.n + 1, 1);
	u.add = xcalloc(s->globals.n + 1, 1);
	if (body)
		body_usage(s, body, &u);
	else            /* the dump of write-only globals */
		for (i = 0; i < s->globals.n; i++)
			u.write[i] = dumped_global(s->globals.items[i]);
	for (i = 0; i < s->globals.n; i++)
		if ((u.read[i] || u.write[i] || u.add[i]) &&
		    !(((struct sym *)s->globals.items[i])->pcpu &&
		      !((struct sym *)s->globals.items[i])->arity)) {
			struct sym *y = s->globals.items[i];
			/* aggregating a statistic (or reading a per-CPU
			 * array) writes its merged copy */
			int w = u.write[i] || ((y->type == TYPE_STATS ||
						y->pcpu) && u.read[i]);
			if (!n)
				strbuf_printf(o, "static const struct stp_lock_req "
					      "%s_locks[] = {\n", name);
			strbuf_printf(o, "\t{ &stp_global_locks[%d], %d }, "
				      "/* %s */\n", i, w, y->name);
			n++;
		}
	if (n)
		strbuf_add(o, "};\n\n");
	*nlocks = n;
	free(u.read);
	free(u.write);
	free(u.add);
}

/* gen_entry_handler - a .return probe's entry handler: evaluates the
 * expressions the return handler reads as ed->vN into the kretprobe
 * instance's data (struct NAME_edata). */
static int gen_entry_handler(struct session *s, struct strbuf *o,
			     const char *name, struct derived_probe *d,
			     struct vec *entries)
{
	struct strbuf body = {0}, ed = {0};
	struct gen g = { .s = s, .out = &body, .err_label = "out", .dp = d,
			 .in_entry = 1 };
	char *l = loc_literal(&d->probe->loc);
	int i;
	strbuf_printf(&ed, "struct %s_edata {\n\tint valid;\n", name);
	for (i = 0; i < entries->n; i++) {
		struct expr *e = entries->items[i];
		char *v = gen_expr(&g, e);
		if (e->type == TYPE_STRING) {
			strbuf_printf(&ed, "\tchar v%d[MAXSTRINGLEN];\n", i);
			emit(&g, "stp_strcpy(ed->v%d, %s);", i, v);
		} else {
			strbuf_printf(&ed, "\ts64 v%d;\n", i);
			emit(&g, "ed->v%d = %s;", i, v);
		}
		free(v);
	}
	strbuf_add(&ed, "};\n\n");
	strbuf_printf(o, "%sstruct %s_entry_frame {\n\tchar unused;\n%s};\n\n"
		      "static void %s_entry(struct stp_context *c)\n{\n"
		      "\tstruct %s_edata *ed = c->entry_data;\n"
		      "\tstruct %s_entry_frame *f = stp_frame_push(c, "
		      "sizeof(*f), %s);\n\tif (unlikely(!f))\n\t\treturn;\n"
		      "\ted->valid = 0;\n%s\ted->valid = 1;\n\tgoto out;\nout:\n"
		      "\tstp_frame_pop(c, sizeof(*f));\n}\n\n", strbuf_str(&ed),
		      name, strbuf_str(&g.frame), name, name, name, l,
		      strbuf_str(&body));
	free(body.s);
	free(ed.s);
	free(g.frame.s);
	free(l);
	return g.failed ? -1 : 0;
}

/* set_light - record @light and @bound (derived_probe.light_bound) for
 * derived probe @d, or (@d NULL: one handler for them all) for every
 * derived probe of @p */
static void set_light(struct session *s, struct probe *p,
		      struct derived_probe *d, int light, int bound)
{
	int i;
	if (d) {
		d->light = light;
		d->light_bound = bound;
		return;
	}
	for (i = 0; i < s->derived.n; i++) {
		struct derived_probe *e = s->derived.items[i];
		if (e->probe == p) {
			e->light = light;
			e->light_bound = bound;
		}
	}
}

/* has_loop - whether statement @st (or NULL) holds a loop */
static int has_loop(const struct stmt *st)
{
	int i;
	if (!st)
		return 0;
	if (st->kind == S_WHILE || st->kind == S_FOR || st->kind == S_FOREACH)
		return 1;
	for (i = 0; i < st->stmts.n; i++)
		if (has_loop(st->stmts.items[i]))
			return 1;
	return has_loop(st->body) || has_loop(st->els);
}

/* light_bound - derived_probe.light_bound of a light handler: its
 * generated @body (after light_actions) of probe body @st */
static int light_bound(const char *body, const struct stmt *st)
{
	long n = light_statements(body);
	return n < 0 || n >= INT_MAX || has_loop(st) ? 0 : (int)n + 1;
}

/* gen_probe - the handler NAME of probe @p; with @d, the handler of that
 * one derived probe (target variables resolved for it). */
static int gen_probe(struct session *s, struct strbuf *o, struct probe *p,
		     const char *name, struct derived_probe *d)
{
	struct strbuf body = {0};
	struct gen g = { .s = s, .out = &body, .err_label = "out", .dp = d };
	struct vec entries = {0};
	char *l = loc_literal(&p->loc);
	char *pp;
	int nlocks, rc = 0, zero, frameless, light, bound = 0;
	if (d && d->is_return) {
		tvar_entry_exprs(s, d, &entries);
		if (entries.n && gen_entry_handler(s, o, name, d, &entries) < 0)
			rc = -1;
		g.entries = &entries;
	}
	gen_stmt(&g, p->body);
	/* a body with no locals or temporaries that never names its frame
	 * gets none: only the nesting depth stp_frame_enter would count */
	frameless = !strbuf_str(&g.frame)[0] &&
		!names_frame(strbuf_str(&body));
	{       /* the locals the body names, then its temporaries */
		struct strbuf fr = {0};
		zero = frame_used_locals(&fr, &p->locals,
					 strbuf_str(&body));
		frameless = frameless && !zero;
		strbuf_add(&fr, FRAME_ZERO_END);
		strbuf_add(&fr, strbuf_str(&g.frame));
		free(g.frame.s);
		g.frame = fr;
	}
	gen_lock_list(s, o, name, p->body, &nlocks);
	/* a light body calls nothing that could see the nesting depth */
	light = frameless && !nlocks && !entries.n &&
		light_body(strbuf_str(&body));
	pp = d ? xstrdup(d->pp_text) : probe_point_str(p->points.items[0]);
	strbuf_printf(o, "/* %s:%d:%d: probe %s%s */\n", p->loc.file,
		      p->loc.line, p->loc.col, pp,
		      !d && p->points.n > 1 ? ", ..." : "");
	free(pp);
	if (!frameless)
		strbuf_printf(o, "struct %s_frame {\n\tchar unused;\n%s};\n\n",
			      name, strbuf_str(&g.frame));
	strbuf_printf(o, "static void %s(struct stp_context *c)\n{\n", name);
	/* zero = the number of locals: none, nothing to zero per hit */
	if (light)      /* MAXACTION counted in a local (light_body) */
		strbuf_add(o, "\tlong actions = 0; /* light: no frame, no "
			   "calls, no output */\n");
	else if (frameless)
		strbuf_add(o, "\tc->nesting++;       /* no frame */\n");
	else
		strbuf_printf(o, "\tstruct %s_frame *f = stp_frame_enter(c, "
			      "sizeof(*f),\n\t\t%s%s%s, %s);\n", name,
			      zero ? "offsetof(struct " : "0", zero ? name : "",
			      zero ? "_frame, zero_end)" : "", l);
	if (entries.n)
		strbuf_printf(o, "\tstruct %s_edata *ed = c->entry_data;\n", name);
	if (!frameless)
		strbuf_add(o, "\tif (unlikely(!f))\n\t\treturn;\n");
	if (nlocks)
		strbuf_printf(o, "\tif (!stp_lock_globals(c, %s_locks, %d))\n"
			      "\t\tgoto pop;\n", name, nlocks);
	if (light) {
		light_actions(&body);
		bound = light_bound(strbuf_str(&body), p->body);
	}
	strbuf_printf(o, "%s\tgoto out;\nout:\n", strbuf_str(&body));
	if (nlocks)
		strbuf_printf(o, "\tstp_unlock_globals(%s_locks, %d);\npop:\n",
			      name, nlocks);
	strbuf_add(o, frameless ? "\t;\n}\n\n" : "\tstp_frame_leave(c, f);\n}\n\n");
	if (d)
		d->entry_n = entries.n;
	set_light(s, p, d, light, bound);
	free(entries.items);
	free(body.s);
	free(g.frame.s);
	free(l);
	return g.failed || rc ? -1 : 0;
}

/* gen_shared_probe - gen_probe, emitting nothing when an earlier
 * handler has the same code (share.c): the probe table then names it. */
static int gen_shared_probe(struct session *s, struct strbuf *o,
			    struct probe *p, const char *name,
			    struct derived_probe *d)
{
	struct strbuf t = {0};
	int rc = gen_probe(s, &t, p, name, d);
	if (rc < 0 || !share_handler(strbuf_str(&t), name))
		strbuf_add(o, strbuf_str(&t));
	free(t.s);
	return rc;
}

/* ---- globals, probe table, module description ---- */

static int gen_map_global(struct session *s, struct strbuf *o, struct sym *g)
{
	int k, rc;
	char *q = c_quote(g->name, strlen(g->name));
	strbuf_printf(o, "static struct stp_map g_%s = { .name = %s, .nkeys = %d"
		      ", .key_types = {", g->name, q, g->arity);
	for (k = 0; k < g->arity; k++)
		strbuf_printf(o, "%s%s", k ? ", " : " ",
			      g->key_types[k] == TYPE_STRING ? "STP_T_STR" :
			      "STP_T_LONG");
	strbuf_printf(o, " }, .val_type = %s, .max_entries = ",
		      g->type == TYPE_STRING ? "STP_T_STR" :
		      g->type == TYPE_STATS ? "STP_T_STAT" : "STP_T_LONG");
	if (g->maxsize > 0)
		strbuf_printf(o, "%lld", (long long)g->maxsize);
	else
		strbuf_add(o, g->arity ? "MAXMAPENTRIES" : "1");
	strbuf_printf(o, ", .wrap = %d%s", g->wrap,
		      g->pcpu ? ", .percpu = 1" : "");
	rc = 0;
	if (g->type == TYPE_STATS) {
		struct stat_spec sp;
		char *h;
		rc = stat_spec_of(s, g, &sp);
		h = stat_hist_c(&sp);
		if (sp.hist != STAT_HIST_NONE)
			strbuf_printf(o, ", .hist = %s", h);
		if (sp.shift > 0)
			strbuf_printf(o, ", .var_shift = %d", sp.shift);
		free(h);
	}
	strbuf_printf(o, " };  /* %s:%d:%d */\n", g->loc.file, g->loc.line,
		      g->loc.col);
	free(q);
	return rc;
}

static int gen_globals(struct session *s, struct strbuf *o)
{
	int i, rc = 0, nmaps = 0;
	for (i = 0; i < s->globals.n; i++) {
		struct sym *g = s->globals.items[i];
		char *n = xasprintf("g_%s", g->name), *d;
		struct expr *in = g->init;
		if (is_map(g)) {
			if (gen_map_global(s, o, g) < 0)
				rc = -1;
			nmaps++;
			free(n);
			continue;
		}
		d = c_type_decl(g->type, n);
		/* initial values are static initializers, so that -G
		 * (a module parameter) can override them */
		strbuf_printf(o, "static %s", d);
		if (in && in->kind == E_STR) {
			char *q = c_quote(in->str, in->str_len);
			strbuf_printf(o, " = %s", q);
			free(q);
		} else if (in && in->kind == E_NUM) {
			strbuf_printf(o, " = (s64)%lldLL", (long long)in->num);
		}
		strbuf_printf(o, ";  /* %s:%d:%d */\n", g->loc.file, g->loc.line,
			      g->loc.col);
		if (g->pcpu)
			strbuf_printf(o, "static DEFINE_PER_CPU(s64, g_%s_pcpu);"
				      "  /* per-CPU updates, pcpu.c */\n",
				      g->name);
		/* a global named like a kernel macro (ATTR_MODE): the
		 * macro is out of the way for the parameter's name only */
		strbuf_printf(o, "#pragma push_macro(\"%s\")\n#undef %s\n",
			      g->name, g->name);
		if (g->type == TYPE_STRING)
			strbuf_printf(o, "module_param_string(%s, g_%s, "
				      "MAXSTRINGLEN, 0);\n", g->name, g->name);
		else
			strbuf_printf(o, "module_param_cb(%s, &stp_param_ops_s64, "
				      "&g_%s, 0);\n", g->name, g->name);
		strbuf_printf(o, "#pragma pop_macro(\"%s\")\n", g->name);
		free(d);
		free(n);
	}
	strbuf_printf(o, "static struct stp_global_lock stp_global_locks[%d];\n\n",
		      s->globals.n ? s->globals.n : 1);
	strbuf_add(o, "static struct stp_map *const stp_maps[] = {");
	for (i = 0; i < s->globals.n; i++)
		if (is_map(s->globals.items[i]))
			strbuf_printf(o, " &g_%s,",
				      ((struct sym *)s->globals.items[i])->name);
	strbuf_printf(o, "%s };\n#define STP_NMAPS %d\n\n", nmaps ? "" : " NULL",
		      nmaps);
	strbuf_add(o, "static void stp_init_globals(void)\n{\n}\n\n");
	return rc;
}

/* gen_dump_probe - an end probe, after the script's, printing the
 * globals the script writes but never reads.  Returns 1 if generated. */
static int gen_dump_probe(struct session *s, struct strbuf *o)
{
	int i, n = 0, nlocks;
	for (i = 0; i < s->globals.n; i++)
		n += dumped_global(s->globals.items[i]);
	if (!n)
		return 0;
	gen_lock_list(s, o, "probe_dump", NULL, &nlocks);
	strbuf_add(o, "/* the globals written but never read */\n"
		   "static void probe_dump(struct stp_context *c)\n{\n");
	if (nlocks)
		strbuf_printf(o, "\tif (!stp_lock_globals(c, probe_dump_locks, %d))"
			      "\n\t\treturn;\n", nlocks);
	for (i = 0; i < s->globals.n; i++) {
		struct sym *g = s->globals.items[i];
		if (!dumped_global(g))
			continue;
		if (is_map(g))
			strbuf_printf(o, "\tstp_map_dump(c, &g_%s);\n", g->name);
		else if (g->type == TYPE_STRING)
			strbuf_printf(o, "\tstp_printf(c, \"%s=\\\"%%s\\\"\\n\", "
				      "g_%s);\n", g->name, g->name);
		else
			strbuf_printf(o, "\tstp_printf(c, \"%s=%%lld\\n\", "
				      "(long long)%sg_%s%s);\n", g->name,
				      g->pcpu ? "STP_PCPU_READ(" : "", g->name,
				      g->pcpu ? ")" : "");
	}
	if (nlocks)
		strbuf_printf(o, "\tstp_unlock_globals(probe_dump_locks, %d);\n",
			      nlocks);
	strbuf_add(o, "}\n\n");
	return 1;
}

static const char *kind_name(enum dp_kind k)
{
	switch (k) {
	case DP_BEGIN: return "STP_PROBE_BEGIN";
	case DP_END: return "STP_PROBE_END";
	case DP_TIMER: return "STP_PROBE_TIMER";
	case DP_PROFILE: case DP_PERF: return "STP_PROBE_PERF";
	case DP_PERF_PROC: return "STP_PROBE_PERF_PROC";
	case DP_TRACEPOINT: return "STP_PROBE_TRACEPOINT";
	case DP_NEVER: return "STP_PROBE_NEVER";
	case DP_ERROR: return "STP_PROBE_ERROR";
	case DP_PROCFS: return "STP_PROBE_PROCFS";
	case DP_NETFILTER: return "STP_PROBE_NETFILTER";
	case DP_UPROBE: return "STP_PROBE_UPROBE";
	case DP_PROC_BEGIN: return "STP_PROBE_PROC_BEGIN";
	case DP_PROC_END: return "STP_PROBE_PROC_END";
	case DP_THREAD_BEGIN: return "STP_PROBE_THREAD_BEGIN";
	case DP_THREAD_END: return "STP_PROBE_THREAD_END";
	case DP_HWBKPT: return "STP_PROBE_HWBKPT";
	default: return "STP_PROBE_KPROBE";
	}
}

static int probe_index(struct session *s, struct probe *p)
{
	int i;
	for (i = 0; i < s->probes.n; i++)
		if (s->probes.items[i] == p)
			return i;
	return -1;
}

/* handler_name - the C handler of derived probe @d: probe_N, or
 * probe_N_dK when its body is generated per derived probe (heap). */
static char *handler_name(struct session *s, struct derived_probe *d)
{
	int i;
	if (!tvar_probe_per_derived(d->probe))
		return share_resolve(xasprintf("probe_%d",
					       probe_index(s, d->probe)));
	for (i = 0; i < s->derived.n && s->derived.items[i] != d; i++)
		;
	return share_resolve(xasprintf("probe_%d_d%d",
				       probe_index(s, d->probe), i));
}

/* kprobe_pre - whether @d gets a generated kprobe pre_handler */
static int kprobe_pre(const struct derived_probe *d)
{
	return d->kind == DP_KPROBE && !d->is_return;
}

static int has_kprobe_pre(struct session *s)
{
	int i;
	for (i = 0; i < s->derived.n; i++)
		if (kprobe_pre(s->derived.items[i]))
			return 1;
	return 0;
}

/* gen_kprobe_pres - for each handler of a kprobe, H_kp: its pre_handler
 * with the hit path and H inlined (stp_kprobe_hit), one per handler. */
static void gen_kprobe_pres(struct session *s, struct strbuf *o)
{
	struct vec done = {0};
	int i, j;
	for (i = 0; i < s->derived.n; i++) {
		struct derived_probe *d = s->derived.items[i];
		char *h;
		if (!kprobe_pre(d) || d->kset)
			continue;
		h = handler_name(s, d);
		for (j = 0; j < done.n && strcmp(done.items[j], h); j++)
			;
		if (j < done.n) {
			free(h);
			continue;
		}
		strbuf_printf(o, "static int %s_kp(struct kprobe *kp, "
			      "struct pt_regs *regs)\n{\n\treturn "
			      "stp_kprobe_hit(kp, regs, %s, %s);\n}\n\n", h, h,
			      hit_mode(d));
		vec_push(&done, h);
	}
	for (i = 0; i < done.n; i++)
		free(done.items[i]);
	free(done.items);
}

/* table_rank - order of the probe table: begin probes by their order
 * number, then the others, then end probes by order, then error probes
 * by order; stable otherwise. */
static int table_rank(const struct derived_probe *d)
{
	return d->kind == DP_BEGIN ? 0 : d->kind == DP_END ? 2 :
		d->kind == DP_ERROR ? 3 : 1;
}

static char *q_script(struct session *s)
{
	static char *q;
	if (!q)
		q = c_quote(s->script_file, strlen(s->script_file));
	return q;
}

static void gen_probe_table(struct session *s, struct strbuf *o, int dump,
			    int nsets)
{
	int n = s->derived.n, i, j;
	struct derived_probe **v = xcalloc(n + 1, sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = s->derived.items[i];
	for (i = 1; i < n; i++)          /* stable insertion sort */
		for (j = i; j > 0; j--) {
			struct derived_probe *a = v[j - 1], *b = v[j];
			int ra = table_rank(a), rb = table_rank(b);
			if (ra < rb || (ra == rb && (ra == 1 ||
							 a->order <= b->order)))
				break;
			v[j - 1] = b;
			v[j] = a;
		}
	char *done = xcalloc(nsets + 1, 1);
	strbuf_add(o, "static const struct stp_probe_desc stp_probes[] = {\n");
	for (i = 0; i < n; i++) {
		struct derived_probe *d = v[i];
		char *pp;
		if (d->kset && done[d->kset - 1])
			continue;       /* a row of the set's table */
		if (d->kset) {
			/* the set's entry: pp() is the point as written
			 * until a hit names its row */
			char *w = probe_point_str(d->point);
			pp = c_quote(w, strlen(w));
			free(w);
			done[d->kset - 1] = 1;
		} else {
			pp = c_quote(d->pp_text, strlen(d->pp_text));
		}
		char *l = loc_literal(&d->point->loc);
		char *h = handler_name(s, d);
		strbuf_printf(o, "\t{ .kind = %s, .pp = %s, .loc = %s,\n"
			      "\t  .handler = %s", kind_name(d->kind), pp, l, h);
		{
			/* pn(): the alias the script's point matched, or
			 * the point as the script wrote it */
			const char *ch = d->probe->alias_chain, *k;
			char *pn = ch ? xstrdup((k = strrchr(ch, '<')) ? k + 3 : ch)
				      : probe_point_str(d->probe->user_point ?
						d->probe->user_point : d->point);
			char *q = c_quote(pn, strlen(pn));
			strbuf_printf(o, ", .pn = %s", q);
			free(q);
			free(pn);
		}
		if (d->entry_n)
			strbuf_printf(o, ",\n\t  .entry_handler = %s_entry, "
				      ".entry_size = sizeof(struct %s_edata)",
				      h, h);
		free(h);
		if (d->kind == DP_TIMER)
			strbuf_printf(o, ", .period_ns = %s", d->period_ns);
		if (d->kind == DP_TIMER && d->randomize_ns)
			strbuf_printf(o, ", .randomize_ns = %s", d->randomize_ns);
		if (d->kset)
			strbuf_printf(o, ",\n\t  .kset = &stp_kset%d, .is_return = "
				      "%d, .maxactive = %lld", d->kset - 1,
				      d->is_return, (long long)d->maxactive);
		else if (d->kind == DP_KPROBE) {
			char *sym = c_quote(d->symbol, strlen(d->symbol));
			strbuf_printf(o, ",\n\t  .symbol = %s, .offset = %lld, "
				      ".is_return = %d, .maxactive = %lld",
				      sym, (long long)d->offset, d->is_return,
				      (long long)d->maxactive);
			if (kprobe_pre(d)) {
				char *hk = handler_name(s, d);
				strbuf_printf(o, ", .kprobe_pre = %s_kp", hk);
				free(hk);
			}
			free(sym);
		}
		if (d->kind == DP_TRACEPOINT) {
			char *sym = c_quote(d->symbol, strlen(d->symbol));
			strbuf_printf(o, ",\n\t  .symbol = %s", sym);
			if (d->syscall_filter)
				strbuf_printf(o, ", .syscall_filter = %d, "
					      ".syscall_nr = %lld",
					      d->syscall_filter,
					      (long long)d->syscall_nr);
			free(sym);
		}
		if (d->kind == DP_HWBKPT)
			strbuf_printf(o, ",\n\t  .symbol = %s%s%s, .offset = %#llxUL, "
				      ".hw_len = %d, .hw_rw = %d, .hw_anchor = "
				      "%#llxUL", d->symbol ? "\"" : "",
				      d->symbol ? d->symbol : "NULL",
				      d->symbol ? "\"" : "",
				      (unsigned long long)d->offset,
				      (int)d->hw_len, d->hw_rw,
				      (unsigned long long)d->hw_anchor);
		if (d->kind == DP_PROCFS) {
			char *path = c_quote(d->symbol, strlen(d->symbol));
			strbuf_printf(o, ",\n\t  .symbol = %s, .procfs_write = %d, "
				      ".procfs_maxsize = %lld, .procfs_umask = %lld",
				      path, d->procfs_write,
				      (long long)d->procfs_maxsize,
				      (long long)d->procfs_umask);
			free(path);
		}
		if (d->kind == DP_NETFILTER)
			strbuf_printf(o, ",\n\t  .nf_hook = %d, .nf_pf = %d, "
				      ".nf_priority = %d", d->nf_hook, d->nf_pf,
				      d->nf_priority);
		if (d->path) {  /* DP_UPROBE, DP_PROC_* */
			char *path = c_quote(d->path, strlen(d->path));
			strbuf_printf(o, ",\n\t  .path = %s", path);
			free(path);
		}
		if (d->kind == DP_UPROBE)
			strbuf_printf(o, ", .offset = %#llx, .is_return = %d, "
				      ".ref_ctr_offset = %#llx, .uvaddr = %#llxUL",
				      (unsigned long long)d->offset,
				      d->is_return,
				      (unsigned long long)d->ref_ctr,
				      (unsigned long long)d->uvaddr);
		if (d->kind == DP_UPROBE && d->perf_reads)
			strbuf_printf(o, ", .perf_reads = %#xU", d->perf_reads);
		if (d->kind == DP_PERF_PROC) {
			char *name = d->symbol ? c_quote(d->symbol,
						 strlen(d->symbol)) : NULL;
			strbuf_printf(o, ",\n\t  .symbol = %s, .perf_counter = %d, "
				      ".perf_type = %s, .perf_config = %s, "
				      ".sample = %s, .perf_freq = %d",
				      name ? name : "NULL", d->perf_counter,
				      d->perf_type, d->perf_config,
				      d->symbol ? "0" : d->sample, d->perf_freq);
			free(name);
		}
		if (d->pid)     /* process(PID) */
			strbuf_printf(o, ", .pid = %lld", (long long)d->pid);
		if (d->kind == DP_UPROBE && d->symbol) {  /* for probefunc() */
			char *sym = c_quote(d->symbol, strlen(d->symbol));
			strbuf_printf(o, ", .symbol = %s", sym);
			free(sym);
		}
		if (d->kind == DP_PROFILE || d->kind == DP_PERF)
			strbuf_printf(o, ",\n\t  .perf_type = %s, .perf_config = %s, "
				      ".sample = %s, .perf_freq = %d",
				      d->perf_type, d->perf_config, d->sample,
				      d->perf_freq);
		if (d->wildcard) {
			/* probes of one pattern are adjacent in the table
			 * (the sort is stable): the runtime groups them by
			 * this text for its warning */
			char *pat = probe_point_str(d->point);
			char *qp = c_quote(pat, strlen(pat));
			strbuf_printf(o, ",\n\t  .wildcard = 1, .pattern = %s", qp);
			free(qp);
			free(pat);
		}
		strbuf_printf(o, ", .optional = %d },\n", d->optional);
		free(pp);
		free(l);
	}
	if (dump)
		strbuf_printf(o, "\t{ .kind = STP_PROBE_END, .pp = \"end\", "
			      ".loc = %s,\n\t  .handler = probe_dump },\n",
			      q_script(s));
	strbuf_add(o, "};\n\n");
	free(done);
	free(v);
}

/* strbuf_insert_at - put @text into @o at byte offset @at (<= o->len). */
static void strbuf_insert_at(struct strbuf *o, size_t at, const char *text)
{
	size_t len = o->len;
	char *old = strbuf_detach(o);
	strbuf_addn(o, old, at);
	strbuf_add(o, text);
	strbuf_addn(o, old + at, len - at);
	free(old);
}

/* gen_kaddr - when target variables name kernel globals (link-time
 * addresses), stp_kaddr() relocates them by the running kernel's KASLR
 * offset, measured on an exported function: its definition goes at the
 * end of @o and its declaration at @decl_at (before the code using it);
 * neither when nothing uses it (an unused static is a warning in kbuild). */
static int gen_kaddr(struct session *s, struct strbuf *o, size_t decl_at)
{
	struct ksyms *k;
	uint64_t a;
	if (!strstr(strbuf_str(o), "stp_kaddr(0x"))
		return 0;
	if (!(k = ksyms_for(s)) || ksyms_addr(k, "_printk", &a) < 0) {
		diag_error(NULL, "cannot relocate kernel addresses: no address "
			   "for _printk in the kernel's symbol table");
		return -1;
	}
	strbuf_printf(o, "static unsigned long stp_kaddr(unsigned long link)\n"
		      "{\n\treturn link + ((unsigned long)&_printk - "
		      "0x%llxUL);\n}\n\n", (unsigned long long)a);
	strbuf_insert_at(o, decl_at, "static unsigned long "
			 "stp_kaddr(unsigned long link);\n\n");
	return 0;
}

int codegen(struct session *s, struct strbuf *o)
{
	int i, rc = 0, dump, usyms, klines, nsets;
	size_t kaddr_decl;
	char *q, *kid;
	if (lstat_plan(s) < 0)
		return -1;
	q = c_quote(s->script_file, strlen(s->script_file));
	dump_session = s;
	pcpu_classify(s);
	strbuf_printf(o, "/* Generated by stap from %s.  Do not edit. */\n"
		      "#include \"stp_runtime.h\"\n%s\n",
		      s->script_file, has_kprobe_pre(s) ?
		      "#include \"stp_hit.h\"  /* kprobe pre_handlers */\n" : "");
	kaddr_decl = o->len;	/* stp_kaddr's declaration, when used */
	/* the level staprun checks the caller against (staprun/privilege.c) */
	if (s->privilege == STP_PRIV_STAPUSR || s->privilege == STP_PRIV_STAPSYS)
		strbuf_printf(o, "static const char stp_modinfo_privilege[]\n"
			      "__attribute__((section(\".modinfo\"), used, "
			      "aligned(1))) = \"stap_privilege=%s\";\n\n",
			      s->privilege == STP_PRIV_STAPUSR ? "stapusr" : "stapsys");
	/* the kernel build it holds addresses of (staprun refuses others) */
	if ((kid = dbgd_kernel_build_id(s)) != NULL)
		strbuf_printf(o, "static const char stp_modinfo_kernel_build_id[]\n"
			      "__attribute__((section(\".modinfo\"), used, "
			      "aligned(1))) = \"stap_kernel_build_id=%s\";\n\n", kid);
	free(kid);
	gen_python3(s, o);
	for (i = 0; i < s->user->embeds.n; i++)
		strbuf_printf(o, "%s\n", (const char *)s->user->embeds.items[i]);
	for (i = 0; i < s->library.n; i++) {
		struct stapfile *f = s->library.items[i];
		int j, used = 0, k;
		/* a tapset's top-level C is needed when one of its functions is */
		for (j = 0; j < f->functions.n && !used; j++)
			for (k = 0; k < s->functions.n && !used; k++)
				used = s->functions.items[k] == f->functions.items[j];
		for (j = 0; used && j < f->embeds.n; j++)
			strbuf_printf(o, "%s\n", (const char *)f->embeds.items[j]);
	}
	if (gen_globals(s, o) < 0)
		rc = -1;
	for (i = 0; i < s->functions.n; i++) {
		gen_function_proto(o, s->functions.items[i]);
		strbuf_add(o, ";\n");
	}
	strbuf_add(o, "\n");
	for (i = 0; i < s->functions.n; i++) {
		struct functiondecl *fn = s->functions.items[i];
		if (fn->embedded_c)
			gen_embedded_function(s, o, fn);
		else if (gen_script_function(s, o, fn) < 0)
			rc = -1;
	}
	for (i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		char *name;
		int k;
		if (!tvar_probe_per_derived(p)) {
			name = xasprintf("probe_%d", i);
			if (gen_shared_probe(s, o, p, name, NULL) < 0)
				rc = -1;
			free(name);
			continue;
		}
		for (k = 0; k < s->derived.n; k++) {
			struct derived_probe *d = s->derived.items[k];
			if (d->probe != p)
				continue;
			name = xasprintf("probe_%d_d%d", i, k);
			if (gen_shared_probe(s, o, p, name, d) < 0)
				rc = -1;
			free(name);
		}
	}
	if (gen_kaddr(s, o, kaddr_decl) < 0)
		rc = -1;
	{       /* points sharing a handler: rows of probe sets */
		char **h = xcalloc(s->derived.n + 1, sizeof(*h));
		for (i = 0; i < s->derived.n; i++)
			h[i] = handler_name(s, s->derived.items[i]);
		nsets = kset_plan(s, h);
		gen_ksets(s, o, h);
		for (i = 0; i < s->derived.n; i++)
			free(h[i]);
		free(h);
	}
	gen_kprobe_pres(s, o);
	gen_upaths(o);
	dump = gen_dump_probe(s, o);
	gen_probe_table(s, o, dump, nsets);
	usyms = gen_usyms(s, o);
	if (usyms < 0)
		rc = -1;
	klines = gen_klines(s, o);
	if (klines < 0)
		rc = -1;
	strbuf_printf(o, "const struct stp_module_desc stp_module = {\n"
		      "\t.script_name = %s,\n\t.probes = stp_probes,\n"
		      "\t.nprobes = ARRAY_SIZE(stp_probes),\n"
		      "\t.init_globals = stp_init_globals,\n"
		      "\t.locks = stp_global_locks,\n\t.nlocks = %d,\n"
		      "\t.maps = stp_maps,\n\t.nmaps = STP_NMAPS,\n"
		      "\t.upaths = stp_upaths,\n\t.usyms = %s,\n"
		      "\t.klines = %s,\n};\n",
		      q, s->globals.n,
		      usyms > 0 ? "&stp_usyms" : "NULL",
		      klines > 0 ? "&stp_klines" : "NULL");
	free(q);
	return rc;
}
