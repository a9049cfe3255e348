/* udwarf.c - target variables of user-space functions from the program's
 * (or library's) own DWARF (see udwarf.h): the kernel side's DWARF
 * provider (dwarf/) on the program's file, its dw_mod marked user so that
 * every generated memory read is stp_read_user() and static addresses are
 * relocated by the file's load bias in the current process; separate
 * debuginfo is found by build-id under /usr/lib/debug/.build-id. */
#include "debuginfo/debuginfo.h"
#include "dwarf/dwarf_int.h"
#include "uelf_int.h"
#include "debuginfod.h"

#include <gelf.h>

#include <dwarf.h>
#include <fnmatch.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

/* ---- the program's DWARF through the kernel side's provider ---- */

/* The programs' DWARF opened so far, and the programs found without
 * any: struct dw_mod *, char * (host paths). */
static struct vec mods, failed;

/* forget_mods - util_on_reset: close and forget every opened program */
static void forget_mods(void)
{
	int i;
	for (i = 0; i < mods.n; i++)
		dw_mod_release(mods.items[i]);
	memset(&mods, 0, sizeof(mods));
	memset(&failed, 0, sizeof(failed));
}

/* user_mod - the opened DWARF (and index) of ELF file @host, whose path
 * in the target machine is @target; opened once per process.  NULL with
 * *@why (heap, may be NULL) when it has none. */
static struct dw_mod *user_mod(const char *host, const char *target,
			       char **why)
{
	struct dw_mod *m;
	const char *base;
	char *err = NULL;
	int i, fd;
	Elf *e;
	for (i = 0; i < mods.n; i++) {
		m = mods.items[i];
		if (!strcmp(m->path, host))
			return m;
	}
	for (i = 0; i < failed.n; i++)
		if (!strcmp(failed.items[i], host)) {
			*why = xasprintf("%s has no DWARF (build it with -g, "
					 "or install its -dbg/-dbgsym package%s%s)"
					 "  [man error::dwarf]", host,
					 dbgd_last_error() ? "; " : "",
					 dbgd_last_error() ? dbgd_last_error() : "");
			return NULL;
		}
	util_on_reset(forget_mods);
	base = strrchr(target, '/');
	m = dw_open_file(base ? base + 1 : target, host, &err);
	if (!m) {
		vec_push(&failed, xstrdup(host));
		*why = xasprintf("%s has no DWARF (%s; build it with -g, or "
				 "install its -dbg/-dbgsym package%s%s)  "
				 "[man error::dwarf]", host, err ? err : "?",
				 dbgd_last_error() ? "; " : "",
				 dbgd_last_error() ? dbgd_last_error() : "");
		free(err);
		return NULL;
	}
	m->user = 1;
	m->upath = xstrdup(target);
	e = uelf_open(host, &fd, NULL);
	if (e) {
		size_t np, k;
		if (elf_getphdrnum(e, &np) == 0)
			for (k = 0; k < np; k++) {
				GElf_Phdr ph;
				if (gelf_getphdr(e, (int)k, &ph) &&
				    ph.p_type == PT_LOAD) {
					m->uvaddr0 = ph.p_vaddr & ~0xfffULL;
					break;
				}
			}
		uelf_close(e, fd);
	}
	vec_push(&mods, m);
	return m;
}

static int udw_lookup_var(struct dbg_provider *p, struct dbg_function *fn,
			  const char *name, const char *loc_lit,
			  struct dbg_location *out, char **why)
{
	return dw_lookup_var(p, fn, name, loc_lit, out, why);
}

static struct dbg_provider udw_provider = {
	.name = "user-dwarf",
	.lookup_var = udw_lookup_var,
	.list_vars = dw_list_vars,
	.return_type = dw_return_type,
};

int udwarf_is_user(const struct dbg_function *fn)
{
	return fn && fn->prov == &udw_provider;
}

