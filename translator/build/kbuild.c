/* kbuild.c - pass 4: the module is a kbuild composite object
 *
 *   obj-m    := NAME.o
 *   NAME-y   := gen/script.o runtime/<each runtime .c>.o
 *
 * built in the run's temporary directory against the target kernel's
 * build tree.  The generated code and the runtime live in subdirectories
 * so that no module name can collide with one of their object names.
 */
#include "kbuild.h"
#include "fastbuild.h"

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
 * runtime sources and the -D macros, so they are compiled once and kept
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

/* read_runtime - every .c and .h of the runtime, sorted by name, into
 * *files; returns the count or -1. */
static int read_runtime(struct session *s, struct rt_file **files)
{
	DIR *d = opendir(s->runtime_dir);
	struct dirent *de;
	struct rt_file *v = NULL;
	int n = 0;
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
	return n;
}

/* runtime_cache_dir - the cache directory for this kernel, runtime and
 * -D set (heap), or NULL when there is no place for a cache. */
static char *runtime_cache_dir(struct session *s, struct rt_file *f, int n)
{
	const char *base = getenv("SYSTEMTAP_DIR"), *home = getenv("HOME");
	uint64_t h = 0xcbf29ce484222325ULL;
	char *root;
	int i;
	fnv(&h, "stp-runtime-cache-1", 20);
	fnv(&h, s->kernel_build, strlen(s->kernel_build) + 1);
	fnv(&h, s->kernel_release, strlen(s->kernel_release) + 1);
	for (i = 0; i < n; i++) {
		fnv(&h, f[i].name, strlen(f[i].name) + 1);
		fnv(&h, f[i].data, f[i].len);
	}
	for (i = 0; i < s->defines.n; i++)
		fnv(&h, s->defines.items[i], strlen(s->defines.items[i]) + 1);
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

/* cache_warm - 1 if @cache holds an object for every runtime .c. */
static int cache_warm(const char *cache, struct rt_file *f, int n)
{
	struct stat st;
	int i;
	for (i = 0; i < n; i++) {
		size_t l = strlen(f[i].name);
		char *o;
		int ok;
		if (f[i].name[l - 1] != 'c')
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
		if (f[i].name[l - 1] != 'c')
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
 * each .c either the cached object (as NAME.o_shipped, when @cache is
 * warm) or the source.  Appends the objects to @objs.  Returns 0 or -1. */
static int copy_runtime(const char *dir, struct rt_file *f, int n,
			const char *cache, int warm, struct strbuf *objs)
{
	int i, rc = 0, nc = 0;
	for (i = 0; i < n && rc == 0; i++) {
		size_t l = strlen(f[i].name);
		char *dst;
		int is_c = f[i].name[l - 1] == 'c';
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
		if (f[i].name[l - 1] == 'c') {
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

/* run_make - run make with output into LOG; returns its exit status. */
static int run_make(char **argv, const char *log)
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
	char *dir = s->tmpdir, *p, *log, *out, *cache;
	char *argv[8];
	struct stat st;
	struct rt_file *rt = NULL;
	int i, rc, nrt, warm;

	if (stat(s->kernel_build, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "stap: no kernel build tree at %s for kernel %s "
			"(install its headers: apt-get install linux-headers-%s)\n",
			s->kernel_build, s->kernel_release, s->kernel_release);
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
	if (rc < 0 || (nrt = read_runtime(s, &rt)) < 0)
		return -1;
	cache = getenv("STAP_NO_RUNTIME_CACHE") ? NULL :
		runtime_cache_dir(s, rt, nrt);
	/* the runtime objects are linked into the module: only a cache of
	 * the user's own that nobody else can write is used */
	warm = cache && owned_private(cache) == 1 && cache_warm(cache, rt, nrt);
	if (stp_verbose > 1)
		fprintf(stderr, "stap: runtime objects: %s%s\n",
			warm ? "cached in " : cache ? "compiling, to cache in " :
			"compiling (no cache)", cache ? cache : "");
	if (warm && try_fastbuild(s, cache, rt, nrt, ko) == 0) {
		free_runtime(rt, nrt);
		free(cache);
		return 0;
	}
	if (copy_runtime(dir, rt, nrt, cache, warm, &objs) < 0)
		return -1;

	strbuf_printf(&mk, "# Generated by stap\nobj-m := %s.o\n%s-y := gen/script.o%s\n"
		      "ccflags-y := -I$(src)/runtime -Wno-unused-label "
		      "-Wno-unused-variable -Wno-declaration-after-statement",
		      s->module_name, s->module_name, strbuf_str(&objs));
	for (i = 0; i < s->defines.n; i++)
		strbuf_printf(&mk, " -D%s", (const char *)s->defines.items[i]);
	p = bufsize_define(s);
	if (p)
		strbuf_printf(&mk, " '%s'", p);
	free(p);
	strbuf_add(&mk, "\n");
	p = xasprintf("%s/Kbuild", dir);
	rc = write_file(p, mk.s, mk.len);
	free(p);
	free(mk.s);
	free(objs.s);
	if (rc < 0)
		return -1;

	log = xasprintf("%s/build.log", dir);
	argv[0] = "make";
	argv[1] = "-C";
	argv[2] = (char *)s->kernel_build;
	argv[3] = p = xasprintf("M=%s", dir);
	argv[4] = "-j2";
	argv[5] = "modules";
	argv[6] = NULL;
	rc = run_make(argv, log);
	free(p);
	if (rc != 0 || stp_verbose > 2) {
		char *text = read_file(log, NULL);
		if (text)
			fputs(text, stderr);
		free(text);
	}
	free(log);
	if (rc != 0) {
		fprintf(stderr, "stap: pass 4: building the module failed (make "
			"exited with %d); the compiler's messages are above\n", rc);
		return -1;
	}
	out = xasprintf("%s/%s.ko", dir, s->module_name);
	if (stat(out, &st) != 0) {
		fprintf(stderr, "stap: pass 4: kbuild did not produce %s\n", out);
		free(out);
		return -1;
	}
	if (cache && !warm)
		cache_store(dir, cache, rt, nrt);
	/* only a module name that cannot occur elsewhere in the commands
	 * (stap_<hash>...) can stand for any module name in the recipe */
	if (cache && !strncmp(s->module_name, "stap_", 5) &&
	    strlen(s->module_name) >= 16)
		fastbuild_record(dir, s->module_name, cache);
	free_runtime(rt, nrt);
	free(cache);
	*ko = out;
	return 0;
}
