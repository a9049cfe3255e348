/* open.c - finding and opening the kernel's DWARF (dbg_dwarf_open), and
 * a module's on first use.
 *
 * The kernel's debuginfo is the first of, under the session's sysroot:
 * /usr/lib/debug/boot/vmlinux-KVER, /usr/lib/debug/lib/modules/KVER/vmlinux,
 * /boot/vmlinux-KVER, KBUILD/vmlinux.  A module's is
 * /usr/lib/debug/lib/modules/KVER/kernel/.../MOD.ko ('-' and '_' alike).
 * Files are opened through libdwfl "offline" reporting, which relocates
 * ET_REL module files as the kernel would lay them out.
 *
 * When none is installed and DEBUGINFOD_URLS names servers, they are
 * asked by build-id (debuginfod.h): the kernel's from its running image
 * (/sys/kernel/notes) or the sysroot's /boot/vmlinuz-KVER, a module's
 * from its .ko under /lib/modules/KVER/kernel.
 */
#include "dwarf_int.h"
#include "strmap.h"
#include "debuginfo/debuginfod.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dbgd_find_debuginfo,  /* sysroot, host, servers */
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &dbgd_debuginfo_path,
};

static char *rooted(struct session *s, const char *path)
{
	const char *root = s->sysroot && *s->sysroot ? s->sysroot : "";
	size_t n = strlen(root);
	while (n && root[n - 1] == '/')
		n--;
	return xasprintf("%.*s%s", (int)n, root, path);
}

/* open_file - report @path to a new Dwfl; NULL with *why on failure. */
static struct dw_mod *open_file(const char *name, const char *path,
				char **why)
{
	struct dw_mod *m = xcalloc(1, sizeof(*m));
	m->dwfl = dwfl_begin(&offline_callbacks);
	if (!m->dwfl)
		goto fail;
	dwfl_report_begin(m->dwfl);
	m->mod = dwfl_report_offline(m->dwfl, name ? name : "kernel", path, -1);
	dwfl_report_end(m->dwfl, NULL, NULL);
	if (!m->mod)
		goto fail;
	m->dw = dwfl_module_getdwarf(m->mod, &m->bias);
	if (!m->dw)
		goto fail;
	m->cfi = dwarf_getcfi(m->dw);
	if (!m->cfi) {
		Dwarf_Addr b;
		m->cfi = dwfl_module_eh_cfi(m->mod, &b);
	}
	m->name = name ? xstrdup(name) : NULL;
	m->path = xstrdup(path);
	if (dw_index_open(m) < 0) {
		*why = xasprintf("cannot index %s", path);
		return NULL;
	}
	return m;
fail:
	*why = xasprintf("%s: %s", path, dwfl_errmsg(-1));
	if (m->dwfl)
		dwfl_end(m->dwfl);
	free(m);
	return NULL;
}

struct dw_mod *dw_open_file(const char *name, const char *path, char **why)
{
	return open_file(name, path, why);
}

void dw_mod_release(struct dw_mod *m)
{
	if (m->db)
		sqlite3_close(m->db);
	if (m->dwfl)
		dwfl_end(m->dwfl);
	m->db = NULL;
	m->dwfl = NULL;
	m->dw = NULL;
}

static int has_debug_info(const char *path)
{
	return access(path, R_OK) == 0;
}

static const struct dbg_provider dwarf_provider = {
	.name = "dwarf",
	.find_functions = dw_find_functions,
	.lookup_var = dw_lookup_var,
	.list_vars = dw_list_vars,
	.return_type = dw_return_type,
	.lookup_type = dw_lookup_type,
	.lookup_global = dw_lookup_global,
};

/* new_provider - the DWARF provider of session @s over kernel file @m */
static struct dbg_provider *new_provider(struct session *s, struct dw_mod *m)
{
	struct dw_prov *dp = xcalloc(1, sizeof(*dp));
	dp->p = dwarf_provider;
	dp->s = s;
	dp->kernel = m;
	return &dp->p;
}

struct dbg_provider *dbg_dwarf_open(struct session *s, char **why)
{
	const char *kver = s->kernel_release;
	char *cands[4];
	struct strbuf searched = {0};
	int i, n = 0;

