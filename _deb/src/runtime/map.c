/* map.c - script associative arrays: hash tables over preallocated
 * entry pools (see stp_runtime.h for the API and locking rules). */
#include <linux/module.h>
#include <linux/vmalloc.h>
#include <linux/slab.h>
#include <linux/jhash.h>
#include <linux/log2.h>
#include "map_int.h"

/* ---- tables ---- */

static u32 stp_key_hash(const struct stp_map *m, const union stp_key *keys)
{
	u32 h = 0x5eed;
	int i;

	for (i = 0; i < m->nkeys; i++) {
		if (m->key_types[i] == STP_T_STR)
			h = jhash(keys[i].s, strnlen(keys[i].s, MAXSTRINGLEN - 1), h);
		else
			h = jhash_2words((u32)keys[i].l, (u32)(keys[i].l >> 32), h);
	}
	return h;
}

/* stp_ent_keys - the keys of entry @e as a key vector in @keys. */
static void stp_ent_keys(struct stp_htab *t, struct stp_mentry *e,
			 union stp_key *keys)
{
	int i;

	for (i = 0; i < t->m->nkeys; i++) {
		char *p = stp_ent_ptr(t, e, t->key_off[i]);

		if (t->m->key_types[i] == STP_T_STR)
			keys[i].s = p;
		else
			keys[i].l = *(s64 *)p;
	}
}

static struct stp_htab *stp_htab_alloc(struct stp_map *m, u32 max)
{
	struct stp_htab *t = kzalloc(sizeof(*t), GFP_KERNEL);
	size_t off = 0, vsize;
	u32 i;
	int k;

	if (!t)
		return NULL;
	t->m = m;
	t->max = max;
	for (k = 0; k < m->nkeys; k++) {
		t->key_off[k] = off;
		off += m->key_types[k] == STP_T_STR ? ALIGN(MAXSTRINGLEN, 8) : 8;
	}
	t->val_off = off;
	vsize = m->val_type == STP_T_STR ? MAXSTRINGLEN :
		m->val_type == STP_T_STAT ? stp_stat_size(m) : 8;
	t->esize = ALIGN(sizeof(struct stp_mentry) + off + vsize, 8);
	t->nbuckets = roundup_pow_of_two(max < 8 ? 8 : max);
	t->buckets = kvcalloc(t->nbuckets, sizeof(*t->buckets), GFP_KERNEL);
	t->pool = vzalloc((size_t)max * t->esize);
	if (!t->buckets || !t->pool) {
		kvfree(t->buckets);
		vfree(t->pool);
		kfree(t);
		return NULL;
	}
	INIT_LIST_HEAD(&t->live);
	INIT_LIST_HEAD(&t->free);
	for (i = 0; i < max; i++) {
		struct stp_mentry *e = (void *)(t->pool + (size_t)i * t->esize);

		list_add_tail(&e->lnode, &t->free);
	}
	return t;
}

static void stp_htab_destroy(struct stp_htab *t)
{
	if (!t)
		return;
	kvfree(t->buckets);
	vfree(t->pool);
	kfree(t);
}

struct stp_mentry *stp_htab_find(struct stp_htab *t, const union stp_key *keys)
{
	u32 h = stp_key_hash(t->m, keys);
	struct stp_mentry *e;

	hlist_for_each_entry(e, &t->buckets[h & (t->nbuckets - 1)], hnode)
		if (e->hash == h && stp_ent_keys_match(t, e, keys, 0))
			return e;
	return NULL;
}

struct stp_mentry *stp_htab_find_like(struct stp_htab *t, struct stp_htab *ot,
				      struct stp_mentry *o)
{
	union stp_key keys[STP_MAX_KEYS];

	stp_ent_keys(ot, o, keys);
	return stp_htab_find(t, keys);
}

void stp_htab_remove(struct stp_htab *t, struct stp_mentry *e)
{
	hlist_del(&e->hnode);
	list_move_tail(&e->lnode, &t->free);
	e->seq = 0;
	t->count--;
}

