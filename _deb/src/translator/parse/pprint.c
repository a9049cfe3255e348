/* pprint.c - print the tree of a parsed file back as SystemTap text. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "pprint.h"

void pprint_string(struct strbuf *out, const char *s, size_t n)
{
	strbuf_addc(out, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': strbuf_add(out, "\\\""); break;
		case '\\': strbuf_add(out, "\\\\"); break;
		case '\n': strbuf_add(out, "\\n"); break;
		case '\t': strbuf_add(out, "\\t"); break;
		case '\r': strbuf_add(out, "\\r"); break;
		default:
			if (c < 32 || c >= 127)
				strbuf_printf(out, "\\%03o", c);
			else
				strbuf_addc(out, (char)c);
		}
	}
	strbuf_addc(out, '"');
}

static void indent_to(struct strbuf *out, int indent)
{
	for (int i = 0; i < indent; i++)
		strbuf_add(out, "  ");
}

static void pp_args(struct strbuf *out, const struct vec *args)
{
	for (int i = 0; i < args->n; i++) {
		if (i)
			strbuf_add(out, ", ");
		pprint_expr(out, args->items[i], 1);
	}
}

static void pp_chain(struct strbuf *out, const struct vec *comps)
{
	for (int i = 0; i < comps->n; i++) {
		const struct target_component *c = comps->items[i];
		if (c->is_index) {
			strbuf_addc(out, '[');
			pprint_expr(out, c->index, 1);
			strbuf_addc(out, ']');
		} else {
			strbuf_add(out, "->");
			strbuf_add(out, c->name);
		}
	}
}

/* Operand of a unary/incdec operator: parenthesised unless it is a
 * simple primary (numbers always, so "-(5)" keeps its shape). */
static void pp_operand(struct strbuf *out, const struct expr *e)
{
	switch (e->kind) {
	case E_SYM: case E_INDEX: case E_CALL: case E_PRINT: case E_STATOP:
	case E_HIST: case E_TARGET: case E_ENTRY: case E_DEFINED: case E_CAST:
	case E_STR: case E_WILD: case E_PERF:
		pprint_expr(out, e, 1);
		return;
	default:
		strbuf_addc(out, '(');
		pprint_expr(out, e, 1);
		strbuf_addc(out, ')');
	}
}

void pprint_expr(struct strbuf *out, const struct expr *e, int top)
{
	int paren = 0;
	switch (e->kind) {
	case E_BINARY: case E_TERNARY: case E_ASSIGN: case E_STATS_ADD:
	case E_IN:
		paren = !top;
		break;
	default:
		break;
	}
	if (paren)
		strbuf_addc(out, '(');
	switch (e->kind) {
	case E_NUM:
		strbuf_printf(out, "%" PRId64, e->num);
		break;
	case E_STR:
		pprint_string(out, e->str, e->str_len);
		break;
	case E_SYM:
		strbuf_add(out, e->name);
		break;
	case E_INDEX:
		pprint_expr(out, e->a, 0);
		strbuf_addc(out, '[');
		pp_args(out, &e->args);
		strbuf_addc(out, ']');
		break;
	case E_BINARY:
		pprint_expr(out, e->a, 0);
		strbuf_printf(out, " %s ", op_text(e->op));
		pprint_expr(out, e->b, 0);
		break;
	case E_UNARY:
		strbuf_add(out, op_text(e->op));
		pp_operand(out, e->a);
		break;
	case E_INCDEC:
		if (e->op == OP_PREINC || e->op == OP_PREDEC) {
			strbuf_add(out, op_text(e->op));
			pp_operand(out, e->a);
		} else {
			pp_operand(out, e->a);
			strbuf_add(out, op_text(e->op));
		}
		break;
	case E_ASSIGN:
		pprint_expr(out, e->a, 0);
		strbuf_printf(out, " %s= ", op_text(e->op));
		pprint_expr(out, e->b, 1);
		break;
	case E_STATS_ADD:
		pprint_expr(out, e->a, 0);
		strbuf_add(out, " <<< ");
		pprint_expr(out, e->b, 1);
		break;
	case E_TERNARY:
		pprint_expr(out, e->a, 0);
		strbuf_add(out, " ? ");
		pprint_expr(out, e->b, 0);
		strbuf_add(out, " : ");
		pprint_expr(out, e->c, 0);
		break;
	case E_CALL:
	case E_PRINT:
		strbuf_printf(out, "%s(", e->name);
		pp_args(out, &e->args);
		strbuf_addc(out, ')');
		break;
	case E_WILD:
		strbuf_addc(out, '*');
		break;
	case E_IN:
		strbuf_addc(out, '[');
		pp_args(out, &e->args);
		strbuf_add(out, "] in ");
		pprint_expr(out, e->a, 0);
		break;
	case E_STATOP:
	case E_HIST:
		strbuf_printf(out, "@%s(", e->name);
		pprint_expr(out, e->a, 1);
		for (int i = 0; i < e->args.n; i++) {
			strbuf_add(out, ", ");
			pprint_expr(out, e->args.items[i], 1);
		}
		strbuf_addc(out, ')');
		break;
	case E_TARGET:
		if (!strcmp(e->name, "@var")) {
			strbuf_add(out, "@var(");
			pprint_string(out, e->str, strlen(e->str));
			if (e->module) {
				strbuf_add(out, ", ");
				pprint_string(out, e->module, strlen(e->module));
			}
			strbuf_addc(out, ')');
		} else {
			strbuf_add(out, e->name);
		}
		pp_chain(out, &e->components);
		break;
	case E_PERF:
		strbuf_add(out, "@perf(");
		pprint_string(out, e->str, e->str_len);
		strbuf_addc(out, ')');
		break;
	case E_ENTRY:
	case E_DEFINED:
		strbuf_add(out, e->kind == E_ENTRY ? "@entry(" :
			   e->name ? "@probewrite(" : "@defined(");
		pprint_expr(out, e->a, 1);
		strbuf_addc(out, ')');
		break;
	case E_CAST:
		if (!e->name) {          /* autocast */
			pp_operand(out, e->a);
			pp_chain(out, &e->components);
			break;
		}
		strbuf_add(out, "@cast(");
		pprint_expr(out, e->a, 1);
		strbuf_add(out, ", ");
		pprint_string(out, e->name, strlen(e->name));
		if (e->module) {
			strbuf_add(out, ", ");
			pprint_string(out, e->module, strlen(e->module));
		}
		strbuf_addc(out, ')');
		pp_chain(out, &e->components);
		break;
	}
	if (paren)
		strbuf_addc(out, ')');
}

