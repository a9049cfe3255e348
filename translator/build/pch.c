/* pch.c - a precompiled header for the fast path's compiles.
 *
 * With the runtime's objects cached, a new script costs two compiler
 * runs: gen/script.c and NAME.mod.c.  Each spends most of its time
 * parsing the same kernel headers (stp_runtime.h pulls in linux/sched.h
 * and friends; NAME.mod.c linux/module.h).  So once per runtime cache
 * (kernel, runtime, -D set: kbuild.c's key) those headers are compiled
 * into CACHE/stp_pch.h.gch with the recorded compile command, and the
 * fast path's compiles start from it:
 *
 *   stp_pch.h        kbuild's forced includes (-include compiler-version.h,
 *                    kconfig.h, compiler_types.h), NAME.mod.c's includes,
 *                    "stp_runtime.h"
 *   stp_names_*.h    KBUILD_BASENAME, KBUILD_MODNAME, __KBUILD_MODNAME:
 *                    the per-file -D macros of the command, which must not
 *                    be defined before a precompiled header that differs
 *                    per module (the kernel headers only use them inside
 *                    macro bodies, so defining them after is the same)
 *
 *   CC FLAGS -include CACHE/stp_pch.h -include gen/stp_names_*.h -c ...
 *
 * The compiler itself checks that the .gch fits (the same compiler, the
 * same options and macros) and otherwise reads stp_pch.h as text: the
 * result is the same, only slower (-Winvalid-pch makes it say so in the
 * build log, which -vv reports).  The .gch is built in the background
 * after the first kbuild build for the cache (a second of compiler time
 * that no stap waits for); until it is there builds use the plain
 * recorded commands.
 */
