/* index.c - the on-disk index of one debuginfo file, so that probe
 * points resolve without walking DIEs.
 *
 * $CACHE/dwarf/BUILDID.sqlite (cache_dir(), util.c) holds:
 *   files(id, path)                     decl files, relative to the build
 *   funcs(name, cu, die, file, line, entry, inlined, external)
 *                                       out-of-line functions (with code)
 *                                       and inline instances (name of the
 *                                       abstract origin, the call's entry)
 *   types(name, cu, die, decl)          "struct file", "size_t", "int":
 *                                       one per name, a definition if any
 *   globals(name, cu, die, file)        variables with a location
 * It is built once in one transaction into a temporary file that is then
 * renamed, so concurrent stap runs see a whole index or none.
 */
#include "dwarf_int.h"
#include "strmap.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define INDEX_VERSION "2"

struct builder {
	struct dw_mod *m;
	sqlite3 *db;
	sqlite3_stmt *ins_func, *ins_file, *ins_type, *ins_global;
	struct strmap files;    /* decl file as DWARF names it -> a: id */
	struct strmap types;    /* name -> a: die, b: cu, c: decl */
	Dwarf_Die cu;
	Dwarf_Off cu_off;
	int64_t nfuncs, ninl;
};

static int exec(sqlite3 *db, const char *sql)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		diag_error(NULL, "DWARF index: %s: %s", sql, err);
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/* file_id - the files.id of @die's decl file, or NULL (-1). */
static int64_t file_id(struct builder *b, Dwarf_Die *die)
{
	const char *f = dwarf_decl_file(die);
	struct strmap_ent *e;
	char *rel;
	int created;
	if (!f)
		return -1;
	e = strmap_get(&b->files, f, 1, &created);
	if (!created)
		return e->a;
	e->a = (int64_t)b->files.n;
	rel = dw_rel_path(&b->cu, f);
	sqlite3_bind_int64(b->ins_file, 1, e->a);
	sqlite3_bind_text(b->ins_file, 2, rel, -1, SQLITE_TRANSIENT);
	sqlite3_step(b->ins_file);
	sqlite3_reset(b->ins_file);
	free(rel);
	return e->a;
}

/* bind_die - bind the columns funcs and globals share: 1 name, 2 CU
 * offset, 3 DIE offset, 4 decl file id (NULL if unknown). */
static void bind_die(struct builder *b, sqlite3_stmt *st, Dwarf_Die *die,
		     const char *name)
{
	int64_t fid = file_id(b, die);
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (int64_t)b->cu_off);
	sqlite3_bind_int64(st, 3, (int64_t)dwarf_dieoffset(die));
	if (fid >= 0)
		sqlite3_bind_int64(st, 4, fid);
	else
		sqlite3_bind_null(st, 4);
}

/* die_pc - the entry address of a DIE with code: DW_AT_entry_pc or
 * DW_AT_low_pc, else the start of its first range.  0 or -1. */
static int die_pc(Dwarf_Die *die, Dwarf_Addr *pc)
{
	Dwarf_Addr base, start, end;
	if (dwarf_entrypc(die, pc) == 0)
		return 0;
	if (dwarf_ranges(die, 0, &base, &start, &end) > 0) {
		*pc = start;
		return 0;
	}
	return -1;
}

static void add_func(struct builder *b, Dwarf_Die *die, int inlined)
{
	Dwarf_Attribute a;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name,
								 &a));
	Dwarf_Addr pc;
	int line = 0;
	bool ext = false;
	sqlite3_stmt *st = b->ins_func;
	if (!name || die_pc(die, &pc) < 0)
		return;
	dwarf_decl_line(die, &line);
	dwarf_formflag(dwarf_attr_integrate(die, DW_AT_external, &a), &ext);
	bind_die(b, st, die, name);
	sqlite3_bind_int(st, 5, line);
	sqlite3_bind_int64(st, 6, (int64_t)pc);
	sqlite3_bind_int(st, 7, inlined);
	sqlite3_bind_int(st, 8, ext);
	sqlite3_step(st);
	sqlite3_reset(st);
	if (inlined)
		b->ninl++;
	else
		b->nfuncs++;
}

