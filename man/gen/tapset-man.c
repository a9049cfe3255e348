/* tapset-man.c - the tapset reference as man pages, from the tapsets' doc
 * comments.
 *
 * Usage: tapset-man [--check] [-o OUTDIR] [--stapprobes HEAD] TAPSETDIR
 *
 * Reads every TAPSETDIR/ ** / *.stp and writes into OUTDIR (default .):
 *   function::NAME.3stap   one page per documented function (overloads,
 *                          e.g. user_string(addr) and user_string(addr,
 *                          err_msg), share a page)
 *   probe::NAME.3stap      one page per documented probe alias
 *   tapset::FILE.3stap     per tapset file: its header comment and what it
 *                          defines
 *   stapfuncs.3stap        every function, by tapset
 *   stapprobes.3stap       the probe-point families (the hand-written page
 *                          HEAD) followed by every probe alias, by tapset
 * --check writes nothing and lists, one a line, every public function or
 * probe alias (no component of its name starts with '_') without a doc
 * comment, every function without a Context: section and every function
 * parameter without an @ line; exit status 1 when there is any.
 *
 * The doc comment shape (SystemTap's):
 *   / **
 *    * sfunction NAME - SUMMARY, which may go on over more lines
 *    * @ARG: what it is, with its unit (more lines may follow)
 *    * @A, @B: one text for several
 *    *
 *    * Context: where it may be called (in which probes, what it reads)
 *    *
 *    * Description: more paragraphs, separated by empty lines
 *    * /
 *   function NAME:TYPE (ARG:TYPE, ...) ...
 * and "probe NAME - SUMMARY" before "probe NAME = ...", its @ lines naming
 * the variables the alias sets.  "Returns:" is a section too.  A comment
 * "probe PATTERN - SUMMARY" whose PATTERN has a '*' documents every probe
 * alias of its file that matches PATTERN and has no comment of its own
 * (the generated system call tapsets): the '*' in SUMMARY stands for the
 * part of the name it matched, and the page lists the variables the alias
 * sets.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------ helpers */

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		perror("tapset-man");
		exit(2);
	}
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		perror("tapset-man");
		exit(2);
	}
	return p;
}

static char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0) {
		perror("tapset-man");
		exit(2);
	}
	va_end(ap);
	return p;
}

struct vec {
	void **items;
	int n, cap;
};

static void vec_push(struct vec *v, void *p)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 16;
		v->items = xrealloc(v->items, v->cap * sizeof(*v->items));
	}
	v->items[v->n++] = p;
}

