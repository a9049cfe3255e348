/* btf.c - the BTF debuginfo provider (see debuginfo.h), through libbpf.
 *
 * The kernel's BTF comes from, first found: the .BTF section of the
 * debuginfo vmlinux, /sys/kernel/btf/vmlinux (the running kernel, no
 * sysroot), or the vmlinux unpacked from /boot/vmlinuz (vmlinuz.c,
 * cached).  BTF has no addresses and no source lines: functions are
 * BTF FUNC entries that the symbol table (ksyms.h) says are probeable,
 * and variables are the parameters, valid at the function's entry only,
 * in the x86-64 argument registers.  module("M").function reads the
 * module's .ko: its .BTF (split over the kernel's) and its symbols.
 */
#include "btf_int.h"
#include "vmlinuz.h"
#include "debuginfo/ksyms.h"
#include "debuginfo/kmodfile.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/libbpf.h>

static void init_provider(struct btf_prov *bp, struct session *s,
			  struct btf *btf, char *source);

/* DWARF numbers of rdi rsi rdx rcx r8 r9: the integer argument registers */
static const int arg_regs[6] = { 5, 4, 1, 2, 8, 9 };

static struct btf_prov *bprov(struct dbg_provider *p)
{
	return (struct btf_prov *)p;
}

/* fn_proto - @fn's prototype: its handle is a FUNC id, or for tracepoints
 * without named parameters the FUNC_PROTO id itself. */
static const struct btf_type *fn_proto(struct btf_prov *bp,
				       const struct dbg_function *fn)
{
	const struct btf_type *f =
		btf__type_by_id(bp->btf, (__u32)(uintptr_t)fn->handle);
	return btf_is_func(f) ? btf__type_by_id(bp->btf, f->type) : f;
}

/* first_param - tracepoints' FUNCs (__bpf_trace_NAME) take __data first */
static int first_param(const struct dbg_function *fn)
{
	return fn->is_tracepoint ? 1 : 0;
}

static const char *pname(struct btf_prov *bp, const struct btf_param *p)
{
	const char *n = btf__name_by_offset(bp->btf, p->name_off);
	return n ? n : "";
}

void btf_param_names(struct btf_prov *bp, const struct btf_type *proto,
		     int first, struct vec *names)
{
	const struct btf_param *p = btf_params(proto);
	int i;
	for (i = first; i < btf_vlen(proto); i++)
		if (p[i].type && *pname(bp, &p[i]))
			vec_push(names, (void *)pname(bp, &p[i]));
}

int btf_param_index(struct btf_prov *bp, const struct btf_type *proto,
		    int first, const char *name)
{
	const struct btf_param *p = btf_params(proto);
	int i;
	for (i = first; i < btf_vlen(proto); i++)
		if (p[i].type && !strcmp(pname(bp, &p[i]), name))
			return i;
	return -1;
}

char *btf_list_params(struct btf_prov *bp, const struct btf_type *proto,
		      int first)
{
	struct vec names = {0};
	struct strbuf b = {0};
	int i;
	btf_param_names(bp, proto, first, &names);
	for (i = 0; i < names.n; i++)
		strbuf_printf(&b, " %s", (char *)names.items[i]);
	free(names.items);
	return b.s ? strbuf_detach(&b) : xstrdup(" (none)");
}

/* arg_class - integer registers an argument of type @id takes (1 or 2),
 * or 0 when it is passed in memory; *@aggregate: a struct or union. */
static int arg_class(struct btf_prov *bp, __u32 id, __s64 *size,
		     int *aggregate)
{
	const struct btf_type *t = btf__type_by_id(bp->btf,
						   btf_resolved(bp, id));
	*size = btf__resolve_size(bp->btf, id);
	*aggregate = t && (btf_is_struct(t) || btf_is_union(t));
	if (*size <= 0)
		return 1;
	if (*size > 16)
		return 0;
	return *size > 8 ? 2 : 1;
}

