/* python_points.c - pass 2: SystemTap's Python probe points
 *
 *   python3.module("MPATTERN").function("PATTERN")[.call|.return]
 *
 * PATTERN is "NAME[@FILE]": NAME a glob on the function's qualified name
 * (co_qualname: "f", "Class.method"), FILE one on its source file; no
 * line part (":LINE", "+OFFSET") is supported.  MPATTERN is a glob on the
 * module name made of the source file's path ("pyexample" for
 * pyexample.py, "json.decoder" for .../json/decoder.py).  SystemTap
 * places these through its HelperSDT C extension; here they are the
 * tapset's frame probes (tapset/python3.stp: __python3.frame.entry,
 * __python3.frame.return, statement probes in CPython's evaluation loop)
 * with a first statement that keeps only the frames named:
 *
 *   if (!_python3_frame_match(frame, "MPATTERN", "NAME", "FILE")) next
 *   module = python3_frame_module(frame)     funcname, qualname,
 *   filename, lineno likewise (lineno: the def line at a call, the line
 *   returned from at a return)
 *   <the probe's body>
 *
 * (the assignments the body does not read are dropped by pass 2).  In
 * the body, $NAME is the Python variable NAME as text and $$parms,
 * $$locals, $$vars the frame's variables (python_var()).
 */
#include "python_points.h"

#include <stdlib.h>
#include <string.h>

static struct pp_component *comp(const struct probe_point *pp, int i)
{
	return i < pp->components.n ? pp->components.items[i] : NULL;
}

static int is(const struct pp_component *c, const char *name)
{
	return c && !strcmp(c->name, name);
}

static struct expr *new_expr(enum expr_kind k, const struct source_loc *loc)
{
	struct expr *e = xcalloc(1, sizeof(*e));
	e->kind = k;
	e->loc = *loc;
	return e;
}

static struct expr *str_expr(const char *s, const struct source_loc *loc)
{
	struct expr *e = new_expr(E_STR, loc);
	e->str = s;
	e->str_len = strlen(s);
	return e;
}

/* frame_sym - the probe's local `frame` (the tapset alias sets it) */
static struct expr *frame_sym(const struct source_loc *loc)
{
	struct expr *e = new_expr(E_SYM, loc);
	e->name = "frame";
	return e;
}

/* frame_call - FN(frame) or, with @m, FN(frame, m, f, file) */
static struct expr *frame_call(const char *fn, const struct source_loc *loc,
			       const char *m, const char *f, const char *file)
{
	struct expr *e = new_expr(E_CALL, loc);
	e->name = fn;
	vec_push(&e->args, frame_sym(loc));
	if (m) {
		vec_push(&e->args, str_expr(m, loc));
		vec_push(&e->args, str_expr(f, loc));
		vec_push(&e->args, str_expr(file, loc));
	}
	return e;
}

static struct stmt *new_stmt(enum stmt_kind k, const struct source_loc *loc)
{
	struct stmt *st = xcalloc(1, sizeof(*st));
	st->kind = k;
	st->loc = *loc;
	return st;
}

/* assign - VAR = FN(frame); */
static struct stmt *assign(const char *var, const char *fn,
			   const struct source_loc *loc)
{
	struct stmt *st = new_stmt(S_EXPR, loc);
	struct expr *a = new_expr(E_ASSIGN, loc), *v = new_expr(E_SYM, loc);
	v->name = var;
	a->a = v;
	a->b = frame_call(fn, loc, NULL, NULL, NULL);
	st->e = a;
	return st;
}

/* literal - the string argument of component @c (named @name in the
 * error) of @pp into *@v, or -1 after an error naming what it should be */
static int literal(struct pp_component *c, const struct probe_point *pp,
		   const char *name, const char *what, const char **v)
{
	if (!c->arg || c->arg->kind != E_STR) {
		diag_error(&pp->loc, "%s needs a string literal: %s", name, what);
		return -1;
	}
	*v = c->arg->str;
	return 0;
}

/* python_var - in a walk over the probe's body: $NAME becomes
 * Py3Object_Repr(python3_get_var_obj(frame, "NAME")), $$parms, $$locals
 * and $$vars python3_get_locals(frame, 0, 1 or 2) (as SystemTap's
 * translator does); *@arg (int) is set after an error */
static void python_var(void *arg, struct expr *e, int *skip)
{
	const char *n = e->name;
	size_t len;
	int which = -1;
	struct expr *obj;
	if (e->kind != E_TARGET || *(int *)arg || !n || n[0] != '$')
		return;
	*skip = 1;
	len = strlen(n);
	while (len > 1 && n[len - 1] == '$')    /* $$parms$, $x$ */
		len--;
	if (n[1] == '$') {
		which = !strncmp(n, "$$parms", len) && len == 7 ? 0 :
			!strncmp(n, "$$locals", len) && len == 8 ? 1 :
			!strncmp(n, "$$vars", len) && len == 6 ? 2 : -1;
		if (which < 0) {
			diag_error(&e->loc, "unknown '%s' in a python3.module(...) "
				   "probe (expected $$parms, $$locals, $$vars or "
				   "$NAME of a Python variable)", n);
			*(int *)arg = 1;
			return;
		}
	} else if (e->components.n || !strncmp(n, "$return", len)) {
		diag_error(&e->loc, "'%s': a python3.module(...) probe gives a "
			   "Python variable as text ($NAME), without members, "
			   "indexes or $return", n);
		*(int *)arg = 1;
		return;
	}
	e->kind = E_CALL;
	memset(&e->args, 0, sizeof(e->args));
	if (which >= 0) {
		struct expr *num = new_expr(E_NUM, &e->loc);
		num->num = which;
		e->name = "python3_get_locals";
		vec_push(&e->args, frame_sym(&e->loc));
		vec_push(&e->args, num);
		return;
	}
	obj = frame_call("python3_get_var_obj", &e->loc, NULL, NULL, NULL);
	vec_push(&obj->args, str_expr(xstrndup(n + 1, len - 1), &e->loc));
	e->name = "Py3Object_Repr";
	vec_push(&e->args, obj);
}

