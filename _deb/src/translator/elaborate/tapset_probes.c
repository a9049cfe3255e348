/* tapset_probes.c - the probes a tapset file has (not its aliases), as in
 * SystemTap: they become part of the program when the script uses the
 * file -- reads or writes one of its globals, calls one of its
 * functions, or names one of its probe aliases -- directly or through
 * another tapset file's probes pulled in so.  argv.stp fills argv[] from
 * a begin probe, json.stp serves its files from procfs probes. */
#include "elaborate.h"
#include "aliases.h"

#include <stdlib.h>
#include <string.h>

struct names {
	struct vec v;               /* const char *: names the code uses */
};

static int has_name(const struct names *n, const char *s)
{
	for (int i = 0; i < n->v.n; i++)
		if (!strcmp(n->v.items[i], s))
			return 1;
	return 0;
}

static void add_name(struct names *n, const char *s)
{
	if (s && !has_name(n, s))
		vec_push(&n->v, (void *)s);
}

static void collect(void *arg, struct expr *e, int *skip)
{
	(void)skip;
	if (e->kind == E_SYM || e->kind == E_CALL)
		add_name(arg, e->name);
}

/* collect_stmt - the names the expressions of @st use */
static void collect_stmt(struct names *n, struct stmt *st)
{
	if (!st)
		return;
	ast_walk_stmt(st, collect, n);
}

/* collect_arrays - foreach's array operands of @st and its statements */
static void collect_arrays(struct names *n, struct stmt *st)
{
	if (!st)
		return;
	if (st->kind == S_FOREACH && st->array)
		add_name(n, st->array->name);
	for (int i = 0; i < st->stmts.n; i++)
		collect_arrays(n, st->stmts.items[i]);
	collect_arrays(n, st->body);
	collect_arrays(n, st->els);
}

static void collect_probe(struct names *n, struct probe *p)
{
	for (int i = 0; i < p->points.n; i++) {
		struct probe_point *pp = p->points.items[i];
		struct pp_component *c = pp->components.n ?
			pp->components.items[0] : NULL;
		if (c)
			add_name(n, c->name);
	}
	collect_stmt(n, p->body);
	collect_arrays(n, p->body);
}

/* uses_file - does code using @n use tapset file @f? */
static int uses_file(const struct names *n, const struct stapfile *f,
		     const struct stapfile *user)
{
	int i, j;
	for (i = 0; i < f->globals.n; i++) {
		const struct sym *g = f->globals.items[i];
		int own = 0;
		for (j = 0; j < user->globals.n; j++)
			own |= !strcmp(((struct sym *)user->globals.items[j])->name,
				       g->name);
		if (!own && !g->is_private && has_name(n, g->name))
			return 1;
	}
	for (i = 0; i < f->functions.n; i++)
		if (has_name(n, ((struct functiondecl *)f->functions.items[i])->name))
			return 1;
	for (i = 0; i < f->aliases.n; i++) {
		const struct probe_alias *a = f->aliases.items[i];
		const struct pp_component *c = a->name->components.n ?
			a->name->components.items[0] : NULL;
		if (c && has_name(n, c->name))
			return 1;
	}
	return 0;
}

void include_tapset_probes(struct session *s)
{
	struct names n = {0};
	struct vec done = {0};
	int i, j, more;
	for (i = 0; i < s->user->probes.n; i++)
		collect_probe(&n, s->user->probes.items[i]);
	for (i = 0; i < s->user->functions.n; i++) {
		struct functiondecl *fn = s->user->functions.items[i];
		collect_stmt(&n, fn->body);
		collect_arrays(&n, fn->body);
	}
	do {
		more = 0;
		for (i = 0; i < s->library.n; i++) {
			struct stapfile *f = s->library.items[i];
			int seen = 0;
			if (!f->probes.n)
				continue;
			for (j = 0; j < done.n; j++)
				seen |= done.items[j] == f;
			if (seen || !uses_file(&n, f, s->user))
				continue;
			vec_push(&done, f);
			more = 1;
			for (j = 0; j < f->probes.n; j++) {
				vec_push(&s->user->probes, f->probes.items[j]);
				collect_probe(&n, f->probes.items[j]);
			}
			/* its functions may use other files */
			for (j = 0; j < f->functions.n; j++) {
				struct functiondecl *fn = f->functions.items[j];
				collect_stmt(&n, fn->body);
			}
		}
	} while (more);
	free(n.v.items);
	free(done.items);
}
