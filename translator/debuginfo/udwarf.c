/* udwarf.c - target variables of user-space functions from the program's
 * own DWARF (see udwarf.h).  Deliberately small: values in registers at
 * the function's entry and scalar types only, so no generated read ever
 * touches memory (kernel reads of a user address would be wrong, and
 * user pointers are followed with user_long() & co by scripts). */
#include "debuginfo/debuginfo.h"

#include <dwarf.h>
#include <fnmatch.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct udw_fn {
	Dwarf *dw;
	Dwarf_Die die;
	uint64_t entry;
	int is_return;
};

struct find_arg {
	uint64_t addr;
	Dwarf_Die found;
	int ok;
};

/* first_pc - the lowest address of @die's first range (DW_AT_low_pc, or
 * the first of DW_AT_ranges, as link-time optimisation and hot/cold
 * splitting leave them): 0 on success */
static int first_pc(Dwarf_Die *die, Dwarf_Addr *lo)
{
	Dwarf_Addr base, start, end;
	if (dwarf_lowpc(die, lo) == 0)
		return 0;
	if (dwarf_ranges(die, 0, &base, &start, &end) > 0) {
		*lo = start;
		return 0;
	}
	return -1;
}

static int find_cb(Dwarf_Die *die, void *arg)
{
	struct find_arg *a = arg;
	Dwarf_Addr lo;
	if (first_pc(die, &lo) == 0 && lo == a->addr) {
		a->found = *die;
		a->ok = 1;
		return DWARF_CB_ABORT;
	}
	return DWARF_CB_OK;
}

/* scalar_type - the ctype of DIE @die's DW_AT_type when it is an integer,
 * enum or pointer (pointers as unsigned 8-byte integers); NULL otherwise
 * (also for no type: void) */
static struct ctype *scalar_type(Dwarf_Die *die)
{
	Dwarf_Attribute at;
	Dwarf_Die t;
	struct ctype *c;
	Dwarf_Word enc = 0;
	int tag, size;
	if (!dwarf_attr_integrate(die, DW_AT_type, &at) ||
	    !dwarf_formref_die(&at, &t))
		return NULL;
	while ((tag = dwarf_tag(&t)) == DW_TAG_typedef ||
	       tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
	       tag == DW_TAG_restrict_type)
		if (!dwarf_attr_integrate(&t, DW_AT_type, &at) ||
		    !dwarf_formref_die(&at, &t))
			return NULL;
	c = xcalloc(1, sizeof(*c));
	c->kind = CT_INT;
	if (tag == DW_TAG_pointer_type) {
		c->name = "unsigned long";
		c->size = 8;
		return c;
	}
	size = dwarf_bytesize(&t);
	if ((tag != DW_TAG_base_type && tag != DW_TAG_enumeration_type) ||
	    (size != 1 && size != 2 && size != 4 && size != 8)) {
		free(c);
		return NULL;
	}
	if (dwarf_attr(&t, DW_AT_encoding, &at))
		dwarf_formudata(&at, &enc);
	c->size = size;
	c->is_signed = tag == DW_TAG_enumeration_type ||
		       enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	c->name = dwarf_diename(&t) ? xstrdup(dwarf_diename(&t)) : "long";
	return c;
}