int python_point_rewrite(struct session *s, struct probe *p,
			 struct probe_point *pp, struct probe **out)
{
	struct pp_component *c0 = comp(pp, 0), *c1 = comp(pp, 1),
		*c2 = comp(pp, 2), *c3 = comp(pp, 3);
	const struct source_loc *loc = &pp->loc;
	const char *mod, *pat, *at;
	char *fn, *file;
	int ret;
	struct probe *np;
	struct probe_point *q;
	struct pp_component *qc;
	struct stmt *body, *ifs, *user;
	struct expr *not;
	int bad = 0;

	(void)s;
	*out = NULL;
	if (!(is(c0, "python3") || is(c0, "python2")) || !is(c1, "module"))
		return 0;
	if (is(c0, "python2")) {
		diag_error(loc, "python2.module(...) probes: there is no Python 2 "
			   "here; python3.module(...) traces Debian's python3.11");
		return -1;
	}
	if (literal(c1, pp, "python3.module", "the module name (a glob)", &mod) < 0)
		return -1;
	if (!is(c2, "function")) {
		diag_error(loc, "python3.module(\"%s\") must be followed by "
			   ".function(\"PATTERN\")", mod);
		return -1;
	}
	if (literal(c2, pp, "python3.module(...).function", "the function "
		    "name (a glob), optionally @FILE", &pat) < 0)
		return -1;
	if (c3 && !(is(c3, "call") || is(c3, "return"))) {
		diag_error(loc, "python3.module(...).function(...) may be followed "
			   "by .call or .return only, not .%s", c3->name);
		return -1;
	}
	if (c3 && c3->arg) {
		diag_error(loc, "python3.module(...).function(...).%s takes no "
			   "argument", c3->name);
		return -1;
	}
	if (comp(pp, 4)) {
		diag_error(loc, "python3.module(...).function(...).%s: nothing may "
			   "follow it", c3->name);
		return -1;
	}
	ret = is(c3, "return");
	at = strchr(pat, '@');
	fn = at ? xstrndup(pat, at - pat) : xstrdup(pat);
	file = xstrdup(at ? at + 1 : "");
	if (!*fn || !*mod || strpbrk(file, ":+") || (at && !*file)) {
		diag_error(loc, "python3.module(\"%s\").function(\"%s\"): %s", mod, pat,
			   !*mod ? "empty module name" : !*fn ? "empty function name" :
			   (at && !*file) ? "empty file name after '@'" :
			   "line probes (:LINE, +OFFSET) are not supported");
		free(fn);
		free(file);
		return -1;
	}

	ifs = new_stmt(S_IF, loc);
	not = new_expr(E_UNARY, loc);
	not->op = OP_NOT;
	not->a = frame_call("_python3_frame_match", loc, mod, fn, file);
	ifs->e = not;
	ifs->body = new_stmt(S_NEXT, loc);
	body = new_stmt(S_BLOCK, loc);
	vec_push(&body->stmts, ifs);
	vec_push(&body->stmts, assign("module", "python3_frame_module", loc));
	vec_push(&body->stmts, assign("funcname", "python3_frame_funcname", loc));
	vec_push(&body->stmts, assign("qualname", "python3_frame_qualname", loc));
	vec_push(&body->stmts, assign("filename", "python3_frame_filename", loc));
	vec_push(&body->stmts, assign("lineno", ret ? "python3_frame_lineno" :
				      "python3_frame_firstlineno", loc));
	user = stmt_copy(p->body);
	ast_walk_stmt(user, python_var, &bad);
	if (bad) {
		free(fn);
		free(file);
		return -1;
	}
	vec_push(&body->stmts, user);

	np = xcalloc(1, sizeof(*np));
	np->loc = p->loc;
	np->body = body;
	q = xcalloc(1, sizeof(*q));
	q->loc = pp->loc;
	q->optional = pp->optional;
	qc = xcalloc(1, sizeof(*qc));
	qc->name = "__python3";
	vec_push(&q->components, qc);
	qc = xcalloc(1, sizeof(*qc));
	qc->name = "frame";
	vec_push(&q->components, qc);
	qc = xcalloc(1, sizeof(*qc));
	qc->name = ret ? "return" : "entry";
	vec_push(&q->components, qc);
	vec_push(&np->points, q);
	*out = np;
	return 1;
}
