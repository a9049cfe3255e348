/* preproc.c - %( %? %: %) conditionals and @define macros, on tokens. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fnmatch.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "preproc.h"

struct macro {
	const char *name;
	struct vec params;        /* const char * */
	struct tokvec body;
	struct macro *next;
};
static struct macro *macros;          /* this file's, then the library's */
static struct macro *library_macros;  /* kept by preproc_keep_macros */

void preproc_reset(void)
{
	macros = library_macros = NULL;
}

void preproc_keep_macros(void)
{
	library_macros = macros;
}

struct pp {
	struct tokvec *out;
	const struct pp_config *cfg;
	int argc;
	char **argv;
	int depth;
	long expanded;     /* tokens produced by macro expansion so far */
	jmp_buf fail;
};

/* Macro expansion producing more tokens than this in one file is an
 * error (macros that repeat their arguments grow exponentially). */
#define MAX_EXPANDED_TOKENS 500000

static void __attribute__((noreturn, format(printf, 3, 4)))
pp_fail(struct pp *pp, const struct token *t, const char *fmt, ...)
{
	struct strbuf b = { 0 };
	va_list ap;
	va_start(ap, fmt);
	strbuf_vprintf(&b, fmt, ap);
	va_end(ap);
	diag_error(&t->loc, "%s", strbuf_str(&b));
	longjmp(pp->fail, 1);
}

/* ---- default configuration ---- */

static struct utsname uts;
static char kernel_v_buf[65];

static const char *map_arch(const char *m)
{
	if (!strcmp(m, "aarch64")) return "arm64";
	if (m[0] == 'i' && !strcmp(m + 2, "86")) return "i386";
	if (!strncmp(m, "arm", 3)) return "arm";
	if (!strncmp(m, "ppc", 3)) return "powerpc";
	if (!strncmp(m, "s390", 4)) return "s390";
	if (!strncmp(m, "riscv", 5)) return "riscv";
	if (!strncmp(m, "mips", 4)) return "mips";
	return m;
}

/* CONFIG_* from /boot/config-RELEASE, read once. */
static struct vec cfg_names, cfg_vals;
static int cfg_loaded;

static const char *default_config_lookup(const char *name, void *data)
{
	const char *rel = data;
	if (!cfg_loaded) {
		char path[256], line[1024];
		FILE *fp;
		cfg_loaded = 1;
		snprintf(path, sizeof(path), "/boot/config-%s", rel ? rel : "");
		fp = fopen(path, "r");
		while (fp && fgets(line, sizeof(line), fp)) {
			char *eq = strchr(line, '=');
			size_t l;
			if (strncmp(line, "CONFIG_", 7) || !eq)
				continue;
			*eq++ = 0;
			l = strlen(eq);
			while (l && (eq[l - 1] == '\n' || eq[l - 1] == '\r'))
				eq[--l] = 0;
			if (l >= 2 && eq[0] == '"' && eq[l - 1] == '"') {
				eq[l - 1] = 0;
				eq++;
			}
			vec_push(&cfg_names, xstrdup(line));
			vec_push(&cfg_vals, xstrdup(eq));
		}
		if (fp)
			fclose(fp);
	}
	for (int i = 0; i < cfg_names.n; i++)
		if (!strcmp(cfg_names.items[i], name))
			return cfg_vals.items[i];
	return NULL;
}

void pp_config_defaults(struct pp_config *cfg)
{
	if (!uts.release[0])
		uname(&uts);
	if (!cfg->kernel_release)
		cfg->kernel_release = uts.release;
	if (!cfg->arch)
		cfg->arch = map_arch(uts.machine);
	if (!cfg->runtime)
		cfg->runtime = "kernel";
	if (!cfg->stap_version)
		cfg->stap_version = "5.0";
	if (!cfg->privilege)
		cfg->privilege = "stapdev";
	if (!cfg->config_lookup) {
		cfg->config_lookup = default_config_lookup;
		cfg->config_data = (void *)cfg->kernel_release;
	}
}

/* ---- conditions ---- */

struct cond {
	const struct token *t;
	int pos, end;
};

enum vkind { V_NUM, V_STR, V_VERSION, V_GLOB };
struct value {
	enum vkind kind;
	const char *s;
	long long n;
};

static int is_number(const char *s, long long *n)
{
	char *end;
	if (!*s)
		return 0;
	*n = strtoll(s, &end, 0);
	return !*end;
}

