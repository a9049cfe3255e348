/* gen_body.c - pass 3: C for statements and expressions.
 *
 * gen_expr emits whatever statements an expression needs (calls, string
 * building, fallible arithmetic) into g->out and returns a C expression
 * for its value that stays valid until the enclosing statement ends.
 */
#include "codegen_int.h"
#include "parse/parse.h"

#include <stdlib.h>
#include <string.h>

char *new_temp(struct gen *g, enum stp_type t)
{
	char *name = xasprintf("t%d", g->ntemps++);
	char *decl = c_type_decl(t == TYPE_STRING ? TYPE_STRING : TYPE_LONG,
				 name);
	strbuf_printf(&g->frame, "\t%s;\n", decl);
	free(decl);
	free(name);
	return xasprintf("f->t%d", g->ntemps - 1);
}

static char *new_label(struct gen *g, const char *what)
{
	return xasprintf("%s_%d", what, g->nlabels++);
}

void check_error(struct gen *g)
{
	emit(g, "if (unlikely(c->error)) goto %s;", g->err_label);
}

static void unsupported(struct gen *g, const struct source_loc *loc,
			const char *what)
{
	diag_error(loc, "%s is not supported yet", what);
	g->failed = 1;
}

/* new_field - a fresh frame field declared as @decl_fmt (one %s for the
 * name) named PREFIX<N>; returns its C lvalue f->PREFIX<N>. */
static char *new_field(struct gen *g, const char *decl_fmt, const char *prefix)
{
	char *name = xasprintf("%s%d", prefix, g->ntemps++), *r;
	strbuf_add(&g->frame, "\t");
	strbuf_printf(&g->frame, decl_fmt, name);
	strbuf_add(&g->frame, ";\n");
	r = xasprintf("f->%s", name);
	free(name);
	return r;
}

/* gen_map_keys - evaluate the keys @args of an access to map global @y into
 * a frame key vector; returns its C expression ("NULL" without keys). */
char *gen_map_keys(struct gen *g, const struct sym *y, struct vec *args)
{
	char *kv, *decl;
	int i;
	if (args->n == 0)
		return xstrdup("NULL");
	decl = xasprintf("union stp_key %%s[%d]", args->n);
	kv = new_field(g, decl, "k");
	free(decl);
	for (i = 0; i < args->n; i++) {
		struct expr *a = args->items[i];
		char *v = gen_expr(g, a);
		int str = a->type == TYPE_STRING ||
			(i < 9 && y->key_types[i] == TYPE_STRING);
		emit(g, "%s[%d].%s = %s;", kv, i, str ? "s" : "l", v);
		free(v);
	}
	return kv;
}

/* slice_mask - the bits of the '*' keys among @args (0: not a slice) */
static unsigned slice_mask(const struct vec *args)
{
	unsigned w = 0;
	int i;
	for (i = 0; i < args->n; i++)
		if (((struct expr *)args->items[i])->kind == E_WILD)
			w |= 1u << i;
	return w;
}

/* gen_slice_keys - as gen_map_keys, for keys that may be '*' (left 0,
 * their bit set in *@wild). */
static char *gen_slice_keys(struct gen *g, const struct sym *y,
			    struct vec *args, unsigned *wild)
{
	struct vec fixed = { 0 };
	struct expr zero = { .kind = E_NUM, .type = TYPE_LONG };
	char *kv;
	int i;
	*wild = slice_mask(args);
	for (i = 0; i < args->n; i++) {
		struct expr *a = args->items[i];
		vec_push(&fixed, a->kind == E_WILD ? &zero : a);
	}
	kv = gen_map_keys(g, y, &fixed);
	free(fixed.items);
	return kv;
}

/* map_name - "&g_NAME" for map global @y. */
static char *map_ref(const struct sym *y)
{
	return xasprintf("&g_%s", y->name);
}

static char *gen_lvalue(struct gen *g, struct expr *e)
{
	if (e->kind == E_SYM && e->sym)
		return var_ref(g, e->sym);
	if (e->kind == E_INDEX && is_map(e->sym) && e->sym->type != TYPE_STATS) {
		char *k = gen_map_keys(g, e->sym, &e->args), *m = map_ref(e->sym);
		char *p = new_field(g, "void *%s", "p"), *l = loc_literal(&e->loc);
		emit(g, "%s = stp_map_ref(c, %s, %s, %s);", p, m, k, l);
		emit(g, "if (unlikely(!%s)) goto %s;", p, g->err_label);
		free(k);
		free(m);
		free(l);
		l = xasprintf(e->sym->type == TYPE_STRING ? "((char *)%s)" :
			      "(*(s64 *)%s)", p);
		free(p);
		return l;
	}
	unsupported(g, &e->loc, "assigning to this kind of expression");
	return xstrdup("f->unused");
}

static const char *statop_c(const char *name)
{
	if (!strcmp(name, "count")) return "STP_STAT_COUNT";
	if (!strcmp(name, "sum")) return "STP_STAT_SUM";
	if (!strcmp(name, "min")) return "STP_STAT_MIN";
	if (!strcmp(name, "max")) return "STP_STAT_MAX";
	if (!strcmp(name, "avg")) return "STP_STAT_AVG";
	if (!strcmp(name, "variance")) return "STP_STAT_VARIANCE";
	return NULL;
}

