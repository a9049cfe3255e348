/* fastbuild.c - pass 4 without kbuild's machinery.
 *
 * kbuild spends most of a module build reading the kernel's Makefiles and
 * running modpost; the compiler and the linker are a fraction of it.  So
 * the first kbuild run for a kernel, runtime and option set (the runtime
 * object cache's key, kbuild.c) is recorded: the exact commands kbuild
 * ran (from its .cmd files) to compile the script's C, to link the
 * composite object, to compile NAME.mod.c and to link NAME.ko, and the
 * fixed parts of NAME.mod.c (vermagic, module info, __this_module).
 * Later builds compile only gen/script.c with the recorded command, link
 * it with the cached runtime objects, write NAME.mod.c as modpost would
 * (a __versions entry with the CRC from Module.symvers for every symbol
 * the module uses, and module_layout), compile it and link NAME.ko with
 * the kernel's module linker script: no make, no Makefile parsing, no
 * modpost process.
 *
 * A kernel whose kbuild links every module with its own
 * .module-common.o (6.12) gets that object kept in the cache, and one that
 * generates module BTF (a build tree with vmlinux, 6.12's) the BTF command
 * kbuild would run (pahole, resolve_btfids) recorded too (kbuild.c's
 * Kbuild file writes it: KBUILD_BTF_CMD).
 *
 * Whatever the recipe cannot vouch for falls back to kbuild: a symbol
 * that Module.symvers does not have, has from a module, or puts in a
 * namespace (modpost checks those), module BTF without a recorded
 * command, a recipe that is missing or unreadable, any command
 * that fails (kbuild then prints the compiler's messages).  -v says which.
 */
#include "build.h"
#include "fastbuild.h"
#include "pch.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <spawn.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define RECIPE "fastbuild.recipe"
#define RECIPE_MAGIC "stap fastbuild recipe 2\n"
#define MODULE_COMMON "module-common.o"   /* in the cache */

/* The recorded commands and NAME.mod.c parts, @DIR@ and @MOD@ standing
 * for the build directory and the module name. */
struct recipe {
	char *cc_script, *ld_o, *cc_mod, *ld_ko, *modc_head, *modc_tail;
	char *btf_ko;                /* module BTF, or "" */
};

/* ---- strings ---- */

/* replace - @s with every @from replaced by @to (heap). */
static char *replace(const char *s, const char *from, const char *to)
{
	struct strbuf b = {0};
	size_t fl = strlen(from);
	const char *q;
	while (fl && (q = strstr(s, from))) {
		strbuf_addn(&b, s, q - s);
		strbuf_add(&b, to);
		s = q + fl;
	}
	strbuf_add(&b, s);
	return b.s ? b.s : xstrdup("");
}

/* cmd_of - the command kbuild .cmd file @path records ("cmd_X := CMD"),
 * with make's escapes ($$, $(pound)) undone and the front end that
 * answered kbuild's compiler checks (kbuild_cc.c: "DIR/stap-kbuild-cc
 * gcc ...") left out: the compiler's own command; NULL if none.  @path
 * (heap) is freed. */
static char *cmd_of(char *path)
{
	static const char front[] = "/stap-kbuild-cc ";
	char *text = read_file(path, NULL), *p, *e, *a, *b;
	free(path);
	if (!text)
		return NULL;
	p = strstr(text, " := ");
	/* "savedcmd_" since 6.2 */
	if ((strncmp(text, "cmd_", 4) && strncmp(text, "savedcmd_", 9)) || !p) {
		free(text);
		return NULL;
	}
	p += 4;
	e = p + strcspn(p, "\n");
	*e = '\0';
	a = p + strcspn(p, " ");         /* the first word */
	if (a - p >= (int)sizeof(front) - 2 &&
	    !strncmp(a - (sizeof(front) - 2), front, sizeof(front) - 1))
		p = a + 1;
	a = replace(p, "$(pound)", "#");
	b = replace(a, "$$", "$");
	free(a);
	free(text);
	return b;
}

