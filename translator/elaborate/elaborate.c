/* elaborate.c - pass 2: symbol resolution and type inference.
 *
 * Resolution binds every E_SYM to a struct sym (scope order: the locals
 * and parameters of the enclosing probe or function, then the user
 * script's globals, then tapset globals; an unknown name becomes a new
 * local) and every E_CALL to a function (the user script's first, then the
 * tapsets', matched by name and arity).  Functions and tapset globals are
 * pulled in only when used.  Type inference then iterates to a fixed
 * point, and a last walk reports what stayed unresolved or conflicting.
 */
#include "elaborate.h"
#include "tvar.h"
#include "aliases.h"
#include "parse/parse.h"
#include "warnings.h"
#include "perf_read.h"
#include "pybuild.h"
#include "fold.h"

#include <stdlib.h>
#include <string.h>

/* ---- scope ---------------------------------------------------------- */

struct scope {
	struct session *s;
	struct vec *locals;              /* where new locals go */
	struct functiondecl *func;       /* enclosing function, or NULL */
	struct vec worklist;             /* functions to resolve */
	int loops;                       /* loops around the statement */
};

static struct sym *find_in(struct vec *v, const char *name)
{
	int i;
	for (i = 0; v && i < v->n; i++) {
		struct sym *y = v->items[i];
		if (strcmp(y->name, name) == 0)
			return y;
	}
	return NULL;
}

static void use_global(struct session *s, struct sym *g)
{
	int i;
	for (i = 0; i < s->globals.n; i++)
		if (s->globals.items[i] == g)
			return;
	g->index = s->globals.n;
	vec_push(&s->globals, g);
}

/* The globals and functions of the tapsets by name, in file order, built
 * by elaborate() for its lookups (a tapset library has thousands). */
struct lib_name {
	const char *name;
	void *item;                 /* struct sym * or struct functiondecl * */
	struct lib_name *next;
};
#define LIB_BUCKETS 4096
static struct lib_name **lib_globals, **lib_functions;

static unsigned name_hash(const char *n)
{
	unsigned h = 5381;
	while (*n)
		h = h * 33 + (unsigned char)*n++;
	return h % LIB_BUCKETS;
}

/* build_lib_index - fill the two tables from s->library; the chains keep
 * file order (files are walked backwards, entries pushed in front). */
static void build_lib_index(struct session *s)
{
	int i, j;
	lib_globals = xcalloc(LIB_BUCKETS, sizeof(*lib_globals));
	lib_functions = xcalloc(LIB_BUCKETS, sizeof(*lib_functions));
	for (i = s->library.n - 1; i >= 0; i--) {
		struct stapfile *f = s->library.items[i];
		for (j = f->globals.n - 1; j >= 0; j--) {
			struct sym *g = f->globals.items[j];
			struct lib_name *e = xmalloc(sizeof(*e));
			unsigned h = name_hash(g->name);
			e->name = g->name;
			e->item = g;
			e->next = lib_globals[h];
			lib_globals[h] = e;
		}
		for (j = f->functions.n - 1; j >= 0; j--) {
			struct functiondecl *fn = f->functions.items[j];
			struct lib_name *e = xmalloc(sizeof(*e));
			unsigned h = name_hash(fn->name);
			e->name = fn->name;
			e->item = fn;
			e->next = lib_functions[h];
			lib_functions[h] = e;
		}
	}
}

static void free_lib_index(void)
{
	int i;
	for (i = 0; lib_globals && i < LIB_BUCKETS; i++) {
		struct lib_name *e, *n;
		for (e = lib_globals[i]; e; e = n) {
			n = e->next;
			free(e);
		}
		for (e = lib_functions[i]; e; e = n) {
			n = e->next;
			free(e);
		}
	}
	free(lib_globals);
	free(lib_functions);
	lib_globals = lib_functions = NULL;
}

/* find_global - a global of the user script, else of a tapset. */
static struct sym *find_global(struct session *s, const char *name)
{
	struct sym *g = find_in(&s->user->globals, name);
	struct lib_name *e;
	int i;
	if (g)
		return g;
	if (!lib_globals) {
		for (i = 0; i < s->library.n; i++) {
			g = find_in(&((struct stapfile *)s->library.items[i])->globals,
				    name);
			if (g && !g->is_private)
				return g;
		}
		return NULL;
	}
	for (e = lib_globals[name_hash(name)]; e; e = e->next) {
		g = e->item;
		if (!strcmp(e->name, name) && !g->is_private)
			return g;
	}
	return NULL;
}

static struct sym *lookup_sym(struct scope *sc, const char *name,
			      const struct source_loc *loc, int create)
{
	struct sym *y = NULL;
	if (sc->func)
		y = find_in(&sc->func->params, name);
	if (!y)
		y = find_in(sc->locals, name);
	if (!y) {
		y = find_global(sc->s, name);
		if (y)
			use_global(sc->s, y);
	}
	if (!y && create) {
		y = xcalloc(1, sizeof(*y));
		y->kind = SYM_LOCAL;
		y->name = name;
		y->loc = *loc;
		y->index = sc->locals->n;
		vec_push(sc->locals, y);
	}
	return y;
}

static struct functiondecl *find_function_in(struct stapfile *f,
					     const char *name, int arity)
{
	int i;
	for (i = 0; i < f->functions.n; i++) {
		struct functiondecl *fn = f->functions.items[i];
		if (strcmp(fn->name, name) == 0 && fn->params.n == arity)
			return fn;
	}
	return NULL;
}

/* find_lib_function - the first tapset function of @name and @arity */
static struct functiondecl *find_lib_function(struct session *s,
					      const char *name, int arity)
{
	struct functiondecl *fn = NULL;
	int i;
	if (lib_functions) {
		struct lib_name *e;
		for (e = lib_functions[name_hash(name)]; e; e = e->next) {
			struct functiondecl *f = e->item;
			if (!strcmp(e->name, name) && f->params.n == arity)
				return f;
		}
		return NULL;
	}
	for (i = 0; !fn && i < s->library.n; i++)
		fn = find_function_in(s->library.items[i], name, arity);
	return fn;
}

static struct functiondecl *find_function(struct session *s, const char *name,
					  int arity, int *name_exists)
{
	struct functiondecl *fn = find_function_in(s->user, name, arity);
	int i, j;
	if (lib_functions) {
		struct lib_name *e;
		*name_exists = 0;
		if (fn)
			return fn;
		for (i = 0; i < s->user->functions.n; i++)
			if (!strcmp(((struct functiondecl *)s->user->functions.items[i])->name, name))
				*name_exists = 1;
		for (e = lib_functions[name_hash(name)]; e; e = e->next) {
			struct functiondecl *f = e->item;
			if (strcmp(e->name, name))
				continue;
			*name_exists = 1;
			if (f->params.n == arity)
				return f;
		}
		return NULL;
	}
	for (i = 0; !fn && i < s->library.n; i++)
		fn = find_function_in(s->library.items[i], name, arity);
	*name_exists = 0;
	if (!fn) {
		struct stapfile *f;
		for (i = -1; i < s->library.n && !*name_exists; i++) {
			f = i < 0 ? s->user : s->library.items[i];
			for (j = 0; j < f->functions.n; j++)
				if (!strcmp(((struct functiondecl *)f->functions.items[j])->name, name))
					*name_exists = 1;
		}
	}
	return fn;
}

