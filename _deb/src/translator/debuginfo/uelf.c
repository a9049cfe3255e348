/* uelf.c - user-space programs' ELF files for process(...) probes:
 * finding the program ($PATH, --sysroot) and its function symbols with
 * libelf (see uelf.h). */
#include "debuginfo/uelf.h"
#include "uelf_int.h"

#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_regular(const char *f)
{
	struct stat st;
	return stat(f, &st) == 0 && S_ISREG(st.st_mode);
}

/* host_file - the file to read for target path @path: SYSROOT/PATH when
 * it exists, else PATH; NULL when neither is a regular file. */
static char *host_file(const char *path, const char *sysroot)
{
	if (sysroot && *sysroot) {
		char *h = xasprintf("%s%s", sysroot, path);
		if (is_regular(h))
			return h;
		free(h);
	}
	return is_regular(path) ? xstrdup(path) : NULL;
}

int uelf_resolve(const char *name, const char *sysroot, char **target,
		 char **host, char **err)
{
	const char *env = getenv("PATH"), *p, *e;
	struct strbuf searched = {0};
	if (!*name) {
		*err = xstrdup("empty program name");
		return -1;
	}
	if (name[0] == '/') {
		*host = host_file(name, sysroot);
		if (*host) {
			*target = xstrdup(name);
			return 0;
		}
		*err = sysroot && *sysroot ?
		       xasprintf("no program %s (looked for %s%s and %s)", name,
				 sysroot, name, name) :
		       xasprintf("no program %s", name);
		return -1;
	}
	for (p = env ? env : ""; *p; p = *e ? e + 1 : e) {
		char *t;
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		if (e == p || *p != '/')   /* only absolute directories */
			continue;
		t = xasprintf("%.*s/%s", (int)(e - p), p, name);
		strbuf_printf(&searched, "%s%.*s", searched.len ? ":" : "",
			      (int)(e - p), p);
		*host = host_file(t, sysroot);
		if (*host) {
			*target = t;
			free(searched.s);
			return 0;
		}
		free(t);
	}
	*err = xasprintf("no program '%s' in $PATH (searched %s)", name,
			 searched.len ? strbuf_str(&searched) : "nothing: "
			 "$PATH has no absolute directory");
	free(searched.s);
	return -1;
}

int uelf_glob(const char *pattern, const char *sysroot, struct vec *out)
{
	glob_t g;
	size_t i, skip = sysroot && *sysroot ? strlen(sysroot) : 0;
	char *pat = xasprintf("%s%s", skip ? sysroot : "", pattern);
	int n = 0;
	if (glob(pat, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++)
			if (is_regular(g.gl_pathv[i])) {
				vec_push(out, xstrdup(g.gl_pathv[i] + skip));
				n++;
			}
		globfree(&g);
	}
	free(pat);
	return n;
}

Elf *uelf_open(const char *host, int *fd, char **err)
{
	Elf *elf;
	elf_version(EV_CURRENT);
	*fd = open(host, O_RDONLY);
	if (*fd < 0) {
		if (err)
			*err = xasprintf("cannot open %s", host);
		return NULL;
	}
	elf = elf_begin(*fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (err)
			*err = xasprintf("%s is not an ELF file", host);
		uelf_close(elf, *fd);
		return NULL;
	}
	return elf;
}

void uelf_close(Elf *elf, int fd)
{
	if (elf)
		elf_end(elf);
	close(fd);
}

/* runpath - the DT_RUNPATH (else DT_RPATH) string of ELF file @f, heap,
 * or NULL */
static char *runpath(const char *f)
{
	int fd;
	Elf *elf = uelf_open(f, &fd, NULL);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	char *run = NULL, *rpath = NULL;
	if (!elf)
		return NULL;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNAMIC) {
			Elf_Data *d = elf_getdata(scn, NULL);
			size_t i, n = d && sh.sh_entsize ?
				      sh.sh_size / sh.sh_entsize : 0;
			for (i = 0; i < n; i++) {
				GElf_Dyn dyn;
				const char *v;
				if (!gelf_getdyn(d, i, &dyn) ||
				    (dyn.d_tag != DT_RUNPATH &&
				     dyn.d_tag != DT_RPATH))
					continue;
				v = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
				if (v && dyn.d_tag == DT_RUNPATH && !run)
					run = xstrdup(v);
				else if (v && !rpath)
					rpath = xstrdup(v);
			}
		}
	uelf_close(elf, fd);
	if (run) {
		free(rpath);
		return run;
	}
	return rpath;
}

