/* tvar_gen.c - pass 3: the C that reads (and in guru mode writes) target
 * variables, from the paths pass 2 resolved (struct tv_path,
 * elaborate.h).
 *
 * The position is kept as one C expression of type unsigned long, either
 * an address in kernel memory (DL_ADDR) or a value (DL_VALUE); every read
 * goes through stp_read_kernel() (stp_read_user() for paths of a user
 * program's DWARF, tv_path.user), so a bad pointer is a script error that
 * names the script location.
 */
#include "codegen_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The position reached while following a path. */
struct pos {
	int kind;          /* DL_ADDR / DL_VALUE */
	char *c;           /* C expression, unsigned long */
	struct ctype *t;
	int user;          /* memory is the current task's user memory */
};

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
	return xasprintf("(%sstp_read_%s(c, (unsigned long)(%s), %d, %s))",
			 read_cast(p->t), p->user ? "user" : "kernel", p->c,
			 size, loc);
}

/* base - the position of @path's base */
static void base(struct gen *g, const struct tv_path *path, const char *loc,
		 struct pos *p)
{
	p->kind = path->kind;
	p->t = path->type;
	p->user = path->user;
	p->c = path->cast_operand ? gen_expr(g, path->cast_operand)
				  : at_loc(path->c_expr, loc);
}

/* step - apply one resolved component to @p */
static void step(struct gen *g, struct pos *p, const struct tv_step *s,
		 const char *loc)
{
	char *b, *n;
	if (s->is_index) {
		char *idx = gen_expr(g, s->index);
		/* an array, or a struct in memory (@cast(p, "T")[i]), is
		 * indexed from its address; a pointer from its value */
		b = p->t->kind == CT_ARRAY || p->t->kind == CT_STRUCT ||
		    p->t->kind == CT_UNION ? xstrdup(p->c) : value_of(p, loc);
		n = xasprintf("((unsigned long)(%s) + (unsigned long)(%s) * "
			      "%lluUL)", b, idx, (unsigned long long)s->n);
		free(idx);
	} else {
		b = p->t->kind == CT_PTR ? value_of(p, loc) : xstrdup(p->c);
		n = xasprintf("((unsigned long)(%s) + %lluUL)", b,
			      (unsigned long long)s->n);
	}
	free(b);
	p->c = n;
	p->kind = DL_ADDR;
	p->t = s->is_index ? s->type : s->unit;
	if (!s->is_index && s->bit_size) {
		/* a bitfield: read the unit, shift, mask */
		char *v = value_of(p, loc);
		int shift = s->bit_offset, bits = s->bit_size;
		if (s->unit->is_signed)
			p->c = xasprintf("((unsigned long)((s64)((u64)(%s)"
					 " << %d) >> %d))", v,
					 64 - shift - bits, 64 - bits);
		else
			p->c = xasprintf("((unsigned long)(((u64)(%s) >> "
					 "%d) & %lluULL))", v, shift,
					 bits == 64 ? ~0ULL :
					 (1ULL << bits) - 1);
		free(v);
		p->kind = DL_VALUE;
		p->t = s->type;
	}
}

/* follow - the position at the end of @path */
static void follow(struct gen *g, const struct tv_path *path, const char *loc,
		   struct pos *p)
{
	int i;
	base(g, path, loc, p);
	for (i = 0; i < path->steps.n; i++)
		step(g, p, path->steps.items[i], loc);
}

/* final - the long value of position @p, or its address for & */
static char *final(struct pos *p, int addr_of, const char *loc)
{
	if (addr_of || p->t->kind == CT_ARRAY || p->t->kind == CT_FUNC)
		return xasprintf("((s64)(%s))", p->c);
	return value_of(p, loc);
}

/* ---- pretty printing: $var$, $$parms, $$locals, $$vars, $$return ---- */

#define PRETTY_MEMBERS 24   /* fields printed per struct level */

static void pretty(struct gen *g, struct pos *p, int depth, const char *buf,
		   const char *loc);

