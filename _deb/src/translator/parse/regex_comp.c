/* regex_comp.c - POSIX extended regular expressions to Pike VM programs.
 *
 * The pattern is first checked by the host's regcomp(REG_EXTENDED), so
 * the parser below only meets well-formed patterns; it builds a small
 * tree, whose size is computed (saturating) before any instruction is
 * emitted, so counted repetitions cannot blow up the translator.
 *
 * Supported: literals and \-escapes, ".", bracket expressions with
 * ranges, negation and [:class:] names ([.c.] and [=c=] for one byte),
 * "^" and "$" anywhere (start / end of the subject), "* + ? {m} {m,}
 * {m,n}", "|", "( )" groups, GNU \w \W \s \S \` \'.  Back-references and
 * word-boundary assertions are rejected.
 */
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "regex_comp.h"

#define RX_SAT (RX_MAXINSNS + 1)   /* "too big" for size computations */
#define RX_MAXDEPTH 200            /* nesting of groups */

enum rn_kind { RN_EMPTY, RN_CHAR, RN_ANY, RN_CLASS, RN_BOL, RN_EOL,
	       RN_CAT, RN_ALT, RN_REPEAT, RN_GROUP };

struct rnode {
	enum rn_kind kind;
	int c;                 /* RN_CHAR byte; RN_CLASS index */
	int min, max;          /* RN_REPEAT; max -1: unbounded */
	int group;             /* RN_GROUP number (1-based) */
	struct rnode *a, *b;
};

struct rx_parser {
	const unsigned char *p;
	struct rx_prog *prog;
	struct vec nodes;      /* every node, for freeing */
	char *err;
	int depth;
};

static struct rnode *node(struct rx_parser *ps, enum rn_kind k,
			  struct rnode *a, struct rnode *b)
{
	struct rnode *n = xcalloc(1, sizeof(*n));
	n->kind = k;
	n->a = a;
	n->b = b;
	vec_push(&ps->nodes, n);
	return n;
}

static void fail(struct rx_parser *ps, const char *msg)
{
	if (!ps->err)
		ps->err = xasprintf("unsupported regular expression: %s", msg);
}

static int new_class(struct rx_parser *ps)
{
	struct rx_prog *g = ps->prog;
	g->classes = xrealloc(g->classes, (g->nclasses + 1) * sizeof(*g->classes));
	memset(g->classes[g->nclasses], 0, sizeof(*g->classes));
	return g->nclasses++;
}

static void class_set(struct rx_prog *g, int k, int b)
{
	g->classes[k][b >> 5] |= 1u << (b & 31);
}

/* named_class - add the bytes of [:NAME:] to class k; 0 if unknown. */
static int named_class(struct rx_prog *g, int k, const char *name, size_t n)
{
	static const struct { const char *name; int (*fn)(int); } t[] = {
		{ "alpha", isalpha }, { "digit", isdigit }, { "alnum", isalnum },
		{ "upper", isupper }, { "lower", islower }, { "space", isspace },
		{ "blank", isblank }, { "punct", ispunct }, { "print", isprint },
		{ "graph", isgraph }, { "cntrl", iscntrl }, { "xdigit", isxdigit },
	};
	size_t i;
	int b;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (strlen(t[i].name) != n || memcmp(t[i].name, name, n))
			continue;
		for (b = 1; b < 128; b++)
			if (t[i].fn(b))
				class_set(g, k, b);
		return 1;
	}
	return 0;
}

/* escape_class - \w \W \s \S as a class node, or NULL. */
static struct rnode *escape_class(struct rx_parser *ps, int e)
{
	struct rnode *n;
	int k, b, neg = e == 'W' || e == 'S';
	if (e != 'w' && e != 'W' && e != 's' && e != 'S')
		return NULL;
	k = new_class(ps);
	for (b = 1; b < 256; b++) {
		int in = b < 128 && (tolower(e) == 'w' ? isalnum(b) || b == '_'
				     : isspace(b));
		if (in != neg)
			class_set(ps->prog, k, b);
	}
	n = node(ps, RN_CLASS, NULL, NULL);
	n->c = k;
	return n;
}

/* bracket_elem - one element of a bracket expression at ps->p (a byte,
 * [.c.] or [=c=]); -1 after [:name:] (added to class k), -2 on error. */
