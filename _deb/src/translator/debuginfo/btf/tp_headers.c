/* tp_headers.c - which subsystem each tracepoint belongs to, and its
 * event class, from the kernel's trace headers (BTF knows neither).
 *
 * Scanned: include/trace/events/, arch/x86/include/asm/trace/,
 * arch/x86/include/asm/ *trace.h and include/ras/ of the kernel's headers
 * (the kbuild directory, or the source tree its Makefile includes, as
 * Debian's -common package).  A small scanner:
 * comments removed, backslash-newlines joined; "#define TRACE_SYSTEM X"
 * sets the subsystem; TRACE_EVENT(name, / DECLARE_TRACE(name, /
 * DEFINE_EVENT(class, name, and their _FN/_CONDITION/_PRINT variants
 * define events; a #define whose body uses one of those with one of its
 * parameters as the name (DEFINE_WRITEBACK_EVENT(name)) is a wrapper,
 * and its uses define events too.
 */
#include "btf_int.h"

#include <ctype.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* An event-defining macro: which argument is the event's name, which its
 * class (-1: the event is its own class; wrappers: the class may be
 * fixed, then class_arg is -1 and cls is set). */
struct tp_macro {
	const char *name;
	int name_arg, class_arg;
	const char *cls;
	const char *prefix, *suffix;    /* wrappers: PREFIX##name##SUFFIX */
};

static const struct tp_macro builtin_macros[] = {
	{ .name = "TRACE_EVENT", .name_arg = 0, .class_arg = -1 },
	{ .name = "TRACE_EVENT_FN", .name_arg = 0, .class_arg = -1 },
	{ .name = "TRACE_EVENT_FN_COND", .name_arg = 0, .class_arg = -1 },
	{ .name = "TRACE_EVENT_CONDITION", .name_arg = 0, .class_arg = -1 },
	{ .name = "DECLARE_TRACE", .name_arg = 0, .class_arg = -1 },
	{ .name = "DECLARE_TRACE_CONDITION", .name_arg = 0, .class_arg = -1 },
	{ .name = "DEFINE_EVENT", .name_arg = 1, .class_arg = 0 },
	{ .name = "DEFINE_EVENT_FN", .name_arg = 1, .class_arg = 0 },
	{ .name = "DEFINE_EVENT_PRINT", .name_arg = 1, .class_arg = 0 },
	{ .name = "DEFINE_EVENT_CONDITION", .name_arg = 1, .class_arg = 0 },
};