/* func_die - the subprogram DIE of @m whose entry is @addr */
static int func_die(struct dw_mod *m, uint64_t addr, Dwarf_Off *out)
{
	sqlite3_stmt *st;
	int rc = -1;
	if (sqlite3_prepare_v2(m->db, "SELECT die FROM funcs WHERE entry = ?1"
			       " AND inlined = 0", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, (int64_t)addr);
	if (sqlite3_step(st) == SQLITE_ROW) {
		*out = (Dwarf_Off)sqlite3_column_int64(st, 0);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

struct dbg_function *udwarf_function(const char *host, const char *target,
				     uint64_t addr, const char *name,
				     int is_return)
{
	(void)is_return;     /* values of .return probes are read at the
	                      * entry (elaborate/tvar.c saves them there) */
	return udwarf_at(host, target, addr, addr, name);
}

struct dbg_function *udwarf_at(const char *host, const char *target,
			       uint64_t addr, uint64_t pc, const char *name)
{
	char *why = NULL;
	struct dw_mod *m = user_mod(host, target, &why);
	struct dbg_function *fn;
	struct dw_fn *h;
	Dwarf_Off die;
	free(why);
	if (!m || func_die(m, addr, &die) < 0)
		return NULL;
	h = xcalloc(1, sizeof(*h));
	h->m = m;
	h->die = die;
	fn = xcalloc(1, sizeof(*fn));
	fn->prov = &udw_provider;
	fn->name = xstrdup(name);
	fn->pc = pc;
	fn->entry_pc = addr;
	fn->handle = h;
	return fn;
}

int udwarf_inlines(const char *host, const char *target, const char *pattern,
		   struct vec *out)
{
	char *why = NULL;
	struct dw_mod *m = user_mod(host, target, &why);
	sqlite3_stmt *st;
	int n = 0;
	free(why);
	if (!m || sqlite3_prepare_v2(m->db, "SELECT name, die, entry FROM funcs"
				     " WHERE inlined = 1 ORDER BY entry", -1,
				     &st, NULL) != SQLITE_OK)
		return 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		struct udwarf_inline *u;
		struct dw_fn *h;
		if (!name || fnmatch(pattern, name, 0))
			continue;
		u = xcalloc(1, sizeof(*u));
		u->name = xstrdup(name);
		u->addr = (uint64_t)sqlite3_column_int64(st, 2);
		h = xcalloc(1, sizeof(*h));
		h->m = m;
		h->die = (Dwarf_Off)sqlite3_column_int64(st, 1);
		u->fn = xcalloc(1, sizeof(*u->fn));
		u->fn->prov = &udw_provider;
		u->fn->name = xstrdup(name);
		u->fn->pc = u->fn->entry_pc = u->addr;
		u->fn->inlined = 1;
		u->fn->handle = h;
		vec_push(out, u);
		n++;
	}
	sqlite3_finalize(st);
	return n;
}

/* module_mod - the dw_mod of @module ("PATH" of @cast/@var: a program or
 * library, non-absolute names looked up in $PATH) or, NULL, of the
 * program of @fn */
static struct dw_mod *module_mod(struct session *s,
				 const struct dbg_function *fn,
				 const char *module, char **why)
{
	char *target = NULL, *host = NULL;
	struct dw_mod *m;
	if (!module) {
		if (!udwarf_is_user(fn)) {
			*why = xstrdup("no program named");
			return NULL;
		}
		return ((struct dw_fn *)fn->handle)->m;
	}
	if (uelf_resolve(module, s->sysroot, &target, &host, why) < 0)
		return NULL;
	m = user_mod(host, target, why);
	free(target);
	free(host);
	return m;
}

struct ctype *udwarf_lookup_type(struct session *s,
				 const struct dbg_function *fn,
				 const char *name, const char *module,
				 char **why)
{
	struct dw_mod *m = module_mod(s, fn, module, why);
	struct ctype *t;
	if (!m)
		return NULL;
	t = dw_find_type_any(m, name);
	if (!t)
		*why = xasprintf("no type '%s' in the DWARF of %s", name,
				 m->upath);
	return t;
}

int udwarf_lookup_global(struct session *s, const struct dbg_function *fn,
			 const char *name, const char *file,
			 const char *module, const char *loc_lit,
			 struct dbg_location *out, char **why)
{
	struct dw_mod *m = module_mod(s, fn, module, why);
	struct dw_prov dp = {0};
	if (!m)
		return -1;
	/* dw_lookup_global asks dw_mod_for(): the kernel slot is this one */
	dp.s = s;
	dp.kernel = m;
	return dw_lookup_global(&dp.p, name, file, NULL, loc_lit, out, why);
}

/* ---- statements ---- */

/* open_dwarf - the Dwarf of @host, its own or separate debuginfo found
 * by build-id (the last one opened is kept: the family asks about one
 * program many times), or NULL */
static struct { char *host; Dwfl *dwfl; Dwarf *dw; } last_dwarf;

/* forget_last_dwarf - util_on_reset: close the kept Dwarf */
static void forget_last_dwarf(void)
{
	if (last_dwarf.dwfl)
		dwfl_end(last_dwarf.dwfl);
	memset(&last_dwarf, 0, sizeof(last_dwarf));
}

static Dwarf *open_dwarf(const char *host)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dbgd_find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &dbgd_debuginfo_path,
	};
	if (!last_dwarf.host || strcmp(last_dwarf.host, host)) {
		Dwfl_Module *mod = NULL;
		Dwarf_Addr bias;
		free(last_dwarf.host);
		if (last_dwarf.dwfl)
			dwfl_end(last_dwarf.dwfl);
		util_on_reset(forget_last_dwarf);
		last_dwarf.host = xstrdup(host);
		last_dwarf.dw = NULL;
		last_dwarf.dwfl = dwfl_begin(&cb);
		if (last_dwarf.dwfl) {
			dwfl_report_begin(last_dwarf.dwfl);
			mod = dwfl_report_offline(last_dwarf.dwfl, "prog", host, -1);
			dwfl_report_end(last_dwarf.dwfl, NULL, NULL);
		}
		if (mod)
			last_dwarf.dw = dwfl_module_getdwarf(mod, &bias);
		/* the Dwfl stays open with the Dwarf until the next program */
	}
	return last_dwarf.dw;
}