static int udw_lookup_var(struct dbg_provider *p, struct dbg_function *fn,
			  const char *name, const char *loc_lit,
			  struct dbg_location *out, char **why)
{
	struct udw_fn *u = fn->handle;
	Dwarf_Die child;
	struct strbuf names = {0};
	(void)p;
	(void)loc_lit;
	if (dwarf_child(&u->die, &child) == 0)
		do {
			Dwarf_Attribute at;
			Dwarf_Op *ops;
			size_t nops;
			const char *n = dwarf_diename(&child);
			int regno = -1;
			if (dwarf_tag(&child) != DW_TAG_formal_parameter || !n)
				continue;
			if (strcmp(n, name)) {
				strbuf_printf(&names, " %s", n);
				continue;
			}
			free(names.s);
			/* in .return probes the value is read at the entry
			 * (elaborate/tvar.c saves it there), so the entry's
			 * location is the one */
			if (dwarf_attr_integrate(&child, DW_AT_location, &at) &&
			    dwarf_getlocation_addr(&at, u->entry, &ops, &nops,
						   1) == 1 && nops == 1) {
				if (ops[0].atom >= DW_OP_reg0 &&
				    ops[0].atom <= DW_OP_reg15)
					regno = ops[0].atom - DW_OP_reg0;
				else if (ops[0].atom == DW_OP_regx &&
					 ops[0].number <= 15)
					regno = (int)ops[0].number;
			}
			if (regno < 0) {
				*why = xstrdup("not in a register at the "
					       "entry (only those are "
					       "supported for user functions)");
				return -1;
			}
			out->type = scalar_type(&child);
			if (!out->type) {
				*why = xstrdup("not an integer, enum or pointer");
				return -1;
			}
			out->kind = DL_VALUE;
			out->c_expr = xasprintf("stp_reg(c, %d)", regno);
			return 0;
		} while (dwarf_siblingof(&child, &child) == 0);
	*why = xasprintf("not found; parameters:%s", names.len ?
			 strbuf_str(&names) : " none");
	free(names.s);
	return -1;
}

static void udw_list_vars(struct dbg_provider *p, struct dbg_function *fn,
			  enum dbg_var_set which, struct vec *names)
{
	struct udw_fn *u = fn->handle;
	Dwarf_Die child;
	(void)p;
	if (which != DBG_PARAMS || dwarf_child(&u->die, &child) != 0)
		return;
	do
		if (dwarf_tag(&child) == DW_TAG_formal_parameter &&
		    dwarf_diename(&child))
			vec_push(names, xstrdup(dwarf_diename(&child)));
	while (dwarf_siblingof(&child, &child) == 0);
}

static struct ctype *udw_return_type(struct dbg_provider *p,
				     struct dbg_function *fn)
{
	struct udw_fn *u = fn->handle;
	(void)p;
	return scalar_type(&u->die);
}

static struct ctype *udw_lookup_type(struct dbg_provider *p, const char *name,
				     const char *module)
{
	(void)p;
	(void)name;
	(void)module;
	return NULL;
}

static struct dbg_provider udw_provider = {
	.name = "user-dwarf",
	.lookup_var = udw_lookup_var,
	.list_vars = udw_list_vars,
	.return_type = udw_return_type,
	.lookup_type = udw_lookup_type,
};

/* open_dwarf - the Dwarf of @host, else of its separate debuginfo found
 * by build-id (udwarf_debugfile); the last one opened is kept: the
 * families ask about one program many times.  NULL if neither has DWARF. */
static Dwarf *open_dwarf(const char *host)
{
	static struct { char *host; Dwarf *dw; } cache;
	if (!cache.host || strcmp(cache.host, host)) {
		int fd = open(host, O_RDONLY);
		free(cache.host);
		cache.host = xstrdup(host);
		cache.dw = fd < 0 ? NULL : dwarf_begin(fd, DWARF_C_READ);
		if (!cache.dw) {
			char *dbg = udwarf_debugfile(host);
			if (fd >= 0)
				close(fd);
			fd = dbg ? open(dbg, O_RDONLY) : -1;
			cache.dw = fd < 0 ? NULL : dwarf_begin(fd, DWARF_C_READ);
			free(dbg);
		}
		/* the descriptor stays open with the Dwarf for the session */
	}
	return cache.dw;
}

struct dbg_function *udwarf_function(const char *host, uint64_t addr,
				     const char *name, int is_return)
{
	struct dbg_function *fn = udwarf_at(host, addr, addr, name);
	if (fn)
		((struct udw_fn *)fn->handle)->is_return = is_return;
	return fn;
}