static struct value cond_operand(struct pp *pp, struct cond *c)
{
	const struct token *t = &c->t[c->pos];
	struct value v = { V_STR, "", 0 };
	const struct pp_config *cfg = pp->cfg;
	if (c->pos >= c->end)
		pp_fail(pp, t, "incomplete preprocessor condition: expected an operand before '%%?'");
	c->pos++;
	switch (t->type) {
	case T_NUM:
		v.kind = V_NUM;
		v.n = (long long)t->unum;
		return v;
	case T_STR:
		v.s = t->text;
		return v;
	case T_OP:
		if (tok_is(t, "$#") || tok_is(t, "@#")) {
			v.kind = V_NUM;
			v.n = pp->argc;
			return v;
		}
		if (tok_is(t, "-") && c->pos < c->end && c->t[c->pos].type == T_NUM) {
			v.kind = V_NUM;
			v.n = -(long long)c->t[c->pos++].unum;
			return v;
		}
		break;
	case T_IDENT:
		if (!strcmp(t->text, "kernel_vr") || !strcmp(t->text, "kernel_v")) {
			v.kind = V_VERSION;
			v.s = cfg->kernel_release;
			if (t->text[8] != 'r') {
				size_t i = 0;
				while (v.s[i] && (v.s[i] == '.' || (v.s[i] >= '0' && v.s[i] <= '9')) &&
				       i < sizeof(kernel_v_buf) - 1)
					i++;
				memcpy(kernel_v_buf, v.s, i);
				kernel_v_buf[i] = 0;
				v.s = kernel_v_buf;
			}
			return v;
		}
		if (!strcmp(t->text, "systemtap_v")) {
			v.kind = V_VERSION;
			v.s = cfg->stap_version;
			return v;
		}
		if (!strcmp(t->text, "arch") || !strcmp(t->text, "runtime") ||
		    !strcmp(t->text, "systemtap_privilege")) {
			v.kind = V_GLOB;
			v.s = t->text[0] == 'a' ? cfg->arch : t->text[0] == 'r'
				? cfg->runtime : cfg->privilege;
			return v;
		}
		if (!strcmp(t->text, "guru_mode")) {
			v.kind = V_NUM;
			v.n = cfg->guru_mode;
			return v;
		}
		if (!strcmp(t->text, "@defined")) {
			/* @defined(EXPR): the target variables it usually tests
			 * are not available to scripts yet, so it is false;
			 * the parenthesised expression is skipped */
			int depth = 0;
			if (c->pos >= c->end || !tok_is(&c->t[c->pos], "("))
				pp_fail(pp, t, "expected '(' after @defined");
			do {
				const struct token *u = &c->t[c->pos++];
				if (tok_is(u, "("))
					depth++;
				else if (tok_is(u, ")"))
					depth--;
			} while (depth > 0 && c->pos < c->end);
			if (depth > 0)
				pp_fail(pp, t, "unbalanced parentheses in @defined(...)");
			v.kind = V_NUM;
			v.n = 0;
			return v;
		}
		if (!strncmp(t->text, "CONFIG_", 7)) {
			const char *val = cfg->config_lookup(t->text, cfg->config_data);
			v.kind = V_GLOB;
			v.s = val ? val : "";
			return v;
		}
		break;
	case T_ARG:
		if (t->unum < 1 || t->unum > (uint64_t)pp->argc)
			pp_fail(pp, t, "command line argument index %s out of range [1-%d]",
				t->text, pp->argc);
		v.s = pp->argv[t->unum - 1];
		return v;
	default:
		break;
	}
	pp_fail(pp, t, "unexpected %s in a preprocessor condition (expected kernel_v, "
		"kernel_vr, arch, runtime, systemtap_v, systemtap_privilege, "
		"guru_mode, CONFIG_*, @defined(...), $#, a number or a string)",
		tok_describe(t));
}

static int cond_or(struct pp *pp, struct cond *c);

static int cond_compare(struct pp *pp, struct cond *c)
{
	const struct token *at = &c->t[c->pos];
	struct value l = cond_operand(pp, c);
	const struct token *op = &c->t[c->pos];
	static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=", NULL };
	int i, r;
	for (i = 0; c->pos < c->end && ops[i]; i++)
		if (tok_is(op, ops[i]))
			break;
	if (l.kind == V_NUM && (c->pos >= c->end || !ops[i]))
		return l.n != 0;   /* a number alone (guru_mode, @defined(...)) */
	if (c->pos >= c->end)
		pp_fail(pp, op, "expected a comparison operator in the preprocessor condition");
	if (!ops[i])
		pp_fail(pp, op, "expected a comparison operator, found %s", tok_describe(op));
	c->pos++;
	struct value rv = cond_operand(pp, c);
	if (l.kind == V_NUM || rv.kind == V_NUM) {
		long long a = l.n, b = rv.n;
		if ((l.kind != V_NUM && !is_number(l.s, &a)) ||
		    (rv.kind != V_NUM && !is_number(rv.s, &b)))
			pp_fail(pp, at, "preprocessor condition compares a number with a string");
		r = a < b ? -1 : a > b;
	} else if ((i == 0 || i == 1) && l.kind != V_STR && strpbrk(rv.s, "*?[")) {
		r = fnmatch(rv.s, l.s, 0) != 0;
	} else if (l.kind == V_VERSION) {
		r = strverscmp(l.s, rv.s);
	} else {
		r = strcmp(l.s, rv.s);
	}
	switch (i) {
	case 0: return r == 0;
	case 1: return r != 0;
	case 2: return r < 0;
	case 3: return r <= 0;
	case 4: return r > 0;
	default: return r >= 0;
	}
}

