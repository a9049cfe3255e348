/* ksyms.h - the kernel's symbol table as the translator sees it: link-time
 * addresses of functions, which may carry a kprobe, which are exported.
 *
 * The source is, in order: the symbol table of the debuginfo vmlinux when
 * one is installed, else System.map-KVER (under the sysroot's /boot), else
 * /proc/kallsyms when KVER is the running kernel.  The kprobe blacklist is
 * the kernel's own: the addresses listed between __start_kprobe_blacklist
 * and __stop_kprobe_blacklist in the vmlinux image (the debuginfo vmlinux,
 * or the one unpacked from /boot/vmlinuz-KVER), plus everything in the
 * sections kprobes refuse (.kprobes.text, .entry.text, .noinstr.text,
 * .irqentry.text, .softirqentry.text and the like, by their start/end
 * symbols), plus __x64_sys_ni_syscall-style aliases the kernel rejects.
 */
#ifndef STP_KSYMS_H
#define STP_KSYMS_H

#include "session.h"
#include <stdint.h>

struct ksyms;

/* ksyms_for - the symbol table of s->kernel_release, loaded once per
 * session; NULL after a diagnostic naming what was searched. */
struct ksyms *ksyms_for(struct session *s);

/* ksyms_addr - the link-time address of text or data symbol @name into
 * *@addr.  Returns 0, or -1 if there is no such symbol. */
int ksyms_addr(struct ksyms *k, const char *name, uint64_t *addr);

/* ksyms_alias - another function symbol at the address of function
 * @name (the first by name), or NULL.  A kernel alias such as
 * __x64_sys_getppid (SYSCALL_DEFINE0's, of __do_sys_getppid) has no DWARF
 * of its own: its code is the other name's. */
const char *ksyms_alias(struct ksyms *k, const char *name);

/* ksyms_symbol_at - the function symbol containing link-time address
 * @addr, and @addr's offset from it; NULL if none. */
const char *ksyms_symbol_at(struct ksyms *k, uint64_t addr, uint64_t *off);

/* ksyms_refused_at - 1 if link-time address @addr lies in text kprobes
 * and ftrace refuse (the kprobe blacklist's sections, entry and noinstr
 * text, init text freed after boot), else 0.  By address: a static
 * function in init text may share its name with a probeable one. */
int ksyms_refused_at(struct ksyms *k, uint64_t addr);

/* ksyms_probeable - 1 if a kprobe may be put on function @name (a text
 * symbol, not blacklisted, not in a refused section), else 0. */
int ksyms_probeable(struct ksyms *k, const char *name);

/* ksyms_ftrace_site - where ftrace calls out in the function starting at
 * link-time address @addr (its __fentry__ call: @addr, or @addr + 4 after
 * an endbr64), from the image's __mcount_loc table, into *@site.
 * Returns 1, 0 when the function has no such call (notrace, inline
 * copies, assembly), or -1 when the table is unknown (no vmlinux image,
 * or the symbols came from /proc/kallsyms). */
int ksyms_ftrace_site(struct ksyms *k, uint64_t addr, uint64_t *site);

/* ksyms_exported - 1 if @name is EXPORT_SYMBOL'd (__ksymtab_NAME). */
int ksyms_exported(struct ksyms *k, const char *name);

/* ksyms_each_function - call @fn for every probeable text symbol whose
 * name matches fnmatch(3) pattern @pattern; for providers without their
 * own function list (BTF lacks addresses) and for kprobe.function. */
void ksyms_each_function(struct ksyms *k, const char *pattern,
			 void (*fn)(void *arg, const char *name, uint64_t addr),
			 void *arg);

/* ksyms_module_file - the path of module @name's .ko (found through
 * SYSROOT/lib/modules/KVER/modules.order; '-' and '_' are the same;
 * kmod_file() picks the readable form, compressed or not), heap, or
 * NULL.  Open it with kmod_elf_begin(). */
char *ksyms_module_file(struct session *s, const char *name);

/* ksyms_module - the symbol table of module @name's .ko, loaded once per
 * session: the same questions as for the kernel, with section-relative
 * addresses (ksyms_symbol_at is meaningless there), functions in
 * .init/.exit sections left out, no blacklist (the kernel refuses those
 * at registration).  NULL with a heap message in *@why. */
struct ksyms *ksyms_module(struct session *s, const char *name, char **why);

#endif