struct scan {
	struct vec macros;      /* struct tp_macro *: builtins + wrappers */
	struct vec events;      /* struct tp_event * */
	const char *sys;        /* the current TRACE_SYSTEM */
};

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* strip - comments become spaces, backslash-newlines spaces, in place */
static void strip(char *t)
{
	char *p;
	for (p = t; *p; p++) {
		if (p[0] == '/' && p[1] == '*') {
			for (; *p && !(p[0] == '*' && p[1] == '/'); p++)
				if (*p != '\n')
					*p = ' ';
			if (*p)
				p[0] = p[1] = ' ';
			if (!*p || !*++p)
				break;
		} else if (p[0] == '/' && p[1] == '/') {
			for (; *p && *p != '\n'; p++)
				*p = ' ';
			if (!*p)
				break;
		} else if (p[0] == '\\' && p[1] == '\n')
			p[0] = p[1] = ' ';
		else if (p[0] == '"') {         /* skip string literals */
			for (p++; *p && *p != '"' && *p != '\n'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				break;
		}
	}
}

/* args - the top-level comma-separated arguments of the call whose '('
 * is at *@pp (each trimmed, heap), at most @max of them; *@pp is left
 * after the closing ')'.  Returns the count, or -1 if unbalanced. */
static int args(const char **pp, char **out, int max)
{
	const char *p = *pp + 1, *start = p;
	int depth = 0, n = 0;
	for (; *p; p++) {
		if (*p == '"' || *p == '\'') {
			char quote = *p;
			for (p++; *p && *p != quote; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				break;
		} else if (*p == '(')
			depth++;
		else if ((*p == ',' && !depth) || (*p == ')' && !depth)) {
			if (n < max) {
				const char *a = start, *b = p;
				while (a < b && isspace((unsigned char)*a))
					a++;
				while (b > a && isspace((unsigned char)b[-1]))
					b--;
				out[n] = xstrndup(a, b - a);
			}
			n++;
			start = p + 1;
			if (*p == ')') {
				*pp = p + 1;
				return n < max ? n : max;
			}
		} else if (*p == ')')
			depth--;
	}
	return -1;
}

static int plain_ident(const char *s)
{
	if (!*s || isdigit((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!is_ident((unsigned char)*s))
			return 0;
	return 1;
}

static int known_macro(struct scan *sc, const char *p, size_t len)
{
	int i;
	for (i = 0; i < sc->macros.n; i++) {
		const struct tp_macro *m = sc->macros.items[i];
		if (strlen(m->name) == len && !strncmp(m->name, p, len))
			return 1;
	}
	return 0;
}

/* param_index - @arg is parameter i of @params, alone or pasted
 * ("name##_entry"): returns i and the pasted prefix/suffix (heap, or
 * NULL), or -1. */
static int param_index(const char *arg, char **params, int np,
		       char **prefix, char **suffix)
{
	const char *hash = strstr(arg, "##");
	char *left, *right;
	int i, r = -1;
	*prefix = *suffix = NULL;
	if (!hash) {
		for (i = 0; i < np; i++)
			if (!strcmp(params[i], arg))
				return i;
		return -1;
	}
	if (strstr(hash + 2, "##"))
		return -1;
	left = xstrndup(arg, hash - arg);
	right = xstrdup(hash + 2);
	left[strcspn(left, " \t")] = 0;
	while (*right == ' ' || *right == '\t')
		memmove(right, right + 1, strlen(right));
	for (i = 0; i < np && r < 0; i++) {
		if (!strcmp(params[i], left) && plain_ident(right)) {
			*suffix = right;
			r = i;
		} else if (!strcmp(params[i], right) && plain_ident(left)) {
			*prefix = left;
			r = i;
		}
	}
	if (r < 0 || *suffix)
		free(left);
	if (r < 0 || *prefix)
		free(right);
	return r;
}

/* one_use - the use of @m with arguments @a (@n of them): an event, or
 * inside the definition of wrapper @wrapper (parameters @params) a new
 * macro when the event's name is made from a parameter. */
static void one_use(struct scan *sc, const struct tp_macro *m, char **a,
		    int n, char **params, int np, const char *wrapper)
{
	const char *name, *cls;
	char *pre, *suf;
	int i;
	if (n <= m->name_arg || (m->class_arg >= 0 && n <= m->class_arg))
		return;
	name = a[m->name_arg];
	cls = m->class_arg >= 0 ? a[m->class_arg] : m->cls;
	if (!params) {
		struct tp_event *e;
		if (!plain_ident(name) || (cls && !plain_ident(cls)))
			return;
		e = xcalloc(1, sizeof(*e));
		e->name = xasprintf("%s%s%s", m->prefix ? m->prefix : "", name,
				    m->suffix ? m->suffix : "");
		e->sys = sc->sys ? sc->sys : "unknown";
		e->cls = xstrdup(cls ? cls : e->name);
		vec_push(&sc->events, e);
		return;
	}
	if ((i = param_index(name, params, np, &pre, &suf)) >= 0) {
		struct tp_macro *w = xcalloc(1, sizeof(*w));
		int j;
		w->name = xstrdup(wrapper);
		w->name_arg = i;
		w->class_arg = -1;
		w->prefix = pre;
		w->suffix = suf;
		for (j = 0; cls && j < np; j++)
			if (!strcmp(params[j], cls))
				w->class_arg = j;
		if (w->class_arg < 0 && cls && plain_ident(cls) &&
		    strcmp(cls, name))
			w->cls = xstrdup(cls);
		vec_push(&sc->macros, w);
	}
}

/* scan_calls - the event macro uses in @text.  With @params (a wrapper's
 * parameter list, @np of them) a use whose name is a parameter makes
 * @wrapper a new macro; otherwise uses define events. */
static void scan_calls(struct scan *sc, const char *text, char **params,
		       int np, const char *wrapper)
{
	const char *p = text;
	while (*p) {
		const char *id = p, *q;
		char *a[4] = {0};
		int n, i, nm = sc->macros.n;
		if (!is_ident((unsigned char)*p) ||
		    (p > text && is_ident((unsigned char)p[-1]))) {
			p++;
			continue;
		}
		while (is_ident((unsigned char)*p))
			p++;
		for (q = p; isspace((unsigned char)*q); q++)
			;
		if (*q != '(' || !known_macro(sc, id, p - id))
			continue;
		if ((n = args(&q, a, 4)) < 0)
			return;
		/* every expansion of the macro (a wrapper may define several
		 * events); not the ones this very definition adds */
		for (i = 0; i < nm; i++) {
			const struct tp_macro *m = sc->macros.items[i];
			if (strlen(m->name) == (size_t)(p - id) &&
			    !strncmp(m->name, id, p - id))
				one_use(sc, m, a, n, params, np, wrapper);
		}
		p = q;
		for (i = 0; i < 4; i++)
			free(a[i]);
	}
}

/* directive - one preprocessor line (without the '#') */
static void directive(struct scan *sc, char *line)
{
	char *p = line, *name, *params[16];
	int np = 0, i;
	while (isspace((unsigned char)*p))
		p++;
	if (strncmp(p, "define", 6) || !isspace((unsigned char)p[6]))
		return;
	for (p += 6; isspace((unsigned char)*p); p++)
		;
	name = p;
	while (is_ident((unsigned char)*p))
		p++;
	if (p - name == 12 && !strncmp(name, "TRACE_SYSTEM", 12)) {
		char *v = p, *e;
		while (isspace((unsigned char)*v) || *v == '"')
			v++;
		for (e = v; is_ident((unsigned char)*e); e++)
			;
		if (e > v)
			sc->sys = xstrndup(v, e - v);
		return;
	}
	if (*p != '(') {
		/* #define DEFINE_EVENT_SCHEDSTAT DEFINE_EVENT: an alias */
		char *v = p, *e;
		size_t len = p - name;
		int nm = sc->macros.n;
		while (isspace((unsigned char)*v))
			v++;
		for (e = v; is_ident((unsigned char)*e); e++)
			;
		if (e == v || known_macro(sc, name, len))
			return;
		for (i = 0; i < nm; i++) {
			const struct tp_macro *m = sc->macros.items[i];
			if (strlen(m->name) == (size_t)(e - v) &&
			    !strncmp(m->name, v, e - v)) {
				struct tp_macro *a = xmalloc(sizeof(*a));
				*a = *m;
				a->name = xstrndup(name, len);
				vec_push(&sc->macros, a);
			}
		}
		return;
	}
	name = xstrndup(name, p - name);
	{
		const char *q = p;
		np = args(&q, params, 16);
		if (np > 0)
			scan_calls(sc, q, params, np, name);
	}
	for (i = 0; i < np; i++)
		free(params[i]);
	free(name);
}

static void scan_file(struct scan *sc, const char *path)
{
	char *text = read_file(path, NULL), *line, *next;
	struct strbuf code = {0};
	if (!text)
		return;
	strip(text);
	sc->sys = NULL;
	for (line = text; line; line = next) {
		char *p = line;
		if ((next = strchr(line, '\n')))
			*next++ = 0;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '#') {
			/* code goes on across #if/#endif inside an event;
			 * what precedes a new TRACE_SYSTEM is its old one's */
			if (code.s && strstr(p, "TRACE_SYSTEM")) {
				scan_calls(sc, code.s, NULL, 0, NULL);
				code.len = 0;
				code.s[0] = 0;
			}
			directive(sc, p + 1);
		} else {
			strbuf_add(&code, line);
			strbuf_addc(&code, '\n');
		}
	}
	if (code.s)
		scan_calls(sc, code.s, NULL, 0, NULL);
	free(code.s);
	free(text);
}

/* scan_dir - the headers in @dir whose names end in @suffix, in order */
static void scan_dir(struct scan *sc, const char *dir, const char *suffix)
{
	char *pattern = xasprintf("%s/*%s", dir, suffix);
	glob_t g;
	size_t i;
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++)
			scan_file(sc, g.gl_pathv[i]);
		globfree(&g);
	}
	free(pattern);
}

/* source_dir - the kernel headers holding include/trace/events */
static char *source_dir(struct session *s)
{
	struct stat st;
	char *p = xasprintf("%s/include/trace/events", s->kernel_build);
	char *mk, *text, *inc;
	int ok = stat(p, &st) == 0;
	free(p);
	if (ok)
		return xstrdup(s->kernel_build);
	/* Debian: the arch package's Makefile includes the -common one */
	mk = xasprintf("%s/Makefile", s->kernel_build);
	text = read_file(mk, NULL);
	free(mk);
	if (text && (inc = strstr(text, "include /"))) {
		char *e = strstr(inc, "/Makefile");
		if (e && !memchr(inc, '\n', e - inc)) {
			char *dir = xstrndup(inc + 8, e - inc - 8);
			free(text);
			return dir;
		}
	}
	free(text);
	return xasprintf("/lib/modules/%s/source", s->kernel_release);
}

static int cmp_event(const void *a, const void *b)
{
	return strcmp((*(struct tp_event *const *)a)->name,
		      (*(struct tp_event *const *)b)->name);
}

int tp_headers_load(struct session *s, struct vec *events, char **why)
{
	static const char *const dirs[][2] = {
		{ "include/trace/events", ".h" },
		{ "arch/x86/include/asm/trace", ".h" },
		{ "arch/x86/include/asm", "trace.h" },  /* msr-trace.h */
		{ "include/ras", ".h" },
	};
	struct scan sc = {0};
	char *src, *dir;
	size_t i;
	int k;
	if (!s->kernel_build) {
		*why = xstrdup("no kernel build directory");
		return -1;
	}
	for (i = 0; i < sizeof(builtin_macros) / sizeof(builtin_macros[0]); i++)
		vec_push(&sc.macros, (void *)&builtin_macros[i]);
	src = source_dir(s);
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		dir = xasprintf("%s/%s", src, dirs[i][0]);
		scan_dir(&sc, dir, dirs[i][1]);
		free(dir);
	}
	if (!sc.events.n) {
		*why = xasprintf("no trace events found in %s/include/trace/"
				 "events", src);
		free(src);
		return -1;
	}
	free(src);
	qsort(sc.events.items, sc.events.n, sizeof(void *), cmp_event);
	for (k = 0; k < sc.events.n; k++)
		if (!k || cmp_event(&sc.events.items[k - 1],
				    &sc.events.items[k]))
			vec_push(events, sc.events.items[k]);
	free(sc.events.items);
	free(sc.macros.items);
	return 0;
}

