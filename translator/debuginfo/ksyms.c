/* ksyms.c - the kernel's symbol table (see ksyms.h).
 *
 * Symbols are loaded once per session into one array sorted by address
 * (for ksyms_symbol_at) and an index sorted by name (for lookups by
 * name, bsearch).  Sources, first found wins:
 *   SYSROOT/usr/lib/debug/boot/vmlinux-KVER   ELF .symtab, with sizes
 *   SYSROOT/boot/System.map-KVER              (and the copy under
 *   SYSROOT/usr/lib/debug/boot/)              sizes from the next symbol
 *   /proc/kallsyms                            KVER running, no sysroot
 *   the DWARF vmlinux from a debuginfod server (debuginfod.h)
 * Debian ships a one-line placeholder System.map in /boot; it is
 * recognised and skipped.
 */
#include "ksyms.h"
#include "debuginfo/kmodfile.h"
#include "debuginfo/btf/vmlinuz.h"
#include "debuginfo/debuginfod.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

struct ksym {
	const char *name;
	uint64_t addr;
	uint64_t size;          /* bytes; from the next symbol if unknown */
	unsigned func : 1;      /* a text symbol */
	unsigned global : 1;    /* T/W (not t): preferred among aliases */
	unsigned probeable : 1;
	unsigned exported : 1;
};

struct ksyms {
	struct ksym *syms;      /* sorted by address */
	int n, cap;
	struct ksym **by_name;  /* sorted by name, then address */
	char *source;           /* the file the symbols came from */
	int nblacklist;         /* addresses on the kprobe blacklist */
	struct session *session;
	char *image;            /* the debuginfo vmlinux's path (maybe
	                         * missing: then /boot/vmlinuz is read) */
	uint64_t *fentry;       /* ftrace's call sites, sorted; loaded by
	                         * ksyms_ftrace_site */
	size_t nfentry;
	int fentry_state;       /* 0: not tried, 1: loaded, -1: unknown */
	uint64_t refused[6][2]; /* refused_ranges' [start, end) addresses
	                         * (0, 0: not in this image) */
};

/* The [start, end) symbol pairs of text kprobes refuse, as the kernel's
 * within_kprobe_blacklist() and the x86 arch check do, plus init text
 * (freed after boot). */
static const char *const refused_ranges[][2] = {
	{ "__kprobes_text_start", "__kprobes_text_end" },
	{ "__entry_text_start", "__entry_text_end" },
	{ "__noinstr_text_start", "__noinstr_text_end" },
	{ "__irqentry_text_start", "__irqentry_text_end" },
	{ "__softirqentry_text_start", "__softirqentry_text_end" },
	{ "_sinittext", "_einittext" },
};

static void add_sym(struct ksyms *k, const char *name, uint64_t addr,
		    uint64_t size, int func, int global)
{
	struct ksym *y;
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 65536;
		k->syms = xrealloc(k->syms, k->cap * sizeof(*k->syms));
	}
	y = &k->syms[k->n++];
	memset(y, 0, sizeof(*y));
	y->name = xstrdup(name);
	y->addr = addr;
	y->size = size;
	y->func = func;
	y->global = global;
}

/* init_sections - flags[i] = 1 for the sections whose code is freed
 * after boot or module load (.init.*, .exit.*): no kprobes there.
 * Returns a heap array of elf_getshdrnum() flags. */
static char *init_sections(Elf *e)
{
	size_t n = 0, shstr, i;
	char *flags;
	if (elf_getshdrnum(e, &n) != 0 || elf_getshdrstrndx(e, &shstr) != 0)
		return xcalloc(1, 1);
	flags = xcalloc(n + 1, 1);
	for (i = 1; i < n; i++) {
		GElf_Shdr sh;
		const char *name;
		if (gelf_getshdr(elf_getscn(e, i), &sh) &&
		    (name = elf_strptr(e, shstr, sh.sh_name)))
			flags[i] = !strncmp(name, ".init", 5) ||
				   !strncmp(name, ".exit", 5);
	}
	return flags;
}