/* walk_inlines - inline instances anywhere inside @parent's body. */
static void walk_inlines(struct builder *b, Dwarf_Die *parent)
{
	Dwarf_Die c;
	if (dwarf_child(parent, &c) != 0)
		return;
	do {
		switch (dwarf_tag(&c)) {
		case DW_TAG_inlined_subroutine:
			add_func(b, &c, 1);
			/* fall through */
		case DW_TAG_lexical_block:
			walk_inlines(b, &c);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
}

static void add_type(struct builder *b, Dwarf_Die *die, const char *prefix)
{
	const char *name = dwarf_diename(die);
	struct strmap_ent *e;
	char buf[512];
	int decl = dwarf_hasattr(die, DW_AT_declaration);
	if (!name)
		return;
	snprintf(buf, sizeof(buf), "%s%s", prefix, name);
	e = strmap_get(&b->types, buf, 1, NULL);
	if (e->a >= 0 && (decl || !e->c))
		return;
	e->a = (int64_t)dwarf_dieoffset(die);
	e->b = (int64_t)b->cu_off;
	e->c = decl;
}

static void add_global(struct builder *b, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name,
								 &a));
	sqlite3_stmt *st = b->ins_global;
	if (!name || !dwarf_hasattr(die, DW_AT_location))
		return;
	bind_die(b, st, die, name);
	sqlite3_step(st);
	sqlite3_reset(st);
}

