/* sort.c - ordering a map's entries for foreach (in place, stable,
 * no allocation: the kernel's list merge sort on the live list).  Each
 * foreach then takes its own snapshot of this order (map.c), so sorting
 * again for a nested loop does not disturb an outer one. */
#include <linux/module.h>
#include <linux/list_sort.h>
#include "map_int.h"

struct stp_sort_spec {
	struct stp_htab *t;
	int col;                   /* 1..nkeys: that key; -1: the value */
	int dir;                   /* +1 ascending, -1 descending */
	int aggr;                  /* statistics: enum stp_stat_op sorted by */
};

static int stp_cmp_long(s64 a, s64 b)
{
	return a < b ? -1 : a > b;
}

/* stp_sort_cmp - list_sort comparison: > 0 when @a goes after @b. */
static int stp_sort_cmp(void *priv, const struct list_head *a,
			const struct list_head *b)
{
	struct stp_sort_spec *s = priv;
	struct stp_htab *t = s->t;
	struct stp_mentry *x = list_entry(a, struct stp_mentry, lnode);
	struct stp_mentry *y = list_entry(b, struct stp_mentry, lnode);
	int r, type;
	size_t off;

	if (s->col > 0) {
		off = t->key_off[s->col - 1];
		type = t->m->key_types[s->col - 1];
	} else {
		off = t->val_off;
		type = t->m->val_type;
	}
	if (type == STP_T_STR)
		r = strcmp(stp_ent_ptr(t, x, off), stp_ent_ptr(t, y, off));
	else if (type == STP_T_STAT)
		r = stp_cmp_long(stp_stat_sort_value(t->m,
				(void *)stp_ent_ptr(t, x, off), s->aggr),
				 stp_stat_sort_value(t->m,
				(void *)stp_ent_ptr(t, y, off), s->aggr));
	else
		r = stp_cmp_long(*(s64 *)stp_ent_ptr(t, x, off),
				 *(s64 *)stp_ent_ptr(t, y, off));
	return s->dir < 0 ? -r : r;
}

/**
 * stp_htab_sort - sort @t's live list by key @col (1-based) or by value
 * (@col <= 0; a statistic by its aggregate @aggr) in direction @dir
 * (+1/-1).  Stable.  Context: probe handler with the map's lock
 * exclusive; does not sleep or allocate.
 */
void stp_htab_sort(struct stp_htab *t, int col, int dir, int aggr)
{
	struct stp_sort_spec s = { .t = t, .col = col, .dir = dir,
				   .aggr = aggr };

	if (col > t->m->nkeys)
		s.col = 0;
	list_sort(&s, &t->live, stp_sort_cmp);
}
