/* warnings.c - pass 2 warnings (never-assigned and never-read variables,
 * unused code) and the elision of unused functions, globals and
 * statements without side effects (stap -u keeps them; -w silences the
 * warnings, see util.c). */
#include "warnings.h"
#include "aliases.h"

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

int expr_has_side_effects(const struct expr *e)
{
	int i;
	if (!e)
		return 0;
	switch (e->kind) {
	case E_ASSIGN:
	case E_INCDEC:
	case E_STATS_ADD:
		return 1;
	case E_CALL:
		/* only embedded-C functions marked pure have none */
		if (!e->func || !e->func->embedded_c ||
		    !strstr(e->func->embedded_c, "/* pure */"))
			return 1;
		break;
	case E_PRINT:
		if (e->name[0] != 's')
			return 1;
		break;
	default:
		break;
	}
	if (expr_has_side_effects(e->a) || expr_has_side_effects(e->b) ||
	    expr_has_side_effects(e->c))
		return 1;
	for (i = 0; i < e->args.n; i++)
		if (expr_has_side_effects(e->args.items[i]))
			return 1;
	for (i = 0; i < e->components.n; i++) {
		const struct target_component *c = e->components.items[i];
		if (expr_has_side_effects(c->index))
			return 1;
	}
	return 0;
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
	for (i = 0; i < s->probes.n; i++)
		elide_stmt(s, ((struct probe *)s->probes.items[i])->body);
	for (i = 0; i < s->functions.n; i++)
		elide_stmt(s, ((struct functiondecl *)s->functions.items[i])->body);
}
