/* ast.c - names of types and operators, probe point text. */
#include <inttypes.h>
#include <string.h>
#include "ast.h"
#include "pprint.h"

const char *type_name(enum stp_type t)
{
	switch (t) {
	case TYPE_UNKNOWN: return "unknown";
	case TYPE_LONG: return "long";
	case TYPE_STRING: return "string";
	case TYPE_STATS: return "stats";
	}
	return "?";
}

const char *op_text(enum stp_op op)
{
	switch (op) {
	case OP_NONE: return "";
	case OP_ADD: return "+";
	case OP_SUB: return "-";
	case OP_MUL: return "*";
	case OP_DIV: return "/";
	case OP_MOD: return "%";
	case OP_SHL: return "<<";
	case OP_SHR: return ">>";
	case OP_BAND: return "&";
	case OP_BOR: return "|";
	case OP_BXOR: return "^";
	case OP_LAND: return "&&";
	case OP_LOR: return "||";
	case OP_CONCAT: return ".";
	case OP_EQ: return "==";
	case OP_NE: return "!=";
	case OP_LT: return "<";
	case OP_LE: return "<=";
	case OP_GT: return ">";
	case OP_GE: return ">=";
	case OP_MATCH: return "=~";
	case OP_NMATCH: return "!~";
	case OP_NEG: return "-";
	case OP_PLUS: return "+";
	case OP_NOT: return "!";
	case OP_BNOT: return "~";
	case OP_PREINC: case OP_POSTINC: return "++";
	case OP_PREDEC: case OP_POSTDEC: return "--";
	}
	return "?";
}

/* probe_point_str: the components only; the ? and ! markers and the
 * condition are not part of the canonical text. */
char *probe_point_str(const struct probe_point *pp)
{
	struct strbuf b = { 0 };
	for (int i = 0; i < pp->components.n; i++) {
		const struct pp_component *c = pp->components.items[i];
		if (i)
			strbuf_addc(&b, '.');
		strbuf_add(&b, c->name);
		if (c->arg) {
			strbuf_addc(&b, '(');
			if (c->arg->kind == E_NUM)
				strbuf_printf(&b, "%" PRId64, c->arg->num);
			else
				pprint_string(&b, c->arg->str, c->arg->str_len);
			strbuf_addc(&b, ')');
		}
	}
	return strbuf_detach(&b);
}

/* ---- deep copies (pass 2 alias expansion) ---- */

static void copy_exprs(struct vec *dst, const struct vec *src)
{
	int i;
	memset(dst, 0, sizeof(*dst));
	for (i = 0; i < src->n; i++)
		vec_push(dst, expr_copy(src->items[i]));
}

struct expr *expr_copy(const struct expr *e)
{
	struct expr *c;
	int i;
	if (!e)
		return NULL;
	c = xmalloc(sizeof(*c));
	*c = *e;
	c->sym = NULL;
	c->func = NULL;
	c->type = TYPE_UNKNOWN;
	c->a = expr_copy(e->a);
	c->b = expr_copy(e->b);
	c->c = expr_copy(e->c);
	copy_exprs(&c->args, &e->args);
	memset(&c->components, 0, sizeof(c->components));
	for (i = 0; i < e->components.n; i++) {
		const struct target_component *tc = e->components.items[i];
		struct target_component *n = xmalloc(sizeof(*n));
		*n = *tc;
		n->index = expr_copy(tc->index);
		vec_push(&c->components, n);
	}
	return c;
}

struct stmt *stmt_copy(const struct stmt *s)
{
	struct stmt *c;
	int i;
	if (!s)
		return NULL;
	c = xmalloc(sizeof(*c));
	*c = *s;
	memset(&c->stmts, 0, sizeof(c->stmts));
	for (i = 0; i < s->stmts.n; i++)
		vec_push(&c->stmts, stmt_copy(s->stmts.items[i]));
	c->e = expr_copy(s->e);
	c->init = expr_copy(s->init);
	c->step = expr_copy(s->step);
	c->body = stmt_copy(s->body);
	c->els = stmt_copy(s->els);
	copy_exprs(&c->keys, &s->keys);
	c->value = expr_copy(s->value);
	c->array = expr_copy(s->array);
	c->limit = expr_copy(s->limit);
	memset(&c->slice, 0, sizeof(c->slice));
	copy_exprs(&c->slice, &s->slice);
	c->catch_sym = NULL;
	return c;
}

void ast_walk_expr(struct expr *e, ast_expr_fn fn, void *arg)
{
	int i, skip = 0;
	if (!e)
		return;
	fn(arg, e, &skip);
	if (skip)
		return;
	ast_walk_expr(e->a, fn, arg);
	ast_walk_expr(e->b, fn, arg);
	ast_walk_expr(e->c, fn, arg);
	for (i = 0; i < e->args.n; i++)
		ast_walk_expr(e->args.items[i], fn, arg);
	for (i = 0; i < e->components.n; i++)
		ast_walk_expr(((struct target_component *)
			       e->components.items[i])->index, fn, arg);
}

void ast_walk_stmt(struct stmt *st, ast_expr_fn fn, void *arg)
{
	int i;
	if (!st)
		return;
	for (i = 0; i < st->stmts.n; i++)
		ast_walk_stmt(st->stmts.items[i], fn, arg);
	ast_walk_expr(st->e, fn, arg);
	ast_walk_expr(st->init, fn, arg);
	ast_walk_expr(st->step, fn, arg);
	ast_walk_expr(st->limit, fn, arg);
	ast_walk_expr(st->array, fn, arg);
	for (i = 0; i < st->slice.n; i++)
		ast_walk_expr(st->slice.items[i], fn, arg);
	ast_walk_stmt(st->body, fn, arg);
	ast_walk_stmt(st->els, fn, arg);
}
