/* tvar.c - target variables (see tvar.h).
 *
 * A target expression is a base (a variable found by the provider, a
 * @cast pointer, $return) followed by a chain of ->field and [index]
 * components.  walk() follows the chain over struct ctype, keeping the
 * current position either as an address in kernel memory (DL_ADDR) or as
 * a value (DL_VALUE), and builds one C expression on the way; every read
 * goes through stp_read_kernel(), so a bad pointer is a script error.
 * Pass 2 runs the same walk with placeholder indexes, only to report
 * errors; pass 3 runs it for real.
 */
#include "tvar.h"
#include "codegen/codegen_int.h"
#include "debuginfo/debuginfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-derived-probe variable cache ---- */

struct tv_cached {
	const char *name;
	int rc;
	struct dbg_location loc;
	char *why;
};

static struct tv_cached *lookup(struct derived_probe *d, const char *name)
{
	struct vec *v;
	struct tv_cached *t;
	int i;
	if (!d->tvars)
		d->tvars = xcalloc(1, sizeof(struct vec));
	v = d->tvars;
	for (i = 0; i < v->n; i++) {
		t = v->items[i];
		if (!strcmp(t->name, name))
			return t;
	}
	t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(name);
	/* the location literal is substituted per use: see at_loc() */
	t->rc = d->fn->prov->lookup_var(d->fn->prov, d->fn, name, "LOC",
					&t->loc, &t->why);
	vec_push(v, t);
	return t;
}

/* at_loc - @c_expr with the placeholder LOC replaced by @loc_lit. */
static char *at_loc(const char *c_expr, const char *loc_lit)
{
	struct strbuf b = {0};
	const char *p = c_expr, *q;
	while ((q = strstr(p, "LOC"))) {
		int word = (q == c_expr || !(q[-1] == '_' ||
			    (q[-1] >= 'A' && q[-1] <= 'Z'))) &&
			   !(q[3] == '_' || (q[3] >= 'A' && q[3] <= 'Z'));
		strbuf_addn(&b, p, q - p);
		strbuf_add(&b, word ? loc_lit : "LOC");
		p = q + 3;
	}
	strbuf_add(&b, p);
	return b.s ? b.s : xstrdup("");
}

/* ---- names and classification ---- */

/* pretty_depth - 1 for $x$ / $$parms$, 2 for $x$$, 0 otherwise */
static int pretty_depth(const char *name)
{
	size_t n = strlen(name);
	if (n >= 3 && name[n - 1] == '$' && name[n - 2] == '$' &&
	    name[n - 3] != '$' && !(n == 3))
		return 2;
	return n >= 2 && name[n - 1] == '$' ? 1 : 0;
}

static char *bare_name(const char *name)
{
	size_t n = strlen(name);
	while (n > 1 && name[n - 1] == '$')
		n--;
	while (*name == '$' && n) {
		name++;
		n--;
	}
	return xstrndup(name, n);
}

static int is_multi(const struct expr *e)
{
	return e->kind == E_TARGET && e->name[0] == '$' && e->name[1] == '$';
}

static const char *last_name(const struct expr *e)
{
	const struct target_component *c;
	if (!e->components.n)
		return e->name;
	c = e->components.items[e->components.n - 1];
	return c->is_index ? "" : c->name;
}

enum stp_type tvar_type(const struct expr *e)
{
	if (e->kind == E_TARGET && (is_multi(e) || pretty_depth(last_name(e))))
		return TYPE_STRING;
	if (e->kind == E_CAST && e->components.n &&
	    pretty_depth(last_name(e)))
		return TYPE_STRING;
	return TYPE_LONG;
}

/* ---- the walk ---- */

struct pos {
	int kind;          /* DL_ADDR / DL_VALUE */
	char *c;           /* C expression, unsigned long */
	struct ctype *t;
};

static const char *read_cast(const struct ctype *t)
{
	if (t->kind == CT_PTR || t->size == 8)
		return "(s64)";
	if (t->is_signed)
		return t->size == 4 ? "(s64)(s32)" : t->size == 2 ? "(s64)(s16)"
		       : "(s64)(s8)";
	return t->size == 4 ? "(s64)(u32)" : t->size == 2 ? "(s64)(u16)"
	       : "(s64)(u8)";
}