/* ---- overloads: functions of one name and arity ---------------------- */

/* stmt_has_next - @st runs a `next` statement itself (not in a function
 * it calls: that function's own call site takes it) */
static int stmt_has_next(const struct stmt *st)
{
	int i;
	if (!st)
		return 0;
	if (st->kind == S_NEXT)
		return 1;
	for (i = 0; i < st->stmts.n; i++)
		if (stmt_has_next(st->stmts.items[i]))
			return 1;
	return stmt_has_next(st->body) || stmt_has_next(st->els);
}

int fn_passes_on(const struct functiondecl *fn)
{
	if (fn->embedded_c)
		return strstr(fn->embedded_c, "STAP_NEXT") != NULL;
	return stmt_has_next(fn->body);
}

void push_callees(struct vec *v, const struct expr *e)
{
	int i;
	if (!e->func->overloads.n)
		vec_push(v, e->func);
	for (i = 0; i < e->func->overloads.n; i++)
		vec_push(v, e->func->overloads.items[i]);
}

static int fn_priority(const struct session *s, const struct functiondecl *fn)
{
	int i;
	if (fn->has_priority)
		return fn->priority;
	for (i = 0; i < s->user->functions.n; i++)
		if (s->user->functions.items[i] == fn)
			return 0;
	return 1;
}

/* The tapset functions overload_chain left out because a script's
 * function of the same name and arity never passes the call on: pairs
 * (the script's first, the tapset's), checked by check_shadowed. */
static struct vec shadowed;

/* overload_chain - into @out, the functions a call of @fn's name and
 * arity runs, in order: the script's of that name and arity and the
 * tapsets' first, by priority (function f():N; else 0 in the script, 1
 * in tapsets), then as written; the tapsets' is left out when one
 * before it cannot pass the call on by `next` (gen_call stops there). */
static void overload_chain(struct session *s, struct functiondecl *fn,
			   struct vec *out)
{
	struct functiondecl *lib = find_lib_function(s, fn->name, fn->params.n);
	int i, j;
	for (i = 0; i < s->user->functions.n; i++) {
		struct functiondecl *f = s->user->functions.items[i];
		if (!strcmp(f->name, fn->name) && f->params.n == fn->params.n)
			vec_push(out, f);
	}
	if (lib)
		vec_push(out, lib);
	for (i = 1; i < out->n; i++)             /* stable insertion sort */
		for (j = i; j > 0 && fn_priority(s, out->items[j - 1]) >
				     fn_priority(s, out->items[j]); j--) {
			void *t = out->items[j];
			out->items[j] = out->items[j - 1];
			out->items[j - 1] = t;
		}
	for (i = 0; i < out->n - 1; i++)
		if (!fn_passes_on(out->items[i])) {
			/* the rest never run: the tapsets' is left out, the
			 * script's are still checked */
			for (j = i + 1; j < out->n; j++)
				if (out->items[j] == lib) {
					memmove(&out->items[j], &out->items[j + 1],
						(--out->n - j) * sizeof(void *));
					vec_push(&shadowed, out->items[0]);
					vec_push(&shadowed, lib);
				}
			break;
		}
}

/* check_shadowed - a tapset function left out of a call's overloads is
 * still one of them (SystemTap types a call by all of them): the types
 * it declares must be those of the script's function of its name */
static void check_shadowed(void)
{
	int i, k;
	for (i = 0; i + 1 < shadowed.n; i += 2) {
		struct functiondecl *f = shadowed.items[i];
		struct functiondecl *lib = shadowed.items[i + 1];
		int seen = 0;
		for (k = 0; k < i && !seen; k += 2)
			seen = shadowed.items[k] == f && shadowed.items[k + 1] == lib;
		if (seen)
			continue;
		if (lib->ret != TYPE_UNKNOWN && f->ret != TYPE_UNKNOWN &&
		    lib->ret != f->ret) {
			diag_error(&f->loc, "function '%s' returns a %s, but the "
				   "tapset's %s(), which it overloads, returns a "
				   "%s", f->name, type_name(f->ret), lib->name,
				   type_name(lib->ret));
			diag_note(&lib->loc, "the tapset's %s() is here",
				  lib->name);
		}
		for (k = 0; k < f->params.n && k < lib->params.n; k++) {
			struct sym *a = f->params.items[k];
			struct sym *b = lib->params.items[k];
			if (a->type == TYPE_UNKNOWN || b->type == TYPE_UNKNOWN ||
			    a->type == b->type)
				continue;
			diag_error(&a->loc, "parameter '%s' of %s() is a %s, but "
				   "the tapset's %s(), which it overloads, takes "
				   "a %s there", a->name, f->name,
				   type_name(a->type), lib->name,
				   type_name(b->type));
			diag_note(&lib->loc, "the tapset's %s() is here",
				  lib->name);
		}
	}
}

/* number_overloads - each function's overload_ix: how many functions of
 * its name and arity come before it in @fns (their C names differ) */
static void number_overloads(struct vec *fns)
{
	int i, j;
	for (i = 0; i < fns->n; i++) {
		struct functiondecl *f = fns->items[i];
		f->overload_ix = 0;
		for (j = 0; j < i; j++) {
			struct functiondecl *g = fns->items[j];
			if (!strcmp(f->name, g->name) &&
			    f->params.n == g->params.n)
				f->overload_ix++;
		}
	}
}

/* ---- resolution walk ------------------------------------------------ */

static void resolve_expr(struct scope *sc, struct expr *e, int lvalue);
static void resolve_target_operands(struct scope *sc, struct expr *e);
static void resolve_stmt(struct scope *sc, struct stmt *st);

static void resolve_args(struct scope *sc, struct vec *args)
{
	int i;
	for (i = 0; i < args->n; i++)
		resolve_expr(sc, args->items[i], 0);
}

/* resolve_array - bind the array named by base (an E_SYM) to a global. */
static void resolve_array(struct scope *sc, struct expr *base, int nkeys,
			  int lvalue)
{
	struct sym *y = lookup_sym(sc, base->name, &base->loc, 0);
	if (!y || y->kind != SYM_GLOBAL) {
		diag_error(&base->loc, "'%s' is used as an array but is not a "
			   "global array (declare it: global %s[...])",
			   base->name, base->name);
		return;
	}
	if (y->arity == 0 && !y->written && !y->read && !y->init) {
		y->arity = nkeys;
		y->use_loc = base->loc;
	}
	if (y->arity != nkeys) {
		if (y->arity == 0)
			diag_error(&base->loc, "'%s' is indexed here but is a "
				   "scalar elsewhere", y->name);
		else
			diag_error(&base->loc, "array '%s' is indexed with %d "
				   "key%s here but with %d elsewhere", y->name,
				   nkeys, nkeys == 1 ? "" : "s", y->arity);
		if (y->use_loc.file)
			diag_note(&y->use_loc, "'%s' is first used here", y->name);
		else if (y->init)
			diag_note(&y->loc, "'%s' has an initial value here",
				  y->name);
	}
	base->sym = y;
	if (lvalue)
		y->written = 1;
	else
		y->read = 1;
}

