/* uelfk.c - a function symbol of a user program's ELF file, read in the
 * kernel: for process(PID).function("NAME") probes of a module built for
 * another machine, whose program is only known at module start (the
 * process's executable). */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/elf.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "stp_internal.h"

#define STP_ELF_MAX_TABLE (64UL << 20)  /* symbol/string tables read */

/* stp_elf_read - @len bytes at file offset @off of @f into a new
 * vmalloc'd buffer, or NULL. */
static void *stp_elf_read(struct file *f, loff_t off, size_t len)
{
	void *buf;

	if (!len || len > STP_ELF_MAX_TABLE)
		return NULL;
	buf = vmalloc(len);
	if (!buf)
		return NULL;
	if (kernel_read(f, buf, len, &off) != (ssize_t)len) {
		vfree(buf);
		return NULL;
	}
	return buf;
}

/* stp_elf_lookup - in section table @sh[@n], symbol table @kind
 * (SHT_SYMTAB / SHT_DYNSYM): the value of defined function @name. */
static int stp_elf_lookup(struct file *f, const Elf64_Shdr *sh, int n,
			  u32 kind, const char *name, u64 *value)
{
	int i, rc = -ENOENT;

	for (i = 0; i < n && rc; i++) {
		Elf64_Sym *syms;
		char *str;
		size_t k, nsyms;

		if (sh[i].sh_type != kind || sh[i].sh_link >= n ||
		    sh[i].sh_entsize != sizeof(Elf64_Sym))
			continue;
		syms = stp_elf_read(f, sh[i].sh_offset, sh[i].sh_size);
		str = stp_elf_read(f, sh[sh[i].sh_link].sh_offset,
				   sh[sh[i].sh_link].sh_size);
		nsyms = sh[i].sh_size / sizeof(Elf64_Sym);
		for (k = 0; syms && str && k < nsyms; k++) {
			Elf64_Sym *s = &syms[k];
			u8 type = ELF64_ST_TYPE(s->st_info);

			if ((type != STT_FUNC && type != 10 /* IFUNC */) ||
			    s->st_shndx == SHN_UNDEF ||
			    s->st_name >= sh[sh[i].sh_link].sh_size)
				continue;
			if (strncmp(str + s->st_name, name,
				    sh[sh[i].sh_link].sh_size - s->st_name) == 0) {
				*value = s->st_value;
				rc = 0;
				break;
			}
			if (k % 4096 == 4095)
				cond_resched();
		}
		vfree(syms);
		vfree(str);
	}
	return rc;
}

/**
 * stp_elf_func_offset - the file offset of the first instruction of
 * function @name (exact) in the 64-bit ELF file @f, from its .symtab,
 * else .dynsym, through the PT_LOAD segment holding it.
 * Returns 0 with *@offset, -ENOENT when no such function, -ENOEXEC when
 * @f is not a 64-bit ELF file, -ENOMEM.  Process context; sleeps (reads
 * the file).
 */
int stp_elf_func_offset(struct file *f, const char *name,
			unsigned long *offset)
{
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL;
	Elf64_Phdr *ph = NULL;
	loff_t pos = 0;
	u64 value = 0;
	int rc, i;

	if (kernel_read(f, &eh, sizeof(eh), &pos) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_phentsize != sizeof(Elf64_Phdr) || !eh.e_shnum)
		return -ENOEXEC;
	sh = stp_elf_read(f, eh.e_shoff, eh.e_shnum * sizeof(*sh));
	ph = stp_elf_read(f, eh.e_phoff, eh.e_phnum * sizeof(*ph));
	if (!sh || !ph) {
		rc = -ENOMEM;
		goto out;
	}
	rc = stp_elf_lookup(f, sh, eh.e_shnum, SHT_SYMTAB, name, &value);
	if (rc)
		rc = stp_elf_lookup(f, sh, eh.e_shnum, SHT_DYNSYM, name,
				    &value);
	if (rc)
		goto out;
	rc = -ENOENT;
	for (i = 0; i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && value >= ph[i].p_vaddr &&
		    value < ph[i].p_vaddr + ph[i].p_filesz) {
			*offset = value - ph[i].p_vaddr + ph[i].p_offset;
			rc = 0;
			break;
		}
out:
	vfree(sh);
	vfree(ph);
	return rc;
}