struct stp_mentry *stp_htab_insert(struct stp_htab *t, const union stp_key *keys)
{
	const struct stp_map *m = t->m;
	struct stp_mentry *e;
	int i;

	if (list_empty(&t->free)) {
		if (!m->wrap || list_empty(&t->live))
			return NULL;
		stp_htab_remove(t, list_first_entry(&t->live, struct stp_mentry,
						    lnode));
	}
	e = list_first_entry(&t->free, struct stp_mentry, lnode);
	memset(e->data, 0, t->esize - sizeof(*e));
	for (i = 0; i < m->nkeys; i++) {
		char *p = stp_ent_ptr(t, e, t->key_off[i]);

		if (m->key_types[i] == STP_T_STR)
			strscpy(p, keys[i].s, MAXSTRINGLEN);
		else
			*(s64 *)p = keys[i].l;
	}
	e->hash = stp_key_hash(m, keys);
	if (++t->seq == 0)
		t->seq = 1;
	e->seq = t->seq;
	hlist_add_head(&e->hnode, &t->buckets[e->hash & (t->nbuckets - 1)]);
	list_move_tail(&e->lnode, &t->live);
	t->count++;
	if (m->val_type == STP_T_STAT)
		stp_stat_reset(m, (void *)stp_ent_ptr(t, e, t->val_off));
	return e;
}

struct stp_mentry *stp_htab_insert_like(struct stp_htab *t, struct stp_htab *ot,
					struct stp_mentry *o)
{
	union stp_key keys[STP_MAX_KEYS];

	stp_ent_keys(ot, o, keys);
	return stp_htab_insert(t, keys);
}

void stp_htab_clear(struct stp_htab *t)
{
	struct stp_mentry *e, *n;

	list_for_each_entry_safe(e, n, &t->live, lnode)
		stp_htab_remove(t, e);
}

void stp_map_overflow(struct stp_context *c, struct stp_map *m,
		      const char *loc)
{
	if (c->error)
		return;
	snprintf(c->error_buf, sizeof(c->error_buf),
		 "Array overflow, check size limit (%u) for array '%s'",
		 m->max_entries, m->name);
	stp_error(c, c->error_buf, loc);
}

/* ---- maps ---- */

int stp_map_alloc(struct stp_map *m)
{
	unsigned int cpu;

	if (m->max_entries == 0)
		m->max_entries = m->nkeys ? MAXMAPENTRIES : 1;
	if (m->val_type != STP_T_STAT && !m->percpu) {
		m->tab = stp_htab_alloc(m, m->max_entries);
		return m->tab ? 0 : -ENOMEM;
	}
	if (m->percpu) {
		m->tab = stp_htab_alloc(m, m->max_entries);
		m->pcpu = kcalloc(nr_cpu_ids, sizeof(*m->pcpu), GFP_KERNEL);
		if (!m->tab || !m->pcpu)
			goto nomem;
		for_each_possible_cpu(cpu) {
			m->pcpu[cpu] = stp_htab_alloc(m, m->max_entries);
			if (!m->pcpu[cpu])
				goto nomem;
		}
		return 0;
	}
	if (m->hist.type == STP_HIST_LOG) {
		m->hist.buckets = STP_HIST_LOG_BUCKETS;
	} else if (m->hist.type == STP_HIST_LINEAR) {
		if (m->hist.interval <= 0 || m->hist.stop <= m->hist.start)
			return -EINVAL;
		m->hist.buckets = div64_s64(m->hist.stop - m->hist.start,
					    m->hist.interval) + 3;
		if (m->hist.buckets > 1024)
			return -E2BIG;
	}
	m->pcpu = kcalloc(nr_cpu_ids, sizeof(*m->pcpu), GFP_KERNEL);
	m->scratch = kzalloc(stp_stat_size(m), GFP_KERNEL);
	m->agg = stp_htab_alloc(m, m->max_entries);
	if (!m->pcpu || !m->scratch || !m->agg)
		goto nomem;
	for_each_possible_cpu(cpu) {
		m->pcpu[cpu] = stp_htab_alloc(m, m->max_entries);
		if (!m->pcpu[cpu])
			goto nomem;
	}
	return 0;
nomem:
	stp_map_free(m);
	return -ENOMEM;
}

