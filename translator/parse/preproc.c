/* preproc.c - %( %? %: %) conditionals and @define macros, on tokens. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fnmatch.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "preproc.h"

struct macro {
	const char *name;
	struct source_loc loc;    /* where its name is defined */
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

/* forget_config - util_on_reset */
static void forget_config(void)
{
	memset(&cfg_names, 0, sizeof(cfg_names));
	memset(&cfg_vals, 0, sizeof(cfg_vals));
	cfg_loaded = 0;
}

static const char *default_config_lookup(const char *name, void *data)
{
	const struct pp_config *cfg = data;
	if (!cfg_loaded) {
		char path[512], line[1024];
		FILE *fp;
		cfg_loaded = 1;
		util_on_reset(forget_config);
		snprintf(path, sizeof(path), "%s/boot/config-%s",
			 cfg->sysroot ? cfg->sysroot : "", cfg->kernel_release);
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
		cfg->config_data = cfg;   /* parse.c's copy: it stays */
	}
}

/* ---- conditions ---- */

/* ---- script arguments ----
 * As in SystemTap, whose lexer does it: $N stands for the text of script
 * argument N (its tokens: a number, an expression, part of a probe point,
 * whole declarations), @N for a string literal of it, $# for the number
 * of arguments and @# for the same as a string.  An argument out of range
 * is an error only where the token is used (not in a branch a condition
 * leaves out). */

/* arg_tokens - append to @out the tokens T_ARG/$#/@# token @t stands
 * for.  An argument's own tokens are placed in a source named after it
 * and where it is used ("<argument $1 at s.stp:3:9>"), so that errors in
 * it quote its text and say where it came in. */
static void arg_tokens(struct pp *pp, const struct token *t, struct tokvec *out)
{
	struct token n = *t;
	const char *arg;
	if (t->type == T_OP) {            /* $# @# */
		if (t->text[0] == '$') {
			n.type = T_NUM;
			n.unum = (uint64_t)pp->argc;
			n.text = xasprintf("%d", pp->argc);
		} else {
			n.type = T_STR;
			n.text = xasprintf("%d", pp->argc);
		}
		n.len = strlen(n.text);
		tokvec_push(out, &n);
		return;
	}
	if (t->unum < 1 || t->unum > (uint64_t)pp->argc) {
		if (pp->argc == 0)
			pp_fail(pp, t, "command line argument %s used, but no "
				"arguments were given", t->text);
		pp_fail(pp, t, "command line argument index %s out of range [1-%d]",
			t->text, pp->argc);
	}
	arg = pp->argv[t->unum - 1];
	if (t->text[0] == '@') {
		n.type = T_STR;
		n.text = arg;
		n.len = strlen(arg);
		tokvec_push(out, &n);
	} else {
		char *file = xasprintf("<argument %s at %s:%d:%d>", t->text,
				       t->loc.file, t->loc.line, t->loc.col);
		int before = out->n;
		source_register(file, arg);
		if (lex_file(file, arg, out) < 0)
			pp_fail(pp, t, "command line argument %s ('%s') is not "
				"script text", t->text, arg);
		out->n--;                 /* its end of input */
		if (out->n == before)
			pp_fail(pp, t, "command line argument %s is empty",
				t->text);
	}
}

static int is_arg(const struct token *t)
{
	return t->type == T_ARG || tok_is(t, "$#") || tok_is(t, "@#");
}

/* ---- conditions ----
 * SystemTap's grammar, nothing more: COMPARISON { (&& | ||) COMPARISON },
 * && binding tighter, each COMPARISON being LEFT OP RIGHT with OP one of
 * == != < <= > >= and
 *   kernel_v, kernel_vr, systemtap_v  OP "VERSION" (a glob with == != only)
 *   arch, runtime                     == or != "GLOB"
 *   systemtap_privilege               == or != "stapusr|stapsys|stapdev"
 *   guru_mode                         == or != 0 or 1
 *   CONFIG_NAME                       == or != "GLOB", or OP NUMBER (the
 *                                     option's value as a number, unset: 0)
 *   "STRING" OP "STRING", NUMBER OP NUMBER. */

struct cond {
	const struct token *t;
	int pos, end;
};

/* cond_token - the next token of the condition, its script argument
 * spliced in (which must be one token here); NULL at its end */
