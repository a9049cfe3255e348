/* tvar.c - target variables, pass 2: what each target expression reads
 * (see "target variables" in elaborate.h).
 *
 * A target expression is a base (a variable found by the provider, a
 * @cast pointer, @var, $return) followed by a chain of ->field and [index]
 * components.  tvar_resolve() follows the chain over struct ctype and
 * records, for each component, the offset or element size and the type
 * it leads to (a struct tv_path); codegen/tvar_gen.c turns that path into
 * C whose every read is a fault-tolerant copy.  Everything that can be
 * wrong with a target expression (an unknown variable or field, indexing
 * a register, using a struct as a number, assigning outside guru mode) is
 * found here, for each derived probe the body runs in.
 */
#include "elaborate.h"
#include "tvar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-derived-probe variable cache ---- */

struct tv_cached {
	const char *name;
	int rc;
	struct dbg_location loc;
	char *why;
};

static struct tv_cached *lookup(struct derived_probe *d, const char *name)
{
	struct vec *v;
	struct tv_cached *t;
	int i;
	if (!d->tvars)
		d->tvars = xcalloc(1, sizeof(struct vec));
	v = d->tvars;
	for (i = 0; i < v->n; i++) {
		t = v->items[i];
		if (!strcmp(t->name, name))
			return t;
	}
	t = xcalloc(1, sizeof(*t));
	t->name = xstrdup(name);
	/* the location literal is substituted per use (tv_path.c_expr) */
	t->rc = d->fn->prov->lookup_var(d->fn->prov, d->fn, name, "LOC",
					&t->loc, &t->why);
	vec_push(v, t);
	return t;
}

/* ---- names and classification ---- */

/* pretty_depth - 1 for $x$ / $$parms$, 2 for $x$$, 0 otherwise */
static int pretty_depth(const char *name)
{
	size_t n = strlen(name);
	if (n >= 3 && name[n - 1] == '$' && name[n - 2] == '$' &&
	    name[n - 3] != '$' && !(n == 3))
		return 2;
	return n >= 2 && name[n - 1] == '$' ? 1 : 0;
}

char *tvar_bare_name(const char *name)
{
	size_t n = strlen(name);
	while (n > 1 && name[n - 1] == '$')
		n--;
	while (*name == '$' && n) {
		name++;
		n--;
	}
	return xstrndup(name, n);
}

int tvar_is_set(const struct expr *e)
{
	return e->kind == E_TARGET && e->name[0] == '$' && e->name[1] == '$';
}

int tvar_is_probe_name(const struct expr *e)
{
	return e->kind == E_TARGET && !strcmp(e->name, "$$name") &&
	       !e->components.n;
}

static const char *last_name(const struct expr *e)
{
	const struct target_component *c;
	if (!e->components.n)
		return e->name;
	c = e->components.items[e->components.n - 1];
	return c->is_index ? "" : c->name;
}

int tvar_pretty_depth(const struct expr *e)
{
	if (tvar_is_set(e))
		return pretty_depth(e->name);
	return pretty_depth(last_name(e));
}

enum stp_type tvar_type(const struct expr *e)
{
	if (e->kind == E_TARGET && (tvar_is_set(e) || pretty_depth(last_name(e))))
		return TYPE_STRING;
	if (e->kind == E_CAST && e->components.n &&
	    pretty_depth(last_name(e)))
		return TYPE_STRING;
	return TYPE_LONG;
}

/* ---- the walk over types ---- */

static struct ctype_member *find_member(struct ctype *t, const char *name,
					uint64_t *off)
{
	int i;
	ctype_members(t);
	for (i = 0; i < t->nmembers; i++) {
		struct ctype_member *m = &t->members[i];
		if (m->name && !strcmp(m->name, name)) {
			*off += m->offset;
			return m;
		}
	}
	for (i = 0; i < t->nmembers; i++) {
		struct ctype_member *m = &t->members[i];
		uint64_t sub = *off + m->offset;
		struct ctype_member *r;
		if (m->name || (m->type->kind != CT_STRUCT &&
				m->type->kind != CT_UNION))
			continue;
		if ((r = find_member(m->type, name, &sub))) {
			*off = sub;
			return r;
		}
	}
	return NULL;
}

