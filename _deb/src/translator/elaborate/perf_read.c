/* perf_read.c - @perf("NAME"): which counter each read names, and
 * which probes may read one (see perf_read.h). */
#include "perf_read.h"
#include "parse/parse.h"

#include <string.h>

struct perf_walk {
	struct session *s;
	uint32_t mask;              /* counters the body reads */
	struct expr *first;         /* its first @perf, for errors */
};

static struct derived_probe *find_counter(struct session *s, const char *n)
{
	int i;
	for (i = 0; i < s->derived.n; i++) {
		struct derived_probe *d = s->derived.items[i];
		if (d->kind == DP_PERF_PROC && d->symbol &&
		    !strcmp(d->symbol, n))
			return d;
	}
	return NULL;
}

static void bind_read(void *arg, struct expr *e, int *skip)
{
	struct perf_walk *w = arg;
	struct derived_probe *d;
	(void)skip;
	if (e->kind != E_PERF)
		return;
	if (!(d = find_counter(w->s, e->str))) {
		diag_error(&e->loc, "perf counter '%s' not defined (define it "
			   "with probe perf.EVENT.process(\"PATH\").counter"
			   "(\"%s\") {})", e->str, e->str);
		return;
	}
	e->num = d->perf_counter;
	w->mask |= 1u << d->perf_counter;
	if (!w->first)
		w->first = e;
}

void perf_reads_resolve(struct session *s)
{
	int i, j;
	for (i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		struct perf_walk w = { .s = s };
		ast_walk_stmt(p->body, bind_read, &w);
		if (!w.first)
			continue;
		for (j = 0; j < s->derived.n; j++) {
			struct derived_probe *d = s->derived.items[j];
			if (d->probe != p)
				continue;
			if (d->kind == DP_UPROBE) {
				d->perf_reads = w.mask;
				continue;
			}
			diag_error(&w.first->loc, "@perf(\"%s\") in a probe on "
				   "%s: a perf counter is read only in "
				   "process(\"PATH\").function/.statement/"
				   ".mark/.plt probes (in the probed task, "
				   "before the body)", w.first->str,
				   d->pp_text);
			break;
		}
	}
}
