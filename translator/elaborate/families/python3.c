/* python3.c - the probe points of the python3 tapset's aliases:
 *
 *   __python3_interp.function("F").label("L")[.after]
 *   __python3_interp.mark("NAME")
 *
 * are process("INTERP").function("F").label("L")[.after] and
 * process("INTERP").mark("NAME") in each CPython interpreter the point
 * derives in (elaborate/pybuild.c: those python3("PATH") names around
 * it, else the -c/-x program's, else the system's).  The probes of the
 * system's interpreters, which no one named, are optional at run time:
 * a machine without one of them (a fleet's, with -r) runs the rest. */
#include "family.h"
#include "elaborate/pybuild.h"

#include <stdlib.h>
#include <string.h>

/* process_point - @pp with its first component replaced by
 * process("@target") */
static struct probe_point *process_point(struct probe_point *pp,
					 const char *target)
{
	struct probe_point *q = xmalloc(sizeof(*q));
	struct pp_component *c = xcalloc(1, sizeof(*c));
	struct expr *e = xcalloc(1, sizeof(*e));
	int i;
	*q = *pp;
	memset(&q->components, 0, sizeof(q->components));
	e->kind = E_STR;
	e->loc = pp->loc;
	e->str = xstrdup(target);
	e->str_len = strlen(target);
	c->name = "process";
	c->arg = e;
	vec_push(&q->components, c);
	for (i = 1; i < pp->components.n; i++)
		vec_push(&q->components, pp->components.items[i]);
	return q;
}

static int match_python3(struct session *s, struct probe *p,
			 struct probe_point *pp)
{
	struct vec v = {0};
	int n = py_interps(s, pp, &v), i, k, rc = 0;
	for (i = 0; i < n && rc == 0; i++) {
		struct py_build *b = v.items[i];
		int d0 = s->derived.n;
		rc = family_process.match(s, p, process_point(pp, b->target));
		for (k = d0; k < s->derived.n; k++) {
			struct derived_probe *d = s->derived.items[k];
			d->optional |= !py_named();
		}
	}
	free(v.items);
	return n < 0 ? -1 : rc;
}

static const char *const python3_forms[] = {
	"__python3_interp.function(STRING).label(STRING)",
	"__python3_interp.function(STRING).label(STRING).after",
	"__python3_interp.mark(STRING)",
	NULL,
};

const struct family family_python3 = { "__python3_interp", match_python3,
				       python3_forms };