int uelf_resolve_lib(const char *lib, const char *prog_host,
		     const char *prog_target, const char *sysroot,
		     char **target, char **host, char **err)
{
	static const char *const sysdirs[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
		"/usr/lib64", "/lib", "/usr/lib", NULL };
	struct vec dirs = {0};
	struct strbuf searched = {0};
	const char *slash = strrchr(prog_target, '/');
	char *origin = xstrndup(prog_target, slash ? (size_t)(slash - prog_target) : 0);
	char *rp = runpath(prog_host), *p, *save = NULL;
	int i, rc = -1;
	if (lib[0] == '/') {
		free(origin);
		free(rp);
		return uelf_resolve(lib, sysroot, target, host, err);
	}
	for (p = rp ? strtok_r(rp, ":", &save) : NULL; p;
	     p = strtok_r(NULL, ":", &save))
		vec_push(&dirs, !strncmp(p, "$ORIGIN", 7) ?
			 xasprintf("%s%s", origin, p + 7) : xstrdup(p));
	vec_push(&dirs, xstrdup(origin));
	for (i = 0; sysdirs[i]; i++)
		vec_push(&dirs, xstrdup(sysdirs[i]));
	for (i = 0; i < dirs.n; i++) {
		char *t;
		int j, seen = 0;
		for (j = 0; j < i && !seen; j++)
			seen = !strcmp(dirs.items[j], dirs.items[i]);
		if (seen)
			continue;
		t = xasprintf("%s/%s", (char *)dirs.items[i], lib);
		strbuf_printf(&searched, "%s%s", searched.len ? ":" : "",
			      (char *)dirs.items[i]);
		if (rc < 0 && t[0] == '/' && (*host = host_file(t, sysroot))) {
			*target = t;
			rc = 0;
		} else {
			free(t);
		}
	}
	if (rc < 0)
		*err = xasprintf("no library '%s' for %s (searched %s)", lib,
				 prog_target, strbuf_str(&searched));
	for (i = 0; i < dirs.n; i++)
		free(dirs.items[i]);
	free(dirs.items);
	free(searched.s);
	free(origin);
	free(rp);
	return rc;
}

uint64_t uelf_file_offset(Elf *elf, uint64_t a)
{
	size_t n, i;
	GElf_Phdr ph;
	if (elf_getphdrnum(elf, &n) != 0)
		return (uint64_t)-1;
	for (i = 0; i < n; i++)
		if (gelf_getphdr(elf, i, &ph) && ph.p_type == PT_LOAD &&
		    a >= ph.p_vaddr && a < ph.p_vaddr + ph.p_filesz)
			return a - (ph.p_vaddr - ph.p_offset);
	return (uint64_t)-1;
}

/* symbols - the first symbol table of type @type (SHT_SYMTAB,
 * SHT_DYNSYM) of @elf: its header in *@sh, its entries in *@data and
 * their number in *@n (0 when unreadable).  Returns 0 when @elf has no
 * such section (*@data NULL, *@n 0), else 1. */
static int symbols(Elf *elf, Elf64_Word type, GElf_Shdr *sh,
		   Elf_Data **data, size_t *n)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			break;
	*data = scn ? elf_getdata(scn, NULL) : NULL;
	*n = *data && sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	return scn != NULL;
}