/* first_pc - the lowest address of @die's first range (DW_AT_low_pc, or
 * the first of DW_AT_ranges, as link-time optimisation and hot/cold
 * splitting leave them): 0 on success */
static int first_pc(Dwarf_Die *die, Dwarf_Addr *lo)
{
	Dwarf_Addr base, start, end;
	if (dwarf_lowpc(die, lo) == 0)
		return 0;
	if (dwarf_ranges(die, 0, &base, &start, &end) > 0) {
		*lo = start;
		return 0;
	}
	return -1;
}

struct fn_range {
	char *name;
	int decl_line;          /* DW_AT_decl_line, 0: none */
	Dwarf_Addr entry;       /* the function's entry (first_pc) */
	Dwarf_Addr lo, hi;      /* one of its ranges */
};

struct collect_arg {
	const char *pat;
	struct vec *fns;        /* struct fn_range * */
};

static int collect_cb(Dwarf_Die *die, void *arg)
{
	struct collect_arg *a = arg;
	const char *n = dwarf_diename(die);
	Dwarf_Addr base, lo, hi, first;
	ptrdiff_t o = 0;
	int decl = 0;
	if (!n || fnmatch(a->pat, n, 0) || first_pc(die, &first))
		return DWARF_CB_OK;
	dwarf_decl_line(die, &decl);
	/* one entry per address range (a function split into hot and cold
	 * parts has two), all naming the function's entry */
	while ((o = dwarf_ranges(die, o, &base, &lo, &hi)) > 0) {
		struct fn_range *r = xcalloc(1, sizeof(*r));
		r->name = xstrdup(n);
		r->decl_line = decl;
		r->entry = first;
		r->lo = lo;
		r->hi = hi;
		vec_push(a->fns, r);
	}
	return DWARF_CB_OK;
}

/* file_matches - @pat matches @path whole or its last components */
static int file_matches(const char *pat, const char *path)
{
	const char *p;
	if (!fnmatch(pat, path, 0))
		return 1;
	for (p = path; (p = strchr(p, '/')); p++)
		if (!fnmatch(pat, p + 1, 0))
			return 1;
	return 0;
}

