/* uelf.h - what the translator asks of a user-space program's ELF file
 * (libelf): where a program named in process("PATH") lives, and the file
 * offsets of its functions for uprobes. */
#ifndef STP_UELF_H
#define STP_UELF_H

#include <stdint.h>
#include "util.h"

/* uelf_resolve - find the program @name of process("NAME").
 * An absolute @name is used as is; any other is looked up in the
 * directories of $PATH, as SystemTap does.  With @sysroot (--sysroot) the
 * file read is SYSROOT/PATH when that exists, else PATH itself.
 * On success returns 0, *@target = the absolute path in the target
 * machine (what the module registers) and *@host = the file to read here
 * (both malloc'd).  Returns -1 with a message in *@err (malloc'd) naming
 * what was searched when no such regular file exists. */
int uelf_resolve(const char *name, const char *sysroot, char **target,
		 char **host, char **err);

/* uelf_glob - the programs an absolute PATH with wildcards (*?[) names:
 * glob(3) on SYSROOT/PATH (with @sysroot) or PATH, appending each regular
 * file's target path (sysroot removed), malloc'd, to @out in order.
 * Returns the number appended. */
int uelf_glob(const char *pattern, const char *sysroot, struct vec *out);

/* uelf_resolve_lib - find shared library @lib of .library("LIB") for the
 * program @prog_target (its file here: @prog_host).  An absolute @lib is
 * used as is; any other is looked for in the program's DT_RUNPATH (else
 * DT_RPATH) directories ($ORIGIN expanded), the program's own directory,
 * then /lib/x86_64-linux-gnu, /usr/lib/x86_64-linux-gnu, /lib64,
 * /usr/lib64, /lib and /usr/lib (under @sysroot as uelf_resolve says).
 * Returns 0 with *@target and *@host as uelf_resolve, or -1 with *@err
 * (malloc'd) naming the directories searched. */
int uelf_resolve_lib(const char *lib, const char *prog_host,
		     const char *prog_target, const char *sysroot,
		     char **target, char **host, char **err);

/* One function symbol of a program. */
struct uelf_sym {
	char *name;
	uint64_t addr;          /* st_value */
	uint64_t offset;        /* file offset of its first instruction */
	uint64_t size;
};

/* uelf_functions - the function symbols (STT_FUNC/STT_GNU_IFUNC, defined)
 * of ELF file @host whose name matches the fnmatch(3) @pattern, from
 * .symtab, else .dynsym; each one once (by address), in address order,
 * appended to @out as struct uelf_sym *.  The file offset is st_value
 * less the (p_vaddr - p_offset) of the PT_LOAD segment containing it.
 * Returns the number appended, or -1 with *@err (malloc'd) when the file
 * is not a readable ELF file. */
int uelf_functions(const char *host, const char *pattern, struct vec *out,
		   char **err);

/* uelf_plt - the PLT entries of ELF file @host whose target symbol
 * matches the fnmatch(3) @pattern: entry I of .plt.sec (when present),
 * else entry I + 1 of .plt (16 bytes each), is .rela.plt's relocation I
 * (x86-64 lazy binding layout).  Appended to @out as struct uelf_sym *
 * (name: the symbol, addr/offset: the entry).  Returns the number
 * appended, or -1 with *@err (malloc'd) when the file cannot be read. */
int uelf_plt(const char *host, const char *pattern, struct vec *out,
	     char **err);

/* uelf_offset - the file offset of link-time address @addr of ELF file
 * @host (by its PT_LOAD segments), or -1 when no segment holds it or the
 * file cannot be read. */
int64_t uelf_offset(const char *host, uint64_t addr);

/* uelf_exported - 1 if ELF file @host exports function @name: a
 * defined STT_FUNC/STT_GNU_IFUNC symbol of global or weak binding in its
 * .dynsym (what .function("NAME").exported probes); else 0. */
int uelf_exported(const char *host, const char *name);

/* uelf_free_sym - free one from uelf_functions(). */
void uelf_free_sym(struct uelf_sym *u);

#endif