static int bracket_elem(struct rx_parser *ps, int k)
{
	const unsigned char *p = ps->p, *end;
	if (p[0] == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
		char d = p[1];
		end = (const unsigned char *)strstr((const char *)p + 2,
						   d == ':' ? ":]" :
						   d == '.' ? ".]" : "=]");
		if (!end)
			return fail(ps, "bracket"), -2;
		ps->p = end + 2;
		if (d == ':') {
			if (!named_class(ps->prog, k, (const char *)p + 2,
					 end - p - 2))
				return fail(ps, "character class name"), -2;
			return -1;
		}
		if (end - p - 2 != 1)
			return fail(ps, "multi-character collating element"), -2;
		return p[2];
	}
	ps->p++;
	return p[0];
}

static struct rnode *parse_bracket(struct rx_parser *ps)
{
	struct rnode *n;
	int k = new_class(ps), neg = 0, first = 1, b, lo, hi;
	if (*ps->p == '^') {
		neg = 1;
		ps->p++;
	}
	while (*ps->p && (first || *ps->p != ']')) {
		first = 0;
		lo = bracket_elem(ps, k);
		if (lo == -2)
			return NULL;
		if (lo == -1)
			continue;
		if (ps->p[0] == '-' && ps->p[1] && ps->p[1] != ']') {
			ps->p++;
			hi = bracket_elem(ps, k);
			if (hi < 0)
				return fail(ps, "range end"), NULL;
			for (b = lo; b <= hi; b++)
				class_set(ps->prog, k, b);
		} else {
			class_set(ps->prog, k, lo);
		}
	}
	if (*ps->p != ']')
		return fail(ps, "bracket"), NULL;
	ps->p++;
	if (neg)
		for (b = 0; b < 8; b++)
			ps->prog->classes[k][b] = ~ps->prog->classes[k][b];
	ps->prog->classes[k][0] &= ~1u;   /* never the terminating NUL */
	n = node(ps, RN_CLASS, NULL, NULL);
	n->c = k;
	return n;
}

static struct rnode *parse_alt(struct rx_parser *ps);

static struct rnode *parse_atom(struct rx_parser *ps)
{
	struct rnode *n;
	int c = *ps->p++;
	switch (c) {
	case '(':
		if (++ps->depth > RX_MAXDEPTH)
			return fail(ps, "too deeply nested"), NULL;
		n = node(ps, RN_GROUP, NULL, NULL);
		n->group = ++ps->prog->ngroups;
		n->a = parse_alt(ps);
		ps->depth--;
		if (!n->a)
			return NULL;
		if (*ps->p != ')')
			return fail(ps, "unbalanced parenthesis"), NULL;
		ps->p++;
		return n;
	case '.':
		return node(ps, RN_ANY, NULL, NULL);
	case '^':
		return node(ps, RN_BOL, NULL, NULL);
	case '$':
		return node(ps, RN_EOL, NULL, NULL);
	case '[':
		return parse_bracket(ps);
	case '\\':
		c = *ps->p++;
		if (c == '`')
			return node(ps, RN_BOL, NULL, NULL);
		if (c == '\'')
			return node(ps, RN_EOL, NULL, NULL);
		if ((n = escape_class(ps, c)) != NULL)
			return n;
		if (isdigit(c))
			return fail(ps, "back-references"), NULL;
		if (strchr("bB<>", c))
			return fail(ps, "word boundary assertions"), NULL;
		if (!c)
			return fail(ps, "trailing backslash"), NULL;
		break;
	}
	n = node(ps, RN_CHAR, NULL, NULL);
	n->c = c;
	return n;
}

/* parse_interval - "{m}", "{m,}" or "{m,n}" at ps->p (after the '{');
 * returns 0 and leaves ps->p unchanged when it is not one. */
static int parse_interval(struct rx_parser *ps, int *min, int *max)
{
	const char *p = (const char *)ps->p;
	char *e;
	long m, n;
	if (!isdigit((unsigned char)*p))
		return 0;
	m = strtol(p, &e, 10);
	n = m;
	if (*e == ',') {
		p = e + 1;
		if (isdigit((unsigned char)*p))
			n = strtol(p, &e, 10);
		else {
			n = -1;
			e = (char *)p;
		}
	}
	if (*e != '}' || m > 0x7fff || n > 0x7fff)
		return 0;
	*min = m;
	*max = n;
	ps->p = (const unsigned char *)e + 1;
	return 1;
}