/* stat_target - the map global and key vector of an aggregate operand
 * (a statistic or an element of a statistics array). */
static const struct sym *stat_target(struct gen *g, struct expr *a, char **keys)
{
	if (a && (a->kind == E_SYM || a->kind == E_INDEX) && is_map(a->sym) &&
	    a->sym->type == TYPE_STATS) {
		*keys = a->kind == E_INDEX ? gen_map_keys(g, a->sym, &a->args) :
			xstrdup("NULL");
		return a->sym;
	}
	unsupported(g, a ? &a->loc : NULL, "this statistics operand");
	*keys = xstrdup("NULL");
	return NULL;
}

/* local_stat - the local statistic (its symbol) operand @a names, or
 * NULL when it is not one. */
static const struct sym *local_stat(const struct expr *a)
{
	if (a && a->kind == E_SYM && a->sym && a->sym->kind != SYM_GLOBAL &&
	    a->sym->type == TYPE_STATS)
		return a->sym;
	return NULL;
}

/* lstat_ref - the struct stp_stat * of local statistic @y (heap). */
static char *lstat_ref(const struct sym *y)
{
	return xasprintf("((struct stp_stat *)f->l_%s)", y->name);
}

/* lstat_hist - the const struct stp_hist * of local statistic @y: a
 * compound literal, or NULL without a histogram (heap). */
static char *lstat_hist(const struct sym *y)
{
	const struct stat_spec *sp = lstat_spec(y);
	char *init, *r;
	if (sp->hist == STAT_HIST_NONE)
		return xstrdup("NULL");
	init = stat_hist_c(sp);
	r = xasprintf("&(const struct stp_hist)%s", init);
	free(init);
	return r;
}

/* gen_local_stat - @e (E_STATOP, E_STATS_ADD, E_HIST) on local
 * statistic @y; @dst as gen_hist's.  Returns its C value. */
static char *gen_local_stat(struct gen *g, struct expr *e,
			    const struct sym *y, const char *dst)
{
	char *r = lstat_ref(y), *h = lstat_hist(y), *l = loc_literal(&e->loc);
	char *t = NULL, *v;
	int shift = lstat_spec(y)->shift;
	if (e->kind == E_STATS_ADD) {
		v = gen_expr(g, e->b);
		emit(g, "stp_stat_add_value(%s, %s, %d, %s);", r, h, shift, v);
		free(v);
	} else if (e->kind == E_HIST) {
		emit(g, "stp_stat_hist_print(c, %s, %s, %s, %s);", r, h,
		     dst ? dst : "NULL", l);
		check_error(g);
	} else if (statop_c(e->name)) {
		t = new_temp(g, TYPE_LONG);
		emit(g, "%s = stp_stat_local_op(c, %s, %d, %s, %s);", t, r,
		     shift, statop_c(e->name), l);
		check_error(g);
	} else {
		unsupported(g, &e->loc, "this statistics operator");
	}
	free(r);
	free(h);
	free(l);
	return t ? t : xstrdup("0");
}

/* gen_hist - @hist_log/@hist_linear @e: printed, or appended to the
 * string @dst when not NULL.  Returns "0". */
static char *gen_hist(struct gen *g, struct expr *e, const char *dst)
{
	char *k, *l;
	const struct sym *y = local_stat(e->a);
	if (y)
		return gen_local_stat(g, e, y, dst);
	l = loc_literal(&e->loc);
	y = stat_target(g, e->a, &k);
	if (y && dst) {
		emit(g, "stp_stat_sprint_hist(c, &g_%s, %s, %s, %s);", y->name,
		     k, dst, l);
		check_error(g);
	} else if (y) {
		emit(g, "stp_stat_print_hist(c, &g_%s, %s, %s);", y->name, k, l);
		check_error(g);
	}
	free(k);
	free(l);
	return xstrdup("0");
}

/* gen_map_expr - reads of array elements, `in`, @ops, `<<<`, @hist_*
 * (of globals; gen_local_stat does local statistics). */
static char *gen_map_expr(struct gen *g, struct expr *e)
{
	const struct sym *y;
	char *k = NULL, *m, *l = loc_literal(&e->loc), *t = NULL, *v;
	switch (e->kind) {
	case E_INDEX:
		if (!is_map(e->sym) || e->sym->type == TYPE_STATS) {
			unsupported(g, &e->loc, "this use of an array element");
			t = xstrdup("0");
			break;
		}
		k = gen_map_keys(g, e->sym, &e->args);
		m = map_ref(e->sym);
		t = new_temp(g, e->sym->type);
		if (e->sym->type == TYPE_STRING)
			emit(g, "stp_strcpy(%s, stp_map_get_str(%s, %s));", t, m, k);
		else
			emit(g, "%s = stp_map_get_long(%s, %s);", t, m, k);
		free(m);
		break;
	case E_IN:
		if (!is_map(e->sym)) {
			unsupported(g, &e->loc, "'in' on this operand");
			t = xstrdup("0");
			break;
		}
		if (slice_mask(&e->args)) {
			unsigned w;
			k = gen_slice_keys(g, e->sym, &e->args, &w);
			m = map_ref(e->sym);
			t = new_temp(g, TYPE_LONG);
			emit(g, "%s = stp_map_slice(%s, %s, 0x%xu, 0);", t, m,
			     k, w);
			free(m);
			break;
		}
		k = gen_map_keys(g, e->sym, &e->args);
		m = map_ref(e->sym);
		t = new_temp(g, TYPE_LONG);
		emit(g, "%s = stp_map_exists(%s, %s);", t, m, k);
		free(m);
		break;
	case E_STATOP:
		y = stat_target(g, e->a, &k);
		t = new_temp(g, TYPE_LONG);
		if (y && statop_c(e->name)) {
			emit(g, "%s = stp_stat_op(c, &g_%s, %s, %s, %s);", t,
			     y->name, k, statop_c(e->name), l);
			check_error(g);
		} else if (y) {
			unsupported(g, &e->loc, "this statistics operator");
		}
		break;
	case E_STATS_ADD:
		y = stat_target(g, e->a, &k);
		v = gen_expr(g, e->b);
		if (y) {
			emit(g, "if (unlikely(stp_stat_add(c, &g_%s, %s, %s, %s))) "
			     "goto %s;", y->name, k, v, l, g->err_label);
		}
		free(v);
		t = xstrdup("0");
		break;
	case E_HIST:
		t = gen_hist(g, e, NULL);
		break;
	default:
		t = xstrdup("0");
		break;
	}
	free(k);
	free(l);
	return t;
}

