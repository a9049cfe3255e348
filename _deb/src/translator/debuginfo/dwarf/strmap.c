/* strmap.c - open-addressing string map (see strmap.h). */
#include "strmap.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void grow(struct strmap *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 1024, i;
	struct strmap_ent *ne = xcalloc(ncap, sizeof(*ne));
	for (i = 0; i < m->cap; i++) {
		size_t j;
		if (!m->ents[i].key)
			continue;
		j = m->ents[i].hash & (ncap - 1);
		while (ne[j].key)
			j = (j + 1) & (ncap - 1);
		ne[j] = m->ents[i];
	}
	free(m->ents);
	m->ents = ne;
	m->cap = ncap;
}

struct strmap_ent *strmap_get(struct strmap *m, const char *key, int create,
			      int *created)
{
	uint64_t h = hash_str(key);
	size_t j;
	if (created)
		*created = 0;
	if ((m->n + 1) * 2 > m->cap) {
		if (!create && !m->cap)
			return NULL;
		grow(m);
	}
	j = h & (m->cap - 1);
	while (m->ents[j].key) {
		if (m->ents[j].hash == h && strcmp(m->ents[j].key, key) == 0)
			return &m->ents[j];
		j = (j + 1) & (m->cap - 1);
	}
	if (!create)
		return NULL;
	m->ents[j].key = xstrdup(key);
	m->ents[j].hash = h;
	m->ents[j].a = m->ents[j].b = m->ents[j].c = -1;
	m->n++;
	if (created)
		*created = 1;
	return &m->ents[j];
}

void strmap_free(struct strmap *m)
{
	size_t i;
	for (i = 0; i < m->cap; i++)
		free(m->ents[i].key);
	free(m->ents);
	m->ents = NULL;
	m->n = m->cap = 0;
}
