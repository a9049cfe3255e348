/* kbuild.c - pass 4: the module is a kbuild composite object
 *
 *   obj-m    := NAME.o
 *   NAME-y   := runtime/stp_runtime_unit1.o ... gen/script.o
 *
 * (the runtime units include every runtime .c, see runtime_units)
 *
 * built in the run's temporary directory against the target kernel's
 * build tree.  The generated code and the runtime live in subdirectories
 * so that no module name can collide with one of their object names.
 */
#include "kbuild.h"
#include "fastbuild.h"
#include "kcaps.h"
#include "syscache.h"
#include "tryrun.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

char *kbuild_dir_for(const char *release)
{
	struct stat st;
	if (strchr(release, '/') && stat(release, &st) == 0 &&
	    S_ISDIR(st.st_mode))
		return xstrdup(release);
	return xasprintf("/lib/modules/%s/build", release);
}

static int write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len) {
		fprintf(stderr, "stap: cannot write %s: %s\n", path,
			strerror(errno));
		if (f)
			fclose(f);
		return -1;
	}
	return fclose(f) == 0 ? 0 : -1;
}

char *kbuild_release_of(const char *build_dir)
{
	char *p = xasprintf("%s/include/config/kernel.release", build_dir);
	char *r = read_file(p, NULL);
	free(p);
	if (r)
		r[strcspn(r, "\n")] = '\0';
	return r;
}

/* bufsize_define - "-DSTP_RELAY_BUFSIZE=..." for stap -s MB (the relay
 * buffer per CPU; transport.c's default), or NULL without -s. */
static char *bufsize_define(struct session *s)
{
	int i;
	for (i = 0; i + 1 < s->staprun_opts.n; i++)
		if (!strcmp(s->staprun_opts.items[i], "-s")) {
			long mb = strtol(s->staprun_opts.items[i + 1], NULL, 10);
			if (mb < 1)
				mb = 1;
			if (mb > 4095)
				mb = 4095;
			return xasprintf("-DSTP_RELAY_BUFSIZE=(%ldU*1024*1024)", mb);
		}
	return NULL;
}

/* ---- the per-kernel runtime object cache ----
 *
 * The runtime's objects depend only on the kernel build tree, the
 * runtime sources, the -D macros, the -B make variables and the compiler
 * (kbuild_compiler_id), so they are compiled once and kept
 * in CACHE/runtime/KVER-HASH/ (CACHE: $SYSTEMTAP_DIR/cache, else
 * ~/.systemtap/cache).  A build with a warm cache gets them as kbuild
 * "_shipped" files (runtime/NAME.o_shipped is copied to runtime/NAME.o
 * instead of compiling runtime/NAME.c), so only the script's own C is
 * compiled.  The objects carry no module name: the runtime uses no
 * KBUILD_MODNAME-dependent macros. */

struct rt_file {
	char *name;                  /* "map.c" */
	char *data;
	size_t len;
	int unit;                    /* compiled: one of the runtime's
	                              * translation units (runtime_units) */
	int kcaps;                   /* the kernel probes' sources (kcaps.h):
	                              * used by a cold cache's kbuild run */
	int reads_kcaps;             /* a unit that waits for the probes'
	                              * answers (runtime_units) */
};

static int rt_file_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rt_file *)a)->name,
		      ((const struct rt_file *)b)->name);
}

static void fnv(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *c = p;
	while (n--) {
		*h ^= *c++;
		*h *= 0x100000001b3ULL;
	}
}

/* mentions - whether @text has the identifier of the @len bytes at @w. */
static int mentions(const char *text, const char *w, size_t len)
{
	const char *p, *end = text + strlen(text);
	for (p = text; (p = memmem(p, end - p, w, len)) != NULL; p += len) {
		int c = p == text ? ' ' : p[-1], d = p[len];
		if (!isalnum(c) && c != '_' && !isalnum(d) && d != '_')
			return 1;
	}
	return 0;
}

/* reads_kcaps - whether runtime file @i of @v[0..@n) uses one of the
 * space-separated macros @poison (kcaps_sources'), itself or through a
 * runtime header it includes; stp_runtime.h's include of stp_kcaps.h does
 * not count (it is left out where STP_KCAPS_UNUSED is defined).
 * @state[i]: 0 not known, 1 being looked at, 2 no, 3 yes. */