	cands[n++] = rooted(s, xasprintf("/usr/lib/debug/boot/vmlinux-%s", kver));
	cands[n++] = rooted(s, xasprintf("/usr/lib/debug/lib/modules/%s/vmlinux",
					 kver));
	cands[n++] = rooted(s, xasprintf("/boot/vmlinux-%s", kver));
	if (s->kernel_build)
		cands[n++] = xasprintf("%s/vmlinux", s->kernel_build);
	for (i = 0; i < n; i++) {
		char *err = NULL;
		struct dw_mod *m;
		if (!has_debug_info(cands[i])) {
			strbuf_printf(&searched, "%s%s", searched.len ? ", " : "",
				      cands[i]);
			continue;
		}
		m = open_file(NULL, cands[i], &err);
		if (!m) {
			strbuf_printf(&searched, "%s%s", searched.len ? ", " : "",
				      err);
			free(err);
			continue;
		}
		free(strbuf_detach(&searched));
		return new_provider(s, m);
	}
	if (dbgd_enabled()) {
		char *err = NULL, *path = dbgd_kernel(s, &err);
		struct dw_mod *m = path ? open_file(NULL, path, &err) : NULL;
		free(path);
		if (m) {
			free(strbuf_detach(&searched));
			return new_provider(s, m);
		}
		strbuf_printf(&searched, "; %s", err);
		free(err);
	}
	*why = xasprintf("no DWARF vmlinux found (searched %s)",
			 strbuf_str(&searched));
	free(strbuf_detach(&searched));
	return NULL;
}

/* same_modname - module names compare with '-' and '_' alike. */
static int same_modname(const char *a, const char *b, size_t blen)
{
	size_t i;
	for (i = 0; i < blen; i++, a++) {
		char x = *a == '-' ? '_' : *a, y = b[i] == '-' ? '_' : b[i];
		if (!*a || x != y)
			return 0;
	}
	return *a == '\0';
}

static const char *ftw_want;
static char *ftw_found;
static int ftw_compressed;      /* .ko.xz, .ko.gz, .ko.zst match too */

static int ftw_match(const char *path, const struct stat *st, int flag,
		     struct FTW *f)
{
	static const char *const exts[] = { ".ko", ".ko.xz", ".ko.gz",
					    ".ko.zst" };
	const char *base = path + f->base;
	size_t len = strlen(base), i, e;
	if (flag != FTW_F)
		return 0;
	for (i = 0; i < (ftw_compressed ? 4u : 1u); i++) {
		e = strlen(exts[i]);
		if (len > e && !strcmp(base + len - e, exts[i]) &&
		    same_modname(ftw_want, base, len - e)) {
			ftw_found = xstrdup(path);
			return 1;
		}
	}
	return 0;
}

/* module_from_server - module @module's debuginfo from the debuginfod
 * servers, by the build-id of its .ko under the sysroot's
 * /lib/modules/KVER/kernel: its local path (heap), or NULL with *@why. */
static char *module_from_server(struct dw_prov *dp, const char *module,
				char **why)
{
	char *dir = rooted(dp->s, xasprintf("/lib/modules/%s/kernel",
					    dp->s->kernel_release));
	char *what, *path;
	unsigned char id[64];
	size_t n;
	ftw_want = module;
	ftw_found = NULL;
	ftw_compressed = 1;
	nftw(dir, ftw_match, 16, FTW_PHYS);
	ftw_compressed = 0;
	if (!ftw_found) {
		*why = xasprintf("no %s/**/%s.ko to take its build-id from",
				 dir, module);
		free(dir);
		return NULL;
	}
	free(dir);
	n = dbgd_build_id(ftw_found, id, sizeof(id));
	if (!n) {
		*why = xasprintf("%s has no build-id note", ftw_found);
		free(ftw_found);
		return NULL;
	}
	what = xasprintf("module %s", module);
	path = dbgd_find(id, n, what, why);
	free(what);
	free(ftw_found);
	ftw_found = NULL;
	return path;
}

struct dw_mod *dw_mod_for(struct dw_prov *dp, const char *module)
{
	char *dir, *err = NULL;
	struct dw_mod *m;
	int i;
	if (!module || strcmp(module, "kernel") == 0)
		return dp->kernel;
	for (i = 0; i < dp->mods.n; i++) {
		m = dp->mods.items[i];
		if (same_modname(module, m->name, strlen(m->name)))
			return m;
	}
	for (i = 0; i < dp->failed.n; i++)
		if (strcmp(dp->failed.items[i], module) == 0)
			return NULL;
	vec_push(&dp->failed, xstrdup(module));
	dir = rooted(dp->s, xasprintf("/usr/lib/debug/lib/modules/%s/kernel",
				      dp->s->kernel_release));
	ftw_want = module;
	ftw_found = NULL;
	nftw(dir, ftw_match, 16, FTW_PHYS);
	if (!ftw_found && dbgd_enabled()) {
		ftw_found = module_from_server(dp, module, &err);
		if (!ftw_found) {
			diag_error(NULL, "no debuginfo for module '%s' (searched "
				   "%s/**/%s.ko; %s)  [man error::dwarf]", module,
				   dir, module, err);
			free(err);
			free(dir);
			return NULL;
		}
	}
	if (!ftw_found) {
		diag_error(NULL, "no debuginfo for module '%s' (searched "
			   "%s/**/%s.ko)  [man error::dwarf]", module, dir,
			   module);
		free(dir);
		return NULL;
	}
	free(dir);
	{
		/* the module's own name, with '_' for '-' (the file a
		 * server sent is named "debuginfo": the name asked for) */
		const char *base = strrchr(ftw_found, '/') + 1;
		char *name = strcmp(base, "debuginfo") ?
			     xstrndup(base, strlen(base) - 3) : xstrdup(module);
		char *c;
		for (c = name; *c; c++)
			if (*c == '-')
				*c = '_';
		m = open_file(name, ftw_found, &err);
		free(name);
	}
	if (!m) {
		diag_error(NULL, "cannot open debuginfo of module '%s': %s",
			   module, err);
		free(err);
		return NULL;
	}
	dp->failed.n--;
	vec_push(&dp->mods, m);
	return m;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct dw_sym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return y->global - x->global;   /* global symbols first */
}