static void member_names(struct ctype *t, struct strbuf *b, int *n)
{
	int i;
	ctype_members(t);
	for (i = 0; i < t->nmembers && *n < 12; i++) {
		struct ctype_member *m = &t->members[i];
		if (m->name)
			strbuf_printf(b, "%s%s", (*n)++ ? " " : "", m->name);
		else
			member_names(m->type, b, n);
	}
}

/* A walk: the first error is reported, the rest only counted. */
struct walk {
	int failed;
};

static void walk_error(struct walk *w, const struct source_loc *l,
		       const char *fmt, const char *a, const char *b)
{
	if (!w->failed)
		diag_error(l, fmt, a, b);
	w->failed = 1;
}

/* The position a walk has reached: in memory (DL_ADDR) or a value. */
struct pos {
	int kind;
	struct ctype *t;
	int at_base;	/* no component taken yet */
};

/* step - resolve component @c from @p into a new tv_step; 0, or -1 after
 * a diagnostic */
static int step(struct walk *w, struct pos *p, struct target_component *c,
		struct tv_path *out)
{
	struct tv_step *s = xcalloc(1, sizeof(*s));
	struct ctype *t = p->t;
	if (c->is_index) {
		if (t->kind == CT_ARRAY) {
			if (p->kind != DL_ADDR) {
				walk_error(w, &c->loc, "cannot index an array "
					   "held in a register", NULL, NULL);
				goto fail;
			}
		} else if ((t->kind == CT_STRUCT || t->kind == CT_UNION) &&
			   p->kind == DL_ADDR && t->size && p->at_base) {
			/* @cast(p, "T")[i]: the i-th T of an array at p
			 * (&@cast(0, "T")[1] is sizeof(T)); not a struct
			 * member, which is no array */
			s->is_index = 1;
			s->index = c->index;
			s->n = t->size;
			s->type = t;
			goto indexed;
		} else if (!(t->kind == CT_PTR && t->target &&
			     t->target->kind != CT_VOID)) {
			walk_error(w, &c->loc, "cannot index '%s': not an "
				   "array or pointer", t->name, NULL);
			goto fail;
		}
		s->is_index = 1;
		s->index = c->index;
		s->n = t->target->size;
		s->type = t->target;
	indexed:
		p->kind = DL_ADDR;
	} else {
		char *field = tvar_bare_name(c->name);
		struct ctype_member *m;
		uint64_t off = 0;
		if (t->kind == CT_PTR && t->target &&
		    (t->target->kind == CT_STRUCT || t->target->kind == CT_UNION)) {
			t = t->target;
		} else if (t->kind == CT_STRUCT || t->kind == CT_UNION) {
			if (p->kind != DL_ADDR) {
				walk_error(w, &c->loc, "cannot take field '%s' "
					   "of a struct held in registers", field,
					   NULL);
				free(field);
				goto fail;
			}
		} else {
			walk_error(w, &c->loc, "'%s' has no field '%s': not a "
				   "struct or union", t->name, field);
			free(field);
			goto fail;
		}
		m = find_member(t, field, &off);
		if (!m) {
			struct strbuf b = {0};
			int k = 0;
			member_names(t, &b, &k);
			if (!w->failed) {
				if (ctype_members(t)->nmembers == 0)
					diag_error(&c->loc, "%s has no field '%s' "
						   "(its definition is not known)",
						   t->name, field);
				else
					diag_error(&c->loc, "%s has no field "
						   "'%s' (fields: %s%s)", t->name,
						   field, strbuf_str(&b),
						   k >= 12 ? " ..." : "");
			}
			w->failed = 1;
			free(b.s);
			free(field);
			goto fail;
		}
		free(field);
		s->n = off;
		s->unit = m->type;
		s->type = m->type;
		p->kind = DL_ADDR;
		if (m->bit_size) {
			/* a bitfield: the unit is read, shifted and masked
			 * into a 64-bit value */
			s->bit_size = m->bit_size;
			s->bit_offset = m->bit_offset;
			s->type = xcalloc(1, sizeof(*s->type));
			*s->type = *m->type;
			s->type->size = 8;
			p->kind = DL_VALUE;
		}
	}
	p->t = s->type;
	vec_push(&out->steps, s);
	return 0;
fail:
	free(s);
	return -1;
}

