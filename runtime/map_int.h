/* map_int.h - the hash tables behind script arrays, shared by map.c,
 * stat.c and sort.c.  Not used by generated code.
 *
 * Context and locking of everything here: probe context with the
 * owning script global's lock held (shared for lookups and for a CPU's
 * own statistics table, exclusive otherwise); nothing sleeps, allocates
 * or fails except by returning NULL.  Tables are allocated only by
 * stp_map_alloc (process context, module load). */
#ifndef STP_MAP_INT_H
#define STP_MAP_INT_H

#include "stp_internal.h"
#include <linux/list.h>

/* One element.  Keys and the value follow in data[], at the offsets of
 * the table (8-byte aligned). */
struct stp_mentry {
	struct hlist_node hnode;   /* in its hash bucket */
	struct list_head lnode;    /* live list (insertion/sorted order) or
	                            * free list */
	u32 hash;
	u32 seq;                   /* the table's insertion number of this
	                            * entry; 0 while it is free */
	u64 data[];
};

/* A hash table with a preallocated pool of entries. */
struct stp_htab {
	struct stp_map *m;
	u32 nbuckets;              /* power of two */
	u32 count, max;
	u32 seq;                   /* insertions so far (never 0 after one;
	                            * wraps), see struct stp_iter */
	size_t esize;              /* bytes per entry */
	size_t key_off[STP_MAX_KEYS], val_off;
	struct hlist_head *buckets;
	struct list_head live, free;
	char *pool;
};

static inline char *stp_ent_ptr(struct stp_htab *t, struct stp_mentry *e,
				size_t off)
{
	return (char *)e->data + off;
}

/* stp_ent_keys_match - 1 if entry @e of @t has @keys at every position
 * whose bit in @wild is clear (0: all of them, a lookup; a slice
 * A[*, k] has bit 0 set). */
static inline int stp_ent_keys_match(struct stp_htab *t,
				     struct stp_mentry *e,
				     const union stp_key *keys, u32 wild)
{
	const struct stp_map *m = t->m;
	int i;

	for (i = 0; i < m->nkeys; i++) {
		char *p = stp_ent_ptr(t, e, t->key_off[i]);

		if (wild & (1u << i))
			continue;
		if (m->key_types[i] == STP_T_STR) {
			if (strncmp(p, keys[i].s, MAXSTRINGLEN - 1))
				return 0;
		} else if (*(s64 *)p != keys[i].l) {
			return 0;
		}
	}
	return 1;
}

/* stp_htab_find - the entry of @keys, or NULL. */
struct stp_mentry *stp_htab_find(struct stp_htab *t, const union stp_key *keys);
/* stp_htab_find_like - the entry of @t whose keys equal those of
 * entry @o of table @ot (same map layout), or NULL. */
struct stp_mentry *stp_htab_find_like(struct stp_htab *t, struct stp_htab *ot,
				      struct stp_mentry *o);
/* stp_htab_insert - a new zeroed entry for @keys (not present); evicts
 * the oldest entry of a wrap-around map when full; NULL when full. */
struct stp_mentry *stp_htab_insert(struct stp_htab *t, const union stp_key *keys);
/* stp_htab_insert_like - insert the keys of @o (from table @ot). */
struct stp_mentry *stp_htab_insert_like(struct stp_htab *t, struct stp_htab *ot,
					struct stp_mentry *o);
/* stp_htab_remove - unlink live entry @e and return it to the pool. */
void stp_htab_remove(struct stp_htab *t, struct stp_mentry *e);
/* stp_htab_clear - remove every entry. */
void stp_htab_clear(struct stp_htab *t);
/* stp_map_overflow - record the array overflow error of @m. */
void stp_map_overflow(struct stp_context *c, struct stp_map *m,
		      const char *loc);

/* stat.c */
/* stp_stat_size - bytes of one statistic of @m (with its histogram). */
size_t stp_stat_size(const struct stp_map *m);
/* stp_stat_merge_moments - add statistic @src (one part, as
 * accumulated) into the merged statistic @dst, histogram excepted:
 * count, sum, min, max and the accumulators of the variance. */
void stp_stat_merge_moments(struct stp_stat *dst, const struct stp_stat *src);
/* stp_stat_merge - add statistic @src into @dst (both of map @m),
 * histogram included. */
void stp_stat_merge(const struct stp_map *m, struct stp_stat *dst,
		    const struct stp_stat *src);
/* stp_stat_accumulate - add value @v to one CPU's statistic @s (no
 * histogram): count, sum, min, max and the running mean and second
 * moment of v << @var_shift.  Context: the caller owns @s (this CPU's
 * part, or the probe context); does not sleep. */
void stp_stat_accumulate(struct stp_stat *s, s64 v, int var_shift);
/* stp_stat_reset - make @s the empty statistic. */
void stp_stat_reset(const struct stp_map *m, struct stp_stat *s);
/* stp_stat_sort_value - operator @op (not STP_STAT_VARIANCE's error
 * path: @st must not be empty) of @st, for sorting. */
s64 stp_stat_sort_value(const struct stp_map *m, const struct stp_stat *st,
			int op);
/* stp_stat_value - operator @op of the merged statistic @st (values
 * accumulated with @var_shift), as stp_stat_op. */
s64 stp_stat_value(struct stp_context *c, const struct stp_stat *st,
		   int var_shift, int op, const char *loc);

/* sort.c */
/* stp_htab_sort - stable in-place sort of @t's live list by key @col
 * (1-based) or the value (@col <= 0; statistics by aggregate @aggr, an
 * enum stp_stat_op), ascending (@dir 1) or descending. */
void stp_htab_sort(struct stp_htab *t, int col, int dir, int aggr);

#endif
