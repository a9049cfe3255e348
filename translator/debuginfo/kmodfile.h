/* kmodfile.h - the file of a kernel module of the target kernel, and its
 * ELF, whether the kernel ships modules plain (.ko, Debian's 6.1) or
 * compressed (.ko.xz, Debian's 6.12; .ko.zst, .ko.gz elsewhere).
 */
#ifndef STP_KMODFILE_H
#define STP_KMODFILE_H

#include "session.h"
#include <libelf.h>

/* kmod_file - a readable file of module file @rel (a modules.order line,
 * "kernel/drivers/block/null_blk/null_blk.ko") of s->kernel_release
 * under s->sysroot: the .ko itself under /lib/modules/KVER, else its
 * unstripped copy under /usr/lib/debug/lib/modules/KVER (the same symbols,
 * sections and .BTF, read without unpacking), else the compressed
 * .ko.xz/.ko.zst/.ko.gz.  Heap; NULL when none exists. */
char *kmod_file(struct session *s, const char *rel);

/* kmod_elf_begin - a read-only libelf handle of the module file open on
 * @fd, unpacked in memory when it is compressed (libdw's
 * dwelf_elf_begin); NULL on error.  elf_end() it, then close @fd. */
Elf *kmod_elf_begin(int fd);

#endif
