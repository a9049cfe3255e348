/* usdt.c - SDT markers: reading .note.stapsdt with libelf, and the
 * provider that turns an argument spec into C (see usdt.h).
 *
 * A note's descriptor (64-bit ELF) holds three addresses -- the marker's
 * pc, the link-time address of .stapsdt.base and the semaphore's address
 * (0: none) -- then three NUL-terminated strings: provider, name and the
 * argument spec, space-separated `[-]SIZE@OPERAND` (a negative size is a
 * signed value) with GNU as operands on x86-64: %reg, $imm, OFF(%reg).
 */
#include "debuginfo/debuginfo.h"
#include "uelf_int.h"

#include <ctype.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

#define NT_STAPSDT 3

/* file_offset - uelf_file_offset(), 0 when no segment holds @a */
static uint64_t file_offset(Elf *elf, uint64_t a)
{
	uint64_t off = uelf_file_offset(elf, a);
	return off == (uint64_t)-1 ? 0 : off;
}

/* base_addr - the address of section .stapsdt.base, 0 if none */
static uint64_t base_addr(Elf *elf)
{
	GElf_Shdr sh;
	return uelf_section_named(elf, ".stapsdt.base", &sh) ? sh.sh_addr : 0;
}

static void add_note(Elf *elf, const char *d, size_t len, uint64_t base,
		     const char *prov, const char *name, struct vec *out,
		     int *found)
{
	uint64_t a[3];
	const char *p = d + 24, *end = d + len, *nm, *args;
	struct usdt_note *n;
	if (len < 24 + 3 || gelf_getclass(elf) != ELFCLASS64)
		return;
	memcpy(a, d, 24);
	nm = memchr(p, 0, end - p) ? p + strlen(p) + 1 : end;
	args = nm < end && memchr(nm, 0, end - nm) ? nm + strlen(nm) + 1 : end;
	if (nm >= end || (prov && fnmatch(prov, p, 0)) || fnmatch(name, nm, 0))
		return;
	if (base && a[1] && base != a[1]) {     /* prelinked */
		a[0] += base - a[1];
		if (a[2])
			a[2] += base - a[1];
	}
	n = xcalloc(1, sizeof(*n));
	n->provider = xstrdup(p);
	n->name = xstrdup(nm);
	n->args = xstrdup(args < end && memchr(args, 0, end - args) ? args : "");
	n->pc = a[0];
	n->offset = file_offset(elf, a[0]);
	n->sem_offset = a[2] ? file_offset(elf, a[2]) : 0;
	if (!n->offset) {
		free(n->provider);
		free(n->name);
		free(n->args);
		free(n);
		return;
	}
	vec_push(out, n);
	(*found)++;
}

int usdt_notes(const char *host, const char *prov, const char *name,
	       struct vec *out, char **err)
{
	int fd, found = 0;
	Elf *elf = uelf_open(host, &fd, err);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	uint64_t base;
	if (!elf)
		return -1;
	base = base_addr(elf);
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		while (data && (off = gelf_getnote(data, off, &nh, &noff,
						   &doff)) > 0) {
			const char *owner = (const char *)data->d_buf + noff;
			if (nh.n_type == NT_STAPSDT && nh.n_namesz == 8 &&
			    !memcmp(owner, "stapsdt", 8))
				add_note(elf, (const char *)data->d_buf + doff,
					 nh.n_descsz, base, prov, name, out,
					 &found);
		}
	}
	uelf_close(elf, fd);
	return found;
}

/* ---- argument specs ---- */

/* DWARF register numbers of x86-64 by every name GNU as may use */
static const struct { const char *n[4]; int regno; } regs[] = {
	{ { "rax", "eax", "ax", "al" }, 0 },
	{ { "rdx", "edx", "dx", "dl" }, 1 },
	{ { "rcx", "ecx", "cx", "cl" }, 2 },
	{ { "rbx", "ebx", "bx", "bl" }, 3 },
	{ { "rsi", "esi", "si", "sil" }, 4 },
	{ { "rdi", "edi", "di", "dil" }, 5 },
	{ { "rbp", "ebp", "bp", "bpl" }, 6 },
	{ { "rsp", "esp", "sp", "spl" }, 7 },
	{ { "r8", "r8d", "r8w", "r8b" }, 8 },
	{ { "r9", "r9d", "r9w", "r9b" }, 9 },
	{ { "r10", "r10d", "r10w", "r10b" }, 10 },
	{ { "r11", "r11d", "r11w", "r11b" }, 11 },
	{ { "r12", "r12d", "r12w", "r12b" }, 12 },
	{ { "r13", "r13d", "r13w", "r13b" }, 13 },
	{ { "r14", "r14d", "r14w", "r14b" }, 14 },
	{ { "r15", "r15d", "r15w", "r15b" }, 15 },
	{ { "rip", "eip", NULL, NULL }, 16 },
};

static int regno_of(const char *name, size_t len)
{
	size_t i, j;
	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		for (j = 0; j < 4; j++)
			if (regs[i].n[j] && strlen(regs[i].n[j]) == len &&
			    !strncmp(regs[i].n[j], name, len))
				return regs[i].regno;
	return -1;
}

/* nth_arg - the @i-th (from 1) space-separated spec of @args into a heap
 * string, or NULL */