/* final_check - can the position @p be used as @use asks? */
static void final_check(struct walk *w, struct pos *p, enum tv_use use,
			struct tv_path *out, const struct expr *e)
{
	const struct source_loc *l = &e->loc;
	int size, reg;
	switch (use) {
	case TV_PRETTY:
		return;
	case TV_ADDR:
		if (p->kind != DL_ADDR)
			walk_error(w, l, "cannot take the address of a value "
				   "held in a register", NULL, NULL);
		return;
	case TV_STORE:
		if (p->t->kind != CT_INT && p->t->kind != CT_ENUM &&
		    p->t->kind != CT_PTR) {
			walk_error(w, l, "cannot assign a number to %s",
				   p->t->name, NULL);
			return;
		}
		size = p->t->kind == CT_PTR ? 8 : (int)p->t->size;
		if (p->kind == DL_VALUE && !out->steps.n && out->c_expr &&
		    sscanf(out->c_expr, "stp_reg(c, %d)", &reg) == 1 &&
		    !strchr(out->c_expr, '+')) {
			out->store_reg = reg;
			return;
		}
		out->store_reg = -1;
		if (p->kind == DL_ADDR && (size == 1 || size == 2 ||
					   size == 4 || size == 8))
			return;
		walk_error(w, l, "cannot assign to '%s': it is not in a "
			   "register or in memory here", e->name, NULL);
		return;
	case TV_VALUE:
		break;
	}
	if (e->kind == E_CAST && !e->components.n)
		return;            /* @cast(p, "T") alone: the pointer */
	switch (p->t->kind) {
	case CT_INT:
	case CT_ENUM:
	case CT_PTR:
		return;
	case CT_ARRAY:
	case CT_FUNC:
		if (p->kind == DL_ADDR)
			return;
		break;
	default:
		break;
	}
	walk_error(w, l, "cannot use %s as a number (use ->field, & or the "
		   "pretty-printing form $var$)", p->t->name, NULL);
}

/* ---- bases ---- */

/* no_dwarf_why - why user probe @d (without a dbg_function) has no
 * target variables */
static const char *no_dwarf_why(struct derived_probe *d)
{
	if (!d->path)
		return "process(PID) probes built for another machine have no "
		       "target variables (the program is found at module "
		       "start)";
	return "no DWARF for this function of the program (build it with "
	       "-g, or install its debuginfo: -dbg/-dbgsym packages, found "
	       "by build-id under /usr/lib/debug/.build-id)";
}

/* is_user_module - does the module argument @mod of @cast/@var name a
 * user-space program or library: a path ("/usr/bin/ls", "./prog"), a
 * shared library ("libc.so.6"), or, in a process probe, any name but
 * "kernel" when the probed function has DWARF, else a program found in
 * $PATH (as process("NAME") looks it up); elsewhere other names are
 * kernel modules */
static int is_user_module(struct session *s, struct derived_probe *d,
			  const char *mod)
{
	char *t = NULL, *h = NULL, *err = NULL;
	int found;
	if (!mod || !strcmp(mod, "kernel"))
		return 0;
	if (strchr(mod, '/') || strstr(mod, ".so"))
		return 1;
	if (!d || !(d->kind == DP_UPROBE || d->kind == DP_PROC_BEGIN ||
		    d->kind == DP_PROC_END || d->kind == DP_THREAD_BEGIN ||
		    d->kind == DP_THREAD_END))
		return 0;       /* a kernel module's name */
	if (udwarf_is_user(d->fn))
		return 1;
	found = uelf_resolve(mod, s->sysroot, &t, &h, &err) == 0;
	free(t);
	free(h);
	free(err);
	return found;
}

static int base_of(struct walk *w, struct session *s, struct derived_probe *d,
		   struct expr *e, struct tv_path *out);

/* cast_base_of_list - @cast(p, "T", "MOD1:MOD2:...") (langref 5.6.11: a
 * list of modules): T from the first module that has it, else the last
 * one's error */
static int cast_base_of_list(struct walk *w, struct session *s,
			     struct derived_probe *d, struct expr *e,
			     struct tv_path *out)
{
	const char *list = e->module, *p = list;
	int rc = -1;
	while (rc < 0) {
		const char *colon = strchr(p, ':');
		int errs = diag_error_count(), quiet = diag_quiet;
		e->module = colon ? xstrndup(p, colon - p) : p;
		if (colon)
			diag_quiet = 1;    /* a module tried before the last */
		rc = base_of(w, s, d, e, out);
		if (!colon)
			break;
		diag_quiet = quiet;
		diag_rewind(errs);
		w->failed = 0;
		p = colon + 1;
	}
	e->module = list;
	return rc;
}