/* The body of if/while/for/foreach: a block at the same indentation,
 * anything else one level deeper. */
static void pp_body(struct strbuf *out, const struct stmt *s, int indent)
{
	pprint_stmt(out, s, s->kind == S_BLOCK ? indent : indent + 1);
}

static void pp_sort(struct strbuf *out, const struct stmt *s, int pos)
{
	if (s->sort_dir && s->sort_key == pos)
		strbuf_addc(out, s->sort_dir > 0 ? '+' : '-');
}

void pprint_stmt(struct strbuf *out, const struct stmt *s, int indent)
{
	indent_to(out, indent);
	switch (s->kind) {
	case S_BLOCK:
		strbuf_add(out, "{\n");
		for (int i = 0; i < s->stmts.n; i++)
			pprint_stmt(out, s->stmts.items[i], indent + 1);
		indent_to(out, indent);
		strbuf_add(out, "}\n");
		break;
	case S_EXPR:
		pprint_expr(out, s->e, 1);
		strbuf_add(out, ";\n");
		break;
	case S_IF:
		strbuf_add(out, "if (");
		pprint_expr(out, s->e, 1);
		strbuf_add(out, ")\n");
		pp_body(out, s->body, indent);
		if (s->els && s->els->kind == S_IF) {
			/* else if: print the nested if right after "else " */
			struct strbuf sub = { 0 };
			indent_to(out, indent);
			strbuf_add(out, "else ");
			pprint_stmt(&sub, s->els, indent);
			strbuf_add(out, strbuf_str(&sub) + 2 * indent);
			free(strbuf_detach(&sub));
		} else if (s->els) {
			indent_to(out, indent);
			strbuf_add(out, "else\n");
			pp_body(out, s->els, indent);
		}
		break;
	case S_WHILE:
		strbuf_add(out, "while (");
		pprint_expr(out, s->e, 1);
		strbuf_add(out, ")\n");
		pp_body(out, s->body, indent);
		break;
	case S_FOR:
		strbuf_add(out, "for (");
		if (s->init)
			pprint_expr(out, s->init, 1);
		strbuf_add(out, ";");
		if (s->e) {
			strbuf_addc(out, ' ');
			pprint_expr(out, s->e, 1);
		}
		strbuf_add(out, ";");
		if (s->step) {
			strbuf_addc(out, ' ');
			pprint_expr(out, s->step, 1);
		}
		strbuf_add(out, ")\n");
		pp_body(out, s->body, indent);
		break;
	case S_FOREACH:
		strbuf_add(out, "foreach (");
		if (s->value) {
			strbuf_add(out, s->value->name);
			strbuf_add(out, " = ");
		}
		strbuf_addc(out, '[');
		for (int i = 0; i < s->keys.n; i++) {
			const struct expr *k = s->keys.items[i];
			if (i)
				strbuf_add(out, ", ");
			strbuf_add(out, k->name);
			pp_sort(out, s, i + 1);
		}
		strbuf_add(out, "] in ");
		strbuf_add(out, s->array->name);
		if (s->slice.n) {
			strbuf_addc(out, '[');
			pp_args(out, &s->slice);
			strbuf_addc(out, ']');
		}
		if (s->sort_aggr) {
			strbuf_addc(out, '@');
			strbuf_add(out, s->sort_aggr);
		}
		pp_sort(out, s, -1);
		if (s->limit) {
			strbuf_add(out, " limit ");
			pprint_expr(out, s->limit, 1);
		}
		strbuf_add(out, ")\n");
		pp_body(out, s->body, indent);
		break;
	case S_BREAK:
		strbuf_add(out, "break;\n");
		break;
	case S_CONTINUE:
		strbuf_add(out, "continue;\n");
		break;
	case S_NEXT:
		strbuf_add(out, "next;\n");
		break;
	case S_RETURN:
		strbuf_add(out, "return");
		if (s->e) {
			strbuf_addc(out, ' ');
			pprint_expr(out, s->e, 1);
		}
		strbuf_add(out, ";\n");
		break;
	case S_DELETE:
		strbuf_add(out, "delete ");
		pprint_expr(out, s->e, 1);
		strbuf_add(out, ";\n");
		break;
	case S_TRY:
		strbuf_add(out, "try\n");
		pprint_stmt(out, s->body, indent);
		indent_to(out, indent);
		strbuf_add(out, "catch");
		if (s->catch_var)
			strbuf_printf(out, " (%s)", s->catch_var);
		strbuf_addc(out, '\n');
		pprint_stmt(out, s->els, indent);
		break;
	case S_NULL:
		strbuf_add(out, ";\n");
		break;
	}
}

