/* reserved.c - code the kernel rewrites at run time, which kprobes
 * refuse (check_kprobe_address_safe: -EINVAL): jump label sites (the
 * table between __start___jump_table and __stop___jump_table: struct
 * jump_entry { s32 code; s32 target; long key; }, code relative to the
 * entry) and static call sites (__start_static_call_sites..: struct
 * static_call_site { s32 addr; s32 key; }).  An inline instance or a
 * statement often starts on such a 5-byte NOP (static_branch_unlikely());
 * leaving it out spares a registration failure.  Only vmlinux (ET_EXEC:
 * the tables are final in the file). */
#include "dwarf_int.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#define PATCH_SIZE 5    /* JUMP_LABEL_NOP_SIZE, the call/jmp rel32 size */

struct table {
	const char *start, *stop;
	size_t entsize;         /* bytes per entry */
};

static const struct table tables[] = {
	{ "__start___jump_table", "__stop___jump_table", 16 },
	{ "__start_static_call_sites", "__stop_static_call_sites", 8 },
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void push(struct dw_mod *m, uint64_t addr, size_t *cap)
{
	if (m->nreserved == *cap) {
		*cap = *cap ? *cap * 2 : 4096;
		m->reserved = xrealloc(m->reserved, *cap * sizeof(*m->reserved));
	}
	m->reserved[m->nreserved++] = addr;
}

/* add_table - the sites of the table at [@start, @stop), read from the
 * section holding it. */
static void add_table(struct dw_mod *m, Elf *elf, uint64_t start,
		      uint64_t stop, size_t entsize, size_t *cap)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		uint64_t a;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    start < sh.sh_addr || stop > sh.sh_addr + sh.sh_size)
			continue;
		if (!(d = elf_getdata(scn, NULL)) || !d->d_buf ||
		    d->d_size < sh.sh_size)
			return;
		for (a = start; a + entsize <= stop; a += entsize) {
			int32_t rel;
			memcpy(&rel, (const char *)d->d_buf + (a - sh.sh_addr),
			       sizeof(rel));
			push(m, a + (int64_t)rel, cap);
		}
		return;
	}
}

static int sym_value(struct dw_mod *m, const char *name, uint64_t *v)
{
	int i, n = dwfl_module_getsymtab(m->mod);
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *s = dwfl_module_getsym(m->mod, i, &sym, NULL);
		if (s && strcmp(s, name) == 0) {
			*v = sym.st_value;
			return 0;
		}
	}
	return -1;
}

static void load(struct dw_mod *m)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(m->mod, &bias);
	GElf_Ehdr eh;
	size_t cap = 0, t;
	m->reserved_loaded = 1;
	if (m->name || !elf || !gelf_getehdr(elf, &eh) || eh.e_type != ET_EXEC)
		return;
	for (t = 0; t < sizeof(tables) / sizeof(tables[0]); t++) {
		uint64_t start, stop;
		if (sym_value(m, tables[t].start, &start) == 0 &&
		    sym_value(m, tables[t].stop, &stop) == 0 && start < stop)
			add_table(m, elf, start, stop, tables[t].entsize, &cap);
	}
	qsort(m->reserved, m->nreserved, sizeof(*m->reserved), cmp_u64);
	if (stp_verbose > 1)
		fprintf(stderr, "%zu jump label and static call sites\n",
			m->nreserved);
}

int dw_reserved(struct dw_mod *m, Dwarf_Addr addr)
{
	size_t lo = 0, hi;
	if (!m->reserved_loaded)
		load(m);
	hi = m->nreserved;
	while (lo < hi) {               /* the first site > addr */
		size_t mid = (lo + hi) / 2;
		if (m->reserved[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && addr < m->reserved[lo - 1] + PATCH_SIZE;
}