/* value_of - C for the scalar at @p (read from memory if DL_ADDR) */
static char *value_of(struct pos *p, const char *loc)
{
	int size = p->t->kind == CT_PTR ? 8 : (int)p->t->size;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		size = 8;
	if (p->kind == DL_VALUE)
		return xasprintf("(%s(%s))", read_cast(p->t), p->c);
	return xasprintf("(%sstp_read_kernel(c, (unsigned long)(%s), %d, %s))",
			 read_cast(p->t), p->c, size, loc);
}

static struct ctype_member *find_member(struct ctype *t, const char *name,
					uint64_t *off)
{
	int i;
	ctype_members(t);
	for (i = 0; i < t->nmembers; i++) {
		struct ctype_member *m = &t->members[i];
		if (m->name && !strcmp(m->name, name)) {
			*off += m->offset;
			return m;
		}
	}
	for (i = 0; i < t->nmembers; i++) {
		struct ctype_member *m = &t->members[i];
		uint64_t sub = *off + m->offset;
		struct ctype_member *r;
		if (m->name || (m->type->kind != CT_STRUCT &&
				m->type->kind != CT_UNION))
			continue;
		if ((r = find_member(m->type, name, &sub))) {
			*off = sub;
			return r;
		}
	}
	return NULL;
}

static void member_names(struct ctype *t, struct strbuf *b, int *n)
{
	int i;
	ctype_members(t);
	for (i = 0; i < t->nmembers && *n < 12; i++) {
		struct ctype_member *m = &t->members[i];
		if (m->name)
			strbuf_printf(b, "%s%s", (*n)++ ? " " : "", m->name);
		else
			member_names(m->type, b, n);
	}
}

struct walk {
	struct gen *g;          /* NULL in pass 2 */
	const struct source_loc *where;
	const char *loc;        /* C literal of the location */
	int failed;
};

static void walk_error(struct walk *w, const struct source_loc *l,
		       const char *fmt, const char *a, const char *b)
{
	if (!w->failed)
		diag_error(l, fmt, a, b);
	w->failed = 1;
}

/* step - apply one component to @p; 0, or -1 after a diagnostic */
static int step(struct walk *w, struct pos *p, struct target_component *c)
{
	char *n;
	if (c->is_index) {
		struct ctype *t = p->t;
		char *idx = w->g ? gen_expr(w->g, c->index) : xstrdup("0");
		char *base;
		if (t->kind == CT_ARRAY) {
			if (p->kind != DL_ADDR) {
				walk_error(w, &c->loc, "cannot index an array "
					   "held in a register", NULL, NULL);
				return -1;
			}
			base = xstrdup(p->c);
		} else if (t->kind == CT_PTR && t->target &&
			   t->target->kind != CT_VOID) {
			base = value_of(p, w->loc);
		} else {
			walk_error(w, &c->loc, "cannot index '%s': not an "
				   "array or pointer", t->name, NULL);
			free(idx);
			return -1;
		}
		n = xasprintf("((unsigned long)(%s) + (unsigned long)(%s) * "
			      "%lluUL)", base, idx,
			      (unsigned long long)t->target->size);
		free(base);
		free(idx);
		p->c = n;
		p->kind = DL_ADDR;
		p->t = t->target;
		return 0;
	} else {
		char *field = bare_name(c->name);
		struct ctype *t = p->t;
		struct ctype_member *m;
		uint64_t off = 0;
		char *base;
		if (t->kind == CT_PTR && t->target &&
		    (t->target->kind == CT_STRUCT || t->target->kind == CT_UNION)) {
			base = value_of(p, w->loc);
			t = t->target;
		} else if (t->kind == CT_STRUCT || t->kind == CT_UNION) {
			if (p->kind != DL_ADDR) {
				walk_error(w, &c->loc, "cannot take field '%s' "
					   "of a struct held in registers", field,
					   NULL);
				return -1;
			}
			base = xstrdup(p->c);
		} else {
			walk_error(w, &c->loc, "'%s' has no field '%s': not a "
				   "struct or union", t->name, field);
			return -1;
		}
		m = find_member(t, field, &off);
		if (!m) {
			struct strbuf b = {0};
			int k = 0;
			member_names(t, &b, &k);
			if (!w->failed) {
				if (ctype_members(t)->nmembers == 0)
					diag_error(&c->loc, "%s has no field '%s' "
						   "(its definition is not known)",
						   t->name, field);
				else
					diag_error(&c->loc, "%s has no field "
						   "'%s' (fields: %s%s)", t->name,
						   field, strbuf_str(&b),
						   k >= 12 ? " ..." : "");
			}
			w->failed = 1;
			free(b.s);
			free(base);
			return -1;
		}
		p->c = xasprintf("((unsigned long)(%s) + %lluUL)", base,
				 (unsigned long long)off);
		free(base);
		p->kind = DL_ADDR;
		p->t = m->type;
		if (m->bit_size) {
			/* a bitfield: read the unit, shift, mask */
			struct ctype *u = m->type;
			char *v = value_of(p, w->loc);
			int shift = m->bit_offset, bits = m->bit_size;
			p->kind = DL_VALUE;
			if (u->is_signed)
				p->c = xasprintf("((unsigned long)((s64)((u64)(%s)"
						 " << %d) >> %d))", v,
						 64 - shift - bits, 64 - bits);
			else
				p->c = xasprintf("((unsigned long)(((u64)(%s) >> "
						 "%d) & %lluULL))", v, shift,
						 bits == 64 ? ~0ULL :
						 (1ULL << bits) - 1);
			free(v);
			p->t = xcalloc(1, sizeof(*p->t));
			*p->t = *u;
			p->t->size = 8;
		}
		free(field);
		return 0;
	}
}