static int cond_unary(struct pp *pp, struct cond *c)
{
	const struct token *t = &c->t[c->pos];
	if (c->pos < c->end && tok_is(t, "!")) {
		c->pos++;
		return !cond_unary(pp, c);
	}
	if (c->pos < c->end && tok_is(t, "(")) {
		c->pos++;
		int v = cond_or(pp, c);
		if (c->pos >= c->end || !tok_is(&c->t[c->pos], ")"))
			pp_fail(pp, &c->t[c->pos], "expected ')' in the preprocessor condition");
		c->pos++;
		return v;
	}
	return cond_compare(pp, c);
}

static int cond_and(struct pp *pp, struct cond *c)
{
	int v = cond_unary(pp, c);
	while (c->pos < c->end && tok_is(&c->t[c->pos], "&&")) {
		c->pos++;
		v = cond_unary(pp, c) && v;
	}
	return v;
}

static int cond_or(struct pp *pp, struct cond *c)
{
	int v = cond_and(pp, c);
	while (c->pos < c->end && tok_is(&c->t[c->pos], "||")) {
		c->pos++;
		v = cond_and(pp, c) || v;
	}
	return v;
}

/* ---- token stream ---- */

static void process(struct pp *pp, const struct token *t, int n);

/* Index of the token closing the %( at t[start] (the matching %)), also
 * reporting the positions of its own %? and %: (or -1). */
static int match_cond(struct pp *pp, const struct token *t, int n, int start,
		      int *q, int *colon)
{
	int depth = 0;
	*q = *colon = -1;
	for (int i = start; i < n; i++) {
		if (tok_is(&t[i], "%(")) {
			depth++;
		} else if (tok_is(&t[i], "%)")) {
			if (--depth == 0)
				return i;
		} else if (depth == 1 && tok_is(&t[i], "%?") && *q < 0) {
			*q = i;
		} else if (depth == 1 && tok_is(&t[i], "%:") && *colon < 0) {
			*colon = i;
		}
	}
	pp_fail(pp, &t[start], "unterminated preprocessor conditional: missing '%%)'");
}