/* gen_printf_args - the kernel format (into @kfmt) and C arguments
 * (appended to @argv with leading ", ") of the plain format piece
 * [@start, @end) of the printf-style call @e, whose values start at
 * argument *@next (advanced past the ones used). */
static void gen_printf_args(struct gen *g, struct expr *e, size_t start,
			    size_t end, int *next, struct strbuf *kfmt,
			    struct strbuf *argv)
{
	struct expr *f = e->args.items[0];
	struct fmt_arg fa[64];
	int n = 0, i;
	char *k = printf_to_kernel(f->str + start, end - start, fa, 64, &n);
	strbuf_add(kfmt, k);
	free(k);
	for (i = 0; i < n && *next < e->args.n; i++) {
		char *v = gen_expr(g, e->args.items[(*next)++]);
		if (fa[i].conv == '*' || fa[i].conv == 'c')
			strbuf_printf(argv, ", (int)(%s)", v);
		else if (fa[i].type == TYPE_STRING)
			strbuf_printf(argv, ", %s", v);
		else
			strbuf_printf(argv, ", (long long)(%s)", v);
		free(v);
	}
}

/* gen_printf_pieces - printf/sprintf with %b/%m/%M: each piece printed
 * (or appended to the string @dst) in turn. */
static void gen_printf_pieces(struct gen *g, struct expr *e, const char *dst)
{
	struct expr *f = e->args.items[0];
	struct fmt_piece pc;
	size_t pos = 0;
	int next = 1;
	char *l = loc_literal(&e->loc);
	if (dst)
		emit(g, "%s[0] = '\\0';", dst);
	while (printf_next_piece(f->str, f->str_len, pos, &pc) == 0) {
		pos = pc.end;
		if (!pc.special) {
			struct strbuf kfmt = {0}, argv = {0};
			char *q;
			gen_printf_args(g, e, pc.start, pc.end, &next, &kfmt, &argv);
			q = c_quote(strbuf_str(&kfmt), kfmt.len);
			if (dst)
				emit(g, "stp_sprintf_cat(%s, %s%s);", dst, q,
				     strbuf_str(&argv));
			else
				emit(g, "stp_printf(c, %s%s);", q, strbuf_str(&argv));
			free(q);
			free(kfmt.s);
			free(argv.s);
		} else {
			char *w = NULL, *p = NULL, *v = NULL, *fl;
			if (pc.width == -2 && next < e->args.n)
				w = gen_expr(g, e->args.items[next++]);
			if (pc.prec == -2 && next < e->args.n)
				p = gen_expr(g, e->args.items[next++]);
			if (next < e->args.n)
				v = gen_expr(g, e->args.items[next++]);
			fl = c_quote(pc.flags, strlen(pc.flags));
			if (!w)
				w = xasprintf("%ld", pc.width);
			if (!p)
				p = xasprintf("%ld", pc.prec);
			emit(g, "stp_format_special(c, %s, '%c', %s, (int)(%s), "
			     "(int)(%s), %s, %s);", dst ? dst : "NULL", pc.conv,
			     fl, w, p, v ? v : "0", l);
			check_error(g);
			free(w);
			free(p);
			free(v);
			free(fl);
		}
	}
	free(l);
}

/* gen_concat_args - kernel format and arguments printing each value of
 * e->args from @first in turn, with @delim (a C string expression, or
 * NULL) between them. */
static void gen_value_list(struct gen *g, struct expr *e, int first,
			   const char *delim, struct strbuf *kfmt,
			   struct strbuf *argv)
{
	int i;
	for (i = first; i < e->args.n; i++) {
		struct expr *a = e->args.items[i];
		char *v = gen_expr(g, a);
		if (delim && i > first) {
			strbuf_add(kfmt, "%s");
			strbuf_printf(argv, ", %s", delim);
		}
		if (a->type == TYPE_STRING) {
			strbuf_add(kfmt, "%s");
			strbuf_printf(argv, ", %s", v);
		} else {
			strbuf_add(kfmt, "%lld");
			strbuf_printf(argv, ", (long long)(%s)", v);
		}
		free(v);
	}
}

