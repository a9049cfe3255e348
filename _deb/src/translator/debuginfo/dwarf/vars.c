/* vars.c - variables at a probe point: parameters of the function (or of
 * an inline instance, named by its abstract origin), locals whose scope
 * contains the probe address, globals of the compilation unit, and
 * @var globals from the index; their locations through loc2c.c.
 */
#include "dwarf_int.h"
#include "strmap.h"

#include <stdlib.h>
#include <string.h>

static const char *var_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
}

static int fn_die(struct dbg_function *fn, Dwarf_Die *out)
{
	struct dw_fn *h = fn->handle;
	return dwarf_offdie(h->m->dw, h->die, out) ? 0 : -1;
}

/* direct_params - the named DW_TAG_formal_parameter children of @die. */
static int direct_params(Dwarf_Die *die, Dwarf_Die *out, int max)
{
	Dwarf_Die c;
	int n = 0;
	if (dwarf_child(die, &c) != 0)
		return 0;
	do {
		if (dwarf_tag(&c) == DW_TAG_formal_parameter && var_name(&c) &&
		    n < max)
			out[n++] = c;
	} while (dwarf_siblingof(&c, &c) == 0);
	return n;
}

/* params - @die's formal parameters in declaration order: for a concrete
 * instance (gcc may list its parameters in any order, or leave some
 * out), the abstract origin's order, each replaced by the concrete
 * parameter that refers to it when there is one. */
static int params(Dwarf_Die *die, Dwarf_Die *out, int max)
{
	Dwarf_Die origin, conc[64];
	Dwarf_Attribute a;
	int n, nc, i, j;
	if (!dwarf_attr(die, DW_AT_abstract_origin, &a) ||
	    !dwarf_formref_die(&a, &origin))
		return direct_params(die, out, max);
	n = direct_params(&origin, out, max);
	nc = direct_params(die, conc, 64);
	for (i = 0; i < n; i++)
		for (j = 0; j < nc; j++) {
			Dwarf_Die o;
			if (dwarf_attr(&conc[j], DW_AT_abstract_origin, &a) &&
			    dwarf_formref_die(&a, &o) &&
			    dwarf_dieoffset(&o) == dwarf_dieoffset(&out[i])) {
				out[i] = conc[j];
				break;
			}
		}
	return n;
}

/* The top-level subprograms with a frame base of each CU seen, in DIE
 * order: entry a of CU offset "%llx" in @by_cu is lists[a]. */
struct cu_frames {
	struct strmap by_cu;
	struct cu_frame_list {
		Dwarf_Die *dies;
		size_t n;
	} *lists;
	size_t n;
};

/* cu_frames_of - the top-level subprograms of @cu (of @m) with a frame base, in
 * DIE order, count in *@n; listed on the first call for @cu (one walk
 * of its top-level DIEs), kept for the life of @m. */