static struct macro *find_macro(const char *name)
{
	for (struct macro *m = macros; m; m = m->next)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

/* @define NAME[(params)] %( body %) starting at t[i]; returns the index
 * after it. */
static int define_macro(struct pp *pp, const struct token *t, int n, int i)
{
	const struct token *d = &t[i++];
	if (i >= n || t[i].type != T_IDENT || t[i].text[0] == '$' || t[i].text[0] == '@')
		pp_fail(pp, i < n ? &t[i] : d, "expected a macro name after '@define'");
	struct macro *m = xcalloc(1, sizeof(*m));
	m->name = t[i++].text;
	if (i < n && tok_is(&t[i], "(") && t[i].off == t[i - 1].end) {
		i++;
		while (i < n && !tok_is(&t[i], ")")) {
			if (t[i].type != T_IDENT)
				pp_fail(pp, &t[i], "expected a macro parameter name, found %s",
					tok_describe(&t[i]));
			vec_push(&m->params, (void *)t[i++].text);
			if (i < n && tok_is(&t[i], ","))
				i++;
			else if (i < n && !tok_is(&t[i], ")"))
				pp_fail(pp, &t[i], "expected ',' or ')', found %s",
					tok_describe(&t[i]));
		}
		i++;
	}
	if (i >= n || !tok_is(&t[i], "%("))
		pp_fail(pp, i < n ? &t[i] : d, "expected '%%(' to start the body of macro '%s'",
			m->name);
	int depth = 0, start = i + 1;
	for (; i < n; i++) {
		if (tok_is(&t[i], "%("))
			depth++;
		else if (tok_is(&t[i], "%)") && --depth == 0)
			break;
		if (t[i].type == T_EOF)
			break;
	}
	if (i >= n || !tok_is(&t[i], "%)"))
		pp_fail(pp, d, "unterminated body of macro '%s': missing '%%)'", m->name);
	for (int k = start; k < i; k++)
		tokvec_push(&m->body, &t[k]);
	m->next = macros;
	macros = m;
	return i + 1;
}

/* Expand macro m invoked at t[i]; returns the index after the call. */
static int expand_macro(struct pp *pp, struct macro *m, const struct token *t,
			int n, int i)
{
	const struct token *call = &t[i++];
	struct vec argstart = { 0 }, argend = { 0 };
	if (m->params.n) {
		if (i >= n || !tok_is(&t[i], "("))
			pp_fail(pp, call, "macro '@%s' needs %d argument(s)", m->name,
				m->params.n);
		int depth = 0;
		i++;
		vec_push(&argstart, (void *)(intptr_t)i);
		for (; i < n && t[i].type != T_EOF; i++) {
			if (tok_is(&t[i], "(") || tok_is(&t[i], "[") || tok_is(&t[i], "{"))
				depth++;
			else if ((tok_is(&t[i], ")") || tok_is(&t[i], "]") || tok_is(&t[i], "}"))
				 && depth-- == 0)
				break;
			else if (depth == 0 && tok_is(&t[i], ",")) {
				vec_push(&argend, (void *)(intptr_t)i);
				vec_push(&argstart, (void *)(intptr_t)(i + 1));
			}
		}
		if (i >= n || t[i].type == T_EOF)
			pp_fail(pp, call, "unterminated arguments of macro '@%s'", m->name);
		vec_push(&argend, (void *)(intptr_t)i);
		i++;
		if (argstart.n != m->params.n)
			pp_fail(pp, call, "macro '@%s' takes %d argument(s), given %d",
				m->name, m->params.n, argstart.n);
	}
	if (++pp->depth > 200)
		pp_fail(pp, call, "macro expansion too deep (recursive macro '@%s'?)",
			m->name);
	struct tokvec body = { 0 };
	for (int k = 0; k < m->body.n; k++) {
		const struct token *b = &m->body.t[k];
		int p = -1;
		if (b->type == T_IDENT && b->text[0] == '@')
			for (int j = 0; j < m->params.n; j++)
				if (!strcmp(b->text + 1, m->params.items[j]))
					p = j;
		if (p < 0) {
			tokvec_push(&body, b);
			continue;
		}
		for (int j = (int)(intptr_t)argstart.items[p];
		     j < (int)(intptr_t)argend.items[p]; j++)
			tokvec_push(&body, &t[j]);
	}
	pp->expanded += body.n;
	if (pp->expanded > MAX_EXPANDED_TOKENS) {
		free(body.t);
		pp_fail(pp, call, "macro expansion produces more than %d tokens "
			"(does '@%s' repeat its arguments?)", MAX_EXPANDED_TOKENS,
			m->name);
	}
	process(pp, body.t, body.n);
	free(body.t);
	free(argstart.items);
	free(argend.items);
	pp->depth--;
	return i;
}

static void process(struct pp *pp, const struct token *t, int n)
{
	for (int i = 0; i < n;) {
		const struct token *c = &t[i];
		if (tok_is(c, "%(")) {
			int q, colon, end = match_cond(pp, t, n, i, &q, &colon);
			if (q < 0)
				pp_fail(pp, c, "preprocessor conditional without '%%?'");
			struct cond cd = { t, i + 1, q };
			int v = cond_or(pp, &cd);
			if (cd.pos != q)
				pp_fail(pp, &t[cd.pos], "unexpected %s in the preprocessor condition",
					tok_describe(&t[cd.pos]));
			if (v)
				process(pp, t + q + 1, (colon < 0 ? end : colon) - q - 1);
			else if (colon >= 0)
				process(pp, t + colon + 1, end - colon - 1);
			i = end + 1;
			continue;
		}
		if (tok_is(c, "%?") || tok_is(c, "%:") || tok_is(c, "%)"))
			pp_fail(pp, c, "'%s' outside a preprocessor conditional", c->text);
		if (tok_is(c, "@define")) {
			i = define_macro(pp, t, n, i);
			continue;
		}
		if (c->type == T_IDENT && c->text[0] == '@') {
			struct macro *m = find_macro(c->text + 1);
			if (m) {
				i = expand_macro(pp, m, t, n, i);
				continue;
			}
		}
		tokvec_push(pp->out, c);
		i++;
	}
}

int preprocess(const struct tokvec *in, struct tokvec *out, int argc,
	       char **argv, const struct pp_config *cfg)
{
	struct pp pp;
	memset(&pp, 0, sizeof(pp));
	pp.out = out;
	pp.cfg = cfg;
	pp.argc = argc;
	pp.argv = argv;
	macros = library_macros;   /* a file sees its own and the library's */
	if (setjmp(pp.fail)) {
		out->n = 0;
		return -1;
	}
	process(&pp, in->t, in->n);
	return 0;
}
