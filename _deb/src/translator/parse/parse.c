/* parse.c - pass 1: a recursive-descent parser for the SystemTap
 * language, building the tree of ast.h from the tokens of lexer.c after
 * preprocessing (preproc.c).
 *
 * Expression precedence, lowest first (as SystemTap's):
 *   = op= <<<  (right)   ?:   ||   &&   |   ^   &   in
 *   < <= > >= == != =~ !~   << >>   .   + -   * / %
 *   unary - + ! ~ & ++ --   postfix ++ --, [ ], ->
 * A syntax error abandons the statement it is in (the parser skips to
 * the next ';' or the '}' closing the block) or, outside blocks, the
 * top-level declaration (it skips to the next 'probe', 'global',
 * 'function', 'private' or '%{'), then goes on, so that independent
 * errors are all reported; the file then fails to parse.
 */
#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "lexer.h"
#include "parse.h"
#include "preproc.h"

static int script_argc;
static char **script_argv;

static struct pp_config config;
static int config_set;

void parse_set_config(const struct pp_config *cfg)
{
	memset(&config, 0, sizeof(config));
	if (cfg)
		config = *cfg;
	config_set = 0;
}

int parse_set_args(int argc, char **argv)
{
	script_argc = argc;
	script_argv = argv;
	return 0;
}

struct parser {
	struct token *t;
	int n, pos;
	struct stapfile *f;
	jmp_buf fail;
	int errors;        /* syntax errors so far in this file */
	int depth;         /* nesting of the tree being built */
	int eof_reported;  /* an "end of input" error was given already */
	int splices;       /* script arguments spliced into probe points */
	struct vec retired; /* token arrays a splice replaced: kept to the end
			     * of the parse, as callers still hold tokens */
	struct functiondecl *fn;   /* the function being parsed, or NULL */
};

/* Deeper nesting of expressions and statements (parentheses, blocks,
 * operator chains, which make left-deep trees) is an error, so that
 * the recursive walks of every pass stay within the stack. */
#define MAX_NEST 1000

/* More errors than this in one file stop the parse. */
#define MAX_PARSE_ERRORS 50

static const char *const keywords[] = {
	"probe", "global", "function", "private", "if", "else", "for",
	"foreach", "in", "limit", "while", "break", "continue", "next",
	"return", "delete", "try", "catch", NULL,
};

static int is_keyword(const char *s)
{
	for (int i = 0; keywords[i]; i++)
		if (!strcmp(keywords[i], s))
			return 1;
	return 0;
}

static struct token *peek(struct parser *p)
{
	return &p->t[p->pos];
}

static struct token *peekn(struct parser *p, int k)
{
	int i = p->pos + k;
	return &p->t[i < p->n ? i : p->n - 1];
}

static struct token *next(struct parser *p)
{
	struct token *t = &p->t[p->pos];
	if (p->pos < p->n - 1)
		p->pos++;
	return t;
}

static void __attribute__((noreturn, format(printf, 3, 4)))
fail_at(struct parser *p, const struct token *t, const char *fmt, ...)
{
	struct strbuf b = { 0 };
	va_list ap;
	va_start(ap, fmt);
	strbuf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (t->type != T_EOF || !p->eof_reported)
		diag_error(&t->loc, "%s", strbuf_str(&b));
	free(b.s);
	if (t->type == T_EOF)
		p->eof_reported = 1;
	p->errors++;
	longjmp(p->fail, 1);
}

/* "expected WHAT, found TOKEN" at the current token. */
static void __attribute__((noreturn))
expected(struct parser *p, const char *what)
{
	struct token *t = peek(p);
	fail_at(p, t, "expected %s, found %s", what, tok_describe(t));
}

/* enter / leave - one level deeper / back in the tree being built. */
static void enter(struct parser *p)
{
	if (++p->depth > MAX_NEST)
		fail_at(p, peek(p), "the script nests expressions or statements "
			"more than %d levels deep here", MAX_NEST);
}

static void leave(struct parser *p)
{
	p->depth--;
}

static int accept(struct parser *p, const char *op)
{
	if (peek(p)->type == T_OP && !strcmp(peek(p)->text, op)) {
		next(p);
		return 1;
	}
	return 0;
}

static int is_op(struct parser *p, const char *op)
{
	return peek(p)->type == T_OP && !strcmp(peek(p)->text, op);
}

static int is_kw(struct parser *p, const char *kw)
{
	return peek(p)->type == T_IDENT && !strcmp(peek(p)->text, kw);
}

static struct token *expect(struct parser *p, const char *op)
{
	if (!is_op(p, op)) {
		char *w = xasprintf("'%s'", op);
		expected(p, w);
	}
	return next(p);
}

/* An identifier that is not a keyword, target ($x) or @-name. */
static struct token *expect_ident(struct parser *p, const char *what)
{
	struct token *t = peek(p);
	if (t->type != T_IDENT || is_keyword(t->text) || t->text[0] == '$' ||
	    t->text[0] == '@')
		expected(p, what);
	return next(p);
}

static struct expr *mk_expr(enum expr_kind k, const struct token *t)
{
	struct expr *e = xcalloc(1, sizeof(*e));
	e->kind = k;
	e->loc = t->loc;
	return e;
}

static struct stmt *mk_stmt(enum stmt_kind k, const struct token *t)
{
	struct stmt *s = xcalloc(1, sizeof(*s));
	s->kind = k;
	s->loc = t->loc;
	return s;
}

static struct expr *parse_expr(struct parser *p);
static struct expr *parse_ternary(struct parser *p);
static struct expr *parse_unary(struct parser *p);
static struct stmt *parse_stmt(struct parser *p);

/* ---- literals ---- */

/* A T_ARG token ($N / @N) or $# / @# as a literal expression. */
static struct expr *arg_literal(struct parser *p, struct token *t)
{
	struct expr *e;
	if (t->type == T_OP) {  /* $# @# */
		if (t->text[0] == '$') {
			e = mk_expr(E_NUM, t);
			e->num = script_argc;
		} else {
			e = mk_expr(E_STR, t);
			e->str = xasprintf("%d", script_argc);
			e->str_len = strlen(e->str);
		}
		return e;
	}
	if (t->unum < 1 || t->unum > (uint64_t)script_argc) {
		if (script_argc == 0)
			fail_at(p, t, "command line argument %s used, but no "
				"arguments were given", t->text);
		fail_at(p, t, "command line argument index %s out of range [1-%d]",
			t->text, script_argc);
	}
	const char *arg = script_argv[t->unum - 1];
	if (t->text[0] == '@') {
		e = mk_expr(E_STR, t);
		e->str = arg;
		e->str_len = strlen(arg);
		return e;
	}
	char *end;
	errno = 0;
	long long v;
	if (arg[0] == '-')
		v = strtoll(arg, &end, 0);
	else
		v = (long long)strtoull(arg, &end, 0);
	if (!*arg || *end || errno)
		fail_at(p, t, "command line argument %s ('%s') is not a number",
			t->text, arg);
	e = mk_expr(E_NUM, t);
	e->num = v;
	return e;
}

