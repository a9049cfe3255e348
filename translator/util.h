/* util.h - small helpers shared by every translator pass: checked
 * allocation, growable vectors and string buffers, diagnostics.
 *
 * None of these functions are thread-safe; the translator is
 * single-threaded.  Allocation failure aborts the process with a message
 * (the translator cannot continue without memory).
 */
#ifndef STP_UTIL_H
#define STP_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>
#include <stdio.h>

/* xmalloc/xcalloc/xrealloc/xstrdup/xstrndup: like libc, never return NULL. */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* xasprintf: printf into a new heap string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* read_stream - the rest of @f as a heap string (NUL-terminated; *len, if
 * not NULL, gets its length).  read_file - the same for the file at
 * @path; NULL (errno set) when it cannot be opened. */
char *read_stream(FILE *f, size_t *len);
char *read_file(const char *path, size_t *len);

/* vec: a growable array of pointers.  Zero-initialise before use. */
struct vec {
	void **items;
	int n, cap;
};
/* vec_push: append p; returns its index. */
int vec_push(struct vec *v, void *p);

/* strbuf: a growable NUL-terminated string.  Zero-initialise before use;
 * s is NULL until something is appended (strbuf_str never returns NULL). */
struct strbuf {
	char *s;
	size_t len, cap;
};
void strbuf_add(struct strbuf *b, const char *s);
void strbuf_addn(struct strbuf *b, const char *s, size_t n);
void strbuf_addc(struct strbuf *b, char c);
void strbuf_printf(struct strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vprintf(struct strbuf *b, const char *fmt, va_list ap);
const char *strbuf_str(const struct strbuf *b);
/* strbuf_detach: hand over the heap string (never NULL) and reset b. */
char *strbuf_detach(struct strbuf *b);

/* A position in a script or tapset file.  line and col are 1-based; col
 * counts bytes.  file is never freed (interned for the whole run). */
struct source_loc {
	const char *file;
	int line, col;
};

/* Source text registry so that diagnostics can quote the offending line.
 * source_register: remember the text of a file (the pointer is kept, not
 * copied).  source_line: the text of line 'line' of 'file' (without its
 * newline) into out; returns 0 if unknown. */
void source_register(const char *file, const char *text);
int source_line(const char *file, int line, struct strbuf *out);

/* Diagnostics on stderr.  diag_error prints
 *   FILE:LINE:COL: error: MESSAGE
 *       source line
 *       ^
 * and counts the error; diag_warning likewise with "warning".
 * diag_error_count: errors so far (a pass fails when it is non-zero). */
void diag_error(const struct source_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void diag_warning(const struct source_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int diag_error_count(void);
/* diag_error_kind - the word(s) diag_error prints for the kind of the
 * error: "parse error" in pass 1, "semantic error" in pass 2 ("error"
 * otherwise).  Set by the passes. */
extern const char *diag_error_kind;
/* diag_note - an extra line ("note: ...") after an error, e.g. the other
 * place of a conflict; not counted.  loc may be NULL. */
void diag_note(const struct source_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* diag_no_warnings - when nonzero (stap -w), diag_warning prints nothing
 * and counts nothing. */
extern int diag_no_warnings;
/* diag_warnings_as_errors - when nonzero (stap -W), a pass that gave a
 * warning fails (see diag_failed); warnings still print as warnings. */
extern int diag_warnings_as_errors;
/* diag_failed - 1 if an error was counted, or a warning under -W. */
int diag_failed(void);
/* diag_set_colors - color the diagnostics (stap --color): @spec is
 * SYSTEMTAP_COLORS' syntax, "KEY=SGR:KEY=SGR..." with keys error,
 * warning, source, caret, token and SGR digits and ';'; NULL gives the
 * default colors.  Returns 0, or -1 (colors off) when @spec is empty or
 * invalid.  Keys not given stay plain. */
int diag_set_colors(const char *spec);
/* diag_reset - forget the errors and warnings counted and the warnings
 * given (the fuzz harness runs many scripts in one process). */
void diag_reset(void);
/* diag_warning_count - warnings printed so far (a warning repeated at
 * the same place is printed and counted once). */
int diag_warning_count(void);
/* diag_summary - print the one-line summary of a failed pass on stderr:
 * "PASS failed: N errors[, M warnings]  [man PAGE]" (PASS e.g. "Pass 1
 * (parse)", PAGE the error page that explains it, e.g. "error::pass1";
 * see man/error/). */
void diag_summary(const char *pass, const char *page);
/* diag_quiet - while nonzero, diagnostics are counted but not printed
 * (used for tapset files, whose errors matter only if they are used).
 * diag_rewind - forget errors counted after the count was @n. */
extern int diag_quiet;
void diag_rewind(int n);

/* Allocation tracking, compiled in only with -DSTP_FUZZ (the fuzz target
 * runs passes 1-2 many times in one process; the translator never frees
 * its tree, so the harness frees everything allocated during one input).
 * util_track(1): from now on remember every x*alloc'd block.
 * util_free_tracked(): free every remembered block still live, then stop
 * tracking.  free() is redirected to stp_free so that blocks the
 * translator frees itself leave the set. */
#ifdef STP_FUZZ
void util_track(int on);
void util_free_tracked(void);
void stp_free(void *p);
#define free(p) stp_free(p)
#endif

/* source_reset - forget every registered source text. */
void source_reset(void);

/* Caches that live as long as the process (opened debuginfo, symbol
 * tables, the tapsets' macros...) hold what one run of the translator
 * found.  A cache registers how to forget it with util_on_reset(@fn) when
 * it is first filled (registering the same @fn again is a no-op; at most
 * 64 of them).  util_reset_caches() calls every registered @fn, latest
 * first, and forgets them: each drops its pointers and releases what is
 * not x*alloc'd memory (libdw handles, sqlite connections).  The fuzz
 * harness calls it between inputs, before it frees the input's blocks;
 * stap itself never needs to. */
void util_on_reset(void (*fn)(void));
void util_reset_caches(void);

/* verbose level of the stap driver (-v count), read by every pass. */
extern int stp_verbose;

/* copy_file_new - copy the file @src to @dst, a new file (O_EXCL) of
 * @mode, reading and writing 64 KB at a time.  Returns 0, or -1 with
 * errno set (a partial @dst may be left for the caller to remove). */
int copy_file_new(const char *src, const char *dst, mode_t mode);
/* remove_tree - remove @path and everything below it (symbolic links
 * themselves, not what they point to); errors are ignored. */
void remove_tree(const char *path);
/* mkdir_p - create directory @path and its missing parents (mode 0755).
 * Returns 0, or -1 (errno set) when one of them cannot be created. */
int mkdir_p(const char *path);

/* cache_dir - the cache directory ($SYSTEMTAP_DIR/cache, else
 * $HOME/.systemtap/cache), created when missing.  Returns a malloc'd
 * path, or NULL with a message when it cannot be created. */
char *cache_dir(void);

/* owned_private - 1 if @path is owned by the effective user and neither
 * its group nor others may write it, 0 if not, -1 if it cannot be
 * stat()ed.  What the cache keeps is used only when this holds for it
 * and its directory. */
int owned_private(const char *path);

/* Progress lines on stderr for long work (a download, a first DWARF
 * index), printed only when stderr is a terminal and -w was not given.
 * progress_begin - start the line "stap: WHAT" (printf format).
 * progress_update - show @done of @total (@unit "MB": both in bytes,
 *   shown in MB; else a percentage), at most 10 times a second.
 * progress_end - finish the line with "done in N s", or @failed's text.
 * One line at a time; none of them may be called from a signal handler. */
int progress_enabled(void);
void progress_begin(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_update(double done, double total, const char *unit);
void progress_end(const char *failed);

#endif