static Dwarf_Die *cu_frames_of(struct dw_mod *m, Dwarf_Die *cu, size_t *n)
{
	struct cu_frames *cf = m->cu_frames;
	struct cu_frame_list *l;
	struct strmap_ent *e;
	char key[32];
	int created;
	Dwarf_Die c;
	size_t cap = 0;
	if (!cf)
		cf = m->cu_frames = xcalloc(1, sizeof(*cf));
	snprintf(key, sizeof(key), "%llx",
		 (unsigned long long)dwarf_dieoffset(cu));
	e = strmap_get(&cf->by_cu, key, 1, &created);
	if (!created) {
		*n = cf->lists[e->a].n;
		return cf->lists[e->a].dies;
	}
	cf->lists = xrealloc(cf->lists, (cf->n + 1) * sizeof(*cf->lists));
	e->a = cf->n;
	l = &cf->lists[cf->n++];
	memset(l, 0, sizeof(*l));
	if (dwarf_child(cu, &c) == 0) {
		do {
			if (dwarf_tag(&c) != DW_TAG_subprogram ||
			    !dwarf_hasattr(&c, DW_AT_frame_base))
				continue;
			if (l->n == cap) {
				cap = cap ? 2 * cap : 16;
				l->dies = xrealloc(l->dies, cap * sizeof(*l->dies));
			}
			l->dies[l->n++] = c;
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	*n = l->n;
	return l->dies;
}

/* concrete_fn - the out-of-line subprogram of @cu whose code holds @pc
 * (the first, in DIE order, with a frame base) into *@out; 0, or -1 when
 * there is none.  The CU's such subprograms are listed once per CU
 * (cu_frames_of) so that this costs no walk over the CU's DIEs. */
static int concrete_fn(struct dw_mod *m, Dwarf_Die *cu, Dwarf_Addr pc,
		       Dwarf_Die *out)
{
	size_t i, n;
	Dwarf_Die *fr = cu_frames_of(m, cu, &n);
	for (i = 0; i < n; i++)
		if (dwarf_haspc(&fr[i], pc) > 0) {
			*out = fr[i];
			return 0;
		}
	return -1;
}

/* may_have_scopes - the tags libdw's dwarf_getscopes descends into. */
static int may_have_scopes(Dwarf_Die *d)
{
	switch (dwarf_tag(d)) {
	case DW_TAG_compile_unit: case DW_TAG_module:
	case DW_TAG_lexical_block: case DW_TAG_with_stmt:
	case DW_TAG_catch_block: case DW_TAG_try_block:
	case DW_TAG_entry_point: case DW_TAG_inlined_subroutine:
	case DW_TAG_subprogram: case DW_TAG_namespace:
	case DW_TAG_class_type: case DW_TAG_structure_type:
		return 1;
	}
	return 0;
}

/* inner_scopes - the DIEs inside @die holding @pc, outermost first, as
 * dwarf_getscopes finds them below @die (at each level the first child
 * whose code holds @pc, descending into scopes only) but walking only
 * @die's subtree; a heap array, count in *@n. */
static Dwarf_Die *inner_scopes(Dwarf_Die *die, Dwarf_Addr pc, int *n)
{
	Dwarf_Die cur = *die, c, *v = NULL;
	int k = 0, cap = 0;
	while (may_have_scopes(&cur) && dwarf_haschildren(&cur) > 0 &&
	       dwarf_child(&cur, &c) == 0) {
		int found = 0;
		do {
			if (dwarf_haspc(&c, pc) > 0) {
				found = 1;
				break;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
		if (!found)
			break;
		if (k == cap) {
			cap = cap ? 2 * cap : 8;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[k++] = c;
		cur = c;
	}
	*n = k;
	return v;
}

/* scopes - the DIEs whose variables are visible at fn->pc, from @die
 * (the function or inline instance) inwards: @die and the lexical
 * blocks holding fn->pc, none when an inline instance inside @die holds
 * it (as libdw's dwarf_getscopes then goes on from that instance to its
 * abstract definition) or when fn->pc is outside @die's code.  *@frame
 * gets the subprogram holding the frame base: @die, or for an inline
 * instance the function it was inlined into.  Walks only @die's subtree
 * (stap -L asks this for every function of a CU: a walk of the whole CU
 * each time made listing quadratic).  Returns the count (heap array). */
static int scopes(struct dbg_function *fn, Dwarf_Die *die, Dwarf_Die **out,
		  Dwarf_Die *frame)
{
	struct dw_fn *h = fn->handle;
	Dwarf_Die cu, *in, *res, origin;
	Dwarf_Attribute a;
	int n, i, k = 0, inl = -1;
	*frame = *die;
	*out = NULL;
	if (!dwarf_diecu(die, &cu, NULL, NULL))
		return 0;
	if (dwarf_haspc(die, fn->pc) <= 0) {
		/* an inline instance whose entry is outside its code (gcc's
		 * DW_AT_entry_pc): the function holding fn->pc, no scopes */
		concrete_fn(h->m, &cu, fn->pc, frame);
		return 0;
	}
	in = inner_scopes(die, fn->pc, &n);
	for (i = 0; i < n; i++)
		if (dwarf_tag(&in[i]) == DW_TAG_inlined_subroutine)
			inl = i;
	/* the subprogram of the frame: the first one from the innermost
	 * inline instance (or @die) outwards, whose abstract definition
	 * follows it in dwarf_getscopes' list */
	if (inl >= 0 || dwarf_tag(die) == DW_TAG_inlined_subroutine) {
		Dwarf_Die *ii = inl >= 0 ? &in[inl] : die;
		if (dwarf_attr(ii, DW_AT_abstract_origin, &a) &&
		    dwarf_formref_die(&a, &origin) &&
		    dwarf_tag(&origin) == DW_TAG_subprogram)
			*frame = origin;
	}
	if (!dwarf_hasattr(frame, DW_AT_frame_base))
		concrete_fn(h->m, &cu, fn->pc, frame);
	res = xcalloc(n + 1, sizeof(*res));
	if (inl < 0) {
		res[k++] = *die;
		for (i = 0; i < n; i++)
			if (dwarf_tag(&in[i]) == DW_TAG_lexical_block)
				res[k++] = in[i];
	}
	free(in);
	*out = res;
	return k;
}

/* locals_of - DW_TAG_variable children of @scope appended to @v
 * (as heap Dwarf_Die copies). */
static void locals_of(Dwarf_Die *scope, struct vec *v)
{
	Dwarf_Die c;
	if (dwarf_child(scope, &c) != 0)
		return;
	do {
		if (dwarf_tag(&c) == DW_TAG_variable && var_name(&c)) {
			Dwarf_Die *d = xmalloc(sizeof(*d));
			*d = c;
			vec_push(v, d);
		}
	} while (dwarf_siblingof(&c, &c) == 0);
}

static void free_dies(struct vec *v)
{
	int i;
	for (i = 0; i < v->n; i++)
		free(v->items[i]);
	free(v->items);
}

void dw_list_vars(struct dbg_provider *p, struct dbg_function *fn,
		  enum dbg_var_set which, struct vec *names)
{
	Dwarf_Die die, ps[64], *sc, frame;
	struct vec v = {0};
	int n, i;
	if (fn_die(fn, &die) < 0)
		return;
	if (which == DBG_PARAMS) {
		n = params(&die, ps, 64);
		for (i = 0; i < n; i++)
			vec_push(names, (void *)var_name(&ps[i]));
		return;
	}
	n = scopes(fn, &die, &sc, &frame);
	for (i = 0; i < n; i++)
		locals_of(&sc[i], &v);
	for (i = 0; i < v.n; i++)
		vec_push(names, (void *)var_name(v.items[i]));
	free_dies(&v);
	free(sc);
}

/* locate - the location of variable DIE @var at @pc into @out. */
static int locate(struct dw_mod *m, Dwarf_Die *var, Dwarf_Die *frame,
		  Dwarf_Addr pc, int entry, const char *loc_lit,
		  struct dbg_location *out, char **why)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;
	int is_value, n;
	char *e;
	out->type = dw_die_type(m, var);
	if (!dwarf_attr(var, DW_AT_location, &a)) {
		Dwarf_Word w;
		if (dwarf_attr_integrate(var, DW_AT_const_value, &a) &&
		    dwarf_formudata(&a, &w) == 0) {
			out->kind = DL_VALUE;
			out->c_expr = xasprintf("0x%llxUL", (unsigned long long)w);
			return 0;
		}
		*why = xstrdup("optimized out at this address");
		return -1;
	}
	n = dwarf_getlocation_addr(&a, pc, &ops, &nops, 1);
	if (n <= 0) {
		*why = xstrdup("optimized out at this address");
		return -1;
	}
	e = dw_loc2c(m, &a, ops, nops, frame, pc, entry, loc_lit, &is_value,
		     why);
	if (!e)
		return -1;
	out->kind = is_value ? DL_VALUE : DL_ADDR;
	out->c_expr = e;
	return 0;
}

int dw_lookup_var(struct dbg_provider *p, struct dbg_function *fn,
		  const char *name, const char *loc_lit,
		  struct dbg_location *out, char **why)
{
	struct dw_fn *h = fn->handle;
	Dwarf_Die die, ps[64], *sc = NULL, frame, cu;
	struct vec v = {0};
	struct strbuf names = {0};
	int n, i, rc = -1, entry = fn->pc == fn->entry_pc;
	Dwarf_Die *found = NULL;

	if (fn_die(fn, &die) < 0) {
		*why = xstrdup("the function's debuginfo is gone");
		return -1;
	}
	n = scopes(fn, &die, &sc, &frame);
	for (i = n - 1; i >= 0; i--)
		locals_of(&sc[i], &v);
	free(sc);
	n = params(&die, ps, 64);
	for (i = 0; i < n && !found; i++)
		if (strcmp(var_name(&ps[i]), name) == 0)
			found = &ps[i];
	for (i = 0; i < v.n && !found; i++)
		if (strcmp(var_name(v.items[i]), name) == 0)
			found = v.items[i];
	if (!found && dwarf_diecu(&die, &cu, NULL, NULL)) {
		Dwarf_Die c;
		if (dwarf_child(&cu, &c) == 0) {
			do {
				if (dwarf_tag(&c) == DW_TAG_variable &&
				    var_name(&c) && !strcmp(var_name(&c), name)
				    && dwarf_hasattr(&c, DW_AT_location)) {
					Dwarf_Die *d = xmalloc(sizeof(*d));
					*d = c;
					vec_push(&v, d);
					found = d;
					break;
				}
			} while (dwarf_siblingof(&c, &c) == 0);
		}
	}
	if (found)
		rc = locate(h->m, found, &frame, fn->pc, entry, loc_lit, out, why);
	else {
		for (i = 0; i < n; i++)
			strbuf_printf(&names, " %s", var_name(&ps[i]));
		*why = xasprintf("not found; parameters:%s",
				 names.len ? strbuf_str(&names) : " none");
		free(strbuf_detach(&names));
	}
	free_dies(&v);
	return rc;
}

struct ctype *dw_return_type(struct dbg_provider *p, struct dbg_function *fn)
{
	struct dw_fn *h = fn->handle;
	Dwarf_Die die;
	struct ctype *t;
	if (fn_die(fn, &die) < 0)
		return NULL;
	t = dw_die_type(h->m, &die);
	return t->kind == CT_VOID ? NULL : t;
}

int dw_lookup_global(struct dbg_provider *p, const char *name,
		     const char *file, const char *module, const char *loc_lit,
		     struct dbg_location *out, char **why)
{
	struct dw_mod *m = dw_mod_for((struct dw_prov *)p, module);
	sqlite3_stmt *st;
	int rc = -1;
	if (!m) {
		*why = xasprintf("no debuginfo for module %s", module);
		return -1;
	}
	if (sqlite3_prepare_v2(m->db, "SELECT g.die, f.path FROM globals g "
			       "LEFT JOIN files f ON f.id = g.file "
			       "WHERE g.name = ?1", -1, &st, NULL) != SQLITE_OK) {
		*why = xstrdup(sqlite3_errmsg(m->db));
		return -1;
	}
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *path = (const char *)sqlite3_column_text(st, 1);
		Dwarf_Die d;
		if (file && !dw_file_matches(file, path))
			continue;
		if (!dwarf_offdie(m->dw, sqlite3_column_int64(st, 0), &d))
			continue;
		rc = locate(m, &d, NULL, 0, 0, loc_lit, out, why);
		break;
	}
	sqlite3_finalize(st);
	if (rc < 0 && !*why)
		*why = xasprintf("no global variable '%s'%s%s", name,
				 file ? " in " : "", file ? file : "");
	return rc;
}