/* generalize - @s with the build directory and module name replaced by
 * the placeholders (heap; @s freed). */
static char *generalize(char *s, const char *dir, const char *mod)
{
	char *a = replace(s, dir, "@DIR@"), *b = replace(a, mod, "@MOD@");
	free(a);
	free(s);
	return b;
}

char *fastbuild_specialize(const char *s, const char *dir, const char *mod)
{
	char *a = replace(s, "@DIR@", dir), *b = replace(a, "@MOD@", mod);
	free(a);
	return b;
}

/* ---- the recipe file: MAGIC, then each part as "LENGTH\nBYTES\n" ---- */

static char **recipe_field(struct recipe *r, int i)
{
	char **f[] = { &r->cc_script, &r->ld_o, &r->cc_mod, &r->ld_ko,
		       &r->modc_head, &r->modc_tail, &r->btf_ko };
	return f[i];
}
#define RECIPE_FIELDS 7

static void recipe_free(struct recipe *r)
{
	int i;
	for (i = 0; i < RECIPE_FIELDS; i++)
		free(*recipe_field(r, i));
	memset(r, 0, sizeof(*r));
}

static int recipe_load(const char *cache, struct recipe *r)
{
	char *path = xasprintf("%s/" RECIPE, cache), *text, *p;
	size_t len;
	int i;
	memset(r, 0, sizeof(*r));
	/* the recipe's commands are run: only the user's own */
	if (owned_private(path) != 1 || owned_private(cache) != 1) {
		free(path);
		return -1;
	}
	text = read_file(path, &len);
	free(path);
	if (!text || strncmp(text, RECIPE_MAGIC, strlen(RECIPE_MAGIC))) {
		free(text);
		return -1;
	}
	p = text + strlen(RECIPE_MAGIC);
	for (i = 0; i < RECIPE_FIELDS; i++) {
		char *end;
		unsigned long n = strtoul(p, &end, 10);
		if (*end != '\n' || (size_t)(end + 1 - text) + n > len) {
			free(text);
			return -1;
		}
		*recipe_field(r, i) = xstrndup(end + 1, n);
		p = end + 1 + n + 1;
	}
	free(text);
	return 0;
}

