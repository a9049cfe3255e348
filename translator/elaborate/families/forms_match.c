/* forms_match.c - probe points with wildcards in their component names
 * (`kerne*.funct*("vfs_read")`, `perf.sw.*`, `kernel.function("f").*`,
 * `perf.**`) matched against the point forms of the families, as
 * SystemTap matches them against its tree of built-in points: each form
 * that matches gives one concrete point, the user's arguments in place.
 */
#include "family.h"
#include "elaborate/aliases.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* One component of a form: "function(STRING)" -> name "function", arg
 * 'S'; "return" -> arg 0. */
struct form_comp {
	char name[64];
	char arg;                   /* 0, 'N' (NUMBER) or 'S' (STRING) */
};

#define MAX_FORM_COMPS 16

/* split_form - the components of form @f into @c; their number, or -1
 * for a form too long to match (none is) */
static int split_form(const char *f, struct form_comp *c)
{
	int n = 0;
	while (*f) {
		size_t k = strcspn(f, ".(");
		if (n == MAX_FORM_COMPS || k >= sizeof(c[n].name))
			return -1;
		memcpy(c[n].name, f, k);
		c[n].name[k] = 0;
		c[n].arg = 0;
		f += k;
		if (*f == '(') {
			c[n].arg = f[1];
			f = strchr(f, ')');
			if (!f)
				return -1;
			f++;
		}
		if (*f == '.')
			f++;
		n++;
	}
	return n;
}

/* arg_fits - the user's argument @a (or none) where the form has @kind */
static int arg_fits(const struct expr *a, char kind)
{
	if (!a || !kind)
		return !a && !kind;
	return kind == (a->kind == E_NUM ? 'N' : 'S');
}

/* match - do the user's components from @ui match the form's from @fi?
 * On success @args[k] is the argument for form component k. */
static int match(const struct probe_point *pp, int ui,
		 const struct form_comp *fc, int nf, int fi,
		 struct expr **args)
{
	struct pp_component *u = ui < pp->components.n ?
		pp->components.items[ui] : NULL;
	int k;
	if (!u)
		return fi == nf;
	if (!strcmp(u->name, "**") && !u->arg) {
		/* any number of the form's components, none with an
		 * argument (the script gives none) */
		for (k = fi; k <= nf; k++) {
			if (k > fi && fc[k - 1].arg)
				break;
			if (match(pp, ui + 1, fc, nf, k, args)) {
				for (int j = fi; j < k; j++)
					args[j] = NULL;
				return 1;
			}
		}
		return 0;
	}
	if (fi == nf || fnmatch(u->name, fc[fi].name, 0) != 0 ||
	    !arg_fits(u->arg, fc[fi].arg))
		return 0;
	args[fi] = u->arg;
	return match(pp, ui + 1, fc, nf, fi + 1, args);
}

int family_wildcard_points(const struct probe_point *pp, struct vec *out)
{
	const char *const *f;
	struct vec seen = {0};
	int n0 = out->n, i;
	for (f = family_templates(); *f; f++) {
		struct form_comp fc[MAX_FORM_COMPS];
		struct expr *args[MAX_FORM_COMPS];
		struct probe_point *q;
		char *text;
		int nf = split_form(*f, fc), dup = 0;
		if (nf < 0 || !match(pp, 0, fc, nf, 0, args))
			continue;
		q = xcalloc(1, sizeof(*q));
		*q = *pp;
		memset(&q->components, 0, sizeof(q->components));
		for (i = 0; i < nf; i++) {
			struct pp_component *c = xcalloc(1, sizeof(*c));
			c->name = xstrdup(fc[i].name);
			c->arg = args[i];
			vec_push(&q->components, c);
		}
		text = probe_point_str(q);
		for (i = 0; i < seen.n && !dup; i++)
			dup = !strcmp(seen.items[i], text);
		if (dup) {
			for (i = 0; i < q->components.n; i++) {
				struct pp_component *c = q->components.items[i];
				free((char *)c->name);
				free(c);
			}
			free(q->components.items);
			free(q);
			free(text);
			continue;
		}
		vec_push(&seen, text);
		vec_push(out, q);
	}
	for (i = 0; i < seen.n; i++)
		free(seen.items[i]);
	free(seen.items);
	return out->n - n0;
}
