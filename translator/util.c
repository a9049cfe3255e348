/* util.c - allocation, vectors, string buffers and diagnostics. */
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Under STP_FUZZ, util.h renames free() to stp_free(); "(free)(p)" below
 * is the libc function itself. */
#ifdef STP_FUZZ
void (free)(void *p);
#endif

int stp_verbose;

#ifdef STP_FUZZ
/* An open-addressing set of live tracked pointers (NULL = empty slot,
 * TOMB = deleted). */
#define TOMB ((void *)1)
static void **trk;
static size_t trk_cap, trk_used;
static int tracking;

static size_t trk_hash(void *p)
{
	return ((size_t)p >> 4) * 0x9E3779B97F4A7C15ULL;
}

static void trk_add(void *p);

static void trk_grow(void)
{
	void **old = trk;
	size_t oc = trk_cap, i;
	trk_cap = trk_cap ? trk_cap * 2 : 4096;
	trk = calloc(trk_cap, sizeof(void *));
	if (!trk)
		abort();
	trk_used = 0;
	for (i = 0; i < oc; i++)
		if (old[i] && old[i] != TOMB)
			trk_add(old[i]);
	(free)(old);
}

static void trk_add(void *p)
{
	size_t i;
	if ((trk_used + 1) * 2 > trk_cap)
		trk_grow();
	for (i = trk_hash(p) & (trk_cap - 1); trk[i] && trk[i] != TOMB;
	     i = (i + 1) & (trk_cap - 1))
		;
	trk[i] = p;
	trk_used++;
}

/* trk_del - remove p; 1 if it was tracked */
static int trk_del(void *p)
{
	size_t i;
	if (!trk_cap)
		return 0;
	for (i = trk_hash(p) & (trk_cap - 1); trk[i];
	     i = (i + 1) & (trk_cap - 1))
		if (trk[i] == p) {
			trk[i] = TOMB;
			return 1;
		}
	return 0;
}

void util_track(int on)
{
	tracking = on;
}

void util_free_tracked(void)
{
	size_t i;
	for (i = 0; i < trk_cap; i++)
		if (trk[i] && trk[i] != TOMB)
			(free)(trk[i]);
	(free)(trk);
	trk = NULL;
	trk_cap = trk_used = 0;
	tracking = 0;
}

void stp_free(void *p)
{
	if (p)
		trk_del(p);
	(free)(p);
}
#define TRACK(p) do { if (tracking) trk_add(p); } while (0)
#else
#define TRACK(p) do { } while (0)
#endif

static void oom(void)
{
	fputs("stap: out of memory\n", stderr);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom();
	TRACK(p);
	return p;
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);
	if (!p)
		oom();
	TRACK(p);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q;
	int was = 1;
#ifdef STP_FUZZ
	was = p == NULL ? tracking : trk_del(p);
#endif
	q = realloc(p, n ? n : 1);
	if (!q)
		oom();
	if (was)
		TRACK(q);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct strbuf b = {0};
	va_list ap;
	va_start(ap, fmt);
	strbuf_vprintf(&b, fmt, ap);
	va_end(ap);
	return strbuf_detach(&b);
}

char *read_stream(FILE *f, size_t *len)
{
	struct strbuf b = {0};
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_addn(&b, buf, n);
	if (len)
		*len = b.len;
	return strbuf_detach(&b);
}

char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *s;
	if (!f)
		return NULL;
	s = read_stream(f, len);
	fclose(f);
	return s;
}

int vec_push(struct vec *v, void *p)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 8;
		v->items = xrealloc(v->items, v->cap * sizeof(void *));
	}
	v->items[v->n] = p;
	return v->n++;
}

static void strbuf_grow(struct strbuf *b, size_t extra)
{
	if (b->len + extra + 1 <= b->cap)
		return;
	while (b->len + extra + 1 > b->cap)
		b->cap = b->cap ? 2 * b->cap : 64;
	b->s = xrealloc(b->s, b->cap);
}