static struct rnode *parse_repeat(struct rx_parser *ps)
{
	struct rnode *a, *r;
	int min, max;
	/* a leading repetition operator is ignored, as glibc does */
	while (*ps->p && strchr("*+?", *ps->p))
		ps->p++;
	if (*ps->p == '{' && isdigit(ps->p[1])) {
		ps->p++;
		if (!parse_interval(ps, &min, &max))
			ps->p--;
	}
	a = parse_atom(ps);
	while (a) {
		if (*ps->p == '*')
			min = 0, max = -1;
		else if (*ps->p == '+')
			min = 1, max = -1;
		else if (*ps->p == '?')
			min = 0, max = 1;
		else if (*ps->p == '{') {
			ps->p++;
			if (!parse_interval(ps, &min, &max)) {
				ps->p--;
				break;
			}
			ps->p--;
		} else
			break;
		ps->p++;
		r = node(ps, RN_REPEAT, a, NULL);
		r->min = min;
		r->max = max;
		a = r;
	}
	return a;
}

static struct rnode *parse_cat(struct rx_parser *ps)
{
	struct rnode *n = node(ps, RN_EMPTY, NULL, NULL), *a;
	while (*ps->p && *ps->p != '|' && *ps->p != ')') {
		a = parse_repeat(ps);
		if (!a)
			return NULL;
		n = n->kind == RN_EMPTY ? a : node(ps, RN_CAT, n, a);
	}
	return n;
}

static struct rnode *parse_alt(struct rx_parser *ps)
{
	struct rnode *n = parse_cat(ps), *b;
	while (n && *ps->p == '|') {
		ps->p++;
		b = parse_cat(ps);
		if (!b)
			return NULL;
		n = node(ps, RN_ALT, n, b);
	}
	return n;
}

static int sat_add(int a, int b)
{
	return a + b > RX_SAT ? RX_SAT : a + b;
}

static int sat_mul(int a, int b)
{
	return b && a > RX_SAT / b ? RX_SAT : sat_add(a * b, 0);
}

/* size - the instructions node @n compiles to (saturating at RX_SAT). */
static int size(const struct rnode *n)
{
	int s;
	switch (n->kind) {
	case RN_EMPTY:
		return 0;
	case RN_CAT:
		return sat_add(size(n->a), size(n->b));
	case RN_ALT:
		return sat_add(sat_add(size(n->a), size(n->b)), 2);
	case RN_GROUP:
		return sat_add(size(n->a), n->group < RX_MAXGROUPS ? 2 : 0);
	case RN_REPEAT:
		s = size(n->a);
		if (n->max < 0)
			return n->min ? sat_add(sat_mul(s, n->min), 1)
				      : sat_add(s, 2);
		return sat_add(sat_mul(s, n->min),
			       sat_mul(s + 1, n->max - n->min));
	default:
		return 1;
	}
}

static int put(struct rx_prog *g, enum rx_op op, int arg, int x, int y)
{
	struct rx_insn *i = &g->insns[g->len];
	i->op = op;
	i->arg = arg;
	i->x = x;
	i->y = y;
	return g->len++;
}

/* gen - emit node @n (the size check guarantees room). */
static void gen(struct rx_prog *g, const struct rnode *n)
{
	int i, l, j, first;
	switch (n->kind) {
	case RN_EMPTY:
		break;
	case RN_CHAR: put(g, RX_CHAR, n->c, 0, 0); break;
	case RN_ANY: put(g, RX_ANY, 0, 0, 0); break;
	case RN_CLASS: put(g, RX_CLASS, 0, n->c, 0); break;
	case RN_BOL: put(g, RX_BOL, 0, 0, 0); break;
	case RN_EOL: put(g, RX_EOL, 0, 0, 0); break;
	case RN_CAT:
		gen(g, n->a);
		gen(g, n->b);
		break;
	case RN_ALT:
		l = put(g, RX_SPLIT, 0, g->len + 1, 0);
		gen(g, n->a);
		j = put(g, RX_JMP, 0, 0, 0);
		g->insns[l].y = g->len;
		gen(g, n->b);
		g->insns[j].x = g->len;
		break;
	case RN_GROUP:
		if (n->group < RX_MAXGROUPS)
			put(g, RX_SAVE, 2 * n->group, 0, 0);
		gen(g, n->a);
		if (n->group < RX_MAXGROUPS)
			put(g, RX_SAVE, 2 * n->group + 1, 0, 0);
		break;
	case RN_REPEAT:
		for (i = 0; i < n->min - (n->max < 0 && n->min > 0); i++)
			gen(g, n->a);
		if (n->max < 0 && n->min > 0) {        /* x+ */
			l = g->len;
			gen(g, n->a);
			put(g, RX_SPLIT, 0, l, g->len + 1);
		} else if (n->max < 0) {               /* x* */
			l = put(g, RX_SPLIT, 0, g->len + 1, 0);
			gen(g, n->a);
			put(g, RX_JMP, 0, l, 0);
			g->insns[l].y = g->len;
		} else {                               /* (x(x)?)? nested */
			first = g->len;
			for (i = n->min; i < n->max; i++) {
				put(g, RX_SPLIT, 0, g->len + 1, -1);
				gen(g, n->a);
			}
			for (i = first; i < g->len; i++)
				if (g->insns[i].op == RX_SPLIT &&
				    g->insns[i].y == -1)
					g->insns[i].y = g->len;
		}
		break;
	}
}