static struct expr *string_literal(struct parser *p);
static void splice_arg(struct parser *p);

/* arg_is_number - is the script argument of T_ARG @t (in range) a
 * number?  (Out of range: 1, for arg_literal's error.) */
static int arg_is_number(const struct token *t)
{
	const char *arg;
	char *end;
	if (t->unum < 1 || t->unum > (uint64_t)script_argc)
		return 1;
	arg = script_argv[t->unum - 1];
	errno = 0;
	if (arg[0] == '-')
		(void)strtoll(arg, &end, 0);
	else
		(void)strtoull(arg, &end, 0);
	return *arg && !*end && !errno;
}

/* name_string - the string literal (or @N script argument) naming a type,
 * module or variable of @cast/@var; @what names it in the error. */
static const char *name_string(struct parser *p, const char *what)
{
	struct token *t = peek(p);
	if (t->type == T_ARG && t->text[0] == '@')
		return arg_literal(p, next(p))->str;
	if (t->type != T_STR)
		expected(p, what);
	return string_literal(p)->str;
}

/* A string literal, concatenating adjacent ones. */
static struct expr *string_literal(struct parser *p)
{
	struct token *t = next(p);
	struct expr *e = mk_expr(E_STR, t);
	if (peek(p)->type != T_STR) {
		e->str = t->text;
		e->str_len = t->len;
		return e;
	}
	struct strbuf b = { 0 };
	strbuf_addn(&b, t->text, t->len);
	while (peek(p)->type == T_STR) {
		t = next(p);
		strbuf_addn(&b, t->text, t->len);
	}
	e->str_len = b.len;
	e->str = strbuf_detach(&b);
	return e;
}

/* A number token, negated when neg.  As SystemTap, anything from
 * LLONG_MIN to ULLONG_MAX is taken, the numbers above LLONG_MAX wrapping
 * to negative ones (18446744073709551615 is -1); a negated number must
 * not go below LLONG_MIN. */
static struct expr *number_literal(struct parser *p, int neg, struct token *at)
{
	struct token *t = next(p);
	struct expr *e = mk_expr(E_NUM, at ? at : t);
	if (neg && t->unum > (uint64_t)INT64_MAX + 1)
		fail_at(p, t, "number '-%s' does not fit in a signed 64-bit long",
			t->text);
	e->num = (int64_t)(neg ? (uint64_t)0 - t->unum : t->unum);
	return e;
}

/* A literal: number (optionally negative), string, $N/@N. */
static struct expr *parse_literal1(struct parser *p, const char *what);

/* is_str_arg - @t is a string literal or an @N argument */
static int is_str_arg(const struct token *t)
{
	return t->type == T_STR || (t->type == T_ARG && t->text[0] == '@');
}

/* parse_literal - a literal; adjacent strings and @N arguments join into
 * one string, as in SystemTap (`statement(@2 "@*:*")`) */
static struct expr *parse_literal(struct parser *p, const char *what)
{
	struct expr *e = parse_literal1(p, what), *n;
	while (e->kind == E_STR && is_str_arg(peek(p))) {
		char *j;
		n = peek(p)->type == T_STR ? string_literal(p)
					   : arg_literal(p, next(p));
		j = xmalloc(e->str_len + n->str_len + 1);
		memcpy(j, e->str, e->str_len);
		memcpy(j + e->str_len, n->str, n->str_len);
		j[e->str_len + n->str_len] = 0;
		e->str = j;
		e->str_len += n->str_len;
	}
	return e;
}

static struct expr *parse_literal1(struct parser *p, const char *what)
{
	struct token *t = peek(p);
	if (t->type == T_STR)
		return string_literal(p);
	if (t->type == T_NUM)
		return number_literal(p, 0, NULL);
	if (t->type == T_ARG || tok_is(t, "$#") || tok_is(t, "@#"))
		return arg_literal(p, next(p));
	if (tok_is(t, "-") && peekn(p, 1)->type == T_NUM) {
		next(p);
		return number_literal(p, 1, t);
	}
	if (tok_is(t, "-") && peekn(p, 1)->type == T_ARG &&
	    peekn(p, 1)->text[0] == '$') {
		next(p);
		struct expr *e = arg_literal(p, next(p));
		e->num = (int64_t)((uint64_t)0 - (uint64_t)e->num);
		e->loc = t->loc;
		return e;
	}
	expected(p, what);
}

/* ---- expressions ---- */

/* Comma-separated expressions up to the closing token 'close'. */
static void parse_args(struct parser *p, struct vec *args, const char *close)
{
	if (accept(p, close))
		return;
	for (;;) {
		struct token *t = peek(p);
		struct token *n = peekn(p, 1);
		if (!strcmp(close, "]") && tok_is(t, "*") &&
		    (tok_is(n, ",") || tok_is(n, "]"))) {
			/* a slice key: pass 2 says where it is allowed */
			vec_push(args, mk_expr(E_WILD, next(p)));
		} else {
			vec_push(args, parse_expr(p));
		}
		if (accept(p, close))
			return;
		if (!is_op(p, ",")) {
			char *w = xasprintf("',' or '%s'", close);
			expected(p, w);
		}
		next(p);
	}
}

/* ->field / [index] chain after a target variable or @cast. */
static void parse_target_chain(struct parser *p, struct expr *e)
{
	for (;;) {
		struct token *t = peek(p);
		struct target_component *c;
		if (tok_is(t, "->")) {
			next(p);
			struct token *n = peek(p);
			if (n->type != T_IDENT || n->text[0] == '@')
				expected(p, "a field name after '->'");
			next(p);
			c = xcalloc(1, sizeof(*c));
			c->name = n->text;
		} else if (tok_is(t, "[")) {
			next(p);
			c = xcalloc(1, sizeof(*c));
			c->is_index = 1;
			c->index = parse_expr(p);
			expect(p, "]");
		} else {
			return;
		}
		c->loc = t->loc;
		vec_push(&e->components, c);
	}
}

