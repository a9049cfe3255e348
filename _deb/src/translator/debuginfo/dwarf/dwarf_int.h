/* dwarf_int.h - shared state of the DWARF provider (debuginfo/dwarf/).
 *
 * One struct dw_mod per opened debuginfo file (the kernel's vmlinux and
 * each module asked for), reached through libdwfl so that a module's
 * relocatable .ko is relocated like the kernel would; each has its
 * sqlite3 index (index.c).  Addresses kept in struct dw_fn and passed
 * to libdw are DWARF addresses (dwfl address - bias).
 */
#ifndef STP_DWARF_INT_H
#define STP_DWARF_INT_H

#include "debuginfo/debuginfo.h"
#include "util.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <sqlite3.h>

/* A small map from DIE offset to ctype (types.c). */
struct dw_tmap {
	uint64_t *keys;
	struct ctype **vals;
	size_t n, cap;
};

struct dw_mod {
	char *name;             /* NULL: the kernel; else the module name */
	char *path;             /* the debuginfo file */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;
	Dwarf_CFI *cfi;         /* .debug_frame (or .eh_frame); may be NULL */
	sqlite3 *db;            /* the index */
	struct dw_tmap types;   /* DIE offset -> ctype */
	char **files;           /* the index's files.path by id (funcs.c) */
	int nfiles;
	void *exports;          /* struct strmap of exported names (funcs.c) */
	struct dw_sym *syms;    /* function symbols by address (open.c) */
	size_t nsyms;
	Dwarf_Addr stext;       /* _stext (dw_kprobe_at) */
	int stext_tried, has_stext;
	uint64_t *reserved;     /* patched code sites, sorted (reserved.c) */
	size_t nreserved;
	int reserved_loaded;
	void *cu_frames;        /* struct cu_frames: per CU, its functions
	                         * with a frame base (vars.c) */
	/* a user-space program or library (udwarf.c): memory reads are of
	 * the current task's user memory, static addresses are relocated by
	 * the file's load bias in the current process */
	int user;
	char *upath;            /* its absolute path in the target machine */
	uint64_t uvaddr0;       /* page-aligned p_vaddr of its first PT_LOAD */
};

/* A function symbol of a debuginfo file's symtab. */
struct dw_sym {
	Dwarf_Addr addr;        /* DWARF address */
	uint64_t size;
	const char *name;       /* libelf's string */
	int global;
	int unique;             /* no other symbol has this name, so that
	                         * the kernel resolves it to this one */
};

struct dw_prov {
	struct dbg_provider p;
	struct session *s;
	struct dw_mod *kernel;
	struct vec mods;        /* struct dw_mod *: opened modules */
	struct vec failed;      /* char *: modules not found (asked once) */
};

/* The provider data of one struct dbg_function. */
struct dw_fn {
	struct dw_mod *m;
	Dwarf_Off die;          /* the subprogram or inlined_subroutine */
};

/* open.c */
/* dw_open_file - open the DWARF of ELF file @path (separate debuginfo
 * found by build-id under /usr/lib/debug) as module @name (NULL: the
 * kernel) and its index; NULL with *@why (heap) on failure. */
struct dw_mod *dw_open_file(const char *name, const char *path, char **why);
/* dw_mod_for - the opened debuginfo of @module (NULL: the kernel),
 * opened on first use; NULL after a diagnostic. */
struct dw_mod *dw_mod_for(struct dw_prov *dp, const char *module);
/* dw_sym_at - the ELF function symbol containing DWARF address @addr of
 * @m, and @addr's offset from it; NULL if none. */
const struct dw_sym *dw_sym_at(struct dw_mod *m, Dwarf_Addr addr,
			       uint64_t *off);
/* dw_kprobe_at - the symbol and offset a kprobe at DWARF address @addr
 * of @m registers at: the containing function symbol, or, when its name
 * is not unique (static functions of the same name in several files:
 * the kernel would resolve the first), "_stext" and the offset from it.
 * Returns the symbol (not to be freed) or NULL if no function has @addr. */