static int reads_kcaps(struct rt_file *v, int n, int i, const char *poison,
		       char *state)
{
	const char *p, *w;
	int j;
	if (state[i])
		return state[i] == 3;
	state[i] = 1;
	for (w = poison; *w; w += strcspn(w, " ")) {
		size_t l;
		w += strspn(w, " ");
		l = strcspn(w, " ");
		if (l && mentions(v[i].data, w, l)) {
			state[i] = 3;
			return 1;
		}
	}
	for (p = v[i].data; (p = strstr(p, "#include \"")) != NULL;) {
		size_t l;
		p += strlen("#include \"");
		l = strcspn(p, "\"\n");
		if (!strcmp(v[i].name, "stp_runtime.h") &&
		    l == strlen("stp_kcaps.h") && !strncmp(p, "stp_kcaps.h", l))
			continue;
		for (j = 0; j < n; j++)
			if (strlen(v[j].name) == l && !strncmp(v[j].name, p, l) &&
			    reads_kcaps(v, n, j, poison, state)) {
				state[i] = 3;
				return 1;
			}
	}
	state[i] = 2;
	return 0;
}

/* runtime_units - append to the @n files of *@files the runtime's
 * translation units, RUNTIME_UNITS of them, which include every runtime
 * .c between them: few compiler runs instead of one per file (each with
 * its kbuild recipe: fixdep, objtool...) make the first build for a
 * kernel about twice as fast, and two of them compile in parallel (make
 * -j2).  Given the kernel probes' macros @poison (kcaps_sources'; NULL:
 * none), the first unit has the files that use none of them (reads_kcaps),
 * with those names poisoned so that a use is an error, never a silent
 * "not offered": it compiles on one CPU while the probes run on the
 * other, and the second unit, the rest, after them.  Otherwise the files
 * are balanced by size.  Returns the new count. */
#define RUNTIME_UNITS 2
#define RUNTIME_UNIT "stp_runtime_unit%d.c"
static int runtime_units(struct rt_file **files, int n, const char *poison)
{
	struct rt_file *v = *files;
	struct strbuf b[RUNTIME_UNITS] = {{0}};
	size_t load[RUNTIME_UNITS] = {0};
	char *done = xcalloc(n + 1, 1), *state = xcalloc(n + 1, 1);
	int i, k, split, nfree = 0, nc = 0;
	for (i = 0; i < n; i++) {
		v[i].unit = 0;
		if (v[i].name[strlen(v[i].name) - 1] != 'c')
			continue;
		nc++;
		nfree += poison && !reads_kcaps(v, n, i, poison, state);
	}
	split = nfree > 0 && nfree < nc;
	for (k = 0; k < RUNTIME_UNITS; k++)
		strbuf_add(&b[k], "/* Generated by stap: a part of the runtime "
			   "compiled as one translation unit. */\n");
	if (split)
		strbuf_printf(&b[0], "#define STP_KCAPS_UNUSED 1\n"
			      "#pragma GCC poison%s\n", poison);
	/* the largest file not placed yet to its unit: split, by
	 * reads_kcaps; else the least loaded (ties: the first by name).
	 * The order within a unit is by name. */
	for (;;) {
		int best = -1, u = 0;
		for (i = 0; i < n; i++) {
			size_t l = strlen(v[i].name);
			if (done[i] || v[i].name[l - 1] != 'c')
				continue;
			if (best < 0 || v[i].len > v[best].len)
				best = i;
		}
		if (best < 0)
			break;
		for (k = 1; k < RUNTIME_UNITS; k++)
			if (load[k] < load[u])
				u = k;
		if (split)
			u = state[best] == 3;
		load[u] += v[best].len;
		done[best] = 2 + u;
	}
	for (i = 0; i < n; i++)
		if (done[i] >= 2)
			strbuf_printf(&b[done[i] - 2], "#include \"%s\"\n",
				      v[i].name);
	free(done);
	free(state);
	v = xrealloc(v, (n + RUNTIME_UNITS) * sizeof(*v));
	for (k = 0; k < RUNTIME_UNITS; k++) {
		v[n + k].name = xasprintf(RUNTIME_UNIT, k + 1);
		v[n + k].len = b[k].len;
		v[n + k].data = strbuf_detach(&b[k]);
		v[n + k].unit = 1;
		v[n + k].kcaps = 0;
		v[n + k].reads_kcaps = !split || k > 0;
	}
	*files = v;
	return n + RUNTIME_UNITS;
}

