/* uelf_int.h - the libelf-level helpers of uelf.c shared by the readers
 * of user-space ELF files in debuginfo/ (uelf.c, usdt.c, udwarf.c).  Not
 * part of debuginfo.h: it brings in libelf's declarations. */
#ifndef STP_UELF_INT_H
#define STP_UELF_INT_H

#include <gelf.h>
#include <stdint.h>

/* uelf_open - ELF file @host opened for reading (ELF_C_READ): its Elf,
 * the descriptor in *@fd (uelf_close() ends both), or NULL when the file
 * cannot be opened or is not an ELF file, with *@err (malloc'd; @err may
 * be NULL) "cannot open HOST" or "HOST is not an ELF file". */
Elf *uelf_open(const char *host, int *fd, char **err);

/* uelf_close - end @elf and close @fd, both from uelf_open(). */
void uelf_close(Elf *elf, int fd);

/* uelf_section_named - the first section of @elf called @name, its
 * header in *@sh; NULL when there is none. */
Elf_Scn *uelf_section_named(Elf *elf, const char *name, GElf_Shdr *sh);

/* uelf_file_offset - the file offset of link-time address @a of @elf: by
 * the PT_LOAD segment containing it; (uint64_t)-1 when none does. */
uint64_t uelf_file_offset(Elf *elf, uint64_t a);

#endif