/* final - the long value of position @p, or its address for & */
static char *final(struct walk *w, struct pos *p, int addr_of,
		   const struct source_loc *l)
{
	if (addr_of) {
		if (p->kind != DL_ADDR) {
			walk_error(w, l, "cannot take the address of a value "
				   "held in a register", NULL, NULL);
			return xstrdup("0");
		}
		return xasprintf("((s64)(%s))", p->c);
	}
	switch (p->t->kind) {
	case CT_INT:
	case CT_ENUM:
	case CT_PTR:
		return value_of(p, w->loc);
	case CT_ARRAY:
	case CT_FUNC:
		if (p->kind == DL_ADDR)
			return xasprintf("((s64)(%s))", p->c);
		break;
	default:
		break;
	}
	walk_error(w, l, "cannot use %s as a number (use ->field, & or the "
		   "pretty-printing form $var$)", p->t->name, NULL);
	return xstrdup("0");
}

/* ---- bases ---- */

struct tv_ctx {
	struct session *s;
	struct derived_probe *d;   /* NULL outside probe bodies */
};

static int base_of(struct walk *w, struct tv_ctx *x, struct expr *e,
		   struct pos *p)
{
	if (e->kind == E_CAST) {
		struct dbg_provider *prov = dbg_provider_for(x->s);
		const char *mod = e->module;
		char *tname = xstrdup(e->name), *lt;
		struct ctype *t;
		if (!prov)
			return -1;
		/* "kernel<linux/fs.h>" names headers for SystemTap's C
		 * fallback; the type comes from debuginfo either way */
		if (mod && (lt = strchr(mod, '<')))
			mod = lt == mod ? NULL : xstrndup(mod, lt - mod);
		t = prov->lookup_type(prov, tname, mod);
		if (!t) {
			walk_error(w, &e->loc, "@cast: unknown type '%s'%s",
				   tname, mod ? " in that module" : "");
			return -1;
		}
		p->kind = DL_ADDR;
		p->c = w->g ? gen_expr(w->g, e->a) : xstrdup("0");
		p->t = t;
		return 0;
	}
	if (!strcmp(e->name, "@var")) {
		struct dbg_provider *prov = dbg_provider_for(x->s);
		struct dbg_location l;
		char *name = xstrdup(e->str), *file = strchr(name, '@'), *why = NULL;
		if (!prov)
			return -1;
		if (file)
			*file++ = 0;
		if (!prov->lookup_global ||
		    prov->lookup_global(prov, name, file, e->module, w->loc, &l,
					&why) < 0) {
			walk_error(w, &e->loc, "@var(\"%s\"): %s", e->str,
				   why ? why : "global variables need DWARF "
				   "debuginfo (linux-image-KVER-dbg)");
			return -1;
		}
		p->kind = l.kind;
		p->c = l.c_expr;
		p->t = l.type;
		return 0;
	}
	if (!x->d || !x->d->fn) {
		walk_error(w, &e->loc, "target variable '%s' is only available "
			   "in probes of kernel.function, kernel.statement or "
			   "kernel.trace", e->name, NULL);
		return -1;
	}
	{
		char *name = bare_name(e->name);
		struct tv_cached *t;
		if (!strcmp(name, "return")) {
			struct ctype *rt;
			if (!x->d->is_return) {
				walk_error(w, &e->loc, "$return is only available "
					   "in .return probes", NULL, NULL);
				return -1;
			}
			rt = x->d->fn->prov->return_type(x->d->fn->prov, x->d->fn);
			if (!rt) {
				walk_error(w, &e->loc, "$return: %s returns void",
					   x->d->fn->name, NULL);
				return -1;
			}
			p->kind = DL_VALUE;
			p->c = xstrdup("stp_reg(c, 0)");
			p->t = rt;
			return 0;
		}
		t = lookup(x->d, name);
		if (t->rc < 0) {
			if (!w->failed)
				diag_error(&e->loc, "cannot resolve '%s' in %s: %s",
					   e->name, x->d->fn->name,
					   t->why ? t->why : "not found");
			w->failed = 1;
			return -1;
		}
		p->kind = t->loc.kind;
		p->c = at_loc(t->loc.c_expr, w->loc);
		p->t = t->loc.type;
		free(name);
		return 0;
	}
}