void stp_map_free(struct stp_map *m)
{
	unsigned int cpu;

	stp_htab_destroy(m->tab);
	m->tab = NULL;
	if (m->pcpu) {
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			stp_htab_destroy(m->pcpu[cpu]);
		kfree(m->pcpu);
		m->pcpu = NULL;
	}
	stp_htab_destroy(m->agg);
	m->agg = NULL;
	kfree(m->scratch);
	m->scratch = NULL;
}

void *stp_map_ref(struct stp_context *c, struct stp_map *m,
		  const union stp_key *keys, const char *loc)
{
	struct stp_htab *t = m->tab;
	struct stp_mentry *e = stp_htab_find(t, keys);

	if (!e)
		e = stp_htab_insert(t, keys);
	if (!e) {
		stp_map_overflow(c, m, loc);
		return NULL;
	}
	return stp_ent_ptr(t, e, t->val_off);
}

int stp_map_add(struct stp_context *c, struct stp_map *m,
		const union stp_key *keys, s64 v, const char *loc)
{
	struct stp_htab *t = m->pcpu[smp_processor_id()];
	struct stp_mentry *e = stp_htab_find(t, keys);
	s64 *p;

	if (!e)
		e = stp_htab_insert(t, keys);
	if (!e) {
		stp_map_overflow(c, m, loc);
		return -1;
	}
	p = (s64 *)stp_ent_ptr(t, e, t->val_off);
	*p = (s64)((u64)*p + (u64)v);
	return 0;
}

s64 stp_map_get_long(struct stp_map *m, const union stp_key *keys)
{
	struct stp_mentry *e;
	unsigned int cpu;
	u64 sum = 0;

	if (!m->percpu) {
		e = stp_htab_find(m->tab, keys);
		return e ? *(s64 *)stp_ent_ptr(m->tab, e, m->tab->val_off) : 0;
	}
	for_each_possible_cpu(cpu) {
		struct stp_htab *t = m->pcpu[cpu];

		e = stp_htab_find(t, keys);
		if (e)
			sum += *(u64 *)stp_ent_ptr(t, e, t->val_off);
	}
	return (s64)sum;
}

const char *stp_map_get_str(struct stp_map *m, const union stp_key *keys)
{
	struct stp_mentry *e = stp_htab_find(m->tab, keys);

	return e ? stp_ent_ptr(m->tab, e, m->tab->val_off) : "";
}

int stp_map_exists(struct stp_map *m, const union stp_key *keys)
{
	unsigned int cpu;

	if (m->val_type != STP_T_STAT && !m->percpu)
		return stp_htab_find(m->tab, keys) != NULL;
	for_each_possible_cpu(cpu)
		if (stp_htab_find(m->pcpu[cpu], keys))
			return 1;
	return 0;
}

void stp_map_delete(struct stp_map *m, const union stp_key *keys)
{
	struct stp_mentry *e;
	unsigned int cpu;

	if (m->val_type != STP_T_STAT && !m->percpu) {
		e = stp_htab_find(m->tab, keys);
		if (e)
			stp_htab_remove(m->tab, e);
		return;
	}
	for_each_possible_cpu(cpu) {
		e = stp_htab_find(m->pcpu[cpu], keys);
		if (e)
			stp_htab_remove(m->pcpu[cpu], e);
	}
	/* only this element leaves the merged table: a foreach walking it
	 * goes on with the others */
	e = stp_htab_find(m->percpu ? m->tab : m->agg, keys);
	if (e)
		stp_htab_remove(m->percpu ? m->tab : m->agg, e);
}

void stp_map_clear(struct stp_map *m)
{
	unsigned int cpu;

	if (m->val_type != STP_T_STAT && !m->percpu) {
		stp_htab_clear(m->tab);
		return;
	}
	for_each_possible_cpu(cpu)
		stp_htab_clear(m->pcpu[cpu]);
	stp_htab_clear(m->percpu ? m->tab : m->agg);
}