void fastbuild_record(const char *dir, const char *mod, const char *cache)
{
	struct recipe r = {0};
	struct strbuf b = {0};
	char *path, *tmp, *p, *modc, *v, *t, *env;
	int i, ok = 1;
	FILE *f;
	path = xasprintf("%s/" RECIPE, cache);
	if (access(path, F_OK) == 0) {
		free(path);
		return;
	}
	r.cc_script = cmd_of(xasprintf("%s/gen/.script.o.cmd", dir));
	r.ld_o = cmd_of(xasprintf("%s/.%s.o.cmd", dir, mod));
	r.cc_mod = cmd_of(xasprintf("%s/.%s.mod.o.cmd", dir, mod));
	r.ld_ko = cmd_of(xasprintf("%s/.%s.ko.cmd", dir, mod));
	p = xasprintf("%s/" KBUILD_BTF_CMD, dir);
	r.btf_ko = read_file(p, NULL);
	free(p);
	if (r.btf_ko)
		r.btf_ko[strcspn(r.btf_ko, "\n")] = '\0';
	else
		r.btf_ko = xstrdup("");
	/* kbuild's environment, for objtool (ld_o) and pahole (btf_ko) */
	p = xasprintf("%s/" KBUILD_ENV, dir);
	env = read_file(p, NULL);
	free(p);
	if (env) {
		env[strcspn(env, "\n")] = '\0';
		if (r.ld_o) {
			t = xasprintf("%s %s", env, r.ld_o);
			free(r.ld_o);
			r.ld_o = t;
		}
		if (*r.btf_ko) {
			t = xasprintf("%s %s", env, r.btf_ko);
			free(r.btf_ko);
			r.btf_ko = t;
		}
		free(env);
	}
	/* the object every module links (6.12), kept in the cache */
	p = xasprintf("%s/.module-common.o", dir);
	if (r.ld_ko && strstr(r.ld_ko, p)) {
		char *dst = xasprintf("%s/" MODULE_COMMON, cache), *t2;
		size_t len;
		char *obj = read_file(p, &len);
		FILE *of = obj ? fopen(dst, "wb") : NULL;
		int ok2 = of && fwrite(obj, 1, len, of) == len;
		if (of && fclose(of) != 0)
			ok2 = 0;
		free(obj);
		if (ok2) {
			t2 = replace(r.ld_ko, p, dst);
			free(r.ld_ko);
			r.ld_ko = t2;
		} else {
			free(r.ld_ko);
			r.ld_ko = NULL;
		}
		free(dst);
	}
	free(p);
	p = xasprintf("%s/%s.mod.c", dir, mod);
	modc = read_file(p, NULL);
	free(p);
	/* NAME.mod.c: the head up to the __versions table, the tail after
	 * it (module dependencies, which are written anew) */
	v = modc ? strstr(modc, "static const struct modversion_info") : NULL;
	t = v ? strstr(v, "\n};\n") : NULL;
	if (t && (p = strstr(t, "MODULE_INFO(depends,"))) {
		r.modc_head = xstrndup(modc, v - modc);
		r.modc_tail = xstrdup(strchr(p, '\n') ? strchr(p, '\n') + 1 : "");
	}
	free(modc);
	for (i = 0; i < RECIPE_FIELDS; i++)
		if (!*recipe_field(&r, i))
			ok = 0;
	if (ok) {
		strbuf_add(&b, RECIPE_MAGIC);
		for (i = 0; i < RECIPE_FIELDS; i++) {
			char *g = generalize(xstrdup(*recipe_field(&r, i)), dir,
					     mod);
			strbuf_printf(&b, "%zu\n%s\n", strlen(g), g);
			free(g);
		}
		tmp = xasprintf("%s.tmp%d", path, (int)getpid());
		f = fopen(tmp, "w");
		if (f && fwrite(b.s, 1, b.len, f) == b.len && fclose(f) == 0) {
			if (rename(tmp, path) == 0 && stp_verbose > 1)
				fprintf(stderr, "stap: recorded the kbuild "
					"commands in %s\n", path);
		} else if (f) {
			fclose(f);
		}
		unlink(tmp);
		free(tmp);
	} else if (stp_verbose > 1) {
		fprintf(stderr, "stap: kbuild's commands not recorded (a .cmd "
			"file or NAME.mod.c is not as expected)\n");
	}
	for (i = 0; i < RECIPE_FIELDS; i++)
		free(*recipe_field(&r, i));
	free(b.s);
	free(path);
}

/* ---- running the commands ---- */

int fastbuild_run_sh(const char *cmd, const char *cwd, const char *log)
{
	/* posix_spawn, not fork: no copy of the translator's page tables */
	char *argv[] = { "sh", "-c", (char *)cmd, NULL };
	extern char **environ;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc;
	if (posix_spawn_file_actions_init(&fa) != 0)
		return -1;
	rc = posix_spawn_file_actions_addopen(&fa, 1, log,
			O_WRONLY | O_CREAT | O_APPEND, 0644) ||
	     posix_spawn_file_actions_adddup2(&fa, 1, 2) ||
	     posix_spawn_file_actions_addchdir_np(&fa, cwd) ||
	     posix_spawn(&pid, "/bin/sh", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0 || waitpid(pid, &st, 0) < 0)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* run_recorded - recorded command @tmpl for this session's module (in
 * its tmpdir), run in the kernel build tree with output appended to
 * @log; returns fastbuild_run_sh's status (0: success). */
static int run_recorded(struct session *s, const char *tmpl, const char *log)
{
	char *cmd = fastbuild_specialize(tmpl, s->tmpdir, s->module_name);
	int rc = fastbuild_run_sh(cmd, s->kernel_build, log);
	free(cmd);
	return rc;
}