/* resolve_slice_keys - the keys of an access that may be an array slice
 * (delete, membership, foreach): '*' keys are allowed here. */
static void resolve_slice_keys(struct scope *sc, struct vec *args)
{
	int i;
	for (i = 0; i < args->n; i++) {
		struct expr *k = args->items[i];
		if (k->kind != E_WILD)
			resolve_expr(sc, k, 0);
	}
}

static void resolve_call(struct scope *sc, struct expr *e)
{
	int exists;
	struct functiondecl *fn;
	resolve_args(sc, &e->args);
	fn = find_function(sc->s, e->name, e->args.n, &exists);
	if (!fn) {
		if (exists)
			diag_error(&e->loc, "function '%s' is not defined with %d "
				   "argument%s", e->name, e->args.n,
				   e->args.n == 1 ? "" : "s");
		else {
			diag_error(&e->loc, "unresolved function '%s' (not in the "
				   "script nor in any tapset)", e->name);
			tapset_explain_missing(sc->s, "function", e->name);
		}
		return;
	}
	{
		struct vec chain = {0};
		int i;
		overload_chain(sc->s, fn, &chain);
		fn = chain.items[0];
		if (chain.n > 1 && !fn->overloads.n)
			fn->overloads = chain;
		for (i = 0; i < chain.n; i++) {
			struct functiondecl *f = chain.items[i];
			if (!f->used) {
				f->used = 1;
				vec_push(&sc->worklist, f);
			}
		}
		if (chain.items != fn->overloads.items)
			free(chain.items);
	}
	e->func = fn;
}

static void resolve_expr(struct scope *sc, struct expr *e, int lvalue)
{
	struct sym *y;
	if (!e)
		return;
	switch (e->kind) {
	case E_NUM:
	case E_STR:
		break;
	case E_SYM:
		y = lookup_sym(sc, e->name, &e->loc, 1);
		if (y->arity > 0) {
			diag_error(&e->loc, "array '%s' is used without an index",
				   e->name);
			if (y->use_loc.file)
				diag_note(&y->use_loc, "'%s' is first used as an "
					  "array here", y->name);
			break;
		}
		if (!y->use_loc.file)
			y->use_loc = e->loc;
		e->sym = y;
		if (lvalue)
			y->written = 1;
		else if (!y->read++)
			y->read_loc = e->loc;
		break;
	case E_INDEX:
		resolve_args(sc, &e->args);
		if (e->a && e->a->kind == E_HIST) {
			/* @hist_log(s)[BUCKET]: a bucket count */
			if (lvalue)
				diag_error(&e->loc, "a histogram bucket cannot "
					   "be assigned");
			resolve_expr(sc, e->a, 0);
			break;
		}
		resolve_array(sc, e->a, e->args.n, lvalue);
		e->sym = e->a->sym;
		break;
	case E_IN:
		resolve_slice_keys(sc, &e->args);
		resolve_array(sc, e->a, e->args.n, 0);
		e->sym = e->a->sym;
		break;
	case E_INCDEC:
		resolve_expr(sc, e->a, 1);
		if (e->a && e->a->kind == E_SYM && e->a->sym)
			e->a->sym->read = 1;
		break;
	case E_ASSIGN:
		resolve_expr(sc, e->b, 0);
		resolve_expr(sc, e->a, 1);
		if (e->op != OP_NONE && e->a && e->a->sym)
			e->a->sym->read = 1;
		if (e->a && e->a->kind != E_SYM && e->a->kind != E_INDEX &&
		    e->a->kind != E_TARGET)
			diag_error(&e->a->loc, "cannot assign to this expression "
				   "(expected a variable or an array element)");
		break;
	case E_CALL:
		resolve_call(sc, e);
		break;
	case E_PRINT:
		resolve_args(sc, &e->args);
		break;
	case E_STATS_ADD:
		resolve_expr(sc, e->a, 1);
		resolve_expr(sc, e->b, 0);
		if (e->a && (e->a->kind == E_SYM || e->a->kind == E_INDEX) &&
		    e->a->sym && e->a->sym->kind == SYM_PARAM)
			diag_error(&e->a->loc, "'%s' is a function parameter, "
				   "which holds a long or a string, not "
				   "statistics", e->a->sym->name);
		else if (e->a && e->a->kind != E_SYM && e->a->kind != E_INDEX)
			diag_error(&e->loc, "'<<<' needs a global variable or "
				   "array element on its left");
		break;
	case E_DEFINED:
		/* @defined(NAME) / @probewrite(NAME): known now, folded into
		 * a number; @defined($target): 0 until target variables are
		 * supported */
		y = NULL;
		if (e->a && e->a->kind == E_SYM)
			y = lookup_sym(sc, e->a->name, &e->a->loc, 0);
		else if (e->a && e->a->kind != E_TARGET && e->a->kind != E_CAST)
			resolve_expr(sc, e->a, 0);
		e->sym = y;
		if (e->a && e->a->kind != E_SYM && e->a->kind != E_TARGET &&
		    e->a->kind != E_CAST && !e->name)
			y = (struct sym *)1;  /* any other expression is defined */
		if (e->name)
			break;   /* @probewrite: folded by type inference */
		if (e->a && (e->a->kind == E_TARGET || e->a->kind == E_CAST ||
			     (e->a->kind == E_UNARY && e->a->op == OP_BAND))) {
			/* per derived probe, in tvar_check_probe() */
			resolve_target_operands(sc, e->a);
			break;
		}
		e->kind = E_NUM;
		e->num = y != NULL;
		e->a = NULL;
		break;
	case E_BINARY:
	case E_UNARY:
	case E_TERNARY:
	case E_STATOP:
	case E_HIST:
	case E_ENTRY:
		resolve_expr(sc, e->a, 0);
		resolve_expr(sc, e->b, 0);
		resolve_expr(sc, e->c, 0);
		resolve_args(sc, &e->args);
		break;
	case E_TARGET:
	case E_CAST:
		resolve_target_operands(sc, e);
		break;
	case E_PERF:
		/* bound to its counter per probe (perf_read.c) */
		if (sc->func)
			diag_error(&e->loc, "@perf(\"%s\") in function %s: a "
				   "perf counter is read only in the body of "
				   "a process probe (before the body runs)",
				   e->str, sc->func->name);
		break;
	case E_WILD:
		diag_error(&e->loc, "a '*' key is allowed only in an array "
			   "slice: delete A[*, k], [*, k] in A, foreach "
			   "([a, b] in A[*, k])");
		break;
	}
}

/* resolve_target_operands - the script expressions inside a target
 * expression: a @cast's pointer and [index] components. */
static void resolve_target_operands(struct scope *sc, struct expr *e)
{
	int i;
	if (e->kind == E_UNARY)
		e = e->a;
	if (e->kind == E_CAST)
		resolve_expr(sc, e->a, 0);
	for (i = 0; i < e->components.n; i++) {
		struct target_component *c = e->components.items[i];
		if (c->is_index)
			resolve_expr(sc, c->index, 0);
	}
}