/* ---- foreach ---- */

/* stp_map_merge_longs - refresh m->tab of per-CPU long map @m with the
 * sums of its CPUs' tables, in place (entries a running outer loop has
 * still to visit stay where they are; keys no CPU has any more leave).
 * Returns 0, or -1 after recording an overflow of the merged table. */
static int stp_map_merge_longs(struct stp_context *c, struct stp_map *m,
			       const char *loc)
{
	struct stp_htab *t = m->tab;
	struct stp_mentry *e, *n;
	unsigned int cpu;

	/* S64_MIN marks an entry no CPU has added to (yet) */
	list_for_each_entry(e, &t->live, lnode)
		*(s64 *)stp_ent_ptr(t, e, t->val_off) = S64_MIN;
	for_each_possible_cpu(cpu) {
		struct stp_htab *p = m->pcpu[cpu];
		struct stp_mentry *a;
		s64 *v;

		list_for_each_entry(e, &p->live, lnode) {
			a = stp_htab_find_like(t, p, e);
			if (!a)
				a = stp_htab_insert_like(t, p, e);
			if (!a) {
				stp_map_overflow(c, m, loc);
				return -1;
			}
			v = (s64 *)stp_ent_ptr(t, a, t->val_off);
			if (*v == S64_MIN)
				*v = 0;
			*v = (s64)((u64)*v +
				   *(u64 *)stp_ent_ptr(p, e, p->val_off));
		}
	}
	list_for_each_entry_safe(e, n, &t->live, lnode)
		if (*(s64 *)stp_ent_ptr(t, e, t->val_off) == S64_MIN)
			stp_htab_remove(t, e);
	return 0;
}

/* stp_map_prepare - the table a foreach or dump of @m walks: for
 * statistics the CPUs' parts merged into m->agg, then (@dir +1/-1) its
 * live list sorted by key @col or the value (statistics: aggregate
 * @aggr).  NULL after recording an overflow of the merged table. */
static struct stp_htab *stp_map_prepare(struct stp_context *c,
					struct stp_map *m, int col, int dir,
					int aggr, const char *loc)
{
	struct stp_htab *t = m->tab;

	if (m->percpu && stp_map_merge_longs(c, m, loc) < 0)
		return NULL;
	if (m->val_type == STP_T_STAT) {
		struct stp_mentry *e, *n;
		unsigned int cpu;

		/* Refresh the merged table in place: entries a running
		 * (outer) loop still has to visit stay where they are. */
		t = m->agg;
		list_for_each_entry(e, &t->live, lnode)
			stp_stat_reset(m, (void *)stp_ent_ptr(t, e, t->val_off));
		for_each_possible_cpu(cpu) {
			struct stp_htab *p = m->pcpu[cpu];
			struct stp_mentry *a;

			list_for_each_entry(e, &p->live, lnode) {
				a = stp_htab_find_like(t, p, e);
				if (!a)
					a = stp_htab_insert_like(t, p, e);
				if (!a) {
					stp_map_overflow(c, m, loc);
					return NULL;
				}
				stp_stat_merge(m, (void *)stp_ent_ptr(t, a, t->val_off),
					       (void *)stp_ent_ptr(p, e, p->val_off));
			}
		}
		list_for_each_entry_safe(e, n, &t->live, lnode)
			if (((struct stp_stat *)stp_ent_ptr(t, e, t->val_off))->count == 0)
				stp_htab_remove(t, e);
	}
	if (dir)
		stp_htab_sort(t, col, dir, aggr);
	return t;
}

/**
 * stp_map_iter_start - see stp_runtime.h.  The snapshot holds the pool
 * index of each entry to visit (4 bytes each, from the context's frame
 * arena) and the table's insertion number, so that entries deleted or
 * inserted while the loop runs are recognised by stp_map_iter_next.
 */