const char *dw_kprobe_at(struct dw_mod *m, Dwarf_Addr addr, uint64_t *off);
/* dw_rel_path - @path relative to the compilation directory of @cu
 * (leading "./" removed); a new heap string. */
char *dw_rel_path(Dwarf_Die *cu, const char *path);

/* reserved.c */
/* dw_reserved - 1 if the kernel patches the code at DWARF address @addr
 * of @m at run time (a jump label or static call site), where kprobes
 * refuse to go (register_kprobe: -EINVAL); else 0. */
int dw_reserved(struct dw_mod *m, Dwarf_Addr addr);

/* index.c */
/* dw_index_open - open (building it when missing) the sqlite3 index of
 * @m under the cache directory; 0 or -1 after a diagnostic.  May take
 * tens of seconds for a kernel the first time. */
int dw_index_open(struct dw_mod *m);

/* funcs.c: struct dbg_provider's find_functions (see debuginfo.h). */
int dw_find_functions(struct dbg_provider *p, const struct dbg_query *q,
		      struct vec *out);

/* dw_file_matches - 1 if fnmatch(3) pattern @pat matches source file
 * @path ("fs/read_write.c"), or a suffix of it after a '/'. */
int dw_file_matches(const char *pat, const char *path);

/* vars.c: struct dbg_provider's lookup_var, list_vars, return_type and
 * lookup_global (see debuginfo.h). */
int dw_lookup_var(struct dbg_provider *p, struct dbg_function *fn,
		  const char *name, const char *loc_lit,
		  struct dbg_location *out, char **why);
void dw_list_vars(struct dbg_provider *p, struct dbg_function *fn,
		  enum dbg_var_set which, struct vec *names);
struct ctype *dw_return_type(struct dbg_provider *p, struct dbg_function *fn);
int dw_lookup_global(struct dbg_provider *p, const char *name,
		     const char *file, const char *module, const char *loc_lit,
		     struct dbg_location *out, char **why);

/* types.c */
/* dw_ctype - the ctype of type DIE @die of @m (NULL @die: void). */
struct ctype *dw_ctype(struct dw_mod *m, Dwarf_Die *die);
/* dw_die_type - the ctype of @die's DW_AT_type (void when absent). */
struct ctype *dw_die_type(struct dw_mod *m, Dwarf_Die *die);
/* dw_lookup_type - struct dbg_provider's lookup_type (see debuginfo.h). */
struct ctype *dw_lookup_type(struct dbg_provider *p, const char *name,
			     const char *module);
/* dw_find_type_die - the defining DIE of named type @name ("struct x",
 * "size_t") from the index into @out; 0 or -1. */
int dw_find_type_die(struct dw_mod *m, const char *name, Dwarf_Die *out);
/* dw_find_type_any - the ctype of type @name of @m as a script names it:
 * "struct @name", then "@name" (typedef, base type), "union @name",
 * "enum @name", the first the index has; NULL when none. */
struct ctype *dw_find_type_any(struct dw_mod *m, const char *name);

/* loc2c.c */
/* dw_loc2c - C for DWARF expression @ops[@nops] (of attribute @attr,
 * for DW_OP_entry_value's inner block; may be NULL) at DWARF address @pc of
 * function DIE @fn_die (for DW_OP_fbreg; may be NULL), per debuginfo.h.
 * @entry: @pc is the function's entry (DW_OP_entry_value allowed).
 * Returns a heap string and sets *@is_value (1: DL_VALUE), or NULL with
 * a heap message in *@why. */
char *dw_loc2c(struct dw_mod *m, Dwarf_Attribute *attr, const Dwarf_Op *ops,
	       size_t nops, Dwarf_Die *fn_die, Dwarf_Addr pc, int entry,
	       const char *loc_lit, int *is_value, char **why);

#endif