/* ---- what modpost would write ---- */

struct symver {
	char *name;
	unsigned long crc;
	int from_vmlinux;
	int namespaced;
};

static int symver_cmp(const void *a, const void *b)
{
	return strcmp(((const struct symver *)a)->name,
		      ((const struct symver *)b)->name);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* load_symvers - the entries of the kernel's Module.symvers for the
 * symbols named in @names ("w:" prefixes ignored) and module_layout,
 * sorted by symbol; the count or -1.  One pass over the file, keeping
 * only those (it has some 15000 entries, a module uses a few hundred). */
static int load_symvers(const char *build, const struct vec *names,
			struct symver **out)
{
	char *path = xasprintf("%s/Module.symvers", build);
	char *text = read_file(path, NULL), *line, *save = NULL;
	const char **want = xcalloc(names->n + 1, sizeof(*want));
	struct symver *v = NULL;
	int n = 0, cap = 0, nw = 0, i;
	free(path);
	if (!text) {
		free(want);
		return -1;
	}
	for (i = 0; i < names->n; i++) {
		const char *nm = names->items[i];
		want[nw++] = strncmp(nm, "w:", 2) ? nm : nm + 2;
	}
	want[nw++] = "module_layout";
	qsort(want, nw, sizeof(*want), name_cmp);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[5] = {0}, *p = line;
		int k;
		for (k = 0; k < 5; k++) {
			f[k] = p;
			p = strchr(p, '\t');
			if (!p)
				break;
			*p++ = '\0';
		}
		if (k < 3 || !bsearch(&f[1], want, nw, sizeof(*want), name_cmp))
			continue;
		if (n == cap)
			v = xrealloc(v, (cap = cap ? 2 * cap : 256) * sizeof(*v));
		v[n].crc = strtoul(f[0], NULL, 16);
		v[n].name = xstrdup(f[1]);
		v[n].from_vmlinux = !strcmp(f[2], "vmlinux");
		v[n].namespaced = k >= 4 && f[4] && *f[4];
		n++;
	}
	free(text);
	free(want);
	qsort(v, n, sizeof(*v), symver_cmp);
	*out = v;
	return n;
}

/* undefined_symbols - the global undefined symbols of ELF object @path
 * into @names (heap strings, weak ones prefixed "w:"); 0 or -1. */
static int undefined_symbols(const char *path, struct vec *names)
{
	int fd = open(path, O_RDONLY), rc = -1;
	Elf *e;
	Elf_Scn *scn = NULL;
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (i = 1; d && i < n; i++) {
			GElf_Sym s;
			const char *nm;
			int bind;
			if (!gelf_getsym(d, i, &s) || s.st_shndx != SHN_UNDEF)
				continue;
			bind = GELF_ST_BIND(s.st_info);
			nm = elf_strptr(e, sh.sh_link, s.st_name);
			if (!nm || !*nm || (bind != STB_GLOBAL && bind != STB_WEAK))
				continue;
			/* defined by NAME.mod.c itself */
			if (!strcmp(nm, "__this_module"))
				continue;
			vec_push(names, xasprintf("%s%s",
				 bind == STB_WEAK ? "w:" : "", nm));
		}
		rc = 0;
	}
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

/* write_modc - NAME.mod.c for the composite object @obj; 0, or 1 (with
 * *@why) when modpost's checks are needed, -1 on an error. */