static int base_of(struct walk *w, struct session *s, struct derived_probe *d,
		   struct expr *e, struct tv_path *out)
{
	if (e->kind == E_CAST && !e->name) {
		/* autocast: OPERAND->field... */
		struct ctype *t = autocast_type(s, d, e);
		if (!t) {
			walk_error(w, &e->loc, "cannot tell what this expression "
				   "points to for '->' (autocast follows target "
				   "variables and @cast through locals and "
				   "function returns; use @cast(EXPR, \"TYPE\"))",
				   NULL, NULL);
			return -1;
		}
		out->kind = DL_ADDR;
		out->cast_operand = e->a;
		out->type = t;
		return 0;
	}
	if (e->kind == E_CAST && e->module && strchr(e->module, ':'))
		return cast_base_of_list(w, s, d, e, out);
	if (e->kind == E_CAST) {
		struct dbg_provider *prov;
		const char *mod = e->module;
		char *tname = xstrdup(e->name), *lt;
		struct ctype *t;
		/* "kernel<linux/fs.h>" names headers for SystemTap's C
		 * fallback; the type comes from debuginfo either way */
		if (mod && (lt = strchr(mod, '<')))
			mod = lt == mod ? NULL : xstrndup(mod, lt - mod);
		if (is_user_module(s, d, mod)) {
			char *why = NULL;
			t = udwarf_lookup_type(s, d ? d->fn : NULL, tname, mod,
					       &why);
			if (!t) {
				walk_error(w, &e->loc, "@cast: %s", why, NULL);
				free(why);
				return -1;
			}
			out->kind = DL_ADDR;
			out->cast_operand = e->a;
			out->type = t;
			return 0;
		}
		if (!(prov = dbg_provider_for(s)))
			return -1;
		t = prov->lookup_type(prov, tname, mod);
		if (!t) {
			walk_error(w, &e->loc, "@cast: unknown type '%s'%s",
				   tname, mod ? " in that module" : "");
			return -1;
		}
		out->kind = DL_ADDR;
		out->cast_operand = e->a;
		out->type = t;
		return 0;
	}
	if (!strcmp(e->name, "@var")) {
		struct dbg_provider *prov = NULL;
		struct dbg_location l;
		char *name = xstrdup(e->str), *file = strchr(name, '@'), *why = NULL;
		if (file)
			*file++ = 0;
		if (is_user_module(s, d, e->module) ||
		    (!e->module && d && udwarf_is_user(d->fn))) {
			if (udwarf_lookup_global(s, d ? d->fn : NULL, name, file,
						 e->module, "LOC", &l,
						 &why) < 0) {
				walk_error(w, &e->loc, "@var(\"%s\"): %s", e->str,
					   why ? why : "not found");
				return -1;
			}
		} else if (!(prov = dbg_provider_for(s))) {
			return -1;
		} else if (!prov->lookup_global ||
		    prov->lookup_global(prov, name, file, e->module, "LOC", &l,
					&why) < 0) {
			walk_error(w, &e->loc, "@var(\"%s\"): %s", e->str,
				   why ? why : "global variables need DWARF "
				   "debuginfo (linux-image-KVER-dbg)");
			return -1;
		}
		out->kind = l.kind;
		out->c_expr = l.c_expr;
		out->type = l.type;
		return 0;
	}
	if (d && !d->fn && d->kind == DP_UPROBE) {
		walk_error(w, &e->loc, "target variable '%s': %s", e->name,
			   no_dwarf_why(d));
		return -1;
	}
	if (!d || !d->fn) {
		walk_error(w, &e->loc, "target variable '%s' is only available "
			   "in probes of kernel.function, kernel.statement or "
			   "kernel.trace", e->name, NULL);
		return -1;
	}
	{
		char *name = tvar_bare_name(e->name);
		struct tv_cached *t;
		if (!strcmp(name, "return")) {
			struct ctype *rt;
			free(name);
			if (!d->is_return) {
				walk_error(w, &e->loc, "$return is only available "
					   "in .return probes", NULL, NULL);
				return -1;
			}
			rt = d->fn->prov->return_type(d->fn->prov, d->fn);
			if (!rt) {
				walk_error(w, &e->loc, "$return: %s returns void",
					   d->fn->name, NULL);
				return -1;
			}
			out->kind = DL_VALUE;
			out->c_expr = "stp_reg(c, 0)";
			out->type = rt;
			return 0;
		}
		t = lookup(d, name);
		free(name);
		if (t->rc < 0) {
			if (!w->failed)
				diag_error(&e->loc, "cannot resolve '%s' in %s: %s",
					   e->name, d->fn->name,
					   t->why ? t->why : "not found");
			w->failed = 1;
			return -1;
		}
		out->kind = t->loc.kind;
		out->c_expr = t->loc.c_expr;
		out->type = t->loc.type;
		return 0;
	}
}

