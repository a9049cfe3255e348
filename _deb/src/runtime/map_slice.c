/* map_slice.c - array slices: the elements of a map whose keys equal the
 * given ones at the positions that are not '*' (delete A[*, k],
 * [*, k] in A).  See stp_runtime.h for the API. */
#include <linux/module.h>
#include "map_int.h"

/* slice_table - look in (@del 0) or delete from (@del 1) the whole map
 * the elements of table @t matching the slice; returns how many. */
static int slice_table(struct stp_map *m, struct stp_htab *t,
		       const union stp_key *keys, u32 wild, int del)
{
	struct stp_mentry *e, *n;
	union stp_key k[STP_MAX_KEYS];
	int i, found = 0;

	if (!t)
		return 0;
	list_for_each_entry_safe(e, n, &t->live, lnode) {
		if (!stp_ent_keys_match(t, e, keys, wild))
			continue;
		found++;
		if (!del)
			return found;
		/* the keys stay readable in the entry's pool slot: nothing
		 * is inserted while the element leaves every table */
		for (i = 0; i < m->nkeys; i++) {
			char *p = stp_ent_ptr(t, e, t->key_off[i]);
			if (m->key_types[i] == STP_T_STR)
				k[i].s = p;
			else
				k[i].l = *(s64 *)p;
		}
		stp_map_delete(m, k);
	}
	return found;
}

int stp_map_slice(struct stp_map *m, const union stp_key *keys, u32 wild,
		  int del)
{
	unsigned int cpu;
	int n = 0;

	if (m->val_type != STP_T_STAT && !m->percpu)
		return slice_table(m, m->tab, keys, wild, del);
	for_each_possible_cpu(cpu) {
		n += slice_table(m, m->pcpu[cpu], keys, wild, del);
		if (n && !del)
			return 1;
	}
	return n;
}
