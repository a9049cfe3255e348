/* badvars.c - target expressions that cannot be resolved, before pass 2
 * reports them (SystemTap's behaviour):
 *
 *   - a statement whose result nothing reads -- an expression statement
 *     without side effects, or an assignment, without side effects, to a
 *     local never read (also after other such assignments are dropped)
 *     -- is dropped when a target expression in it cannot be resolved
 *     for one of the probe's points, so `f = $file` in a probe of a
 *     function that lacks $file builds when f is never read;
 *   - with --skip-badvars, a target expression that cannot be resolved
 *     for any point of its probe reads as 0 ("" in its $x$ forms), with
 *     a warning.
 * Unless -u, which keeps every statement.  Runs after type inference,
 * before tvar_check_probe reports what remains. */
#include "elaborate.h"
#include "tvar.h"
#include "warnings.h"

#include <stdlib.h>
#include <string.h>

/* ---- which locals are read ---- */

struct reads {
	const struct session *s;
	struct vec syms;           /* struct sym *: locals read */
	struct vec dead;           /* struct stmt *: found dead so far */
};

static int in_vec(const struct vec *v, const void *x)
{
	for (int i = 0; i < v->n; i++)
		if (v->items[i] == x)
			return 1;
	return 0;
}

static int was_read(const struct reads *r, const struct sym *y)
{
	return in_vec(&r->syms, y);
}

static void mark_read(void *arg, struct expr *e, int *skip)
{
	struct reads *r = arg;
	if (e->kind == E_ASSIGN && e->op == OP_NONE && e->a &&
	    e->a->kind == E_SYM) {
		/* a plain store: the target is written, not read */
		ast_walk_expr(e->b, mark_read, r);
		*skip = 1;
		return;
	}
	if (e->kind == E_SYM && e->sym && e->sym->kind == SYM_LOCAL &&
	    !was_read(r, e->sym))
		vec_push(&r->syms, e->sym);
}

/* mark_reads_live - the locals read by the statements of @st that are
 * not dead */
static void mark_reads_live(struct reads *r, struct stmt *st)
{
	if (!st || in_vec(&r->dead, st))
		return;
	if (st->kind == S_BLOCK || st->kind == S_IF || st->kind == S_WHILE ||
	    st->kind == S_FOR || st->kind == S_TRY) {
		for (int i = 0; i < st->stmts.n; i++)
			mark_reads_live(r, st->stmts.items[i]);
		ast_walk_expr(st->e, mark_read, r);
		ast_walk_expr(st->init, mark_read, r);
		ast_walk_expr(st->step, mark_read, r);
		mark_reads_live(r, st->body);
		mark_reads_live(r, st->els);
		return;
	}
	ast_walk_stmt(st, mark_read, r);
}

/* ---- unresolvable target expressions ---- */

struct probe_ctx {
	struct session *s;
	struct probe *p;
	int any_bad;               /* out: one fails for some point */
};

/* resolves_in - does target expression @e resolve in @d (NULL: outside
 * per-point bodies)? */
static int resolves_in(struct session *s, struct derived_probe *d,
		       struct expr *e)
{
	return tvar_defined(s, d, e);
}

static int is_tvar(const struct expr *e)
{
	return (e->kind == E_TARGET && strcmp(e->name, "@var")) ||
	       (e->kind == E_CAST && e->name);
}

/* tvar_read - @e is a target expression read (not an operand of
 * @defined, whose subtree the walk skips: *@skip set) */
static int tvar_read(const struct expr *e, int *skip)
{
	if (e->kind == E_DEFINED) {
		*skip = 1;
		return 0;
	}
	return is_tvar(e);
}

/* bad_points - how many of the derived points of probe c->p target
 * expression @e does not resolve in (with @first: 1 at the first, not
 * asking the others), their number in *@n; a probe with none counts
 * as one point, outside any (*@n 0 when @e resolves there). */