int udwarf_statements(const char *host, const char *func, const char *file,
		      int line, int rel, int nearest, struct vec *out,
		      char **err)
{
	Dwarf *dw = open_dwarf(host);
	Dwarf_Off off = 0, next;
	size_t hsize;
	int found = 0;
	if (!dw) {
		*err = xasprintf("%s has no DWARF line table (build it with "
				 "-g, or install its separate debuginfo: "
				 "/usr/lib/debug/.build-id/XX/REST.debug by "
				 "its build-id%s%s)  [man error::dwarf]", host,
				 dbgd_last_error() ? "; " : "",
				 dbgd_last_error() ? dbgd_last_error() : "");
		return -1;
	}
	for (; dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0;
	     off = next) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t nl, i;
		struct vec fns = {0};
		struct collect_arg ca = { func, &fns };
		int f;
		if (!dwarf_offdie(dw, off + hsize, &cu) ||
		    dwarf_getsrclines(&cu, &lines, &nl) != 0)
			continue;
		dwarf_getfuncs(&cu, collect_cb, &ca, 0);
		for (f = 0; f < fns.n; f++) {
			struct fn_range *r = fns.items[f];
			Dwarf_Addr best = 0;
			const char *bfile = NULL;
			int want = rel ? r->decl_line + line : line, bline = 0;
			for (i = 0; (!rel || r->decl_line) && i < nl; i++) {
				Dwarf_Line *l = dwarf_onesrcline(lines, i);
				Dwarf_Addr a;
				int ln;
				bool stmt = false;
				const char *src;
				if (!l || dwarf_lineno(l, &ln) ||
				    (ln != want && !nearest) ||
				    dwarf_lineaddr(l, &a) ||
				    dwarf_linebeginstatement(l, &stmt) || !stmt ||
				    a < r->lo || a >= r->hi)
					continue;
				src = dwarf_linesrc(l, NULL, NULL);
				if (!src || (file && !file_matches(file, src)))
					continue;
				/* the line nearest @want (the later of two as
				 * near), at its lowest address */
				if (bfile && ln != bline &&
				    (abs(ln - want) > abs(bline - want) ||
				     (abs(ln - want) == abs(bline - want) &&
				      ln < bline)))
					continue;
				if (!bfile || ln != bline || a < best) {
					best = a;
					bfile = src;
					bline = ln;
				}
			}
			if (bfile) {
				struct udwarf_stmt *st = xcalloc(1, sizeof(*st));
				st->func = xstrdup(r->name);
				st->func_addr = r->entry;
				st->addr = best;
				st->file = xstrdup(bfile);
				st->line = bline;
				vec_push(out, st);
				found++;
			}
			free(r->name);
			free(r);
		}
		free(fns.items);
	}
	return found;
}

/* ---- labels ---- */

struct label_arg {
	const char *func, *label;
	int after;
	Dwarf_Lines *lines;     /* the CU's line table, or NULL */
	size_t nlines;
	struct vec *out;
	int found;
};

/* after_label - the lowest address above @pc, below @hi, where @a's line
 * table starts a statement of a line other than @line of @file; 0 when
 * none */
static Dwarf_Addr after_label(struct label_arg *a, Dwarf_Addr pc,
			      Dwarf_Addr hi, const char *file, int line)
{
	Dwarf_Addr best = 0;
	size_t i;
	for (i = 0; i < a->nlines; i++) {
		Dwarf_Line *l = dwarf_onesrcline(a->lines, i);
		Dwarf_Addr at;
		bool stmt = false;
		int ln;
		const char *src;
		if (!l || dwarf_lineaddr(l, &at) || at <= pc || at >= hi ||
		    (best && at >= best) || dwarf_linebeginstatement(l, &stmt) ||
		    !stmt || dwarf_lineno(l, &ln))
			continue;
		src = dwarf_linesrc(l, NULL, NULL);
		if (ln != line || !src || !file || strcmp(src, file))
			best = at;
	}
	return best;
}

/* range_end - the end of the range of function @fn that holds @pc */
static Dwarf_Addr range_end(Dwarf_Die *fn, Dwarf_Addr pc)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t o = 0;
	while ((o = dwarf_ranges(fn, o, &base, &lo, &hi)) > 0)
		if (pc >= lo && pc < hi)
			return hi;
	return 0;
}

/* label_walk - the labels among @die's children (lexical blocks
 * followed, inlined functions not: their labels are theirs) */
static void label_walk(struct label_arg *a, Dwarf_Die *fn, const char *fname,
		       Dwarf_Addr entry, Dwarf_Die *die)
{
	Dwarf_Die c;
	if (dwarf_child(die, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);
		const char *n = dwarf_diename(&c);
		Dwarf_Addr pc, at, hi;
		struct udwarf_stmt *st;
		const char *file;
		int line = 0;
		if (tag == DW_TAG_lexical_block) {
			label_walk(a, fn, fname, entry, &c);
			continue;
		}
		if (tag != DW_TAG_label || !n || fnmatch(a->label, n, 0) ||
		    dwarf_lowpc(&c, &pc) != 0)
			continue;
		dwarf_decl_line(&c, &line);
		file = dwarf_decl_file(&c);
		at = pc;
		if (a->after) {
			hi = range_end(fn, pc);
			at = after_label(a, pc, hi, file, line);
			if (!at)
				continue;
		}
		st = xcalloc(1, sizeof(*st));
		st->func = xstrdup(fname);
		st->func_addr = entry;
		st->addr = at;
		st->file = xstrdup(file ? file : "??");
		st->line = line;
		st->label = xstrdup(n);
		if (a->after) {
			Dwarf_Line *l = NULL;
			size_t i;
			for (i = 0; i < a->nlines && !l; i++) {
				Dwarf_Addr la;
				bool stmt = false;
				l = dwarf_onesrcline(a->lines, i);
				if (dwarf_lineaddr(l, &la) || la != at ||
				    dwarf_linebeginstatement(l, &stmt) || !stmt)
					l = NULL;
			}
			if (l) {
				free(st->file);
				st->file = xstrdup(dwarf_linesrc(l, NULL, NULL));
				dwarf_lineno(l, &st->line);
			}
		}
		vec_push(a->out, st);
		a->found++;
	} while (dwarf_siblingof(&c, &c) == 0);
}