int btf_param_location(struct btf_prov *bp, const struct btf_type *proto,
		       int idx, struct dbg_location *out, char **why)
{
	const struct btf_param *p = btf_params(proto);
	int i, reg = 0, regs, agg;
	__s64 stack = 8, size;          /* rsp points at the return address */
	for (i = 0; i < idx; i++) {
		regs = arg_class(bp, p[i].type, &size, &agg);
		if (regs && reg + regs <= 6)
			reg += regs;
		else
			stack += (size + 7) & ~7;
	}
	regs = arg_class(bp, p[idx].type, &size, &agg);
	out->type = btf_ctype(bp, p[idx].type);
	if (agg) {
		*why = xasprintf("a %s passed by value (%lld bytes) is %s; "
				 "install linux-image-%s-dbg to read it",
				 out->type->name, (long long)size,
				 regs == 0 ? "on the stack" : regs == 1 ?
				 "in a register" : "split over two registers",
				 bp->s->kernel_release);
		return -1;
	}
	if (regs == 2) {
		*why = xasprintf("a 16-byte %s in two registers is not "
				 "supported", out->type->name);
		return -1;
	}
	if (reg < 6) {
		out->kind = DL_VALUE;
		out->c_expr = btf_narrow(xasprintf("stp_reg(c, %d)",
						   arg_regs[reg]), out->type);
	} else {
		out->kind = DL_ADDR;
		out->c_expr = xasprintf("(stp_reg(c, 7) + %lld)",
					(long long)stack);
	}
	return 0;
}

static int lookup_var(struct dbg_provider *p, struct dbg_function *fn,
		      const char *name, const char *loc_lit,
		      struct dbg_location *out, char **why)
{
	struct btf_prov *bp = bprov(p);
	const struct btf_type *proto = fn_proto(bp, fn);
	int first = first_param(fn);
	int i = btf_param_index(bp, proto, first, name);
	if (i < 0) {
		char *params = btf_list_params(bp, proto, first);
		*why = fn->is_tracepoint ?
		       xasprintf("not found; the tracepoint's arguments:%s",
				 params) :
		       xasprintf("not found; parameters:%s (BTF describes "
				 "parameters only; install linux-image-%s-dbg "
				 "for locals)", params, bp->s->kernel_release);
		free(params);
		return -1;
	}
	if (fn->is_tracepoint) {
		const struct btf_type *t = btf__type_by_id(
			bp->btf, btf_resolved(bp, btf_params(proto)[i].type));
		out->type = btf_ctype(bp, btf_params(proto)[i].type);
		if (t && (btf_is_struct(t) || btf_is_union(t))) {
			*why = xasprintf("a %s passed by value cannot be read",
					 out->type->name);
			return -1;
		}
		if (i - first >= 12) {
			*why = xasprintf("argument %d of a tracepoint is beyond "
					 "the 12 the runtime passes", i - first);
			return -1;
		}
		out->kind = DL_VALUE;
		out->c_expr = btf_narrow(xasprintf("c->tp_args[%d]", i - first),
					 out->type);
		return 0;
	}
	if (fn->pc != fn->entry_pc) {
		*why = xasprintf("BTF describes parameters at the function's "
				 "entry only; install linux-image-%s-dbg",
				 bp->s->kernel_release);
		return -1;
	}
	return btf_param_location(bp, proto, i, out, why);
}

static void list_vars(struct dbg_provider *p, struct dbg_function *fn,
		      enum dbg_var_set which, struct vec *names)
{
	struct btf_prov *bp = bprov(p);
	if (which == DBG_PARAMS)
		btf_param_names(bp, fn_proto(bp, fn), first_param(fn), names);
}

static struct ctype *return_type(struct dbg_provider *p,
				 struct dbg_function *fn)
{
	struct btf_prov *bp = bprov(p);
	const struct btf_type *proto = fn_proto(bp, fn);
	if (fn->is_tracepoint || !proto->type)
		return NULL;
	return btf_ctype(bp, proto->type);
}

/* find_type - the id of type @name of BTF kind @kind, or 0 */
static __u32 find_type(struct btf_prov *bp, const char *name, int kind)
{
	int id = btf__find_by_name_kind(bp->btf, name, kind);
	return id > 0 ? id : 0;
}

static struct ctype *lookup_type(struct dbg_provider *p, const char *name,
				 const char *module)
{
	static const struct { const char *prefix; int kinds[3]; } forms[] = {
		{ "struct ", { BTF_KIND_STRUCT, BTF_KIND_FWD } },
		{ "union ", { BTF_KIND_UNION, BTF_KIND_FWD } },
		{ "enum ", { BTF_KIND_ENUM, BTF_KIND_ENUM64 } },
		{ "", { BTF_KIND_STRUCT, BTF_KIND_UNION, BTF_KIND_TYPEDEF } },
	};
	struct btf_prov *bp = bprov(p);
	char *base, *why = NULL;
	size_t len;
	int f, k, stars = 0;
	__u32 id = 0;
	if (module && strcmp(module, "kernel") != 0 && !bp->module) {
		struct btf_prov *mp = btf_module_prov(bp, module, &why);
		free(why);
		return mp ? mp->p.lookup_type(&mp->p, name, NULL) : NULL;
	}
	while (*name == ' ')
		name++;
	base = xstrdup(name);
	for (len = strlen(base); len && (base[len - 1] == '*' ||
					  base[len - 1] == ' '); len--)
		stars += base[len - 1] == '*';
	base[len] = 0;
	for (f = 0; f < 4 && !id; f++) {
		size_t pl = strlen(forms[f].prefix);
		if (strncmp(base, forms[f].prefix, pl) != 0)
			continue;
		for (k = 0; k < 3 && forms[f].kinds[k] && !id; k++)
			id = find_type(bp, base + pl, forms[f].kinds[k]);
		if (!id && !pl)
			id = find_type(bp, base, BTF_KIND_INT);
	}
	free(base);
	if (!id)
		return NULL;
	{
		struct ctype *t = btf_ctype(bp, id);
		while (stars--)
			t = btf_pointer_to(t, NULL);
		return t;
	}
}