/* add_kcaps - append to the @n files of *@files the kernel probes'
 * sources @probes and @awk (kcaps_sources', heap: now the files').
 * Returns the new count. */
static int add_kcaps(struct rt_file **files, int n, char *probes, char *awk)
{
	struct rt_file *v = xrealloc(*files, (n + 2) * sizeof(*v));
	memset(&v[n], 0, 2 * sizeof(*v));
	v[n].name = xstrdup(KCAPS_PROBES);
	v[n].data = probes;
	v[n].len = strlen(probes);
	v[n].kcaps = 1;
	v[n + 1].name = xstrdup(KCAPS_AWK);
	v[n + 1].data = awk;
	v[n + 1].len = strlen(awk);
	v[n + 1].kcaps = 1;
	*files = v;
	return n + 2;
}

/* read_runtime - every .c and .h of the runtime, sorted by name, then the
 * units (runtime_units) and the kernel probes' sources (add_kcaps) into
 * *files, their rule into *@kcaps_rule; returns the count or -1. */
static int read_runtime(struct session *s, struct rt_file **files,
			char **kcaps_rule)
{
	DIR *d = opendir(s->runtime_dir);
	struct dirent *de;
	struct rt_file *v = NULL;
	char *probes, *awk, *poison;
	int n = 0, k;
	if (!d) {
		fprintf(stderr, "stap: cannot open the runtime directory %s: %s\n",
			s->runtime_dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);
		char *src;
		if (l < 3 || de->d_name[0] == '.' ||
		    (strcmp(de->d_name + l - 2, ".c") &&
		     strcmp(de->d_name + l - 2, ".h")))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		memset(&v[n], 0, sizeof(*v));
		v[n].name = xstrdup(de->d_name);
		src = xasprintf("%s/%s", s->runtime_dir, de->d_name);
		v[n].data = read_file(src, &v[n].len);
		if (!v[n].data) {
			fprintf(stderr, "stap: cannot read %s: %s\n", src,
				strerror(errno));
			free(src);
			closedir(d);
			return -1;
		}
		free(src);
		n++;
	}
	closedir(d);
	qsort(v, n, sizeof(*v), rt_file_cmp);
	*files = v;
	k = kcaps_sources(s->runtime_dir, &probes, &awk, kcaps_rule, &poison);
	if (k < 0)
		return -1;
	if (k == 0)
		*kcaps_rule = poison = NULL;
	n = runtime_units(files, n, poison);
	free(poison);
	return k ? add_kcaps(files, n, probes, awk) : n;
}

/* on_path - the file @name resolves to on $PATH (heap), or NULL. */
static char *on_path(const char *name)
{
	const char *path = getenv("PATH"), *p;
	if (strchr(name, '/'))
		return realpath(name, NULL);
	for (p = path ? path : "/usr/bin:/bin"; *p; p += *p == ':') {
		size_t n = strcspn(p, ":");
		char *f = xasprintf("%.*s/%s", (int)n, n ? p : ".", name);
		char *r = access(f, X_OK) == 0 ? realpath(f, NULL) : NULL;
		free(f);
		p += n;
		if (r)
			return r;
	}
	return NULL;
}

char *kbuild_compiler_id(const char *build)
{
	static const char key[] = "\nCONFIG_CC_VERSION_TEXT=\"";
	char *cfg = xasprintf("%s/.config", build);
	char *text = read_file(cfg, NULL), *v, *name, *file, *id;
	struct stat st;
	free(cfg);
	v = text ? strstr(text, key) : NULL;
	if (v) {
		v += strlen(key);
		v[strcspn(v, "\"\n")] = '\0';   /* the version text */
		name = strstr(v, "clang") ? xstrdup("clang") :
		       xstrndup(v, strcspn(v, " "));
	} else {
		name = xstrdup("gcc");
	}
	file = on_path(name);
	if (file && stat(file, &st) == 0)
		id = xasprintf("%s %s %lld %lld %llu", name, file,
			       (long long)st.st_size, (long long)st.st_mtime,
			       (unsigned long long)st.st_ino);
	else
		id = xasprintf("%s (not found)", name);
	free(file);
	free(name);
	free(text);
	return id;
}

