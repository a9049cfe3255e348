/* udwarf.h - a user-space program's own DWARF (libdw) for the target
 * variables of process("PATH").function probes. */
#ifndef STP_UDWARF_H
#define STP_UDWARF_H

#include <stdint.h>

struct dbg_function;
struct dbg_location;
struct ctype;
struct session;

/* udwarf_function - the function at link-time address @addr of ELF file
 * @host (here; @target: its absolute path in the target machine), named
 * @name, for a probe at its entry (@is_return 0) or return, from the
 * file's DWARF (its own, or separate debuginfo by build-id): $PARAM,
 * $LOCAL, $a->b[i], $$parms & co as for kernel functions, read from the
 * probed task's user memory; in .return probes $PARAM is its value at the
 * entry (saved there, as @entry).  NULL when the file has no DWARF for
 * it. */
struct dbg_function *udwarf_function(const char *host, const char *target,
				     uint64_t addr, const char *name,
				     int is_return);

/* udwarf_is_user - 1 if @fn came from udwarf_function()/udwarf_at(). */
int udwarf_is_user(const struct dbg_function *fn);

/* udwarf_lookup_type - @cast(p, "@name", "@module"): the type from the
 * DWARF of program or library @module (absolute, or looked up in $PATH
 * as process("NAME") is), or with @module NULL of @fn's program.  NULL
 * with *@why (heap) when unknown. */
struct ctype *udwarf_lookup_type(struct session *s,
				 const struct dbg_function *fn,
				 const char *name, const char *module,
				 char **why);

/* udwarf_lookup_global - @var("@name[@@file]", "@module"): a global or
 * static variable of @module (or of @fn's program, @module NULL), its
 * address the symbol's link-time address plus the file's load bias in
 * the current process (stp_ubias).  0 with *@out, or -1 with *@why. */
int udwarf_lookup_global(struct session *s, const struct dbg_function *fn,
			 const char *name, const char *file,
			 const char *module, const char *loc_lit,
			 struct dbg_location *out, char **why);

/* One inline instance of a function, from udwarf_inlines(). */
struct udwarf_inline {
	char *name;             /* the inlined function */
	uint64_t addr;          /* the instance's entry (link-time) */
	struct dbg_function *fn;        /* its parameters, as udwarf_at's */
};

/* udwarf_inlines - the inline instances of functions matching fnmatch(3)
 * @pattern in ELF file @host (@target in the target machine), from its
 * DWARF, in address order, appended to @out as struct udwarf_inline *.
 * Returns the number appended (0 also without DWARF). */
int udwarf_inlines(const char *host, const char *target, const char *pattern,
		   struct vec *out);

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
 * in each).  @rel: @line counts from the function's declaration line
 * ("FUNC@FILE+N").  @nearest: a function with no statement at the line
 * gets the nearest line that has one (the later of two as near).
 * Appended to @out as struct udwarf_stmt *.  Returns the number
 * appended, or -1 with *@err (malloc'd) when the file has no DWARF. */
int udwarf_statements(const char *host, const char *func, const char *file,
		      int line, int rel, int nearest, struct vec *out,
		      char **err);

/* udwarf_at - as udwarf_function(), with target variables resolved at
 * link-time address @pc inside the function (statement probes). */
struct dbg_function *udwarf_at(const char *host, const char *target,
			       uint64_t func_addr, uint64_t pc,
			       const char *name);

#endif