/* gen_print_hist - [s]print/[s]println whose arguments include
 * @hist_*: each argument printed (@to_str: appended to a string
 * temporary, which is returned) in turn. */
static char *gen_print_hist(struct gen *g, struct expr *e, int to_str)
{
	char *res = to_str ? new_temp(g, TYPE_STRING) : NULL;
	int i;
	if (res)
		emit(g, "%s[0] = '\\0';", res);
	for (i = 0; i < e->args.n; i++) {
		struct expr *a = e->args.items[i];
		char *v = a->kind == E_HIST ? gen_hist(g, a, res) :
			gen_expr(g, a);
		if (a->kind == E_HIST)
			;
		else if (a->type == TYPE_STRING && res)
			emit(g, "stp_strcat(%s, %s);", res, v);
		else if (a->type == TYPE_STRING)
			emit(g, "stp_print_str(c, %s);", v);
		else if (res)
			emit(g, "stp_sprintf_cat(%s, \"%%lld\", (long long)(%s));",
			     res, v);
		else
			emit(g, "stp_printf(c, \"%%lld\", (long long)(%s));", v);
		free(v);
	}
	if (strstr(e->name, "ln") && res)
		emit(g, "stp_strcat(%s, \"\\n\");", res);
	else if (strstr(e->name, "ln"))
		emit(g, "stp_print(c, \"\\n\", 1);");
	return res ? res : xstrdup("0");
}

static char *gen_print(struct gen *g, struct expr *e)
{
	const char *n = e->name;
	int to_str = n[0] == 's';
	const char *base = to_str ? n + 1 : n;
	struct strbuf kfmt = {0}, argv = {0};
	char *res, *q;
	int i;
	for (i = 0; i < e->args.n; i++)
		if (((struct expr *)e->args.items[i])->kind == E_HIST) {
			if (!strcmp(base, "print") || !strcmp(base, "println"))
				return gen_print_hist(g, e, to_str);
			unsupported(g, &((struct expr *)e->args.items[i])->loc,
				    "a histogram outside [s]print/[s]println");
			return xstrdup("0");
		}
	if (!strcmp(base, "printf") && printf_has_special(
		    ((struct expr *)e->args.items[0])->str,
		    ((struct expr *)e->args.items[0])->str_len)) {
		res = to_str ? new_temp(g, TYPE_STRING) : NULL;
		gen_printf_pieces(g, e, res);
		return res ? res : xstrdup("0");
	} else if (!strcmp(base, "printf")) {
		struct expr *f = e->args.items[0];
		int next = 1;
		gen_printf_args(g, e, 0, f->str_len, &next, &kfmt, &argv);
	} else if (!strncmp(base, "printd", 6)) {
		char *d = gen_expr(g, e->args.items[0]);
		char *dt = new_temp(g, TYPE_STRING);
		/* the delimiter is evaluated once, before the values */
		emit(g, "stp_strcpy(%s, %s);", dt, d);
		gen_value_list(g, e, 1, dt, &kfmt, &argv);
		free(d);
		free(dt);
	} else {
		gen_value_list(g, e, 0, NULL, &kfmt, &argv);
	}
	if (strstr(base, "ln"))
		strbuf_add(&kfmt, "\n");
	q = c_quote(strbuf_str(&kfmt), kfmt.len);
	if (to_str) {
		res = new_temp(g, TYPE_STRING);
		emit(g, "stp_sprintf(%s, %s%s);", res, q, strbuf_str(&argv));
	} else {
		if (argv.len == 0 && !strchr(strbuf_str(&kfmt), '%'))
			emit(g, "stp_print(c, %s, %zu);", q, kfmt.len);
		else
			emit(g, "stp_printf(c, %s%s);", q, strbuf_str(&argv));
		res = xstrdup("0");
	}
	free(q);
	free(kfmt.s);
	free(argv.s);
	return res;
}

/* gen_call_one - call @fn with the C arguments @argv into @res */
static void gen_call_one(struct gen *g, struct expr *e, struct functiondecl *fn,
			 const char *res, const char *argv)
{
	char *cn = fn_cname(fn);
	if (fn->embedded_c) {
		char *l = loc_literal(&e->loc);
		emit(g, "c->call_loc = %s;", l);
		free(l);
	}
	if (fn->ret == TYPE_STRING)
		emit(g, "%s(c, %s%s);", cn, res, argv);
	else
		emit(g, "%s = %s(c%s);", res, cn, argv);
	check_error(g);
	free(cn);
}

/* gen_call - a call: its function, and while one ends by `next`, the
 * next of its overloads; `next` in the last is the run-time error "all
 * functions exhausted" (SystemTap's). */
static char *gen_call(struct gen *g, struct expr *e)
{
	struct functiondecl *fn = e->func;
	struct strbuf argv = {0};
	int n = fn->overloads.n ? fn->overloads.n : 1, k;
	char *res, *done = xasprintf("fc%d", g->nlabels++);
	int passes_on = 0, jumped = 0;
	for (k = 0; k < e->args.n; k++) {
		char *v = gen_expr(g, e->args.items[k]);
		strbuf_printf(&argv, ", %s", v);
		free(v);
	}
	res = new_temp(g, fn->ret);
	for (k = 0; k < n; k++) {
		struct functiondecl *f = fn->overloads.n ?
			fn->overloads.items[k] : fn;
		gen_call_one(g, e, f, res, strbuf_str(&argv));
		passes_on = fn_passes_on(f);
		if (!passes_on)
			break;
		emit(g, "if (!c->next) goto %s;", done);
		emit(g, "c->next = 0;  /* `next`: the next overload */");
		jumped = 1;
	}
	if (passes_on) {
		char *l = loc_literal(&e->loc);
		emit(g, "stp_error(c, \"all functions exhausted\", %s);", l);
		emit(g, "goto %s;", g->err_label);
		free(l);
	}
	if (jumped)
		emit(g, "%s: ;", done);
	free(done);
	free(argv.s);
	return res;
}