/* runtime_cache_dir - the cache directory for this kernel, runtime, -D
 * set and compiler (heap), or NULL when there is no place for a cache. */
static char *runtime_cache_dir(struct session *s, struct rt_file *f, int n)
{
	const char *base = getenv("SYSTEMTAP_DIR"), *home = getenv("HOME");
	uint64_t h = 0xcbf29ce484222325ULL;
	char *root;
	int i;
	fnv(&h, "stp-runtime-cache-2", 20);
	fnv(&h, s->kernel_build, strlen(s->kernel_build) + 1);
	{
		char *cc = kbuild_compiler_id(s->kernel_build);
		fnv(&h, cc, strlen(cc) + 1);
		free(cc);
	}
	fnv(&h, s->kernel_release, strlen(s->kernel_release) + 1);
	for (i = 0; i < n; i++) {
		fnv(&h, f[i].name, strlen(f[i].name) + 1);
		fnv(&h, f[i].data, f[i].len);
	}
	for (i = 0; i < s->defines.n; i++)
		fnv(&h, s->defines.items[i], strlen(s->defines.items[i]) + 1);
	fnv(&h, "-B", 3);          /* make variables (KCFLAGS=...) */
	for (i = 0; i < s->make_vars.n; i++)
		fnv(&h, s->make_vars.items[i], strlen(s->make_vars.items[i]) + 1);
	{
		char *bs = bufsize_define(s);
		if (bs)
			fnv(&h, bs, strlen(bs) + 1);
		free(bs);
	}
	{
		/* a reinstalled build tree of the same release: new objects */
		static const char *const stamps[] = {
			"include/generated/autoconf.h", "Makefile", ".config" };
		for (i = 0; i < 3; i++) {
			char *pth = xasprintf("%s/%s", s->kernel_build, stamps[i]);
			struct stat st;
			if (stat(pth, &st) == 0) {
				fnv(&h, &st.st_mtime, sizeof(st.st_mtime));
				fnv(&h, &st.st_size, sizeof(st.st_size));
			}
			free(pth);
		}
	}
	if (base && *base)
		root = xasprintf("%s/cache/runtime", base);
	else if (home && *home)
		root = xasprintf("%s/.systemtap/cache/runtime", home);
	else
		return NULL;
	{
		char *d = xasprintf("%s/%s-%016llx", root, s->kernel_release,
				    (unsigned long long)h);
		free(root);
		return d;
	}
}

static int copy_file(const char *src, const char *dst)
{
	size_t len;
	char *data = read_file(src, &len);
	int rc;
	if (!data)
		return -1;
	rc = write_file(dst, data, len);
	free(data);
	return rc;
}

/* cache_warm - 1 if @cache holds the runtime units' objects (and the
 * kernel probes' answers, when there are probes). */
static int cache_warm(const char *cache, struct rt_file *f, int n)
{
	struct stat st;
	int i;
	for (i = 0; i < n; i++) {
		if (f[i].kcaps) {
			char *o = xasprintf("%s/" KCAPS_FOUND, cache);
			int ok = stat(o, &st) == 0;
			free(o);
			if (!ok)
				return 0;
			continue;
		}
		size_t l = strlen(f[i].name);
		char *o;
		int ok;
		if (!f[i].unit)
			continue;
		o = xasprintf("%s/%.*s.o", cache, (int)l - 2, f[i].name);
		ok = stat(o, &st) == 0;
		free(o);
		if (!ok)
			return 0;
	}
	return 1;
}

/* cache_store - save the runtime objects just built in DIR/runtime into
 * @cache (atomically: a private directory renamed into place). */