int stp_map_iter_start(struct stp_context *c, struct stp_map *m,
		       struct stp_iter *it, int col, int dir, int aggr,
		       s64 limit, const char *loc)
{
	struct stp_htab *t;
	struct stp_mentry *e;
	u32 n = 0;

	it->mark = c->frame_used;
	it->n = it->pos = 0;
	it->t = t = stp_map_prepare(c, m, col, dir, aggr, loc);
	if (!t)
		return -1;
	if (limit > 0)
		n = limit < t->count ? (u32)limit : t->count;
	it->order = stp_arena_alloc(c, (size_t)n * sizeof(u32), loc);
	if (!it->order)
		return -1;
	it->seq = t->seq;
	list_for_each_entry(e, &t->live, lnode) {
		if (it->n == n)
			break;
		it->order[it->n++] = ((char *)e - t->pool) / t->esize;
	}
	return 0;
}

void *stp_map_iter_next(struct stp_iter *it)
{
	struct stp_htab *t = it->t;

	while (it->pos < it->n) {
		struct stp_mentry *e = (void *)(t->pool +
				(size_t)it->order[it->pos++] * t->esize);

		/* skip entries deleted since the start, and slots reused
		 * by later insertions */
		if (e->seq && (s32)(e->seq - it->seq) <= 0)
			return e;
	}
	return NULL;
}

void stp_map_iter_end(struct stp_context *c, struct stp_iter *it)
{
	c->frame_used = it->mark;
}

s64 stp_map_iter_key_long(struct stp_htab *t, void *e, int i)
{
	return *(s64 *)stp_ent_ptr(t, e, t->key_off[i]);
}

const char *stp_map_iter_key_str(struct stp_htab *t, void *e, int i)
{
	return stp_ent_ptr(t, e, t->key_off[i]);
}

s64 stp_map_iter_val_long(struct stp_htab *t, void *e)
{
	if (t->m->val_type == STP_T_STAT)
		return ((struct stp_stat *)stp_ent_ptr(t, e, t->val_off))->count;
	return *(s64 *)stp_ent_ptr(t, e, t->val_off);
}

const char *stp_map_iter_val_str(struct stp_htab *t, void *e)
{
	return stp_ent_ptr(t, e, t->val_off);
}

/* ---- dump of write-only globals ---- */

static void stp_dump_stat(struct stp_context *c, const struct stp_stat *st)
{
	if (st->count == 0) {
		stp_print_str(c, " @count=0\n");
		return;
	}
	stp_printf(c, " @count=%lld @min=%lld @max=%lld @sum=%lld @avg=%lld\n",
		   st->count, st->min, st->max, st->sum,
		   div64_s64(st->sum, st->count));
}

void stp_map_dump(struct stp_context *c, struct stp_map *m)
{
	struct stp_htab *t;
	struct stp_mentry *e;
	int i;

	t = stp_map_prepare(c, m, 0, 0, 0, NULL);
	if (!t)
		return;
	if (m->val_type == STP_T_STAT && m->nkeys == 0) {
		e = list_first_entry_or_null(&t->live, struct stp_mentry,
					     lnode);
		stp_print_str(c, m->name);
		if (e) {
			stp_dump_stat(c, (void *)stp_ent_ptr(t, e, t->val_off));
		} else {
			stp_stat_reset(m, m->scratch);
			stp_dump_stat(c, m->scratch);
		}
		return;
	}
	list_for_each_entry(e, &t->live, lnode) {
		stp_printf(c, "%s[", m->name);
		for (i = 0; i < m->nkeys; i++) {
			char *p = stp_ent_ptr(t, e, t->key_off[i]);

			if (i)
				stp_print(c, ",", 1);
			if (m->key_types[i] == STP_T_STR)
				stp_printf(c, "\"%s\"", p);
			else
				stp_printf(c, "%lld", *(s64 *)p);
		}
		stp_print(c, "]", 1);
		if (m->val_type == STP_T_STAT)
			stp_dump_stat(c, (void *)stp_ent_ptr(t, e, t->val_off));
		else if (m->val_type == STP_T_STR)
			stp_printf(c, "=\"%s\"\n", stp_ent_ptr(t, e, t->val_off));
		else
			stp_printf(c, "=%lld\n", *(s64 *)stp_ent_ptr(t, e, t->val_off));
	}
}