static const char *const print_names[] = {
	"print", "println", "printf", "printd", "printdln",
	"sprint", "sprintln", "sprintf", "sprintd", "sprintdln", NULL,
};

static const char *const statops[] = {
	"@count", "@sum", "@min", "@max", "@avg", "@variance", NULL,
};

static int in_list(const char *const *l, const char *s)
{
	for (int i = 0; l[i]; i++)
		if (!strcmp(l[i], s))
			return 1;
	return 0;
}

/* An @-operator: @count(...), @hist_*(...), @entry, @defined, @cast, @var,
 * @perf */
static struct expr *parse_at_op(struct parser *p)
{
	struct token *t = next(p);
	const char *n = t->text;
	struct expr *e;

	if (in_list(statops, n)) {
		e = mk_expr(E_STATOP, t);
		e->name = n + 1;
		expect(p, "(");
		e->a = parse_expr(p);
		while (accept(p, ","))
			vec_push(&e->args, parse_expr(p));
		expect(p, ")");
		return e;
	}
	if (!strcmp(n, "@hist_log") || !strcmp(n, "@hist_linear")) {
		int lin = n[6] == 'l' && n[7] == 'i';
		e = mk_expr(E_HIST, t);
		e->name = n + 1;
		expect(p, "(");
		e->a = parse_expr(p);
		if (lin) {
			for (int i = 0; i < 3; i++) {
				expect(p, ",");
				vec_push(&e->args, parse_expr(p));
			}
		}
		expect(p, ")");
		return e;
	}
	if (!strcmp(n, "@probewrite")) {
		/* @probewrite(VAR): 1 if the probe writes VAR; kept as an
		 * E_DEFINED named "probewrite" */
		e = mk_expr(E_DEFINED, t);
		e->name = "probewrite";
		expect(p, "(");
		e->a = parse_expr(p);
		if (e->a->kind != E_SYM && e->a->kind != E_TARGET)
			fail_at(p, t, "@probewrite takes a variable");
		expect(p, ")");
		return e;
	}
	if (!strcmp(n, "@entry") || !strcmp(n, "@defined")) {
		e = mk_expr(n[1] == 'e' ? E_ENTRY : E_DEFINED, t);
		expect(p, "(");
		e->a = parse_expr(p);
		expect(p, ")");
		return e;
	}
	if (!strcmp(n, "@cast")) {
		e = mk_expr(E_CAST, t);
		expect(p, "(");
		e->a = parse_expr(p);
		expect(p, ",");
		e->name = name_string(p, "a type name string");
		if (accept(p, ","))
			e->module = name_string(p, "a module name string");
		expect(p, ")");
		parse_target_chain(p, e);
		return e;
	}
	if (!strcmp(n, "@perf")) {
		/* @perf("NAME"): the value of perf counter NAME */
		e = mk_expr(E_PERF, t);
		expect(p, "(");
		e->str = name_string(p, "a perf counter name string");
		e->str_len = strlen(e->str);
		expect(p, ")");
		return e;
	}
	if (!strcmp(n, "@var")) {
		e = mk_expr(E_TARGET, t);
		e->name = "@var";
		expect(p, "(");
		e->str = name_string(p, "a variable name string");
		e->str_len = strlen(e->str);
		if (accept(p, ","))
			e->module = name_string(p, "a module name string");
		expect(p, ")");
		parse_target_chain(p, e);
		return e;
	}
	fail_at(p, t, "unknown operator or macro '%s'", n);
}

/* embedded_expr - `%{ C %}` as an expression (guru mode): a long, or a
 * string when the code has the pragma comment string in it.  Lowered
 * into a call of a new embedded-C function returning the C expression;
 * inside a script function that function takes the same parameters,
 * passed through, so the code reads them as STAP_ARG_NAME. */
static struct expr *embedded_expr(struct parser *p, struct token *t)
{
	static int count;
	struct functiondecl *fn = xcalloc(1, sizeof(*fn));
	struct expr *e = mk_expr(E_CALL, t);
	struct source_loc *l = xmalloc(sizeof(*l));
	const char *code = t->text;
	int is_str = strstr(code, "/* string */") != NULL;
	fn->loc = t->loc;
	fn->name = xasprintf("%s%d", EMBEDDED_EXPR_PREFIX, ++count);
	fn->ret = is_str ? TYPE_STRING : TYPE_LONG;
	fn->embedded_c = xasprintf("STAP_RETURN((%s));", code);
	for (int i = 0; p->fn && i < p->fn->params.n; i++) {
		struct sym *a = p->fn->params.items[i], *c;
		struct expr *arg = mk_expr(E_SYM, t);
		c = xcalloc(1, sizeof(*c));
		*c = *a;
		vec_push(&fn->params, c);
		arg->name = a->name;
		vec_push(&e->args, arg);
	}
	vec_push(&p->f->functions, fn);
	e->name = fn->name;
	*l = t->loc;
	vec_push(&p->f->embed_locs, l);
	return e;
}

static struct expr *parse_primary(struct parser *p)
{
	struct token *t = peek(p);
	struct expr *e;

	switch (t->type) {
	case T_NUM:
		return number_literal(p, 0, NULL);
	case T_STR:
		return string_literal(p);
	case T_ARG:
		if (t->text[0] == '$' && !arg_is_number(t)) {
			/* $N that is not a number is script text, as in
			 * SystemTap: its tokens replace it ($1 = "tid()") */
			splice_arg(p);
			return parse_primary(p);
		}
		return arg_literal(p, next(p));
	case T_EMBEDDED:
		return embedded_expr(p, next(p));
	case T_IDENT:
		if (t->text[0] == '@')
			return parse_at_op(p);
		if (t->text[0] == '$') {
			const char *n = t->text + (t->text[1] == '$');
			if (!(isalpha((unsigned char)n[1]) || n[1] == '_'))
				fail_at(p, t, "malformed target variable '%s'", t->text);
			next(p);
			e = mk_expr(E_TARGET, t);
			e->name = t->text;
			parse_target_chain(p, e);
			return e;
		}
		if (is_keyword(t->text))
			expected(p, "an expression");
		next(p);
		if (accept(p, "(")) {
			e = mk_expr(in_list(print_names, t->text) ? E_PRINT : E_CALL, t);
			e->name = t->text;
			parse_args(p, &e->args, ")");
			if (e->kind == E_PRINT && strstr(e->name, "printf") &&
			    e->args.n == 0)
				fail_at(p, t, "%s needs a format string argument",
					e->name);
			return e;
		}
		if (in_list(print_names, t->text))
			fail_at(p, t, "expected '(' after '%s'", t->text);
		e = mk_expr(E_SYM, t);
		e->name = t->text;
		return e;
	case T_OP:
		if (tok_is(t, "$#") || tok_is(t, "@#"))
			return arg_literal(p, next(p));
		if (tok_is(t, "(")) {
			next(p);
			e = parse_expr(p);
			expect(p, ")");
			return e;
		}
		break;
	default:
		break;
	}
	expected(p, "an expression");
}

