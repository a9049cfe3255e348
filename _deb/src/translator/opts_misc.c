/* opts_misc.c - stap options with SystemTap's meanings:
 *   -W                    warnings are errors: a pass that warns fails
 *   -E SCRIPT             another script, in addition to FILE or -e
 *   -q                    record tapset coverage (coverage.c)
 *   --color[=WHEN], -C WHEN   color the diagnostics: always, auto (when
 *                         stderr is a terminal), never; colors from
 *                         SYSTEMTAP_COLORS; always/never also staprun's
 *                         (-C WHEN: the module's errors and warnings)
 *   --dump-probe-types, --dump-probe-aliases, --dump-functions
 *   --example NAME        run the example script NAME
 *   --target-namespaces=PID   the ns_*() tapset functions see the pid and
 *                         user namespaces of PID (staprun -N PID)
 *   -i, --interactive     build and run a script at a prompt (interactive.c)
 */
#include "opts_misc.h"
#include "opts_unsupported.h"
#include "elaborate/elaborate.h"
#include "parse/parse.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/systemtap"
#endif
/* where SystemTap's own example scripts are installed on Debian */
#define SYSTEMTAP_EXAMPLES "/usr/share/doc/systemtap/examples"

enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };
static int color_mode = COLOR_AUTO;

/* color_when - the COLOR_* of "always", "auto" or "never"; -1 after an
 * error naming @opt. */
static int color_when(const char *opt, const char *when)
{
	if (!strcmp(when, "always"))
		return COLOR_ALWAYS;
	if (!strcmp(when, "auto"))
		return COLOR_AUTO;
	if (!strcmp(when, "never"))
		return COLOR_NEVER;
	fprintf(stderr, "stap: %s takes always, auto or never, not '%s'\n",
		opt, when);
	return -1;
}

int opts_misc(struct session *s, int c, const char *arg)
{
	switch (c) {
	case 'W':
		diag_warnings_as_errors = 1;
		return 1;
	case 'E':
		vec_push(&s->extra_scripts, (char *)arg);
		return 1;
	case 'q':
		s->coverage = 1;
		return 1;
	case 'i':
		s->interactive = 1;
		return 1;
	case 'C':
	case OPT_X_COLOR:
		/* --color alone: always (SystemTap) */
		color_mode = color_when(c == 'C' ? "-C" : "--color",
					arg ? arg : "always");
		return color_mode < 0 ? -1 : 1;
	case OPT_X_DUMP_PROBE_TYPES:
	case OPT_X_DUMP_PROBE_ALIASES:
	case OPT_X_DUMP_FUNCTIONS:
		if (s->dump_mode && s->dump_mode != c) {
			fprintf(stderr, "stap: only one --dump-* option at "
				"a time\n");
			return -1;
		}
		s->dump_mode = c;
		return 1;
	case OPT_X_EXAMPLE:
		s->example = arg;
		return 1;
	case OPT_X_TARGET_NAMESPACES:
		if (strspn(arg, "0123456789") != strlen(arg) ||
		    strlen(arg) > 9 || atoi(arg) <= 0) {
			fprintf(stderr, "stap: --target-namespaces takes a "
				"process id, not '%s'\n", arg);
			return -1;
		}
		vec_push(&s->staprun_opts, xstrdup("-N"));
		vec_push(&s->staprun_opts, xasprintf("%d", atoi(arg)));
		return 1;
	}
	return 0;
}

/* ---- --example NAME ---- */

static const char *example_want;   /* the name looked for */
static struct vec example_found;   /* char *: the paths matching it */

/* example_match - nftw callback: remember a regular file whose path ends
 * in "/NAME" or "/NAME.stp". */
static int example_match(const char *path, const struct stat *st, int flag,
			 struct FTW *ftw)
{
	size_t n = strlen(path), w = strlen(example_want);
	(void)st;
	(void)ftw;
	if (flag != FTW_F)
		return 0;
	if ((n > w && path[n - w - 1] == '/' &&
	     !strcmp(path + n - w, example_want)) ||
	    (n > w + 4 && path[n - w - 5] == '/' &&
	     !strncmp(path + n - w - 4, example_want, w) &&
	     !strcmp(path + n - 4, ".stp")))
		vec_push(&example_found, xstrdup(path));
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *opts_find_example(const char *name)
{
	const char *dirs[] = { PKGDATADIR "/examples", SYSTEMTAP_EXAMPLES };
	size_t d;
	int i;
	struct strbuf b = {0};

	example_want = name;
	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		if (!*name || strstr(name, ".."))
			break;
		example_found.n = 0;
		nftw(dirs[d], example_match, 16, FTW_PHYS);
		if (example_found.n == 1)
			return example_found.items[0];
		if (example_found.n > 1) {
			qsort(example_found.items, example_found.n,
			      sizeof(char *), cmp_path);
			for (i = 0; i < example_found.n; i++)
				strbuf_printf(&b, "%s%s", i ? ", " : "",
					      (char *)example_found.items[i]);
			fprintf(stderr, "stap: --example %s: several examples "
				"of that name: %s\n", name, strbuf_str(&b));
			return NULL;
		}
	}
	fprintf(stderr, "stap: --example %s: no example script of that name "
		"in %s or %s\n", name, dirs[0], dirs[1]);
	return NULL;
}

