/* funcs.c - find_functions: the functions, inline instances and
 * statements a kernel.function / module().function / kernel.statement
 * point names, from the index (index.c) -- a wildcard over the whole
 * kernel never walks DIEs.  Each becomes a struct dbg_function at the
 * ELF symbol containing its address (a gcc clone "foo.isra.0" for an
 * out-of-line copy, the caller's symbol for an inline instance; "_stext"
 * when that name is ambiguous).  Left out: what the kernel's kprobe
 * checks refuse (ksyms_probeable(), and code patched at run time, see
 * reserved.c) and code without a symbol.
 */
#include "dwarf_int.h"
#include "strmap.h"
#include "debuginfo/ksyms.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* load_files - the index's file names, by id. */
static void load_files(struct dw_mod *m)
{
	sqlite3_stmt *st;
	if (m->files)
		return;
	m->files = xcalloc(1, sizeof(char *));
	if (sqlite3_prepare_v2(m->db, "SELECT id, path FROM files ORDER BY id",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int id = sqlite3_column_int(st, 0);
		if (id >= m->nfiles) {
			m->files = xrealloc(m->files, (id + 1) * sizeof(char *));
			memset(m->files + m->nfiles, 0,
			       (id + 1 - m->nfiles) * sizeof(char *));
			m->nfiles = id + 1;
		}
		m->files[id] = xstrdup((const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
}

/* load_exports - names with a __ksymtab_NAME symbol in @m's symtab. */
static struct strmap *load_exports(struct dw_mod *m)
{
	struct strmap *ex;
	int i, n;
	if (m->exports)
		return m->exports;
	ex = m->exports = xcalloc(1, sizeof(*ex));
	n = dwfl_module_getsymtab(m->mod);
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *name = dwfl_module_getsym(m->mod, i, &sym, NULL);
		if (name && strncmp(name, "__ksymtab_", 10) == 0)
			strmap_get(ex, name + 10, 1, NULL);
	}
	return ex;
}

static int is_exported(struct dw_prov *dp, struct dw_mod *m, struct ksyms *k,
		       const char *name)
{
	if (k && !m->name)
		return ksyms_exported(k, name);
	return strmap_get(load_exports(m), name, 0, NULL) != NULL;
}

int dw_file_matches(const char *pat, const char *path)
{
	const char *p;
	if (!path)
		return 0;
	if (fnmatch(pat, path, 0) == 0)
		return 1;
	for (p = strchr(path, '/'); p; p = strchr(p + 1, '/'))
		if (fnmatch(pat, p + 1, 0) == 0)
			return 1;
	return 0;
}

/* literal_prefix - the part of fnmatch pattern @pat before any
 * wildcard or escape; *@exact: @pat has none. */
static char *literal_prefix(const char *pat, int *exact)
{
	size_t n = strcspn(pat, "*?[\\");
	*exact = pat[n] == '\0';
	return xstrndup(pat, n);
}

/* One line of a statement query and its lowest is_stmt address. */
struct line_pc {
	int line;
	Dwarf_Addr pc;
};

/* statement_pcs - for each line in [@lo, @hi] of a file matching @file
 * that has an is_stmt address inside function DIE @fn, the lowest such
 * address, in line order, into *@out (malloc'd); returns how many. */
static int statement_pcs(Dwarf_Die *fn, const char *file, int lo, int hi,
			 struct line_pc **out)
{
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t n, i;
	int k, count = 0, cap = 0;
	struct line_pc *v = NULL;
	*out = NULL;
	if (!dwarf_diecu(fn, &cu, NULL, NULL) ||
	    dwarf_getsrclines(&cu, &lines, &n) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		int ln = 0;
		bool stmt = false;
		Dwarf_Addr a;
		const char *src;
		char *rel;
		int ok;
		if (dwarf_lineno(l, &ln) != 0 || ln < lo || ln > hi ||
		    dwarf_linebeginstatement(l, &stmt) != 0 || !stmt ||
		    dwarf_lineaddr(l, &a) != 0 || dwarf_haspc(fn, a) <= 0)
			continue;
		for (k = 0; k < count && v[k].line != ln; k++)
			;
		if (k < count && a >= v[k].pc)
			continue;
		src = dwarf_linesrc(l, NULL, NULL);
		if (!src)
			continue;
		rel = dw_rel_path(&cu, src);
		ok = !file || dw_file_matches(file, rel);
		free(rel);
		if (!ok)
			continue;
		if (k == count) {
			if (count == cap) {
				cap = cap ? 2 * cap : 16;
				v = xrealloc(v, cap * sizeof(*v));
			}
			v[count++].line = ln;
		}
		v[k].pc = a;
	}
	/* line order (insertion sort: functions have few lines) */
	for (i = 1; i < (size_t)count; i++)
		for (k = i; k > 0 && v[k - 1].line > v[k].line; k--) {
			struct line_pc t = v[k];
			v[k] = v[k - 1];
			v[k - 1] = t;
		}
	*out = v;
	return count;
}

/* nearest_pcs - .nearest: for each line of [@lo, @hi], the line of
 * function DIE @fn (in @file) with code nearest to it (the later one of
 * two as near), each once, in line order, into *@out; returns how many */
static int nearest_pcs(Dwarf_Die *fn, const char *file, int lo, int hi,
		       struct line_pc **out)
{
	struct line_pc *all, *v = NULL;
	int n = statement_pcs(fn, file, 1, 1 << 30, &all), count = 0, l, k;
	*out = NULL;
	for (l = lo; n > 0 && l <= hi; l++) {
		int best = 0;
		for (k = 1; k < n; k++) {
			int d = abs(all[k].line - l), bd = abs(all[best].line - l);
			if (d < bd || (d == bd && all[k].line > all[best].line))
				best = k;
		}
		if (count && v[count - 1].line == all[best].line)
			continue;
		v = xrealloc(v, (count + 1) * sizeof(*v));
		v[count++] = all[best];
	}
	free(all);
	*out = v;
	return count;
}

/* spans_lines - function DIE @die has code for a line of @q's lines in
 * its file: function("*@FILE:LINE") names the functions that span LINE
 * (langref 4.2.1), not only the one declared there */
static int spans_lines(struct dw_mod *m, Dwarf_Off die,
		       const struct dbg_query *q, int lo, int hi)
{
	struct line_pc *pcs = NULL;
	Dwarf_Die d;
	int n;
	if (!dwarf_offdie(m->dw, die, &d))
		return 0;
	n = statement_pcs(&d, q->file, lo, hi, &pcs);
	free(pcs);
	return n > 0;
}

int dw_find_functions(struct dbg_provider *p, const struct dbg_query *q,
		      struct vec *out)
{
	struct dw_prov *dp = (struct dw_prov *)p;
	struct dw_mod *m = dw_mod_for(dp, q->module);
	struct ksyms *k;
	struct strbuf sql = {0};
	struct strmap seen = {0};
	sqlite3_stmt *st;
	char *prefix, *upper = NULL;
	int exact, count = 0;

	if (!m)
		return -1;
	k = m->name ? NULL : ksyms_for(dp->s);
	load_files(m);
	prefix = literal_prefix(q->func, &exact);
	strbuf_add(&sql, "SELECT name, die, file, line, entry, inlined "
		   "FROM funcs WHERE 1");
	if (exact)
		strbuf_add(&sql, " AND name = ?1");
	else if (*prefix) {
		upper = xasprintf("%s\xff", prefix);
		strbuf_add(&sql, " AND name >= ?1 AND name < ?2");
	}
	if (q->flags & DBG_Q_CALL)
		strbuf_add(&sql, " AND inlined = 0");
	if (q->flags & DBG_Q_INLINE)
		strbuf_add(&sql, " AND inlined = 1");
	if (sqlite3_prepare_v2(m->db, strbuf_str(&sql), -1, &st, NULL) !=
	    SQLITE_OK) {
		diag_error(NULL, "DWARF index query failed: %s",
			   sqlite3_errmsg(m->db));
		return -1;
	}
	if (exact || *prefix)
		sqlite3_bind_text(st, 1, prefix, -1, SQLITE_STATIC);
	if (upper)
		sqlite3_bind_text(st, 2, upper, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		Dwarf_Off die = sqlite3_column_int64(st, 1);
		int fid = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 :
			  sqlite3_column_int(st, 2);
		const char *file = fid >= 0 && fid < m->nfiles ? m->files[fid]
							       : NULL;
		int line = sqlite3_column_int(st, 3);
		Dwarf_Addr entry = sqlite3_column_int64(st, 4), pc = entry;
		int inlined = sqlite3_column_int(st, 5), exported = 0;
		const struct dw_sym *fs;
		const char *sym;
		uint64_t off;
		struct dbg_function *fn;
		struct dw_fn *h;
		char key[64];

		if (!exact && fnmatch(q->func, name, 0) != 0)
			continue;
		if (q->file && !dw_file_matches(q->file, file))
			continue;
		/* the lines asked for: "+N" counts from the declaration */
		int lo = q->line + (q->line_relative ? line : 0);
		int hi = (q->line_end > q->line ? q->line_end : q->line) +
			 (q->line_relative ? line : 0);
		if (q->line && !(q->flags & DBG_Q_STATEMENT) && lo != line &&
		    !spans_lines(m, die, q, lo, hi))
			continue;
		struct line_pc one = { line, entry }, *pcs = &one;
		int npcs = 1;
		if (q->flags & DBG_Q_STATEMENT) {
			Dwarf_Die d;
			if (!dwarf_offdie(m->dw, die, &d))
				continue;
			npcs = (q->flags & DBG_Q_NEAREST) ?
				nearest_pcs(&d, q->file, lo, hi, &pcs) :
				statement_pcs(&d, q->file, lo, hi, &pcs);
		}
		/* each statement address (one: the entry, for functions) */
		for (int li = 0; li < npcs; li++) {
		pc = pcs[li].pc;
		if (!(fs = dw_sym_at(m, pc, &off)) || dw_reserved(m, pc) ||
		    (k && (!ksyms_probeable(k, fs->name) ||
			   ksyms_refused_at(k, pc))) ||
		    !(sym = dw_kprobe_at(m, pc, &off)))
			continue;
		if (inlined && !(q->flags & DBG_Q_INLINE) &&
		    !strncmp(fs->name, name, strlen(name)) &&
		    (fs->name[strlen(name)] == 0 || fs->name[strlen(name)] == '.'))
			/* inlined into its own out-of-line copy (gcc's partial
			 * inlining): that call is already probed at the entry */
			continue;
		if (!inlined || (q->flags & DBG_Q_EXPORTED))
			exported = is_exported(dp, m, k, name);
		if ((q->flags & DBG_Q_EXPORTED) && !exported)
			continue;
		if (q->flags & DBG_Q_STATEMENT) {
			/* several instances may share a statement address */
			int created;
			snprintf(key, sizeof(key), "%llx", (unsigned long long)pc);
			strmap_get(&seen, key, 1, &created);
			if (!created)
				continue;
		}
		fn = xcalloc(1, sizeof(*fn));
		h = xcalloc(1, sizeof(*h));
		h->m = m;
		h->die = die;
		fn->prov = p;
		fn->name = xstrdup(name);
		fn->module = m->name;
		fn->file = (char *)file;
		fn->line = (q->flags & DBG_Q_STATEMENT) ? pcs[li].line : line;
		fn->symbol = xstrdup(sym);
		fn->offset = off;
		fn->pc = pc;
		fn->entry_pc = entry;
		fn->inlined = inlined;
		fn->exported = exported;
		fn->handle = h;
		vec_push(out, fn);
		count++;
		}
		if (pcs != &one)
			free(pcs);
	}
	sqlite3_finalize(st);
	strmap_free(&seen);
	free(strbuf_detach(&sql));
	free(prefix);
	free(upper);
	return count;
}