/* primary followed by [keys] (arrays, histogram buckets) and ++/-- */
static struct expr *parse_postfix(struct parser *p)
{
	struct expr *e = parse_primary(p);
	struct token *t = peek(p);
	int depth0 = p->depth;
	if (tok_is(t, "[") && (e->kind == E_SYM || e->kind == E_HIST)) {
		struct expr *ix = mk_expr(E_INDEX, t);
		next(p);
		ix->loc = e->loc;
		ix->a = e;
		parse_args(p, &ix->args, "]");
		if (ix->args.n == 0)
			fail_at(p, t, "an array index needs at least one key");
		e = ix;
		t = peek(p);
	}
	if (tok_is(t, "->")) {
		/* autocast: ->field on any expression (a target variable's
		 * or @cast's own chain was taken by parse_primary, so this
		 * one follows a parenthesised expression or a value); pass 2
		 * finds the C type it points to */
		struct expr *ac = mk_expr(E_CAST, t);
		ac->loc = e->loc;
		ac->a = e;
		ac->name = NULL;
		parse_target_chain(p, ac);
		e = ac;
		t = peek(p);
	}
	while (tok_is(t, "++") || tok_is(t, "--")) {
		struct expr *u = mk_expr(E_INCDEC, t);
		enter(p);
		next(p);
		u->op = t->text[0] == '+' ? OP_POSTINC : OP_POSTDEC;
		u->a = e;
		e = u;
		t = peek(p);
	}
	p->depth = depth0;
	return e;
}

static struct expr *parse_unary(struct parser *p)
{
	struct token *t = peek(p);
	struct expr *e;
	enum stp_op op = OP_NONE;

	if (t->type != T_OP)
		return parse_postfix(p);
	if (tok_is(t, "-") && peekn(p, 1)->type == T_NUM &&
	    peekn(p, 1)->off == t->end) {
		next(p);
		return number_literal(p, 1, t);
	}
	if (tok_is(t, "++") || tok_is(t, "--")) {
		next(p);
		e = mk_expr(E_INCDEC, t);
		e->op = t->text[0] == '+' ? OP_PREINC : OP_PREDEC;
		enter(p);
		e->a = parse_unary(p);
		leave(p);
		return e;
	}
	if (tok_is(t, "-")) op = OP_NEG;
	else if (tok_is(t, "+")) op = OP_PLUS;
	else if (tok_is(t, "!")) op = OP_NOT;
	else if (tok_is(t, "~")) op = OP_BNOT;
	else if (tok_is(t, "&")) op = OP_BAND;   /* &$var: address of */
	if (op == OP_NONE)
		return parse_postfix(p);
	next(p);
	e = mk_expr(E_UNARY, t);
	e->op = op;
	enter(p);
	e->a = parse_unary(p);
	leave(p);
	if (op == OP_BAND && e->a->kind != E_TARGET && e->a->kind != E_CAST)
		fail_at(p, t, "'&' can only take the address of a target variable");
	return e;
}

/* Binary operator tables, one level each, lowest first from LEVEL_OR. */
struct binop {
	const char *text;
	enum stp_op op;
};
static const struct binop lv_lor[] = { { "||", OP_LOR }, { 0, 0 } };
static const struct binop lv_land[] = { { "&&", OP_LAND }, { 0, 0 } };
static const struct binop lv_bor[] = { { "|", OP_BOR }, { 0, 0 } };
static const struct binop lv_bxor[] = { { "^", OP_BXOR }, { 0, 0 } };
static const struct binop lv_band[] = { { "&", OP_BAND }, { 0, 0 } };
static const struct binop lv_cmp[] = {
	{ "<", OP_LT }, { "<=", OP_LE }, { ">", OP_GT }, { ">=", OP_GE },
	{ "==", OP_EQ }, { "!=", OP_NE }, { "=~", OP_MATCH }, { "!~", OP_NMATCH },
	{ 0, 0 } };
static const struct binop lv_shift[] = { { "<<", OP_SHL }, { ">>", OP_SHR }, { 0, 0 } };
static const struct binop lv_concat[] = { { ".", OP_CONCAT }, { 0, 0 } };
static const struct binop lv_add[] = { { "+", OP_ADD }, { "-", OP_SUB }, { 0, 0 } };
static const struct binop lv_mul[] = {
	{ "*", OP_MUL }, { "/", OP_DIV }, { "%", OP_MOD }, { 0, 0 } };

/* Levels from loosest to tightest; NULL marks the "in" level. */
static const struct binop *const levels[] = {
	lv_lor, lv_land, lv_bor, lv_bxor, lv_band, NULL,
	lv_cmp, lv_shift, lv_concat, lv_add, lv_mul,
};
#define NLEVELS ((int)(sizeof(levels) / sizeof(levels[0])))

static struct expr *parse_level(struct parser *p, int lv);

/* [k1, k2] in a   |   k in a */
static struct expr *parse_in(struct parser *p, int lv)
{
	struct token *t = peek(p);
	struct vec keys = { 0 };
	struct expr *e;
	int depth0 = p->depth;

	if (tok_is(t, "[")) {
		next(p);
		parse_args(p, &keys, "]");
		if (!is_kw(p, "in"))
			expected(p, "'in' after a '[...]' key list");
	} else {
		e = parse_level(p, lv + 1);
		if (!is_kw(p, "in"))
			return e;
		vec_push(&keys, e);
	}
	while (is_kw(p, "in")) {
		struct token *in = next(p);
		enter(p);
		struct token *a = expect_ident(p, "an array name after 'in'");
		e = mk_expr(E_IN, in);
		e->loc = t->loc;
		e->args = keys;
		e->a = mk_expr(E_SYM, a);
		e->a->name = a->text;
		if (!is_kw(p, "in")) {
			p->depth = depth0;
			return e;
		}
		memset(&keys, 0, sizeof(keys));
		vec_push(&keys, e);
	}
	return e;
}

