/* pcpu.c - counters kept per CPU.
 *
 * A counter such as `n++`, `bytes += $count` or `calls[execname()]++` in a
 * probe that fires on every CPU would otherwise take the global's write
 * lock on every hit: CPUs contend for one cache line, and a hit that
 * cannot get the lock in time is skipped, so the count comes out short
 * under load.  A long global (scalar, or array without a size or %)
 * qualifies for per-CPU storage when
 *   - every write to it anywhere is a statement of its own of the form
 *     G++, ++G, G--, --G, G += E or G -= E (A[K] for arrays; so the value
 *     of the update is never used), or for an array a delete, and
 *   - no probe both updates it and reads (or deletes) it, through its
 *     callees too: a probe that reads what it adds keeps the lock, and so
 *     SystemTap's meaning of what it sees.
 * A scalar is then the plain global (its initial value, and -G's module
 * parameter) plus one per-CPU delta updated with this_cpu_add(),
 * lock-free; a read is the global plus the sum of the deltas
 * (STP_PCPU_READ, runtime/stp_runtime.h), without a lock: each delta is
 * read whole, so a reader sees every update completed before it started
 * and none twice.  An array gets one table per CPU, as statistics have
 * (stp_map_add under the lock taken shared); reading it merges the
 * tables under the lock taken exclusive.
 */
#include "codegen_int.h"

#include <stdlib.h>
#include <string.h>

/* update_of - if statement @st is a per-CPU-able update of a long
 * global, that global (its operand into *@operand, NULL for ++/--, and
 * *@negate for -- and -=); else NULL. */
static struct sym *update_of(const struct stmt *st, struct expr **operand,
			     int *negate)
{
	const struct expr *e = st ? st->e : NULL;
	struct sym *y;
	if (!st || st->kind != S_EXPR || !e || !e->a ||
	    (e->a->kind != E_SYM && e->a->kind != E_INDEX))
		return NULL;
	y = e->a->sym;
	if (!y || y->kind != SYM_GLOBAL || y->type != TYPE_LONG ||
	    (e->a->kind == E_INDEX) != (y->arity > 0) ||
	    (y->arity && (y->maxsize > 0 || y->wrap)))
		return NULL;
	if (e->kind == E_INCDEC) {
		*operand = NULL;
		*negate = e->op == OP_PREDEC || e->op == OP_POSTDEC;
		return y;
	}
	if (e->kind == E_ASSIGN && (e->op == OP_ADD || e->op == OP_SUB)) {
		*operand = e->b;
		*negate = e->op == OP_SUB;
		return y;
	}
	return NULL;
}

/* What one body (with its callees) does with the globals. */
struct pc_use {
	char *read, *add, *other;    /* one flag per global index */
	struct vec *callees;
};

struct sym *pcpu_update(const struct stmt *st)
{
	struct expr *operand;
	int negate;
	return update_of(st, &operand, &negate);
}

/* global_of - the global @e names (E_SYM, A[K], [K] in A), or NULL */
static struct sym *global_of(const struct expr *e)
{
	if (!e || (e->kind != E_SYM && e->kind != E_INDEX && e->kind != E_IN) ||
	    !e->sym || e->sym->kind != SYM_GLOBAL)
		return NULL;
	return e->sym;
}

static void pc_expr(void *arg, struct expr *e, int *skip)
{
	struct pc_use *u = arg;
	struct sym *y;
	if ((e->kind == E_ASSIGN || e->kind == E_INCDEC) && (y = global_of(e->a)))
		u->other[y->index] = 1;
	if ((y = global_of(e)))
		u->read[y->index] = 1;
	if (e->kind == E_CALL && e->func)
		push_callees(u->callees, e);
}

static void pc_args(struct pc_use *u, struct vec *args)
{
	int i;
	for (i = 0; i < args->n; i++)
		ast_walk_expr(args->items[i], pc_expr, u);
}

