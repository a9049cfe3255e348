/* procfs.c - procfs("PATH").read / .write probe points (stapprobes(3stap)):
 * a file /proc/systemtap/MODULE/PATH whose read runs the .read probe (the
 * text it gives is what the probe assigns to $value) and whose every
 * write() runs the .write probe with the bytes written in $value.
 *
 *   procfs[("PATH")][.umask(UMASK)].read[.maxsize(MAXSIZE)]
 *   procfs[("PATH")][.umask(UMASK)].write
 *
 * PATH defaults to "command".  $value is rewritten here into calls of the
 * procfs tapset's functions (tapset/procfs.stp): reading it into
 * __procfs_value(), `$value = E` into __procfs_set_value(E) and
 * `$value .= E` into __procfs_append_value(E) (read probes only).
 */
#include "family.h"

#include <stdlib.h>
#include <string.h>

struct value_rewrite {
	int write;        /* a .write probe: $value cannot be assigned */
	int bad;
};

/* rewrite_value - one expression of the body (pre-order walk). */
static void rewrite_value(void *arg, struct expr *e, int *skip)
{
	struct value_rewrite *r = arg;
	struct expr *t = e->kind == E_ASSIGN ? e->a : e;
	const char *fn;
	if (!t || t->kind != E_TARGET || strcmp(t->name, "$value") != 0)
		return;
	if (t->components.n) {
		diag_error(&t->loc, "$value of a procfs probe is a string: "
			   "it has no members or elements");
		r->bad = 1;
		return;
	}
	if (e->kind == E_ASSIGN) {
		if (r->write) {
			diag_error(&e->loc, "$value of a procfs .write probe "
				   "cannot be assigned (it is what was written)");
			r->bad = 1;
			return;
		}
		if (e->op != OP_NONE && e->op != OP_CONCAT) {
			diag_error(&e->loc, "$value of a procfs probe is a "
				   "string: only = and .= assign it");
			r->bad = 1;
			return;
		}
		fn = e->op == OP_CONCAT ? "__procfs_append_value" :
		     "__procfs_set_value";
		e->kind = E_CALL;
		e->name = fn;
		e->op = OP_NONE;
		memset(&e->args, 0, sizeof(e->args));
		vec_push(&e->args, e->b);
		e->a = e->b = NULL;
		return;         /* the walk goes on into the value */
	}
	e->kind = E_CALL;
	e->name = "__procfs_value";
	memset(&e->components, 0, sizeof(e->components));
	*skip = 1;
}

/* valid_path - a file name for /proc/systemtap/MODULE: no directories */
static int valid_path(const char *p)
{
	return *p && !strchr(p, '/') && strcmp(p, ".") && strcmp(p, "..");
}

static int match_procfs(struct session *s, struct probe *p,
			struct probe_point *pp)
{
	struct pp_component *c = pp_comp(pp, 0);
	struct value_rewrite r = {0};
	struct derived_probe *d;
	const char *path = "command";
	int64_t umask = -1, maxsize = 0;
	int i = 1, k;
	if (c->arg && str_arg(c, pp, &path) < 0)
		return -1;
	if (!valid_path(path)) {
		diag_error(&c->arg->loc, "procfs(\"%s\"): the name of a file in "
			   "/proc/systemtap/MODULE (no '/', not empty)", path);
		return -1;
	}
	if (!strcmp(path, "__stdin") && pp->loc.file &&
	    !strstr(pp->loc.file, "input.stp")) {
		diag_error(&c->arg->loc, "procfs(\"__stdin\") is reserved for "
			   "input.char and input.line");
		return -1;
	}
	c = pp_comp(pp, i);
	if (pp_is(c, "umask")) {
		if (num_arg(c, pp, &umask, 1) < 0)
			return -1;
		if (umask < 0 || umask > 0777) {
			diag_error(&c->arg->loc, "procfs umask must be 0 to 0777");
			return -1;
		}
		c = pp_comp(pp, ++i);
	}
	if (!c || c->arg || (!pp_is(c, "read") && !pp_is(c, "write"))) {
		diag_error(&pp->loc, "expected procfs(\"PATH\").read or "
			   ".write in %s", probe_point_str(pp));
		return -1;
	}
	r.write = pp_is(c, "write");
	c = pp_comp(pp, ++i);
	if (!r.write && pp_is(c, "maxsize")) {
		if (num_arg(c, pp, &maxsize, 1) < 0)
			return -1;
		if (maxsize <= 0 || maxsize > 1048576) {
			diag_error(&c->arg->loc, "procfs maxsize must be 1 to "
				   "1048576 bytes");
			return -1;
		}
		i++;
	}
	if (extra_components(pp, i) < 0)
		return -1;
	for (k = 0; k < s->derived.n; k++) {
		struct derived_probe *o = s->derived.items[k];
		if (o->kind == DP_PROCFS && !strcmp(o->symbol, path) &&
		    !o->procfs_write && !r.write) {
			diag_error(&pp->loc, "procfs(\"%s\") already has a "
				   ".read probe (one per file)", path);
			return -1;
		}
	}
	ast_walk_stmt(p->body, rewrite_value, &r);
	if (r.bad)
		return -1;
	d = new_derived(s, DP_PROCFS, p, pp);
	d->symbol = xstrdup(path);
	d->procfs_write = r.write;
	d->procfs_maxsize = maxsize;
	d->procfs_umask = umask;
	return 0;
}

static const char *const procfs_forms[] = {
	"procfs(STRING).read", "procfs(STRING).read.maxsize(NUMBER)",
	"procfs(STRING).umask(NUMBER).read",
	"procfs(STRING).umask(NUMBER).read.maxsize(NUMBER)",
	"procfs(STRING).write", "procfs(STRING).umask(NUMBER).write",
	"procfs.read", "procfs.read.maxsize(NUMBER)", "procfs.umask(NUMBER).read",
	"procfs.umask(NUMBER).read.maxsize(NUMBER)", "procfs.write",
	"procfs.umask(NUMBER).write", NULL,
};

const struct family family_procfs = { "procfs", match_procfs, procfs_forms };
