/* regex_comp.h - compile the literal pattern of `s =~ "re"` (POSIX
 * extended regular expression) into a program for the runtime's Pike VM
 * (runtime/regex.c).
 *
 * The program: SAVE 0, <pattern>, SAVE 1, MATCH.  Instructions and their
 * numbering are those of struct stp_rx_insn in runtime/stp_runtime.h; the
 * generated C uses the STP_RX_* names, so only the meaning is shared.
 */
#ifndef STP_REGEX_COMP_H
#define STP_REGEX_COMP_H

#include <stdint.h>
#include "util.h"

/* Limits, equal to the runtime's (STP_RX_MAXINSNS, STP_RX_MAXGROUPS). */
#define RX_MAXINSNS 512
#define RX_MAXGROUPS 10     /* group 0 (the whole match) and groups 1..9 */

enum rx_op {
	RX_CHAR,    /* arg: the byte */
	RX_ANY,     /* any byte */
	RX_CLASS,   /* x: index of a 256-bit class in the class table */
	RX_SPLIT,   /* try x first, then y */
	RX_JMP,     /* go to x */
	RX_SAVE,    /* capture slot arg = the current offset */
	RX_BOL,     /* at the start of the subject */
	RX_EOL,     /* at the end of the subject */
	RX_MATCH,
};

struct rx_insn {
	enum rx_op op;
	int arg, x, y;
};

struct rx_prog {
	struct rx_insn *insns;
	int len;
	uint32_t (*classes)[8];  /* bitmaps: bit b of class k is byte b */
	int nclasses;
	int ngroups;             /* parenthesized groups in the pattern */
};

/* rx_compile - validate @pattern with the host's regcomp(REG_EXTENDED)
 * and compile it into *@prog.  Returns 0, or -1 with a heap message in
 * *@err ("bad regular expression: ...", or a limit of this
 * implementation).  Free the program with rx_free. */
int rx_compile(const char *pattern, struct rx_prog *prog, char **err);
void rx_free(struct rx_prog *prog);

/* rx_c_data - C declarations (block scope, static const) of @prog: the
 * struct stp_regex NAME and its arrays NAME_i (instructions) and NAME_c
 * (classes), appended to @out, one declaration per '\n'-ended line. */
void rx_c_data(const struct rx_prog *prog, const char *name,
	       struct strbuf *out);

#endif