static int bad_points(struct probe_ctx *c, struct expr *e, int first,
		      int *n)
{
	int bad = 0;
	*n = 0;
	for (int i = 0; i < c->s->derived.n; i++) {
		struct derived_probe *d = c->s->derived.items[i];
		if (d->probe != c->p)
			continue;
		(*n)++;
		bad += !resolves_in(c->s, d, e);
		if (bad && first)
			return bad;
	}
	if (!*n)
		bad = *n = !resolves_in(c->s, NULL, e);
	return bad;
}

/* find_bad - sets c->any_bad when target expression @e fails to
 * resolve for a point of the probe (@defined's operands are not reads) */
static void find_bad(void *arg, struct expr *e, int *skip)
{
	struct probe_ctx *c = arg;
	int n;
	if (!tvar_read(e, skip) || c->any_bad)
		return;
	if (bad_points(c, e, 1, &n))
		c->any_bad = 1;
}

/* dead - statement @st's result is read by nothing */
static int dead(const struct stmt *st, const struct reads *r)
{
	const struct expr *e = st->e;
	if (st->kind != S_EXPR || !e)
		return 0;
	if (e->kind == E_ASSIGN && e->op == OP_NONE && e->a &&
	    e->a->kind == E_SYM && e->a->sym &&
	    e->a->sym->kind == SYM_LOCAL && !was_read(r, e->a->sym))
		return !expr_has_side_effects(r->s, st, e->b);
	return !expr_has_side_effects(r->s, st, e);
}

/* find_dead - add the dead statements of @st not found yet to r->dead;
 * returns how many */
static int find_dead(struct stmt *st, struct reads *r)
{
	int n = 0;
	if (!st || in_vec(&r->dead, st))
		return 0;
	if (dead(st, r)) {
		vec_push(&r->dead, st);
		return 1;
	}
	for (int i = 0; i < st->stmts.n; i++)
		n += find_dead(st->stmts.items[i], r);
	n += find_dead(st->body, r);
	n += find_dead(st->els, r);
	return n;
}

/* drop_dead - find the statements of probe @c->p that nothing reads
 * (dropping one can leave the values it read unread in turn), and drop
 * those holding a target expression that cannot be resolved */
static void drop_dead(struct probe_ctx *c)
{
	struct reads r = { .s = c->s };
	do {
		r.syms.n = 0;
		mark_reads_live(&r, c->p->body);
	} while (find_dead(c->p->body, &r));
	for (int i = 0; i < r.dead.n; i++) {
		struct stmt *st = r.dead.items[i];
		c->any_bad = 0;
		ast_walk_expr(st->e, find_bad, c);
		if (c->any_bad) {
			st->kind = S_NULL;
			st->e = NULL;
		}
	}
	free(r.syms.items);
	free(r.dead.items);
}

/* ---- --skip-badvars ---- */

static void zero_bad(void *arg, struct expr *e, int *skip)
{
	struct probe_ctx *c = arg;
	int n, bad, pretty;
	if (!tvar_read(e, skip))
		return;
	bad = bad_points(c, e, 0, &n);
	if (!bad || bad != n)
		return;
	*skip = 1;
	pretty = e->type == TYPE_STRING;
	diag_warning(&e->loc, "cannot resolve '%s': it reads as %s "
		     "(--skip-badvars)", e->kind == E_CAST ? "@cast" : e->name,
		     pretty ? "\"\"" : "0");
	e->kind = pretty ? E_STR : E_NUM;
	e->num = 0;
	e->str = "";
	e->str_len = 0;
	e->components.n = 0;
	e->a = NULL;
}

void tvar_elide_unresolved(struct session *s)
{
	for (int i = 0; i < s->probes.n; i++) {
		struct probe_ctx c = { s, s->probes.items[i], 0 };
		if (!s->unoptimized)
			drop_dead(&c);
		if (s->skip_badvars)
			ast_walk_stmt(c.p->body, zero_bad, &c);
	}
}
