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

/* walk_dir - call @fn for each file named *@ext under @dir (and its
 * wanted subdirectories), in name order */
static void walk_dir(const char *dir, int depth, const char *ext,
		     void (*fn)(void *arg, char *path), void *arg)
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
				walk_dir(path, depth + 1, ext, fn, arg);
			free(path);
		} else if (n > el && !strcmp(path + n - el, ext)) {
			fn(arg, path);          /* takes path */
		} else {
			free(path);
		}
		free(names.items[i]);
	}
	free(names.items);
}

struct load_arg {
	struct session *s;
	int macros;                  /* *.stpm: keep their macros */
};

/* load_file - parse the tapset file @path (a walk_dir callback) */
static void load_file(void *arg, char *path)
{
	struct load_arg *a = arg;
	char *text = read_file(path, NULL);
	int errs = diag_error_count(), quiet = diag_quiet;
	struct stapfile *f;
	diag_quiet = quiet || stp_verbose < 2;
	f = text ? parse_script(path, text, 1) : NULL;
	diag_quiet = quiet;
	if (f && a->macros) {
		preproc_keep_macros();
	} else if (f) {
		vec_push(&a->s->library, f);  /* keeps path */
	} else if (text) {
		vec_push(&a->s->broken_tapsets, path);
		vec_push(&a->s->broken_tapsets, text);
		if (stp_verbose)
			fprintf(stderr, "stap: tapset %s left out: it does not "
				"parse\n", path);
	}
	diag_rewind(errs);
	if (!text)
		free(path);
}

/* load_dir - parse the tapsets under @dir (and its wanted
 * subdirectories), in name order: the files named *@ext (".stp" scripts
 * or ".stpm" macro files, whose macros are kept for every later file). */
static void load_dir(struct session *s, const char *dir, int depth,
		     const char *ext)
{
	struct load_arg a = { s, ext[4] != 0 };
	walk_dir(dir, depth, ext, load_file, &a);
}

static void push_path(void *arg, char *path)
{
	vec_push(arg, path);
}

void tapset_files(struct session *s, struct vec *paths)
{
	static const char *const exts[] = { ".stpm", ".stp" };
	int e, i;
	for (e = 0; e < 2; e++) {
		walk_dir(s->tapset_dir, 0, exts[e], push_path, paths);
		for (i = 0; i < s->include_dirs.n; i++)
			walk_dir(s->include_dirs.items[i], 0, exts[e],
				 push_path, paths);
	}
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

static int macros_loaded;

/* forget_macros - util_on_reset: the library's macros are read again */
static void forget_macros(void)
{
	macros_loaded = 0;
	preproc_reset();
}

void load_tapset_macros(struct session *s)
{
	if (macros_loaded++)
		return;
	util_on_reset(forget_macros);
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