static struct expr *parse_level(struct parser *p, int lv)
{
	if (lv == NLEVELS)
		return parse_unary(p);
	if (!levels[lv])
		return parse_in(p, lv);
	struct expr *e = parse_level(p, lv + 1);
	int depth0 = p->depth;
	for (;;) {
		struct token *t = peek(p);
		const struct binop *b;
		if (t->type != T_OP)
			break;
		for (b = levels[lv]; b->text; b++)
			if (!strcmp(b->text, t->text))
				break;
		if (!b->text)
			break;
		enter(p);   /* the left-deep chain grows */
		next(p);
		struct expr *r = parse_level(p, lv + 1);
		struct expr *bin = mk_expr(E_BINARY, t);
		bin->op = b->op;
		bin->a = e;
		bin->b = r;
		e = bin;
	}
	p->depth = depth0;
	return e;
}

static struct expr *parse_ternary(struct parser *p)
{
	struct expr *c = parse_level(p, 0);
	struct token *t = peek(p);
	if (!tok_is(t, "?"))
		return c;
	next(p);
	struct expr *e = mk_expr(E_TERNARY, t);
	e->a = c;
	e->b = parse_expr(p);
	expect(p, ":");
	enter(p);
	e->c = parse_ternary(p);
	leave(p);
	return e;
}

static const struct binop assignops[] = {
	{ "=", OP_NONE }, { "+=", OP_ADD }, { "-=", OP_SUB }, { "*=", OP_MUL },
	{ "/=", OP_DIV }, { "%=", OP_MOD }, { "<<=", OP_SHL }, { ">>=", OP_SHR },
	{ "&=", OP_BAND }, { "|=", OP_BOR }, { "^=", OP_BXOR },
	{ ".=", OP_CONCAT }, { 0, 0 },
};

static struct expr *parse_expr1(struct parser *p);

static struct expr *parse_expr(struct parser *p)
{
	struct expr *e;
	enter(p);
	e = parse_expr1(p);
	leave(p);
	return e;
}

static struct expr *parse_expr1(struct parser *p)
{
	struct expr *l = parse_ternary(p);
	struct token *t = peek(p);
	if (t->type != T_OP)
		return l;
	if (tok_is(t, "<<<")) {
		next(p);
		struct expr *e = mk_expr(E_STATS_ADD, t);
		e->a = l;
		e->b = parse_expr(p);
		return e;
	}
	for (const struct binop *b = assignops; b->text; b++) {
		if (strcmp(b->text, t->text))
			continue;
		next(p);
		struct expr *e = mk_expr(E_ASSIGN, t);
		e->op = b->op;
		e->a = l;
		e->b = parse_expr(p);
		return e;
	}
	return l;
}

/* ---- statements ---- */

/* is_toplevel_start - a token that can only begin a declaration */
static int is_toplevel_start(const struct token *t)
{
	return t->type == T_EMBEDDED || tok_is(t, "probe") ||
		tok_is(t, "global") || tok_is(t, "function") ||
		tok_is(t, "private");
}

/* skip_stmt - error recovery inside a block: skip to just after the next
 * ';' or to the '}' that closes the current block (not consumed), whichever
 * comes first outside nested braces/parentheses.  A token that can only
 * start a declaration gives up on the block (fail without a message). */
static void skip_stmt(struct parser *p)
{
	int depth = 0;
	for (;;) {
		struct token *t = peek(p);
		if (t->type == T_EOF || (depth == 0 && is_toplevel_start(t)))
			longjmp(p->fail, 1);
		if (tok_is(t, "{") || tok_is(t, "(") || tok_is(t, "["))
			depth++;
		else if (tok_is(t, "}") || tok_is(t, ")") || tok_is(t, "]")) {
			if (depth == 0 && tok_is(t, "}"))
				return;
			if (depth > 0)
				depth--;
		} else if (depth == 0 && tok_is(t, ";")) {
			next(p);
			return;
		}
		next(p);
	}
}

/* try_stmt - parse one statement into *out; 0 after a syntax error (with
 * the parser left where the error was found). */
static int try_stmt(struct parser *p, struct stmt **out)
{
	jmp_buf save;
	int ok = 0, depth = p->depth;
	memcpy(save, p->fail, sizeof(save));
	if (setjmp(p->fail) == 0) {
		*out = parse_stmt(p);
		ok = 1;
	}
	memcpy(p->fail, save, sizeof(save));
	p->depth = depth;
	return ok;
}

static struct stmt *parse_block(struct parser *p)
{
	struct token *t = expect(p, "{");
	struct stmt *s = mk_stmt(S_BLOCK, t);
	while (!is_op(p, "}")) {
		struct stmt *st = NULL;
		if (peek(p)->type == T_EOF)
			fail_at(p, peek(p), "expected '}' to close the block "
				"opened at line %d column %d, found end of input",
				t->loc.line, t->loc.col);
		if (try_stmt(p, &st)) {
			vec_push(&s->stmts, st);
			continue;
		}
		if (p->errors >= MAX_PARSE_ERRORS || peek(p)->type == T_EOF)
			longjmp(p->fail, 1);
		skip_stmt(p);
	}
	next(p);
	return s;
}

static void opt_semi(struct parser *p)
{
	accept(p, ";");
}

/* foreach ([v =] [k1, k2] in a [+|-] [limit n]) body */
static struct stmt *parse_foreach(struct parser *p, struct token *kw)
{
	struct stmt *s = mk_stmt(S_FOREACH, kw);
	expect(p, "(");

