/* listing.c - stap -l / -L: list the probe points matching a pattern
 * (list_probe_points, elaborate.h). */
#include "elaborate.h"
#include "aliases.h"
#include "parse/parse.h"
#include "tvar.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* template_matches - does the pattern (text) match a family form such as
 * "timer.ms(NUMBER)"?  Compared component by component on names only. */
static int template_matches(const struct probe_point *pat, const char *tmpl)
{
	struct probe_point name = {0};
	char *t = xstrdup(tmpl), *save = NULL, *c;
	int r;
	for (c = strtok_r(t, ".", &save); c; c = strtok_r(NULL, ".", &save)) {
		struct pp_component *pc = xcalloc(1, sizeof(*pc));
		char *paren = strchr(c, '(');
		if (paren)
			*paren = 0;
		pc->name = c;
		vec_push(&name.components, pc);
	}
	{
		/* ignore the arguments of the pattern for templates */
		struct probe_point bare = *pat;
		int i;
		memset(&bare.components, 0, sizeof(bare.components));
		for (i = 0; i < pat->components.n; i++) {
			struct pp_component *pc = xmalloc(sizeof(*pc));
			*pc = *(struct pp_component *)pat->components.items[i];
			pc->arg = NULL;
			vec_push(&bare.components, pc);
		}
		r = pp_matches_alias(&bare, &name);
		for (i = 0; i < bare.components.n; i++)
			free(bare.components.items[i]);
		free(bare.components.items);
	}
	for (int i = 0; i < name.components.n; i++)
		free(name.components.items[i]);
	free(name.components.items);
	free(t);
	return r;
}

/* alias_vars - for each alias of @als, " name:type ..." (into @vars[i])
 * for the locals its expansions set, found by elaborating (quietly) one
 * script with an empty probe on each alias. */
static void alias_vars(struct session *s, struct vec *als, struct strbuf *vars)
{
	struct session sub = *s;
	struct stapfile uf = {0};
	struct probe *prs = xcalloc(als->n + 1, sizeof(*prs));
	struct stmt *bodies = xcalloc(als->n + 1, sizeof(*bodies));
	int i, j, k, errs = diag_error_count(), quiet = diag_quiet;
	memset(&sub.globals, 0, sizeof(sub.globals));
	memset(&sub.functions, 0, sizeof(sub.functions));
	memset(&sub.probes, 0, sizeof(sub.probes));
	memset(&sub.derived, 0, sizeof(sub.derived));
	memset(&sub.library, 0, sizeof(sub.library));
	for (i = 0; i < s->library.n; i++)
		vec_push(&sub.library, s->library.items[i]);
	vec_push(&sub.library, s->user);
	uf.name = "<list>";
	for (i = 0; i < als->n; i++) {
		struct probe_alias *a = als->items[i];
		bodies[i].kind = S_BLOCK;
		bodies[i].loc = a->loc;
		prs[i].loc = a->loc;
		prs[i].body = &bodies[i];
		vec_push(&prs[i].points, a->name);
		vec_push(&uf.probes, &prs[i]);
	}
	sub.user = &uf;
	sub.unoptimized = 1;
	diag_quiet = 1;
	elaborate(&sub);
	diag_quiet = quiet;
	diag_rewind(errs);
	for (i = 0; i < sub.probes.n; i++) {
		struct probe *p = sub.probes.items[i];
		for (k = 0; k < als->n; k++)
			if (p->user_point ==
			    ((struct probe_alias *)als->items[k])->name)
				break;
		if (k == als->n)
			continue;
		for (j = 0; j < p->locals.n; j++) {
			struct sym *y = p->locals.items[j];
			char *one = xasprintf(" %s:%s", y->name, type_name(y->type));
			if (!strstr(strbuf_str(&vars[k]), one))
				strbuf_add(&vars[k], one);
			free(one);
		}
	}
	for (i = 0; i < als->n; i++)
		free(prs[i].points.items);
	free(uf.probes.items);
	free(prs);
	free(bodies);
	free(sub.library.items);
}

int list_probe_points(struct session *s, struct strbuf *out)
{
	char *text = xasprintf("probe %s {}", s->list_pattern);
	struct stapfile *f;
	struct probe_point *pat;
	struct vec lines = {0}, als = {0};
	const char *const *t;
	int i, j;

	f = parse_script("<pattern>", text, 0);
	if (!f || f->probes.n != 1 ||
	    ((struct probe *)f->probes.items[0])->points.n != 1) {
		diag_error(NULL, "cannot parse the probe point pattern '%s'",
			   s->list_pattern);
		return -1;
	}
	pat = ((struct probe *)f->probes.items[0])->points.items[0];
	for (i = -1; i < s->library.n; i++) {
		struct stapfile *lf = i < 0 ? s->user : s->library.items[i];
		for (j = 0; j < lf->aliases.n; j++) {
			struct probe_alias *a = lf->aliases.items[j];
			char *name;
			int k, dup = 0;
			if (!pp_matches_alias(pat, a->name))
				continue;
			name = probe_point_str(a->name);
			for (k = 0; k < lines.n; k++)
				if (!strncmp(lines.items[k], name, strlen(name)) &&
				    (((char *)lines.items[k])[strlen(name)] == 0 ||
				     ((char *)lines.items[k])[strlen(name)] == ' '))
					dup = 1;
			if (dup) {
				free(name);
				continue;
			}
			vec_push(&lines, name);
			vec_push(&als, a);
		}
	}
	if (s->list_vars && als.n) {
		struct strbuf *vars = xcalloc(als.n, sizeof(*vars));
		alias_vars(s, &als, vars);
		for (i = 0; i < als.n; i++) {
			char *l = xasprintf("%s%s", (char *)lines.items[i],
					    strbuf_str(&vars[i]));
			free(lines.items[i]);
			lines.items[i] = l;
			free(vars[i].s);
		}
		free(vars);
	}
	free(als.items);
	if (!pp_has_wildcard(pat) && family_exists(
		    ((struct pp_component *)pat->components.items[0])->name)) {
		/* a concrete family point: list it when it derives */
		struct session sub = *s;
		struct probe pr = {0};
		int errs = diag_error_count();
		memset(&sub.derived, 0, sizeof(sub.derived));
		if (derive_point(&sub, &pr, pat) == 0 && sub.derived.n) {
			for (i = 0; i < sub.derived.n; i++) {
				struct derived_probe *d = sub.derived.items[i];
				struct strbuf l = {0};
				strbuf_add(&l, d->pp_text ? d->pp_text
					   : probe_point_str(pat));
				if (s->list_vars)
					tvar_list(&sub, d, &l);
				vec_push(&lines, l.s);   /* duplicates: below */
			}
		} else
			diag_rewind(errs);
	} else {
		for (t = family_templates(); *t; t++)
			if (template_matches(pat, *t))
				vec_push(&lines, xstrdup(*t));
	}
	if (!lines.n) {
		diag_error(NULL, "no probe point matches '%s'",
			   s->list_pattern);
		return -1;
	}
	qsort(lines.items, lines.n, sizeof(void *), cmp_str);
	for (i = 0; i < lines.n; i++) {
		if (i == 0 || strcmp(lines.items[i], lines.items[i - 1]))
			strbuf_printf(out, "%s\n", (char *)lines.items[i]);
	}
	for (i = 0; i < lines.n; i++)
		free(lines.items[i]);
	free(lines.items);
	return 0;
}