static const char *c_binop(enum stp_op op)
{
	switch (op) {
	case OP_ADD: case OP_SUB: case OP_MUL:
	case OP_BAND: case OP_BOR: case OP_BXOR:
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
		return op_text(op);     /* spelled the same in C */
	default:
		return NULL;
	}
}

/* gen_arith - the C expression for long @a OP long @b; fallible operators
 * are evaluated into a temporary with an error check. */
static char *gen_arith(struct gen *g, enum stp_op op, const char *a,
		       const char *b, const struct source_loc *loc)
{
	char *t, *l;
	switch (op) {
	case OP_DIV:
	case OP_MOD:
		t = new_temp(g, TYPE_LONG);
		l = loc_literal(loc);
		emit(g, "%s = stp_%s(c, %s, %s, %s);", t,
		     op == OP_DIV ? "div" : "mod", a, b, l);
		check_error(g);
		free(l);
		return t;
	case OP_SHL:
		return xasprintf("((s64)((u64)(%s) << ((%s) & 63)))", a, b);
	case OP_SHR:
		return xasprintf("((s64)(%s) >> ((%s) & 63))", a, b);
	default:
		/* wrap-around arithmetic, as the kernel builds with
		 * -fno-strict-overflow */
		if (op == OP_ADD || op == OP_SUB || op == OP_MUL)
			return xasprintf("((s64)((u64)(%s) %s (u64)(%s)))", a,
					 c_binop(op), b);
		return xasprintf("((s64)((%s) %s (%s)))", a, c_binop(op), b);
	}
}

static char *gen_logical(struct gen *g, struct expr *e)
{
	char *t = new_temp(g, TYPE_LONG), *a, *b;
	a = gen_expr(g, e->a);
	emit(g, "%s = !!(%s);", t, a);
	emit(g, "if (%s%s) {", e->op == OP_LAND ? "" : "!", t);
	g->indent++;
	b = gen_expr(g, e->b);
	emit(g, "%s = !!(%s);", t, b);
	g->indent--;
	emit(g, "}");
	free(a);
	free(b);
	return t;
}

/* gen_branch_into - one branch of ?: : evaluate @e (its setup indented
 * inside the branch) into the temporary @t of type @type. */
static void gen_branch_into(struct gen *g, const char *t, struct expr *e,
			    enum stp_type type)
{
	char *v;
	g->indent++;
	v = gen_expr(g, e);
	if (type == TYPE_STRING)
		emit(g, "stp_strcpy(%s, %s);", t, v);
	else
		emit(g, "%s = %s;", t, v);
	free(v);
	g->indent--;
}

static char *gen_ternary(struct gen *g, struct expr *e)
{
	char *t, *cond;
	int k;
	/* @defined decides it (also in functions, for @cast) */
	if (tvar_const_cond(g->s, g->dp, e->a, &k))
		return gen_expr(g, k ? e->b : e->c);
	t = new_temp(g, e->type);
	cond = gen_expr(g, e->a);
	emit(g, "if (%s) {", cond);
	gen_branch_into(g, t, e->b, e->type);
	emit(g, "} else {");
	gen_branch_into(g, t, e->c, e->type);
	emit(g, "}");
	free(cond);
	return t;
}

/* gen_regex - `a =~ "re"` / `a !~ "re"`: the pattern, compiled here,
 * becomes block-scope static const data for stp_regex_match. */
static char *gen_regex(struct gen *g, struct expr *e, const char *a)
{
	struct rx_prog prog;
	struct strbuf data = { 0 };
	char *err, *name, *t, *line, *nl;
	if (e->b->kind != E_STR || rx_compile(e->b->str, &prog, &err)) {
		unsupported(g, &e->loc, "this regular expression");
		return xstrdup("0");
	}
	name = xasprintf("rx%d", g->nlabels++);
	rx_c_data(&prog, name, &data);
	rx_free(&prog);
	t = new_temp(g, TYPE_LONG);
	emit(g, "{");
	g->indent++;
	for (line = data.s; line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		*nl = '\0';
		emit(g, "%s", line);
	}
	emit(g, "%s = %sstp_regex_match(c, &%s, %s);", t,
	     e->op == OP_NMATCH ? "!" : "", name, a);
	g->indent--;
	emit(g, "}");
	free(data.s);
	free(name);
	return t;
}