static void cache_store(const char *dir, const char *cache, struct rt_file *f,
			int n)
{
	char *tmp = xasprintf("%s.tmp%d", cache, (int)getpid());
	int i, rc = 0;
	char *parent = xstrdup(cache);
	*strrchr(parent, '/') = '\0';
	if (mkdir_p(parent) < 0 || mkdir(tmp, 0755) < 0) {
		free(parent);
		free(tmp);
		return;
	}
	for (i = 0; i < n && rc == 0; i++) {
		size_t l = strlen(f[i].name);
		char *src, *dst;
		if (f[i].kcaps && !strcmp(f[i].name, KCAPS_PROBES)) {
			/* the answers, and gcc's messages behind them */
			src = xasprintf("%s/runtime/" KCAPS_FOUND, dir);
			dst = xasprintf("%s/" KCAPS_FOUND, tmp);
			rc = copy_file(src, dst);
			free(src);
			free(dst);
			src = xasprintf("%s/runtime/" KCAPS_LOG, dir);
			dst = xasprintf("%s/" KCAPS_LOG, tmp);
			copy_file(src, dst);
			free(src);
			free(dst);
			continue;
		}
		if (!f[i].unit)
			continue;
		src = xasprintf("%s/runtime/%.*s.o", dir, (int)l - 2, f[i].name);
		dst = xasprintf("%s/%.*s.o", tmp, (int)l - 2, f[i].name);
		rc = copy_file(src, dst);
		free(src);
		free(dst);
	}
	if (rc == 0 && rename(tmp, cache) == 0) {
		if (stp_verbose > 1)
			fprintf(stderr, "stap: cached the runtime objects in %s\n",
				cache);
	} else {
		/* another stap got there first, or a copy failed */
		DIR *d = opendir(tmp);
		struct dirent *de;
		while (d && (de = readdir(d)) != NULL) {
			char *x;
			if (de->d_name[0] == '.')
				continue;
			x = xasprintf("%s/%s", tmp, de->d_name);
			unlink(x);
			free(x);
		}
		if (d)
			closedir(d);
		rmdir(tmp);
	}
	free(parent);
	free(tmp);
}

/* copy_runtime - put the runtime into DIR/runtime: its headers, and for
 * its .c files, and for the units either the cached objects (as
 * NAME.o_shipped, when @cache is warm) or the source.  Appends the objects to @objs.  Returns 0 or -1. */
static int copy_runtime(const char *dir, struct rt_file *f, int n,
			const char *cache, int warm, struct strbuf *objs)
{
	int i, rc = 0, nc = 0;
	for (i = 0; i < n && rc == 0; i++) {
		size_t l = strlen(f[i].name);
		char *dst;
		int is_c = f[i].unit;
		if (is_c && warm) {
			char *src = xasprintf("%s/%.*s.o", cache, (int)l - 2,
					      f[i].name);
			dst = xasprintf("%s/runtime/%.*s.o_shipped", dir,
					(int)l - 2, f[i].name);
			rc = copy_file(src, dst);
			if (rc < 0)
				fprintf(stderr, "stap: cannot copy %s: %s\n", src,
					strerror(errno));
			free(src);
			free(dst);
			/* modpost reads each object's .cmd file (for the
			 * CRCs of exported symbols: the runtime has none) */
			dst = xasprintf("%s/runtime/.%.*s.o.cmd", dir, (int)l - 2,
					f[i].name);
			if (rc == 0)
				rc = write_file(dst, "# from the runtime cache\n",
						24);
		} else {
			dst = xasprintf("%s/runtime/%s", dir, f[i].name);
			rc = write_file(dst, f[i].data, f[i].len);
		}
		free(dst);
		if (rc == 0 && is_c) {
			strbuf_printf(objs, " runtime/%.*s.o", (int)l - 2,
				      f[i].name);
			nc++;
		}
	}
	if (rc == 0 && nc == 0) {
		fprintf(stderr, "stap: no runtime sources\n");
		rc = -1;
	}
	return rc;
}

static void free_runtime(struct rt_file *rt, int n)
{
	int i;
	for (i = 0; i < n; i++) {
		free(rt[i].name);
		free(rt[i].data);
	}
	free(rt);
}

/* try_fastbuild - fastbuild_module() with the cached runtime objects of
 * @cache; on failure its leftovers are removed so that kbuild starts
 * clean.  Returns 0 with *@ko set, else 1. */
