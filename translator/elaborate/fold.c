/* fold.c - constant conditions folded before type inference, as
 * SystemTap folds them (its @defined is decided when a probe point is
 * derived, then its constant folder runs before types are inferred):
 * `c ? a : b`, `if (c) ...` and `while (c) ...` whose condition c is
 * made only of numbers, @defined(...), !, && and || keep only the branch
 * c chooses, and @defined(...) alone becomes 0 or 1.  So
 * `x = @defined($p) ? $p : "none"` or `if (0) { x = "s" }` are typed by
 * what is left, not by a branch that never runs.  In a probe with several
 * derived probes a condition is folded only when it has the same value
 * for all of them (their body is one tree here).
 */
#include "fold.h"

#include <stdlib.h>
#include <string.h>

struct fold {
	struct session *s;
	struct vec derived;        /* the probe's derived probes, or none */
};

/* const_value - @e is a constant condition for every derived probe of
 * the body: 1 and its value in *@val */
static int const_value(struct fold *f, struct expr *e, int *val)
{
	int i, v;
	if (!f->derived.n)
		return tvar_const_cond(f->s, NULL, e, val);
	for (i = 0; i < f->derived.n; i++) {
		if (!tvar_const_cond(f->s, f->derived.items[i], e, &v))
			return 0;
		if (i && v != *val)
			return 0;
		*val = v;
	}
	return 1;
}

static void fold_expr(struct fold *f, struct expr *e)
{
	int i, v;
	if (!e)
		return;
	fold_expr(f, e->a);
	fold_expr(f, e->b);
	fold_expr(f, e->c);
	for (i = 0; i < e->args.n; i++)
		fold_expr(f, e->args.items[i]);
	for (i = 0; i < e->components.n; i++)
		fold_expr(f, ((struct target_component *)
			      e->components.items[i])->index);
	if (e->kind == E_TERNARY && const_value(f, e->a, &v)) {
		*e = *(v ? e->b : e->c);
	} else if (e->kind == E_DEFINED && !e->name && e->a &&
		   const_value(f, e, &v)) {
		e->kind = E_NUM;
		e->num = v;
		e->a = NULL;
	}
}

static void fold_stmt(struct fold *f, struct stmt *st)
{
	int i, v;
	if (!st)
		return;
	while (st->kind == S_IF && const_value(f, st->e, &v)) {
		struct stmt *keep = v ? st->body : st->els;
		if (keep) {
			*st = *keep;
		} else {
			st->kind = S_NULL;
			st->e = NULL;
			st->body = st->els = NULL;
			return;
		}
	}
	if (st->kind == S_WHILE && const_value(f, st->e, &v) && !v) {
		st->kind = S_NULL;
		st->e = NULL;
		st->body = NULL;
		return;
	}
	for (i = 0; i < st->stmts.n; i++)
		fold_stmt(f, st->stmts.items[i]);
	fold_expr(f, st->e);
	fold_expr(f, st->init);
	fold_expr(f, st->step);
	fold_expr(f, st->limit);
	fold_expr(f, st->value);
	for (i = 0; i < st->slice.n; i++)
		fold_expr(f, st->slice.items[i]);
	fold_stmt(f, st->body);
	fold_stmt(f, st->els);
}

void fold_constants(struct session *s)
{
	int i, j;
	if (s->unoptimized)
		return;
	for (i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		struct fold f = { s, {0} };
		if (tvar_probe_per_derived(p))
			for (j = 0; j < s->derived.n; j++)
				if (((struct derived_probe *)
				     s->derived.items[j])->probe == p)
					vec_push(&f.derived, s->derived.items[j]);
		fold_stmt(&f, p->body);
		free(f.derived.items);
	}
	for (i = 0; i < s->functions.n; i++) {
		struct fold f = { s, {0} };
		fold_stmt(&f, ((struct functiondecl *)s->functions.items[i])->body);
	}
}
