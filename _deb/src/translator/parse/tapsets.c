/* tapsets.c - pass 1 for the tapset library: parse every *.stp under the
 * tapset directory (and its subdirectories, e.g. linux/) and each -I
 * directory.  A tapset file that fails to parse is left out quietly (its
 * errors are shown with -vv); only a script that needs something from it
 * then fails, with an "unresolved" error naming what was missing, and
 * then the errors of the files that would have defined it
 * (tapset_explain_missing).  Pass 2 resolves only what the script uses.
 */
#include "tapsets.h"
#include "parse.h"
#include "preproc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* wanted_subdir - the subdirectories of a tapset directory that are
 * searched: linux/ and the one named after the architecture (x86_64/,
 * arm64/, ...) at the top; the architecture's one inside linux/. */
static int wanted_subdir(const char *name, int depth)
{
	static struct pp_config cfg;
	if (!cfg.arch)
		pp_config_defaults(&cfg);
	if (depth == 0 && !strcmp(name, "linux"))
		return 1;
	return depth <= 1 && !strcmp(name, cfg.arch);
}

/* load_dir - parse the tapsets under @dir (and its wanted
 * subdirectories), in name order: the files named *@ext (".stp" scripts
 * or ".stpm" macro files, whose macros are kept for every later file). */
static void load_dir(struct session *s, const char *dir, int depth,
		     const char *ext)
{
	size_t el = strlen(ext);
	DIR *d = opendir(dir);
	struct dirent *de;
	struct vec names = {0};
	int i;
	if (!d)
		return;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			vec_push(&names, xstrdup(de->d_name));
	closedir(d);
	if (names.n)
		qsort(names.items, names.n, sizeof(void *), cmp_str);
	for (i = 0; i < names.n; i++) {
		char *path = xasprintf("%s/%s", dir, (char *)names.items[i]);
		size_t n = strlen(path);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (wanted_subdir(names.items[i], depth))
				load_dir(s, path, depth + 1, ext);
		} else if (n > el && !strcmp(path + n - el, ext)) {
			char *text = read_file(path, NULL);
			int errs = diag_error_count(), quiet = diag_quiet;
			struct stapfile *f;
			diag_quiet = quiet || stp_verbose < 2;
			f = text ? parse_script(path, text, 1) : NULL;
			diag_quiet = quiet;
			if (f && ext[4]) {
				preproc_keep_macros();
			} else if (f) {
				vec_push(&s->library, f);  /* keeps path */
			} else if (text) {
				vec_push(&s->broken_tapsets, path);
				vec_push(&s->broken_tapsets, text);
				if (stp_verbose)
					fprintf(stderr, "stap: tapset %s left out: "
						"it does not parse\n", path);
			}
			diag_rewind(errs);
			if (text)
				path = NULL;
		}
		free(path);
		free(names.items[i]);
	}
	free(names.items);
}

int load_tapsets(struct session *s)
{
	int i;
	struct stat st;
	if (stat(s->tapset_dir, &st) != 0) {
		fprintf(stderr, "stap: the tapset directory %s is missing: %s\n",
			s->tapset_dir, strerror(errno));
		return -1;
	}
	load_dir(s, s->tapset_dir, 0, ".stp");
	for (i = 0; i < s->include_dirs.n; i++)
		load_dir(s, s->include_dirs.items[i], 0, ".stp");
	return 0;
}

void load_tapset_macros(struct session *s)
{
	static int loaded;
	if (loaded++)
		return;
	load_dir(s, s->tapset_dir, 0, ".stpm");
	for (int i = 0; i < s->include_dirs.n; i++)
		load_dir(s, s->include_dirs.items[i], 0, ".stpm");
}

/* defines_name - does @text seem to define @what @name (e.g. "function
 * foo" or "probe a.b")?  A textual check: the keyword, blanks, then the
 * name followed by a character that cannot continue it. */
static int defines_name(const char *text, const char *what, const char *name)
{
	size_t lw = strlen(what), ln = strlen(name);
	const char *p = text;
	while ((p = strstr(p, what)) != NULL) {
		const char *q = p + lw;
		int start = p == text || !(isalnum((unsigned char)p[-1]) ||
					    p[-1] == '_');
		p = q;
		if (!start || !isspace((unsigned char)*q))
			continue;
		while (isspace((unsigned char)*q))
			q++;
		if (strncmp(q, name, ln) == 0 &&
		    !(isalnum((unsigned char)q[ln]) || q[ln] == '_' ||
		      q[ln] == '.'))
			return 1;
	}
	return 0;
}

/* explain_guru_only - without -g, a note for each loaded tapset file
 * that seems to define @what @name in a part it reads only in guru mode
 * (the file tests guru_mode).  Returns the number of notes. */
static int explain_guru_only(struct session *s, const char *what,
			     const char *name)
{
	int i, n = 0;
	if (s->guru)
		return 0;
	for (i = 0; i < s->library.n; i++) {
		const struct stapfile *f = s->library.items[i];
		char *text = read_file(f->name, NULL);
		if (text && strstr(text, "guru_mode") &&
		    defines_name(text, what, name)) {
			diag_note(NULL, "tapset %s defines %s '%s' in guru "
				  "mode (-g) only", f->name, what, name);
			n++;
		}
		free(text);
	}
	return n;
}

int tapset_explain_missing(struct session *s, const char *what,
			   const char *name)
{
	int i, n = explain_guru_only(s, what, name);
	for (i = 0; i + 1 < s->broken_tapsets.n; i += 2) {
		const char *path = s->broken_tapsets.items[i];
		const char *text = s->broken_tapsets.items[i + 1];
		int errs = diag_error_count();
		if (!defines_name(text, what, name))
			continue;
		diag_note(NULL, "tapset %s would define %s '%s', but it does "
			  "not parse:", path, what, name);
		parse_script(path, text, 1);
		diag_rewind(errs);
		n++;
	}
	return n;
}