static const struct token *cond_token(struct pp *pp, struct cond *c)
{
	const struct token *t;
	if (c->pos >= c->end)
		return NULL;
	t = &c->t[c->pos++];
	if (is_arg(t)) {
		struct tokvec v = { 0 };
		arg_tokens(pp, t, &v);
		if (v.n != 1)
			pp_fail(pp, t, "command line argument %s is not one number "
				"or string, as a preprocessor condition needs",
				t->text);
		t = xmalloc(sizeof(*t));
		*(struct token *)t = v.t[0];
		free(v.t);
	}
	return t;
}

/* cond_number - a number token (or '-' number) at @t: 1 and *@n */
static int cond_number(struct pp *pp, struct cond *c, const struct token *t,
		       long long *n)
{
	if (t->type == T_NUM) {
		*n = (long long)t->unum;
		return 1;
	}
	if (tok_is(t, "-") && c->pos < c->end && c->t[c->pos].type == T_NUM) {
		*n = -(long long)cond_token(pp, c)->unum;
		return 1;
	}
	return 0;
}

static int compare_result(const char *op, int r)
{
	if (!strcmp(op, "==")) return r == 0;
	if (!strcmp(op, "!=")) return r != 0;
	if (!strcmp(op, "<")) return r < 0;
	if (!strcmp(op, "<=")) return r <= 0;
	if (!strcmp(op, ">")) return r > 0;
	return r >= 0;
}

static void need_eq(struct pp *pp, const struct token *op, const char *what)
{
	if (strcmp(op->text, "==") && strcmp(op->text, "!="))
		pp_fail(pp, op, "%s is compared only with '==' or '!='", what);
}

static const char *need_string(struct pp *pp, const struct token *r,
			       const struct token *at, const char *what)
{
	if (!r || r->type != T_STR)
		pp_fail(pp, r ? r : at, "%s is compared with a string literal",
			what);
	return r->text;
}

/* known_left - an identifier a condition may compare */
static int known_left(const char *n)
{
	static const char *const names[] = { "kernel_v", "kernel_vr",
		"systemtap_v", "arch", "runtime", "systemtap_privilege",
		"guru_mode", NULL };
	for (int i = 0; names[i]; i++)
		if (!strcmp(names[i], n))
			return 1;
	return 0;
}