static void resolve_stmt(struct scope *sc, struct stmt *st)
{
	int i;
	if (!st)
		return;
	switch (st->kind) {
	case S_BLOCK:
		for (i = 0; i < st->stmts.n; i++)
			resolve_stmt(sc, st->stmts.items[i]);
		break;
	case S_FOREACH:
		if (st->array) {
			resolve_array(sc, st->array, st->keys.n, 0);
		}
		resolve_slice_keys(sc, &st->slice);
		if (st->slice.n && st->slice.n != st->keys.n)
			diag_error(&st->array->loc, "the slice of '%s' has %d "
				   "key%s but the loop binds %d", st->array->name,
				   st->slice.n, st->slice.n == 1 ? "" : "s",
				   st->keys.n);
		for (i = 0; i < st->keys.n; i++)
			resolve_expr(sc, st->keys.items[i], 1);
		if (st->value)
			resolve_expr(sc, st->value, 1);
		resolve_expr(sc, st->limit, 0);
		sc->loops++;
		resolve_stmt(sc, st->body);
		sc->loops--;
		break;
	case S_DELETE:
		if (st->e && st->e->kind == E_SYM) {
			/* delete ARRAY / delete SCALAR: says nothing about
			 * the shape, so it is not a use that fixes the arity
			 * (marked written once the walk is over) */
			struct sym *y = lookup_sym(sc, st->e->name, &st->e->loc, 1);
			st->e->sym = y;
			y->deleted = 1;
			break;
		}
		if (st->e && st->e->kind == E_INDEX && st->e->a &&
		    st->e->a->kind == E_SYM) {
			/* delete A[k...], maybe a slice A[*, k] */
			resolve_slice_keys(sc, &st->e->args);
			resolve_array(sc, st->e->a, st->e->args.n, 1);
			st->e->sym = st->e->a->sym;
			break;
		}
		resolve_expr(sc, st->e, 1);
		break;
	case S_TRY:
		resolve_stmt(sc, st->body);
		if (st->catch_var) {
			struct source_loc l = st->loc;
			st->catch_sym = lookup_sym(sc, st->catch_var, &l, 1);
			st->catch_sym->written = 1;
		}
		resolve_stmt(sc, st->els);
		break;
	case S_BREAK:
	case S_CONTINUE:
		if (!sc->loops)
			diag_error(&st->loc, "'%s' outside a loop",
				   st->kind == S_BREAK ? "break" : "continue");
		break;
	case S_WHILE:
	case S_FOR:
		resolve_expr(sc, st->init, 0);
		resolve_expr(sc, st->e, 0);
		resolve_expr(sc, st->step, 0);
		sc->loops++;
		resolve_stmt(sc, st->body);
		sc->loops--;
		break;
	default:   /* (a 'return' outside functions: refused by pass 1) */
		resolve_expr(sc, st->init, 0);
		resolve_expr(sc, st->e, 0);
		resolve_expr(sc, st->step, 0);
		resolve_stmt(sc, st->body);
		resolve_stmt(sc, st->els);
		break;
	}
}

/* ---- type inference ------------------------------------------------- */

struct infer {
	int changed;
	int report;                  /* last walk: report problems */
	int partial;                 /* resolution failed: report only
	                              * conflicts, not unknown types */
	struct functiondecl *func;
};

/* check_regex - the right side of =~ / !~ must be a literal string
 * holding a valid regular expression (compiled again in pass 3). */
static void check_regex(struct expr *e)
{
	struct rx_prog prog;
	char *err;
	if (e->b->kind != E_STR) {
		diag_error(&e->b->loc, "the regular expression of %s must be "
			   "a literal string", op_text(e->op));
		return;
	}
	if (strlen(e->b->str) != e->b->str_len) {
		diag_error(&e->b->loc, "bad regular expression: it contains "
			   "a NUL byte");
		return;
	}
	if (rx_compile(e->b->str, &prog, &err)) {
		diag_error(&e->b->loc, "%s", err);
		free(err);
		return;
	}
	rx_free(&prog);
}

/* settle - merge type @t into *slot.  Conflicts are reported in the last
 * walk only, naming @what. */
static void settle(struct infer *in, enum stp_type *slot,
		   struct source_loc *slot_loc, enum stp_type t,
		   const struct source_loc *loc, const char *what)
{
	if (t == TYPE_UNKNOWN)
		return;
	if (*slot == TYPE_UNKNOWN) {
		*slot = t;
		if (slot_loc && loc)
			*slot_loc = *loc;
		in->changed = 1;
	} else if (*slot != t && in->report) {
		diag_error(loc, "type mismatch: %s is %s here but %s elsewhere",
			   what, type_name(t), type_name(*slot));
		if (slot_loc && slot_loc->file)
			diag_note(slot_loc, "%s was given type %s here", what,
				  type_name(*slot));
	}
}

/* check_statop_args - @variance(s) or @variance(s, SHIFT) with SHIFT a
 * number literal 0..STAT_MAX_SHIFT; the other aggregates take only the
 * statistic. */
static void check_statop_args(const struct expr *e)
{
	const struct expr *sh;
	if (strcmp(e->name, "variance") != 0) {
		if (e->args.n)
			diag_error(&e->loc, "@%s takes one argument, the "
				   "statistic", e->name);
		return;
	}
	if (e->args.n > 1) {
		diag_error(&e->loc, "@variance takes a statistic and an "
			   "optional bit shift");
		return;
	}
	sh = e->args.n ? e->args.items[0] : NULL;
	if (sh && (sh->kind != E_NUM || sh->num < 0 ||
		   sh->num > STAT_MAX_SHIFT))
		diag_error(&sh->loc, "@variance's bit shift must be a number "
			   "literal from 0 to %d", STAT_MAX_SHIFT);
}

/* check_hist_args - @hist_linear(s, START, STOP, STEP) takes number
 * literals with START below STOP and STEP positive (they size the
 * histogram when the module is built) */
static void check_hist_args(const struct expr *e)
{
	const struct expr *a[3];
	int i;
	if (strcmp(e->name, "hist_linear") || e->args.n != 3)
		return;
	for (i = 0; i < 3; i++) {
		a[i] = e->args.items[i];
		if (a[i]->kind != E_NUM) {
			diag_error(&a[i]->loc, "@hist_linear's start, stop and "
				   "step are number literals");
			return;
		}
	}
	if (a[2]->num <= 0)
		diag_error(&a[2]->loc, "@hist_linear's step must be positive");
	else if (a[1]->num <= a[0]->num)
		diag_error(&a[1]->loc, "@hist_linear's stop must be above its "
			   "start");
}

/* note_sym_type - after a type error on @e, show where the variable @e
 * names got its type. */
static void note_sym_type(const struct expr *e)
{
	const struct sym *y = e ? e->sym : NULL;
	if (y && y->type != TYPE_UNKNOWN && y->type_loc.file &&
	    (y->type_loc.line != e->loc.line || y->type_loc.col != e->loc.col))
		diag_note(&y->type_loc, "'%s' was given type %s here", y->name,
			  type_name(y->type));
}

static enum stp_type infer_expr(struct infer *in, struct expr *e,
				enum stp_type want);

static char *what_sym(const struct sym *y)
{
	return xasprintf("%s '%s'", y->kind == SYM_GLOBAL ? "global" :
			 y->kind == SYM_PARAM ? "parameter" : "variable", y->name);
}