static char *gen_binary(struct gen *g, struct expr *e)
{
	char *a, *b, *r;
	if (e->op == OP_LAND || e->op == OP_LOR)
		return gen_logical(g, e);
	a = gen_expr(g, e->a);
	b = gen_expr(g, e->b);
	if (e->op == OP_CONCAT) {
		r = new_temp(g, TYPE_STRING);
		emit(g, "stp_strcpy(%s, %s);", r, a);
		emit(g, "stp_strcat(%s, %s);", r, b);
	} else if (e->op == OP_MATCH || e->op == OP_NMATCH) {
		r = gen_regex(g, e, a);
	} else if (c_binop(e->op) && e->op >= OP_EQ && e->a->type == TYPE_STRING) {
		r = xasprintf("((s64)(strcmp(%s, %s) %s 0))", a, b,
			      c_binop(e->op));
	} else {
		r = gen_arith(g, e->op, a, b, &e->loc);
	}
	free(a);
	free(b);
	return r;
}

static char *gen_assign(struct gen *g, struct expr *e)
{
	char *l, *b, *v;
	if (e->a->kind == E_TARGET) {
		/* guru mode: a write to the probed code's variable */
		b = gen_expr(g, e->b);
		if (e->op != OP_NONE) {
			char *old = gen_expr(g, e->a);
			v = gen_arith(g, e->op, old, b, &e->loc);
			free(old);
			free(b);
			b = v;
		}
		tvar_gen_store(g, e->a, b);
		return b;
	}
	b = gen_expr(g, e->b);
	l = gen_lvalue(g, e->a);
	if (e->a->type == TYPE_STRING) {
		if (strcmp(l, b) == 0 && e->op == OP_CONCAT) {
			/* s .= s: the runtime's copies must not overlap */
			char *t = new_temp(g, TYPE_STRING);
			emit(g, "stp_strcpy(%s, %s);", t, b);
			free(b);
			b = t;
		}
		if (strcmp(l, b) != 0)
			emit(g, "%s(%s, %s);", e->op == OP_CONCAT ?
			     "stp_strcat" : "stp_strcpy", l, b);
		free(b);
		return l;
	}
	if (e->op == OP_NONE) {
		emit(g, "%s = %s;", l, b);
	} else {
		v = gen_arith(g, e->op, l, b, &e->loc);
		emit(g, "%s = %s;", l, v);
		free(v);
	}
	free(b);
	return l;
}

char *gen_expr(struct gen *g, struct expr *e)
{
	char *a, *r;
	switch (e->kind) {
	case E_TARGET:
	case E_CAST:
	case E_ENTRY:
	case E_DEFINED:
		return tvar_gen(g, e);
	case E_NUM:
		if (e->num == INT64_MIN)
			return xstrdup("((s64)(-9223372036854775807LL - 1))");
		return xasprintf("((s64)%lldLL)", (long long)e->num);
	case E_STR:
		return c_quote(e->str, e->str_len);
	case E_SYM:
		return var_ref(g, e->sym);
	case E_BINARY:
		return gen_binary(g, e);
	case E_UNARY:
		if (e->op == OP_BAND)
			return tvar_gen(g, e);
		a = gen_expr(g, e->a);
		switch (e->op) {
		case OP_NEG: r = xasprintf("((s64)(0 - (u64)(%s)))", a); break;
		case OP_NOT: r = xasprintf("((s64)!(%s))", a); break;
		case OP_BNOT: r = xasprintf("((s64)~(%s))", a); break;
		default: r = xasprintf("(%s)", a); break;
		}
		free(a);
		return r;
	case E_INCDEC: {
		char *l = gen_lvalue(g, e->a), *t = new_temp(g, TYPE_LONG);
		int inc = e->op == OP_PREINC || e->op == OP_POSTINC;
		int pre = e->op == OP_PREINC || e->op == OP_PREDEC;
		if (!pre)
			emit(g, "%s = %s;", t, l);
		emit(g, "%s = (s64)((u64)%s %s 1);", l, l, inc ? "+" : "-");
		if (pre)
			emit(g, "%s = %s;", t, l);
		free(l);
		return t;
	}
	case E_ASSIGN:
		return gen_assign(g, e);
	case E_TERNARY:
		return gen_ternary(g, e);
	case E_CALL:
		return gen_call(g, e);
	case E_PRINT:
		return gen_print(g, e);
	case E_INDEX:
	case E_IN:
	case E_STATOP:
	case E_HIST:
	case E_STATS_ADD:
		if (e->kind != E_HIST && local_stat(e->a))
			return gen_local_stat(g, e, e->a->sym, NULL);
		return gen_map_expr(g, e);
	case E_PERF: {
		/* read at the hit, before the body (runtime/perf_counter.c) */
		char *t = new_temp(g, TYPE_LONG), *l = loc_literal(&e->loc);
		char *n = c_quote(e->str, e->str_len);
		emit(g, "%s = stp_perf_value(c, %d, %s, %s);", t, (int)e->num,
		     n, l);
		check_error(g);
		free(l);
		free(n);
		return t;
	}
	default:
		unsupported(g, &e->loc, "this expression");
		return xstrdup("0");
	}
}

/* ---- statements --------------------------------------------------- */

/* gen_loop_body - a loop body, with break and continue going to @brk and
 * @cont; the enclosing loop's targets are restored afterwards. */
static void gen_loop_body(struct gen *g, struct stmt *body, const char *brk,
			  const char *cont)
{
	const char *obrk = g->brk_label, *ocont = g->cont_label;
	g->brk_label = brk;
	g->cont_label = cont;
	gen_stmt(g, body);
	g->brk_label = obrk;
	g->cont_label = ocont;
}