static int resolve(struct walk *w, struct session *s, struct derived_probe *d,
		   struct expr *e, enum tv_use use, struct tv_path *out)
{
	struct pos p;
	int i;
	memset(out, 0, sizeof(*out));
	out->store_reg = -1;
	if (base_of(w, s, d, e, out) < 0)
		return -1;
	out->user = out->type && out->type->user;
	p.kind = out->kind;
	p.t = out->type;
	p.at_base = 1;
	for (i = 0; i < e->components.n; i++, p.at_base = 0)
		if (step(w, &p, e->components.items[i], out) < 0)
			return -1;
	out->final_kind = p.kind;
	out->final_type = p.t;
	final_check(w, &p, use, out, e);
	return w->failed ? -1 : 0;
}

int tvar_resolve(struct session *s, struct derived_probe *d, struct expr *e,
		 enum tv_use use, struct tv_path *out)
{
	struct walk w = {0};
	return resolve(&w, s, d, e, use, out);
}

int tvar_resolve_quiet(struct session *s, struct derived_probe *d,
		       struct expr *e, enum tv_use use, struct tv_path *out)
{
	int errs = diag_error_count(), quiet = diag_quiet, rc;
	diag_quiet = 1;
	rc = tvar_resolve(s, d, e, use, out);
	diag_quiet = quiet;
	diag_rewind(errs);
	return rc;
}

int tvar_resolve_set(struct session *s, struct derived_probe *d,
		     struct expr *e, struct vec *vars)
{
	char *what = tvar_bare_name(e->name);
	int sets[2] = { -1, -1 }, k, i;
	struct vec names = {0};
	if (d && !d->fn && d->kind == DP_UPROBE) {
		diag_error(&e->loc, "'%s': %s", e->name, no_dwarf_why(d));
		free(what);
		return -1;
	}
	if (!d || !d->fn) {
		diag_error(&e->loc, "'%s' is only available in probes of "
			   "kernel.function, kernel.statement or kernel.trace",
			   e->name);
		free(what);
		return -1;
	}
	if (!strcmp(what, "return") && d->is_return &&
	    !d->fn->prov->return_type(d->fn->prov, d->fn)) {
		free(what);     /* a void function: $$return is "" */
		return 0;
	}
	if (!strcmp(what, "return")) {
		struct tv_var *v = xcalloc(1, sizeof(*v));
		struct expr r = *e;
		free(what);
		r.name = "$return";
		r.components.n = 0;
		v->name = "return";
		if (tvar_resolve(s, d, &r, TV_PRETTY, &v->path) < 0) {
			free(v);
			return -1;
		}
		v->ok = 1;
		vec_push(vars, v);
		return 0;
	}
	if (!strcmp(what, "parms") || !strcmp(what, "vars"))
		sets[0] = DBG_PARAMS;
	if (!strcmp(what, "locals") || !strcmp(what, "vars"))
		sets[1] = DBG_LOCALS;
	free(what);
	if (sets[0] < 0 && sets[1] < 0) {
		diag_error(&e->loc, "unknown '%s' (expected $$parms, $$locals, "
			   "$$vars or $$return)", e->name);
		return -1;
	}
	for (k = 0; k < 2; k++)
		if (sets[k] >= 0)
			d->fn->prov->list_vars(d->fn->prov, d->fn, sets[k],
					       &names);
	for (i = 0; i < names.n; i++) {
		struct tv_var *v = xcalloc(1, sizeof(*v));
		struct tv_cached *t = lookup(d, names.items[i]);
		v->name = names.items[i];
		if (t->rc == 0) {
			v->ok = 1;
			v->path.kind = v->path.final_kind = t->loc.kind;
			v->path.c_expr = t->loc.c_expr;
			v->path.type = v->path.final_type = t->loc.type;
			v->path.store_reg = -1;
			v->path.user = t->loc.type && t->loc.type->user;
		}
		vec_push(vars, v);
	}
	free(names.items);
	return 0;
}