static int label_fn_cb(Dwarf_Die *die, void *arg)
{
	struct label_arg *a = arg;
	const char *n = dwarf_diename(die);
	Dwarf_Addr entry;
	if (!n || fnmatch(a->func, n, 0) || first_pc(die, &entry))
		return DWARF_CB_OK;
	label_walk(a, die, n, entry, die);
	return DWARF_CB_OK;
}

int udwarf_labels(const char *host, const char *func, const char *label,
		  int after, struct vec *out, char **err)
{
	Dwarf *dw = open_dwarf(host);
	Dwarf_Off off = 0, next;
	size_t hsize;
	struct label_arg a = { func, label, after, NULL, 0, out, 0 };
	if (!dw) {
		*err = xasprintf("%s has no DWARF (build it with -g, or install "
				 "its separate debuginfo: /usr/lib/debug/"
				 ".build-id/XX/REST.debug by its build-id)", host);
		return -1;
	}
	for (; dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0;
	     off = next) {
		Dwarf_Die cu;
		if (!dwarf_offdie(dw, off + hsize, &cu))
			continue;
		a.lines = NULL;
		a.nlines = 0;
		if (after && dwarf_getsrclines(&cu, &a.lines, &a.nlines) != 0)
			a.lines = NULL;
		dwarf_getfuncs(&cu, label_fn_cb, &a, 0);
	}
	return a.found;
}

/* ---- layouts ---- */

int udwarf_has_dwarf(const char *host)
{
	return open_dwarf(host) != NULL;
}

/* member_at - member @name of aggregate @t (anonymous members searched
 * in turn) into *@off (bytes, from @t's start) and *@m; 0, or -1 */
static int member_at(struct ctype *t, const char *name, int64_t *off,
		     struct ctype_member **m)
{
	int i;
	ctype_members(t);
	for (i = 0; i < t->nmembers; i++) {
		struct ctype_member *c = &t->members[i];
		int64_t inner;
		if (c->name && !strcmp(c->name, name)) {
			*off = (int64_t)c->offset;
			*m = c;
			return 0;
		}
		if (!c->name && c->type && (c->type->kind == CT_STRUCT ||
					    c->type->kind == CT_UNION) &&
		    member_at(c->type, name, &inner, m) == 0) {
			*off = (int64_t)c->offset + inner;
			return 0;
		}
	}
	return -1;
}

int udwarf_offsetof(const char *host, const char *target, const char *type,
		    const char *member, int bit, int64_t *out, char **why)
{
	struct dw_mod *m = user_mod(host, target, why);
	struct ctype *t = m ? dw_find_type_any(m, type) : NULL;
	struct ctype_member *cm = NULL;
	const char *p = member;
	int64_t off = 0;
	if (!m)
		return -1;
	if (!t) {
		*why = xasprintf("no type '%s' in the DWARF of %s", type, target);
		return -1;
	}
	if (!member) {
		*out = (int64_t)t->size;
		return 0;
	}
	while (p && *p) {
		const char *dot = strchr(p, '.');
		char *name = dot ? xstrndup(p, dot - p) : xstrdup(p);
		int64_t o;
		if (!t || (t->kind != CT_STRUCT && t->kind != CT_UNION) ||
		    member_at(t, name, &o, &cm) < 0) {
			*why = xasprintf("no member '%s' in type '%s' of %s "
					 "(its DWARF)", member, type, target);
			free(name);
			return -1;
		}
		free(name);
		off += o;
		t = cm->type;
		p = dot ? dot + 1 : NULL;
	}
	*out = bit ? 8 * off + (cm && cm->bit_size ? cm->bit_offset : 0) : off;
	return 0;
}