static void infer_keys(struct infer *in, struct expr *e)
{
	int i;
	for (i = 0; i < e->args.n && i < 9; i++) {
		struct expr *k = e->args.items[i];
		enum stp_type t;
		if (!e->sym) {
			infer_expr(in, k, TYPE_UNKNOWN);
			continue;
		}
		t = infer_expr(in, k, e->sym->key_types[i]);
		settle(in, &e->sym->key_types[i], &e->sym->key_loc[i], t,
		       &k->loc, "this array key");
	}
}

/* expect - check that @e (inferred as @t) has type @want, in the last walk */
static void expect(struct infer *in, struct expr *e, enum stp_type want)
{
	if (in->report && e->type != TYPE_UNKNOWN && e->type != want) {
		diag_error(&e->loc, "expected a %s here, found a %s",
			   type_name(want), type_name(e->type));
		note_sym_type(e);
	}
}

static void infer_print(struct infer *in, struct expr *e)
{
	int i, first = 0, is_f = !strcmp(e->name, "printf") ||
		!strcmp(e->name, "sprintf");
	int is_d = !strncmp(e->name, "printd", 6) ||
		!strncmp(e->name, "sprintd", 7);
	if (is_f) {
		struct expr *f = e->args.n ? e->args.items[0] : NULL;
		enum stp_type types[64];
		int n;
		if (!f || f->kind != E_STR)
			return;   /* refused by pass 1 */
		n = printf_arg_types(f->str, f->str_len, types, 64, &f->loc,
				     in->report);
		if (n < 0)
			return;
		if (n != e->args.n - 1 && in->report) {
			diag_error(&e->loc, "the format of %s takes %d argument%s "
				   "but %d %s given", e->name, n,
				   n == 1 ? "" : "s", e->args.n - 1,
				   e->args.n - 1 == 1 ? "is" : "are");
			return;
		}
		for (i = 1; i < e->args.n && i - 1 < n; i++) {
			struct expr *a = e->args.items[i];
			infer_expr(in, a, types[i - 1]);
			expect(in, a, types[i - 1]);
		}
		return;
	}
	if (is_d) {
		if (e->args.n < 2)
			return;   /* refused by pass 1 */
		infer_expr(in, e->args.items[0], TYPE_STRING);
		expect(in, e->args.items[0], TYPE_STRING);
		first = 1;
	}
	for (i = first; i < e->args.n; i++) {
		struct expr *a = e->args.items[i];
		if (infer_expr(in, a, TYPE_UNKNOWN) == TYPE_UNKNOWN &&
		    a->kind != E_HIST && in->report && !in->partial)
			diag_error(&a->loc, "cannot tell the type of this value "
				   "(long or string?)");
		else if (a->type == TYPE_STATS && in->report)
			diag_error(&a->loc, "a statistic cannot be printed "
				   "directly; use @count, @sum, ... on it");
	}
}

static enum stp_type infer_sym_use(struct infer *in, struct expr *e,
				   enum stp_type want)
{
	struct sym *y = e->sym;
	if (!y)
		return TYPE_UNKNOWN;
	if (want != TYPE_UNKNOWN && y->type == TYPE_UNKNOWN) {
		char *w = what_sym(y);
		settle(in, &y->type, &y->type_loc, want, &e->loc, w);
		free(w);
	}
	return y->type;
}

static void infer_target_operands(struct infer *in, struct expr *e)
{
	int i;
	if (!e)
		return;
	if (e->kind == E_UNARY)
		e = e->a;
	if (e->kind == E_CAST)
		infer_expr(in, e->a, TYPE_LONG);
	for (i = 0; i < e->components.n; i++) {
		struct target_component *c = e->components.items[i];
		if (c->is_index)
			infer_expr(in, c->index, TYPE_LONG);
	}
}

/* infer_call - the argument and value types of call @e; its overloads
 * (each function it may run) take the same types */
static enum stp_type infer_call(struct infer *in, struct expr *e,
				enum stp_type want)
{
	struct functiondecl *head = e->func;
	int n = head->overloads.n ? head->overloads.n : 1, i, k;
	enum stp_type t = TYPE_UNKNOWN;
	for (k = 0; k < n; k++) {
		struct functiondecl *fn = head->overloads.n ?
			head->overloads.items[k] : head;
		for (i = 0; i < e->args.n; i++) {
			struct sym *p = fn->params.items[i];
			struct expr *a = e->args.items[i];
			enum stp_type at = infer_expr(in, a, p->type);
			if (at == TYPE_STATS) {
				if (in->report && k == 0)
					diag_error(&a->loc, "a statistic cannot "
						   "be passed to a function; "
						   "pass @count(...), @sum(...)"
						   "...");
				continue;
			}
			char *w = xasprintf("parameter '%s' of %s()", p->name,
					    fn->name);
			settle(in, &p->type, &p->type_loc, at, &a->loc, w);
			free(w);
		}
		if (t == TYPE_UNKNOWN)
			t = fn->ret != TYPE_UNKNOWN ? fn->ret : want;
		if (t != TYPE_UNKNOWN && fn->ret == TYPE_UNKNOWN && fn->body)
			settle(in, &fn->ret, &fn->ret_loc, t, &e->loc,
			       "the function's value");
		else if (t != TYPE_UNKNOWN && fn->ret != TYPE_UNKNOWN &&
			 fn->ret != t && in->report)
			diag_error(&fn->loc, "overloads of %s() return a %s "
				   "and a %s", fn->name, type_name(t),
				   type_name(fn->ret));
	}
	return head->ret;
}

