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
 * $return's type.  In .return probes parameters are refused (no @entry
 * for user functions yet).  NULL when the file has no DWARF for it. */
struct dbg_function *udwarf_function(const char *host, uint64_t addr,
				     const char *name, int is_return);

#endif