/* ---- @defined and constant conditions ---- */

/* defined_in - is target expression @e resolvable for @d? */
static int defined_in(struct session *s, struct derived_probe *d,
		      struct expr *e)
{
	struct tv_path path;
	int ok;
	if (e->kind == E_UNARY)
		e = e->a;
	if (e->kind != E_TARGET && e->kind != E_CAST)
		return 1;
	if (tvar_is_set(e) || pretty_depth(last_name(e)))
		return d && d->fn;
	ok = tvar_resolve_quiet(s, d, e, TV_VALUE, &path) == 0;
	/* a struct is defined even though it is not a number */
	if (!ok && e->components.n == 0 && e->kind == E_TARGET && d && d->fn &&
	    e->name[0] == '$' && e->name[1] != '$') {
		char *n = tvar_bare_name(e->name);
		ok = !strcmp(n, "return") ? d->is_return &&
		     d->fn->prov->return_type(d->fn->prov, d->fn) != NULL
		     : lookup(d, n)->rc == 0;
		free(n);
	}
	return ok;
}

int tvar_defined(struct session *s, struct derived_probe *d, struct expr *e)
{
	return defined_in(s, d, e);
}

int tvar_const_cond(struct session *s, struct derived_probe *d,
		    struct expr *e, int *val)
{
	int a, b;
	if (!e)
		return 0;
	switch (e->kind) {
	case E_NUM:
		*val = e->num != 0;
		return 1;
	case E_DEFINED:
		if (e->name || !e->a)
			return 0;
		*val = defined_in(s, d, e->a);
		return 1;
	case E_UNARY:
		if (e->op != OP_NOT || !tvar_const_cond(s, d, e->a, &a))
			return 0;
		*val = !a;
		return 1;
	case E_BINARY:
		if (e->op != OP_LAND && e->op != OP_LOR)
			return 0;
		if (!tvar_const_cond(s, d, e->a, &a) ||
		    !tvar_const_cond(s, d, e->b, &b))
			return 0;
		*val = e->op == OP_LAND ? a && b : a || b;
		return 1;
	default:
		return 0;
	}
}

/* ---- walking a body ---- */

/* A walk over a body for one derived probe: the branches @defined rules
 * out for it are left out (ast_walk_stmt with dead-branch elimination). */
struct visit {
	struct session *s;
	struct derived_probe *d;    /* for dead-branch elimination, or NULL */
	ast_expr_fn fn;
	void *arg;
};

static void visit_stmt(struct visit *v, struct stmt *st);

/* visit_one - @v's function on @e, then the live arm of a ?: whose
 * condition is decided by @defined */
static void visit_one(void *arg, struct expr *e, int *skip)
{
	struct visit *v = arg;
	int c;
	v->fn(v->arg, e, skip);
	if (*skip || e->kind != E_TERNARY || !v->s ||
	    !tvar_const_cond(v->s, v->d, e->a, &c))
		return;
	*skip = 1;
	ast_walk_expr(c ? e->b : e->c, visit_one, v);
}

static void visit_expr(struct visit *v, struct expr *e)
{
	ast_walk_expr(e, visit_one, v);
}

static void visit_stmt(struct visit *v, struct stmt *st)
{
	int i, c;
	if (!st)
		return;
	if (st->kind == S_IF && v->s && tvar_const_cond(v->s, v->d, st->e, &c)) {
		visit_stmt(v, c ? st->body : st->els);
		return;
	}
	for (i = 0; i < st->stmts.n; i++)
		visit_stmt(v, st->stmts.items[i]);
	visit_expr(v, st->e);
	visit_expr(v, st->init);
	visit_expr(v, st->step);
	visit_expr(v, st->limit);
	for (i = 0; i < st->slice.n; i++)
		visit_expr(v, st->slice.items[i]);
	visit_stmt(v, st->body);
	visit_stmt(v, st->els);
}

static void find_tvar(void *arg, struct expr *e, int *skip)
{
	if (e->kind == E_TARGET && strcmp(e->name, "@var"))
		*(int *)arg = 1;
	/* @var and @cast naming a module: user-space or kernel depends on
	 * the probe (is_user_module) */
	if ((e->kind == E_TARGET || (e->kind == E_CAST && e->name)) &&
	    e->module && strncmp(e->module, "kernel", 6))
		*(int *)arg = 1;
	if (e->kind == E_ENTRY || (e->kind == E_DEFINED && !e->name && e->a &&
				   (e->a->kind == E_TARGET ||
				    e->a->kind == E_UNARY)))
		*(int *)arg = 1;
}