static enum stp_type infer_expr(struct infer *in, struct expr *e,
				enum stp_type want)
{
	enum stp_type t = TYPE_UNKNOWN, ta, tb;
	int i;
	if (!e)
		return TYPE_UNKNOWN;
	switch (e->kind) {
	case E_WILD:          /* any key: its type is the array's */
		break;
	case E_NUM:
		t = TYPE_LONG;
		break;
	case E_STR:
		t = TYPE_STRING;
		break;
	case E_SYM:
		t = infer_sym_use(in, e, want);
		break;
	case E_INDEX:
		if (e->a && e->a->kind == E_HIST) {
			infer_expr(in, e->a, TYPE_UNKNOWN);
			for (i = 0; i < e->args.n; i++) {
				infer_expr(in, e->args.items[i], TYPE_LONG);
				expect(in, e->args.items[i], TYPE_LONG);
			}
			t = TYPE_LONG;
			break;
		}
		infer_keys(in, e);
		t = infer_sym_use(in, e, want);
		break;
	case E_IN:
		infer_keys(in, e);
		t = TYPE_LONG;
		break;
	case E_BINARY:
		switch (e->op) {
		case OP_CONCAT:
		case OP_MATCH:
		case OP_NMATCH:
			infer_expr(in, e->a, TYPE_STRING);
			infer_expr(in, e->b, TYPE_STRING);
			expect(in, e->a, TYPE_STRING);
			expect(in, e->b, TYPE_STRING);
			t = e->op == OP_CONCAT ? TYPE_STRING : TYPE_LONG;
			if (in->report && e->op != OP_CONCAT)
				check_regex(e);
			break;
		case OP_EQ: case OP_NE: case OP_LT:
		case OP_LE: case OP_GT: case OP_GE:
			ta = infer_expr(in, e->a, TYPE_UNKNOWN);
			tb = infer_expr(in, e->b, ta);
			if (ta == TYPE_UNKNOWN && tb != TYPE_UNKNOWN)
				ta = infer_expr(in, e->a, tb);
			if (in->report && ta != tb && ta && tb) {
				diag_error(&e->loc, "comparison of a %s with a "
					   "%s", type_name(ta), type_name(tb));
				note_sym_type(e->a);
				note_sym_type(e->b);
			}
			if (in->report && ta == TYPE_STATS)
				diag_error(&e->loc, "statistics cannot be "
					   "compared");
			t = TYPE_LONG;
			break;
		default:
			infer_expr(in, e->a, TYPE_LONG);
			infer_expr(in, e->b, TYPE_LONG);
			expect(in, e->a, TYPE_LONG);
			expect(in, e->b, TYPE_LONG);
			t = TYPE_LONG;
			break;
		}
		break;
	case E_UNARY:
	case E_INCDEC:
		infer_expr(in, e->a, TYPE_LONG);
		expect(in, e->a, TYPE_LONG);
		t = TYPE_LONG;
		break;
	case E_ASSIGN:
		if (e->op == OP_NONE) {
			ta = infer_expr(in, e->a, want);
			tb = infer_expr(in, e->b, ta);
			if (tb != TYPE_UNKNOWN && ta == TYPE_UNKNOWN)
				ta = infer_expr(in, e->a, tb);
			if (in->report && ta && tb && ta != tb) {
				diag_error(&e->loc, "assignment of a %s to a %s",
					   type_name(tb), type_name(ta));
				note_sym_type(e->a);
			} else if (in->report && ta == TYPE_STATS) {
				diag_error(&e->loc, "statistics cannot be assigned "
					   "('<<<' adds a value; @count, @sum... "
					   "read them)");
			}
			t = ta;
		} else {
			enum stp_type ty = e->op == OP_CONCAT ? TYPE_STRING :
				TYPE_LONG;
			infer_expr(in, e->a, ty);
			infer_expr(in, e->b, ty);
			expect(in, e->a, ty);
			expect(in, e->b, ty);
			t = ty;
		}
		break;
	case E_TERNARY:
		infer_expr(in, e->a, TYPE_LONG);
		expect(in, e->a, TYPE_LONG);
		ta = infer_expr(in, e->b, want);
		tb = infer_expr(in, e->c, ta != TYPE_UNKNOWN ? ta : want);
		if (ta == TYPE_UNKNOWN && tb != TYPE_UNKNOWN)
			ta = infer_expr(in, e->b, tb);
		if (in->report && ta && tb && ta != tb) {
			diag_error(&e->loc, "the branches of ?: are a %s and a "
				   "%s", type_name(ta), type_name(tb));
			note_sym_type(e->b);
			note_sym_type(e->c);
		}
		t = ta;
		break;
	case E_CALL:
		if (!e->func)
			break;
		t = infer_call(in, e, want);
		break;
	case E_PRINT:
		infer_print(in, e);
		t = e->name[0] == 's' ? TYPE_STRING : TYPE_LONG;
		break;
	case E_STATS_ADD:
		if (e->a && e->a->sym) {
			char *w = what_sym(e->a->sym);
			settle(in, &e->a->sym->type, &e->a->sym->type_loc,
			       TYPE_STATS, &e->loc, w);
			free(w);
			if (e->a->kind == E_INDEX)
				infer_keys(in, e->a);
		}
		infer_expr(in, e->b, TYPE_LONG);
		expect(in, e->b, TYPE_LONG);
		t = TYPE_LONG;
		break;
	case E_STATOP:
	case E_HIST:
		ta = infer_expr(in, e->a, TYPE_STATS);
		if (ta != TYPE_UNKNOWN && ta != TYPE_STATS && in->report)
			diag_error(&e->a->loc, "@%s needs a statistic (a "
				   "variable filled with '<<<'), but this is "
				   "a %s", e->name, type_name(ta));
		for (i = 0; i < e->args.n; i++)
			infer_expr(in, e->args.items[i], TYPE_LONG);
		if (e->kind == E_STATOP && in->report)
			check_statop_args(e);
		if (e->kind == E_HIST && in->report)
			check_hist_args(e);
		t = e->kind == E_HIST ? TYPE_UNKNOWN : TYPE_LONG;
		break;
	case E_ENTRY:
		t = infer_expr(in, e->a, want);
		break;
	case E_PERF:
		t = TYPE_LONG;
		break;
	case E_DEFINED:
		if (!e->name) {           /* @defined($target) */
			infer_target_operands(in, e->a);
			t = TYPE_LONG;
			break;
		}
		/* @probewrite(VAR), now that every write was seen */
		e->kind = E_NUM;
		e->num = e->sym && e->sym->written;
		e->a = NULL;
		t = TYPE_LONG;
		break;
	case E_TARGET:
	case E_CAST:
		infer_target_operands(in, e);
		t = tvar_type(e);
		break;
	}
	e->type = t;
	return t;
}

static void infer_stmt(struct infer *in, struct stmt *st)
{
	int i;
	if (!st)
		return;
	switch (st->kind) {
	case S_BLOCK:
		for (i = 0; i < st->stmts.n; i++)
			infer_stmt(in, st->stmts.items[i]);
		break;
	case S_EXPR:
		infer_expr(in, st->e, TYPE_UNKNOWN);
		break;
	case S_IF:
	case S_WHILE:
		infer_expr(in, st->e, TYPE_LONG);
		expect(in, st->e, TYPE_LONG);
		infer_stmt(in, st->body);
		infer_stmt(in, st->els);
		break;
	case S_FOR:
		infer_expr(in, st->init, TYPE_UNKNOWN);
		if (st->e) {
			infer_expr(in, st->e, TYPE_LONG);
			expect(in, st->e, TYPE_LONG);
		}
		infer_expr(in, st->step, TYPE_UNKNOWN);
		infer_stmt(in, st->body);
		break;
	case S_FOREACH: {
		struct sym *a = st->array ? st->array->sym : NULL;
		for (i = 0; a && i < st->keys.n && i < 9; i++) {
			struct expr *k = st->keys.items[i];
			enum stp_type kt = infer_expr(in, k, a->key_types[i]);
			settle(in, &a->key_types[i], &a->key_loc[i], kt,
			       &k->loc, "this array key");
		}
		for (i = 0; a && i < st->slice.n && i < 9; i++) {
			struct expr *k = st->slice.items[i];
			enum stp_type kt = infer_expr(in, k, a->key_types[i]);
			settle(in, &a->key_types[i], &a->key_loc[i], kt,
			       &k->loc, "this array key");
		}
		if (a && st->value) {
			enum stp_type vt = infer_expr(in, st->value, a->type);
			settle(in, &a->type, &a->type_loc, vt, &st->value->loc,
			       "the array value");
		}
		if (a && st->sort_aggr && in->report && a->type != TYPE_STATS &&
		    a->type != TYPE_UNKNOWN)
			diag_error(&st->array->loc, "'%s@%s': only an array of "
				   "statistics can be sorted by an aggregate",
				   a->name, st->sort_aggr);
		if (st->limit) {
			infer_expr(in, st->limit, TYPE_LONG);
			expect(in, st->limit, TYPE_LONG);
		}
		infer_stmt(in, st->body);
		break;
	}
	case S_RETURN:
		if (in->func && st->e) {
			enum stp_type rt = infer_expr(in, st->e, in->func->ret);
			settle(in, &in->func->ret, &in->func->ret_loc, rt,
			       &st->e->loc, "the function's return value");
		}
		break;
	case S_DELETE:
		infer_expr(in, st->e, TYPE_UNKNOWN);
		break;
	case S_TRY:
		infer_stmt(in, st->body);
		if (st->catch_sym)
			settle(in, &st->catch_sym->type,
			       &st->catch_sym->type_loc, TYPE_STRING, &st->loc,
			       "the catch variable");
		infer_stmt(in, st->els);
		break;
	default:
		break;
	}
}