	/* sort marker after a name: records position, -1 = value */
#define SORT_MARK(pos) do { \
		if (is_op(p, "+") || is_op(p, "-")) { \
			if (s->sort_dir) \
				fail_at(p, peek(p), "only one sort directive is allowed in foreach"); \
			s->sort_dir = is_op(p, "+") ? 1 : -1; \
			s->sort_key = (pos); \
			next(p); \
		} } while (0)

	if (!is_op(p, "[")) {
		struct token *n = expect_ident(p, "a variable name or '['");
		struct expr *v = mk_expr(E_SYM, n);
		v->name = n->text;
		if (is_op(p, "=") || ((is_op(p, "+") || is_op(p, "-")) &&
				     tok_is(peekn(p, 1), "="))) {
			s->value = v;
			SORT_MARK(-1);
			expect(p, "=");
		} else {
			vec_push(&s->keys, v);
			SORT_MARK(1);
		}
	}
	if (!s->keys.n) {
		if (is_op(p, "[")) {
			next(p);
			for (;;) {
				struct token *n = expect_ident(p, "a key variable name");
				struct expr *k = mk_expr(E_SYM, n);
				k->name = n->text;
				vec_push(&s->keys, k);
				if (s->keys.n > 9)
					fail_at(p, n, "too many keys in foreach (at most 9)");
				SORT_MARK(s->keys.n);
				if (accept(p, "]"))
					break;
				if (!accept(p, ","))
					expected(p, "',' or ']'");
			}
		} else if (s->value) {
			struct token *n = expect_ident(p, "'[' or a key variable name");
			struct expr *k = mk_expr(E_SYM, n);
			k->name = n->text;
			vec_push(&s->keys, k);
			SORT_MARK(1);
		}
	}
	if (!is_kw(p, "in"))
		expected(p, "'in'");
	next(p);
	struct token *a = expect_ident(p, "an array name");
	s->array = mk_expr(E_SYM, a);
	s->array->name = a->text;
	if (is_op(p, "[")) {
		struct token *b = next(p);
		parse_args(p, &s->slice, "]");
		if (s->slice.n == 0)
			fail_at(p, b, "an array slice needs at least one key");
	}
	if (peek(p)->type == T_IDENT && in_list(statops, peek(p)->text) &&
	    strcmp(peek(p)->text, "@variance")) {
		/* a@sum: statistics array sorted by that aggregate */
		s->sort_aggr = next(p)->text + 1;
	}
	SORT_MARK(-1);
#undef SORT_MARK
	if (is_kw(p, "limit")) {
		next(p);
		s->limit = parse_expr(p);
	}
	expect(p, ")");
	s->body = parse_stmt(p);
	return s;
}

static struct stmt *parse_stmt1(struct parser *p);

static struct stmt *parse_stmt(struct parser *p)
{
	struct stmt *s;
	enter(p);
	s = parse_stmt1(p);
	leave(p);
	return s;
}

static struct stmt *parse_stmt1(struct parser *p)
{
	struct token *t = peek(p);
	struct stmt *s;

	if (tok_is(t, "{"))
		return parse_block(p);
	if (tok_is(t, ";")) {
		next(p);
		return mk_stmt(S_NULL, t);
	}
	if (t->type == T_IDENT) {
		const char *k = t->text;
		if (!strcmp(k, "if")) {
			next(p);
			s = mk_stmt(S_IF, t);
			expect(p, "(");
			s->e = parse_expr(p);
			expect(p, ")");
			s->body = parse_stmt(p);
			if (is_kw(p, "else")) {
				next(p);
				s->els = parse_stmt(p);
			}
			return s;
		}
		if (!strcmp(k, "while")) {
			next(p);
			s = mk_stmt(S_WHILE, t);
			expect(p, "(");
			s->e = parse_expr(p);
			expect(p, ")");
			s->body = parse_stmt(p);
			return s;
		}
		if (!strcmp(k, "for")) {
			next(p);
			s = mk_stmt(S_FOR, t);
			expect(p, "(");
			if (!is_op(p, ";"))
				s->init = parse_expr(p);
			expect(p, ";");
			if (!is_op(p, ";"))
				s->e = parse_expr(p);
			expect(p, ";");
			if (!is_op(p, ")"))
				s->step = parse_expr(p);
			expect(p, ")");
			s->body = parse_stmt(p);
			return s;
		}
		if (!strcmp(k, "foreach"))
			return parse_foreach(p, next(p));
		if (!strcmp(k, "break") || !strcmp(k, "continue") ||
		    !strcmp(k, "next")) {
			next(p);
			s = mk_stmt(k[0] == 'b' ? S_BREAK : k[0] == 'c' ? S_CONTINUE
				    : S_NEXT, t);
			opt_semi(p);
			return s;
		}
		if (!strcmp(k, "return")) {
			next(p);
			s = mk_stmt(S_RETURN, t);
			if (!is_op(p, ";") && !is_op(p, "}"))
				s->e = parse_expr(p);
			opt_semi(p);
			return s;
		}
		if (!strcmp(k, "delete")) {
			next(p);
			s = mk_stmt(S_DELETE, t);
			s->e = parse_expr(p);
			opt_semi(p);
			return s;
		}
		if (!strcmp(k, "try")) {
			next(p);
			s = mk_stmt(S_TRY, t);
			s->body = parse_block(p);
			if (!is_kw(p, "catch"))
				expected(p, "'catch' after the try block");
			next(p);
			if (accept(p, "(")) {
				s->catch_var = expect_ident(p, "a variable name")->text;
				expect(p, ")");
			}
			s->els = parse_block(p);
			return s;
		}
		if (!strcmp(k, "else"))
			fail_at(p, t, "'else' without a matching 'if'");
		if (!strcmp(k, "catch"))
			fail_at(p, t, "'catch' without a matching 'try'");
	}
	s = mk_stmt(S_EXPR, t);
	s->e = parse_expr(p);
	opt_semi(p);
	return s;
}

/* ---- top level ---- */

/* A probe point component name: adjacent identifier / number / '*'
 * tokens glued together ("sys*", "*open*", "**"). */
static const char *pp_name(struct parser *p)
{
	struct token *t = peek(p);
	struct strbuf b = { 0 };
	if (t->type != T_IDENT && !tok_is(t, "*"))
		expected(p, "a probe point component name");
	if (t->type == T_IDENT && (t->text[0] == '$' || t->text[0] == '@'))
		expected(p, "a probe point component name");
	strbuf_add(&b, t->text);
	next(p);
	for (;;) {
		struct token *n = peek(p);
		if (n->off != t->end || n->loc.file != t->loc.file ||
		    !(n->type == T_IDENT || n->type == T_NUM || tok_is(n, "*")))
			break;
		strbuf_add(&b, n->text);
		t = next(p);
	}
	return strbuf_detach(&b);
}

/* A brace expansion's alternatives: struct vec * of struct pp_component *,
 * one per spelled-out component sequence. */

/* cross - every sequence of @a followed by every sequence of @b */
static struct vec cross(struct vec *a, struct vec *b)
{
	struct vec r = { 0 };
	int i, j, k;
	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++) {
			struct vec *x = a->items[i], *y = b->items[j];
			struct vec *s = xcalloc(1, sizeof(*s));
			for (k = 0; k < x->n; k++)
				vec_push(s, x->items[k]);
			for (k = 0; k < y->n; k++)
				vec_push(s, y->items[k]);
			vec_push(&r, s);
		}
	return r;
}

static struct vec parse_pp_seq(struct parser *p, int depth);

/* splice_arg - a script argument ($N or @N) where a probe point component
 * is expected stands for probe point text, as in SystemTap (`probe $1`,
 * `probe $1.call` with $1 = 'kernel.function("vfs_*")'): its tokens
 * replace the argument's token. */
