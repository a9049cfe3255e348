/* modnames.c - the kernel modules whose name matches a wildcard, for
 * module("PATTERN").function(...) (see debuginfo.h). */
#include "debuginfo.h"
#include "util.h"

#include <fnmatch.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>

static const char *want;      /* the pattern, during one nftw */
static struct vec *names_out;

/* modname - the module name of file @base ("nf-foo.ko[.xz]"): its
 * name up to ".ko", with '_' for '-'; NULL for other files */
static char *modname(const char *base)
{
	const char *ko = strstr(base, ".ko");
	char *n, *c;
	if (!ko || (ko[3] && ko[3] != '.'))
		return NULL;
	n = xstrndup(base, ko - base);
	for (c = n; *c; c++)
		if (*c == '-')
			*c = '_';
	return n;
}

static int one_file(const char *path, const struct stat *st, int flag,
		    struct FTW *f)
{
	char *n;
	(void)st;
	if (flag != FTW_F || !(n = modname(path + f->base)))
		return 0;
	for (int i = 0; i < names_out->n; i++)
		if (!strcmp(names_out->items[i], n)) {
			free(n);
			return 0;
		}
	if (fnmatch(want, n, 0) == 0)
		vec_push(names_out, n);
	else
		free(n);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int dbg_module_names(struct session *s, const char *pattern, struct vec *out)
{
	static const char *const trees[] = { "/lib/modules/%s/kernel",
		"/usr/lib/debug/lib/modules/%s/kernel" };
	const char *root = s->sysroot && *s->sysroot ? s->sysroot : "";
	char *pat = xstrdup(pattern), *c;
	int start = out->n;
	for (c = pat; *c; c++)
		if (*c == '-')
			*c = '_';
	want = pat;
	names_out = out;
	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		char *rel = xasprintf(trees[i], s->kernel_release);
		char *dir = xasprintf("%s%s", root, rel);
		nftw(dir, one_file, 16, FTW_PHYS);
		free(rel);
		free(dir);
	}
	free(pat);
	if (out->n - start > 1)
		qsort(out->items + start, out->n - start, sizeof(void *),
		      cmp_names);
	return out->n - start;
}