static void gen_loop(struct gen *g, struct stmt *st)
{
	char *brk = new_label(g, "brk"), *cont = new_label(g, "cont");
		char *v;
	if (st->init) {
		v = gen_expr(g, st->init);
		emit(g, "(void)(%s);", v);
		free(v);
	}
	emit(g, "for (;;) {");
	g->indent++;
	if (st->e) {
		v = gen_expr(g, st->e);
		emit(g, "if (!(%s)) break;", v);
		free(v);
	}
	gen_loop_body(g, st->body, brk, cont);
	g->indent--;
	emit(g, "%s: ;", cont);
	g->indent++;
	if (st->step) {
		v = gen_expr(g, st->step);
		emit(g, "(void)(%s);", v);
		free(v);
	}
	g->indent--;
	emit(g, "}");
	emit(g, "%s: ;", brk);
	free(brk);
	free(cont);
}

static void gen_return(struct gen *g, struct stmt *st)
{
	char *v;
	if (!g->func) {
		diag_error(&st->loc, "'return' outside a function");
		g->failed = 1;
		return;
	}
	if (st->e) {
		v = gen_expr(g, st->e);
		if (g->func->ret == TYPE_STRING)
			emit(g, "stp_strcpy(ret, %s);", v);
		else
			emit(g, "ret = %s;", v);
		free(v);
	}
	emit(g, "goto out;");
}

static void gen_try(struct gen *g, struct stmt *st)
{
	char *catch = new_label(g, "catch"), *end = new_label(g, "endtry");
	const char *oerr = g->err_label;
	char *mark = new_field(g, "size_t %s", "mark");
	g->err_label = catch;
	/* foreach snapshots left by the error are released at the catch */
	emit(g, "%s = c->frame_used;", mark);
	emit(g, "{");
	g->indent++;
	gen_stmt(g, st->body);
	g->indent--;
	emit(g, "}");
	g->err_label = oerr;
	emit(g, "goto %s;", end);
	emit(g, "%s:", catch);
	emit(g, "if (unlikely(stp_uncatchable(c))) goto %s;", oerr);
	emit(g, "stp_arena_release(c, %s);", mark);
	if (st->catch_sym) {
		char *cv = var_ref(g, st->catch_sym);
		emit(g, "stp_strcpy(%s, c->error ? c->error : \"\");", cv);
		free(cv);
	}
	emit(g, "c->error = NULL;");
	emit(g, "{");
	g->indent++;
	gen_stmt(g, st->els);
	g->indent--;
	emit(g, "}");
	emit(g, "%s: ;", end);
	free(catch);
	free(end);
	free(mark);
}

/* gen_foreach - foreach ([k1, ...] in ARRAY[@aggr][+-] limit N) with
 * optional value binding: walk the loop's own snapshot of the map's
 * (aggregated, sorted) order.  The snapshot is released where the loop
 * ends or breaks; other exits (return, next, errors) release it with the
 * frame or at the catch. */
static void gen_foreach(struct gen *g, struct stmt *st)
{
	const struct sym *y = st->array ? st->array->sym : NULL;
	const char *aggr = st->sort_aggr ? statop_c(st->sort_aggr) : NULL;
	char *brk, *cont, *I, *E, *lim, *l, *v, *cnt = NULL;
	char *fixed[9] = { 0 };
	int i;
	if (!is_map(y)) {
		unsupported(g, &st->loc, "foreach over this expression");
		return;
	}
	/* a slice's fixed keys are evaluated once, before the loop */
	for (i = 0; i < st->slice.n && i < 9; i++) {
		struct expr *k = st->slice.items[i];
		if (k->kind == E_WILD)
			continue;
		fixed[i] = new_temp(g, y->key_types[i]);
		v = gen_expr(g, k);
		if (y->key_types[i] == TYPE_STRING)
			emit(g, "stp_strcpy(%s, %s);", fixed[i], v);
		else
			emit(g, "%s = %s;", fixed[i], v);
		free(v);
	}
	brk = new_label(g, "brk");
	cont = new_label(g, "cont");
	l = loc_literal(&st->loc);
	I = new_field(g, "struct stp_iter %s", "it");
	E = new_field(g, "void *%s", "ie");
	if (st->limit) {
		lim = new_temp(g, TYPE_LONG);
		v = gen_expr(g, st->limit);
		emit(g, "%s = %s;", lim, v);
		free(v);
	} else {
		lim = xstrdup("S64_MAX");
	}
	if (st->slice.n) {
		/* the limit counts the elements of the slice */
		cnt = new_temp(g, TYPE_LONG);
		emit(g, "%s = 0;", cnt);
	}
	emit(g, "if (unlikely(stp_map_iter_start(c, &g_%s, &%s, %d, %d, %s, "
	     "%s, %s)))", y->name, I, st->sort_dir ? st->sort_key : 0,
	     st->sort_dir, aggr ? aggr : "STP_STAT_COUNT",
	     cnt ? "S64_MAX" : lim, l);
	emit(g, "\tgoto %s;", g->err_label);
	emit(g, "while ((%s = stp_map_iter_next(&%s))) {", E, I);
	g->indent++;
	for (i = 0; i < st->slice.n && i < 9; i++) {
		if (!fixed[i])
			continue;
		if (y->key_types[i] == TYPE_STRING)
			emit(g, "if (strncmp(stp_map_iter_key_str(%s.t, %s, %d), "
			     "%s, MAXSTRINGLEN - 1)) goto %s;", I, E, i,
			     fixed[i], cont);
		else
			emit(g, "if (stp_map_iter_key_long(%s.t, %s, %d) != %s) "
			     "goto %s;", I, E, i, fixed[i], cont);
		free(fixed[i]);
	}
	if (cnt) {
		emit(g, "if (%s++ >= %s) goto %s;", cnt, lim, brk);
		free(cnt);
	}
	for (i = 0; i < st->keys.n; i++) {
		struct expr *k = st->keys.items[i];
		char *r = var_ref(g, k->sym);
		if (y->key_types[i] == TYPE_STRING)
			emit(g, "stp_strcpy(%s, stp_map_iter_key_str(%s.t, %s, %d));",
			     r, I, E, i);
		else
			emit(g, "%s = stp_map_iter_key_long(%s.t, %s, %d);", r,
			     I, E, i);
		free(r);
	}
	if (st->value && st->value->sym) {
		char *r = var_ref(g, st->value->sym);
		if (y->type == TYPE_STRING)
			emit(g, "stp_strcpy(%s, stp_map_iter_val_str(%s.t, %s));",
			     r, I, E);
		else
			emit(g, "%s = stp_map_iter_val_long(%s.t, %s);", r, I, E);
		free(r);
	}
	gen_loop_body(g, st->body, brk, cont);
	g->indent--;
	emit(g, "%s: ;", cont);
	emit(g, "}");
	emit(g, "%s:", brk);
	emit(g, "stp_map_iter_end(c, &%s);", I);
	free(brk); free(cont); free(I); free(E); free(lim);
	free(l);
}