int tvar_probe_per_derived(struct probe *p)
{
	struct visit v = { .fn = find_tvar };
	int found = 0;
	v.arg = &found;
	visit_stmt(&v, p->body);
	return found;
}

/* ---- pass 2 checks ---- */

static int is_return_value(const struct expr *e)
{
	return e->kind == E_TARGET && (!strcmp(e->name, "$return") ||
				       !strncmp(e->name, "$$return", 8) ||
				       !strncmp(e->name, "$return$", 8));
}

int tvar_saved_at_entry(const struct expr *e)
{
	if (e->kind == E_ENTRY)
		return 1;
	if (e->kind == E_UNARY && e->op == OP_BAND && e->a &&
	    e->a->kind == E_TARGET)
		return !is_return_value(e->a) && strcmp(e->a->name, "@var");
	return e->kind == E_TARGET && !is_return_value(e) &&
	       strcmp(e->name, "@var") && !tvar_is_probe_name(e);
}

/* find_local - the first local variable or parameter @e reads */
static void find_local(void *arg, struct expr *e, int *skip)
{
	struct expr **found = arg;
	if (!*found && e->kind == E_SYM && e->sym &&
	    e->sym->kind != SYM_GLOBAL)
		*found = e;
}

struct check {
	struct session *s;
	struct derived_probe *d;
	int in_function;
};

static void check_one(void *arg, struct expr *e, int *skip);

/* check_components - the index expressions of @e's [i] components */
static void check_components(struct check *k, struct expr *e)
{
	int i;
	for (i = 0; i < e->components.n; i++) {
		struct target_component *tc = e->components.items[i];
		if (tc->is_index) {
			struct visit v = { k->s, k->d, check_one, k };
			visit_expr(&v, tc->index);
		}
	}
}

/* check_store - guru mode's assignment @e to target variable @e->a */
static void check_store(struct check *k, struct expr *e)
{
	struct expr *t = e->a;
	struct tv_path path;
	if (k->d && k->d->is_return && tvar_saved_at_entry(t)) {
		diag_error(&e->loc, "cannot assign to '%s' in a .return probe: "
			   "its value was saved at the function's entry "
			   "(only $return can be changed)", t->name);
		return;
	}
	check_components(k, t);
	tvar_resolve(k->s, k->d, t, TV_STORE, &path);
}