static void splice_arg(struct parser *p)
{
	struct token *t = peek(p), *nt;
	struct tokvec v = { 0 };
	const char *text;
	char *file;
	int n;
	if (t->unum < 1 || t->unum > (uint64_t)script_argc) {
		if (script_argc == 0)
			fail_at(p, t, "command line argument %s used, but no "
				"arguments were given", t->text);
		fail_at(p, t, "command line argument index %s out of range [1-%d]",
			t->text, script_argc);
	}
	if (++p->splices > 64)
		fail_at(p, t, "script arguments spliced too deep");
	text = script_argv[t->unum - 1];
	file = xasprintf("<argument %s>", t->text);
	source_register(file, text);
	if (lex_file(file, text, &v) < 0 || v.n < 2)
		fail_at(p, t, "argument %s ('%s') is not %s", t->text, text,
			p->depth ? "an expression" : "a probe point");
	n = v.n - 1;            /* its tokens, without the end of input */
	nt = xcalloc(p->n - 1 + n, sizeof(*nt));
	memcpy(nt, p->t, p->pos * sizeof(*nt));
	memcpy(nt + p->pos, v.t, n * sizeof(*nt));
	memcpy(nt + p->pos + n, p->t + p->pos + 1,
	       (p->n - p->pos - 1) * sizeof(*nt));
	vec_push(&p->retired, p->t);
	free(v.t);
	p->t = nt;
	p->n += n - 1;
}

/* parse_pp_item - one component NAME[(LITERAL)], or a brace group
 * {SEQ, SEQ, ...} of alternatives (nested braces allowed): its sequences */
static struct vec parse_pp_item(struct parser *p, int depth)
{
	struct vec r = { 0 };
	if (peek(p)->type == T_ARG)
		splice_arg(p);
	if (is_op(p, "{")) {
		struct token *open = next(p);
		if (depth > 16)
			fail_at(p, open, "probe point braces nested too deep");
		do {
			struct vec alt = parse_pp_seq(p, depth + 1);
			/* an alternative's own ? and !: kept as marker
			 * components until parse_probe_point takes them */
			while (is_op(p, "?") || is_op(p, "!")) {
				struct token *f = next(p);
				for (int i = 0; i < alt.n; i++) {
					struct pp_component *m = xcalloc(1, sizeof(*m));
					m->name = f->text;
					vec_push(alt.items[i], m);
				}
			}
			for (int i = 0; i < alt.n; i++)
				vec_push(&r, alt.items[i]);
			free(alt.items);
		} while (accept(p, ","));
		expect(p, "}");
		return r;
	} else {
		struct pp_component *c = xcalloc(1, sizeof(*c));
		struct vec *s = xcalloc(1, sizeof(*s));
		c->name = pp_name(p);
		if (accept(p, "(")) {
			c->arg = parse_literal(p, "a number or string literal");
			expect(p, ")");
		}
		vec_push(s, c);
		vec_push(&r, s);
		return r;
	}
}

/* parse_pp_seq - ITEM{.ITEM}: the component sequences it spells */
static struct vec parse_pp_seq(struct parser *p, int depth)
{
	struct vec r = parse_pp_item(p, depth);
	while (accept(p, ".")) {
		struct vec next_item = parse_pp_item(p, depth), x;
		x = cross(&r, &next_item);
		free(r.items);
		free(next_item.items);
		r = x;
		if (r.n > 10000)
			fail_at(p, peek(p), "the probe point braces expand to "
				"more than 10000 probe points");
	}
	return r;
}

/* parse_probe_point - one probe point as written, with its brace
 * alternatives spelled out: `syscall.{open,close}?` appends
 * syscall.open? and syscall.close? to @v. */
static void parse_probe_point(struct parser *p, struct vec *v)
{
	struct source_loc loc = peek(p)->loc;
	struct vec seqs = parse_pp_seq(p, 0);
	int optional = 0, sufficient = 0, i;
	struct expr *cond = NULL;
	for (;;) {
		if (accept(p, "?"))
			optional = 1;
		else if (accept(p, "!"))
			sufficient = 1;
		else
			break;
	}
	if (is_kw(p, "if")) {
		next(p);
		expect(p, "(");
		cond = parse_expr(p);
		expect(p, ")");
	}
	for (i = 0; i < seqs.n; i++) {
		struct probe_point *pp = xcalloc(1, sizeof(*pp));
		struct vec *s = seqs.items[i];
		int k, n = 0;
		pp->loc = loc;
		pp->optional = optional;
		pp->sufficient = sufficient;
		/* the ? and ! markers of brace alternatives */
		for (k = 0; k < s->n; k++) {
			struct pp_component *c = s->items[k];
			if (!strcmp(c->name, "?"))
				pp->optional = 1;
			else if (!strcmp(c->name, "!"))
				pp->sufficient = 1;
			else
				s->items[n++] = c;
		}
		s->n = n;
		pp->components = *s;
		pp->cond = cond;
		free(s);
		vec_push(v, pp);
	}
	free(seqs.items);
}

static void parse_points(struct parser *p, struct vec *v)
{
	do
		parse_probe_point(p, v);
	while (accept(p, ","));
}

static void parse_probe(struct parser *p, struct token *kw)
{
	struct vec pts = { 0 };
	parse_points(p, &pts);
	if (is_op(p, "=") || is_op(p, "+=")) {
		int epi = is_op(p, "+=");
		struct token *eq = next(p);
		struct vec target = { 0 };
		parse_points(p, &target);
		struct stmt *body = parse_block(p);
		for (int i = 0; i < pts.n; i++) {
			struct probe_point *n = pts.items[i];
			if (n->cond || n->optional || n->sufficient)
				fail_at(p, eq, "a probe alias name cannot be optional or conditional");
			struct probe_alias *a = xcalloc(1, sizeof(*a));
			a->loc = kw->loc;
			a->name = n;
			a->points = target;
			a->body = body;
			a->epilogue = epi;
			vec_push(&p->f->aliases, a);
		}
		return;
	}
	struct probe *pr = xcalloc(1, sizeof(*pr));
	pr->loc = kw->loc;
	pr->points = pts;
	if (!is_op(p, "{"))
		expected(p, "'{' or ',' after the probe point");
	pr->body = parse_block(p);
	vec_push(&p->f->probes, pr);
}

