/* tryrun.c - pass 4: kbuild's compiler checks without two processes each.
 *
 * kbuild's try-run (scripts/Makefile.compiler; scripts/Kbuild.include
 * before Linux 5.13) runs each of the top Makefile's some thirty compiler
 * checks in a shell that first runs mkdir for a directory of its own,
 * .tmp_PID, and on exit rm -rf of it: two processes more per check, some
 * 0.3 s of every kbuild run on a 2-core machine (bench/pass4).  When the
 * kernel's try-run is, word for word, the definition this replaces, make
 * is given the same definition without those two commands and a TMPOUT
 * that stap made once in the build directory (and removes with it):
 * the checks, their command text (stap-kbuild-cc keys on it) and their
 * answers are kbuild's own.  A try-run of any other shape is left alone.
 */
#include "tryrun.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* the definition replaced, blanks folded (tryrun_text) */
#define TRYRUN_KNOWN "try-run = $(shell set -e; TMP=$(TMPOUT)/tmp; " \
	"trap \"rm -rf $(TMPOUT)\" EXIT; mkdir -p $(TMPOUT); " \
	"if ($(1)) >/dev/null 2>&1; then echo \"$(2)\"; " \
	"else echo \"$(3)\"; fi)"
/* the same without mkdir and rm: make's command-line value wins over the
 * makefiles' */
#define TRYRUN_OURS "try-run=$(shell set -e; TMP=$(TMPOUT)/tmp; " \
	"if ($(1)) >/dev/null 2>&1; then echo \"$(2)\"; " \
	"else echo \"$(3)\"; fi)"
/* a directory of try-run's shape, .tmp_DIGITS, which stap-kbuild-cc
 * recognises as a check's */
#define TRYRUN_DIR ".tmp_1"

/* tryrun_text - the definition of try-run in the makefile text @mk, its
 * continuation lines joined and every run of blanks folded to one space
 * (heap), or NULL when @mk defines none. */
static char *tryrun_text(const char *mk)
{
	const char *p = mk;
	struct strbuf b = {0};
	int blank = 0;
	while ((p = strstr(p, "try-run")) && p != mk && p[-1] != '\n')
		p++;
	if (!p)
		return NULL;
	for (; *p && *p != '\n'; p++) {
		if (*p == '\\' && p[1] == '\n')
			p++;                    /* a continued line */
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			blank = 1;
			continue;
		}
		if (blank && b.len)
			strbuf_add(&b, " ");
		blank = 0;
		strbuf_printf(&b, "%c", *p);
	}
	return strbuf_detach(&b);
}

int kbuild_tryrun_vars(const char *build, const char *dir, struct vec *argv)
{
	static const char *const files[] = { "scripts/Makefile.compiler",
					     "scripts/Kbuild.include", NULL };
	char *def = NULL, *out;
	int i, ok;
	for (i = 0; files[i] && !def; i++) {
		char *path = xasprintf("%s/%s", build, files[i]);
		char *mk = read_file(path, NULL);
		free(path);
		def = mk ? tryrun_text(mk) : NULL;
		free(mk);
	}
	ok = def && !strcmp(def, TRYRUN_KNOWN);
	free(def);
	if (!ok)
		return 0;
	out = xasprintf("%s/" TRYRUN_DIR, dir);
	if (mkdir(out, 0755) != 0) {
		free(out);
		return 0;
	}
	vec_push(argv, xasprintf("TMPOUT=%s", out));
	vec_push(argv, xstrdup(TRYRUN_OURS));
	free(out);
	return 2;
}
