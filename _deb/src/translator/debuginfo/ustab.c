/* ustab.c - symbol and unwind tables of user-space binaries (ustab.h):
 * libelf for the symbols and DT_NEEDED, libdw's CFI interface
 * (dwarf_getcfi_elf, dwarf_cfi_addrframe) for .eh_frame, whose FDEs are
 * found through .eh_frame_hdr's sorted table (else from the function
 * symbols). */
#include "debuginfo/ustab.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define X86_64_RBP 6
#define X86_64_RSP 7
#define X86_64_RA 16
#define USTAB_MAX_ROWS_PER_FDE 4096

struct loads {
	GElf_Phdr ph[16];
	int n;
};

static void read_loads(Elf *e, struct loads *l)
{
	size_t n = 0, i;

	l->n = 0;
	if (elf_getphdrnum(e, &n))
		return;
	for (i = 0; i < n && l->n < 16; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			l->ph[l->n++] = ph;
	}
}

/* vaddr_off - file offset of link-time address @a, or -1 */
static int64_t vaddr_off(const struct loads *l, uint64_t a)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (a >= l->ph[i].p_vaddr &&
		    a < l->ph[i].p_vaddr + l->ph[i].p_memsz)
			return (int64_t)(a - l->ph[i].p_vaddr + l->ph[i].p_offset);
	return -1;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct ustab_sym *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if ((x->size > 0) != (y->size > 0))
		return (y->size > 0) - (x->size > 0);   /* sized first */
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return strcmp(x->name, y->name);
}

/* sym_rank - see struct ustab_sym */
static int sym_rank(const GElf_Sym *s, const char *name)
{
	int b = GELF_ST_BIND(s->st_info), u = (int)strspn(name, "_");

	b = b == STB_GLOBAL ? 0 : b == STB_WEAK ? 1 : 2;
	return b * 1000000 + (u > 9 ? 9 : u) * 100000 +
	       (int)(strlen(name) > 99999 ? 99999 : strlen(name));
}

static void read_syms(Elf *e, const struct loads *l, struct ustab *t)
{
	Elf_Scn *scn = NULL, *dyn = NULL, *tab = NULL;
	size_t cap = 0, i, n, k;
	GElf_Shdr sh;
	Elf_Data *d;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh)) {
			if (sh.sh_type == SHT_SYMTAB)
				tab = scn;
			else if (sh.sh_type == SHT_DYNSYM)
				dyn = scn;
		}
	if (!tab)
		tab = dyn;
	if (!tab || !gelf_getshdr(tab, &sh) || !(d = elf_getdata(tab, NULL)) ||
	    !sh.sh_entsize)
		return;
	n = sh.sh_size / sh.sh_entsize;
	for (i = 1; i < n; i++) {
		GElf_Sym s;
		const char *name;
		int type;
		int64_t off;

		if (!gelf_getsym(d, (int)i, &s))
			continue;
		type = GELF_ST_TYPE(s.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC &&
		     type != STT_OBJECT) || s.st_shndx == SHN_UNDEF ||
		    s.st_shndx == SHN_ABS || !s.st_value)
			continue;
		name = elf_strptr(e, sh.sh_link, s.st_name);
		off = vaddr_off(l, s.st_value);
		if (!name || !*name || off < 0)
			continue;
		if (t->nsyms == cap) {
			cap = cap ? 2 * cap : 256;
			t->syms = xrealloc(t->syms, cap * sizeof(*t->syms));
		}
		t->syms[t->nsyms].off = (uint64_t)off;
		t->syms[t->nsyms].size = s.st_size;
		t->syms[t->nsyms].name = xstrdup(name);
		t->syms[t->nsyms].rank = sym_rank(&s, name);
		t->nsyms++;
	}
	if (!t->nsyms)
		return;
	qsort(t->syms, t->nsyms, sizeof(*t->syms), sym_cmp);
	for (i = 1, k = 1; i < t->nsyms; i++) {        /* one per offset */
		if (t->syms[i].off == t->syms[k - 1].off) {
			free(t->syms[i].name);
			continue;
		}
		t->syms[k++] = t->syms[i];
	}
	t->nsyms = k;
}