void gen_stmt(struct gen *g, struct stmt *st)
{
	char *v, *l;
	int i, k;
	if (!st)
		return;
	if (st->kind != S_BLOCK && st->kind != S_NULL) {
		l = loc_literal(&st->loc);
		emit(g, "if (unlikely(stp_action(c, 1, %s))) goto %s;", l,
		     g->err_label);
		free(l);
	}
	switch (st->kind) {
	case S_BLOCK:
		emit(g, "{");
		g->indent++;
		for (i = 0; i < st->stmts.n; i++)
			gen_stmt(g, st->stmts.items[i]);
		g->indent--;
		emit(g, "}");
		break;
	case S_EXPR:
		if (pcpu_gen_update(g, st))
			break;
		v = gen_expr(g, st->e);
		if (st->e->kind != E_ASSIGN && st->e->kind != E_PRINT &&
		    st->e->kind != E_CALL && st->e->kind != E_INCDEC)
			emit(g, "(void)(%s);", v);
		free(v);
		break;
	case S_IF:
		if (tvar_const_cond(g->s, g->dp, st->e, &k)) {
			gen_stmt(g, k ? st->body : st->els);
			break;
		}
		v = gen_expr(g, st->e);
		emit(g, "if (%s) {", v);
		free(v);
		g->indent++;
		gen_stmt(g, st->body);
		g->indent--;
		if (st->els) {
			emit(g, "} else {");
			g->indent++;
			gen_stmt(g, st->els);
			g->indent--;
		}
		emit(g, "}");
		break;
	case S_WHILE:
	case S_FOR:
		gen_loop(g, st);
		break;
	case S_BREAK:
	case S_CONTINUE:
		if (!g->brk_label) {
			diag_error(&st->loc, "'%s' outside a loop",
				   st->kind == S_BREAK ? "break" : "continue");
			g->failed = 1;
			break;
		}
		emit(g, "goto %s;", st->kind == S_BREAK ? g->brk_label :
		     g->cont_label);
		break;
	case S_NEXT:
		/* in a function: its call site goes on to the next overload
		 * (see gen_call) */
		if (g->func)
			emit(g, "c->next = 1;");
		emit(g, "goto out;");
		break;
	case S_RETURN:
		gen_return(g, st);
		break;
	case S_DELETE:
		if (st->e->kind == E_INDEX && is_map(st->e->sym) &&
		    slice_mask(&st->e->args)) {
			unsigned w;
			char *k = gen_slice_keys(g, st->e->sym, &st->e->args,
						 &w);
			emit(g, "(void)stp_map_slice(&g_%s, %s, 0x%xu, 1);",
			     st->e->sym->name, k, w);
			free(k);
		} else if (st->e->kind == E_INDEX && is_map(st->e->sym)) {
			char *k = gen_map_keys(g, st->e->sym, &st->e->args);
			emit(g, "stp_map_delete(&g_%s, %s);", st->e->sym->name, k);
			free(k);
		} else if (st->e->kind == E_SYM && is_map(st->e->sym)) {
			emit(g, "stp_map_clear(&g_%s);", st->e->sym->name);
		} else if (st->e->kind == E_SYM && st->e->sym) {
			v = var_ref(g, st->e->sym);
			if (st->e->sym->type == TYPE_STATS)  /* local: empty */
				emit(g, "memset(%s, 0, sizeof(%s));", v, v);
			else if (st->e->sym->type == TYPE_STRING)
				emit(g, "%s[0] = '\\0';", v);
			else
				emit(g, "%s = 0;", v);
			free(v);
		} else {
			unsupported(g, &st->loc, "deleting array elements");
		}
		break;
	case S_TRY:
		gen_try(g, st);
		break;
	case S_FOREACH:
		gen_foreach(g, st);
		break;
	case S_NULL:
		break;
	}
}
