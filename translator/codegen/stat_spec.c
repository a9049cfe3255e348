/* stat_spec.c - pass 3: what a statistic keeps besides its moments, read
 * from its uses: the histogram its @hist_log/@hist_linear ask for (one
 * kind per statistic) and the bit shift of its @variance(s, SHIFT) (one).
 * Globals put them in their struct stp_map; statistics in local variables
 * (a probe's or function's own, fresh at each hit or call) keep them in
 * the table built by lstat_plan, which sizes their frame field.
 */
#include "codegen_int.h"

#include <stdlib.h>
#include <string.h>

/* A visitor of every expression of the script's bodies that reads
 * statistic @y. */
struct stat_use {
	struct sym *y;
	void (*visit)(struct stat_use *u, struct expr *e);
	struct expr *hist;           /* the first @hist_* of y */
	int64_t shift;               /* @variance(y, SHIFT): -1 until seen */
	int bad;                     /* a conflict was reported */
};

/* use_one - visit @e when it reads statistic u->y */
static void use_one(void *arg, struct expr *e, int *skip)
{
	struct stat_use *u = arg;
	(void)skip;
	if ((e->kind == E_HIST || e->kind == E_STATOP) && e->a &&
	    e->a->sym == u->y)
		u->visit(u, e);
}

/* stat_uses - run @u over every probe and function body. */
static void stat_uses(struct session *s, struct stat_use *u)
{
	int i;
	for (i = 0; i < s->probes.n; i++)
		ast_walk_stmt(((struct probe *)s->probes.items[i])->body,
			      use_one, u);
	for (i = 0; i < s->functions.n; i++)
		ast_walk_stmt(((struct functiondecl *)
			       s->functions.items[i])->body, use_one, u);
}

/* hist_visit - the histogram kind a statistic is read with (one). */
static void hist_visit(struct stat_use *u, struct expr *e)
{
	if (e->kind != E_HIST)
		return;
	if (!u->hist) {
		u->hist = e;
	} else if (strcmp(u->hist->name, e->name) != 0) {
		diag_error(&e->loc, "statistic '%s' is read with both "
			   "@%s and @%s: one histogram kind per "
			   "statistic is supported", u->y->name,
			   u->hist->name, e->name);
		u->bad = 1;
	}
}

/* shift_visit - the bit shift of @variance(y, SHIFT) (one). */
static void shift_visit(struct stat_use *u, struct expr *e)
{
	int64_t n;
	if (e->kind != E_STATOP || e->args.n != 1 ||
	    strcmp(e->name, "variance") != 0)
		return;
	n = ((struct expr *)e->args.items[0])->num;
	if (u->shift >= 0 && u->shift != n) {
		diag_error(&e->loc, "statistic '%s' is read with @variance "
			   "bit shifts %lld and %lld: one shift per "
			   "statistic is supported", u->y->name,
			   (long long)u->shift, (long long)n);
		u->bad = 1;
	}
	u->shift = n;
}

/* linear_spec - @hist_linear @h's start, stop and interval into @sp. */
static int linear_spec(struct expr *h, struct stat_spec *sp)
{
	int i;
	if (h->args.n != 3) {
		diag_error(&h->loc, "@hist_linear takes a statistic, start, stop "
			   "and interval");
		return -1;
	}
	for (i = 0; i < 3; i++)
		if (((struct expr *)h->args.items[i])->kind != E_NUM) {
			diag_error(&h->loc, "@hist_linear's start, stop and "
				   "interval must be number literals");
			return -1;
		}
	sp->start = ((struct expr *)h->args.items[0])->num;
	sp->stop = ((struct expr *)h->args.items[1])->num;
	sp->interval = ((struct expr *)h->args.items[2])->num;
	if (sp->interval <= 0 || sp->stop <= sp->start ||
	    (sp->stop - sp->start) / sp->interval > 1000) {
		diag_error(&h->loc, "bad @hist_linear range: start must be "
			   "below stop, interval positive, at most 1000 "
			   "buckets");
		return -1;
	}
	sp->hist = STAT_HIST_LINEAR;
	/* as runtime/map.c sizes it: under, the intervals, over */
	sp->buckets = (int)((sp->stop - sp->start) / sp->interval) + 3;
	return 0;
}

int stat_spec_of(struct session *s, struct sym *y, struct stat_spec *sp)
{
	struct stat_use h = { .y = y, .visit = hist_visit };
	struct stat_use v = { .y = y, .visit = shift_visit, .shift = -1 };
	memset(sp, 0, sizeof(*sp));
	stat_uses(s, &h);
	stat_uses(s, &v);
	if (v.shift > 0)
		sp->shift = (int)v.shift;
	if (h.hist && !strcmp(h.hist->name, "hist_log")) {
		sp->hist = STAT_HIST_LOG;
		sp->buckets = 128;   /* STP_HIST_LOG_BUCKETS */
	} else if (h.hist && linear_spec(h.hist, sp) < 0) {
		return -1;
	}
	return h.bad || v.bad ? -1 : 0;
}

char *stat_hist_c(const struct stat_spec *sp)
{
	if (sp->hist == STAT_HIST_LOG)
		return xasprintf("{ .type = STP_HIST_LOG, .buckets = %d }",
				 sp->buckets);
	if (sp->hist == STAT_HIST_LINEAR)
		return xasprintf("{ .type = STP_HIST_LINEAR, .start = %lldLL, "
				 ".stop = %lldLL, .interval = %lldLL, "
				 ".buckets = %d }", (long long)sp->start,
				 (long long)sp->stop, (long long)sp->interval,
				 sp->buckets);
	return xstrdup("{ .type = STP_HIST_NONE }");
}

/* ---- statistics in local variables ---- */

struct lstat {
	const struct sym *y;
	struct stat_spec spec;
};

static struct vec lstats;            /* struct lstat *, of this session */

static void lstat_reset(void)
{
	int i;
	for (i = 0; i < lstats.n; i++)
		free(lstats.items[i]);
	free(lstats.items);
	memset(&lstats, 0, sizeof(lstats));
}

/* lstat_add_locals - the specs of the statistics among locals @v. */
static int lstat_add_locals(struct session *s, struct vec *v)
{
	int j, rc = 0;
	for (j = 0; j < v->n; j++) {
		struct sym *y = v->items[j];
		struct lstat *l;
		if (y->type != TYPE_STATS)
			continue;
		l = xcalloc(1, sizeof(*l));
		l->y = y;
		if (stat_spec_of(s, y, &l->spec) < 0)
			rc = -1;
		vec_push(&lstats, l);
	}
	return rc;
}

int lstat_plan(struct session *s)
{
	int i, rc = 0;
	lstat_reset();
	for (i = 0; i < s->probes.n; i++)
		if (lstat_add_locals(s, &((struct probe *)
					  s->probes.items[i])->locals) < 0)
			rc = -1;
	for (i = 0; i < s->functions.n; i++)
		if (lstat_add_locals(s, &((struct functiondecl *)
					  s->functions.items[i])->locals) < 0)
			rc = -1;
	return rc;
}

const struct stat_spec *lstat_spec(const struct sym *y)
{
	static const struct stat_spec none;
	int i;
	for (i = 0; i < lstats.n; i++)
		if (((struct lstat *)lstats.items[i])->y == y)
			return &((struct lstat *)lstats.items[i])->spec;
	return &none;
}