int opts_misc_finish(struct session *s, int nwords)
{
	const char *term = getenv("TERM");

	if (color_mode == COLOR_ALWAYS ||
	    (color_mode == COLOR_AUTO && isatty(2) && term &&
	     strcmp(term, "dumb")))
		diag_set_colors(getenv("SYSTEMTAP_COLORS"));
	if (color_mode != COLOR_AUTO) {  /* auto: staprun decides the same */
		vec_push(&s->staprun_opts, xstrdup("-C"));
		vec_push(&s->staprun_opts, xstrdup(color_mode == COLOR_ALWAYS ?
						   "always" : "never"));
	}
	if (s->dump_mode && (s->script_text || s->example || nwords ||
			     s->list_pattern)) {
		fprintf(stderr, "stap: --dump-* takes no script, -l or -L\n");
		return -1;
	}
	if (s->interactive && (s->script_text || s->example || nwords ||
				s->list_pattern || s->dump_mode)) {
		fprintf(stderr, "stap: -i takes no script, -l, -L or --dump-* "
			"(load FILE at its prompt)\n");
		return -1;
	}
	if (s->interactive) {
		s->script_file = "<interactive>";
		s->script_text = "";
	}
	if (s->dump_mode) {
		s->script_file = "<dump>";
		s->script_text = "";
	}
	if (s->example) {
		char *path;
		if (s->script_text) {
			fprintf(stderr, "stap: --example %s and -e: give one "
				"script\n", s->example);
			return -1;
		}
		path = opts_find_example(s->example);
		if (!path)
			return -1;
		s->script_file = path;
		s->script_text = read_file(path, NULL);
		if (!s->script_text) {
			fprintf(stderr, "stap: cannot open script %s: %s\n",
				path, strerror(errno));
			return -1;
		}
	}
	if (!s->script_text && s->extra_scripts.n && !nwords) {
		/* -E alone is the script */
		s->script_file = "<input>";
		s->script_text = "";
	}
	return 0;
}

int opts_misc_parse_extra(struct session *s)
{
	int i, j;
	for (i = 0; i < s->extra_scripts.n; i++) {
		char *name = xasprintf("<input%d>", i + 1);
		struct stapfile *f = parse_script(name,
						  s->extra_scripts.items[i], 0);
		struct stapfile *u = s->user;
		if (!f)
			return -1;
		/* one script, as if its text were the main script's */
		for (j = 0; j < f->globals.n; j++)
			vec_push(&u->globals, f->globals.items[j]);
		for (j = 0; j < f->functions.n; j++)
			vec_push(&u->functions, f->functions.items[j]);
		for (j = 0; j < f->probes.n; j++)
			vec_push(&u->probes, f->probes.items[j]);
		for (j = 0; j < f->aliases.n; j++)
			vec_push(&u->aliases, f->aliases.items[j]);
		for (j = 0; j < f->embeds.n; j++) {
			vec_push(&u->embeds, f->embeds.items[j]);
			vec_push(&u->embed_locs, f->embed_locs.items[j]);
		}
	}
	return 0;
}

int opts_misc_dump(struct session *s)
{
	struct strbuf out = {0};
	int rc;

	if (!s->dump_mode)
		return -1;
	if (s->dump_mode == OPT_X_DUMP_PROBE_TYPES)
		rc = dump_probe_types(s, &out);
	else if (load_tapsets(s) < 0)
		rc = -1;
	else if (s->dump_mode == OPT_X_DUMP_PROBE_ALIASES)
		rc = dump_probe_aliases(s, &out);
	else
		rc = dump_functions(s, &out);
	fwrite(strbuf_str(&out), 1, out.len, stdout);
	fflush(stdout);
	free(out.s);
	return rc < 0 ? 1 : 0;
}
