/* strmap.h - an interning string -> integer map for the DWARF index
 * builder (file names, type names).  Keys are copied; never shrinks. */
#ifndef STP_DWARF_STRMAP_H
#define STP_DWARF_STRMAP_H

#include <stdint.h>
#include <stddef.h>

struct strmap_ent {
	char *key;
	uint64_t hash;          /* of key: most mismatches skip strcmp */
	int64_t a, b, c;        /* the caller's values */
};

struct strmap {
	struct strmap_ent *ents;
	size_t n, cap;          /* cap: a power of two, or 0 */
};

/* strmap_get - the entry of @key, created (a = b = c = -1) when @create;
 * NULL when absent and not created.  *@created, if not NULL, tells. */
struct strmap_ent *strmap_get(struct strmap *m, const char *key, int create,
			      int *created);
/* strmap_free - free the keys and the table. */
void strmap_free(struct strmap *m);

#endif