static void pc_stmt(struct pc_use *u, struct stmt *st)
{
	struct expr *operand;
	struct sym *y;
	int i, negate;
	if (!st)
		return;
	if ((y = update_of(st, &operand, &negate))) {
		u->add[y->index] = 1;
		pc_args(u, &st->e->a->args);
		ast_walk_expr(operand, pc_expr, u);
		return;
	}
	/* deleting an array's elements is allowed (a reader's access);
	 * deleting a scalar is a write */
	if (st->kind == S_DELETE && (y = global_of(st->e)) && !y->arity)
		u->other[y->index] = 1;
	for (i = 0; i < st->keys.n; i++)
		if ((y = global_of(st->keys.items[i])))
			u->other[y->index] = 1;
	if ((y = global_of(st->value)))
		u->other[y->index] = 1;
	if (st->catch_sym && st->catch_sym->kind == SYM_GLOBAL)
		u->other[st->catch_sym->index] = 1;
	for (i = 0; i < st->stmts.n; i++)
		pc_stmt(u, st->stmts.items[i]);
	ast_walk_expr(st->e, pc_expr, u);
	ast_walk_expr(st->init, pc_expr, u);
	ast_walk_expr(st->step, pc_expr, u);
	ast_walk_expr(st->array, pc_expr, u);
	ast_walk_expr(st->limit, pc_expr, u);
	for (i = 0; i < st->slice.n; i++)
		ast_walk_expr(st->slice.items[i], pc_expr, u);
	pc_stmt(u, st->body);
	pc_stmt(u, st->els);
}

/* pc_body - @u for @body and, transitively, the functions it calls */
static void pc_body(struct pc_use *u, struct stmt *body)
{
	struct vec work = {0};
	int i, j;
	u->callees = &work;
	pc_stmt(u, body);
	for (i = 0; i < work.n; i++) {
		struct functiondecl *fn = work.items[i];
		for (j = 0; j < i && work.items[j] != fn; j++)
			;
		if (j == i)
			pc_stmt(u, fn->body);
	}
	free(work.items);
}

void pcpu_classify(struct session *s)
{
	int n = s->globals.n + 1, i, k;
	char *bad = xcalloc(n, 1), *added = xcalloc(n, 1);
	for (i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		struct pc_use u = { xcalloc(n, 1), xcalloc(n, 1), xcalloc(n, 1),
				    NULL };
		pc_body(&u, p->body);
		for (k = 0; k < s->globals.n; k++) {
			bad[k] |= u.other[k] || (u.add[k] && u.read[k]);
			added[k] |= u.add[k];
		}
		free(u.read);
		free(u.add);
		free(u.other);
	}
	for (k = 0; k < s->globals.n; k++) {
		struct sym *y = s->globals.items[k];
		y->pcpu = added[k] && !bad[k] && y->type == TYPE_LONG &&
			  (!y->arity || (!y->maxsize && !y->wrap));
	}
	free(bad);
	free(added);
}

int pcpu_gen_update(struct gen *g, struct stmt *st)
{
	struct expr *operand;
	struct sym *y;
	char *v;
	int negate;
	if (!(y = update_of(st, &operand, &negate)) || !y->pcpu)
		return 0;
	if (y->arity) {
		char *k = gen_map_keys(g, y, &st->e->a->args);
		char *l = loc_literal(&st->e->loc);
		v = operand ? gen_expr(g, operand) : xstrdup("1");
		emit(g, "stp_map_add(c, &g_%s, %s, (s64)(%s(u64)(%s)), %s);",
		     y->name, k, negate ? "0ULL - " : "", v, l);
		check_error(g);
		free(k);
		free(l);
		free(v);
		return 1;
	}
	v = operand ? gen_expr(g, operand) : xstrdup("1");
	emit(g, "this_cpu_add(g_%s_pcpu, (s64)(%s(u64)(%s)));", y->name,
	     negate ? "0ULL - " : "", v);
	free(v);
	return 1;
}