/* at_cfa - @ops is "the value is saved at CFA + *off" */
static int at_cfa(const Dwarf_Op *ops, size_t nops, int64_t *off)
{
	if (!ops || !nops || ops[0].atom != DW_OP_call_frame_cfa)
		return 0;
	if (nops == 1) {
		*off = 0;
		return 1;
	}
	if (nops == 2 && ops[1].atom == DW_OP_plus_uconst) {
		*off = (int64_t)ops[1].number;
		return 1;
	}
	if (nops == 3 && (ops[1].atom == DW_OP_consts ||
			  ops[1].atom == DW_OP_constu) &&
	    ops[2].atom == DW_OP_plus) {
		*off = (int64_t)ops[1].number;
		return 1;
	}
	return 0;
}

/* classify - the rule of @fr in a row */
static void classify(Dwarf_Frame *fr, struct ustab_row *r)
{
	Dwarf_Op *ops, mem[3];
	size_t nops;
	int64_t off;
	int reg;

	r->cfa_reg = USTAB_CFA_NONE;
	r->cfa_off = 0;
	r->rbp_rule = USTAB_RBP_LOST;
	r->rbp_off = 0;
	if (dwarf_frame_cfa(fr, &ops, &nops) || nops != 1)
		return;
	/* libdw gives reg+off as DW_OP_bregx reg, off */
	if (ops[0].atom == DW_OP_bregx) {
		reg = (int)ops[0].number;
		off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		reg = ops[0].atom - DW_OP_breg0;
		off = (int64_t)ops[0].number;
	} else
		return;
	if (reg == X86_64_RSP)
		r->cfa_reg = USTAB_CFA_RSP;
	else if (reg == X86_64_RBP)
		r->cfa_reg = USTAB_CFA_RBP;
	else
		return;
	r->cfa_off = off;
	/* the return address must be at CFA-8 */
	if (dwarf_frame_register(fr, X86_64_RA, mem, &ops, &nops) ||
	    !at_cfa(ops, nops, &off) || off != -8) {
		r->cfa_reg = USTAB_CFA_NONE;
		return;
	}
	if (dwarf_frame_register(fr, X86_64_RBP, mem, &ops, &nops))
		return;
	if (nops == 0 && ops == NULL)
		r->rbp_rule = USTAB_RBP_SAME;
	else if (at_cfa(ops, nops, &off)) {
		r->rbp_rule = USTAB_RBP_SAVED;
		r->rbp_off = off;
	}
}

static void push_row(struct ustab *t, size_t *cap, const struct ustab_row *r)
{
	if (t->nrows == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		t->rows = xrealloc(t->rows, *cap * sizeof(*t->rows));
	}
	t->rows[t->nrows++] = *r;
}

static int row_cmp(const void *a, const void *b)
{
	const struct ustab_row *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	/* a rule wins over a "no rule" end marker at the same place */
	return (x->cfa_reg == USTAB_CFA_NONE) - (y->cfa_reg == USTAB_CFA_NONE);
}

static int same_rule(const struct ustab_row *a, const struct ustab_row *b)
{
	return a->cfa_reg == b->cfa_reg && a->cfa_off == b->cfa_off &&
	       a->rbp_rule == b->rbp_rule && a->rbp_off == b->rbp_off;
}

/* fde_starts - the FDEs' initial locations from .eh_frame_hdr (the
 * common encoding: table datarel|sdata4); 0 when not found */