static void check_one(void *arg, struct expr *e, int *skip)
{
	struct check *k = arg;
	struct tv_path path;
	enum tv_use use = TV_VALUE;
	if ((e->kind == E_ASSIGN || e->kind == E_INCDEC) && e->a &&
	    e->a->kind == E_TARGET) {
		if (!k->s->guru)
			diag_error(&e->loc, "assigning to target variable '%s' "
				   "needs guru mode (-g)", e->a->name);
		else if (e->kind == E_INCDEC)
			diag_error(&e->loc, "use '%s = %s + 1' to change a target "
				   "variable", e->a->name, e->a->name);
		else if (tvar_is_set(e->a) || pretty_depth(last_name(e->a)))
			diag_error(&e->loc, "cannot assign to '%s'", e->a->name);
		else if (!k->in_function || !strcmp(e->a->name, "@var")) {
			struct visit v = { k->s, k->d, check_one, k };
			check_store(k, e);
			visit_expr(&v, e->b);
			*skip = 1;
			return;
		}
	}
	if (e->kind == E_DEFINED && !e->name) {
		*skip = 1;           /* @defined(...) never fails */
		return;
	}
	if (e->kind == E_ENTRY && ((k->d && !k->d->is_return) ||
				   k->in_function)) {
		diag_error(&e->loc, "@entry is only available in .return "
			   "probes%s", k->in_function ? " (not in functions: "
			   "pass the value from the probe)" : "");
		*skip = 1;
		return;
	}
	if (e->kind == E_ENTRY && e->a) {
		struct expr *local = NULL;
		ast_walk_expr(e->a, find_local, &local);
		if (local) {
			diag_error(&local->loc, "@entry(...) cannot read the "
				   "local '%s': the probe's locals are set after "
				   "the function's entry (save what it needs in "
				   "@entry's own expression)", local->name);
			*skip = 1;
			return;
		}
	}
	if (e->kind == E_UNARY && e->op == OP_BAND) {
		use = TV_ADDR;
		e = e->a;
		*skip = 1;
	}
	if (e->kind != E_TARGET && e->kind != E_CAST)
		return;
	if (k->in_function && e->kind == E_TARGET && strcmp(e->name, "@var")) {
		diag_error(&e->loc, "target variable '%s' in a function: pass "
			   "it from the probe as an argument", e->name);
		*skip = 1;
		return;
	}
	if (e->kind == E_CAST) {
		/* @cast(p, "T", "MOD")->f and autocast p->f: the type and
		 * every field resolve now (SystemTap's pass 2); the cast's
		 * operand is visited on */
		tvar_resolve(k->s, k->d, e, pretty_depth(last_name(e)) ?
			     TV_PRETTY : use, &path);   /* &a->f: TV_ADDR */
		return;
	}
	*skip = 1;
	check_components(k, e);
	if (tvar_is_probe_name(e)) {
		if (!k->d || !k->d->plt)
			diag_error(&e->loc, "'$$name' is only available in "
				   ".plt probes (the PLT entry's symbol)");
		return;
	}
	if (tvar_is_set(e)) {
		char *n = tvar_bare_name(e->name);
		if (k->d && !k->d->fn && k->d->kind == DP_UPROBE)
			diag_error(&e->loc, "'%s': %s", e->name,
				   no_dwarf_why(k->d));
		else if (!k->d || !k->d->fn)
			diag_error(&e->loc, "'%s' is only available in probes of "
				   "kernel.function, kernel.statement or "
				   "kernel.trace", e->name);
		else if (strcmp(n, "parms") && strcmp(n, "locals") &&
			 strcmp(n, "vars") && strcmp(n, "return"))
			diag_error(&e->loc, "unknown '%s' (expected $$parms, "
				   "$$locals, $$vars or $$return)", e->name);
		free(n);
		return;
	}
	if (pretty_depth(last_name(e)))
		use = TV_PRETTY;
	tvar_resolve(k->s, k->d, e, use, &path);
}

void tvar_check_function(struct session *s, struct stmt *body)
{
	struct check k = { s, NULL, 1 };
	struct visit v = { s, NULL, check_one, &k };
	visit_stmt(&v, body);
}

void tvar_check_probe(struct session *s, struct probe *p)
{
	int i;
	if (!tvar_probe_per_derived(p)) {
		struct check k = { s, NULL, 0 };
		struct visit v = { s, NULL, check_one, &k };
		visit_stmt(&v, p->body);
		return;
	}
	for (i = 0; i < s->derived.n; i++) {
		struct derived_probe *d = s->derived.items[i];
		struct check k = { s, d, 0 };
		struct visit v = { s, d, check_one, &k };
		if (d->probe != p)
			continue;
		visit_stmt(&v, p->body);
	}
}

/* ---- .return probes: values saved at the entry ---- */

static void collect_entry(void *arg, struct expr *e, int *skip)
{
	if (e->kind == E_DEFINED) {
		*skip = 1;
		return;
	}
	if (tvar_saved_at_entry(e)) {
		vec_push(arg, e);
		*skip = 1;
	}
}

void tvar_entry_exprs(struct session *s, struct derived_probe *d,
		      struct vec *out)
{
	struct visit v = { s, d, collect_entry, out };
	/* every kretprobe, with debuginfo or not (kprobe.function(...)
	 * .return, the syscall tapset's aliases): @entry needs no DWARF;
	 * and every uretprobe (runtime/uprobes.c keeps the values) */
	if (d->is_return && (d->kind == DP_KPROBE || d->kind == DP_UPROBE))
		visit_stmt(&v, d->probe->body);
}

/* ---- stap -L ---- */

void tvar_list(struct session *s, struct derived_probe *d, struct strbuf *out)
{
	struct vec names = {0};
	int which, i;
	if (!d->fn)
		return;
	for (which = DBG_PARAMS; which <= DBG_LOCALS; which++) {
		d->fn->prov->list_vars(d->fn->prov, d->fn, which, &names);
		for (i = 0; i < names.n; i++) {
			struct tv_cached *t = lookup(d, names.items[i]);
			if (t->rc == 0)
				strbuf_printf(out, " $%s:%s", t->name,
					      t->loc.type->name);
		}
		names.n = 0;
	}
	free(names.items);
}