/* load_syms - the function symbols of @m sorted by address (libdwfl's
 * own address lookup is a linear search per call). */
static void load_syms(struct dw_mod *m)
{
	int i, n = dwfl_module_getsymtab(m->mod);
	size_t k = 0;
	struct strmap names = {0};
	m->syms = xcalloc(n > 0 ? n : 1, sizeof(*m->syms));
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(m->mod, i, &sym, &addr,
							   NULL, NULL, NULL);
		if (!name || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		m->syms[k].addr = addr - m->bias;
		m->syms[k].size = sym.st_size;
		m->syms[k].name = name;
		m->syms[k].global = GELF_ST_BIND(sym.st_info) != STB_LOCAL;
		k++;
	}
	qsort(m->syms, k, sizeof(*m->syms), cmp_sym);
	m->nsyms = k;
	/* names used more than once, by any kind of symbol */
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name = dwfl_module_getsym(m->mod, i, &sym, NULL);
		struct strmap_ent *e;
		if (!name || !*name)
			continue;
		e = strmap_get(&names, name, 1, NULL);
		e->a++;
	}
	for (i = 0; i < (int)k; i++)
		m->syms[i].unique = strmap_get(&names, m->syms[i].name, 0,
					       NULL)->a == 0;
	strmap_free(&names);
}

const struct dw_sym *dw_sym_at(struct dw_mod *m, Dwarf_Addr addr,
			       uint64_t *off)
{
	size_t lo = 0, hi, best;
	const struct dw_sym *s;
	if (!m->syms)
		load_syms(m);
	hi = m->nsyms;
	/* the last symbol whose address is <= addr */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	best = lo - 1;
	/* the first (global first) of the symbols at that address */
	while (best > 0 && m->syms[best - 1].addr == m->syms[best].addr)
		best--;
	s = &m->syms[best];
	if (addr != s->addr && addr >= s->addr + s->size)
		return NULL;
	*off = addr - s->addr;
	return s;
}

const char *dw_kprobe_at(struct dw_mod *m, Dwarf_Addr addr, uint64_t *off)
{
	const struct dw_sym *s = dw_sym_at(m, addr, off);
	if (!s || s->unique || m->name)
		return s ? s->name : NULL;
	if (!m->stext_tried) {
		int i, n = dwfl_module_getsymtab(m->mod);
		m->stext_tried = 1;
		for (i = 1; i < n; i++) {
			GElf_Sym sym;
			const char *name = dwfl_module_getsym(m->mod, i, &sym,
							      NULL);
			if (name && strcmp(name, "_stext") == 0) {
				m->stext = sym.st_value - m->bias;
				m->has_stext = 1;
				break;
			}
		}
	}
	if (!m->has_stext || addr < m->stext || addr - m->stext > UINT32_MAX)
		return NULL;            /* cannot be named unambiguously */
	*off = addr - m->stext;
	return "_stext";
}

/* normalize - drop "DIR/../" and "./" components of @p in place
 * ("lib/zstd/decompress/../common/x.h" -> "lib/zstd/common/x.h"). */
static char *normalize(char *p)
{
	char *r = p, *w = p;
	while (*r) {
		if (r[0] == '.' && r[1] == '/' && (r == p || r[-1] == '/')) {
			r += 2;
			continue;
		}
		if (r[0] == '.' && r[1] == '.' && r[2] == '/' && w > p &&
		    (r == p || r[-1] == '/')) {
			char *q = w - 1;        /* w ends with '/' */
			while (q > p && q[-1] != '/')
				q--;
			if (!(q[0] == '.' && q[1] == '.' && q[2] == '/')) {
				w = q;
				r += 3;
				continue;
			}
		}
		*w++ = *r++;
	}
	*w = '\0';
	return p;
}

char *dw_rel_path(Dwarf_Die *cu, const char *path)
{
	Dwarf_Attribute a;
	const char *comp = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
	if (comp && *comp) {
		size_t n = strlen(comp);
		if (strncmp(path, comp, n) == 0 && path[n] == '/')
			path += n + 1;
	}
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	return normalize(xstrdup(path));
}