static int try_fastbuild(struct session *s, const char *cache,
			 struct rt_file *f, int n, char **ko)
{
	static const char *const leftovers[] = {
		"gen/script.o", "%s.mod", "%s.o", "%s.mod.c", "%s.mod.o", "%s.ko" };
	const char **objs = xcalloc(n + 1, sizeof(*objs));
	int i, k = 0, rc;
	rc = 0;
	for (i = 0; i < n && rc == 0; i++) {
		size_t l = strlen(f[i].name);
		char *h;
		if ((f[i].name[l - 1] == 'c' && !f[i].unit) || f[i].kcaps)
			continue;       /* in a cached unit's object */
		if (f[i].unit) {
			objs[k++] = xasprintf("%s/%.*s.o", cache, (int)l - 2,
					      f[i].name);
			continue;
		}
		/* the headers the script's C includes */
		h = xasprintf("%s/runtime/%s", s->tmpdir, f[i].name);
		rc = write_file(h, f[i].data, f[i].len);
		free(h);
	}
	rc = rc ? 1 : fastbuild_module(s, cache, objs, k, ko);
	for (i = 0; i < k; i++)
		free((char *)objs[i]);
	free(objs);
	for (i = 0; rc && i < (int)(sizeof(leftovers) / sizeof(*leftovers));
	     i++) {
		char *name = xasprintf(leftovers[i], s->module_name);
		char *p = xasprintf("%s/%s", s->tmpdir, name);
		unlink(p);
		free(p);
		free(name);
	}
	return rc;
}

/* checks_cc - the make variable CC="stap-kbuild-cc GCC" (heap) that has
 * kbuild's compiler feature checks remembered across builds
 * (kbuild_cc.c), and in *@dir where (heap).  GCC is the compiler that
 * built the kernel (kbuild_compiler_id's): gcc-12 for Debian's 6.1, and
 * for its 6.12 x86_64-linux-gnu-gcc-12, the program gcc-12 names, which
 * kbuild would run.  NULL when the build names its own compiler (-B CC=,
 * LLVM=, CROSS_COMPILE=, Debian's ccache), the kernel was not built by
 * gcc, or there is no cache or no stap-kbuild-cc. */
static char *checks_cc(struct session *s, char **dir)
{
	static const char *const own[] = { "CC=", "LLVM=", "CROSS_COMPILE=",
					   "HOSTCC=", NULL };
	char *front = xasprintf("%s/stap-kbuild-cc", PKGLIBEXECDIR), *id = NULL;
	char *c;
	int i, j;
	*dir = NULL;
	for (i = 0; i < s->make_vars.n; i++)
		for (j = 0; own[j]; j++)
			if (!strncmp(s->make_vars.items[i], own[j],
				     strlen(own[j])))
				goto none;
	id = kbuild_compiler_id(s->kernel_build);
	id[strcspn(id, " ")] = '\0';     /* its name */
	if (!strstr(id, "gcc") || access(front, X_OK) != 0 ||
	    getenv("STAP_NO_RUNTIME_CACHE") ||
	    getenv("DEBIAN_KERNEL_USE_CCACHE") || !(c = cache_dir()))
		goto none;
	*dir = xasprintf("%s/kbuild-cc", c);
	free(c);
	c = xasprintf("CC=%s %s", front, id);
	free(front);
	free(id);
	return c;
none:
	free(id);
	free(front);
	return NULL;
}

/* run_make - run make with output into LOG, with STAP_KBUILD_CC_CACHE
 * set to @checks (or not, NULL); returns its exit status. */