/* walk_target - C (long) for target expression @e, or for &@e */
static char *walk_target(struct walk *w, struct tv_ctx *x, struct expr *e,
			 int addr_of)
{
	struct pos p = {0};
	int i;
	if (base_of(w, x, e, &p) < 0)
		return xstrdup("0");
	if (e->kind == E_CAST && !e->components.n && !addr_of)
		return xasprintf("((s64)(%s))", p.c);
	for (i = 0; i < e->components.n; i++)
		if (step(w, &p, e->components.items[i]) < 0)
			return xstrdup("0");
	return final(w, &p, addr_of, &e->loc);
}

/* ---- pretty printing: $var$, $$parms, $$locals, $$vars, $$return ---- */

#define PRETTY_MEMBERS 24   /* fields printed per struct level */

static void pretty(struct walk *w, struct pos *p, int depth, const char *buf);

static int is_char_ptr(const struct ctype *t)
{
	return (t->kind == CT_PTR || t->kind == CT_ARRAY) && t->target &&
	       t->target->kind == CT_INT && t->target->is_char;
}

static void emit_append(struct walk *w, const char *buf, const char *lit)
{
	emit(w->g, "stp_tv_appendf(%s, \"%%s\", %s);", buf, lit);
}

static void pretty_struct(struct walk *w, struct pos *p, int depth,
			  const char *buf)
{
	struct ctype *t = ctype_members(p->t);
	int i, shown = 0;
	if (p->kind != DL_ADDR || depth <= 0) {
		emit_append(w, buf, "\"{...}\"");
		return;
	}
	emit_append(w, buf, "\"{\"");
	for (i = 0; i < t->nmembers && shown < PRETTY_MEMBERS; i++) {
		struct ctype_member *m = &t->members[i];
		struct pos q = { DL_ADDR, NULL, m->type };
		char *lit;
		if (m->bit_size)
			continue;
		q.c = xasprintf("((unsigned long)(%s) + %lluUL)", p->c,
				(unsigned long long)m->offset);
		lit = m->name ? xasprintf("\"%s.%s=\"", shown ? ", " : "",
					  m->name)
			      : xasprintf("\"%s\"", shown ? ", " : "");
		emit_append(w, buf, lit);
		free(lit);
		pretty(w, &q, depth - 1, buf);
		shown++;
	}
	emit_append(w, buf, t->nmembers > shown ? "\", ...}\"" : "\"}\"");
}

/* pretty - append the SystemTap-style text of the value at @p to @buf */
static void pretty(struct walk *w, struct pos *p, int depth, const char *buf)
{
	char *v;
	switch (p->t->kind) {
	case CT_STRUCT:
	case CT_UNION:
		pretty_struct(w, p, depth, buf);
		return;
	case CT_ARRAY:
		if (is_char_ptr(p->t) && p->kind == DL_ADDR) {
			emit(w->g, "stp_tv_kstr(c, %s, (unsigned long)(%s), "
			     "%lld);", buf, p->c, (long long)(p->t->nelems > 0 ?
							      p->t->nelems : 64));
			return;
		}
		emit_append(w, buf, "\"[...]\"");
		return;
	case CT_PTR:
		v = value_of(p, w->loc);
		if (is_char_ptr(p->t))
			emit(w->g, "stp_tv_kstr(c, %s, (unsigned long)%s, 64);",
			     buf, v);
		else
			emit(w->g, "stp_tv_appendf(%s, \"0x%%llx\", "
			     "(unsigned long long)%s);", buf, v);
		free(v);
		return;
	case CT_INT:
	case CT_ENUM:
		v = value_of(p, w->loc);
		emit(w->g, "stp_tv_appendf(%s, \"%%lld\", (long long)%s);", buf, v);
		free(v);
		return;
	default:
		emit_append(w, buf, "\"?\"");
	}
}