static int by_addr(const void *a, const void *b)
{
	const struct uelf_sym *x = *(void *const *)a, *y = *(void *const *)b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int uelf_functions(const char *host, const char *pattern, struct vec *out,
		   char **err)
{
	int fd, found = 0, start = out->n;
	Elf *elf = uelf_open(host, &fd, err);
	GElf_Shdr sh;
	Elf_Data *data;
	size_t i, nsyms;
	if (!elf)
		return -1;
	if (!symbols(elf, SHT_SYMTAB, &sh, &data, &nsyms))
		symbols(elf, SHT_DYNSYM, &sh, &data, &nsyms);
	for (i = 0; i < nsyms; i++) {
		GElf_Sym sym;
		const char *name;
		int t, j, dup = 0;
		uint64_t off;
		struct uelf_sym *u;
		if (!gelf_getsym(data, i, &sym))
			continue;
		t = GELF_ST_TYPE(sym.st_info);
		if ((t != STT_FUNC && t != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || !sym.st_value)
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (!name || !*name || fnmatch(pattern, name, 0) != 0)
			continue;
		for (j = start; j < out->n && !dup; j++)
			dup = ((struct uelf_sym *)out->items[j])->addr ==
			      sym.st_value;
		off = uelf_file_offset(elf, sym.st_value);
		if (dup || off == (uint64_t)-1)
			continue;
		u = xcalloc(1, sizeof(*u));
		u->name = xstrdup(name);
		u->addr = sym.st_value;
		u->offset = off;
		u->size = sym.st_size;
		vec_push(out, u);
		found++;
	}
	qsort(out->items + start, found, sizeof(void *), by_addr);
	uelf_close(elf, fd);
	return found;
}

int uelf_exported(const char *host, const char *name)
{
	int fd, found = 0;
	Elf *elf = uelf_open(host, &fd, NULL);
	GElf_Shdr sh;
	Elf_Data *data;
	size_t i, nsyms;
	if (!elf)
		return 0;
	symbols(elf, SHT_DYNSYM, &sh, &data, &nsyms);
	for (i = 0; i < nsyms && !found; i++) {
		GElf_Sym sym;
		const char *n;
		int t, b;
		if (!gelf_getsym(data, i, &sym))
			continue;
		t = GELF_ST_TYPE(sym.st_info);
		b = GELF_ST_BIND(sym.st_info);
		n = elf_strptr(elf, sh.sh_link, sym.st_name);
		found = (t == STT_FUNC || t == STT_GNU_IFUNC) &&
			(b == STB_GLOBAL || b == STB_WEAK) &&
			sym.st_shndx != SHN_UNDEF && n && !strcmp(n, name);
	}
	uelf_close(elf, fd);
	return found;
}

Elf_Scn *uelf_section_named(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstr;
	if (elf_getshdrstrndx(elf, &shstr) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;
		if (!gelf_getshdr(scn, sh))
			continue;
		n = elf_strptr(elf, shstr, sh->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

int uelf_plt(const char *host, const char *pattern, struct vec *out,
	     char **err)
{
	int fd, found = 0;
	Elf *elf = uelf_open(host, &fd, err);
	Elf_Scn *rela, *plt, *dynsym;
	GElf_Shdr rsh, psh, dsh;
	Elf_Data *rd, *dd;
	uint64_t base, first;
	size_t i, n;
	if (!elf)
		return -1;
	rela = uelf_section_named(elf, ".rela.plt", &rsh);
	plt = uelf_section_named(elf, ".plt.sec", &psh);
	first = 0;
	if (!plt) {
		plt = uelf_section_named(elf, ".plt", &psh);
		first = 1;      /* PLT0 first */
	}
	dynsym = rela ? elf_getscn(elf, rsh.sh_link) : NULL;
	rd = rela ? elf_getdata(rela, NULL) : NULL;
	dd = dynsym && gelf_getshdr(dynsym, &dsh) ? elf_getdata(dynsym, NULL)
						   : NULL;
	n = rd && plt && dd && rsh.sh_entsize ? rsh.sh_size / rsh.sh_entsize : 0;
	base = plt ? psh.sh_addr : 0;
	for (i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name;
		struct uelf_sym *u;
		uint64_t a = base + 16 * (i + first), off;
		if (!gelf_getrela(rd, i, &r) ||
		    GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT ||
		    !gelf_getsym(dd, GELF_R_SYM(r.r_info), &sym))
			continue;
		name = elf_strptr(elf, dsh.sh_link, sym.st_name);
		if (!name || !*name || fnmatch(pattern, name, 0) ||
		    a + 16 > base + psh.sh_size ||
		    (off = uelf_file_offset(elf, a)) == (uint64_t)-1)
			continue;
		u = xcalloc(1, sizeof(*u));
		u->name = xstrdup(name);
		u->addr = a;
		u->offset = off;
		u->size = 16;
		vec_push(out, u);
		found++;
	}
	uelf_close(elf, fd);
	return found;
}

int64_t uelf_offset(const char *host, uint64_t addr)
{
	int fd;
	Elf *elf = uelf_open(host, &fd, NULL);
	uint64_t off;
	if (!elf)
		return -1;
	off = uelf_file_offset(elf, addr);
	uelf_close(elf, fd);
	return off == (uint64_t)-1 ? -1 : (int64_t)off;
}

void uelf_free_sym(struct uelf_sym *u)
{
	if (!u)
		return;
	free(u->name);
	free(u);
}