/* load_elf_symtab - the .symtab of the ELF file @path: vmlinux, or a
 * module .ko (relocatable: section-relative addresses, 0 included).
 * Functions in init/exit sections are left out.  Returns 0, or -1 when
 * the file is missing or has no symbol table. */
static int load_elf_symtab(struct ksyms *k, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	char *init = NULL;
	size_t ninit = 0;
	if (fd < 0)
		return -1;
	e = kmod_elf_begin(fd);
	if (e && gelf_getehdr(e, &eh)) {
		init = init_sections(e);
		elf_getshdrnum(e, &ninit);
	}
	while (init && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, nsyms;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		nsyms = sh.sh_size / sh.sh_entsize;
		for (i = 1; i < nsyms; i++) {
			GElf_Sym sym;
			const char *name;
			int type;
			if (!gelf_getsym(d, i, &sym) ||
			    (!sym.st_value && eh.e_type != ET_REL) ||
			    sym.st_shndx == SHN_UNDEF)
				continue;
			type = GELF_ST_TYPE(sym.st_info);
			if (type != STT_FUNC && type != STT_OBJECT &&
			    type != STT_NOTYPE)
				continue;
			if (type == STT_FUNC && sym.st_shndx < ninit &&
			    init[sym.st_shndx])
				continue;
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			add_sym(k, name, sym.st_value, sym.st_size,
				type == STT_FUNC,
				GELF_ST_BIND(sym.st_info) != STB_LOCAL);
		}
		ret = k->n ? 0 : -1;
		break;
	}
	free(init);
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

/* load_map - System.map or /proc/kallsyms lines "ADDR TYPE NAME [MOD]";
 * module symbols (with a fourth column) are skipped.  Returns 0, or -1
 * when the file is missing, a placeholder, or all addresses are hidden. */
static int load_map(struct ksyms *k, const char *path)
{
	FILE *f = fopen(path, "re");
	char line[512];
	int nonzero = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256], mod[2];
		int n = sscanf(line, "%llx %c %255s %1s", &addr, &type, name,
			       mod);
		if (n != 3 || addr == ~0ULL || name[0] == '.')
			continue;	/* local labels such as .slowpath */
		if (addr)
			nonzero++;
		add_sym(k, name, addr, 0, strchr("TtWw", type) != NULL,
			strchr("TW", type) != NULL);
	}
	fclose(f);
	if (nonzero < 1000) {
		/* a placeholder, or addresses hidden by kptr_restrict */
		int i;
		for (i = 0; i < k->n; i++)
			free((char *)k->syms[i].name);
		k->n = 0;
		return -1;
	}
	return 0;
}

