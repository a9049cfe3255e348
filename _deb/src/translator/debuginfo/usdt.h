/* usdt.h - SDT markers (sys/sdt.h, "USDT") of a user-space program: the
 * .note.stapsdt notes of its ELF file, and a provider (debuginfo.h) that
 * resolves a marker's $argN from the note's argument spec. */
#ifndef STP_USDT_H
#define STP_USDT_H

#include <stdint.h>
#include "util.h"

struct dbg_function;

/* One SDT marker. */
struct usdt_note {
	char *provider, *name;
	char *args;             /* "-4@%eax 8@-16(%rbp)", "" if none */
	uint64_t pc;            /* link-time address of the marker's nop */
	uint64_t offset;        /* its file offset (what the uprobe takes) */
	uint64_t sem_offset;    /* file offset of its semaphore, 0: none */
};

/* usdt_notes - the stapsdt notes (type 3, owner "stapsdt") of ELF file
 * @host whose provider matches the fnmatch(3) @prov (NULL: any) and
 * name matches @name, appended to @out as struct usdt_note *, addresses
 * adjusted by the .stapsdt.base section when the file was prelinked.
 * Returns the number appended, or -1 with *@err (malloc'd) when the file
 * is not a readable ELF file. */
int usdt_notes(const char *host, const char *prov, const char *name,
	       struct vec *out, char **err);

/* usdt_function - a dbg_function for marker @n whose provider answers
 * $argN (N from 1 to the number of arguments in the spec; the value
 * sign- or zero-extended to a long as the spec's size says, registers
 * from the probe's user registers, memory operands through fault-tolerant
 * user reads) and lists them for $$parms.  NULL with *@err (malloc'd)
 * when the spec cannot be parsed.  @n must outlive the result. */
struct dbg_function *usdt_function(struct usdt_note *n, char **err);

#endif
