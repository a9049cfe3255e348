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