static int cmp_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_name(const void *a, const void *b)
{
	const struct ksym *x = *(struct ksym *const *)a;
	const struct ksym *y = *(struct ksym *const *)b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* find - the first symbol called @name (lowest address), or NULL. */
static struct ksym *find(struct ksyms *k, const char *name)
{
	int lo = 0, hi = k->n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (strcmp(k->by_name[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < k->n && !strcmp(k->by_name[lo]->name, name) ?
	       k->by_name[lo] : NULL;
}

/* func_at - the function symbol containing @addr, preferring a global
 * one among aliases at the same address; NULL if none. */
static struct ksym *func_at(struct ksyms *k, uint64_t addr)
{
	int lo = 0, hi = k->n, i;
	struct ksym *best = NULL, *start = NULL;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (k->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the function symbols at the highest address <= addr */
	for (i = lo - 1; i >= 0; i--) {
		struct ksym *y = &k->syms[i];
		if (!y->func)
			continue;
		if (start && y->addr != start->addr)
			break;
		start = y;
		if (addr >= y->addr + (y->size ? y->size : 1))
			continue;
		if (!best || (y->global && !best->global))
			best = y;
	}
	return best;
}

/* index_syms - sort, fill unknown sizes from the next higher address, build
 * the name index and mark exported symbols. */
static void index_syms(struct ksyms *k)
{
	int i, j;
	qsort(k->syms, k->n, sizeof(*k->syms), cmp_addr);
	for (i = 0; i < k->n; i = j) {
		for (j = i + 1; j < k->n && k->syms[j].addr == k->syms[i].addr;
		     j++)
			;
		if (j < k->n) {
			int m;
			for (m = i; m < j; m++)
				if (!k->syms[m].size)
					k->syms[m].size = k->syms[j].addr -
							  k->syms[m].addr;
		}
	}
	k->by_name = xmalloc((k->n + 1) * sizeof(*k->by_name));
	for (i = 0; i < k->n; i++)
		k->by_name[i] = &k->syms[i];
	qsort(k->by_name, k->n, sizeof(*k->by_name), cmp_name);
	for (i = 0; i < k->n; i++) {
		const char *n = k->by_name[i]->name;
		struct ksym *y;
		if (strncmp(n, "__ksymtab_", 10) != 0)
			continue;
		if ((y = find(k, n + 10)) != NULL)
			y->exported = 1;
	}
}

/* mark_same_name - symbols named like an exported one are exported too
 * (index_syms marked the first; static duplicates follow it by name). */
static void mark_same_name(struct ksyms *k)
{
	int i;
	for (i = 1; i < k->n; i++)
		if (k->by_name[i - 1]->exported &&
		    !strcmp(k->by_name[i - 1]->name, k->by_name[i]->name))
			k->by_name[i]->exported = 1;
}

/* refuse_at - the function containing @addr (a blacklist entry) and
 * its aliases at the same address may not be probed. */
static void refuse_at(struct ksyms *k, uint64_t addr)
{
	struct ksym *f = func_at(k, addr);
	int j;
	if (!f)
		return;
	for (j = f - k->syms; j >= 0 && k->syms[j].addr == f->addr; j--)
		k->syms[j].probeable = 0;
	for (j = f - k->syms; j < k->n && k->syms[j].addr == f->addr; j++)
		k->syms[j].probeable = 0;
}

/* elf_u64s - the unsigned longs at link-time addresses [@start, @stop)
 * of the vmlinux image @path, read from the section holding them: heap,
 * *@n of them; NULL when the file or the range is not there. */
static uint64_t *elf_u64s(const char *path, uint64_t start, uint64_t stop,
			  size_t *n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint64_t *v = NULL;
	Elf_Scn *scn = NULL;
	Elf *e;
	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (e && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    start < sh.sh_addr || stop > sh.sh_addr + sh.sh_size)
			continue;
		if ((d = elf_rawdata(scn, NULL)) && d->d_buf &&
		    d->d_size >= sh.sh_size) {
			*n = (stop - start) / sizeof(*v);
			v = xmalloc((*n + 1) * sizeof(*v));
			memcpy(v, (char *)d->d_buf + (start - sh.sh_addr),
			       *n * sizeof(*v));
		}
		break;
	}
	if (e)
		elf_end(e);
	close(fd);
	return v;
}

/* image_u64s - the unsigned longs between the link-time addresses of
 * symbols @start and @stop (a table the kernel keeps in its image: the
 * kprobe blacklist, the ftrace call sites) from the debuginfo vmlinux
 * @debug, else from /boot/vmlinuz (vmlinuz.h, unpacked once): heap, *@n
 * of them; NULL when neither has them. */
static uint64_t *image_u64s(struct ksyms *k, struct session *s,
			    const char *debug, const char *start,
			    const char *stop, size_t *n)
{
	struct ksym *a = find(k, start), *b = find(k, stop);
	uint64_t *v;
	char *why = NULL;
	if (!a || !b || b->addr < a->addr || b->addr - a->addr > (16u << 20))
		return NULL;
	if ((v = elf_u64s(debug, a->addr, b->addr, n)))
		return v;
	*n = (b->addr - a->addr) / sizeof(*v);
	v = xmalloc((*n + 1) * sizeof(*v));
	if (vmlinuz_read(s, a->addr, *n * sizeof(*v), v, &why)) {
		if (stp_verbose >= 1)
			fprintf(stderr, "ksyms: no %s..%s: %s\n", start, stop,
				why);
		free(why);
		free(v);
		return NULL;
	}
	return v;
}

/* blacklist_from_image - the kprobe blacklist of the vmlinux image:
 * each listed address's function is refused.  Returns the number of
 * entries, or -1. */
static int blacklist_from_image(struct ksyms *k, struct session *s,
				const char *debug)
{
	size_t i, n;
	uint64_t *v = image_u64s(k, s, debug, "__start_kprobe_blacklist",
				 "__stop_kprobe_blacklist", &n);
	if (!v)
		return -1;
	for (i = 0; i < n; i++)
		refuse_at(k, v[i]);
	free(v);
	return (int)n;
}

/* blacklist_from_debugfs - the running kernel's blacklist as it lists it
 * ("0xSTART-0xEND\tNAME" lines; root only), for /proc/kallsyms, whose
 * addresses are the running kernel's (KASLR) and not the image's.
 * Returns the number of entries, or -1. */
static int blacklist_from_debugfs(struct ksyms *k)
{
	FILE *f = fopen("/sys/kernel/debug/kprobes/blacklist", "re");
	char line[512];
	int n = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end;
		if (sscanf(line, "0x%llx-0x%llx", &start, &end) == 2) {
			refuse_at(k, start);
			n++;
		}
	}
	fclose(f);
	return n;
}

/* mark_probeable - text symbols outside the refused ranges, other than
 * __pfx_ padding and .cold/.part fragments without their own entry. */
static void mark_probeable(struct ksyms *k)
{
	int nr = sizeof(refused_ranges) / sizeof(refused_ranges[0]);
	int i, r;
	_Static_assert(sizeof(refused_ranges) / sizeof(refused_ranges[0]) ==
		       sizeof(k->refused) / sizeof(k->refused[0]),
		       "one [start, end) per refused range");
	for (r = 0; r < nr; r++) {
		struct ksym *a = find(k, refused_ranges[r][0]);
		struct ksym *b = find(k, refused_ranges[r][1]);
		k->refused[r][0] = a && b ? a->addr : 0;
		k->refused[r][1] = a && b ? b->addr : 0;
	}
	for (i = 0; i < k->n; i++) {
		struct ksym *y = &k->syms[i];
		y->probeable = y->func && strncmp(y->name, "__pfx_", 6) &&
			       !strstr(y->name, ".cold") &&
			       !ksyms_refused_at(k, y->addr);
	}
}

int ksyms_refused_at(struct ksyms *k, uint64_t addr)
{
	size_t r;
	for (r = 0; r < sizeof(k->refused) / sizeof(k->refused[0]); r++)
		if (addr >= k->refused[r][0] && addr < k->refused[r][1])
			return 1;
	return 0;
}

static int running_kernel(const char *kver)
{
	struct utsname u;
	return uname(&u) == 0 && !strcmp(u.release, kver);
}

struct ksyms *ksyms_for(struct session *s)
{
	const char *root = s->sysroot ? s->sysroot : "";
	const char *kver = s->kernel_release;
	struct ksyms *k;
	struct strbuf tried = {0};
	char *debug, *path;
	int n;

	if (s->ksyms_tried)
		return s->ksyms;
	s->ksyms_tried = 1;
	k = xcalloc(1, sizeof(*k));
	debug = xasprintf("%s/usr/lib/debug/boot/vmlinux-%s", root, kver);
	if (load_elf_symtab(k, debug) == 0)
		k->source = xstrdup(debug);
	strbuf_printf(&tried, "%s", debug);
	if (!k->source) {
		const char *maps[] = { "%s/boot/System.map-%s",
				       "%s/usr/lib/debug/boot/System.map-%s" };
		for (n = 0; n < 2 && !k->source; n++) {
			path = xasprintf(maps[n], root, kver);
			if (load_map(k, path) == 0)
				k->source = path;
			else {
				strbuf_printf(&tried, ", %s", path);
				free(path);
			}
		}
	}
	if (!k->source && !s->sysroot && running_kernel(kver)) {
		if (load_map(k, "/proc/kallsyms") == 0)
			k->source = xstrdup("/proc/kallsyms");
		else
			strbuf_add(&tried, ", /proc/kallsyms (addresses "
				   "hidden: run as root)");
	}
	if (!k->source && dbgd_enabled()) {
		char *err = NULL, *fetched = dbgd_kernel(s, &err);
		if (fetched && load_elf_symtab(k, fetched) == 0) {
			k->source = fetched;
			free(debug);
			debug = xstrdup(fetched);
		} else {
			strbuf_printf(&tried, "; %s", err ? err : fetched);
			free(fetched);
		}
		free(err);
	}
	if (!k->source) {
		diag_error(NULL, "no symbol table for kernel %s (searched %s; "
			   "a System.map of one line is Debian's placeholder: "
			   "install linux-image-%s-dbg: stap-prep)  [man error::dwarf]", kver,
			   strbuf_str(&tried), kver);
		free(tried.s);
		free(debug);
		free(k);
		return NULL;
	}
	free(tried.s);
	index_syms(k);
	mark_same_name(k);
	mark_probeable(k);
	if (!strcmp(k->source, "/proc/kallsyms"))
		k->nblacklist = blacklist_from_debugfs(k);
	else
		k->nblacklist = blacklist_from_image(k, s, debug);
	k->session = s;
	k->image = debug;
	debug = NULL;
	if (stp_verbose >= 2)
		fprintf(stderr, "ksyms: %d symbols from %s, %d blacklisted "
			"addresses\n", k->n, k->source, k->nblacklist);
	free(debug);
	s->ksyms = k;
	return k;
}

int ksyms_addr(struct ksyms *k, const char *name, uint64_t *addr)
{
	struct ksym *y = find(k, name);
	if (!y)
		return -1;
	*addr = y->addr;
	return 0;
}

const char *ksyms_alias(struct ksyms *k, const char *name)
{
	struct ksym *y = find(k, name), *a;
	const char *best = NULL;
	if (!y || !y->func)
		return NULL;
	/* y is in syms, sorted by address: its neighbours of the same
	 * address, on both sides */
	for (a = y; a > k->syms && a[-1].addr == y->addr; a--)
		;
	for (; a < k->syms + k->n && a->addr == y->addr; a++)
		if (a->func && strcmp(a->name, name) &&
		    (!best || strcmp(a->name, best) < 0))
			best = a->name;
	return best;
}

const char *ksyms_symbol_at(struct ksyms *k, uint64_t addr, uint64_t *off)
{
	struct ksym *y = func_at(k, addr);
	if (!y)
		return NULL;
	*off = addr - y->addr;
	return y->name;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int has_u64(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == x;
}

int ksyms_ftrace_site(struct ksyms *k, uint64_t addr, uint64_t *site)
{
	if (!k->fentry_state) {
		k->fentry_state = -1;
		if (k->session && strcmp(k->source, "/proc/kallsyms") &&
		    (k->fentry = image_u64s(k, k->session, k->image,
					    "__start_mcount_loc",
					    "__stop_mcount_loc", &k->nfentry))) {
			qsort(k->fentry, k->nfentry, sizeof(*k->fentry),
			      cmp_u64);
			k->fentry_state = 1;
		}
		if (stp_verbose >= 2)
			fprintf(stderr, "ksyms: %zu ftrace call sites%s\n",
				k->nfentry, k->fentry_state < 0 ?
				" (none found: unknown)" : "");
	}
	if (k->fentry_state < 0)
		return -1;
	/* the call is a function's first instruction, or follows its
	 * endbr64 (x86 IBT) */
	if (has_u64(k->fentry, k->nfentry, addr)) {
		*site = addr;
		return 1;
	}
	if (has_u64(k->fentry, k->nfentry, addr + 4)) {
		*site = addr + 4;
		return 1;
	}
	return 0;
}

int ksyms_probeable(struct ksyms *k, const char *name)
{
	struct ksym *y = find(k, name);
	return y && y->probeable;
}

int ksyms_exported(struct ksyms *k, const char *name)
{
	struct ksym *y = find(k, name);
	return y && y->exported;
}

static int has_wildcard(const char *p)
{
	return strpbrk(p, "*?[") != NULL;
}

void ksyms_each_function(struct ksyms *k, const char *pattern,
			 void (*fn)(void *arg, const char *name, uint64_t addr),
			 void *arg)
{
	int i;
	if (!has_wildcard(pattern)) {
		struct ksym *y = find(k, pattern);
		if (y && y->probeable)
			fn(arg, y->name, y->addr);
		return;
	}
	for (i = 0; i < k->n; i++) {
		struct ksym *y = k->by_name[i];
		/* a name registers at its first symbol: only that one */
		if (i > 0 && !strcmp(k->by_name[i - 1]->name, y->name))
			continue;
		if (!y->probeable || fnmatch(pattern, y->name, 0) != 0)
			continue;
		fn(arg, y->name, y->addr);
	}
}

/* The modules' symbol tables loaded in this process. */
static struct vec module_syms;  /* struct ksyms *, source = module name */
static struct session *module_syms_session;

/* forget_module_syms - util_on_reset */
static void forget_module_syms(void)
{
	memset(&module_syms, 0, sizeof(module_syms));
	module_syms_session = NULL;
}

static void normalise(char *name)
{
	for (; *name; name++)
		if (*name == '-')
			*name = '_';
}

char *ksyms_module_file(struct session *s, const char *name)
{
	char *dir = xasprintf("%s/lib/modules/%s", s->sysroot ? s->sysroot : "",
			      s->kernel_release);
	char *order = xasprintf("%s/modules.order", dir);
	char *text = read_file(order, NULL), *line, *next, *want, *ret = NULL;
	free(order);
	want = xstrdup(name);
	normalise(want);
	for (line = text; line && !ret; line = next) {
		char *base, *dot;
		if ((next = strchr(line, '\n')))
			*next++ = 0;
		base = strrchr(line, '/');
		base = xstrdup(base ? base + 1 : line);
		if ((dot = strstr(base, ".ko")) && !dot[3]) {
			*dot = 0;
			normalise(base);
			if (!strcmp(base, want))
				ret = kmod_file(s, line);
		}
		free(base);
	}
	free(text);
	free(want);
	free(dir);
	return ret;
}

struct ksyms *ksyms_module(struct session *s, const char *name, char **why)
{
	struct ksyms *k;
	char *path, *key = xstrdup(name);
	int i;
	normalise(key);
	if (module_syms_session != s) {
		module_syms.n = 0;
		module_syms_session = s;
		util_on_reset(forget_module_syms);
	}
	for (i = 0; i < module_syms.n; i++) {
		k = module_syms.items[i];
		if (!strcmp(k->source, key)) {
			free(key);
			return k;
		}
	}
	if (!(path = ksyms_module_file(s, name))) {
		*why = xasprintf("no module %s in %s/lib/modules/%s/modules.order",
				 name, s->sysroot ? s->sysroot : "",
				 s->kernel_release);
		free(key);
		return NULL;
	}
	k = xcalloc(1, sizeof(*k));
	if (load_elf_symtab(k, path) < 0) {
		*why = xasprintf("%s: no symbol table", path);
		free(path);
		free(key);
		free(k);
		return NULL;
	}
	free(path);
	k->source = key;
	index_syms(k);
	mark_same_name(k);
	mark_probeable(k);
	k->nblacklist = -1;
	vec_push(&module_syms, k);
	return k;
}