/* append_value - one variable of $$parms & co: hex as SystemTap prints
 * them, or the pretty form ($$parms$, and aggregates always) */
static void append_value(struct walk *w, struct pos *p, int depth,
			 const char *buf)
{
	char *v;
	if (depth || p->t->kind == CT_STRUCT || p->t->kind == CT_UNION) {
		pretty(w, p, depth, buf);
		return;
	}
	v = value_of(p, w->loc);
	emit(w->g, "stp_tv_appendf(%s, \"0x%%llx\", (unsigned long long)%s);",
	     buf, v);
	free(v);
}

/* gen_multi - $$parms, $$locals, $$vars, $$return and their $ forms */
static char *gen_multi(struct walk *w, struct tv_ctx *x, struct expr *e)
{
	char *what = bare_name(e->name), *buf = new_temp(w->g, TYPE_STRING);
	int depth = pretty_depth(e->name), sets[2] = { -1, -1 }, k, i, n = 0;
	struct vec names = {0};
	emit(w->g, "%s[0] = 0;", buf);
	if (!x->d || !x->d->fn) {
		walk_error(w, &e->loc, "'%s' is only available in probes of "
			   "kernel.function, kernel.statement or kernel.trace",
			   e->name, NULL);
		return buf;
	}
	if (!strcmp(what, "return")) {
		struct expr r = *e;
		struct pos p = {0};
		r.name = "$return";
		if (base_of(w, x, &r, &p) < 0)
			return buf;
		emit_append(w, buf, "\"return=\"");
		append_value(w, &p, depth, buf);
		return buf;
	}
	if (!strcmp(what, "parms") || !strcmp(what, "vars"))
		sets[0] = DBG_PARAMS;
	if (!strcmp(what, "locals") || !strcmp(what, "vars"))
		sets[1] = DBG_LOCALS;
	if (sets[0] < 0 && sets[1] < 0) {
		walk_error(w, &e->loc, "unknown '%s' (expected $$parms, $$locals, "
			   "$$vars or $$return)", e->name, NULL);
		return buf;
	}
	for (k = 0; k < 2; k++) {
		if (sets[k] < 0)
			continue;
		x->d->fn->prov->list_vars(x->d->fn->prov, x->d->fn, sets[k],
					  &names);
	}
	for (i = 0; i < names.n; i++) {
		const char *nm = names.items[i];
		struct tv_cached *t = lookup(x->d, nm);
		char *lit = xasprintf("\"%s%s=\"", n++ ? " " : "", nm);
		struct pos p;
		emit_append(w, buf, lit);
		free(lit);
		if (t->rc < 0) {
			emit_append(w, buf, "\"?\"");
			continue;
		}
		p.kind = t->loc.kind;
		p.c = at_loc(t->loc.c_expr, w->loc);
		p.t = t->loc.type;
		append_value(w, &p, depth, buf);
	}
	free(names.items);
	return buf;
}

/* gen_pretty_target - $var$ / $var->field$$ */
static char *gen_pretty_target(struct walk *w, struct tv_ctx *x,
			       struct expr *e)
{
	char *buf = new_temp(w->g, TYPE_STRING);
	struct pos p = {0};
	int i;
	emit(w->g, "%s[0] = 0;", buf);
	if (base_of(w, x, e, &p) < 0)
		return buf;
	for (i = 0; i < e->components.n; i++)
		if (step(w, &p, e->components.items[i]) < 0)
			return buf;
	pretty(w, &p, pretty_depth(last_name(e)), buf);
	return buf;
}

/* ---- @defined and constant conditions ---- */

/* defined_in - is target expression @e resolvable for @d? */
static int defined_in(struct session *s, struct derived_probe *d,
		      struct expr *e)
{
	struct walk w = { .where = &e->loc, .loc = "\"\"" };
	struct tv_ctx x = { s, d };
	int errs = diag_error_count(), quiet = diag_quiet, ok;
	char *r;
	if (e->kind == E_UNARY)
		e = e->a;
	if (e->kind != E_TARGET && e->kind != E_CAST)
		return 1;
	diag_quiet = 1;
	if (is_multi(e) || pretty_depth(last_name(e)))
		ok = d && d->fn;
	else {
		r = walk_target(&w, &x, e, 0);
		free(r);
		ok = !w.failed;
	}
	/* a struct is defined even though it is not a number */
	if (!ok && e->components.n == 0 && e->kind == E_TARGET && d && d->fn &&
	    e->name[0] == '$' && e->name[1] != '$') {
		char *n = bare_name(e->name);
		ok = !strcmp(n, "return") ? d->is_return &&
		     d->fn->prov->return_type(d->fn->prov, d->fn) != NULL
		     : lookup(d, n)->rc == 0;
		free(n);
	}
	diag_quiet = quiet;
	diag_rewind(errs);
	return ok;
}

