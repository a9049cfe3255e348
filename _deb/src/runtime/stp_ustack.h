/* stp_ustack.h - user-space stacks and symbols (runtime/ustack.c): the
 * tables the translator puts into the module (codegen/usyms_gen.c) and
 * the functions tapset/linux/ucontext.stp calls.
 *
 * Every address is mapped to (binary, file offset) through the current
 * task's VMAs (vm_file, vm_pgoff) under mmap_read_trylock, which
 * normally succeeds; when the lock is contended, in NMI context, or when
 * a lock taken with interrupts disabled on this CPU is still to be
 * dropped (see ustack.c), addresses stay unresolved (printed in hex).  User memory is read with
 * copy_from_user_nofault only.  Nothing here sleeps or allocates. */
#ifndef STP_USTACK_H
#define STP_USTACK_H

/* One symbol of a binary, by file offset (sorted). */
struct stp_usym {
	u32 off, size;
	u32 name;               /* offset in the file's names[] */
};

/* One unwind rule of a binary (sorted by off; it holds up to the next
 * row): CFA = (cfa_reg 1: rsp, 2: rbp) + cfa_off, cfa_reg 0: no rule;
 * the return address at CFA-8; the caller's rbp unchanged (rbp_rule 0),
 * at CFA+rbp_off (1) or unknown (2). */
struct stp_ucfi {
	u32 off;
	s32 cfa_off;
	s16 rbp_off;
	u8 cfa_reg;
	u8 rbp_rule;
};

/* One row of a line table (sorted by off; it holds up to the next row):
 * source line @line of the file at offset @file of the file's srcs[]. */
struct stp_uline {
	u32 off, line, file;
};

struct stp_ufile {
	const char *path;       /* absolute path in the target */
	const struct stp_usym *syms;
	u32 nsyms;
	const char *names;
	const struct stp_ucfi *cfi;
	u32 ncfi;
	const struct stp_uline *lines;  /* NULL: none (no DWARF, or the
	                                 * script needs none) */
	u32 nlines;
	const char *srcs;
};

struct stp_usyms_desc {
	const struct stp_ufile *files;
	int nfiles;
};

struct stp_context;

/* stp_usyms_init - resolve the tables' paths to inodes (held until
 * stp_usyms_exit).  A missing file is no error (its addresses stay
 * unresolved).  Module load, process context; may sleep. */
void stp_usyms_init(void);
/* stp_usyms_exit - drop them.  Module unload; may sleep. */
void stp_usyms_exit(void);

/* The tapset's functions.  @dst is a MAXSTRINGLEN script string; @loc
 * the script location for errors.  Probe context; never sleep. */
/* stp_ubacktrace - the user stack as hex addresses "0x... 0x..." */
void stp_ubacktrace(struct stp_context *c, char *dst);
/* stp_print_ubacktrace - print (@dst NULL) or write to @dst one line a
 * frame, by @style: STP_UFRAME_FULL " 0xADDR : func+0xOFF/0xSIZE [PATH]",
 * STP_UFRAME_BRIEF "func+0xOFF", STP_UFRAME_FILELINE the full line with
 * " at FILE:LINE" before " [PATH]" where the line table knows it */
enum { STP_UFRAME_FULL, STP_UFRAME_BRIEF, STP_UFRAME_FILELINE };
void stp_print_ubacktrace(struct stp_context *c, char *dst, int style);
/* stp_umodbase - where the file mapped at user address @addr starts in
 * the current process (its mapping of file offset 0); 0 and an error at
 * @loc when no file is mapped there or the address space cannot be
 * looked at now (NMI, lock contended) */
unsigned long stp_umodbase(struct stp_context *c, unsigned long addr,
			   const char *loc);
/* stp_print_usyms - the same for the hex addresses in @s */
void stp_print_usyms(struct stp_context *c, char *dst, const char *s);
/* stp_ucallers - the first @n + 1 frames (all: @n < 0) as ubacktrace */
void stp_ucallers(struct stp_context *c, char *dst, s64 n);
/* stp_usymname - the function containing user address @addr, or @addr
 * in hex */
void stp_usymname(struct stp_context *c, char *dst, unsigned long addr);
/* stp_usymdata - "func+0xOFF/0xSIZE [PATH]", or @addr in hex */
void stp_usymdata(struct stp_context *c, char *dst, unsigned long addr);
/* stp_usymfileline - "FILE:LINE" of user address @addr, or @addr in
 * hex when unknown */
void stp_usymfileline(struct stp_context *c, char *dst, unsigned long addr);
/* stp_umodname - the path of the binary mapped at @addr; an error at
 * @loc when no file is mapped there */
void stp_umodname(struct stp_context *c, char *dst, unsigned long addr,
		  const char *loc);

#endif