static void check_syms(struct vec *v, const char *where)
{
	int i;
	for (i = 0; i < v->n; i++) {
		struct sym *y = v->items[i];
		if (y->type == TYPE_UNKNOWN)
			diag_error(&y->loc, "cannot tell the type of '%s'%s%s "
				   "(it is never given a long or string value)",
				   y->name, where ? " in " : "", where ? where : "");
	}
}

static void infer_walk(struct infer *in, struct session *s)
{
	int i;
	for (i = 0; i < s->globals.n; i++) {
		struct sym *g = s->globals.items[i];
		if (g->init)
			settle(in, &g->type, &g->type_loc, g->init->kind ==
			       E_STR ? TYPE_STRING : TYPE_LONG, &g->loc, g->name);
	}
	for (i = 0; i < s->probes.n; i++) {
		in->func = NULL;
		infer_stmt(in, ((struct probe *)s->probes.items[i])->body);
	}
	for (i = 0; i < s->functions.n; i++) {
		in->func = s->functions.items[i];
		infer_stmt(in, in->func->body);
	}
}

/* infer_all - infer every type and report conflicts; with @partial
 * (after resolution errors) types that stay unknown are not reported, as
 * they may follow from those errors. */
static void infer_all(struct session *s, int partial)
{
	struct infer in = {0};
	int i, rounds = 0;
	/* every walk can only settle more types, so this terminates */
	do {
		in.changed = 0;
		infer_walk(&in, s);
	} while (in.changed && ++rounds < 1000);
	in.report = 1;
	in.partial = partial;
	infer_walk(&in, s);
	if (partial)
		return;

	for (i = 0; i < s->globals.n; i++) {
		struct sym *g = s->globals.items[i];
		int k;
		if (g->type == TYPE_UNKNOWN)
			diag_error(&g->loc, "cannot tell the type of global '%s'",
				   g->name);
		for (k = 0; k < g->arity; k++)
			if (g->key_types[k] == TYPE_UNKNOWN)
				diag_error(&g->loc, "cannot tell the type of key "
					   "%d of array '%s'", k + 1, g->name);
	}
	for (i = 0; i < s->probes.n; i++)
		check_syms(&((struct probe *)s->probes.items[i])->locals, NULL);
	for (i = 0; i < s->functions.n; i++) {
		struct functiondecl *fn = s->functions.items[i];
		check_syms(&fn->params, fn->name);
		check_syms(&fn->locals, fn->name);
		if (fn->ret == TYPE_UNKNOWN && !fn->body)
			fn->ret = TYPE_LONG;   /* embedded C without a value */
		if (fn->ret == TYPE_UNKNOWN)
			fn->ret = TYPE_LONG;   /* a function returning nothing */
		if (fn->ret == TYPE_STATS)
			diag_error(&fn->loc, "function '%s' cannot return a "
				   "statistic", fn->name);
	}
}

/* ---- driver ----------------------------------------------------------- */

/* resolve_function - bind the symbols of @fn's body (declared parameter
 * and return types count as settled at their declaration). */
static void resolve_function(struct scope *sc, struct functiondecl *fn)
{
	int j;
	for (j = 0; j < fn->params.n; j++) {
		struct sym *p = fn->params.items[j];
		p->kind = SYM_PARAM;
		p->index = j;
		if (p->type != TYPE_UNKNOWN && !p->type_loc.file)
			p->type_loc = p->loc;
	}
	if (fn->ret != TYPE_UNKNOWN && !fn->ret_loc.file)
		fn->ret_loc = fn->loc;
	sc->locals = &fn->locals;
	sc->func = fn;
	resolve_stmt(sc, fn->body);
}

/* check_duplicates - two globals of one file with the same name are an
 * error showing both places.  (Functions of one name and arity are
 * overloads: see overload_chain.) */
static void check_duplicates(struct stapfile *f)
{
	int i, j;
	for (i = 0; i < f->globals.n; i++) {
		struct sym *a = f->globals.items[i];
		for (j = 0; j < i; j++) {
			struct sym *b = f->globals.items[j];
			if (strcmp(a->name, b->name))
				continue;
			diag_error(&a->loc, "global '%s' is declared twice",
				   a->name);
			diag_note(&b->loc, "the first declaration is here");
			break;
		}
	}
}

/* use_all_lib_functions - stap --dump-functions: add to @worklist every
 * public tapset function a call would bind to (the first of a name and
 * arity, as find_function() picks), so that all are resolved and typed. */
static void use_all_lib_functions(struct session *s, struct vec *worklist)
{
	int i, j, exists;
	for (i = 0; i < s->library.n; i++) {
		struct stapfile *f = s->library.items[i];
		for (j = 0; j < f->functions.n; j++) {
			struct functiondecl *fn = f->functions.items[j];
			if (fn->used || fn->is_private ||
			    find_function(s, fn->name, fn->params.n,
					  &exists) != fn)
				continue;
			fn->used = 1;
			vec_push(worklist, fn);
		}
	}
}

/* check_array_options - `global x[SIZE]` and `global x%` (wrap when
 * full) are for arrays: an error on a global used as a scalar */
static void check_array_options(struct session *s)
{
	int i;
	for (i = 0; i < s->globals.n; i++) {
		struct sym *g = s->globals.items[i];
		if (g->arity || !(g->read || g->written) ||
		    !(g->wrap || g->maxsize))
			continue;
		diag_error(&g->loc, "%s is for arrays, but '%s' is used as a "
			   "scalar", g->wrap ? "'%' (wrap when full)" :
			   "an array size", g->name);
		if (g->use_loc.file)
			diag_note(&g->use_loc, "'%s' is used as a scalar here",
				  g->name);
	}
}

/* explain_empty_points - after "the script has no probes": name each
 * point the script wrote (not optional) that resolved, without an
 * error, to nothing: an alias whose points are all optional and absent
 * from the target kernel (syscall.lookup_dcookie on a kernel without
 * that system call), a kprobe.function of a symbol it lacks. */
static void explain_empty_points(struct session *s)
{
	for (int i = 0; i < s->user->probes.n; i++) {
		struct probe *p = s->user->probes.items[i];
		for (int j = 0; j < p->points.n; j++) {
			struct probe_point *pp = p->points.items[j];
			char *t;
			if (pp->optional)
				continue;
			t = probe_point_str(pp);
			diag_note(&pp->loc, "%s resolves to no probe on kernel "
				  "%s: what it stands for is absent from that "
				  "kernel", t,
				  s->kernel_release);
			free(t);
		}
	}
}
/* deleted_written - a 'delete NAME' writes NAME: once every use has fixed
 * the shapes, mark the deleted variables written. */
