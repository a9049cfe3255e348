/* aliases.c - pass 2: from the probes of the script to derived probes.
 *
 * Every probe point of a user probe is either
 *   - the name of probe aliases (probe NAME = POINTS { prologue } or
 *     probe NAME += POINTS { epilogue }), defined in the script or a
 *     tapset, matched with the wildcards '*' (within a component) and '**'
 *     (any number of components): each matching alias definition gives a
 *     new probe whose body is the prologue then the user's body, or the
 *     user's body then the epilogue, on the alias's own points, which are
 *     expanded in turn; or
 *   - a point of a probe-point family (families/).
 * A point with '?' that does not resolve is skipped quietly; after a point
 * with '!' that resolves, the probe's later points are skipped.  A
 * condition 'if (EXPR)' becomes a first statement 'if (!(EXPR)) next'.
 */
#include "aliases.h"
#include "elaborate.h"
#include "parse/parse.h"
#include "python_points.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ALIAS_DEPTH 16
/* More alias expansions than this in one script is an error (wildcards
 * in alias definitions could otherwise multiply without end). */
#define MAX_EXPANSIONS 10000

static int expansions;        /* alias expansions so far in this run */
static struct vec active;     /* struct probe_alias *: being expanded */

static struct pp_component *comp(const struct probe_point *pp, int i)
{
	return i < pp->components.n ? pp->components.items[i] : NULL;
}

/* same_arg - 1 if two component arguments (literals or NULL) are equal */
static int same_arg(const struct expr *a, const struct expr *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind)
		return 0;
	if (a->kind == E_NUM)
		return a->num == b->num;
	return a->str_len == b->str_len && !memcmp(a->str, b->str, a->str_len);
}

static int match_from(const struct probe_point *pat, int pi,
		      const struct probe_point *name, int ni);

/* match_across - pattern component @pi holds "**" inside a name
 * ("sys**open", stapprobes): it matches components @ni..k of @name,
 * joined by dots, for some k ("syscall.open"), "**" standing for any
 * text, dots included; only the last of them may have an argument */
static int match_across(const struct probe_point *pat, int pi,
			const struct probe_point *name, int ni)
{
	struct pp_component *pc = comp(pat, pi);
	struct strbuf joined = {0}, glob = {0};
	const char *q;
	int k, r = 0;
	for (q = pc->name; *q; q++)          /* "**" -> "*": fnmatch's '*' */
		if (!(q[0] == '*' && q[1] == '*'))  /* matches '.' already */
			strbuf_addc(&glob, *q);
	for (k = ni; k < name->components.n && !r; k++) {
		struct pp_component *nc = comp(name, k);
		if (k > ni)
			strbuf_addc(&joined, '.');
		strbuf_add(&joined, nc->name);
		if (fnmatch(strbuf_str(&glob), strbuf_str(&joined), 0) == 0 &&
		    (pc->arg ? same_arg(pc->arg, nc->arg) : !nc->arg))
			r = match_from(pat, pi + 1, name, k + 1);
		if (nc->arg)
			break;
	}
	free(joined.s);
	free(glob.s);
	return r;
}

/* match_from - does pattern @pat from component @pi match the alias
 * name @name from component @ni? */
static int match_from(const struct probe_point *pat, int pi,
		      const struct probe_point *name, int ni)
{
	struct pp_component *pc = comp(pat, pi), *nc = comp(name, ni);
	if (!pc)
		return nc == NULL;
	if (!strcmp(pc->name, "**") && !pc->arg) {
		int k;
		for (k = ni; k <= name->components.n; k++)
			if (match_from(pat, pi + 1, name, k))
				return 1;
		return 0;
	}
	if (!nc)
		return 0;
	if (strstr(pc->name, "**"))
		return match_across(pat, pi, name, ni);
	if (fnmatch(pc->name, nc->name, 0) != 0)
		return 0;
	if (pc->arg && !same_arg(pc->arg, nc->arg))
		return 0;
	if (!pc->arg && nc->arg)
		return 0;
	return match_from(pat, pi + 1, name, ni + 1);
}