/* ---- syscalls: numbers and prototypes ---- */

static int cmp_syscall(const void *a, const void *b)
{
	return strcmp((*(struct tp_syscall *const *)a)->name,
		      (*(struct tp_syscall *const *)b)->name);
}

static const char *const type_words[] = {
	"int", "long", "char", "short", "unsigned", "signed", "void",
	"struct", "union", "enum", "const", "volatile", "__user", NULL,
};

static int type_word(const char *w)
{
	int i;
	for (i = 0; type_words[i]; i++)
		if (!strcmp(type_words[i], w))
			return 1;
	return 0;
}

/* one_param - "const char __user *filename" into its type text and name
 * (NULL when unnamed: "unsigned long", "int __user *", "struct x *"). */
static void one_param(const char *text, char **type, char **name)
{
	const char *end = text + strlen(text), *id;
	while (end > text && isspace((unsigned char)end[-1]))
		end--;
	for (id = end; id > text && is_ident((unsigned char)id[-1]); id--)
		;
	*name = NULL;
	*type = xstrndup(text, end - text);
	if (id < end && id > text) {
		char *w = xstrndup(id, end - id), *prev;
		const char *before = id, *pw;
		while (before > text && isspace((unsigned char)before[-1]))
			before--;
		for (pw = before; pw > text && is_ident((unsigned char)pw[-1]); pw--)
			;
		prev = xstrndup(pw, before - pw);
		/* "struct tag" and "unsigned long" have no name; "int x",
		 * "char *x" do */
		if (before > text && !type_word(w) &&
		    (before[-1] == '*' || (strcmp(prev, "struct") &&
		     strcmp(prev, "union") && strcmp(prev, "enum")))) {
			*name = w;
			free(*type);
			*type = xstrndup(text, before - text);
		} else
			free(w);
		free(prev);
	}
}

