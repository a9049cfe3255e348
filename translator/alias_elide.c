/* alias_elide.c - drop the work a probe alias does for variables the
 * probe never reads.
 *
 * A tapset alias such as vfs.read computes a dozen variables (devname,
 * ino, argstr, ...) in its prologue; a script usually reads one or two.
 * After pass 2 has resolved and type-checked everything, the assignments
 * "local = expression" of an alias expansion whose local nothing reads,
 * and whose expression has no side effect (pure functions, target
 * variables, sprintf, arithmetic), are replaced by empty statements.
 * Dropping one may leave others unread (a helper local), so this repeats
 * until nothing changes.  Errors the dropped expressions could have
 * raised at run time (a faulting read) are gone with them, as in
 * SystemTap.  stap -u keeps everything. */
#include "alias_elide.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static int expr_pure(const struct expr *e, int depth);

/* stmt_pure - 1 if running @st (in a function body) changes no global,
 * prints nothing and leaves the probe's control flow alone */
static int stmt_pure(const struct stmt *st, int depth)
{
	int i;
	if (!st)
		return 1;
	switch (st->kind) {
	case S_NEXT:
	case S_DELETE:
		return 0;
	default:
		break;
	}
	for (i = 0; i < st->stmts.n; i++)
		if (!stmt_pure(st->stmts.items[i], depth))
			return 0;
	for (i = 0; i < st->keys.n; i++)
		if (!expr_pure(st->keys.items[i], depth))
			return 0;
	return expr_pure(st->e, depth) && expr_pure(st->init, depth) &&
	       expr_pure(st->step, depth) && expr_pure(st->value, depth) &&
	       expr_pure(st->array, depth) && expr_pure(st->limit, depth) &&
	       stmt_pure(st->body, depth) && stmt_pure(st->els, depth);
}

/* fn_pure - 1 if calling @fn has no side effect: embedded C marked
 * pure, or a script body that is (recursion deeper than 8 calls counts
 * as impure) */
static int fn_pure(const struct functiondecl *fn, int depth)
{
	if (!fn || depth > 8)
		return 0;
	if (fn->embedded_c)
		return strstr(fn->embedded_c, "/* pure */") != NULL;
	return stmt_pure(fn->body, depth + 1);
}

/* expr_pure - 1 if evaluating @e changes no global and prints nothing
 * (it may write locals of the function it is in) */
static int expr_pure(const struct expr *e, int depth)
{
	int i;
	if (!e)
		return 1;
	switch (e->kind) {
	case E_ASSIGN:
	case E_INCDEC:
		if (e->a->kind != E_SYM || !e->a->sym ||
		    e->a->sym->kind == SYM_GLOBAL)
			return 0;
		break;
	case E_STATS_ADD:
		return 0;
	case E_CALL:
		if (!fn_pure(e->func, depth))
			return 0;
		break;
	case E_PRINT:
		if (e->name[0] != 's')
			return 0;
		break;
	default:
		break;
	}
	if (!expr_pure(e->a, depth) || !expr_pure(e->b, depth) ||
	    !expr_pure(e->c, depth))
		return 0;
	for (i = 0; i < e->args.n; i++)
		if (!expr_pure(e->args.items[i], depth))
			return 0;
	for (i = 0; i < e->components.n; i++) {
		const struct target_component *c = e->components.items[i];
		if (!expr_pure(c->index, depth))
			return 0;
	}
	return 1;
}

/* is_store - 1 if @e is "local = expression" (a plain assignment) */
static int is_store(const struct expr *e)
{
	return e && e->kind == E_ASSIGN && e->op == OP_NONE &&
	       e->a->kind == E_SYM && e->a->sym &&
	       e->a->sym->kind == SYM_LOCAL;
}

/* count_expr / count_stmt - mark in @read (indexed like @locals) the
 * locals code reads; the target of a plain assignment is not a read */
static void count_expr(const struct expr *e, const struct vec *locals,
		       char *read)
{
	int i;
	if (!e)
		return;
	if (e->sym && e->sym->kind == SYM_LOCAL &&
	    (e->kind == E_SYM || e->kind == E_INDEX || e->kind == E_IN))
		for (i = 0; i < locals->n; i++)
			if (locals->items[i] == e->sym)
				read[i] = 1;
	if (is_store(e))
		count_expr(e->b, locals, read);
	else {
		count_expr(e->a, locals, read);
		count_expr(e->b, locals, read);
	}
	count_expr(e->c, locals, read);
	for (i = 0; i < e->args.n; i++)
		count_expr(e->args.items[i], locals, read);
	for (i = 0; i < e->components.n; i++)
		count_expr(((const struct target_component *)
			    e->components.items[i])->index, locals, read);
}

static void count_stmt(const struct stmt *st, const struct vec *locals,
		       char *read)
{
	int i;
	if (!st)
		return;
	for (i = 0; i < st->stmts.n; i++)
		count_stmt(st->stmts.items[i], locals, read);
	for (i = 0; i < st->keys.n; i++)
		count_expr(st->keys.items[i], locals, read);
	count_expr(st->e, locals, read);
	count_expr(st->init, locals, read);
	count_expr(st->step, locals, read);
	count_expr(st->value, locals, read);
	count_expr(st->array, locals, read);
	count_expr(st->limit, locals, read);
	count_stmt(st->body, locals, read);
	count_stmt(st->els, locals, read);
}

/* drop_stores - empty the statements of @st (and the blocks and branches
 * in it) that store a pure value into a local @read says nobody reads;
 * returns how many */
static int drop_stores(struct stmt *st, const struct vec *locals,
		       const char *read)
{
	int i, n = 0;
	if (!st)
		return 0;
	if (st->kind == S_EXPR && is_store(st->e)) {
		for (i = 0; i < locals->n; i++)
			if (locals->items[i] == st->e->a->sym)
				break;
		if (i < locals->n && !read[i] && expr_pure(st->e->b, 0)) {
			st->kind = S_NULL;
			st->e = NULL;
			return 1;
		}
		return 0;
	}
	if (st->kind == S_BLOCK || st->kind == S_IF)
		for (i = 0; i < st->stmts.n; i++)
			n += drop_stores(st->stmts.items[i], locals, read);
	if (st->kind == S_IF) {
		n += drop_stores(st->body, locals, read);
		n += drop_stores(st->els, locals, read);
	}
	return n;
}

void elide_alias_stores(struct session *s)
{
	int i;
	if (s->unoptimized)
		return;
	for (i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		char *read;
		if (!p->alias_chain || p->locals.n == 0)
			continue;
		read = xcalloc(p->locals.n, 1);
		do {
			memset(read, 0, p->locals.n);
			count_stmt(p->body, &p->locals, read);
		} while (drop_stores(p->body, &p->locals, read));
		free(read);
	}
}