int rx_compile(const char *pattern, struct rx_prog *prog, char **err)
{
	struct rx_parser ps;
	struct rnode *root;
	regex_t re;
	char buf[256];
	int rc, n, i;

	memset(prog, 0, sizeof(*prog));
	*err = NULL;
	rc = regcomp(&re, pattern, REG_EXTENDED);
	if (rc) {
		regerror(rc, &re, buf, sizeof(buf));
		*err = xasprintf("bad regular expression: %s", buf);
		return -1;
	}
	regfree(&re);

	memset(&ps, 0, sizeof(ps));
	ps.p = (const unsigned char *)pattern;
	ps.prog = prog;
	root = parse_alt(&ps);
	if (root && *ps.p)
		fail(&ps, "unbalanced parenthesis");
	n = root && !ps.err ? sat_add(size(root), 4) : 0;
	if (!ps.err && n > RX_MAXINSNS)
		ps.err = xasprintf("regular expression too complex (more than "
				   "%d instructions)", RX_MAXINSNS);
	if (!ps.err) {
		prog->insns = xcalloc(n, sizeof(*prog->insns));
		put(prog, RX_SAVE, 0, 0, 0);
		gen(prog, root);
		put(prog, RX_SAVE, 1, 0, 0);
		put(prog, RX_MATCH, 0, 0, 0);
	}
	for (i = 0; i < ps.nodes.n; i++)
		free(ps.nodes.items[i]);
	free(ps.nodes.items);
	if (ps.err) {
		*err = ps.err;
		rx_free(prog);
		return -1;
	}
	return 0;
}

void rx_free(struct rx_prog *prog)
{
	free(prog->insns);
	free(prog->classes);
	memset(prog, 0, sizeof(*prog));
}

void rx_c_data(const struct rx_prog *prog, const char *name,
	       struct strbuf *out)
{
	static const char *const ops[] = {
		"CHAR", "ANY", "CLASS", "SPLIT", "JMP", "SAVE", "BOL", "EOL",
		"MATCH" };
	char *cls = prog->nclasses ? xasprintf("%s_c", name) : xstrdup("NULL");
	int i, j;
	if (prog->nclasses) {
		strbuf_printf(out, "static const u32 %s_c[%d][8] = {\n", name,
			      prog->nclasses);
		for (i = 0; i < prog->nclasses; i++) {
			strbuf_add(out, "\t{");
			for (j = 0; j < 8; j++)
				strbuf_printf(out, " 0x%08x,", prog->classes[i][j]);
			strbuf_add(out, " },\n");
		}
		strbuf_add(out, "};\n");
	}
	strbuf_printf(out, "static const struct stp_rx_insn %s_i[%d] = {\n",
		      name, prog->len);
	for (i = 0; i < prog->len; i++) {
		const struct rx_insn *n = &prog->insns[i];
		strbuf_printf(out, "\t{ STP_RX_%s, %d, %d, %d },\n",
			      ops[n->op], n->arg, n->x, n->y);
	}
	strbuf_add(out, "};\n");
	strbuf_printf(out, "static const struct stp_regex %s = { %s_i, %s, "
		      "%d, %d };\n", name, name,
		      cls, prog->len, prog->ngroups);
	free(cls);
}
