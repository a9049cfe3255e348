/* udwarf.h - a user-space program's own DWARF (libdw) for the target
 * variables of process("PATH").function probes. */
#ifndef STP_UDWARF_H
#define STP_UDWARF_H

#include <stdint.h>

struct dbg_function;

/* udwarf_function - the function at link-time address @addr of ELF file
 * @host (a program built with -g), named @name, for a probe at its entry
 * (@is_return 0) or return: its provider resolves $PARAM at the entry
 * (register locations of the entry address, as gcc -O1 and above emit
 * them; integer, enum and pointer parameters, pointers as integers) and
 * $return's type; in .return probes $PARAM is its value at the entry
 * (saved there, as @entry).  NULL when the file has no DWARF for it. */
struct dbg_function *udwarf_function(const char *host, uint64_t addr,
				     const char *name, int is_return);

/* One statement a process("PATH").statement("FUNC@FILE:LINE") names. */
struct udwarf_stmt {
	char *func;             /* the function containing it */
	uint64_t func_addr;     /* that function's entry (link-time) */
	uint64_t addr;          /* the statement's address (link-time) */
	char *file;             /* its source file as the line table has it */
	int line;
};

/* udwarf_statements - the statements of line @line of source files
 * matching @file (fnmatch(3) on the whole name or its last components,
 * "uwork.c" or "workloads/uwork.c") in functions matching @func, from the
 * line table of ELF file @host: per function and line, the lowest address
 * the line table marks as the start of a statement (is_stmt), so that a
 * line in a loop body is hit once per iteration (per address range of
 * the function: a function split into hot and cold parts may have one
 * in each).  Appended to @out as
 * struct udwarf_stmt *.  Returns the number appended, or -1 with *@err
 * (malloc'd) when the file has no DWARF. */
int udwarf_statements(const char *host, const char *func, const char *file,
		      int line, struct vec *out, char **err);

/* udwarf_at - as udwarf_function(), with target variables resolved at
 * link-time address @pc inside the function (statement probes). */
struct dbg_function *udwarf_at(const char *host, uint64_t func_addr,
			       uint64_t pc, const char *name);

/* udwarf_debugfile - the separate debuginfo file of ELF file @host found
 * by its GNU build-id, /usr/lib/debug/.build-id/XX/REST.debug as
 * Debian's -dbg and -dbgsym packages install it, when it exists and
 * carries the same build-id; malloc'd path, or NULL (no build-id, no such
 * file).  Reads files only; no caching. */
char *udwarf_debugfile(const char *host);

#endif