static int is_char_ptr(const struct ctype *t)
{
	return (t->kind == CT_PTR || t->kind == CT_ARRAY) && t->target &&
	       t->target->kind == CT_INT && t->target->is_char;
}

static void emit_append(struct gen *g, const char *buf, const char *lit)
{
	emit(g, "stp_tv_appendf(%s, \"%%s\", %s);", buf, lit);
}

static void pretty_struct(struct gen *g, struct pos *p, int depth,
			  const char *buf, const char *loc)
{
	struct ctype *t = ctype_members(p->t);
	int i, shown = 0;
	if (p->kind != DL_ADDR || depth <= 0) {
		emit_append(g, buf, "\"{...}\"");
		return;
	}
	emit_append(g, buf, "\"{\"");
	for (i = 0; i < t->nmembers && shown < PRETTY_MEMBERS; i++) {
		struct ctype_member *m = &t->members[i];
		struct pos q = { DL_ADDR, NULL, m->type, p->user };
		char *lit;
		if (m->bit_size)
			continue;
		q.c = xasprintf("((unsigned long)(%s) + %lluUL)", p->c,
				(unsigned long long)m->offset);
		lit = m->name ? xasprintf("\"%s.%s=\"", shown ? ", " : "",
					  m->name)
			      : xasprintf("\"%s\"", shown ? ", " : "");
		emit_append(g, buf, lit);
		free(lit);
		pretty(g, &q, depth - 1, buf, loc);
		shown++;
	}
	emit_append(g, buf, t->nmembers > shown ? "\", ...}\"" : "\"}\"");
}

/* pretty - append the SystemTap-style text of the value at @p to @buf */
static void pretty(struct gen *g, struct pos *p, int depth, const char *buf,
		   const char *loc)
{
	char *v;
	switch (p->t->kind) {
	case CT_STRUCT:
	case CT_UNION:
		pretty_struct(g, p, depth, buf, loc);
		return;
	case CT_ARRAY:
		if (is_char_ptr(p->t) && p->kind == DL_ADDR) {
			emit(g, "stp_tv_%cstr(c, %s, (unsigned long)(%s), "
			     "%lld);", p->user ? 'u' : 'k', buf, p->c,
			     (long long)(p->t->nelems > 0 ?
							      p->t->nelems : 64));
			return;
		}
		emit_append(g, buf, "\"[...]\"");
		return;
	case CT_PTR:
		v = value_of(p, loc);
		if (is_char_ptr(p->t))
			emit(g, "stp_tv_%cstr(c, %s, (unsigned long)%s, 64);",
			     p->user ? 'u' : 'k', buf, v);
		else
			emit(g, "stp_tv_appendf(%s, \"0x%%llx\", "
			     "(unsigned long long)%s);", buf, v);
		free(v);
		return;
	case CT_INT:
	case CT_ENUM:
		v = value_of(p, loc);
		emit(g, "stp_tv_appendf(%s, \"%%lld\", (long long)%s);", buf, v);
		free(v);
		return;
	default:
		emit_append(g, buf, "\"?\"");
	}
}

/* append_value - one variable of $$parms & co: hex as SystemTap prints
 * them, or the pretty form ($$parms$, and aggregates always) */
static void append_value(struct gen *g, struct pos *p, int depth,
			 const char *buf, const char *loc)
{
	char *v;
	if (depth || p->t->kind == CT_STRUCT || p->t->kind == CT_UNION) {
		pretty(g, p, depth, buf, loc);
		return;
	}
	v = value_of(p, loc);
	emit(g, "stp_tv_appendf(%s, \"0x%%llx\", (unsigned long long)%s);",
	     buf, v);
	free(v);
}