/* A growing string. */
struct buf {
	char *s;
	size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void buf_str(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

static char *trim(char *s)
{
	char *e;
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* ------------------------------------------------------- the model */

struct arg {            /* an @ line: one or more names, one text */
	char *names;    /* "file" or "file, dev, devname" */
	char *text;
};

struct doc {
	int is_probe;
	char *name;     /* "execname", "vfs.read", "syscall.*" */
	char *summary;
	struct vec args;        /* struct arg * */
	char *context, *description, *returns;
	const char *file;       /* tapset file, relative to TAPSETDIR */
	int line;
};

struct def {            /* a definition: function NAME(...) or probe NAME = */
	int is_probe;
	char *name;
	char *synopsis;         /* functions: NAME:TYPE(ARG:TYPE, ...) */
	char *points;           /* probes: what the alias expands to */
	struct vec params;      /* functions: parameter names (char *) */
	struct vec vars;        /* probes: variables the body sets (char *) */
	struct doc *doc;        /* its own comment, or NULL */
	struct doc *family;     /* the '*' comment that covers it, or NULL */
	struct def *target;     /* probes: the alias it expands to alone,
	                         * whose variables it has, or NULL */
	const char *file;
	int line;
};

struct tapset {         /* one .stp file */
	char *rel;              /* "linux/vfs.stp" */
	char *topic;            /* "vfs" */
	char *header;           /* its leading comment, or NULL */
	struct vec defs;        /* struct def *, public ones */
};

static struct vec tapsets;      /* struct tapset * */

/* ---------------------------------------------------- parsing comments */

static int is_public(const char *name)
{
	const char *p = name;
	for (;;) {
		if (*p == '_')
			return 0;
		p = strchr(p, '.');
		if (!p)
			return 1;
		p++;
	}
}

/* section_of - "Context", "Description" or "Returns" when @line starts
 * that section (its text after the colon in *rest), else NULL. */
static const char *section_of(char *line, char **rest)
{
	static const char *const names[] = { "Context", "Description",
					     "Returns" };
	size_t i, n;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		n = strlen(names[i]);
		if (strncmp(line, names[i], n) == 0 && line[n] == ':') {
			*rest = trim(line + n + 1);
			return names[i];
		}
	}
	return NULL;
}

/* append - add a line of text to *@dst: a space joins lines of one
 * paragraph, an empty line ends the paragraph ("\n\n"). */
static void append(char **dst, const char *line)
{
	char *old = *dst;
	if (!old) {
		if (*line)
			*dst = xstrdup(line);
		return;
	}
	if (!*line) {
		size_t n = strlen(old);
		if (n >= 2 && old[n - 1] == '\n' && old[n - 2] == '\n')
			return;
		*dst = xasprintf("%s\n\n", old);
	} else {
		size_t n = strlen(old);
		*dst = xasprintf("%s%s%s", old, n && old[n - 1] == '\n' ? "" : " ",
				 line);
	}
	free(old);
}

static void chomp_paras(char **s)
{
	size_t n;
	if (!*s)
		return;
	n = strlen(*s);
	while (n && (*s)[n - 1] == '\n')
		(*s)[--n] = '\0';
	if (!n) {
		free(*s);
		*s = NULL;
	}
}

/* see_top - @text with "see the top of FILE.stp" (the tapset file's
 * header comment) as "see tapset::FILE(3stap)", and "see the top" as
 * the page of @file itself */
static char *see_top(char *text, const char *file)
{
	struct buf b = {0};
	const char *p, *q;
	if (!text || !strstr(text, "see the top"))
		return text;
	for (p = text; (q = strstr(p, "see the top")); ) {
		const char *e = q + strlen("see the top");
		char *topic;
		buf_add(&b, p, q - p);
		if (!strncmp(e, " of ", 4) && (p = strstr(e + 4, ".stp")) &&
		    p - (e + 4) < 40 && !memchr(e + 4, ' ', p - (e + 4))) {
			topic = xstrndup(e + 4, p - (e + 4));
			e = p + 4;
		} else {
			const char *base = strrchr(file, '/');
			topic = xstrdup(base ? base + 1 : file);
			topic[strlen(topic) - 4] = '\0';
		}
		buf_str(&b, "see tapset::");
		buf_str(&b, topic);
		buf_str(&b, "(3stap)");
		free(topic);
		p = e;
	}
	buf_str(&b, p);
	free(text);
	return b.s;
}

/* parse_doc - the comment of @n lines (without the comment markers and
 * the leading " * "), or NULL when it is not a doc comment. */
static struct doc *parse_doc(char **lines, int n, const char *file, int at)
{
	struct doc *d;
	char *first = NULL, *dash, **cur;
	struct arg *arg = NULL;
	int i = 0;
	while (i < n && !*trim(lines[i]))
		i++;
	if (i == n)
		return NULL;
	first = trim(lines[i]);
	d = xmalloc(sizeof(*d));
	memset(d, 0, sizeof(*d));
	if (strncmp(first, "sfunction ", 10) == 0)
		first += 10;
	else if (strncmp(first, "probe ", 6) == 0) {
		first += 6;
		d->is_probe = 1;
	} else {
		free(d);
		return NULL;
	}
	dash = strstr(first, " - ");
	if (!dash) {
		free(d);
		return NULL;
	}
	d->name = xstrdup(trim(xstrndup(first, dash - first)));
	d->summary = xstrdup(trim(dash + 3));
	d->file = file;
	d->line = at;
	cur = &d->summary;
	for (i++; i < n; i++) {
		char *l = trim(lines[i]), *rest;
		const char *sec;
		if (l[0] == '@') {
			char *colon = strchr(l, ':');
			if (colon) {
				struct buf names = {0};
				char *p = xstrndup(l, colon - l), *tok, *save;
				for (tok = strtok_r(p, ", \t", &save); tok;
				     tok = strtok_r(NULL, ", \t", &save)) {
					if (names.len)
						buf_str(&names, ", ");
					buf_str(&names, tok[0] == '@' ? tok + 1 : tok);
				}
				free(p);
				arg = xmalloc(sizeof(*arg));
				arg->names = names.s ? names.s : xstrdup("");
				arg->text = NULL;
				append(&arg->text, trim(colon + 1));
				vec_push(&d->args, arg);
				cur = &arg->text;
				continue;
			}
		}
		sec = section_of(l, &rest);
		if (sec) {
			cur = sec[0] == 'C' ? &d->context :
			      sec[0] == 'D' ? &d->description : &d->returns;
			append(cur, rest);
			continue;
		}
		if (!*l && cur != &d->context && cur != &d->description &&
		    cur != &d->returns) {
			/* a blank line after the summary or an argument:
			 * what follows is description */
			cur = &d->description;
			continue;
		}
		append(cur, l);
	}
	chomp_paras(&d->summary);
	chomp_paras(&d->context);
	chomp_paras(&d->description);
	chomp_paras(&d->returns);
	for (i = 0; i < d->args.n; i++) {
		struct arg *a = d->args.items[i];
		chomp_paras(&a->text);
		a->text = see_top(a->text, file);
	}
	d->description = see_top(d->description, file);
	if (!d->summary)
		d->summary = xstrdup("");
	return d;
}

/* ------------------------------------------------- parsing definitions */

static int ident_char(int c)
{
	return isalnum(c) || c == '_';
}

/* parse_function - "function NAME[:TYPE] (ARG[:TYPE], ...)" at @p */
static struct def *parse_function(const char *p)
{
	struct def *d;
	const char *q, *open, *close;
	struct buf syn = {0};
	char *params, *tok, *save;
	int first = 1;
	p += strlen("function");
	while (isspace((unsigned char)*p))
		p++;
	for (q = p; ident_char((unsigned char)*q); q++)
		;
	if (q == p)
		return NULL;
	open = strchr(q, '(');
	close = open ? strchr(open, ')') : NULL;
	if (!close)
		return NULL;
	d = xmalloc(sizeof(*d));
	memset(d, 0, sizeof(*d));
	d->name = xstrndup(p, q - p);
	buf_str(&syn, d->name);
	{       /* the return type, ":TYPE" before the parenthesis */
		char *between = trim(xstrndup(q, open - q));
		if (between[0] == ':') {
			buf_str(&syn, ":");
			buf_str(&syn, trim(between + 1));
		}
	}
	buf_str(&syn, "(");
	params = xstrndup(open + 1, close - open - 1);
	for (tok = strtok_r(params, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *t = trim(tok), *c;
		if (!*t)
			continue;
		if (!first)
			buf_str(&syn, ", ");
		first = 0;
		/* "name:type" or "name : type" */
		c = strchr(t, ':');
		if (c) {
			vec_push(&d->params, trim(xstrndup(t, c - t)));
			buf_str(&syn, trim(xstrndup(t, c - t)));
			buf_str(&syn, ":");
			buf_str(&syn, trim(c + 1));
		} else {
			vec_push(&d->params, xstrdup(t));
			buf_str(&syn, t);
		}
	}
	buf_str(&syn, ")");
	d->synopsis = syn.s;
	return d;
}

/* body_vars - the variables a probe alias body sets at its top level
 * ("NAME = ..." statements), each once, in order.  @lines from @i on
 * hold the alias's definition; the body is the first { ... }. */
static void body_vars(struct def *d, char **lines, int n, int i)
{
	int depth = 0, started = 0;
	for (; i < n; i++) {
		const char *l = lines[i], *p;
		int in_str = 0;
		if (started && depth == 1) {
			const char *s = l, *e;
			while (isspace((unsigned char)*s))
				s++;
			for (e = s; ident_char((unsigned char)*e); e++)
				;
			p = e;
			while (*p == ' ' || *p == '\t')
				p++;
			if (e > s && p[0] == '=' && p[1] != '=' &&
			    !isdigit((unsigned char)*s)) {
				char *v = xstrndup(s, e - s);
				int k, seen = 0;
				for (k = 0; k < d->vars.n; k++)
					seen |= !strcmp(d->vars.items[k], v);
				if (!seen && is_public(v))
					vec_push(&d->vars, v);
				else
					free(v);
			}
		}
		for (p = l; *p; p++) {
			if (*p == '"' && (p == l || p[-1] != '\\'))
				in_str = !in_str;
			if (in_str)
				continue;
			if (*p == '#' || (p[0] == '/' && p[1] == '/'))
				break;
			if (*p == '{') {
				depth++;
				started = 1;
			} else if (*p == '}' && depth > 0) {
				if (--depth == 0 && started)
					return;
			}
		}
	}
}

/* parse_probe - "probe NAME = POINTS" (or +=) at @p */
static struct def *parse_probe(const char *p)
{
	struct def *d;
	const char *q, *eq;
	p += strlen("probe");
	while (isspace((unsigned char)*p))
		p++;
	for (q = p; ident_char((unsigned char)*q) || *q == '.' || *q == '*';
	     q++)
		;
	if (q == p)
		return NULL;
	eq = q;
	while (isspace((unsigned char)*eq))
		eq++;
	if (eq[0] == '+')
		eq++;
	if (eq[0] != '=' || eq[1] == '=')
		return NULL;
	d = xmalloc(sizeof(*d));
	memset(d, 0, sizeof(*d));
	d->is_probe = 1;
	d->name = xstrndup(p, q - p);
	{
		char *pts = xstrdup(eq + 1), *b = strchr(pts, '{');
		if (b)
			*b = '\0';
		d->points = xstrdup(trim(pts));
		free(pts);
	}
	return d;
}

/* read_lines - the lines of @path (heap), their count in *@n */
static char **read_lines(const char *path, int *n)
{
	FILE *f = fopen(path, "r");
	char **lines = NULL, *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int cnt = 0, room = 0;
	if (!f) {
		fprintf(stderr, "tapset-man: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (cnt == room) {
			room = room ? 2 * room : 256;
			lines = xrealloc(lines, room * sizeof(*lines));
		}
		lines[cnt++] = xstrdup(line);
	}
	free(line);
	fclose(f);
	*n = cnt;
	return lines;
}

/* header_comment - the comment lines ("//" or "#") a file opens with */
static char *header_comment(char **lines, int n)
{
	char *text = NULL;
	int i;
	for (i = 0; i < n; i++) {
		char *l = lines[i];
		while (isspace((unsigned char)*l))
			l++;
		if (l[0] == '/' && l[1] == '/')
			l += 2;
		else if (l[0] == '#' && l[1] != '!')
			l += 1;
		else
			break;
		append(&text, trim(xstrdup(l)));
	}
	chomp_paras(&text);
	return text;
}

/* joined - lines @i... of the @n at @lines joined by spaces, up to the
 * first that holds @end (at most 8 lines; heap) */
static char *joined(char **lines, int n, int i, char end)
{
	struct buf def = {0};
	int j;
	for (j = i; j < n && j < i + 8; j++) {
		if (j > i)
			buf_str(&def, " ");
		buf_str(&def, trim(xstrdup(lines[j])));
		if (strchr(lines[j], end))
			break;
	}
	return def.s;
}

static void scan_file(const char *dir, const char *rel)
{
	char *path = xasprintf("%s/%s", dir, rel), **lines, *base;
	struct tapset *t = xmalloc(sizeof(*t));
	struct doc *pending = NULL;
	struct vec families = {0};
	int n, i, j, pending_line = 0;
	memset(t, 0, sizeof(*t));
	t->rel = xstrdup(rel);
	base = strrchr(t->rel, '/');
	t->topic = xstrdup(base ? base + 1 : t->rel);
	t->topic[strlen(t->topic) - 4] = '\0';
	lines = read_lines(path, &n);
	t->header = header_comment(lines, n);
	for (i = 0; i < n; i++) {
		char *l = lines[i], *s = l;
		struct def *d = NULL;
		while (isspace((unsigned char)*s))
			s++;
		if (strncmp(s, "/**", 3) == 0 && (s[3] == '\0' || isspace((unsigned char)s[3]))) {
			/* a doc comment: its lines without the markers */
			struct vec body = {0};
			char *rest = s + 3;
			for (j = i; j < n; j++) {
				char *x = j == i ? rest : lines[j], *end;
				char *c = xstrdup(x);
				end = strstr(c, "*/");
				if (end)
					*end = '\0';
				{
					char *y = c;
					while (isspace((unsigned char)*y))
						y++;
					if (*y == '*')
						y++;
					if (*y == ' ')
						y++;
					vec_push(&body, xstrdup(y));
				}
				free(c);
				if (end || strstr(x, "*/"))
					break;
			}
			pending = parse_doc((char **)body.items, body.n, t->rel,
					    i + 1);
			pending_line = j;
			if (pending && strchr(pending->name, '*')) {
				vec_push(&families, pending);
				pending = NULL;
			}
			i = j;
			continue;
		}
		/* a function's parameters, a probe alias's points may go on
		 * over the next lines (up to ')', up to the body's '{') */
		if (strncmp(s, "function", 8) == 0 && isspace((unsigned char)s[8])) {
			char *def = joined(lines, n, i, ')');
			d = parse_function(def);
			free(def);
		} else if (strncmp(s, "probe", 5) == 0 &&
			   isspace((unsigned char)s[5])) {
			char *def = joined(lines, n, i, '{');
			d = parse_probe(def);
			free(def);
		}
		if (!d)
			continue;
		d->file = t->rel;
		d->line = i + 1;
		/* a comment for it ends just before (blank lines, other
		 * definitions' preprocessor conditionals may come between) */
		if (pending && !strcmp(pending->name, d->name) &&
		    pending->is_probe == d->is_probe && i - pending_line < 8)
			d->doc = pending;
		pending = NULL;
		if (!is_public(d->name))
			continue;
		if (d->is_probe)
			body_vars(d, lines, n, i);
		if (d->is_probe && !d->doc)
			for (j = 0; j < families.n; j++) {
				struct doc *f = families.items[j];
				if (!fnmatch(f->name, d->name, 0))
					d->family = f;
			}
		vec_push(&t->defs, d);
	}
	vec_push(&tapsets, t);
	free(path);
}

static void scan_dir(const char *top, const char *rel)
{
	char *path = rel[0] ? xasprintf("%s/%s", top, rel) : xstrdup(top);
	struct dirent **ents;
	int n = scandir(path, &ents, NULL, alphasort), i;
	if (n < 0) {
		fprintf(stderr, "tapset-man: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char *r = rel[0] ? xasprintf("%s/%s", rel, name) : xstrdup(name);
		char *full = xasprintf("%s/%s", top, r);
		struct stat st;
		size_t len = strlen(name);
		if (name[0] != '.' && stat(full, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				scan_dir(top, r);
			else if (len > 4 && !strcmp(name + len - 4, ".stp"))
				scan_file(top, r);
		}
		free(full);
		free(r);
		free(ents[i]);
	}
	free(ents);
	free(path);
}

/* -------------------------------------------------------- the model's
 * pages: one per name */

struct page {
	int is_probe;
	char *name;
	struct vec defs;        /* struct def *, documented */
	struct tapset *t;
};

static struct vec pages;        /* struct page *, sorted by kind and name */

static int cmp_page(const void *a, const void *b)
{
	const struct page *x = *(struct page *const *)a;
	const struct page *y = *(struct page *const *)b;
	if (x->is_probe != y->is_probe)
		return x->is_probe - y->is_probe;
	return strcmp(x->name, y->name);
}

/* inherit_vars - a probe alias that sets nothing and expands to one
 * other alias (nd_syscall.read = syscall.read) has that alias's
 * variables */
static void inherit_vars(void)
{
	int i, j, k, l;
	for (i = 0; i < tapsets.n; i++) {
		struct tapset *t = tapsets.items[i];
		for (j = 0; j < t->defs.n; j++) {
			struct def *d = t->defs.items[j];
			if (!d->is_probe || d->vars.n)
				continue;
			for (k = 0; k < tapsets.n; k++) {
				struct tapset *u = tapsets.items[k];
				for (l = 0; l < u->defs.n; l++) {
					struct def *e = u->defs.items[l];
					if (e != d && e->is_probe &&
					    !strcmp(e->name, d->points)) {
						d->vars = e->vars;
						d->target = e;
					}
				}
			}
		}
	}
}

static void collect_pages(void)
{
	int i, j, k;
	for (i = 0; i < tapsets.n; i++) {
		struct tapset *t = tapsets.items[i];
		for (j = 0; j < t->defs.n; j++) {
			struct def *d = t->defs.items[j];
			struct page *p = NULL;
			if (!d->doc && !d->family)
				continue;
			for (k = 0; k < pages.n && !p; k++) {
				struct page *q = pages.items[k];
				if (q->is_probe == d->is_probe &&
				    !strcmp(q->name, d->name))
					p = q;
			}
			if (!p) {
				p = xmalloc(sizeof(*p));
				memset(p, 0, sizeof(*p));
				p->is_probe = d->is_probe;
				p->name = d->name;
				p->t = t;
				vec_push(&pages, p);
			}
			vec_push(&p->defs, d);
		}
	}
	qsort(pages.items, pages.n, sizeof(void *), cmp_page);
}

/* ---------------------------------------------------------- troff out */

/* roff - @s as text in a troff line: backslashes escaped, a line
 * starting with '.' or '\'' protected, "\n\n" a new paragraph (.PP) */
static void roff(FILE *f, const char *s)
{
	int bol = 1;
	for (; *s; s++) {
		if (s[0] == '\n' && s[1] == '\n') {
			fputs("\n.PP\n", f);
			s++;
			bol = 1;
			continue;
		}
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = *s == '\n';
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-' && s[1] == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/* roff_code - @s as literal code: every '-' a minus sign too */
static void roff_code(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

static const char *outdir = ".";
static const char *version = "";

static FILE *open_page(const char *name, const char *section)
{
	char *path = xasprintf("%s/%s.%s", outdir, name, section);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "tapset-man: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	free(path);
	return f;
}

static void th(FILE *f, const char *title, const char *section)
{
	const char *p;
	fputs(".TH \"", f);
	for (p = title; *p; p++)
		fputc(toupper((unsigned char)*p), f);
	fprintf(f, "\" %s \"\" \"systemtap-ng %s\" \"SystemTap Tapset "
		"Reference\"\n", section, version);
}

/* star_part - the part of @name that the '*' of family pattern @pat
 * matched (heap), or NULL */
static char *star_part(const char *pat, const char *name)
{
	const char *star = strchr(pat, '*');
	size_t pre, post;
	if (!star)
		return NULL;
	pre = star - pat;
	post = strlen(star + 1);
	if (strlen(name) < pre + post)
		return NULL;
	return xstrndup(name + pre, strlen(name) - pre - post);
}

/* subst - @text with every '*' replaced by @part (heap; NULL for NULL) */
static char *subst(const char *text, const char *part)
{
	struct buf b = {0};
	const char *s;
	if (!text)
		return NULL;
	if (!part)
		return xstrdup(text);
	for (s = text; *s; s++) {
		if (*s == '*')
			buf_str(&b, part);
		else
			buf_add(&b, s, 1);
	}
	return b.s ? b.s : xstrdup("");
}

/* doc_of - the doc comment of @d's page: its own, or its family's with
 * each '*' replaced by the part of the name the pattern's '*' matched */
static struct doc *doc_of(const struct def *d)
{
	const struct doc *f = d->family;
	struct doc *x;
	char *part;
	int i;
	if (d->doc)
		return d->doc;
	part = star_part(f->name, d->name);
	x = xmalloc(sizeof(*x));
	*x = *f;
	x->name = d->name;
	x->summary = subst(f->summary, part);
	x->context = subst(f->context, part);
	x->description = subst(f->description, part);
	x->returns = subst(f->returns, part);
	memset(&x->args, 0, sizeof(x->args));
	for (i = 0; i < f->args.n; i++) {
		const struct arg *a = f->args.items[i];
		struct arg *b = xmalloc(sizeof(*b));
		b->names = a->names;
		b->text = subst(a->text, part);
		vec_push(&x->args, b);
	}
	free(part);
	return x;
}

static char *summary_of(const struct def *d)
{
	return xstrdup(doc_of(d)->summary);
}

static void see_also(FILE *f, const struct tapset *t, const char *index)
{
	fputs(".SH SEE ALSO\n", f);
	fprintf(f, ".BR tapset::%s (3stap),\n.BR %s (3stap),\n.BR stap (1)\n",
		t->topic, index);
}

static void write_args(FILE *f, const struct doc *d)
{
	int i;
	for (i = 0; i < d->args.n; i++) {
		const struct arg *a = d->args.items[i];
		fputs(".TP\n.I ", f);
		roff_code(f, a->names);
		fputc('\n', f);
		roff(f, a->text ? a->text : "");
		fputc('\n', f);
	}
}

static void write_function(const struct page *p)
{
	FILE *f;
	char *title = xasprintf("function::%s", p->name);
	const struct def *d0 = p->defs.items[0];
	int i, nargs = 0;
	f = open_page(title, "3stap");
	th(f, title, "3stap");
	fputs(".SH NAME\n", f);
	roff_code(f, title);
	fputs(" \\- ", f);
	roff(f, d0->doc->summary);
	fputs("\n.SH SYNOPSIS\n.nf\n", f);
	for (i = 0; i < p->defs.n; i++) {
		const struct def *d = p->defs.items[i];
		fputs(".B ", f);
		roff_code(f, d->synopsis);
		fputc('\n', f);
		nargs += d->params.n;
	}
	fputs(".fi\n.SH ARGUMENTS\n", f);
	if (!nargs)
		fputs("None.\n", f);
	/* each argument once: overloads share most of theirs */
	for (i = 0; i < p->defs.n; i++) {
		const struct def *d = p->defs.items[i];
		int j, k, m, seen;
		for (k = 0; k < d->doc->args.n; k++) {
			const struct arg *a = d->doc->args.items[k];
			seen = 0;
			for (j = 0; j < i && !seen; j++) {
				const struct def *e = p->defs.items[j];
				for (m = 0; m < e->doc->args.n; m++)
					seen |= !strcmp(a->names, ((struct arg *)e->doc->args.items[m])->names);
			}
			if (seen)
				continue;
			fputs(".TP\n.I ", f);
			roff_code(f, a->names);
			fputc('\n', f);
			roff(f, a->text ? a->text : "");
			fputc('\n', f);
		}
	}
	for (i = 0; i < p->defs.n; i++) {
		const struct def *d = p->defs.items[i];
		if (d->doc->context) {
			fputs(".SH CONTEXT\n", f);
			roff(f, d->doc->context);
			fputc('\n', f);
			break;
		}
	}
	fputs(".SH DESCRIPTION\n", f);
	for (i = 0; i < p->defs.n; i++) {
		const struct def *d = p->defs.items[i];
		if (p->defs.n > 1) {
			if (i)
				fputs(".PP\n", f);
			fputs(".B ", f);
			roff_code(f, d->synopsis);
			fputs("\n.br\n", f);
			if (i || !d->doc->description) {
				roff(f, d->doc->summary);
				fputs(".\n", f);
			}
		}
		if (d->doc->description) {
			if (p->defs.n > 1 && i)
				fputs(".br\n", f);
			roff(f, d->doc->description);
			fputc('\n', f);
		} else if (p->defs.n == 1) {
			/* the summary says it all: as a sentence */
			char *s = xstrdup(d->doc->summary);
			s[0] = toupper((unsigned char)s[0]);
			roff(f, s);
			fputs(".\n", f);
			free(s);
		}
		if (d->doc->returns) {
			fputs(".PP\nReturns: ", f);
			roff(f, d->doc->returns);
			fputc('\n', f);
		}
	}
	fputs(".SH FILES\n", f);
	for (i = 0; i < p->defs.n; i++) {
		const struct def *d = p->defs.items[i];
		if (i && !strcmp(d->file, ((struct def *)p->defs.items[i - 1])->file))
			continue;
		fprintf(f, "%s.I tapset/%s\n", i ? ".br\n" : "", d->file);
	}
	see_also(f, p->t, "stapfuncs");
	fclose(f);
	free(title);
}

/* arg_for - the @ line of @doc that names @v, or NULL */
static const struct arg *arg_for(const struct doc *doc, const char *v)
{
	size_t len = strlen(v);
	int j;
	for (j = 0; j < doc->args.n; j++) {
		const struct arg *a = doc->args.items[j];
		const char *n = a->names;
		while ((n = strstr(n, v))) {
			if ((n == a->names || n[-1] == ' ') &&
			    (n[len] == '\0' || n[len] == ','))
				return a;
			n += len;
		}
	}
	return NULL;
}

static void write_probe(const struct page *p)
{
	const struct def *d = p->defs.items[0];
	const struct doc *doc = doc_of(d);
	char *title = xasprintf("probe::%s", p->name), *sum = summary_of(d);
	FILE *f = open_page(title, "3stap");
	int i;
	th(f, title, "3stap");
	fputs(".SH NAME\n", f);
	roff_code(f, title);
	fputs(" \\- ", f);
	roff(f, sum);
	fputs("\n.SH SYNOPSIS\n.nf\n.B probe ", f);
	roff_code(f, p->name);
	fputs("\n.fi\n.PP\nexpands to\n.IP\n.nf\n", f);
	for (i = 0; i < p->defs.n; i++) {
		const struct def *e = p->defs.items[i];
		roff_code(f, e->points);
		fputc('\n', f);
	}
	fputs(".fi\n.SH VALUES\n", f);
	if (!doc->args.n && !d->vars.n)
		fputs("None.\n", f);
	write_args(f, doc);
	/* variables the alias sets that no @ line names: from the alias it
	 * expands to, if that documents them */
	for (i = 0; i < d->vars.n; i++) {
		const char *v = d->vars.items[i];
		const struct arg *a = NULL;
		if (arg_for(doc, v))
			continue;
		if (d->target && (d->target->doc || d->target->family))
			a = arg_for(doc_of(d->target), v);
		fputs(".TP\n.I ", f);
		roff_code(f, v);
		fputc('\n', f);
		roff(f, a && a->text ? a->text : "set by this alias");
		fputc('\n', f);
	}
	if (doc->context) {
		fputs(".SH CONTEXT\n", f);
		roff(f, doc->context);
		fputc('\n', f);
	}
	fputs(".SH DESCRIPTION\n", f);
	if (doc->description) {
		roff(f, doc->description);
		fputc('\n', f);
	} else {
		char *s = xstrdup(sum);
		s[0] = toupper((unsigned char)s[0]);
		roff(f, s);
		fputs(".\n", f);
		free(s);
	}
	fprintf(f, ".SH FILES\n.I tapset/%s\n", d->file);
	see_also(f, p->t, "stapprobes");
	fclose(f);
	free(title);
	free(sum);
}

/* index_entry - one .TP entry of an index page */
static void index_entry(FILE *f, const char *kind, const struct page *p)
{
	const struct def *d = p->defs.items[0];
	char *sum = summary_of(d);
	fputs(".TP\n.BR ", f);
	roff_code(f, kind);
	roff_code(f, p->name);
	fputs(" (3stap)\n", f);
	roff(f, sum);
	fputc('\n', f);
	free(sum);
}

static void write_tapset(const struct tapset *t)
{
	char *title = xasprintf("tapset::%s", t->topic);
	FILE *f = open_page(title, "3stap");
	int i, nf = 0, np = 0;
	th(f, title, "3stap");
	fputs(".SH NAME\n", f);
	roff_code(f, title);
	fprintf(f, " \\- the functions and probes of the tapset file %s\n",
		t->rel);
	fputs(".SH DESCRIPTION\n", f);
	if (t->header) {
		fputs(".nf\n", f);
		roff(f, t->header);
		fputs("\n.fi\n", f);
	} else
		fprintf(f, "The tapset file %s.\n", t->rel);
	for (i = 0; i < pages.n; i++) {
		const struct page *p = pages.items[i];
		if (p->t != t)
			continue;
		if (!p->is_probe && !nf++)
			fputs(".SH FUNCTIONS\n", f);
		if (p->is_probe && !np++)
			fputs(".SH PROBES\n", f);
		index_entry(f, p->is_probe ? "probe::" : "function::", p);
	}
	fprintf(f, ".SH FILES\n.I tapset/%s\n", t->rel);
	fputs(".SH SEE ALSO\n.BR stapfuncs (3stap),\n.BR stapprobes (3stap),\n"
	      ".BR stap (1)\n", f);
	fclose(f);
	free(title);
}

static int cmp_tapset(const void *a, const void *b)
{
	const struct tapset *x = *(struct tapset *const *)a;
	const struct tapset *y = *(struct tapset *const *)b;
	return strcmp(x->topic, y->topic);
}

/* write_index - stapfuncs (functions) or the alias part of stapprobes */
static void write_index(FILE *f, int probes)
{
	int i, j;
	for (i = 0; i < tapsets.n; i++) {
		const struct tapset *t = tapsets.items[i];
		int any = 0;
		for (j = 0; j < pages.n; j++) {
			const struct page *p = pages.items[j];
			if (p->t != t || p->is_probe != probes)
				continue;
			if (!any++) {
				fputs(".SS ", f);
				roff_code(f, t->topic);
				fputs(" \\(em ", f);
				fputs("\n.BR tapset::", f);
				roff_code(f, t->topic);
				fputs(" (3stap)\n", f);
			}
			index_entry(f, probes ? "probe::" : "function::", p);
		}
	}
}

static void write_stapfuncs(void)
{
	FILE *f = open_page("stapfuncs", "3stap");
	th(f, "stapfuncs", "3stap");
	fputs(".SH NAME\nstapfuncs \\- the functions of the tapset library, "
	      "by tapset\n.SH DESCRIPTION\nEvery function a script may call "
	      "without defining it, with its page; the tapset files define "
	      "them (a script's own function of the same name takes their "
	      "place).  Names starting with an underscore are the tapsets' "
	      "own helpers and are not listed.\n.SH FUNCTIONS\n", f);
	write_index(f, 0);
	fputs(".SH SEE ALSO\n.BR stapprobes (3stap),\n.BR stap (1)\n", f);
	fclose(f);
}

static void write_stapprobes(const char *head)
{
	FILE *in = fopen(head, "r"), *f;
	char line[4096];
	if (!in) {
		fprintf(stderr, "tapset-man: %s: %s\n", head, strerror(errno));
		exit(2);
	}
	f = open_page("stapprobes", "3stap");
	while (fgets(line, sizeof(line), in)) {
		if (!strcmp(line, ".\\\" @ALIASES@\n"))
			write_index(f, 1);
		else if (!strncmp(line, ".TH ", 4)) {
			th(f, "stapprobes", "3stap");
		} else
			fputs(line, f);
	}
	fclose(in);
	fclose(f);
}

/* --------------------------------------------------------------- check */

/* documented - whether another definition of @d's name (an alternative
 * in a preprocessor conditional) has a doc comment */
static int documented(const struct def *d)
{
	int i, j;
	for (i = 0; i < tapsets.n; i++) {
		const struct tapset *t = tapsets.items[i];
		for (j = 0; j < t->defs.n; j++) {
			const struct def *e = t->defs.items[j];
			if (e != d && e->is_probe == d->is_probe &&
			    (e->doc || e->family) && !strcmp(e->name, d->name))
				return 1;
		}
	}
	return 0;
}

static int check(void)
{
	int i, j, k, bad = 0;
	for (i = 0; i < tapsets.n; i++) {
		const struct tapset *t = tapsets.items[i];
		for (j = 0; j < t->defs.n; j++) {
			const struct def *d = t->defs.items[j];
			if (!d->doc && !d->family && !documented(d)) {
				printf("%s:%d: %s %s has no doc comment\n",
				       d->file, d->line,
				       d->is_probe ? "probe" : "function", d->name);
				bad++;
				continue;
			}
			if (!d->doc && !d->family)
				continue;       /* an undocumented alternative */
			if (!d->is_probe && !d->doc->context) {
				printf("%s:%d: function %s: no Context: section\n",
				       d->file, d->line, d->name);
				bad++;
			}
			for (k = 0; !d->is_probe && k < d->params.n; k++) {
				const char *pn = d->params.items[k];
				int m, found = 0;
				for (m = 0; m < d->doc->args.n && !found; m++) {
					const struct arg *a = d->doc->args.items[m];
					const char *n = a->names;
					size_t len = strlen(pn);
					while ((n = strstr(n, pn)) && !found) {
						found = (n == a->names || n[-1] == ' ') &&
							(n[len] == '\0' || n[len] == ',');
						n += len;
					}
				}
				if (!found) {
					printf("%s:%d: function %s: no @%s line\n",
					       d->file, d->line, d->name, pn);
					bad++;
				}
			}
		}
	}
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *head = NULL;
	int checking = 0, i;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--check"))
			checking = 1;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			outdir = argv[++i];
		else if (!strcmp(argv[i], "--stapprobes") && i + 1 < argc)
			head = argv[++i];
		else if (!strcmp(argv[i], "--version") && i + 1 < argc)
			version = argv[++i];
		else if (argv[i][0] != '-' && !dir)
			dir = argv[i];
		else {
			fprintf(stderr, "usage: tapset-man [--check] [-o OUTDIR] "
				"[--stapprobes HEAD] [--version V] TAPSETDIR\n");
			return 2;
		}
	}
	if (!dir) {
		fprintf(stderr, "tapset-man: no TAPSETDIR\n");
		return 2;
	}
	scan_dir(dir, "");
	qsort(tapsets.items, tapsets.n, sizeof(void *), cmp_tapset);
	if (checking)
		return check();
	inherit_vars();
	collect_pages();
	for (i = 0; i < pages.n; i++) {
		struct page *p = pages.items[i];
		if (p->is_probe)
			write_probe(p);
		else
			write_function(p);
	}
	for (i = 0; i < tapsets.n; i++)
		write_tapset(tapsets.items[i]);
	write_stapfuncs();
	if (head)
		write_stapprobes(head);
	return 0;
}
