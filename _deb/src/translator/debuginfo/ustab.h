/* ustab.h - symbol and unwind tables of user-space binaries, read on the
 * host for the module (ubacktrace(), usymname(), ... see
 * runtime/ustack.c): which binaries (the probed programs and libraries,
 * stap -d PATH, --ldd), their symbols by file offset and their DWARF CFI
 * (.eh_frame) reduced to a compact, sorted rule table. */
#ifndef STP_USTAB_H
#define STP_USTAB_H

#include <stdint.h>
#include "util.h"

/* One symbol (STT_FUNC, STT_GNU_IFUNC or STT_OBJECT, defined). */
struct ustab_sym {
	uint64_t off;           /* file offset of its first byte */
	uint64_t size;
	char *name;
	int rank;               /* of aliases at one offset the lowest wins:
	                         * global, weak, local; then fewer leading
	                         * '_'; then the shorter name */
};

/* How to find the caller's frame from an address range of a function:
 * the CFA (the caller's sp after the return) is a register plus an
 * offset; the return address is at CFA-8 (x86-64); the caller's rbp is
 * unchanged, saved at CFA+rbp_off, or lost. */
enum { USTAB_CFA_NONE, USTAB_CFA_RSP, USTAB_CFA_RBP };
enum { USTAB_RBP_SAME, USTAB_RBP_SAVED, USTAB_RBP_LOST };
struct ustab_row {
	uint64_t off;           /* file offset where the rule starts; it
	                         * holds up to the next row's off */
	int cfa_reg;            /* USTAB_CFA_*; NONE: no rule here */
	int64_t cfa_off;
	int rbp_rule;           /* USTAB_RBP_* */
	int64_t rbp_off;
};

/* One row of a line table: from file offset off on, source line @line
 * of file @file (an index in ustab.files). */
struct ustab_line {
	uint64_t off;
	uint32_t line;
	uint32_t file;
	uint32_t seq;           /* order in the line table */
};

/* The tables of one binary. */
struct ustab {
	char *target;           /* its path in the target machine */
	char *host;             /* the file read here */
	struct ustab_sym *syms; /* sorted by off, one per offset */
	size_t nsyms;
	struct ustab_row *rows; /* sorted by off */
	size_t nrows;
	struct ustab_line *lines; /* sorted by off (ustab_read_lines) */
	size_t nlines;
	struct vec files;       /* char *: source file names of lines */
};

/* ustab_read - read the symbols (.symtab, else .dynsym) and the .eh_frame
 * CFI of ELF file @host (target path @target) into a malloc'd ustab.
 * Returns NULL with *@err (malloc'd) when the file is not a readable ELF
 * file; a binary without CFI gets no rows (frame pointers are used). */
struct ustab *ustab_read(const char *host, const char *target, char **err);

/* ustab_read_lines - add the line table of @t's binary (its own DWARF
 * .debug_line, libdw) to @t; nothing when it has none. */
void ustab_read_lines(struct ustab *t);

/* ustab_free - free one from ustab_read(). */
void ustab_free(struct ustab *t);

/* ustab_needed - append the DT_NEEDED names of ELF file @host to @out
 * (malloc'd strings).  Returns the number appended, -1 when the file
 * cannot be read. */
int ustab_needed(const char *host, struct vec *out);

#endif
