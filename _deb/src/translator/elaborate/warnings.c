/* warnings.c - pass 2 warnings (never-assigned and never-read variables,
 * unused code) and the elision of unused functions, globals and
 * statements without side effects (stap -u keeps them; -w silences the
 * warnings, see util.c). */
#include "warnings.h"
#include "aliases.h"
#include "elaborate.h"

#include <stdlib.h>
#include <string.h>

static int in_user_file(const struct session *s, const struct source_loc *l)
{
	return l->file && (l->file == s->user->name ||
			   !strcmp(l->file, s->user->name));
}

/* similar_vars - ", similar: a, b" listing the names in @scopes (vectors
 * of struct sym *, NULL-terminated) close to @name, or "" */
static char *similar_vars(const char *name, struct vec **scopes)
{
	struct strbuf b = {0};
	int i, n = 0;
	for (; *scopes; scopes++)
		for (i = 0; i < (*scopes)->n && n < 5; i++) {
			struct sym *y = (*scopes)->items[i];
			if (strcmp(y->name, name) && names_similar(name, y->name))
				strbuf_printf(&b, "%s%s", n++ ? ", " : " (similar: ",
					      y->name);
		}
	if (n)
		strbuf_addc(&b, ')');
	return strbuf_detach(&b);
}

static void warn_locals(struct session *s, struct vec *locals,
			struct vec *params, int expanded)
{
	struct vec *scopes[] = { locals, params, &s->globals, NULL };
	int i;
	for (i = 0; i < locals->n; i++) {
		struct sym *y = locals->items[i];
		if (!in_user_file(s, &y->loc))
			continue;
		if (y->read && !y->written) {
			char *sim = similar_vars(y->name, scopes);
			diag_warning(&y->loc, "local variable '%s' is read but "
				     "never assigned%s", y->name, sim);
			free(sim);
		} else if (y->written && !y->read && !expanded) {
			diag_warning(&y->loc, "local variable '%s' is assigned "
				     "but never read", y->name);
		}
	}
}

/* mark_expr / mark_stmt - set 'live' on the globals code uses */
static void mark_expr(const struct expr *e)
{
	int i;
	if (!e)
		return;
	if (e->sym && e->sym->kind == SYM_GLOBAL)
		e->sym->live = 1;
	mark_expr(e->a);
	mark_expr(e->b);
	mark_expr(e->c);
	for (i = 0; i < e->args.n; i++)
		mark_expr(e->args.items[i]);
	for (i = 0; i < e->components.n; i++)
		mark_expr(((struct target_component *)e->components.items[i])->index);
}

static void mark_stmt(const struct stmt *st)
{
	int i;
	if (!st)
		return;
	for (i = 0; i < st->stmts.n; i++)
		mark_stmt(st->stmts.items[i]);
	mark_expr(st->e);
	mark_expr(st->init);
	mark_expr(st->step);
	mark_stmt(st->body);
	mark_stmt(st->els);
	for (i = 0; i < st->keys.n; i++)
		mark_expr(st->keys.items[i]);
	mark_expr(st->value);
	mark_expr(st->array);
	mark_expr(st->limit);
	for (i = 0; i < st->slice.n; i++)
		mark_expr(st->slice.items[i]);
}

void elide_unused(struct session *s)
{
	int i, n;
	for (i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		warn_locals(s, &p->locals, NULL, p->alias_chain != NULL);
	}
	for (i = 0; i < s->functions.n; i++) {
		struct functiondecl *fn = s->functions.items[i];
		warn_locals(s, &fn->locals, &fn->params, 0);
	}
	for (i = n = 0; i < s->functions.n; i++) {
		struct functiondecl *fn = s->functions.items[i];
		if (!fn->reachable && in_user_file(s, &fn->loc))
			diag_warning(&fn->loc, "%sunused function '%s'",
				     s->unoptimized ? "" : "eliding ", fn->name);
		if (fn->reachable || s->unoptimized)
			s->functions.items[n++] = fn;
	}
	s->functions.n = n;
	for (i = 0; i < s->probes.n; i++)
		mark_stmt(((struct probe *)s->probes.items[i])->body);
	for (i = 0; i < s->functions.n; i++)
		mark_stmt(((struct functiondecl *)s->functions.items[i])->body);
	for (i = n = 0; i < s->globals.n; i++) {
		struct sym *g = s->globals.items[i];
		int unused = !g->live;
		if (unused && in_user_file(s, &g->loc))
			diag_warning(&g->loc, "%sunused global '%s'",
				     s->unoptimized ? "" : "eliding ", g->name);
		if (!unused || s->unoptimized) {
			g->index = n;
			s->globals.items[n++] = g;
		}
	}
	s->globals.n = n;
}

static int function_pure(struct functiondecl *fn);

/* effects - does @e change anything but the locals and parameters of the
 * body it is in (when @local_writes) or anything at all? */