static size_t fde_starts(Elf *e, uint64_t **out)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx, n = 0, i;
	GElf_Shdr sh;

	*out = NULL;
	if (elf_getshdrstrndx(e, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name;
		Elf_Data *d;
		const unsigned char *p;
		uint32_t count;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".eh_frame_hdr"))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || d->d_size < 12)
			return 0;
		p = d->d_buf;
		/* version 1, eh_frame_ptr 4 bytes, count udata4, table
		 * datarel sdata4 */
		if (p[0] != 1 || (p[1] & 0x0f) != 0x0b || p[2] != 0x03 ||
		    p[3] != 0x3b)
			return 0;
		memcpy(&count, p + 8, 4);
		if (12 + (size_t)count * 8 > d->d_size)
			return 0;
		*out = xcalloc(count ? count : 1, sizeof(**out));
		for (i = 0; i < count; i++) {
			int32_t loc;

			memcpy(&loc, p + 12 + i * 8, 4);
			(*out)[n++] = sh.sh_addr + (int64_t)loc;
		}
		return n;
	}
	return 0;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void read_cfi(Elf *e, const struct loads *l, struct ustab *t)
{
	Dwarf_CFI *cfi = dwarf_getcfi_elf(e);
	uint64_t *starts, covered = 0;
	size_t n, i, cap = 0, k;

	if (!cfi)
		return;
	n = fde_starts(e, &starts);
	if (!n) {       /* no usable .eh_frame_hdr: the function symbols */
		free(starts);
		starts = xcalloc(t->nsyms ? t->nsyms : 1, sizeof(*starts));
		/* symbols are by file offset; CFI wants addresses: only
		 * the executable segment's mapping is needed */
		for (i = 0; i < t->nsyms; i++) {
			int j;

			for (j = 0; j < l->n; j++)
				if ((l->ph[j].p_flags & PF_X) &&
				    t->syms[i].off >= l->ph[j].p_offset &&
				    t->syms[i].off < l->ph[j].p_offset +
						     l->ph[j].p_filesz)
					starts[n++] = t->syms[i].off -
						l->ph[j].p_offset +
						l->ph[j].p_vaddr;
		}
	}
	qsort(starts, n, sizeof(*starts), u64_cmp);
	for (i = 0; i < n; i++) {
		uint64_t a = starts[i], end = 0;
		int rows = 0;

		if (a < covered)
			continue;
		while (rows++ < USTAB_MAX_ROWS_PER_FDE) {
			Dwarf_Frame *fr = NULL;
			Dwarf_Addr s, en;
			bool sig;
			struct ustab_row r;
			int64_t off;

			if (dwarf_cfi_addrframe(cfi, a, &fr) || !fr)
				break;
			if (dwarf_frame_info(fr, &s, &en, &sig) < 0 ||
			    en <= a || (off = vaddr_off(l, a)) < 0) {
				free(fr);
				break;
			}
			classify(fr, &r);
			free(fr);
			r.off = (uint64_t)off;
			push_row(t, &cap, &r);
			end = en;
			a = en;
			/* the next FDE starts here: its own turn */
			if (i + 1 < n && a >= starts[i + 1])
				break;
		}
		if (end) {
			struct ustab_row r = { .cfa_reg = USTAB_CFA_NONE,
					       .rbp_rule = USTAB_RBP_LOST };
			int64_t off = vaddr_off(l, end - 1);

			if (off >= 0) {
				r.off = (uint64_t)off + 1;
				push_row(t, &cap, &r);
			}
			covered = end;
		}
	}
	free(starts);
	dwarf_cfi_end(cfi);
	if (!t->nrows)
		return;
	qsort(t->rows, t->nrows, sizeof(*t->rows), row_cmp);
	/* one row per offset (the first, a rule); merge equal neighbours */
	for (i = 1, k = 1; i < t->nrows; i++) {
		if (t->rows[i].off == t->rows[k - 1].off ||
		    same_rule(&t->rows[i], &t->rows[k - 1]))
			continue;
		t->rows[k++] = t->rows[i];
	}
	t->nrows = k;
}

static Elf *open_elf(const char *host, int *fd)
{
	Elf *e;

	elf_version(EV_CURRENT);
	*fd = open(host, O_RDONLY);
	if (*fd < 0)
		return NULL;
	e = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(*fd);
		return NULL;
	}
	return e;
}

struct ustab *ustab_read(const char *host, const char *target, char **err)
{
	struct loads l;
	struct ustab *t;
	int fd;
	Elf *e = open_elf(host, &fd);