int tvar_const_cond(struct session *s, struct derived_probe *d,
		    struct expr *e, int *val)
{
	int a, b;
	if (!e)
		return 0;
	switch (e->kind) {
	case E_NUM:
		*val = e->num != 0;
		return 1;
	case E_DEFINED:
		if (e->name || !e->a)
			return 0;
		*val = defined_in(s, d, e->a);
		return 1;
	case E_UNARY:
		if (e->op != OP_NOT || !tvar_const_cond(s, d, e->a, &a))
			return 0;
		*val = !a;
		return 1;
	case E_BINARY:
		if (e->op != OP_LAND && e->op != OP_LOR)
			return 0;
		if (!tvar_const_cond(s, d, e->a, &a) ||
		    !tvar_const_cond(s, d, e->b, &b))
			return 0;
		*val = e->op == OP_LAND ? a && b : a || b;
		return 1;
	default:
		return 0;
	}
}

/* ---- walking a body ---- */

/* A walk over a body for one derived probe: the branches @defined rules
 * out for it are left out (ast_walk_stmt with dead-branch elimination). */
struct visit {
	struct session *s;
	struct derived_probe *d;    /* for dead-branch elimination, or NULL */
	ast_expr_fn fn;
	void *arg;
};

static void visit_stmt(struct visit *v, struct stmt *st);

/* visit_one - @v's function on @e, then the live arm of a ?: whose
 * condition is decided by @defined */
static void visit_one(void *arg, struct expr *e, int *skip)
{
	struct visit *v = arg;
	int c;
	v->fn(v->arg, e, skip);
	if (*skip || e->kind != E_TERNARY || !v->d ||
	    !tvar_const_cond(v->s, v->d, e->a, &c))
		return;
	*skip = 1;
	ast_walk_expr(c ? e->b : e->c, visit_one, v);
}

static void visit_expr(struct visit *v, struct expr *e)
{
	ast_walk_expr(e, visit_one, v);
}

static void visit_stmt(struct visit *v, struct stmt *st)
{
	int i, c;
	if (!st)
		return;
	if (st->kind == S_IF && v->d && tvar_const_cond(v->s, v->d, st->e, &c)) {
		visit_stmt(v, c ? st->body : st->els);
		return;
	}
	for (i = 0; i < st->stmts.n; i++)
		visit_stmt(v, st->stmts.items[i]);
	visit_expr(v, st->e);
	visit_expr(v, st->init);
	visit_expr(v, st->step);
	visit_expr(v, st->limit);
	visit_stmt(v, st->body);
	visit_stmt(v, st->els);
}

static void find_tvar(void *arg, struct expr *e, int *skip)
{
	if (e->kind == E_TARGET && strcmp(e->name, "@var"))
		*(int *)arg = 1;
	if (e->kind == E_ENTRY || (e->kind == E_DEFINED && !e->name && e->a &&
				   (e->a->kind == E_TARGET ||
				    e->a->kind == E_UNARY)))
		*(int *)arg = 1;
}

int tvar_probe_per_derived(struct probe *p)
{
	struct visit v = { .fn = find_tvar };
	int found = 0;
	v.arg = &found;
	visit_stmt(&v, p->body);
	return found;
}

/* ---- pass 2 ---- */

struct check {
	struct session *s;
	struct derived_probe *d;
	int in_function;
};