static void pp_points(struct strbuf *out, const struct vec *pts)
{
	for (int i = 0; i < pts->n; i++) {
		const struct probe_point *pp = pts->items[i];
		char *s = probe_point_str(pp);
		if (i)
			strbuf_add(out, ", ");
		strbuf_add(out, s);
		free(s);
		if (pp->optional)
			strbuf_addc(out, '?');
		if (pp->sufficient)
			strbuf_addc(out, '!');
		if (pp->cond) {
			strbuf_add(out, " if (");
			pprint_expr(out, pp->cond, 1);
			strbuf_addc(out, ')');
		}
	}
}

static const char *type_suffix(enum stp_type t)
{
	return t == TYPE_LONG ? ":long" : t == TYPE_STRING ? ":string" : "";
}

void pprint_file(struct strbuf *out, const struct stapfile *f)
{
	for (int i = 0; i < f->embeds.n; i++)
		strbuf_printf(out, "%%{%s%%}\n", (const char *)f->embeds.items[i]);
	for (int i = 0; i < f->globals.n; i++) {
		const struct sym *g = f->globals.items[i];
		strbuf_printf(out, "%sglobal %s", g->is_private ? "private " : "",
			      g->name);
		if (g->wrap)
			strbuf_addc(out, '%');
		if (g->maxsize)
			strbuf_printf(out, "[%" PRId64 "]", g->maxsize);
		if (g->init) {
			strbuf_add(out, " = ");
			pprint_expr(out, g->init, 1);
		}
		strbuf_addc(out, '\n');
	}
	for (int i = 0; i < f->functions.n; i++) {
		const struct functiondecl *fn = f->functions.items[i];
		strbuf_printf(out, "%sfunction %s%s (", fn->is_private ? "private " : "",
			      fn->name, type_suffix(fn->ret));
		for (int j = 0; j < fn->params.n; j++) {
			const struct sym *p = fn->params.items[j];
			strbuf_printf(out, "%s%s%s", j ? ", " : "", p->name,
				      type_suffix(p->type));
		}
		strbuf_add(out, ")");
		if (fn->has_priority)
			strbuf_printf(out, ":%d", fn->priority);
		strbuf_add(out, "\n");
		if (fn->embedded_c)
			strbuf_printf(out, "%%{%s%%}\n", fn->embedded_c);
		else
			pprint_stmt(out, fn->body, 0);
	}
	for (int i = 0; i < f->aliases.n; i++) {
		const struct probe_alias *a = f->aliases.items[i];
		char *n = probe_point_str(a->name);
		strbuf_printf(out, "probe %s %s ", n, a->epilogue ? "+=" : "=");
		pp_points(out, &a->points);
		strbuf_addc(out, '\n');
		pprint_stmt(out, a->body, 0);
	}
	for (int i = 0; i < f->probes.n; i++) {
		const struct probe *p = f->probes.items[i];
		strbuf_add(out, "probe ");
		pp_points(out, &p->points);
		strbuf_addc(out, '\n');
		pprint_stmt(out, p->body, 0);
	}
}