static void deleted_written(struct session *s)
{
	struct vec *v;
	int i, j, k, f;
	for (f = -1; f < s->library.n; f++) {
		struct stapfile *sf = f < 0 ? s->user : s->library.items[f];
		for (j = 0; j < sf->globals.n; j++) {
			struct sym *y = sf->globals.items[j];
			y->written |= y->deleted;
		}
	}
	for (i = 0; i < s->probes.n + s->functions.n; i++) {
		v = i < s->probes.n ?
			&((struct probe *)s->probes.items[i])->locals :
			&((struct functiondecl *)
			  s->functions.items[i - s->probes.n])->locals;
		for (k = 0; k < v->n; k++) {
			struct sym *y = v->items[k];
			y->written |= y->deleted;
		}
	}
}

int elaborate(struct session *s)
{
	struct scope sc = { .s = s };
	const char *kind = diag_error_kind;
	int i, done, errors0 = diag_error_count(), rc = -1;

	diag_error_kind = "semantic error";
	check_duplicates(s->user);
	/* (embedded C outside guru mode and tapsets: refused by pass 1) */
	/* Globals the user script declares are part of the program even when
	 * unused (so that their initialisers and printing apply); unused ones
	 * are elided later (warnings.c) unless -u. */
	for (i = 0; i < s->user->globals.n; i++)
		use_global(s, s->user->globals.items[i]);

	build_lib_index(s);
	include_tapset_probes(s);
	if (expand_user_probes(s) == -2)
		goto out;
	for (i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		sc.locals = &p->locals;
		sc.func = NULL;
		resolve_stmt(&sc, p->body);
	}
	/* functions called from probes, then from those, ... */
	for (done = 0; done < sc.worklist.n; done++)
		resolve_function(&sc, sc.worklist.items[done]);
	for (i = 0; i < sc.worklist.n; i++)
		((struct functiondecl *)sc.worklist.items[i])->reachable = 1;
	/* user functions are resolved even when unused, to report errors */
	for (i = 0; i < s->user->functions.n; i++) {
		struct functiondecl *fn = s->user->functions.items[i];
		if (!fn->used) {
			fn->used = 1;
			vec_push(&sc.worklist, fn);
		}
	}
	if (s->dump_functions)
		use_all_lib_functions(s, &sc.worklist);
	for (; done < sc.worklist.n; done++)
		resolve_function(&sc, sc.worklist.items[done]);
	number_overloads(&sc.worklist);
	for (i = 0; i < sc.worklist.n; i++)
		vec_push(&s->functions, sc.worklist.items[i]);
	free(sc.worklist.items);
	deleted_written(s);
	check_array_options(s);
	perf_reads_resolve(s);
	privilege_check(s);

	if (s->derived.n == 0 && diag_error_count() == errors0) {
		diag_error(NULL, "the script has no probes");
		explain_empty_points(s);
	}
	if (diag_error_count() != errors0) {
		/* type conflicts are independent errors: report them too */
		infer_all(s, 1);
		goto out;
	}
	autocast_index(s);    /* @defined(p->f) of a local p: fold_constants */
	fold_constants(s);
	elide_unused(s);
	elide_dead_code(s);
	infer_all(s, 0);
	check_shadowed();
	if (diag_error_count() != errors0)
		goto out;
	autocast_index(s);
	tvar_elide_unresolved(s);
	for (i = 0; i < s->probes.n; i++)
		tvar_check_probe(s, s->probes.items[i]);
	for (i = 0; i < s->functions.n; i++) {
		struct functiondecl *fn = s->functions.items[i];
		if (!fn->embedded_c)
			tvar_check_function(s, fn->body);
	}
	if (diag_error_count() != errors0)
		goto out;
	warn_and_elide(s);
	if (py_layouts(s) < 0)
		goto out;
	rc = 0;
out:
	free_lib_index();
	free(shadowed.items);
	memset(&shadowed, 0, sizeof(shadowed));
	diag_error_kind = kind;
	return rc;
}

/* ---- -p2 listing -------------------------------------------------- */

static void list_syms(struct strbuf *out, struct vec *v)
{
	int i;
	for (i = 0; i < v->n; i++) {
		struct sym *y = v->items[i];
		strbuf_printf(out, "%s%s:%s", i ? ", " : "", y->name,
			      type_name(y->type));
	}
}

void pprint_resolved(struct strbuf *out, const struct session *s)
{
	int i, j, k;
	if (s->globals.n)
		strbuf_add(out, "# globals\n");
	for (i = 0; i < s->globals.n; i++) {
		struct sym *g = s->globals.items[i];
		strbuf_printf(out, "%s:%s", g->name, type_name(g->type));
		if (g->arity) {
			strbuf_add(out, " [");
			for (k = 0; k < g->arity; k++)
				strbuf_printf(out, "%s%s", k ? ", " : "",
					      type_name(g->key_types[k]));
			strbuf_add(out, "]");
		}
		strbuf_addc(out, '\n');
	}
	if (s->functions.n)
		strbuf_add(out, "# functions\n");
	for (i = 0; i < s->functions.n; i++) {
		struct functiondecl *fn = s->functions.items[i];
		strbuf_printf(out, "%s:%s (", fn->name, type_name(fn->ret));
		list_syms(out, &fn->params);
		strbuf_add(out, ")\n");
		if (fn->locals.n) {
			strbuf_add(out, "  # locals\n  ");
			list_syms(out, &fn->locals);
			strbuf_addc(out, '\n');
		}
	}
	strbuf_add(out, "# probes\n");
	/* the derived points of each probe, in one pass */
	struct strbuf *pts = xcalloc(s->probes.n + 1, sizeof(*pts));
	struct source_loc *ats = xcalloc(s->probes.n + 1, sizeof(*ats));
	for (j = 0; j < s->derived.n; j++) {
		struct derived_probe *d = s->derived.items[j];
		int k2 = d->probe->listed - 1;
		if (k2 < 0 || k2 >= s->probes.n)
			continue;
		if (!pts[k2].len)
			ats[k2] = d->point->loc;
		strbuf_printf(&pts[k2], "%s%s", pts[k2].len ? ", " : "",
			      d->pp_text);
	}
	for (i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		struct source_loc at = pts[i].len ? ats[i] : p->loc;
		strbuf_add(out, strbuf_str(&pts[i]));
		free(pts[i].s);
		if (p->user_point) {
			char *u = probe_point_str(p->user_point);
			strbuf_printf(out, " /* <- %s", u);
			if (p->alias_chain)
				strbuf_printf(out, " via alias %s", p->alias_chain);
			strbuf_printf(out, " at %s:%d:%d */\n",
				      p->user_point->loc.file,
				      p->user_point->loc.line,
				      p->user_point->loc.col);
			free(u);
		} else {
			strbuf_printf(out, " /* <- %s:%d:%d */\n", at.file,
				      at.line, at.col);
		}
		if (p->locals.n) {
			strbuf_add(out, "  # locals\n  ");
			list_syms(out, &p->locals);
			strbuf_addc(out, '\n');
		}
		if (p->alias_chain || p->user_point)
			pprint_stmt(out, p->body, 0);
	}
	free(pts);
	free(ats);
}
