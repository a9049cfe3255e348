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

static int function_pure(struct functiondecl *fn, int errs);

/* effects - does @e change anything but the locals and parameters of the
 * body it is in (when @local_writes) or anything at all?  With @errs, a
 * possible run-time error (a division by zero, a fault or STAP_ERROR of
 * embedded C) counts as one: a statement of the user's script, where
 * `try { x = kernel_long(0) } catch` must catch and `y = 10 / x` must
 * stop the run (errors_count); not of a tapset, whose aliases' unused
 * variables are elided with their reads, as SystemTap does. */
static int effects(const struct expr *e, int local_writes, int errs)
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
	case E_STATOP:
	case E_HIST:
		/* the run-time error "empty aggregate" (all but @count and
		 * @sum) is an effect: `x = @max(s)` stops the probe */
		if (e->kind == E_HIST || (strcmp(e->name, "count") &&
					  strcmp(e->name, "sum")))
			return 1;
		break;
	case E_BINARY:
		/* a division's run-time error "division by zero" is an
		 * effect, as the statistics' "empty aggregate" above */
		if (errs && (e->op == OP_DIV || e->op == OP_MOD) &&
		    !(e->b && e->b->kind == E_NUM && e->b->num != 0))
			return 1;
		break;
	case E_CALL:
		/* embedded C only when marked pure and unable to end the
		 * probe with an error (a fault reported at STAP_LOC, an
		 * STAP_ERROR): try { x = kernel_long(0) } catch must catch;
		 * script functions when they touch nothing but their own
		 * locals */
		if (!e->func || e->func->overloads.n)
			return 1;       /* overloads: see overload_chain */
		if (e->func->embedded_c) {
			if (!strstr(e->func->embedded_c, "/* pure */") ||
			    (errs &&
			     (strstr(e->func->embedded_c, "STAP_LOC") ||
			      strstr(e->func->embedded_c, "STAP_ERROR"))))
				return 1;
		} else if (!function_pure(e->func, errs))
			return 1;
		break;
	case E_PRINT:
		if (e->name[0] != 's')
			return 1;
		break;
	default:
		break;
	}
	if (effects(e->a, local_writes, errs) ||
	    effects(e->b, local_writes, errs) ||
	    effects(e->c, local_writes, errs))
		return 1;
	for (i = 0; i < e->args.n; i++)
		if (effects(e->args.items[i], local_writes, errs))
			return 1;
	for (i = 0; i < e->components.n; i++) {
		const struct target_component *c = e->components.items[i];
		if (effects(c->index, local_writes, errs))
			return 1;
	}
	return 0;
}

/* errors_count - whether run-time errors are effects in the statement
 * at @l (effects' @errs): in the user's script */
static int errors_count(const struct session *s, const struct source_loc *l)
{
	return in_user_file(s, l);
}

int expr_has_side_effects(const struct session *s, const struct stmt *st,
			  const struct expr *e)
{
	return effects(e, 0, errors_count(s, &st->loc));
}

/* stmt_pure - @st changes nothing but locals and leaves the probe only
 * by returning (no next, no delete, no output); @errs as effects' */
static int stmt_pure(const struct stmt *st, int errs)
{
	int i;
	if (!st)
		return 1;
	switch (st->kind) {
	case S_NEXT:
	case S_DELETE:
		return 0;
	case S_FOREACH:
		if (effects(st->limit, 1, errs))
			return 0;
		for (int i = 0; i < st->slice.n; i++)
			if (effects(st->slice.items[i], 1, errs))
				return 0;
		break;
	default:
		break;
	}
	for (i = 0; i < st->stmts.n; i++)
		if (!stmt_pure(st->stmts.items[i], errs))
			return 0;
	return !effects(st->e, 1, errs) && !effects(st->init, 1, errs) &&
	       !effects(st->step, 1, errs) && stmt_pure(st->body, errs) &&
	       stmt_pure(st->els, errs);
}

/* function_pure - a call of @fn changes nothing outside it (@errs as
 * effects': its errors count as the caller's statement's would) */
static int function_pure(struct functiondecl *fn, int errs)
{
	int *p = &fn->purity[!!errs];
	if (*p == 0) {
		*p = 3;                   /* recursion: assume not */
		*p = stmt_pure(fn->body, errs) ? 1 : 2;
	}
	return *p == 1;
}