void strbuf_addn(struct strbuf *b, const char *s, size_t n)
{
	strbuf_grow(b, n);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void strbuf_add(struct strbuf *b, const char *s)
{
	strbuf_addn(b, s, strlen(s));
}

void strbuf_addc(struct strbuf *b, char c)
{
	strbuf_addn(b, &c, 1);
}

void strbuf_vprintf(struct strbuf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;
	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	strbuf_grow(b, (size_t)n);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vprintf(b, fmt, ap);
	va_end(ap);
}

const char *strbuf_str(const struct strbuf *b)
{
	return b->s ? b->s : "";
}

char *strbuf_detach(struct strbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

/* The registry of source texts, for quoting lines in diagnostics. */
struct source_text {
	const char *file, *text;
	struct source_text *next;
};
static struct source_text *sources;

void source_reset(void)
{
	sources = NULL;
}

static void (*reset_fns[64])(void);
static int n_reset_fns;

void util_on_reset(void (*fn)(void))
{
	int i;
	for (i = 0; i < n_reset_fns; i++)
		if (reset_fns[i] == fn)
			return;
	if (n_reset_fns == (int)(sizeof(reset_fns) / sizeof(reset_fns[0])))
		abort();   /* a new cache: raise the bound */
	reset_fns[n_reset_fns++] = fn;
}

void util_reset_caches(void)
{
	while (n_reset_fns > 0)
		reset_fns[--n_reset_fns]();
}

void source_register(const char *file, const char *text)
{
	struct source_text *s = xmalloc(sizeof(*s));
	s->file = file;
	s->text = text;
	s->next = sources;
	sources = s;
}

int source_line(const char *file, int line, struct strbuf *out)
{
	struct source_text *s;
	const char *p, *e;
	for (s = sources; s; s = s->next)
		if (s->file == file || strcmp(s->file, file) == 0)
			break;
	if (!s || line < 1)
		return 0;
	for (p = s->text; line > 1 && *p; p++)
		if (*p == '\n')
			line--;
	if (line > 1)
		return 0;
	e = strchr(p, '\n');
	strbuf_addn(out, p, e ? (size_t)(e - p) : strlen(p));
	return 1;
}

static int n_errors, n_warnings;
int diag_quiet;
int diag_no_warnings;
int diag_warnings_as_errors;
const char *diag_error_kind = "error";

/* The SGR parameters of each part of a diagnostic (stap --color), NULL
 * for plain text; see diag_set_colors(). */
static struct {
	const char *key;
	const char *sgr;
} colors[] = {
	{ "error", NULL }, { "warning", NULL }, { "source", NULL },
	{ "caret", NULL }, { "token", NULL },
};
enum { C_ERROR, C_WARNING, C_SOURCE, C_CARET, C_TOKEN, C_N };

/* valid_sgr - 1 if @v (of length @n) is a Select Graphic Rendition
 * parameter list: digits and ';' only, not empty. */
static int valid_sgr(const char *v, size_t n)
{
	size_t i;
	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		if (!((v[i] >= '0' && v[i] <= '9') || v[i] == ';'))
			return 0;
	return 1;
}

int diag_set_colors(const char *spec)
{
	const char *p = spec, *e, *eq;
	const char *sgr[C_N] = {0};
	int i;

	if (!spec)
		spec = p = "error=01;31:warning=00;33:source=00;34:caret=01:"
			   "token=01";
	for (i = 0; i < C_N; i++)
		colors[i].sgr = NULL;
	if (!*p)
		return -1;
	for (; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		eq = memchr(p, '=', e - p);
		if (!eq)
			return -1;
		for (i = 0; i < C_N; i++)
			if (strlen(colors[i].key) == (size_t)(eq - p) &&
			    !strncmp(colors[i].key, p, eq - p))
				break;
		if (i == C_N || !valid_sgr(eq + 1, e - eq - 1))
			return -1;
		sgr[i] = xstrndup(eq + 1, e - eq - 1);
	}
	for (i = 0; i < C_N; i++)
		colors[i].sgr = sgr[i];
	return 0;
}

/* colored - append @text to @b in color @c (when colors are on; c < 0:
 * plain). */
static void colored(struct strbuf *b, int c, const char *text)
{
	if (c >= 0 && colors[c].sgr)
		strbuf_printf(b, "\033[%sm\033[K%s\033[m\033[K",
			      colors[c].sgr, text);
	else
		strbuf_add(b, text);
}

void diag_rewind(int n)
{
	n_errors = n;
}

static void diag(const char *what, const struct source_loc *loc,
		 const char *fmt, va_list ap)
{
	struct strbuf b = {0}, w = {0};
	if (diag_quiet)
		return;
	if (loc && loc->file)
		strbuf_printf(&b, "%s:%d:%d: ", loc->file, loc->line, loc->col);
	strbuf_printf(&w, "%s:", what);
	colored(&b, !strcmp(what, "warning") ? C_WARNING :
		!strcmp(what, "note") ? -1 : C_ERROR, strbuf_str(&w));
	free(w.s);
	strbuf_addc(&b, ' ');
	strbuf_vprintf(&b, fmt, ap);
	strbuf_addc(&b, '\n');
	if (loc && loc->file) {
		struct strbuf line = {0};
		if (source_line(loc->file, loc->line, &line)) {
			int i;
			strbuf_add(&b, "    ");
			colored(&b, C_SOURCE, strbuf_str(&line));
			strbuf_add(&b, "\n    ");
			/* keep tabs so the caret lines up under the column */
			for (i = 1; i < loc->col && i <= (int)line.len; i++)
				strbuf_addc(&b, line.s[i - 1] == '\t' ? '\t' : ' ');
			colored(&b, C_CARET, "^");
			strbuf_addc(&b, '\n');
		}
		free(line.s);
	}
	fputs(strbuf_str(&b), stderr);
	free(b.s);
}

/* warning_seen - 1 if the same warning or error was given at the same
 * place before (alias expansion copies a body once per alias), else
 * remember it and return 0. */
static struct vec warnings_given;
static int warning_seen(const struct source_loc *loc, const char *fmt,
			va_list ap)
{
	struct strbuf b = {0};
	int i;
	if (loc && loc->file)
		strbuf_printf(&b, "%s:%d:%d:", loc->file, loc->line, loc->col);
	strbuf_vprintf(&b, fmt, ap);
	for (i = 0; i < warnings_given.n; i++)
		if (!strcmp(warnings_given.items[i], b.s)) {
			free(b.s);
			return 1;
		}
	vec_push(&warnings_given, strbuf_detach(&b));
	return 0;
}

void diag_error(const struct source_loc *loc, const char *fmt, ...)
{
	va_list ap;
	if (!diag_quiet) {
		/* the same error at the same place (an alias body expanded
		 * several times) is given once */
		int seen;
		va_start(ap, fmt);
		seen = warning_seen(loc, fmt, ap);
		va_end(ap);
		if (seen)
			return;
	}
	va_start(ap, fmt);
	diag(diag_error_kind, loc, fmt, ap);
	va_end(ap);
	n_errors++;
}

void diag_reset(void)
{
	memset(&warnings_given, 0, sizeof(warnings_given));
	n_errors = n_warnings = 0;
}

void diag_warning(const struct source_loc *loc, const char *fmt, ...)
{
	va_list ap;
	int seen;
	if (diag_no_warnings || diag_quiet)
		return;
	va_start(ap, fmt);
	seen = warning_seen(loc, fmt, ap);
	va_end(ap);
	if (seen)
		return;
	va_start(ap, fmt);
	diag("warning", loc, fmt, ap);
	va_end(ap);
	if (!diag_quiet)
		n_warnings++;
}

void diag_note(const struct source_loc *loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag("note", loc, fmt, ap);
	va_end(ap);
}

int diag_warning_count(void)
{
	return n_warnings;
}

void diag_summary(const char *pass, const char *page)
{
	struct strbuf b = {0};
	if (!n_errors && diag_warnings_as_errors) {
		fprintf(stderr, "%s failed: %d warning%s, errors under -W  "
			"[man %s]\n", pass, n_warnings, n_warnings == 1 ? "" : "s",
			page);
		return;
	}
	strbuf_printf(&b, "%s failed: %d error%s", pass, n_errors,
		      n_errors == 1 ? "" : "s");
	if (n_warnings)
		strbuf_printf(&b, ", %d warning%s", n_warnings,
			      n_warnings == 1 ? "" : "s");
	fprintf(stderr, "%s  [man %s]\n", strbuf_str(&b), page);
	free(b.s);
}

int diag_error_count(void)
{
	return n_errors;
}

int diag_failed(void)
{
	return n_errors || (diag_warnings_as_errors && n_warnings);
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path), *q;
	int rc = 0;

	for (q = p + 1; ; q++) {
		if (*q == '/' || !*q) {
			char c = *q;

			*q = '\0';
			if (mkdir(p, 0755) != 0 && errno != EEXIST)
				rc = -1;
			*q = c;
			if (!c)
				break;
		}
	}
	free(p);
	return rc;
}

char *cache_dir(void)
{
	const char *base = getenv("SYSTEMTAP_DIR");
	char *dir;

	if (base && *base)
		dir = xasprintf("%s/cache", base);
	else {
		const char *home = getenv("HOME");

		dir = xasprintf("%s/.systemtap/cache",
				home && *home ? home : "/tmp");
	}
	if (mkdir_p(dir) != 0) {
		fprintf(stderr, "stap: cannot create the cache directory %s: %s\n",
			dir, strerror(errno));
		free(dir);
		return NULL;
	}
	/* the cache is its user's alone: what is in it gets loaded into the
	 * kernel, and its recorded build commands get run */
	{
		struct stat st;
		if (stat(dir, &st) == 0 && st.st_uid == geteuid() &&
		    (st.st_mode & 077) && chmod(dir, 0700) != 0 && stp_verbose)
			fprintf(stderr, "stap: cannot make %s private: %s\n",
				dir, strerror(errno));
	}
	return dir;
}

void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	while (d && (de = readdir(d)) != NULL) {
		struct stat st;
		char *x;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		x = xasprintf("%s/%s", path, de->d_name);
		if (lstat(x, &st) == 0 && S_ISDIR(st.st_mode))
			remove_tree(x);
		else
			unlink(x);
		free(x);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

int copy_file_new(const char *src, const char *dst, mode_t mode)
{
	int in = open(src, O_RDONLY | O_CLOEXEC), out, rc = 0;
	char buf[1 << 16];
	ssize_t n;
	if (in < 0)
		return -1;
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
	if (out < 0) {
		close(in);
		return -1;
	}
	while (rc == 0 && (n = read(in, buf, sizeof(buf))) != 0) {
		char *b = buf;
		if (n < 0) {
			rc = errno == EINTR ? 0 : -1;
			continue;
		}
		while (rc == 0 && n > 0) {
			ssize_t w = write(out, b, n);
			if (w < 0 && errno != EINTR)
				rc = -1;
			else if (w > 0) {
				b += w;
				n -= w;
			}
		}
	}
	if (close(out) < 0)
		rc = -1;
	close(in);
	return rc;
}

int owned_private(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return -1;
	return st.st_uid == geteuid() && !(st.st_mode & 022) ? 1 : 0;
}

/* ---- progress lines ---- */

static struct {
	char *what;             /* NULL: no line open */
	double t0, last;        /* seconds: begun, last drawn */
	size_t width;           /* of the text drawn last */
} prog;

static double mono_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int progress_enabled(void)
{
	return isatty(2) && !diag_no_warnings;
}

static void progress_draw(const char *tail)
{
	char *line = xasprintf("stap: %s%s", prog.what, tail);
	size_t n = strlen(line);
	fprintf(stderr, "\r%s%*s", line, prog.width > n ? (int)(prog.width - n) : 0,
		"");
	fflush(stderr);
	prog.width = n;
	free(line);
}

void progress_begin(const char *fmt, ...)
{
	va_list ap;
	if (!progress_enabled())
		return;
	free(prog.what);
	va_start(ap, fmt);
	if (vasprintf(&prog.what, fmt, ap) < 0)
		prog.what = NULL;
	va_end(ap);
	if (!prog.what)
		return;
	prog.t0 = prog.last = mono_s();
	prog.width = 0;
	progress_draw("...");
}

void progress_update(double done, double total, const char *unit)
{
	double now;
	char *tail;
	if (!prog.what)
		return;
	now = mono_s();
	if (now - prog.last < 0.1)
		return;
	prog.last = now;
	if (unit && !strcmp(unit, "MB"))
		tail = total > 0 ? xasprintf(": %.1f of %.1f MB", done / 1e6,
					     total / 1e6)
				 : xasprintf(": %.1f MB", done / 1e6);
	else
		tail = xasprintf(": %.0f%%", total > 0 ? 100.0 * done / total : 0);
	progress_draw(tail);
	free(tail);
}

void progress_end(const char *failed)
{
	char *tail;
	if (!prog.what)
		return;
	tail = failed ? xasprintf(": %s", failed)
		      : xasprintf(": done in %.1f s", mono_s() - prog.t0);
	progress_draw(tail);
	fputc('\n', stderr);
	free(tail);
	free(prog.what);
	prog.what = NULL;
}