/* gen_set - $$parms, $$locals, $$vars, $$return and their $ forms */
static char *gen_set(struct gen *g, struct expr *e, const char *loc)
{
	char *buf = new_temp(g, TYPE_STRING);
	int depth = tvar_pretty_depth(e), i;
	struct vec vars = {0};
	emit(g, "%s[0] = 0;", buf);
	if (tvar_resolve_set(g->s, g->dp, e, &vars) < 0) {
		g->failed = 1;
		return buf;
	}
	for (i = 0; i < vars.n; i++) {
		struct tv_var *v = vars.items[i];
		char *lit = xasprintf("\"%s%s=\"", i ? " " : "", v->name);
		struct pos p;
		emit_append(g, buf, lit);
		free(lit);
		if (!v->ok) {
			emit_append(g, buf, "\"?\"");
			continue;
		}
		base(g, &v->path, loc, &p);
		append_value(g, &p, depth, buf, loc);
	}
	free(vars.items);
	return buf;
}

/* gen_pretty - $var$ / $var->field$$ */
static char *gen_pretty(struct gen *g, struct expr *e, const char *loc)
{
	char *buf = new_temp(g, TYPE_STRING);
	struct tv_path path;
	struct pos p;
	emit(g, "%s[0] = 0;", buf);
	if (tvar_resolve(g->s, g->dp, e, TV_PRETTY, &path) < 0) {
		g->failed = 1;
		return buf;
	}
	follow(g, &path, loc, &p);
	pretty(g, &p, tvar_pretty_depth(e), buf, loc);
	return buf;
}

/* gen_long - the value (or with @addr_of the address) of @e */
static char *gen_long(struct gen *g, struct expr *e, int addr_of,
		      const char *loc)
{
	struct tv_path path;
	struct pos p;
	if (e->kind == E_CAST && e->name && !e->components.n)
		/* @cast(PTR, "T") and &@cast(PTR, "T"): PTR itself; its
		 * type matters only to a '->' after it (autocast), so the
		 * type is not looked up here */
		return gen_expr(g, e->a);
	if (tvar_resolve(g->s, g->dp, e, addr_of ? TV_ADDR : TV_VALUE,
			 &path) < 0) {
		g->failed = 1;
		return xstrdup("0");
	}
	follow(g, &path, loc, &p);
	if (e->kind == E_CAST && !e->components.n && !addr_of)
		return xasprintf("((s64)(%s))", p.c);
	return final(&p, addr_of, loc);
}

/* entry_slot - in a .return handler, the saved entry value of @e */
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
	char *loc = loc_literal(&e->loc);
	struct tv_path path;
	struct pos p;
	int size;
	if (tvar_resolve(g->s, g->dp, e, TV_STORE, &path) < 0) {
		g->failed = 1;
		free(loc);
		return;
	}
	follow(g, &path, loc, &p);
	size = p.t->kind == CT_PTR ? 8 : (int)p.t->size;
	if (path.store_reg >= 0)
		emit(g, "stp_set_reg(c, %d, (unsigned long)(%s));",
		     path.store_reg, value);
	else
		emit(g, "stp_write_%s(c, (unsigned long)(%s), %d, (u64)(%s), "
		     "%s);", p.user ? "user" : "kernel", p.c, size, value, loc);
	check_error(g);
	free(loc);
}

char *tvar_gen(struct gen *g, struct expr *e)
{
	char *loc, *r, *t;
	if (tvar_is_probe_name(e))
		return c_quote(g->dp->symbol, strlen(g->dp->symbol));
	if (e->kind == E_DEFINED)
		return xstrdup(tvar_defined(g->s, g->dp, e->a) ? "((s64)1)"
			       : "((s64)0)");
	if (g->dp && g->dp->is_return && !g->in_entry &&
	    tvar_saved_at_entry(e) && (r = entry_slot(g, e)))
		return r;
	if (e->kind == E_ENTRY) {
		if (!g->in_entry) {
			diag_error(&e->loc, "@entry is only available in "
				   ".return probes");
			g->failed = 1;
			return xstrdup("0");
		}
		return gen_expr(g, e->a);
	}
	loc = loc_literal(&e->loc);
	if (e->kind == E_UNARY)
		r = gen_long(g, e->a, 1, loc);
	else if (e->kind == E_TARGET && tvar_is_set(e))
		r = gen_set(g, e, loc);
	else if (tvar_type(e) == TYPE_STRING)
		r = gen_pretty(g, e, loc);
	else
		r = gen_long(g, e, 0, loc);
	free(loc);
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