static char *nth_arg(const char *args, int i)
{
	const char *p = args;
	for (;;) {
		size_t n;
		while (*p == ' ')
			p++;
		if (!*p)
			return NULL;
		n = strcspn(p, " ");
		if (--i == 0)
			return xstrndup(p, n);
		p += n;
	}
}

static int count_args(const char *args)
{
	int n = 0;
	char *a;
	while ((a = nth_arg(args, n + 1))) {
		free(a);
		n++;
	}
	return n;
}

/* spec_expr - C for one `[-]SIZE@OPERAND` (see the conventions in
 * debuginfo.h; "LOC" stands for the script location); NULL if unknown */
static char *spec_expr(const char *spec)
{
	char *end, *at = strchr(spec, '@');
	long size = strtol(spec, &end, 10);
	const char *op, *cast;
	int sgn = size < 0, r;
	static const char *const scast[] = { "s8", "s16", "s32", "s64" };
	static const char *const ucast[] = { "u8", "u16", "u32", "u64" };
	if (!at || end != at)
		return NULL;
	size = labs(size);
	switch (size) {
	case 1: cast = (sgn ? scast : ucast)[0]; break;
	case 2: cast = (sgn ? scast : ucast)[1]; break;
	case 4: cast = (sgn ? scast : ucast)[2]; break;
	case 8: cast = (sgn ? scast : ucast)[3]; break;
	default: return NULL;
	}
	op = at + 1;
	if (*op == '%') {                           /* %reg */
		r = regno_of(op + 1, strlen(op + 1));
		return r < 0 ? NULL :
		       xasprintf("(unsigned long)(%s)stp_reg(c, %d)", cast, r);
	}
	if (*op == '$') {                           /* $imm */
		long long v = strtoll(op + 1, &end, 0);
		return *end || end == op + 1 ? NULL :
		       xasprintf("(unsigned long)(%s)%lldLL", cast, v);
	}
	{                                           /* [OFF](%reg) */
		long long off = 0;
		const char *lp = strchr(op, '('), *rp;
		if (!lp || lp[1] != '%')
			return NULL;
		if (lp != op) {
			off = strtoll(op, &end, 0);
			if (end != lp)
				return NULL;
		}
		rp = strchr(lp, ')');
		if (!rp || rp[1])
			return NULL;
		r = regno_of(lp + 2, rp - lp - 2);
		if (r < 0 || r == 16)   /* %rip-relative: not yet */
			return NULL;
		return xasprintf("(unsigned long)(%s)stp_read_user(c, "
				 "stp_reg(c, %d) + (%lldLL), %ld, LOC)", cast, r,
				 off, size);
	}
}

static struct ctype long_type = { .kind = CT_INT, .name = "long",
				  .size = 8, .is_signed = 1 };

static int sdt_lookup_var(struct dbg_provider *p, struct dbg_function *fn,
			  const char *name, const char *loc_lit,
			  struct dbg_location *out, char **why)
{
	struct usdt_note *n = fn->handle;
	char *spec, *e, *end;
	long i;
	(void)p;
	(void)loc_lit;
	if (strncmp(name, "arg", 3) || !isdigit((unsigned char)name[3]) ||
	    (i = strtol(name + 3, &end, 10)) < 1 || *end) {
		*why = xasprintf("not found; marker %s:%s has $arg1..$arg%d",
				 n->provider, n->name, count_args(n->args));
		return -1;
	}
	spec = nth_arg(n->args, (int)i);
	if (!spec) {
		*why = xasprintf("not found; marker %s:%s has %d argument%s",
				 n->provider, n->name, count_args(n->args),
				 count_args(n->args) == 1 ? "" : "s");
		return -1;
	}
	e = spec_expr(spec);
	if (!e) {
		*why = xasprintf("argument spec '%s' of marker %s:%s is not "
				 "supported", spec, n->provider, n->name);
		free(spec);
		return -1;
	}
	free(spec);
	out->kind = DL_VALUE;
	out->c_expr = e;
	out->type = &long_type;
	return 0;
}

static void sdt_list_vars(struct dbg_provider *p, struct dbg_function *fn,
			  enum dbg_var_set which, struct vec *names)
{
	struct usdt_note *n = fn->handle;
	int i, k = count_args(n->args);
	(void)p;
	if (which != DBG_PARAMS)
		return;
	for (i = 1; i <= k; i++)
		vec_push(names, xasprintf("arg%d", i));
}

static struct ctype *sdt_return_type(struct dbg_provider *p,
				     struct dbg_function *fn)
{
	(void)p;
	(void)fn;
	return NULL;
}

static struct ctype *sdt_lookup_type(struct dbg_provider *p, const char *name,
				     const char *module)
{
	(void)p;
	(void)name;
	(void)module;
	return NULL;
}

static struct dbg_provider sdt_provider = {
	.name = "sdt",
	.lookup_var = sdt_lookup_var,
	.list_vars = sdt_list_vars,
	.return_type = sdt_return_type,
	.lookup_type = sdt_lookup_type,
};

struct dbg_function *usdt_function(struct usdt_note *n, char **err)
{
	struct dbg_function *fn;
	(void)err;   /* specs are checked when an argument is used */
	fn = xcalloc(1, sizeof(*fn));
	fn->prov = &sdt_provider;
	fn->name = xasprintf("%s:%s", n->provider, n->name);
	fn->pc = n->pc;
	fn->handle = n;
	return fn;
}