/* ---- dead code, before type inference ----
 * As SystemTap does unless -u: an assignment to a local variable that
 * nothing reads is replaced by the value assigned (a tapset alias sets
 * name, argstr, ... which the script may never read), a statement
 * without side effects is dropped (with a warning in the user's script),
 * until nothing changes; then the locals, functions and globals left
 * unused are dropped too.  What is dropped is neither typed nor resolved
 * against the kernel: `x = $gone` with x never read is no error. */

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
 * of a plain assignment or of <<<, which is no read) */
static void mark_reads(struct expr *e, int lhs)
{
	int i;
	if (!e)
		return;
	if (e->kind == E_SYM && e->sym && e->sym->kind == SYM_LOCAL && !lhs)
		e->sym->read = 1;
	if (((e->kind == E_ASSIGN && e->op == OP_NONE) ||
	     e->kind == E_STATS_ADD) && e->a && e->a->kind == E_SYM)
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

/* dead_store - @e assigns (=, <<<) a local that nothing reads */
static int dead_store(const struct expr *e)
{
	const struct sym *y;
	if (!e || !((e->kind == E_ASSIGN && e->op == OP_NONE) ||
		    e->kind == E_STATS_ADD) ||
	    !e->a || e->a->kind != E_SYM || !(y = e->a->sym))
		return 0;
	return y->kind == SYM_LOCAL && !y->read;
}

/* elide_dead - drop the dead stores and statements without side effects
 * of @st (and ifs left empty whose condition has none); returns how many */
static int elide_dead(struct session *s, struct stmt *st)
{
	int i, n = 0;
	if (!st)
		return 0;
	if (st->kind == S_EXPR && dead_store(st->e)) {
		if (expr_has_side_effects(s, st, st->e->b)) {
			st->e = st->e->b;
		} else {
			st->kind = S_NULL;
			st->e = NULL;
		}
		return 1;
	}
	if (st->kind == S_EXPR && !expr_has_side_effects(s, st, st->e)) {
		if (in_user_file(s, &st->loc))
			diag_warning(&st->loc, "eliding statement without "
				     "side effects");
		st->kind = S_NULL;
		st->e = NULL;
		return 1;
	}
	for (i = 0; i < st->stmts.n; i++)
		n += elide_dead(s, st->stmts.items[i]);
	n += elide_dead(s, st->body);
	n += elide_dead(s, st->els);
	if (st->kind == S_IF && empty_stmt(st->body) && empty_stmt(st->els) &&
	    !expr_has_side_effects(s, st, st->e)) {
		st->kind = S_NULL;
		st->e = NULL;
		n++;
	}
	return n;
}

/* elide_body - elide_dead on @body until nothing changes, since dropping
 * one store can leave the values it read unread in turn */
static void elide_body(struct session *s, struct stmt *body,
		       struct vec *locals)
{
	int i;
	do {
		for (i = 0; i < locals->n; i++)
			((struct sym *)locals->items[i])->read = 0;
		mark_reads_stmt(body);
	} while (elide_dead(s, body));
}

/* mark_local - ast walker: set ->live of each local @e names */
static void mark_local(void *arg, struct expr *e, int *skip)
{
	(void)arg;
	(void)skip;
	if (e->kind == E_SYM && e->sym && e->sym->kind == SYM_LOCAL)
		e->sym->live = 1;
}

static void mark_foreach_locals(struct stmt *st)
{
	int i;
	if (!st)
		return;
	for (i = 0; i < st->stmts.n; i++)
		mark_foreach_locals(st->stmts.items[i]);
	for (i = 0; i < st->keys.n; i++)
		mark_local(NULL, st->keys.items[i], NULL);
	if (st->value)
		mark_local(NULL, st->value, NULL);
	if (st->catch_sym)
		st->catch_sym->live = 1;
	mark_foreach_locals(st->body);
	mark_foreach_locals(st->els);
}

/* drop_unused_locals - the locals of @body no expression names any more */
static void drop_unused_locals(struct stmt *body, struct vec *locals)
{
	int i, n;
	for (i = 0; i < locals->n; i++)
		((struct sym *)locals->items[i])->live = 0;
	ast_walk_stmt(body, mark_local, NULL);
	mark_foreach_locals(body);
	for (i = n = 0; i < locals->n; i++) {
		struct sym *y = locals->items[i];
		if (y->live) {
			y->index = n;
			locals->items[n++] = y;
		}
	}
	locals->n = n;
}

/* call_one - push the function @e calls when it is not reachable yet
 * (marking it so) */
static void call_one(void *arg, struct expr *e, int *skip)
{
	struct vec callees = {0};
	int i;
	(void)skip;
	if (e->kind != E_CALL || !e->func)
		return;
	push_callees(&callees, e);
	for (i = 0; i < callees.n; i++) {
		struct functiondecl *fn = callees.items[i];
		if (!fn->reachable) {
			fn->reachable = 1;
			vec_push(arg, fn);
		}
	}
	free(callees.items);
}

/* drop_uncalled - functions only the elided code called (a warning for
 * the user's own) */
static void drop_uncalled(struct session *s)
{
	struct vec work = {0};
	int i, n;
	for (i = 0; i < s->functions.n; i++)   /* anew, from the kept code */
		((struct functiondecl *)s->functions.items[i])->reachable = 0;
	for (i = 0; i < s->probes.n; i++)
		ast_walk_stmt(((struct probe *)s->probes.items[i])->body,
			      call_one, &work);
	for (i = 0; i < work.n; i++) {
		struct functiondecl *fn = work.items[i];
		ast_walk_stmt(fn->body, call_one, &work);
	}
	for (i = n = 0; i < s->functions.n; i++) {
		struct functiondecl *fn = s->functions.items[i];
		if (fn->reachable)
			s->functions.items[n++] = fn;
		else if (in_user_file(s, &fn->loc))
			diag_warning(&fn->loc, "eliding unused function '%s'",
				     fn->name);
	}
	s->functions.n = n;
	free(work.items);
}

/* drop_dead_globals - the globals no kept code uses any more */
static void drop_dead_globals(struct session *s)
{
	int i, n;
	for (i = 0; i < s->globals.n; i++)
		((struct sym *)s->globals.items[i])->live = 0;
	for (i = 0; i < s->probes.n; i++)
		mark_stmt(((struct probe *)s->probes.items[i])->body);
	for (i = 0; i < s->functions.n; i++)
		mark_stmt(((struct functiondecl *)s->functions.items[i])->body);
	for (i = n = 0; i < s->globals.n; i++) {
		struct sym *g = s->globals.items[i];
		if (!g->live) {
			if (in_user_file(s, &g->loc))
				diag_warning(&g->loc, "eliding unused global "
					     "'%s'", g->name);
			continue;
		}
		g->index = n;
		s->globals.items[n++] = g;
	}
	s->globals.n = n;
}

void elide_dead_code(struct session *s)
{
	int i;
	if (s->unoptimized)
		return;
	for (i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		elide_body(s, p->body, &p->locals);
		drop_unused_locals(p->body, &p->locals);
	}
	for (i = 0; i < s->functions.n; i++) {
		struct functiondecl *fn = s->functions.items[i];
		if (fn->embedded_c)
			continue;
		elide_body(s, fn->body, &fn->locals);
		drop_unused_locals(fn->body, &fn->locals);
	}
	drop_uncalled(s);
	drop_dead_globals(s);
}

/* warn_statements - with -u: the user's statements without side effects,
 * kept */
static void warn_statements(struct session *s, struct stmt *st)
{
	int i;
	if (!st)
		return;
	if (st->kind == S_EXPR && in_user_file(s, &st->loc) &&
	    !expr_has_side_effects(s, st, st->e)) {
		diag_warning(&st->loc, "statement without side effects");
		return;
	}
	for (i = 0; i < st->stmts.n; i++)
		warn_statements(s, st->stmts.items[i]);
	warn_statements(s, st->body);
	warn_statements(s, st->els);
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
	if (!s->unoptimized)
		return;   /* elided before type inference: elide_dead_code */
	for (i = 0; i < s->probes.n; i++)
		warn_statements(s, ((struct probe *)s->probes.items[i])->body);
	for (i = 0; i < s->functions.n; i++)
		warn_statements(s, ((struct functiondecl *)
				    s->functions.items[i])->body);
}