static void check_one(void *arg, struct expr *e, int *skip)
{
	struct check *k = arg;
	if ((e->kind == E_ASSIGN || e->kind == E_INCDEC) && e->a &&
	    e->a->kind == E_TARGET) {
		if (!k->s->guru)
			diag_error(&e->loc, "assigning to target variable '%s' "
				   "needs guru mode (-g)", e->a->name);
		else if (e->kind == E_INCDEC)
			diag_error(&e->loc, "use '%s = %s + 1' to change a target "
				   "variable", e->a->name, e->a->name);
		else if (is_multi(e->a) || pretty_depth(last_name(e->a)))
			diag_error(&e->loc, "cannot assign to '%s'", e->a->name);
	}
	struct tv_ctx x = { k->s, k->d };
	struct walk w = { .where = &e->loc, .loc = "\"\"" };
	int addr_of = 0;
	char *r;
	if (e->kind == E_DEFINED && !e->name) {
		*skip = 1;           /* @defined(...) never fails */
		return;
	}
	if (e->kind == E_ENTRY && k->d && !k->d->is_return) {
		diag_error(&e->loc, "@entry is only available in .return "
			   "probes");
		*skip = 1;
		return;
	}
	if (e->kind == E_UNARY && e->op == OP_BAND) {
		addr_of = 1;
		e = e->a;
		*skip = 1;
	}
	if (e->kind != E_TARGET && e->kind != E_CAST)
		return;
	if (k->in_function && e->kind == E_TARGET && strcmp(e->name, "@var")) {
		diag_error(&e->loc, "target variable '%s' in a function: pass "
			   "it from the probe as an argument", e->name);
		*skip = 1;
		return;
	}
	if (e->kind == E_CAST)
		return;            /* the cast's operand is visited on */
	*skip = 1;
	for (int i = 0; i < e->components.n; i++) {
		struct target_component *tc = e->components.items[i];
		if (tc->is_index) {
			struct visit v = { k->s, k->d, check_one, k };
			visit_expr(&v, tc->index);
		}
	}
	if (is_multi(e)) {
		char *n = bare_name(e->name);
		if (!k->d || !k->d->fn)
			diag_error(&e->loc, "'%s' is only available in probes of "
				   "kernel.function, kernel.statement or "
				   "kernel.trace", e->name);
		else if (strcmp(n, "parms") && strcmp(n, "locals") &&
			 strcmp(n, "vars") && strcmp(n, "return"))
			diag_error(&e->loc, "unknown '%s' (expected $$parms, "
				   "$$locals, $$vars or $$return)", e->name);
		free(n);
		return;
	}
	if (pretty_depth(last_name(e))) {
		struct pos p = {0};
		int i;
		if (base_of(&w, &x, e, &p) == 0)
			for (i = 0; i < e->components.n; i++)
				if (step(&w, &p, e->components.items[i]) < 0)
					break;
		return;
	}
	r = walk_target(&w, &x, e, addr_of);
	free(r);
}

/* cast_type_check - @cast operands in functions and probes need no
 * derived probe; check them once. */
void tvar_check_function(struct session *s, struct stmt *body)
{
	struct check k = { s, NULL, 1 };
	struct visit v = { s, NULL, check_one, &k };
	visit_stmt(&v, body);
}

void tvar_check_probe(struct session *s, struct probe *p)
{
	int i;
	if (!tvar_probe_per_derived(p)) {
		struct check k = { s, NULL, 0 };
		struct visit v = { s, NULL, check_one, &k };
		visit_stmt(&v, p->body);
		return;
	}
	for (i = 0; i < s->derived.n; i++) {
		struct derived_probe *d = s->derived.items[i];
		struct check k = { s, d, 0 };
		struct visit v = { s, d, check_one, &k };
		if (d->probe != p)
			continue;
		visit_stmt(&v, p->body);
	}
}

/* ---- pass 3 ---- */

static int is_return_value(const struct expr *e)
{
	return e->kind == E_TARGET && (!strcmp(e->name, "$return") ||
				       !strncmp(e->name, "$$return", 8) ||
				       !strncmp(e->name, "$return$", 8));
}

/* entry_node - in a .return probe, is @e evaluated at the function's
 * entry (its value saved in the kretprobe instance)? */
static int entry_node(const struct expr *e)
{
	if (e->kind == E_ENTRY)
		return 1;
	if (e->kind == E_UNARY && e->op == OP_BAND && e->a &&
	    e->a->kind == E_TARGET)
		return !is_return_value(e->a) && strcmp(e->a->name, "@var");
	return e->kind == E_TARGET && !is_return_value(e) &&
	       strcmp(e->name, "@var");
}

static void collect_entry(void *arg, struct expr *e, int *skip)
{
	if (e->kind == E_DEFINED) {
		*skip = 1;
		return;
	}
	if (entry_node(e)) {
		vec_push(arg, e);
		*skip = 1;
	}
}

void tvar_entry_exprs(struct session *s, struct derived_probe *d,
		      struct vec *out)
{
	struct visit v = { s, d, collect_entry, out };
	if (d->is_return && d->fn)
		visit_stmt(&v, d->probe->body);
}