static int write_modc(struct session *s, const struct recipe *r,
		      const char *obj, const char *path, const char **why)
{
	struct symver *sv = NULL, key;
	struct vec und = {0};
	struct strbuf b = {0};
	int n, i, rc = 0, layout = 0;
	if (undefined_symbols(obj, &und) < 0) {
		*why = "cannot read the linked object's symbols";
		rc = 1;
		n = 0;
		goto out;
	}
	if ((n = load_symvers(s->kernel_build, &und, &sv)) < 0) {
		*why = "no Module.symvers in the kernel build tree";
		rc = 1;
		n = 0;
		goto out;
	}
	strbuf_add(&b, r->modc_head);
	strbuf_add(&b, "static const struct modversion_info ____versions[]\n"
		   "__used __section(\"__versions\") = {\n");
	for (i = 0; i < und.n && rc == 0; i++) {
		const char *nm = und.items[i];
		int weak = !strncmp(nm, "w:", 2);
		struct symver *f;
		key.name = (char *)(weak ? nm + 2 : nm);
		f = bsearch(&key, sv, n, sizeof(*sv), symver_cmp);
		if (!f) {
			if (weak)
				continue;
			*why = "a symbol the kernel does not export";
			rc = 1;
		} else if (!f->from_vmlinux || f->namespaced) {
			*why = "a symbol of a module or a namespace";
			rc = 1;
		} else {
			strbuf_printf(&b, "\t{ %#lx, \"%s\" },\n", f->crc, f->name);
			layout |= !strcmp(f->name, "module_layout");
		}
	}
	if (rc == 0) {
		key.name = "module_layout";
		if (!layout && bsearch(&key, sv, n, sizeof(*sv), symver_cmp))
			strbuf_printf(&b, "\t{ %#lx, \"module_layout\" },\n",
				      ((struct symver *)bsearch(&key, sv, n,
				       sizeof(*sv), symver_cmp))->crc);
		strbuf_add(&b, "};\n\nMODULE_INFO(depends, \"\");\n");
		strbuf_add(&b, r->modc_tail);
		FILE *f = fopen(path, "w");
		if (!f || fwrite(b.s, 1, b.len, f) != b.len) {
			*why = "cannot write NAME.mod.c";
			rc = -1;
		}
		if (f && fclose(f) != 0)
			rc = -1;
	}
out:
	for (i = 0; i < und.n; i++)
		free(und.items[i]);
	free(und.items);
	for (i = 0; i < n; i++)
		free(sv[i].name);
	free(sv);
	free(b.s);
	return rc;
}

/* pch_use - whether this build compiles with the precompiled header of
 * @cache (@p planned from @r); starts building it when it is missing. */
static int pch_use(struct session *s, const struct recipe *r,
		   const char *cache, struct pch_plan *p)
{
	const char *e = getenv("STAP_PCH");
	char *rtdir;
	if ((e && !strcmp(e, "0")) ||
	    pch_plan_make(p, r->cc_script, r->cc_mod, r->modc_head,
			  s->kernel_build, cache) < 0)
		return 0;
	if (pch_ready(cache)) {
		pch_touch(cache);
		return 1;
	}
	rtdir = xasprintf("%s/runtime", s->tmpdir);
	pch_build(p, cache, rtdir, s->kernel_build);
	free(rtdir);
	return pch_ready(cache);
}

void fastbuild_pch(struct session *s, const char *cache)
{
	struct recipe r;
	struct pch_plan p = {0};
	if (recipe_load(cache, &r) == 0) {
		pch_use(s, &r, cache, &p);
		pch_plan_free(&p);
	}
	recipe_free(&r);
}

/* compile - the recorded compile @cc of the file whose KBUILD_BASENAME
 * is @base, with the precompiled header when @p is set (its per-file
 * macros written to @names first); 0 or non-zero. */
static int compile(struct session *s, const char *cc,
		   const struct pch_plan *p, const char *base,
		   const char *names, const char *log)
{
	char *h = NULL;
	int rc;
	if (p && !(h = pch_write_defines(p, s->tmpdir, s->module_name, base,
					 names)))
		return -1;
	rc = run_recorded(s, cc, log);
	free(h);
	return rc;
}

