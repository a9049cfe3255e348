/* util.c - allocation, vectors, string buffers and diagnostics. */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int stp_verbose;

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
	return p;
}

void *xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);
	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
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

static int n_errors;
int diag_quiet;

void diag_rewind(int n)
{
	n_errors = n;
}

static void diag(const char *what, const struct source_loc *loc,
		 const char *fmt, va_list ap)
{
	struct strbuf b = {0};
	if (diag_quiet)
		return;
	if (loc && loc->file)
		strbuf_printf(&b, "%s:%d:%d: ", loc->file, loc->line, loc->col);
	strbuf_printf(&b, "%s: ", what);
	strbuf_vprintf(&b, fmt, ap);
	strbuf_addc(&b, '\n');
	if (loc && loc->file) {
		struct strbuf line = {0};
		if (source_line(loc->file, loc->line, &line)) {
			int i;
			strbuf_printf(&b, "    %s\n    ", strbuf_str(&line));
			/* keep tabs so the caret lines up under the column */
			for (i = 1; i < loc->col && i <= (int)line.len; i++)
				strbuf_addc(&b, line.s[i - 1] == '\t' ? '\t' : ' ');
			strbuf_add(&b, "^\n");
		}
		free(line.s);
	}
	fputs(strbuf_str(&b), stderr);
	free(b.s);
}

void diag_error(const struct source_loc *loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag("error", loc, fmt, ap);
	va_end(ap);
	n_errors++;
}

void diag_warning(const struct source_loc *loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag("warning", loc, fmt, ap);
	va_end(ap);
}

int diag_error_count(void)
{
	return n_errors;
}