static char *entry_slot(struct gen *g, struct expr *e)
{
	int i;
	for (i = 0; g->entries && i < g->entries->n; i++)
		if (g->entries->items[i] == e)
			return xasprintf("ed->v%d", i);
	return NULL;
}

void tvar_gen_store(struct gen *g, struct expr *e, const char *value)
{
	struct tv_ctx x = { g->s, g->dp };
	char *loc = loc_literal(&e->loc);
	struct walk w = { g, &e->loc, loc, 0 };
	struct pos p = {0};
	int i, reg, size;
	if (g->dp && g->dp->is_return && entry_node(e)) {
		diag_error(&e->loc, "cannot assign to '%s' in a .return probe: "
			   "its value was saved at the function's entry "
			   "(only $return can be changed)", e->name);
		g->failed = 1;
		goto out;
	}
	if (base_of(&w, &x, e, &p) < 0)
		goto fail;
	for (i = 0; i < e->components.n; i++)
		if (step(&w, &p, e->components.items[i]) < 0)
			goto fail;
	if (p.t->kind != CT_INT && p.t->kind != CT_ENUM && p.t->kind != CT_PTR) {
		diag_error(&e->loc, "cannot assign a number to %s", p.t->name);
		goto fail;
	}
	size = p.t->kind == CT_PTR ? 8 : (int)p.t->size;
	if (p.kind == DL_VALUE && sscanf(p.c, "stp_reg(c, %d)", &reg) == 1 &&
	    !strchr(p.c, '+'))
		emit(g, "stp_set_reg(c, %d, (unsigned long)(%s));", reg, value);
	else if (p.kind == DL_ADDR && (size == 1 || size == 2 || size == 4 ||
				       size == 8))
		emit(g, "stp_write_kernel(c, (unsigned long)(%s), %d, (u64)(%s), "
		     "%s);", p.c, size, value, loc);
	else {
		diag_error(&e->loc, "cannot assign to '%s': it is not in a "
			   "register or in memory here", e->name);
		goto fail;
	}
	check_error(g);
	goto out;
fail:
	g->failed = 1;
out:
	free(loc);
}

char *tvar_gen(struct gen *g, struct expr *e)
{
	struct tv_ctx x = { g->s, g->dp };
	char *loc = loc_literal(&e->loc), *r, *t;
	struct walk w = { g, &e->loc, loc, 0 };
	if (e->kind == E_DEFINED) {
		free(loc);
		return xstrdup(defined_in(g->s, g->dp, e->a) ? "((s64)1)"
			       : "((s64)0)");
	}
	if (g->dp && g->dp->is_return && !g->in_entry && entry_node(e) &&
	    (r = entry_slot(g, e))) {
		free(loc);
		return r;
	}
	if (e->kind == E_ENTRY) {
		free(loc);
		if (!g->in_entry) {
			diag_error(&e->loc, "@entry is only available in "
				   ".return probes");
			g->failed = 1;
			return xstrdup("0");
		}
		return gen_expr(g, e->a);
	}
	if (e->kind == E_UNARY)
		r = walk_target(&w, &x, e->a, 1);
	else if (e->kind == E_TARGET && is_multi(e))
		r = gen_multi(&w, &x, e);
	else if (tvar_type(e) == TYPE_STRING)
		r = gen_pretty_target(&w, &x, e);
	else
		r = walk_target(&w, &x, e, 0);
	free(loc);
	if (w.failed)
		g->failed = 1;
	if (tvar_type(e) == TYPE_STRING && e->kind != E_UNARY) {
		check_error(g);
		return r;
	}
	t = new_temp(g, TYPE_LONG);
	emit(g, "%s = %s;", t, r);
	check_error(g);
	free(r);
	return t;
}

/* ---- stap -L ---- */

void tvar_list(struct session *s, struct derived_probe *d, struct strbuf *out)
{
	struct vec names = {0};
	int which, i;
	if (!d->fn)
		return;
	for (which = DBG_PARAMS; which <= DBG_LOCALS; which++) {
		d->fn->prov->list_vars(d->fn->prov, d->fn, which, &names);
		for (i = 0; i < names.n; i++) {
			struct tv_cached *t = lookup(d, names.items[i]);
			if (t->rc == 0)
				strbuf_printf(out, " $%s:%s", t->name,
					      t->loc.type->name);
		}
		names.n = 0;
	}
	free(names.items);
}