static void parse_global(struct parser *p, int is_private)
{
	do {
		struct token *n = expect_ident(p, "a global variable name");
		struct sym *s = xcalloc(1, sizeof(*s));
		s->kind = SYM_GLOBAL;
		s->name = n->text;
		s->loc = n->loc;
		s->is_private = is_private;
		s->index = p->f->globals.n;
		if (accept(p, "%"))
			s->wrap = 1;
		if (accept(p, "[")) {
			struct token *sz = peek(p);
			if (sz->type != T_NUM && sz->type != T_ARG)
				expected(p, "an array size");
			struct expr *e = parse_literal(p, "an array size");
			if (e->kind != E_NUM || e->num <= 0)
				fail_at(p, sz, "an array size must be a positive number");
			s->maxsize = e->num;
			expect(p, "]");
			if (accept(p, "%"))
				s->wrap = 1;
		}
		if (accept(p, "=")) {
			if (s->maxsize)
				fail_at(p, n, "an array cannot have an initial value");
			s->init = parse_literal(p, "a number or string literal");
			s->type = s->init->kind == E_NUM ? TYPE_LONG : TYPE_STRING;
		}
		vec_push(&p->f->globals, s);
	} while (accept(p, ","));
	opt_semi(p);
}

static enum stp_type parse_type(struct parser *p)
{
	struct token *t = peek(p);
	if (tok_is(t, "long")) { next(p); return TYPE_LONG; }
	if (tok_is(t, "string")) { next(p); return TYPE_STRING; }
	expected(p, "a type ('long' or 'string')");
}

static void parse_function(struct parser *p, struct token *kw, int is_private)
{
	struct functiondecl *fn = xcalloc(1, sizeof(*fn));
	struct token *n = expect_ident(p, "a function name");
	fn->loc = kw->loc;
	fn->name = n->text;
	fn->is_private = is_private;
	if (accept(p, ":"))
		fn->ret = parse_type(p);
	expect(p, "(");
	if (!accept(p, ")")) {
		for (;;) {
			struct token *a = expect_ident(p, "a parameter name");
			struct sym *s = xcalloc(1, sizeof(*s));
			s->kind = SYM_PARAM;
			s->name = a->text;
			s->loc = a->loc;
			s->index = fn->params.n;
			for (int i = 0; i < fn->params.n; i++)
				if (!strcmp(((struct sym *)fn->params.items[i])->name, a->text))
					fail_at(p, a, "duplicate parameter '%s'", a->text);
			if (accept(p, ":"))
				s->type = parse_type(p);
			vec_push(&fn->params, s);
			if (accept(p, ")"))
				break;
			if (!accept(p, ","))
				expected(p, "',' or ')'");
		}
	}
	if (accept(p, ":")) {
		/* function f(...):N - N orders the overloads of f */
		struct token *n = peek(p);
		if (n->type != T_NUM)
			expected(p, "a priority number after ':'");
		fn->priority = parse_literal(p, "a priority number")->num;
		fn->has_priority = 1;
	}
	if (peek(p)->type == T_EMBEDDED) {
		fn->embedded_c = next(p)->text;
	} else if (is_op(p, "{")) {
		p->fn = fn;
		fn->body = parse_block(p);
		p->fn = NULL;
	} else
		expected(p, "'{' or '%{' (the function body)");
	vec_push(&p->f->functions, fn);
}

static void parse_decl(struct parser *p);

/* parse_toplevel - every declaration of the file; after a syntax error,
 * skip to the next token that can only start a declaration. */
static void parse_toplevel(struct parser *p)
{
	while (peek(p)->type != T_EOF) {
		volatile int start = p->pos;
		p->depth = 0;
		if (setjmp(p->fail) == 0) {
			parse_decl(p);
			continue;
		}
		if (p->errors >= MAX_PARSE_ERRORS) {
			diag_note(NULL, "too many syntax errors in %s; "
				  "giving up", p->f->name);
			return;
		}
		if (p->pos == start)
			next(p);
		while (peek(p)->type != T_EOF && !is_toplevel_start(peek(p)))
			next(p);
	}
}

/* parse_decl - one top-level declaration (or ';') */
static void parse_decl(struct parser *p)
{
	{
		struct token *t = peek(p);
		int priv = 0;
		if (t->type == T_EMBEDDED) {
			struct source_loc *l = xmalloc(sizeof(*l));
			*l = t->loc;
			vec_push(&p->f->embed_locs, l);
			vec_push(&p->f->embeds, (void *)next(p)->text);
			return;
		}
		if (tok_is(t, ";")) {
			next(p);
			return;
		}
		if (tok_is(t, "private")) {
			next(p);
			priv = 1;
			t = peek(p);
			if (t->type == T_IDENT && !is_keyword(t->text) &&
			    t->text[0] != '$' && t->text[0] != '@') {
				/* `private NAME[=...]`: global is implied */
				parse_global(p, priv);
				return;
			}
			if (!tok_is(t, "global") && !tok_is(t, "function"))
				expected(p, "'global', 'function' or a variable "
					 "name after 'private'");
		}
		if (tok_is(t, "probe") && !priv) {
			parse_probe(p, next(p));
		} else if (tok_is(t, "global")) {
			next(p);
			parse_global(p, priv);
		} else if (tok_is(t, "function")) {
			parse_function(p, next(p), priv);
		} else {
			expected(p, "'probe', 'global', 'function' or '%{'");
		}
	}
}

struct stapfile *parse_script(const char *filename, const char *text,
			      int is_tapset)
{
	struct tokvec raw = { 0 }, toks = { 0 };
	struct parser p;
	int bad;

	const char *kind = diag_error_kind;
	struct stapfile *res = NULL;
	diag_error_kind = "parse error";
	source_register(filename, text);
	bad = lex_file(filename, text, &raw);
	if (bad) {
		free(raw.t);
		goto out;
	}
	if (!config_set) {
		pp_config_defaults(&config);
		config_set = 1;
	}
	if (preprocess(&raw, &toks, script_argc, script_argv, &config) < 0) {
		free(raw.t);
		free(toks.t);
		goto out;
	}
	memset(&p, 0, sizeof(p));
	p.t = toks.t;
	p.n = toks.n;
	p.f = xcalloc(1, sizeof(*p.f));
	p.f->name = filename;
	p.f->is_tapset = is_tapset;
	free(raw.t);
	parse_toplevel(&p);
	free(p.t);              /* toks.t, or its copy with arguments spliced */
	for (int i = 0; i < p.retired.n; i++)
		free(p.retired.items[i]);
	free(p.retired.items);
	if (!p.errors)
		res = p.f;
out:
	diag_error_kind = kind;
	return res;
}