struct dbg_function *udwarf_at(const char *host, uint64_t addr, uint64_t pc,
			       const char *name)
{
	Dwarf *dw = open_dwarf(host);
	struct find_arg a = { .addr = addr };
	Dwarf_Off off = 0, next;
	size_t hsize;
	struct dbg_function *fn;
	struct udw_fn *u;
	if (!dw)
		return NULL;
	while (!a.ok && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL,
				     NULL) == 0) {
		Dwarf_Die cu;
		if (dwarf_offdie(dw, off + hsize, &cu))
			dwarf_getfuncs(&cu, find_cb, &a, 0);
		off = next;
	}
	if (!a.ok)
		return NULL;
	u = xcalloc(1, sizeof(*u));
	u->dw = dw;
	u->die = a.found;
	u->entry = pc;
	fn = xcalloc(1, sizeof(*fn));
	fn->prov = &udw_provider;
	fn->name = xstrdup(name);
	fn->pc = pc;
	fn->entry_pc = addr;
	fn->handle = u;
	return fn;
}

/* ---- statements ---- */

struct fn_range {
	char *name;
	Dwarf_Addr entry;       /* the function's entry (first_pc) */
	Dwarf_Addr lo, hi;      /* one of its ranges */
};

struct collect_arg {
	const char *pat;
	struct vec *fns;        /* struct fn_range * */
};

static int collect_cb(Dwarf_Die *die, void *arg)
{
	struct collect_arg *a = arg;
	const char *n = dwarf_diename(die);
	Dwarf_Addr base, lo, hi, first;
	ptrdiff_t o = 0;
	if (!n || fnmatch(a->pat, n, 0) || first_pc(die, &first))
		return DWARF_CB_OK;
	/* one entry per address range (a function split into hot and cold
	 * parts has two), all naming the function's entry */
	while ((o = dwarf_ranges(die, o, &base, &lo, &hi)) > 0) {
		struct fn_range *r = xcalloc(1, sizeof(*r));
		r->name = xstrdup(n);
		r->entry = first;
		r->lo = lo;
		r->hi = hi;
		vec_push(a->fns, r);
	}
	return DWARF_CB_OK;
}

/* file_matches - @pat matches @path whole or its last components */
static int file_matches(const char *pat, const char *path)
{
	const char *p;
	if (!fnmatch(pat, path, 0))
		return 1;
	for (p = path; (p = strchr(p, '/')); p++)
		if (!fnmatch(pat, p + 1, 0))
			return 1;
	return 0;
}

int udwarf_statements(const char *host, const char *func, const char *file,
		      int line, struct vec *out, char **err)
{
	Dwarf *dw = open_dwarf(host);
	Dwarf_Off off = 0, next;
	size_t hsize;
	int found = 0;
	if (!dw) {
		*err = xasprintf("%s has no DWARF line table (build it with "
				 "-g, or install its separate debuginfo: "
				 "/usr/lib/debug/.build-id/XX/REST.debug by "
				 "its build-id)", host);
		return -1;
	}
	for (; dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0;
	     off = next) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t nl, i;
		struct vec fns = {0};
		struct collect_arg ca = { func, &fns };
		int f;
		if (!dwarf_offdie(dw, off + hsize, &cu) ||
		    dwarf_getsrclines(&cu, &lines, &nl) != 0)
			continue;
		dwarf_getfuncs(&cu, collect_cb, &ca, 0);
		for (f = 0; f < fns.n; f++) {
			struct fn_range *r = fns.items[f];
			Dwarf_Addr best = 0;
			const char *bfile = NULL;
			for (i = 0; i < nl; i++) {
				Dwarf_Line *l = dwarf_onesrcline(lines, i);
				Dwarf_Addr a;
				int ln;
				bool stmt = false;
				const char *src;
				if (!l || dwarf_lineno(l, &ln) || ln != line ||
				    dwarf_lineaddr(l, &a) ||
				    dwarf_linebeginstatement(l, &stmt) || !stmt ||
				    a < r->lo || a >= r->hi)
					continue;
				src = dwarf_linesrc(l, NULL, NULL);
				if (!src || (file && !file_matches(file, src)))
					continue;
				if (!bfile || a < best) {
					best = a;
					bfile = src;
				}
			}
			if (bfile) {
				struct udwarf_stmt *st = xcalloc(1, sizeof(*st));
				st->func = xstrdup(r->name);
				st->func_addr = r->entry;
				st->addr = best;
				st->file = xstrdup(bfile);
				st->line = line;
				vec_push(out, st);
				found++;
			}
			free(r->name);
			free(r);
		}
		free(fns.items);
	}
	return found;
}