int fastbuild_module(struct session *s, const char *cache,
		     const char *const *rt_objs, int nobjs, char **ko)
{
	const char *dir = s->tmpdir, *mod = s->module_name, *why = NULL;
	struct recipe r;
	struct pch_plan plan = {0};
	char *log = xasprintf("%s/fastbuild.log", dir), *p, *cmd, *vml;
	struct strbuf list = {0};
	int i, rc = 1, pch = 0;
	FILE *f;
	if (getenv("STAP_FAST_BUILD") && !strcmp(getenv("STAP_FAST_BUILD"), "0"))
		why = "STAP_FAST_BUILD=0";
	else if (recipe_load(cache, &r) < 0)
		why = "no recorded kbuild commands yet";
	if (why) {
		if (stp_verbose > 1)
			fprintf(stderr, "stap: pass 4 with kbuild: %s\n", why);
		free(log);
		return 1;
	}
	vml = xasprintf("%s/vmlinux", s->kernel_build);
	if (access(vml, F_OK) == 0 && !*r.btf_ko) {
		why = "the kernel build tree has vmlinux (module BTF) and no "
		      "BTF command was recorded";
		goto out;
	}
	pch = pch_use(s, &r, cache, &plan);
	/* 1. the script's C, with the recorded compile command */
	if (compile(s, pch ? plan.cc_script : r.cc_script, pch ? &plan : NULL,
		    "script", PCH_NAMES_SCRIPT, log) != 0) {
		why = "compiling the script's C failed";
		goto out;
	}
	/* 2. the composite object: the runtime objects and the script, in
	 * kbuild's order (kbuild.c) */
	p = xasprintf("%s/%s.mod", dir, mod);
	for (i = 0; i < nobjs; i++)
		strbuf_printf(&list, "%s\n", rt_objs[i]);
	strbuf_printf(&list, "%s/gen/script.o\n", dir);
	f = fopen(p, "w");
	i = !f || fwrite(list.s, 1, list.len, f) != list.len;
	if (f && fclose(f) != 0)
		i = 1;
	free(p);
	if (i || run_recorded(s, r.ld_o, log) != 0) {
		why = "linking the composite object failed";
		goto out;
	}
	/* 3. NAME.mod.c as modpost writes it, compiled */
	p = xasprintf("%s/%s.o", dir, mod);
	cmd = xasprintf("%s/%s.mod.c", dir, mod);
	i = write_modc(s, &r, p, cmd, &why);
	free(p);
	free(cmd);
	if (i != 0)
		goto out;
	if (compile(s, pch && plan.cc_mod ? plan.cc_mod : r.cc_mod,
		    pch && plan.cc_mod ? &plan : NULL,
		    "@MOD@.mod", PCH_NAMES_MOD, log) != 0) {
		why = "compiling NAME.mod.c failed";
		goto out;
	}
	/* 4. NAME.ko, with the kernel's module linker script */
	if (run_recorded(s, r.ld_ko, log) != 0) {
		why = "linking NAME.ko failed";
		goto out;
	}
	/* 5. its BTF, as kbuild adds it */
	if (*r.btf_ko && access(vml, F_OK) == 0 &&
	    run_recorded(s, r.btf_ko, log) != 0) {
		why = "generating the module's BTF failed";
		goto out;
	}
	*ko = xasprintf("%s/%s.ko", dir, mod);
	rc = 0;
	if (stp_verbose > 1) {
		char *t = read_file(log, NULL);
		fprintf(stderr, "stap: pass 4 with the recorded kbuild commands "
			"(no make, no modpost%s)\n", pch ?
			", precompiled headers" : plan.cc_script ?
			", headers not precompiled yet" : "");
		/* the compiler rejected the .gch (-Winvalid-pch) */
		if (t && strstr(t, "Winvalid-pch"))
			fprintf(stderr, "stap: the precompiled header was not "
				"used:\n%s", t);
		free(t);
	}
out:
	if (rc && stp_verbose > 0)
		fprintf(stderr, "stap: pass 4 falls back to kbuild: %s\n", why);
	recipe_free(&r);
	pch_plan_free(&plan);
	free(list.s);
	free(vml);
	free(log);
	return rc;
}