int pp_matches_alias(const struct probe_point *pat,
		     const struct probe_point *name)
{
	return match_from(pat, 0, name, 0);
}

int pp_has_wildcard(const struct probe_point *pp)
{
	int i;
	for (i = 0; i < pp->components.n; i++)
		if (strpbrk(comp(pp, i)->name, "*?["))
			return 1;
	return 0;
}

/* The aliases of the script and the library sorted by their full name
 * ("syscall.open"), built by expand_user_probes for the lookups of one
 * run: a point without wildcards is looked up by its text. */
struct named_alias {
	char *name;
	struct probe_alias *a;
	int pos;               /* definition order: script, then tapsets */
};
static struct named_alias *index_items;
static int index_n;

static int cmp_named(const void *a, const void *b)
{
	const struct named_alias *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : x->pos - y->pos;
}

/* alias_range - the index entries that may match @pp: those named
 * exactly like it, or all of them when it has wildcards.  Sets *from
 * and returns the count. */
static int alias_range(const struct probe_point *pp, int *from)
{
	int lo = 0, hi = index_n, start;
	char *text;
	if (pp_has_wildcard(pp)) {
		*from = 0;
		return index_n;
	}
	text = probe_point_str(pp);
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (strcmp(index_items[mid].name, text) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	start = lo;
	while (lo < index_n && !strcmp(index_items[lo].name, text))
		lo++;
	free(text);
	*from = start;
	return lo - start;
}

/* collect_aliases - every alias of the script and the library */
static void collect_aliases(struct session *s, struct vec *out)
{
	int i, j;
	for (i = -1; i < s->library.n; i++) {
		struct stapfile *f = i < 0 ? s->user : s->library.items[i];
		for (j = 0; j < f->aliases.n; j++)
			vec_push(out, f->aliases.items[j]);
	}
}

/* alias_prefix_exists - 1 if some alias name starts with component @c0 */
static int alias_prefix_exists(struct session *s, const char *c0)
{
	struct vec al = {0};
	int i, r = 0;
	collect_aliases(s, &al);
	for (i = 0; i < al.n && !r; i++)
		r = !strcmp(comp(((struct probe_alias *)al.items[i])->name, 0)->name, c0);
	free(al.items);
	return r;
}

/* new_probe - a probe with @body on the points @points */
static struct probe *new_probe(const struct source_loc *loc,
			       struct stmt *body)
{
	struct probe *p = xcalloc(1, sizeof(*p));
	p->loc = *loc;
	p->body = body;
	return p;
}

/* block_of - a block of the two statements (either may be NULL) */
static struct stmt *block_of(struct stmt *a, struct stmt *b,
			     const struct source_loc *loc)
{
	struct stmt *blk = xcalloc(1, sizeof(*blk));
	blk->kind = S_BLOCK;
	blk->loc = *loc;
	if (a)
		vec_push(&blk->stmts, a);
	if (b)
		vec_push(&blk->stmts, b);
	return blk;
}

/* is_global_name - 1 if @name is a global of the script or a tapset */
static int is_global_name(struct session *s, const char *name)
{
	int i, j;
	for (i = -1; i < s->library.n; i++) {
		struct stapfile *f = i < 0 ? s->user : s->library.items[i];
		for (j = 0; j < f->globals.n; j++)
			if (!strcmp(((struct sym *)f->globals.items[j])->name, name))
				return 1;
	}
	return 0;
}

/* check_cond - a probe condition reads only globals; 0 or -1 after an
 * error on the first variable that is not one. */
static int check_cond(struct session *s, const struct expr *e)
{
	int i;
	if (!e)
		return 0;
	if (e->kind == E_SYM && !is_global_name(s, e->name)) {
		diag_error(&e->loc, "unknown variable '%s' in a probe "
			   "condition: no global of that name in the script "
			   "or the tapsets", e->name);
		return -1;
	}
	if (e->kind == E_ASSIGN || e->kind == E_INCDEC ||
	    e->kind == E_STATS_ADD) {
		diag_error(&e->loc, "a probe condition cannot change variables");
		return -1;
	}
	if (check_cond(s, e->a) < 0 || check_cond(s, e->b) < 0 ||
	    check_cond(s, e->c) < 0)
		return -1;
	for (i = 0; i < e->args.n; i++)
		if (check_cond(s, e->args.items[i]) < 0)
			return -1;
	return 0;
}

/* guard_body - { if (!(cond)) next; body } */
static struct stmt *guard_body(struct expr *cond, struct stmt *body)
{
	struct stmt *ifs = xcalloc(1, sizeof(*ifs)), *nx = xcalloc(1, sizeof(*nx));
	struct expr *not = xcalloc(1, sizeof(*not));
	not->kind = E_UNARY;
	not->op = OP_NOT;
	not->loc = cond->loc;
	not->a = expr_copy(cond);
	nx->kind = S_NEXT;
	nx->loc = cond->loc;
	ifs->kind = S_IF;
	ifs->loc = cond->loc;
	ifs->e = not;
	ifs->body = nx;
	return block_of(ifs, stmt_copy(body), &body->loc);
}

/* alias_probe - a new probe (no points yet) for alias @a named by point
 * @pp of probe @p: @p's body after @a's (before it for an epilogue
 * alias), guarded by @pp's condition; *@ch = the alias chain
 * "ALIAS <- @chain" (heap). */
static struct probe *alias_probe(struct probe *p, struct probe_alias *a,
				 struct probe_point *pp, const char *chain,
				 char **ch)
{
	char *name = probe_point_str(a->name);
	struct probe *np;
	*ch = chain ? xasprintf("%s <- %s", name, chain) : xstrdup(name);
	free(name);
	np = new_probe(&p->loc, a->epilogue ?
		       block_of(stmt_copy(p->body), stmt_copy(a->body), &p->loc) :
		       block_of(stmt_copy(a->body), stmt_copy(p->body), &p->loc));
	if (pp->cond)
		np->body = guard_body(pp->cond, np->body);
	return np;
}

static int expand_probe(struct session *s, struct probe *p, int depth,
			struct probe_point *user_pp, const char *chain);

/* similar_names - "; similar: a, b" from the families and alias names
 * close to the first component of @pp, or "" */
static char *similar_names(struct session *s, const struct probe_point *pp)
{
	struct strbuf b = {0};
	struct vec al = {0};
	const char *first = comp(pp, 0)->name;
	int i, n = 0;
	family_similar(first, &b, &n);
	collect_aliases(s, &al);
	for (i = 0; i < al.n && n < 8; i++) {
		struct probe_alias *a = al.items[i];
		char *t = probe_point_str(a->name);
		const char *c0 = comp(a->name, 0)->name;
		if ((names_similar(first, c0) || names_similar(first, t)) &&
		    !strstr(strbuf_str(&b), t)) {
			strbuf_printf(&b, "%s%s", n++ ? ", " : "", t);
		}
		free(t);
	}
	free(al.items);
	if (!b.len)
		return strbuf_detach(&b);
	{
		char *r = xasprintf("; similar: %s", b.s);
		free(b.s);
		return r;
	}
}

/* resolve_point - one point @pp of probe @p: derive it into @p, or expand
 * the aliases it names into new probes.  Returns the number of derived
 * probes made (>= 0), or -1 after an error. */
/* resolve_suffix - an alias suffix (SystemTap's): when no alias is
 * named like @pp but one is named like a prefix of it, the rest of @pp's
 * components are appended to each of that alias's points
 * (`probe misc = syscall.{open,read} {}` makes misc.return expand to
 * syscall.open.return and syscall.read.return).  The longest such prefix
 * is used.  Returns the probes made, -1 after an error, -2 when no
 * prefix names an alias. */
static int resolve_suffix(struct session *s, struct probe *p,
			  struct probe_point *pp, int depth,
			  struct probe_point *user_pp, const char *chain)
{
	for (int k = pp->components.n - 1; k >= 1; k--) {
		struct probe_point pre = *pp;
		int from, n, made = 0, matched = 0;
		pre.components.n = k;
		n = alias_range(&pre, &from);
		for (int i = 0; i < n; i++) {
			struct probe_alias *a = index_items[from + i].a;
			struct probe *np;
			char *ch;
			int rc, j, c, seen = 0;
			if (!pp_matches_alias(&pre, a->name))
				continue;
			for (j = 0; j < active.n; j++)
				seen |= active.items[j] == a;
			if (seen || ++expansions > MAX_EXPANSIONS) {
				diag_error(&pp->loc, "probe alias suffix %s: a "
					   "recursive or too large expansion",
					   probe_point_str(pp));
				return -1;
			}
			matched++;
			np = alias_probe(p, a, pp, chain, &ch);
			for (j = 0; j < a->points.n; j++) {
				struct probe_point *t = a->points.items[j];
				struct probe_point *q = xmalloc(sizeof(*q));
				*q = *t;
				memset(&q->components, 0, sizeof(q->components));
				for (c = 0; c < t->components.n; c++)
					vec_push(&q->components, t->components.items[c]);
				for (c = k; c < pp->components.n; c++)
					vec_push(&q->components, pp->components.items[c]);
				q->optional |= pp->optional;
				vec_push(&np->points, q);
			}
			vec_push(&active, a);
			rc = expand_probe(s, np, depth + 1, user_pp ? user_pp : pp, ch);
			active.n--;
			if (rc < 0)
				return -1;
			if (rc > 0)
				vec_push(&s->aliases_used, a);
			made += rc;
		}
		if (matched)
			return made;
	}
	return -2;
}

static int resolve_point(struct session *s, struct probe *p,
			 struct probe_point *pp, int depth,
			 struct probe_point *user_pp, const char *chain)
{
	struct vec al = {0};
	int i, made = 0, matched = 0, d0 = s->derived.n;
	if (!comp(pp, 0))
		return -1;
	if (pp->cond && check_cond(s, pp->cond) < 0)
		return -1;
	if (depth > MAX_ALIAS_DEPTH) {
		diag_error(&pp->loc, "probe alias expansion is more than %d "
			   "deep at %s (a recursive alias?)", MAX_ALIAS_DEPTH,
			   probe_point_str(pp));
		return -1;
	}
	{
		struct probe *np;
		if (python_point_rewrite(s, p, pp, &np) < 0)
			return -1;
		if (np) {
			if (pp->cond)
				np->body = guard_body(pp->cond, np->body);
			return expand_probe(s, np, depth + 1, user_pp ? user_pp : pp, chain);
		}
	}
	{
		int from, n = alias_range(pp, &from);
		for (i = 0; i < n; i++)
			vec_push(&al, index_items[from + i].a);
	}
	for (i = 0; i < al.n; i++) {
		struct probe_alias *a = al.items[i];
		struct probe *np;
		char *ch;
		int rc;
		if (!pp_matches_alias(pp, a->name))
			continue;
		matched++;
		{
			int k;
			for (k = 0; k < active.n; k++)
				if (active.items[k] == a)
					break;
			if (k < active.n) {
				char *an = probe_point_str(a->name);
				diag_error(&pp->loc, "probe alias %s expands to "
					   "itself (a recursive alias)", an);
				diag_note(&a->loc, "the alias is defined here");
				free(an);
				free(al.items);
				return -1;
			}
		}
		if (++expansions > MAX_EXPANSIONS) {
			if (expansions == MAX_EXPANSIONS + 1)
				diag_error(&pp->loc, "the probe aliases expand to "
					   "more than %d probes", MAX_EXPANSIONS);
			free(al.items);
			return -1;
		}
		np = alias_probe(p, a, pp, chain, &ch);
		np->points = a->points;
		vec_push(&active, a);
		rc = expand_probe(s, np, depth + 1, user_pp ? user_pp : pp, ch);
		active.n--;
		if (rc < 0) {
			free(al.items);
			return -1;
		}
		if (rc > 0)
			vec_push(&s->aliases_used, a);
		made += rc;
	}
	free(al.items);
	if (matched)
		return made;
	if (pp->components.n > 1) {
		made = resolve_suffix(s, p, pp, depth, user_pp, chain);
		if (made != -2)
			return made;
	}
	if (pp_has_wildcard(pp) || !family_exists(comp(pp, 0)->name)) {
		char *sim = pp_has_wildcard(pp) ? xstrdup("") : similar_names(s, pp);
		char *t = probe_point_str(pp);
		if (pp_has_wildcard(pp))
			diag_error(&pp->loc, "no probe alias matches %s", t);
		else if (alias_prefix_exists(s, comp(pp, 0)->name))
			diag_error(&pp->loc, "no probe alias %s%s", t, sim);
		else
			diag_error(&pp->loc, "unknown probe point family '%s'%s",
				   comp(pp, 0)->name, sim);
		if (!pp_has_wildcard(pp))
			tapset_explain_missing(s, "probe", t);
		free(sim);
		free(t);
		return -1;
	}
	if (pp->cond) {
		/* a family point with a condition (in the script or in an
		 * alias definition): a probe of its own */
		struct probe *np = new_probe(&p->loc, guard_body(pp->cond, p->body));
		struct probe_point *q = xmalloc(sizeof(*q));
		*q = *pp;
		q->cond = NULL;
		vec_push(&np->points, q);
		np->user_point = user_pp ? user_pp : pp;
		np->alias_chain = chain;
		if (derive_point(s, np, q) < 0)
			return -1;
		np->direct = 1;
		np->listed = 1 + vec_push(&s->probes, np);
		return s->derived.n - d0;
	}
	if (derive_point(s, p, pp) < 0)
		return -1;
	if (s->derived.n > d0)
		p->direct = 1;
	return s->derived.n - d0;
}

/* expand_probe - resolve every point of @p; @p joins s->probes when one
 * of its points derived directly into it.  Returns the number of
 * derived probes made, or -1 after an error. */
static int expand_probe(struct session *s, struct probe *p, int depth,
			struct probe_point *user_pp, const char *chain)
{
	int i, total = 0, failed = 0;
	for (i = 0; i < p->points.n; i++) {
		struct probe_point *pp = p->points.items[i];
		int errs = diag_error_count(), quiet = diag_quiet, rc, d0;
		int optional = pp->optional || pp->sufficient;
		if (optional)
			diag_quiet = 1;
		d0 = s->derived.n;
		rc = resolve_point(s, p, pp, depth, user_pp, chain);
		diag_quiet = quiet;
		if (rc < 0 && optional) {
			diag_rewind(errs);
			s->derived.n = d0 < s->derived.n ? d0 : s->derived.n;
			continue;
		}
		if (rc < 0) {
			failed = 1;
			if (depth > 0)
				break;  /* one error per alias expansion */
			continue;
		}
		total += rc;
		if (pp->sufficient && rc > 0)
			break;
	}
	if (p->direct && !p->listed) {
		p->user_point = user_pp;
		p->alias_chain = chain;
		p->listed = 1 + vec_push(&s->probes, p);
	}
	return failed ? -1 : total;
}

int expand_user_probes(struct session *s)
{
	struct vec all = {0};
	int i, rc = 0;
	collect_aliases(s, &all);
	index_items = xcalloc(all.n + 1, sizeof(*index_items));
	for (i = 0; i < all.n; i++) {
		index_items[i].a = all.items[i];
		index_items[i].name = probe_point_str(index_items[i].a->name);
		index_items[i].pos = i;
	}
	index_n = all.n;
	/* a stable order: by name, then by definition order */
	if (index_n)
		qsort(index_items, index_n, sizeof(*index_items), cmp_named);
	expansions = 0;
	active.n = 0;
	for (i = 0; i < s->user->probes.n && expansions <= MAX_EXPANSIONS; i++)
		if (expand_probe(s, s->user->probes.items[i], 0, NULL, NULL) < 0)
			rc = -1;
	if (expansions > MAX_EXPANSIONS)
		rc = -2;
	for (i = 0; i < index_n; i++)
		free(index_items[i].name);
	free(index_items);
	index_items = NULL;
	index_n = 0;
	free(all.items);
	free(active.items);
	memset(&active, 0, sizeof(active));
	return rc;
}