/* scan_protos - "long sys_NAME(params);" in @path: fill the syscalls of
 * @by_name (sorted by name) that have no prototype yet. */
static void scan_protos(const char *path, struct vec *by_name)
{
	char *text = read_file(path, NULL), *p;
	if (!text)
		return;
	strip(text);
	for (p = text; (p = strstr(p, "long sys_")); ) {
		const char *name = p + 9, *q = name;
		struct tp_syscall key, *kp = &key, **found;
		char *a[6] = {0};
		int n, i;
		p += 9;
		while (is_ident((unsigned char)*q))
			q++;
		if (*q != '(')
			continue;
		key.name = xstrndup(name, q - name);
		found = bsearch(&kp, by_name->items, by_name->n, sizeof(void *),
				cmp_syscall);
		free(key.name);
		n = args(&q, a, 6);
		if (n < 0)
			break;
		if (found && !(*found)->has_proto) {
			(*found)->has_proto = 1;
			if (!(n == 1 && !strcmp(a[0], "void")))
				(*found)->nparams = n;
			for (i = 0; i < (*found)->nparams; i++)
				one_param(a[i], &(*found)->ptypes[i],
					  &(*found)->pnames[i]);
		}
		for (i = 0; i < 6; i++)
			free(a[i]);
	}
	free(text);
}

