/* pcpu.c - scalar globals kept per CPU.
 *
 * A counter such as `n++` or `bytes += $count` in a probe that fires on
 * every CPU would otherwise take the global's write lock on every hit:
 * CPUs contend for one cache line, and a hit that cannot get the lock in
 * time is skipped, so the count comes out short under load.  A scalar
 * long global qualifies for per-CPU storage when
 *   - every write to it anywhere is a statement of its own of the form
 *     G++, ++G, G--, --G, G += E or G -= E (so the value of the update is
 *     never used), and
 *   - no probe both updates and reads it (through its callees too): a
 *     probe that reads what it adds keeps the lock, and so SystemTap's
 *     meaning of what it sees.
 * Its storage is then the plain global (its initial value, and -G's
 * module parameter) plus one per-CPU delta updated with this_cpu_add(),
 * lock-free; a read is the global plus the sum of the deltas
 * (STP_PCPU_READ, runtime/stp_runtime.h), taken without a lock: each
 * delta is read whole, so a reader sees every update completed before it
 * started and none twice.
 */
#include "codegen_int.h"

#include <stdlib.h>
#include <string.h>

/* update_of - if statement @st is a per-CPU-able update of a scalar long
 * global, that global (its operand into *@operand, NULL for ++/--, and
 * *@negate for -- and -=); else NULL. */
static struct sym *update_of(const struct stmt *st, struct expr **operand,
			     int *negate)
{
	const struct expr *e = st ? st->e : NULL;
	struct sym *y;
	if (!st || st->kind != S_EXPR || !e || !e->a || e->a->kind != E_SYM)
		return NULL;
	y = e->a->sym;
	if (!y || y->kind != SYM_GLOBAL || y->arity || y->type != TYPE_LONG)
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

static int scalar_global(const struct expr *e)
{
	return e && e->kind == E_SYM && e->sym && e->sym->kind == SYM_GLOBAL;
}

static void pc_expr(void *arg, struct expr *e, int *skip)
{
	struct pc_use *u = arg;
	if ((e->kind == E_ASSIGN || e->kind == E_INCDEC) && scalar_global(e->a))
		u->other[e->a->sym->index] = 1;
	if (scalar_global(e))
		u->read[e->sym->index] = 1;
	if (e->kind == E_CALL && e->func)
		vec_push(u->callees, e->func);
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
		ast_walk_expr(operand, pc_expr, u);
		return;
	}
	if (st->kind == S_DELETE && scalar_global(st->e))
		u->other[st->e->sym->index] = 1;
	for (i = 0; i < st->keys.n; i++)
		if (scalar_global(st->keys.items[i]))
			u->other[((struct expr *)st->keys.items[i])->sym->index] = 1;
	if (scalar_global(st->value))
		u->other[st->value->sym->index] = 1;
	if (st->catch_sym && st->catch_sym->kind == SYM_GLOBAL)
		u->other[st->catch_sym->index] = 1;
	for (i = 0; i < st->stmts.n; i++)
		pc_stmt(u, st->stmts.items[i]);
	ast_walk_expr(st->e, pc_expr, u);
	ast_walk_expr(st->init, pc_expr, u);
	ast_walk_expr(st->step, pc_expr, u);
	ast_walk_expr(st->array, pc_expr, u);
	ast_walk_expr(st->limit, pc_expr, u);
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
		y->pcpu = added[k] && !bad[k] && !y->arity &&
			  y->type == TYPE_LONG;
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
	v = operand ? gen_expr(g, operand) : xstrdup("1");
	emit(g, "this_cpu_add(g_%s_pcpu, (s64)(%s(u64)(%s)));", y->name,
	     negate ? "0ULL - " : "", v);
	free(v);
	return 1;
}