#include "build.h"
#include "fastbuild.h"
#include "pch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PCH_H "stp_pch.h"
#define PCH_GCH "stp_pch.h.gch"
#define PCH_LOCK "stp_pch.lock"
#define PCH_FAILED "stp_pch.failed"
#define PCH_STALE_LOCK 600      /* s: a lock older than this is dead */
#define PCH_KEEP 3              /* headers kept in all the caches (~45 MB each) */
/* the header every generated script.c includes first */
#define RUNTIME_HEADER "stp_runtime.h"

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int ok = f && fputs(text, f) >= 0;
	if (f && fclose(f) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

/* ---- the commands as words ---- */

/* split_words - @cmd split at blanks into @w (heap strings); -1 when a
 * word has an unbalanced quote (a command not of kbuild's plain shape). */
static int split_words(const char *cmd, struct vec *w)
{
	const char *p = cmd;
	for (;;) {
		size_t n;
		int sq = 0, dq = 0;
		size_t i;
		p += strspn(p, " \t");
		if (!*p)
			return 0;
		n = strcspn(p, " \t");
		for (i = 0; i < n; i++) {
			sq += p[i] == '\'';
			dq += p[i] == '"';
		}
		if (sq % 2 || (dq % 2 && !sq))
			return -1;
		vec_push(w, xstrndup(p, n));
		p += n;
	}
}

static void free_words(struct vec *w)
{
	int i;
	for (i = 0; i < w->n; i++)
		free(w->items[i]);
	free(w->items);
	memset(w, 0, sizeof(*w));
}

/* The parts of one recorded compile command. */
struct cc_parts {
	struct vec flags;     /* the compiler and its options, less the rest */
	struct vec includes;  /* -include FILE, in order */
	struct vec defines;   /* -DKBUILD_BASENAME=... and the like */
	char *out, *in;       /* -c -o OUT IN */
	char *post;           /* "; objtool ..." after the compile, or NULL */
};

static void parts_free(struct cc_parts *c)
{
	free_words(&c->flags);
	free_words(&c->includes);
	free_words(&c->defines);
	free(c->out);
	free(c->in);
	free(c->post);
}

static int per_file_define(const char *w)
{
	return !strncmp(w, "-DKBUILD_BASENAME=", 18) ||
	       !strncmp(w, "-DKBUILD_MODNAME=", 17) ||
	       !strncmp(w, "-D__KBUILD_MODNAME=", 19);
}

/* parse_cc - @cmd ("CC ... -c -o OUT IN[; POST]") into @c; -1 when it is
 * not of that shape or names the module elsewhere. */
static int parse_cc(const char *cmd, struct cc_parts *c)
{
	const char *semi = strchr(cmd, ';');
	char *cc = semi ? xstrndup(cmd, semi - cmd) : xstrdup(cmd);
	struct vec w = {0};
	int i, rc = -1;
	memset(c, 0, sizeof(*c));
	if (semi)
		c->post = xstrdup(semi);
	if (split_words(cc, &w) < 0 || w.n < 5 ||
	    strcmp(w.items[w.n - 4], "-c") || strcmp(w.items[w.n - 3], "-o"))
		goto out;
	c->out = xstrdup(w.items[w.n - 2]);
	c->in = xstrdup(w.items[w.n - 1]);
	for (i = 0; i < w.n - 4; i++) {
		char *x = w.items[i];
		if (!strcmp(x, "-include") && i + 1 < w.n - 4) {
			vec_push(&c->includes, xstrdup(w.items[++i]));
		} else if (per_file_define(x)) {
			vec_push(&c->defines, xstrdup(x));
		} else if (!strncmp(x, "-Wp,-MMD,", 9)) {
			continue;       /* the dependency file: not needed */
		} else if (strstr(x, "@MOD@") || !strcmp(x, "-include") ||
			   !strcmp(x, "-o") || !strcmp(x, "-c")) {
			goto out;
		} else {
			vec_push(&c->flags, xstrdup(x));
		}
	}
	rc = c->includes.n > 0 ? 0 : -1;
out:
	free_words(&w);
	free(cc);
	return rc;
}

static int has_word(const struct vec *v, const char *w)
{
	int i;
	for (i = 0; i < v->n; i++)
		if (!strcmp(v->items[i], w))
			return 1;
	return 0;
}

/* subset - 1 if every word of @a is in @b and the forced includes are
 * the same: a file compiled with @b's flags compiles as with @a's (the
 * extra words are the script's own -I, -W and -D). */
static int subset(const struct cc_parts *a, const struct cc_parts *b)
{
	int i;
	if (strcmp(a->flags.items[0], b->flags.items[0]) ||
	    a->includes.n != b->includes.n)
		return 0;
	for (i = 0; i < a->includes.n; i++)
		if (strcmp(a->includes.items[i], b->includes.items[i]))
			return 0;
	for (i = 0; i < a->flags.n; i++)
		if (!has_word(&b->flags, a->flags.items[i]))
			return 0;
	return 1;
}

/* command - the compile of @in into @out with @c's flags, the forced
 * includes @inc1, @inc2 (each may be NULL; before every other option but
 * the compiler), the options @extra and the command @post after it. */
static char *command(const struct cc_parts *c, const char *inc1,
		     const char *inc2, const char *extra, const char *out,
		     const char *in, const char *post)
{
	struct strbuf b = {0};
	int i;
	strbuf_add(&b, c->flags.items[0]);
	if (inc1)
		strbuf_printf(&b, " -include %s", inc1);
	if (inc2)
		strbuf_printf(&b, " -include %s", inc2);
	for (i = 1; i < c->flags.n; i++)
		strbuf_printf(&b, " %s", (char *)c->flags.items[i]);
	strbuf_printf(&b, "%s -c -o %s %s%s%s", extra, out, in,
		      post ? " " : "", post ? post : "");
	return strbuf_detach(&b);
}

/* define_line - "-DNAME=VALUE" (VALUE shell-quoted as kbuild writes it)
 * as "#define NAME VALUE\n" into @b; KBUILD_BASENAME's value becomes
 * @BASE@.  -1 when it is not of that shape. */
static int define_line(struct strbuf *b, const char *w)
{
	const char *eq = strchr(w, '=');
	const char *v = eq + 1;
	size_t n = strlen(v);
	if (!strncmp(w, "-DKBUILD_BASENAME=", 18)) {
		strbuf_add(b, "#define KBUILD_BASENAME \"@BASE@\"\n");
		return 0;
	}
	if (n >= 2 && v[0] == '\'' && v[n - 1] == '\'') {
		v++;
		n -= 2;
	}
	if (memchr(v, '\'', n) || memchr(v, '\\', n))
		return -1;
	strbuf_printf(b, "#define %.*s %.*s\n", (int)(eq - w - 2), w + 2,
		      (int)n, v);
	return 0;
}

int pch_plan_make(struct pch_plan *p, const char *cc_script,
		  const char *cc_mod, const char *modc_head,
		  const char *kbuild, const char *cache)
{
	struct cc_parts s, m;
	struct strbuf h = {0}, d = {0};
	char *hdr = xasprintf("%s/" PCH_H, cache), *gch;
	const char *l;
	int i, rc = -1, mod_ok;
	memset(p, 0, sizeof(*p));
	mod_ok = parse_cc(cc_mod, &m) == 0 && !m.post;
	if (parse_cc(cc_script, &s) < 0)
		goto out;
	mod_ok = mod_ok && subset(&m, &s);
	for (i = 0; i < s.defines.n; i++)
		if (define_line(&d, s.defines.items[i]) < 0)
			goto out;
	/* the header: the forced includes, NAME.mod.c's own preprocessor
	 * lines (its includes), the runtime's header */
	strbuf_add(&h, "/* Generated by stap: the headers of every module's "
		   "C, precompiled. */\n");
	for (i = 0; i < s.includes.n; i++) {
		const char *f = s.includes.items[i];
		if (f[0] == '/')
			strbuf_printf(&h, "#include \"%s\"\n", f);
		else
			strbuf_printf(&h, "#include \"%s/%s\"\n", kbuild, f);
	}
	for (l = modc_head; l && *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
		size_t n = strcspn(l, "\n");
		if (n == 0)
			continue;
		if (l[0] != '#')
			break;
		strbuf_printf(&h, "%.*s\n", (int)n, l);
	}
	strbuf_add(&h, "#include \"" RUNTIME_HEADER "\"\n");
	p->header = strbuf_detach(&h);
	p->defines = strbuf_detach(&d);
	p->cc_script = command(&s, hdr, "@DIR@/gen/" PCH_NAMES_SCRIPT,
			       " -Winvalid-pch", s.out, s.in, s.post);
	if (mod_ok)
		p->cc_mod = command(&s, hdr, "@DIR@/gen/" PCH_NAMES_MOD,
				    " -Winvalid-pch", m.out, m.in, NULL);
	gch = xasprintf("%s.tmp", hdr);
	p->cc_pch = command(&s, NULL, NULL, " -x c-header", gch, hdr,
			    NULL);
	free(gch);
	rc = 0;
out:
	free(hdr);
	free(d.s);
	parts_free(&s);
	parts_free(&m);
	if (rc)
		pch_plan_free(p);
	return rc;
}

void pch_plan_free(struct pch_plan *p)
{
	free(p->header);
	free(p->cc_script);
	free(p->cc_mod);
	free(p->cc_pch);
	free(p->defines);
	memset(p, 0, sizeof(*p));
}

int pch_ready(const char *cache)
{
	char *g = xasprintf("%s/" PCH_GCH, cache);
	char *h = xasprintf("%s/" PCH_H, cache);
	struct stat st;
	/* compiled into the module: only the user's own, as the recipe */
	int ok = stat(g, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
		 owned_private(g) == 1 && owned_private(h) == 1;
	free(g);
	free(h);
	return ok;
}

char *pch_write_defines(const struct pch_plan *p, const char *dir,
			const char *mod, const char *base, const char *file)
{
	char *path = xasprintf("%s/gen/%s", dir, file);
	char *defs = fastbuild_specialize(p->defines, dir, mod);
	char *bn = fastbuild_specialize(base, dir, mod);
	struct strbuf b = {0};
	const char *s = defs, *q;
	int rc;
	/* @BASE@: KBUILD_BASENAME's value */
	while ((q = strstr(s, "@BASE@"))) {
		strbuf_addn(&b, s, q - s);
		strbuf_add(&b, bn);
		s = q + 6;
	}
	strbuf_add(&b, s);
	rc = write_text(path, strbuf_str(&b));
	free(b.s);
	free(defs);
	free(bn);
	if (rc < 0) {
		free(path);
		return NULL;
	}
	return path;
}

/* ---- building the header ---- */

/* take_lock - create @cache's lock file (a dead one, older than
 * PCH_STALE_LOCK, is taken over); 0, or -1 when another build holds it. */
static int take_lock(const char *lock)
{
	struct stat st;
	int fd = open(lock, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd < 0 && errno == EEXIST && stat(lock, &st) == 0 &&
	    time(NULL) - st.st_mtime > PCH_STALE_LOCK) {
		unlink(lock);
		fd = open(lock, O_WRONLY | O_CREAT | O_EXCL, 0600);
	}
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* copy_headers - the .h files of @from into @to; 0 or -1. */
static int copy_headers(const char *from, const char *to)
{
	DIR *d = opendir(from);
	struct dirent *de;
	int rc = d ? 0 : -1;
	while (d && rc == 0 && (de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name), len;
		char *src, *dst, *data;
		if (l < 3 || strcmp(de->d_name + l - 2, ".h"))
			continue;
		src = xasprintf("%s/%s", from, de->d_name);
		dst = xasprintf("%s/%s", to, de->d_name);
		data = read_file(src, &len);
		rc = data ? write_text(dst, data) : -1;
		free(data);
		free(src);
		free(dst);
	}
	if (d)
		closedir(d);
	return rc;
}

/* compile - run the header's compile in @work (its runtime/ holds the
 * headers) and put the result in place; 0 or -1 (@log has why). */
static int compile(const struct pch_plan *p, const char *cache,
		   const char *work, const char *kbuild, const char *log)
{
	char *cmd = fastbuild_specialize(p->cc_pch, work, "stp_pch");
	char *tmp = xasprintf("%s/" PCH_H ".tmp", cache);
	char *gch = xasprintf("%s/" PCH_GCH, cache);
	int rc = fastbuild_run_sh(cmd, kbuild, log) == 0 &&
		 rename(tmp, gch) == 0 ? 0 : -1;
	unlink(tmp);
	free(cmd);
	free(tmp);
	free(gch);
	return rc;
}

/* prune - make room for one more header under @cache's parent (the
 * runtime caches of every kernel, runtime, -D set and compiler): delete
 * the least recently used (pch_touch) until PCH_KEEP - 1 are left.  A
 * cache whose header went builds it again when it is used again. */
static void prune(const char *cache)
{
	char *root = xstrdup(cache), *slash = strrchr(root, '/');
	struct { char *path; time_t t; } *v = NULL;
	int n = 0, i, j;
	DIR *d;
	struct dirent *de;
	if (slash)
		*slash = '\0';
	d = opendir(root);
	while (d && (de = readdir(d)) != NULL) {
		struct stat st;
		char *g;
		if (de->d_name[0] == '.')
			continue;
		g = xasprintf("%s/%s/" PCH_GCH, root, de->d_name);
		if (stat(g, &st) != 0) {
			free(g);
			continue;
		}
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n].path = g;
		v[n++].t = st.st_mtime;
	}
	if (d)
		closedir(d);
	while (n >= PCH_KEEP) {
		for (i = 0, j = 1; j < n; j++)
			if (v[j].t < v[i].t)
				i = j;
		unlink(v[i].path);
		free(v[i].path);
		v[i] = v[--n];
	}
	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
	free(root);
}

void pch_touch(const char *cache)
{
	char *g = xasprintf("%s/" PCH_GCH, cache);
	utimensat(AT_FDCWD, g, NULL, 0);
	free(g);
}

void pch_build(const struct pch_plan *p, const char *cache, const char *rtdir,
	       const char *kbuild)
{
	const char *mode = getenv("STAP_PCH");
	int wait = mode && !strcmp(mode, "wait");
	char *lock = xasprintf("%s/" PCH_LOCK, cache);
	char *failed = xasprintf("%s/" PCH_FAILED, cache);
	char *hdr = xasprintf("%s/" PCH_H, cache);
	char *work = xasprintf("%s/pch.tmp%d", cache, (int)getpid());
	char *rt = xasprintf("%s/runtime", work);
	char *log = xasprintf("%s/log", work);
	char *htmp = xasprintf("%s.tmp%d", hdr, (int)getpid());
	pid_t pid;
	int rc;
	if (pch_ready(cache) || access(failed, F_OK) == 0 ||
	    take_lock(lock) < 0)
		goto out;
	prune(cache);
	if (mkdir_p(rt) < 0 || copy_headers(rtdir, rt) < 0 ||
	    write_text(htmp, p->header) < 0 || rename(htmp, hdr) < 0) {
		unlink(htmp);
		remove_tree(work);
		unlink(lock);
		goto out;
	}
	if (wait) {
		rc = compile(p, cache, work, kbuild, log);
		if (rc < 0) {
			if (stp_verbose > 1) {
				char *t = read_file(log, NULL);
				fprintf(stderr, "stap: precompiling the headers "
					"failed:\n%s", t ? t : "");
				free(t);
			}
			write_text(failed, "");
		} else if (stp_verbose > 1) {
			fprintf(stderr, "stap: precompiled the headers into "
				"%s/" PCH_GCH "\n", cache);
		}
		remove_tree(work);
		unlink(lock);
		goto out;
	}
	/* detached: the child forks the builder and exits at once */
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int fd;
		setsid();
		if (fork() != 0)
			_exit(0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_IGN);
		fd = open("/dev/null", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		/* nothing of the caller's held open (a pipe someone reads
		 * to its end, a lock) */
		closefrom(3);
		if (compile(p, cache, work, kbuild, log) < 0)
			write_text(failed, "");
		remove_tree(work);
		unlink(lock);
		_exit(0);
	}
	if (pid > 0) {
		waitpid(pid, NULL, 0);
		if (stp_verbose > 1)
			fprintf(stderr, "stap: precompiling the headers in the "
				"background into %s/" PCH_GCH "\n", cache);
	} else {
		remove_tree(work);
		unlink(lock);
	}
out:
	free(lock);
	free(failed);
	free(hdr);
	free(work);
	free(rt);
	free(log);
	free(htmp);
}
