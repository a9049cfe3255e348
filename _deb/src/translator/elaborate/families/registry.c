/* registry.c - the table of probe-point families, and what they share.
 *
 * Each family (one file each in this directory) matches probe points by
 * their first component's name and turns one into derived probes the
 * runtime knows how to register.  Unknown points are an error that lists
 * the families with similar names.
 */
#include "family.h"
#include "elaborate/aliases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The families, by the name of a probe point's first component. */
static const struct family *const families[] = {
	&family_begin,
	&family_end,
	&family_error,
	&family_never,
	&family_procfs,
	&family_timer,
	&family_kprobe,
	&family_perf,
	&family_kernel,
	&family_module,
	&family_process,
	&family_netfilter,
};

#define NFAMILIES (sizeof(families) / sizeof(families[0]))

struct pp_component *pp_comp(struct probe_point *pp, int i)
{
	return i < pp->components.n ? pp->components.items[i] : NULL;
}

int pp_is(struct pp_component *c, const char *name)
{
	return c && strcmp(c->name, name) == 0;
}

struct derived_probe *new_derived(struct session *s, enum dp_kind k,
					 struct probe *p, struct probe_point *pp)
{
	struct derived_probe *d = xcalloc(1, sizeof(*d));
	d->kind = k;
	d->probe = p;
	d->point = pp;
	d->pp_text = probe_point_str(pp);
	d->optional = pp->optional;
	vec_push(&s->derived, d);
	return d;
}

int num_arg(struct pp_component *c, struct probe_point *pp,
		   int64_t *v, int required)
{
	if (!c->arg) {
		if (!required)
			return 0;
		diag_error(&pp->loc, "'%s' needs a number: %s(N)", c->name,
			   c->name);
		return -1;
	}
	if (c->arg->kind != E_NUM) {
		diag_error(&c->arg->loc, "the argument of '%s' must be a number",
			   c->name);
		return -1;
	}
	*v = c->arg->num;
	return 0;
}

int str_arg(struct pp_component *c, struct probe_point *pp,
		   const char **v)
{
	if (!c->arg || c->arg->kind != E_STR) {
		diag_error(c->arg ? &c->arg->loc : &pp->loc,
			   "'%s' needs a string: %s(\"...\")", c->name, c->name);
		return -1;
	}
	*v = c->arg->str;
	return 0;
}

int extra_components(struct probe_point *pp, int from)
{
	struct pp_component *c = pp_comp(pp, from);
	if (!c)
		return 0;
	diag_error(&pp->loc, "unexpected '.%s' in probe point %s", c->name,
		   probe_point_str(pp));
	return -1;
}

/* edit_distance - Levenshtein distance, for "did you mean" suggestions */
static int edit_distance(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b), i, j;
	int *row = xcalloc(lb + 1, sizeof(int)), d;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int cur = row[j];
			int sub = prev + (a[i - 1] != b[j - 1]);
			int del = row[j] + 1, ins = row[j - 1] + 1;
			row[j] = sub < del ? (sub < ins ? sub : ins) :
				(del < ins ? del : ins);
			prev = cur;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

int family_exists(const char *name)
{
	size_t i;
	for (i = 0; i < NFAMILIES; i++)
		if (!strcmp(families[i]->name, name))
			return 1;
	return 0;
}

int names_similar(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (!la || !lb)
		return 0;
	if ((la >= 3 && strstr(b, a)) || (lb >= 3 && strstr(a, b)))
		return 1;
	return edit_distance(a, b) <= (la < 4 ? 1 : 2);
}

void family_similar(const char *name, struct strbuf *b, int *n)
{
	size_t i;
	for (i = 0; i < NFAMILIES; i++)
		if (names_similar(name, families[i]->name))
			strbuf_printf(b, "%s%s", (*n)++ ? ", " : "",
				      families[i]->name);
}

const char *const *family_templates(void)
{
	/* built once and kept for the process (plain calloc: not one of the
	 * per-program allocations the fuzz target frees between inputs) */
	static const char **all;
	size_t i, n = 0;
	const char *const *f;
	if (all)
		return all;
	for (i = 0; i < NFAMILIES; i++)
		for (f = families[i]->forms; *f; f++)
			n++;
	all = calloc(n + 1, sizeof(*all));
	if (!all) {
		fputs("stap: out of memory\n", stderr);
		exit(1);
	}
	n = 0;
	for (i = 0; i < NFAMILIES; i++)
		for (f = families[i]->forms; *f; f++)
			all[n++] = *f;
	return all;
}

int derive_point(struct session *s, struct probe *p, struct probe_point *pp)
{
	struct pp_component *c = pp_comp(pp, 0);
	struct strbuf similar = {0};
	size_t i;
	int rc;
	if (!c)
		return -1;
	for (i = 0; i < NFAMILIES; i++)
		if (pp_is(c, families[i]->name)) {
			rc = families[i]->match(s, p, pp);
			return rc;
		}
	for (i = 0; i < NFAMILIES; i++)
		if (edit_distance(c->name, families[i]->name) <= 2 ||
		    strstr(families[i]->name, c->name) ||
		    strstr(c->name, families[i]->name))
			strbuf_printf(&similar, "%s%s", similar.len ? ", " : "",
				      families[i]->name);
	diag_error(&pp->loc, "unknown probe point family '%s'%s%s", c->name,
		   similar.len ? "; similar: " : "", strbuf_str(&similar));
	free(similar.s);
	return -1;
}