static int run_make(char **argv, const char *log, const char *checks)
{
	pid_t pid = fork();
	int st;
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		if (checks)
			setenv("STAP_KBUILD_CC_CACHE", checks, 1);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int kbuild_module(struct session *s, const char *csource, char **ko)
{
	struct strbuf mk = {0}, objs = {0};
	char *dir = s->tmpdir, *p, *log, *out, *cache, *kcaps_rule = NULL;
	char *cc, *checks;
	char *found;
	struct vec argv = {0};
	struct stat st;
	struct rt_file *rt = NULL;
	int i, rc, nrt, warm, tr_at, tr_n;

	if (stat(s->kernel_build, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "stap: no kernel build tree at %s for kernel %s "
			"(install its headers: apt-get install linux-headers-%s, or "
			"stap-prep -r %s)  [man error::pass4]\n",
			s->kernel_build, s->kernel_release, s->kernel_release,
			s->kernel_release);
		return -1;
	}
	p = xasprintf("%s/gen", dir);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/runtime", dir);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/gen/script.c", dir);
	rc = write_file(p, csource, strlen(csource));
	free(p);
	if (rc < 0 || (nrt = read_runtime(s, &rt, &kcaps_rule)) < 0)
		return -1;
	cache = getenv("STAP_NO_RUNTIME_CACHE") ? NULL :
		runtime_cache_dir(s, rt, nrt);
	/* a kernel never built for: what root built for every user when
	 * its headers were installed, if anything (syscache.c) */
	if (cache && owned_private(cache) < 0)
		syscache_adopt(cache);
	/* the runtime objects are linked into the module: only a cache of
	 * the user's own that nobody else can write is used */
	warm = cache && owned_private(cache) == 1 && cache_warm(cache, rt, nrt);
	if (stp_verbose > 1)
		fprintf(stderr, "stap: runtime objects: %s%s\n",
			warm ? "cached in " : cache ? "compiling, to cache in " :
			"compiling (no cache)", cache ? cache : "");
	/* -B NAME=VAL are make's variables: only a run of make takes them */
	if (s->make_vars.n && stp_verbose)
		fprintf(stderr, "stap: pass 4 with kbuild: -B make variables "
			"given\n");
	if (warm && kcaps_rule) {
		/* this kernel's answers: checked before anything compiles */
		p = xasprintf("%s/" KCAPS_FOUND, cache);
		found = read_file(p, NULL);
		free(p);
		p = xasprintf("%s/runtime/" KCAPS_FOUND, dir);
		rc = found ? write_file(p, found, strlen(found)) : -1;
		free(p);
		if (rc == 0)
			rc = kcaps_check(s, found, 0);
		free(found);
		if (rc < 0)
			return -1;
	}
	if (warm && !s->make_vars.n &&
	    try_fastbuild(s, cache, rt, nrt, ko) == 0) {
		free_runtime(rt, nrt);
		free(cache);
		free(kcaps_rule);
		return 0;
	}
	if (copy_runtime(dir, rt, nrt, cache, warm, &objs) < 0)
		return -1;

	/* the runtime first: make -j2 starts its two long compiles at once,
	 * the script's (short) one when either is done */
	strbuf_printf(&mk, "# Generated by stap\nobj-m := %s.o\n%s-y :=%s gen/script.o\n"
		      "ccflags-y := -I$(src)/runtime -fmacro-prefix-map=$(src)/= "
		      /* no debug information: the module is stripped of it
		       * (strip.c), and it is some 10% of the compile */
		      "-g0 -Wno-unused-label "
		      "-Wno-unused-variable -Wno-declaration-after-statement",
		      s->module_name, s->module_name, strbuf_str(&objs));
	for (i = 0; i < s->defines.n; i++)
		strbuf_printf(&mk, " -D%s", (const char *)s->defines.items[i]);
	p = bufsize_define(s);
	if (p)
		strbuf_printf(&mk, " '%s'", p);
	free(p);
	strbuf_add(&mk, "\n");
	/* the module BTF command, and the environment of kbuild's commands
	 * that its recorded commands need (objtool reads SRCARCH), from the
	 * variables kbuild exports to us: fastbuild.c records them */
	strbuf_add(&mk, "$(obj)/gen/script.o: $(obj)/" KBUILD_BTF_CMD "\n"
		   "$(obj)/" KBUILD_BTF_CMD ":\n"
		   "\t$(Q)printf '%s\\n' '$(if $(CONFIG_DEBUG_INFO_BTF_MODULES),"
		   "LLVM_OBJCOPY=\"$(OBJCOPY)\" $(PAHOLE) -J $(PAHOLE_FLAGS) "
		   "$(MODULE_PAHOLE_FLAGS) --btf_base vmlinux @DIR@/@MOD@.ko; "
		   "$(RESOLVE_BTFIDS) -b vmlinux @DIR@/@MOD@.ko)' > $@\n"
		   "\t$(Q)printf 'export SRCARCH=%s;\\n' '$(SRCARCH)' > "
		   "$(obj)/" KBUILD_ENV "\n");
	if (!warm && kcaps_rule) {
		/* the kernel probes before the objects that read their
		 * answers: the script's and the units' that do */
		for (i = 0; i < nrt; i++)
			if (rt[i].unit && rt[i].reads_kcaps)
				strbuf_printf(&mk, "$(obj)/runtime/%.*s.o ",
					      (int)strlen(rt[i].name) - 2,
					      rt[i].name);
		strbuf_add(&mk, "$(obj)/gen/script.o: $(obj)/runtime/" KCAPS_FOUND
			   "\n");
		strbuf_add(&mk, kcaps_rule);
	}
	free(kcaps_rule);
	p = xasprintf("%s/Kbuild", dir);
	rc = write_file(p, mk.s, mk.len);
	free(p);
	free(mk.s);
	free(objs.s);
	if (rc < 0)
		return -1;

	log = xasprintf("%s/build.log", dir);
	vec_push(&argv, "make");
	vec_push(&argv, "-C");
	vec_push(&argv, (char *)s->kernel_build);
	vec_push(&argv, p = xasprintf("M=%s", dir));
	vec_push(&argv, "-j2");
	/* no gcov flags: then kbuild's top Makefile skips the one compiler
	 * check that reads stdin (whether -fprofile-update=prefer-atomic
	 * adds libatomic calls: two compiles and two nm runs, 0.3 s, on
	 * every build), which no cache can answer; a probe module is never
	 * profiled anyway (-B CFLAGS_GCOV=... comes after and wins) */
	vec_push(&argv, "CFLAGS_GCOV=");
	/* kbuild's checks without a mkdir and an rm each (tryrun.c) */
	tr_at = argv.n;
	tr_n = kbuild_tryrun_vars(s->kernel_build, dir, &argv);
	cc = checks_cc(s, &checks);
	if (cc) {
		vec_push(&argv, cc);
		mkdir_p(checks);
	}
	for (i = 0; i < s->make_vars.n; i++)   /* -B NAME=VAL */
		vec_push(&argv, s->make_vars.items[i]);
	vec_push(&argv, "modules");
	vec_push(&argv, NULL);
	rc = run_make((char **)argv.items, log, checks);
	for (i = 0; i < tr_n; i++)
		free(argv.items[tr_at + i]);
	free(cc);
	free(checks);
	free(p);
	free(argv.items);
	/* what the kernel lacks, if anything, before the compiler's messages
	 * (which then only -v shows) */
	p = xasprintf("%s/runtime/" KCAPS_FOUND, dir);
	found = warm ? NULL : read_file(p, NULL);
	free(p);
	if (found && kcaps_check(s, found, rc != 0) < 0) {
		if (rc != 0 && stp_verbose) {
			char *text = read_file(log, NULL);
			if (text)
				fputs(text, stderr);
			free(text);
		}
		free(found);
		free(log);
		return -1;
	}
	free(found);
	if (rc != 0 || stp_verbose > 2) {
		char *text = read_file(log, NULL);
		if (text)
			fputs(text, stderr);
		free(text);
	}
	free(log);
	if (rc != 0) {
		fprintf(stderr, "stap: pass 4: building the module failed (make "
			"exited with %d); the compiler's messages are above  "
			"[man error::pass4]\n", rc);
		return -1;
	}
	out = xasprintf("%s/%s.ko", dir, s->module_name);
	if (stat(out, &st) != 0) {
		fprintf(stderr, "stap: pass 4: kbuild did not produce %s  "
			"[man error::pass4]\n", out);
		free(out);
		return -1;
	}
	if (cache && !warm)
		cache_store(dir, cache, rt, nrt);
	/* only a module name that cannot occur elsewhere in the commands
	 * (stap_<hash>...) can stand for any module name in the recipe */
	if (cache && !s->make_vars.n && !strncmp(s->module_name, "stap_", 5) &&
	    strlen(s->module_name) >= 16) {
		fastbuild_record(dir, s->module_name, cache);
		fastbuild_pch(s, cache);
	}
	free_runtime(rt, nrt);
	free(cache);
	*ko = out;
	return 0;
}