static int effects(const struct expr *e, int local_writes)
{
	int i;
	if (!e)
		return 0;
	switch (e->kind) {
	case E_ASSIGN:
	case E_INCDEC:
		if (!local_writes || !e->a || e->a->kind != E_SYM || !e->a->sym ||
		    e->a->sym->kind == SYM_GLOBAL)
			return 1;
		break;
	case E_STATS_ADD:
		return 1;
	case E_CALL:
		/* embedded C only when marked pure; script functions when
		 * they touch nothing but their own locals */
		if (!e->func || e->func->overloads.n)
			return 1;       /* overloads: see overload_chain */
		if (e->func->embedded_c) {
			if (!strstr(e->func->embedded_c, "/* pure */"))
				return 1;
		} else if (!function_pure(e->func))
			return 1;
		break;
	case E_PRINT:
		if (e->name[0] != 's')
			return 1;
		break;
	default:
		break;
	}
	if (effects(e->a, local_writes) || effects(e->b, local_writes) ||
	    effects(e->c, local_writes))
		return 1;
	for (i = 0; i < e->args.n; i++)
		if (effects(e->args.items[i], local_writes))
			return 1;
	for (i = 0; i < e->components.n; i++) {
		const struct target_component *c = e->components.items[i];
		if (effects(c->index, local_writes))
			return 1;
	}
	return 0;
}

int expr_has_side_effects(const struct expr *e)
{
	return effects(e, 0);
}

/* stmt_pure - @st changes nothing but locals and leaves the probe only
 * by returning (no next, no delete, no output) */
static int stmt_pure(const struct stmt *st)
{
	int i;
	if (!st)
		return 1;
	switch (st->kind) {
	case S_NEXT:
	case S_DELETE:
		return 0;
	case S_FOREACH:
		if (effects(st->limit, 1))
			return 0;
		for (int i = 0; i < st->slice.n; i++)
			if (effects(st->slice.items[i], 1))
				return 0;
		break;
	default:
		break;
	}
	for (i = 0; i < st->stmts.n; i++)
		if (!stmt_pure(st->stmts.items[i]))
			return 0;
	return !effects(st->e, 1) && !effects(st->init, 1) &&
	       !effects(st->step, 1) && stmt_pure(st->body) &&
	       stmt_pure(st->els);
}

static int function_pure(struct functiondecl *fn)
{
	if (fn->purity == 0) {
		fn->purity = 3;           /* recursion: assume not */
		fn->purity = stmt_pure(fn->body) ? 1 : 2;
	}
	return fn->purity == 1;
}

/* ---- dead stores: alias variables nothing reads ---- */

static void mark_reads(struct expr *e, int lhs);

static void mark_reads_stmt(struct stmt *st)
{
	int i;
	if (!st)
		return;
	for (i = 0; i < st->stmts.n; i++)
		mark_reads_stmt(st->stmts.items[i]);
	mark_reads(st->e, 0);
	mark_reads(st->init, 0);
	mark_reads(st->step, 0);
	mark_reads(st->limit, 0);
	mark_reads(st->array, 0);
	for (i = 0; i < st->slice.n; i++)
		mark_reads(st->slice.items[i], 0);
	mark_reads_stmt(st->body);
	mark_reads_stmt(st->els);
}

/* mark_reads - set ->read of the locals @e reads (@lhs: @e is the target
 * of a plain assignment, which is no read) */
static void mark_reads(struct expr *e, int lhs)
{
	int i;
	if (!e)
		return;
	if (e->kind == E_SYM && e->sym && e->sym->kind == SYM_LOCAL && !lhs)
		e->sym->read = 1;
	if (e->kind == E_ASSIGN && e->op == OP_NONE && e->a &&
	    e->a->kind == E_SYM)
		mark_reads(e->a, 1);
	else
		mark_reads(e->a, 0);
	mark_reads(e->b, 0);
	mark_reads(e->c, 0);
	for (i = 0; i < e->args.n; i++)
		mark_reads(e->args.items[i], 0);
	for (i = 0; i < e->components.n; i++) {
		struct target_component *c = e->components.items[i];
		mark_reads(c->index, 0);
	}
}

static int empty_stmt(const struct stmt *st)
{
	int i;
	if (!st || st->kind == S_NULL)
		return 1;
	if (st->kind != S_BLOCK)
		return 0;
	for (i = 0; i < st->stmts.n; i++)
		if (!empty_stmt(st->stmts.items[i]))
			return 0;
	return 1;
}

/* dead_store - @e, in a tapset or in a probe expanded from an alias,
 * assigns a local of probe @p that is never read a value computed
 * without side effects. */