static void walk_cu(struct builder *b)
{
	Dwarf_Die c;
	if (dwarf_child(&b->cu, &c) != 0)
		return;
	do {
		switch (dwarf_tag(&c)) {
		case DW_TAG_subprogram:
			add_func(b, &c, 0);
			walk_inlines(b, &c);
			break;
		case DW_TAG_structure_type:
			add_type(b, &c, "struct ");
			break;
		case DW_TAG_union_type:
			add_type(b, &c, "union ");
			break;
		case DW_TAG_enumeration_type:
			add_type(b, &c, "enum ");
			break;
		case DW_TAG_typedef:
		case DW_TAG_base_type:
			add_type(b, &c, "");
			break;
		case DW_TAG_variable:
			add_global(b, &c);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
}

static int prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) != SQLITE_OK) {
		diag_error(NULL, "DWARF index: %s: %s", sql, sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/* info_size - the size of @m's .debug_info section in bytes, or 0 */
static size_t info_size(struct dw_mod *m)
{
	Elf *e = dwarf_getelf(m->dw);
	Elf_Scn *scn = NULL;
	size_t shstr;
	if (!e || elf_getshdrstrndx(e, &shstr) != 0)
		return 0;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *n;
		if (gelf_getshdr(scn, &sh) &&
		    (n = elf_strptr(e, shstr, sh.sh_name)) &&
		    !strcmp(n, ".debug_info"))
			return sh.sh_size;
	}
	return 0;
}

static int build(struct dw_mod *m, const char *tmp)
{
	struct builder b = {.m = m};
	Dwarf_Off off = 0, next;
	size_t total;
	size_t hsize;
	size_t i;
	struct timespec t0, t1;
	int rc = -1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (sqlite3_open(tmp, &b.db) != SQLITE_OK) {
		diag_error(NULL, "DWARF index: cannot create %s: %s", tmp,
			   sqlite3_errmsg(b.db));
		goto out;
	}
	if (exec(b.db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
		 "CREATE TABLE meta(k TEXT PRIMARY KEY, v TEXT);"
		 "CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT);"
		 "CREATE TABLE funcs(name TEXT, cu INTEGER, die INTEGER,"
		 " file INTEGER, line INTEGER, entry INTEGER, inlined INTEGER,"
		 " external INTEGER);"
		 "CREATE TABLE types(name TEXT PRIMARY KEY, cu INTEGER,"
		 " die INTEGER, decl INTEGER);"
		 "CREATE TABLE globals(name TEXT, cu INTEGER, die INTEGER,"
		 " file INTEGER);"
		 "BEGIN") < 0)
		goto out;
	if (prepare(b.db, "INSERT INTO funcs VALUES(?,?,?,?,?,?,?,?)",
		    &b.ins_func) < 0 ||
	    prepare(b.db, "INSERT INTO files VALUES(?,?)", &b.ins_file) < 0 ||
	    prepare(b.db, "INSERT INTO types VALUES(?,?,?,?)", &b.ins_type) < 0 ||
	    prepare(b.db, "INSERT INTO globals VALUES(?,?,?,?)",
		    &b.ins_global) < 0)
		goto out;
	/* the first index of a file takes a while (a kernel's: a minute or
	 * more): say so on a terminal, with the share of .debug_info done */
	progress_begin("indexing the DWARF of %s (once; kept in the cache)",
		       m->path);
	total = info_size(m);
	while (dwarf_next_unit(m->dw, off, &next, &hsize, NULL, NULL, NULL,
			       NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		progress_update((double)off, (double)total, NULL);
		if (dwarf_offdie(m->dw, off + hsize, &cu) &&
		    dwarf_tag(&cu) == DW_TAG_compile_unit) {
			b.cu = cu;
			b.cu_off = off + hsize;
			walk_cu(&b);
		}
		off = next;
	}
	for (i = 0; i < b.types.cap; i++) {
		struct strmap_ent *e = &b.types.ents[i];
		if (!e->key)
			continue;
		sqlite3_bind_text(b.ins_type, 1, e->key, -1, SQLITE_STATIC);
		sqlite3_bind_int64(b.ins_type, 2, e->b);
		sqlite3_bind_int64(b.ins_type, 3, e->a);
		sqlite3_bind_int(b.ins_type, 4, (int)e->c);
		sqlite3_step(b.ins_type);
		sqlite3_reset(b.ins_type);
	}
	if (exec(b.db, "CREATE INDEX funcs_name ON funcs(name);"
		 "CREATE INDEX globals_name ON globals(name);"
		 "INSERT INTO meta VALUES('version', '" INDEX_VERSION "');"
		 "COMMIT") < 0)
		goto out;
	rc = 0;
	progress_end(NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (stp_verbose)
		fprintf(stderr, "DWARF index of %s: %lld functions, %lld inline "
			"instances, %zu types in %.1f s\n", m->path,
			(long long)b.nfuncs, (long long)b.ninl, b.types.n,
			(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
out:
	if (rc < 0)
		progress_end("failed");
	sqlite3_finalize(b.ins_func);
	sqlite3_finalize(b.ins_file);
	sqlite3_finalize(b.ins_type);
	sqlite3_finalize(b.ins_global);
	sqlite3_close(b.db);
	strmap_free(&b.files);
	strmap_free(&b.types);
	return rc;
}

static int valid(sqlite3 *db)
{
	sqlite3_stmt *st;
	int ok = 0;
	if (sqlite3_prepare_v2(db, "SELECT v FROM meta WHERE k='version'", -1,
			       &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		ok = strcmp((const char *)sqlite3_column_text(st, 0),
			    INDEX_VERSION) == 0;
	sqlite3_finalize(st);
	return ok;
}

int dw_index_open(struct dw_mod *m)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(m->mod, &bits, &vaddr), i;
	char *dir, *path, *tmp;
	struct strbuf id = {0};

	if (len <= 0) {
		diag_error(NULL, "%s has no build-id note", m->path);
		return -1;
	}
	for (i = 0; i < len; i++)
		strbuf_printf(&id, "%02x", bits[i]);
	if (!(dir = cache_dir()))
		return -1;
	path = xasprintf("%s/dwarf", dir);
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		diag_error(NULL, "cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	free(path);
	path = xasprintf("%s/dwarf/%s.sqlite", dir, strbuf_str(&id));
	free(dir);
	if (access(path, R_OK) == 0 &&
	    sqlite3_open_v2(path, &m->db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK
	    && valid(m->db))
		return 0;
	if (m->db)
		sqlite3_close(m->db);
	m->db = NULL;
	tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	unlink(tmp);
	if (build(m, tmp) < 0 || rename(tmp, path) < 0) {
		unlink(tmp);
		return -1;
	}
	free(tmp);
	if (sqlite3_open_v2(path, &m->db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		diag_error(NULL, "cannot open %s: %s", path,
			   sqlite3_errmsg(m->db));
		return -1;
	}
	free(path);
	free(strbuf_detach(&id));
	return 0;
}