static int cond_compare(struct pp *pp, struct cond *c)
{
	static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=", NULL };
	const struct pp_config *cfg = pp->cfg;
	const struct token *l = cond_token(pp, c), *op, *r;
	long long a, b;
	int i;
	if (!l)
		pp_fail(pp, &c->t[c->end], "incomplete preprocessor condition: "
			"expected a comparison before '%%?'");
	if (!(l->type == T_STR || l->type == T_NUM || tok_is(l, "-") ||
	      (l->type == T_IDENT && (!strncmp(l->text, "CONFIG_", 7) ||
				      known_left(l->text)))))
		pp_fail(pp, l, "unexpected %s in a preprocessor condition "
			"(expected LEFT OP RIGHT, LEFT one of kernel_v, "
			"kernel_vr, systemtap_v, arch, runtime, "
			"systemtap_privilege, guru_mode, CONFIG_..., a string "
			"or a number)", tok_describe(l));
	op = cond_token(pp, c);
	for (i = 0; op && ops[i]; i++)
		if (tok_is(op, ops[i]))
			break;
	if (!op || !ops[i])
		pp_fail(pp, op ? op : &c->t[c->end], "expected a comparison "
			"operator (== != < <= > >=) after %s in the preprocessor "
			"condition, found %s", tok_describe(l),
			op ? tok_describe(op) : "'%?'");
	if (c->pos >= c->end)
		pp_fail(pp, &c->t[c->end], "incomplete preprocessor condition: "
			"expected a value after '%s'", op->text);
	r = cond_token(pp, c);
	if (l->type == T_IDENT && (!strcmp(l->text, "kernel_v") ||
				   !strcmp(l->text, "kernel_vr") ||
				   !strcmp(l->text, "systemtap_v"))) {
		const char *q = need_string(pp, r, op, l->text), *v;
		if (l->text[0] == 's') {
			v = cfg->stap_version;
		} else if (l->text[8] == 'r') {
			v = cfg->kernel_release;
		} else {                     /* kernel_v: the numeric prefix */
			size_t k = 0;
			v = cfg->kernel_release;
			while (v[k] && (v[k] == '.' || (v[k] >= '0' && v[k] <= '9')) &&
			       k < sizeof(kernel_v_buf) - 1)
				k++;
			memcpy(kernel_v_buf, v, k);
			kernel_v_buf[k] = 0;
			v = kernel_v_buf;
		}
		if (strpbrk(q, "*?[")) {
			need_eq(pp, op, "a version with a wildcard");
			return compare_result(op->text, fnmatch(q, v, 0) != 0);
		}
		return compare_result(op->text, strverscmp(v, q));
	}
	if (l->type == T_IDENT && (!strcmp(l->text, "arch") ||
				   !strcmp(l->text, "runtime"))) {
		const char *q = need_string(pp, r, op, l->text);
		need_eq(pp, op, l->text);
		return compare_result(op->text, fnmatch(q, l->text[0] == 'a' ?
						cfg->arch : cfg->runtime, 0) != 0);
	}
	if (l->type == T_IDENT && !strcmp(l->text, "systemtap_privilege")) {
		const char *q = need_string(pp, r, op, l->text);
		need_eq(pp, op, l->text);
		return compare_result(op->text, strcmp(q, cfg->privilege));
	}
	if (l->type == T_IDENT && !strcmp(l->text, "guru_mode")) {
		if (!cond_number(pp, c, r, &b) || (b != 0 && b != 1))
			pp_fail(pp, r, "guru_mode is compared with 0 or 1");
		need_eq(pp, op, "guru_mode");
		return compare_result(op->text, cfg->guru_mode != b);
	}
	if (l->type == T_IDENT && !strncmp(l->text, "CONFIG_", 7)) {
		const char *v = cfg->config_lookup(l->text, cfg->config_data);
		if (r->type == T_STR) {
			need_eq(pp, op, "a CONFIG_ option compared with a string");
			return compare_result(op->text,
					      fnmatch(r->text, v ? v : "", 0) != 0);
		}
		if (!cond_number(pp, c, r, &b))
			pp_fail(pp, r, "%s is compared with a string or a number "
				"literal", l->text);
		a = 0;   /* unset: 0 */
		if (v && *v) {
			char *end;
			errno = 0;
			a = strtoll(v, &end, 0);
			if (*end || errno)
				pp_fail(pp, l, "%s is \"%s\", not a number to "
					"compare with %lld", l->text, v, b);
		}
		return compare_result(op->text, a < b ? -1 : a > b);
	}
	if (l->type == T_STR && r->type == T_STR)
		return compare_result(op->text, strcmp(l->text, r->text));
	if (cond_number(pp, c, l, &a)) {
		if (!cond_number(pp, c, r, &b))
			pp_fail(pp, r, "a number is compared with a number literal");
		return compare_result(op->text, a < b ? -1 : a > b);
	}
	pp_fail(pp, r, "a string is compared with a string literal");
}

static int cond_and(struct pp *pp, struct cond *c)
{
	int v = cond_compare(pp, c);
	while (c->pos < c->end && tok_is(&c->t[c->pos], "&&")) {
		c->pos++;
		v = cond_compare(pp, c) && v;
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
		} else if (depth == 1 && tok_is(&t[i], "%?")) {
			if (*q >= 0 || *colon >= 0)
				pp_fail(pp, &t[i], "a preprocessor conditional "
					"%%( COND %%? A %%: B %%) has one '%%?' "
					"before its '%%:' (this is another)");
			*q = i;
		} else if (depth == 1 && tok_is(&t[i], "%:")) {
			if (*colon >= 0 || *q < 0)
				pp_fail(pp, &t[i], "a preprocessor conditional "
					"%%( COND %%? A %%: B %%) has one '%%:' "
					"after its '%%?' (this is %s)", *colon >= 0 ?
					"another" : "before the '%?'");
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
	m->loc = t[i].loc;
	m->name = t[i++].text;
	for (struct macro *o = macros; o && o != library_macros; o = o->next)
		if (!strcmp(o->name, m->name)) {
			/* a file may shadow the library's, not its own */
			diag_error(&t[i - 1].loc, "macro '@%s' is defined "
				   "twice in this file", m->name);
			diag_note(&o->loc, "its first definition is here");
			longjmp(pp->fail, 1);
		}
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
				pp_fail(pp, &t[cd.pos], "unexpected %s in the "
					"preprocessor condition (expected '&&', "
					"'||' or '%%?')", tok_describe(&t[cd.pos]));
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
		if (is_arg(c)) {
			struct tokvec v = { 0 };
			if (++pp->depth > 200)
				pp_fail(pp, c, "command line arguments spliced "
					"too deep ($1 naming $1?)");
			arg_tokens(pp, c, &v);
			process(pp, v.t, v.n);
			free(v.t);
			pp->depth--;
			i++;
			continue;
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