static int dead_store(struct session *s, const struct probe *p,
		      const struct expr *e)
{
	const struct sym *y;
	if (!e || e->kind != E_ASSIGN || e->op != OP_NONE || !e->a ||
	    e->a->kind != E_SYM || !(y = e->a->sym) ||
	    (in_user_file(s, &e->loc) && !p->alias_chain))
		return 0;
	return y->kind == SYM_LOCAL && !y->read && !expr_has_side_effects(e->b);
}

static void elide_stmt(struct session *s, struct stmt *st)
{
	int i;
	if (!st)
		return;
	if (st->kind == S_EXPR && in_user_file(s, &st->loc) &&
	    !expr_has_side_effects(st->e)) {
		diag_warning(&st->loc, "%sstatement without side effects",
			     s->unoptimized ? "" : "eliding ");
		if (!s->unoptimized) {
			st->kind = S_NULL;
			st->e = NULL;
		}
		return;
	}
	for (i = 0; i < st->stmts.n; i++)
		elide_stmt(s, st->stmts.items[i]);
	elide_stmt(s, st->body);
	elide_stmt(s, st->els);
}

/* elide_dead - drop dead stores of @st (and ifs left empty by that whose
 * condition has no effect); returns how many were dropped */
static int elide_dead(struct session *s, const struct probe *p,
		      struct stmt *st)
{
	int i, n = 0;
	if (!st)
		return 0;
	if (st->kind == S_EXPR && dead_store(s, p, st->e)) {
		st->kind = S_NULL;
		st->e = NULL;
		return 1;
	}
	for (i = 0; i < st->stmts.n; i++)
		n += elide_dead(s, p, st->stmts.items[i]);
	n += elide_dead(s, p, st->body);
	n += elide_dead(s, p, st->els);
	if (st->kind == S_IF && !in_user_file(s, &st->loc) &&
	    empty_stmt(st->body) && empty_stmt(st->els) &&
	    !expr_has_side_effects(st->e)) {
		st->kind = S_NULL;
		st->e = NULL;
		n++;
	}
	return n;
}

/* elide_dead_stores - a tapset alias sets variables (name, argstr, ...)
 * the script may never read: skip that work on every hit.  Repeated
 * until nothing changes, since dropping one store can leave the values
 * it read unread in turn. */
static void elide_dead_stores(struct session *s, struct probe *p)
{
	int i;
	do {
		for (i = 0; i < p->locals.n; i++)
			((struct sym *)p->locals.items[i])->read = 0;
		mark_reads_stmt(p->body);
	} while (elide_dead(s, p, p->body));
}

/* call_one - push the function @e calls when it is not marked yet */
static void call_one(void *arg, struct expr *e, int *skip)
{
	struct vec callees = {0};
	int i;
	if (e->kind != E_CALL || !e->func)
		return;
	push_callees(&callees, e);
	for (i = 0; i < callees.n; i++) {
		struct functiondecl *fn = callees.items[i];
		if (fn->purity != 4) {
			fn->purity = 4;     /* marked: restored below */
			vec_push(arg, fn);
		}
	}
	free(callees.items);
}

/* drop_uncalled - functions only the elided stores called are not
 * generated (the user's own are kept: they were warned about above) */
static void drop_uncalled(struct session *s)
{
	struct vec work = {0};
	int i, n, *saved = xcalloc(s->functions.n + 1, sizeof(int));
	for (i = 0; i < s->functions.n; i++)
		saved[i] = ((struct functiondecl *)s->functions.items[i])->purity;
	for (i = 0; i < s->probes.n; i++)
		ast_walk_stmt(((struct probe *)s->probes.items[i])->body,
			      call_one, &work);
	for (i = 0; i < work.n; i++) {
		struct functiondecl *fn = work.items[i];
		ast_walk_stmt(fn->body, call_one, &work);
	}
	for (i = n = 0; i < s->functions.n; i++) {
		struct functiondecl *fn = s->functions.items[i];
		int called = fn->purity == 4;
		fn->purity = saved[i];
		if (called || in_user_file(s, &fn->loc))
			s->functions.items[n++] = fn;
	}
	s->functions.n = n;
	free(work.items);
	free(saved);
}

void warn_and_elide(struct session *s)
{
	int i;
	for (i = 0; i < s->globals.n; i++) {
		struct sym *g = s->globals.items[i];
		if (g->read && !g->written && !g->init &&
		    in_user_file(s, &g->loc))
			diag_warning(&g->loc, "global '%s' is read but never "
				     "assigned", g->name);
	}
	for (i = 0; i < s->probes.n; i++) {
		elide_stmt(s, ((struct probe *)s->probes.items[i])->body);
		if (!s->unoptimized)
			elide_dead_stores(s, s->probes.items[i]);
	}
	if (!s->unoptimized)
		drop_uncalled(s);
	for (i = 0; i < s->functions.n; i++)
		elide_stmt(s, ((struct functiondecl *)s->functions.items[i])->body);
}