int tp_syscalls_load(struct session *s, struct vec *calls, char **why)
{
	char *path, *text, *p, *src;
	int i;
	if (!s->kernel_build) {
		*why = xstrdup("no kernel build directory");
		return -1;
	}
	path = xasprintf("%s/arch/x86/include/generated/uapi/asm/unistd_64.h",
			 s->kernel_build);
	if (!(text = read_file(path, NULL))) {
		*why = xasprintf("cannot read %s", path);
		free(path);
		return -1;
	}
	free(path);
	for (p = text; (p = strstr(p, "#define __NR_")); ) {
		const char *name = p + 13, *q = name;
		char *end;
		long nr;
		p += 13;
		while (is_ident((unsigned char)*q))
			q++;
		nr = strtol(q, &end, 10);
		if (end == q || nr < 0)
			continue;
		{
			struct tp_syscall *sc = xcalloc(1, sizeof(*sc));
			sc->name = xstrndup(name, q - name);
			sc->nr = nr;
			vec_push(calls, sc);
		}
	}
	free(text);
	qsort(calls->items, calls->n, sizeof(void *), cmp_syscall);
	src = source_dir(s);
	for (i = 0; i < 2; i++) {
		path = xasprintf("%s/%s", src, i ? "arch/x86/include/asm/syscalls.h"
						  : "include/linux/syscalls.h");
		scan_protos(path, calls);
		free(path);
	}
	free(src);
	return calls->n ? 0 : -1;
}