	if (!e) {
		*err = xasprintf("cannot read %s as an ELF file", host);
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->target = xstrdup(target);
	t->host = xstrdup(host);
	read_loads(e, &l);
	read_syms(e, &l, t);
	read_cfi(e, &l, t);
	elf_end(e);
	close(fd);
	return t;
}

static int line_cmp(const void *a, const void *b)
{
	const struct ustab_line *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* file_index - the index of @name in @t->files, added when new */
static uint32_t file_index(struct ustab *t, const char *name)
{
	int i;

	for (i = t->files.n - 1; i >= 0; i--)
		if (!strcmp(t->files.items[i], name))
			return (uint32_t)i;
	return (uint32_t)vec_push(&t->files, xstrdup(name));
}

void ustab_read_lines(struct ustab *t)
{
	struct loads l;
	Dwarf *dw;
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0, i, k;
	int fd;
	Elf *e = open_elf(t->host, &fd);

	if (!e)
		return;
	read_loads(e, &l);
	dw = dwarf_begin_elf(e, DWARF_C_READ, NULL);
	while (dw && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL,
				  NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t n;

		if (dwarf_offdie(dw, off + hsize, &cu) &&
		    dwarf_getsrclines(&cu, &lines, &n) == 0)
			for (i = 0; i < n; i++) {
				Dwarf_Line *ln = dwarf_onesrcline(lines, i);
				Dwarf_Addr a;
				int line;
				bool end = false;
				const char *src;
				int64_t fo;

				if (!ln || dwarf_lineaddr(ln, &a) ||
				    dwarf_lineno(ln, &line) ||
				    !(src = dwarf_linesrc(ln, NULL, NULL)))
					continue;
				/* a sequence's end: line 0, unknown */
				if (dwarf_lineendsequence(ln, &end) == 0 && end) {
					line = 0;
					fo = vaddr_off(&l, a - 1);
					if (fo >= 0)
						fo++;
				} else
					fo = vaddr_off(&l, a);
				if (fo < 0)
					continue;
				if (t->nlines == cap) {
					cap = cap ? 2 * cap : 1024;
					t->lines = xrealloc(t->lines,
							    cap * sizeof(*t->lines));
				}
				t->lines[t->nlines].off = (uint64_t)fo;
				t->lines[t->nlines].line = (uint32_t)line;
				t->lines[t->nlines].file = file_index(t, src);
				t->lines[t->nlines].seq = (uint32_t)t->nlines;
				t->nlines++;
			}
		off = next;
	}
	if (dw)
		dwarf_end(dw);
	elf_end(e);
	close(fd);
	if (!t->nlines)
		return;
	qsort(t->lines, t->nlines, sizeof(*t->lines), line_cmp);
	/* one row per offset (the first the table gives: a function's entry
	 * is its opening line; a line over an end of sequence), no repeats */
	for (i = 1, k = 1; i < t->nlines; i++) {
		if (t->lines[i].off == t->lines[k - 1].off) {
			if (!t->lines[k - 1].line)
				t->lines[k - 1] = t->lines[i];
			continue;
		}
		if (t->lines[i].line == t->lines[k - 1].line &&
		    t->lines[i].file == t->lines[k - 1].file)
			continue;
		t->lines[k++] = t->lines[i];
	}
	t->nlines = k;
}

void ustab_free(struct ustab *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < (size_t)t->files.n; i++)
		free(t->files.items[i]);
	free(t->files.items);
	free(t->lines);
	for (i = 0; i < t->nsyms; i++)
		free(t->syms[i].name);
	free(t->syms);
	free(t->rows);
	free(t->target);
	free(t->host);
	free(t);
}

int ustab_needed(const char *host, struct vec *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int fd, n = 0;
	Elf *e = open_elf(host, &fd);

	if (!e)
		return -1;
	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d;
		size_t i;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;
			const char *name;

			if (!gelf_getdyn(d, (int)i, &dyn))
				continue;
			if (dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag != DT_NEEDED)
				continue;
			name = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
			if (name) {
				vec_push(out, xstrdup(name));
				n++;
			}
		}
	}
	elf_end(e);
	close(fd);
	return n;
}
