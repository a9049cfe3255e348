/* autocast.c - the C type behind '->' on a script expression (autocast,
 * as SystemTap has it): `task_current()->pid`, `f = $file; f->f_path`,
 * `t = @cast(p, "task_struct"); t->pid`.
 *
 * A script value is a plain long; what it points to is known when it
 * comes, directly or through locals and function returns, from a target
 * expression or a @cast:
 *   - $x->y / @cast(p, "T")->y whose C type is a pointer to a struct or
 *     union: that struct;
 *   - @cast(p, "T") alone: T;  &$x->y, &@cast(p, "T")->y: the struct there;
 *   - a local: what the first of its assignments (local = EXPR) that
 *     gives a type gives;
 *   - a call of a script function: what the first of its `return EXPR`
 *     that gives a type gives (tapset functions declare their type so:
 *     task_current() returns &@cast(..., "struct task_struct"));
 *   - C ? A : B: the arm @defined in C selects, else what A or B gives;
 *   - @entry(EXPR), (EXPR): what EXPR gives; another autocast: where its
 *     chain leads, if that is a pointer to a struct.
 * Target variables are resolved in the derived probe the expression runs
 * in, so the same local may point to different types in different
 * probes, as the variables it was assigned from do. */
#include "elaborate.h"
#include "tvar.h"

#include <string.h>

/* (local, value assigned to it) pairs of the whole program */
static struct vec assigns;

static void collect(void *arg, struct expr *e, int *skip)
{
	(void)arg;
	(void)skip;
	if (e->kind == E_ASSIGN && e->op == OP_NONE && e->a &&
	    e->a->kind == E_SYM && e->a->sym &&
	    e->a->sym->kind != SYM_GLOBAL && e->b) {
		vec_push(&assigns, e->a->sym);
		vec_push(&assigns, e->b);
	}
}

void autocast_index(struct session *s)
{
	int i;
	/* a new vector each time: the previous one's storage belongs to the
	 * previous program (the fuzz target frees it between inputs) */
	memset(&assigns, 0, sizeof(assigns));
	for (i = 0; i < s->probes.n; i++)
		ast_walk_stmt(((struct probe *)s->probes.items[i])->body,
			      collect, NULL);
	for (i = 0; i < s->functions.n; i++)
		ast_walk_stmt(((struct functiondecl *)
			       s->functions.items[i])->body, collect, NULL);
}

static struct ctype *pointee(struct session *s, struct derived_probe *d,
			     struct expr *e, int depth);

/* struct_of - @t if it is a struct or union, else NULL */
static struct ctype *struct_of(struct ctype *t)
{
	return t && (t->kind == CT_STRUCT || t->kind == CT_UNION) ? t : NULL;
}

struct ret_walk {
	struct session *s;
	int depth;
	struct ctype *found;
};

static void find_return(struct ret_walk *r, struct stmt *st)
{
	int i;
	if (!st || r->found)
		return;
	if (st->kind == S_RETURN && st->e) {
		r->found = pointee(r->s, NULL, st->e, r->depth);
		return;
	}
	for (i = 0; i < st->stmts.n; i++)
		find_return(r, st->stmts.items[i]);
	find_return(r, st->body);
	find_return(r, st->els);
}

static struct ctype *pointee(struct session *s, struct derived_probe *d,
			     struct expr *e, int depth)
{
	struct tv_path path;
	int i;
	if (!e || depth > 16)
		return NULL;
	switch (e->kind) {
	case E_TARGET:
	case E_CAST:
		if (e->kind == E_TARGET && tvar_is_set(e))
			return NULL;
		if (tvar_resolve_quiet(s, d, e, TV_VALUE, &path) < 0)
			return NULL;
		if (e->kind == E_CAST && e->name && !e->components.n)
			return struct_of(path.type);
		if (path.final_type && path.final_type->kind == CT_PTR)
			return struct_of(path.final_type->target);
		return NULL;
	case E_UNARY:
		if (e->op != OP_BAND || !e->a ||
		    (e->a->kind != E_TARGET && e->a->kind != E_CAST))
			return NULL;
		if (tvar_resolve_quiet(s, d, e->a, TV_ADDR, &path) < 0)
			return NULL;
		return struct_of(path.final_type);
	case E_ENTRY:
		return pointee(s, d, e->a, depth + 1);
	case E_TERNARY: {
		/* the live arm when @defined decides the condition
		 * (@choose_defined), else the first arm that gives a type */
		int live;
		struct ctype *t;
		if (tvar_const_cond(s, d, e->a, &live))
			return pointee(s, d, live ? e->b : e->c, depth + 1);
		t = pointee(s, d, e->b, depth + 1);
		return t ? t : pointee(s, d, e->c, depth + 1);
	}
	case E_SYM:
		if (!e->sym || e->sym->kind == SYM_GLOBAL)
			return NULL;
		for (i = 0; i + 1 < assigns.n; i += 2) {
			struct ctype *t;
			if (assigns.items[i] != e->sym)
				continue;
			t = pointee(s, d, assigns.items[i + 1], depth + 1);
			if (t)
				return t;
		}
		return NULL;
	case E_CALL: {
		struct ret_walk r = { s, depth + 1, NULL };
		if (!e->func || !e->func->body)
			return NULL;
		find_return(&r, e->func->body);
		return r.found;
	}
	default:
		return NULL;
	}
}

struct ctype *autocast_type(struct session *s, struct derived_probe *d,
			    struct expr *e)
{
	return pointee(s, d, e->a, 0);
}