static int cmp_fn_name(const void *a, const void *b)
{
	const struct dbg_function *x = *(struct dbg_function *const *)a;
	const struct dbg_function *y = *(struct dbg_function *const *)b;
	return strcmp(x->name, y->name);
}

/* raw_split - @len bytes of raw BTF at @data, split over @base, through
 * a temporary file (libbpf 1.1 parses raw split BTF from files only) */
static struct btf *raw_split(const void *data, size_t len, struct btf *base)
{
	const char *tmp = getenv("TMPDIR");
	char *name = xasprintf("%s/stap-btf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	struct btf *btf = NULL;
	int fd = mkstemp(name);
	if (fd >= 0) {
		if (write(fd, data, len) == (ssize_t)len)
			btf = btf__parse_raw_split(name, base);
		close(fd);
		unlink(name);
	}
	free(name);
	return btf;
}

/* module_btf - the .BTF of the module file at @path, split over the
 * kernel's @base: libbpf reads a plain .ko itself; a compressed one is
 * unpacked in memory and its .BTF section handed over.  NULL if none. */
static struct btf *module_btf(const char *path, struct btf *base)
{
	struct btf *btf = btf__parse_elf_split(path, base);
	int fd;
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t shstr;
	if (btf || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return btf;
	e = kmod_elf_begin(fd);
	while (e && !elf_getshdrstrndx(e, &shstr) &&
	       (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *n;
		if (gelf_getshdr(scn, &sh) &&
		    (n = elf_strptr(e, shstr, sh.sh_name)) &&
		    !strcmp(n, ".BTF")) {
			if ((d = elf_getdata(scn, NULL)) && d->d_buf)
				btf = raw_split(d->d_buf, d->d_size, base);
			break;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return btf;
}

/* btf_module_prov - see btf_int.h */
struct btf_prov *btf_module_prov(struct btf_prov *kp, const char *name,
				    char **why)
{
	struct btf_prov *mp;
	struct btf *btf;
	char *path;
	int i;
	for (i = 0; i < kp->modules.n; i++) {
		mp = kp->modules.items[i];
		if (!strcmp(mp->module, name))
			return mp;
	}
	if (!(path = ksyms_module_file(kp->s, name))) {
		*why = xasprintf("no module %s for kernel %s", name,
				 kp->s->kernel_release);
		return NULL;
	}
	if (!(btf = module_btf(path, kp->btf))) {
		*why = xasprintf("%s has no .BTF", path);
		free(path);
		return NULL;
	}
	mp = xcalloc(1, sizeof(*mp));
	init_provider(mp, kp->s, btf, path);
	mp->module = xstrdup(name);
	mp->first_id = kp->ntypes;
	vec_push(&kp->modules, mp);
	return mp;
}

static int find_functions(struct dbg_provider *p, const struct dbg_query *q,
			  struct vec *out)
{
	struct btf_prov *bp = bprov(p);
	struct ksyms *k = NULL;
	struct vec found = {0};
	char *why = NULL;
	__u32 id;
	int i, n = 0, exact = !strpbrk(q->func, "*?[");
	if (q->module && (!(bp = btf_module_prov(bp, q->module, &why)) ||
			  !(k = ksyms_module(bp->s, q->module, &why)))) {
		diag_error(NULL, "module(\"%s\") from BTF: %s", q->module, why);
		free(why);
		return -1;
	}
	if (q->file || q->line || (q->flags & DBG_Q_STATEMENT)) {
		diag_error(NULL, "BTF has no source files or lines: @FILE, "
			   ":LINE and kernel.statement need DWARF (install "
			   "linux-image-%s-dbg)", bp->s->kernel_release);
		return -1;
	}
	if (q->flags & DBG_Q_INLINE)
		return 0;       /* BTF knows out-of-line functions only */
	if (!q->module && !(k = ksyms_for(bp->s)))
		return -1;
	for (id = bp->first_id; id < bp->ntypes; id++) {
		const struct btf_type *t = btf__type_by_id(bp->btf, id);
		const char *name;
		struct dbg_function *fn;
		uint64_t addr;
		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(bp->btf, t->name_off);
		if (!name || (exact ? strcmp(name, q->func) :
			      fnmatch(q->func, name, 0)))
			continue;
		if (!ksyms_probeable(k, name) || ksyms_addr(k, name, &addr))
			continue;
		if ((q->flags & DBG_Q_EXPORTED) && !ksyms_exported(k, name))
			continue;
		fn = xcalloc(1, sizeof(*fn));
		fn->prov = &bp->p;
		fn->module = bp->module;
		fn->name = (char *)name;
		fn->symbol = (char *)name;
		fn->pc = fn->entry_pc = addr;
		fn->exported = ksyms_exported(k, name);
		fn->handle = (void *)(uintptr_t)id;
		vec_push(&found, fn);
		if (exact)
			break;
	}
	/* a static function may have several FUNCs: the first one */
	qsort(found.items, found.n, sizeof(void *), cmp_fn_name);
	for (i = 0; i < found.n; i++) {
		struct dbg_function *fn = found.items[i];
		if (n && !strcmp(((struct dbg_function *)
				  out->items[out->n - 1])->name, fn->name)) {
			free(fn);
			continue;
		}
		vec_push(out, fn);
		n++;
	}
	free(found.items);
	return n;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (stp_verbose < 2)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int running_kernel(const char *kver)
{
	struct utsname u;
	return uname(&u) == 0 && !strcmp(u.release, kver);
}

/* open_btf - the kernel's BTF from the first source that has it; NULL
 * with *@why naming the places searched. */
static struct btf *open_btf(struct session *s, char **source, char **why)
{
	const char *root = s->sysroot ? s->sysroot : "";
	char *path = xasprintf("%s/usr/lib/debug/boot/vmlinux-%s", root,
			       s->kernel_release);
	struct strbuf tried = {0};
	struct btf *btf = NULL;
	char *err = NULL;
	void *raw;
	size_t len;
	if (access(path, R_OK) == 0 && (btf = btf__parse_elf(path, NULL))) {
		*source = path;
		return btf;
	}
	strbuf_printf(&tried, "%s (%s)", path, access(path, R_OK) ? "missing" :
		      "no .BTF");
	free(path);
	if (!s->sysroot && running_kernel(s->kernel_release)) {
		path = "/sys/kernel/btf/vmlinux";
		if ((btf = btf__parse(path, NULL))) {
			*source = xstrdup(path);
			return btf;
		}
		strbuf_printf(&tried, ", %s (%s)", path, strerror(errno));
	}
	if ((raw = vmlinuz_btf(s, &len, &err)) != NULL) {
		btf = btf__new(raw, len);
		free(raw);
		if (btf) {
			*source = xasprintf("%s/boot/vmlinuz-%s", root,
					    s->kernel_release);
			free(tried.s);
			return btf;
		}
		err = xstrdup("its .BTF does not parse");
	}
	strbuf_printf(&tried, ", %s", err);
	free(err);
	*why = strbuf_detach(&tried);
	return NULL;
}

/* init_provider - fill @bp for @btf (read from @source, kept) */
static void init_provider(struct btf_prov *bp, struct session *s,
			  struct btf *btf, char *source)
{
	bp->p.name = "btf";
	bp->p.find_functions = find_functions;
	bp->p.lookup_var = lookup_var;
	bp->p.list_vars = list_vars;
	bp->p.return_type = return_type;
	bp->p.lookup_type = lookup_type;
	bp->p.lookup_global = NULL;
	bp->s = s;
	bp->btf = btf;
	bp->source = source;
	bp->ntypes = btf__type_cnt(btf);
	bp->first_id = 1;
	if (stp_verbose >= 2)
		fprintf(stderr, "btf: %u types from %s\n", bp->ntypes, source);
}

struct dbg_provider *dbg_btf_open(struct session *s, char **why)
{
	struct btf_prov *bp;
	struct btf *btf;
	char *source = NULL;
	libbpf_set_print(libbpf_quiet);
	if (!(btf = open_btf(s, &source, why)))
		return NULL;
	bp = xcalloc(1, sizeof(*bp));
	init_provider(bp, s, btf, source);
	return &bp->p;
}
