/* types.c - DWARF type DIEs as struct ctype (ctype.h), converted on
 * demand and cached per DIE; struct/union members filled lazily through
 * ctype->fill; declarations completed from the index by name.
 *
 * Names follow the spelling users know from SystemTap: "struct file*",
 * "char const*", "size_t", "long unsigned int", "int[16]".
 */
#include "dwarf_int.h"

#include <stdlib.h>
#include <string.h>

/* The provider_data of aggregate nodes. */
struct tdata {
	struct dw_mod *m;
	Dwarf_Off die;
};

static struct ctype **tmap_slot(struct dw_tmap *t, uint64_t key, int create)
{
	size_t j;
	if (create && (t->n + 1) * 2 > t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 256, i;
		uint64_t *nk = xcalloc(ncap, sizeof(*nk));
		struct ctype **nv = xcalloc(ncap, sizeof(*nv));
		for (i = 0; i < t->cap; i++) {
			if (!t->vals[i])
				continue;
			j = (t->keys[i] * 0x9e3779b97f4a7c15ULL >> 20) & (ncap - 1);
			while (nv[j])
				j = (j + 1) & (ncap - 1);
			nk[j] = t->keys[i];
			nv[j] = t->vals[i];
		}
		free(t->keys);
		free(t->vals);
		t->keys = nk;
		t->vals = nv;
		t->cap = ncap;
	}
	if (!t->cap)
		return NULL;
	j = (key * 0x9e3779b97f4a7c15ULL >> 20) & (t->cap - 1);
	while (t->vals[j] && t->keys[j] != key)
		j = (j + 1) & (t->cap - 1);
	if (!t->vals[j] && !create)
		return NULL;
	if (!t->vals[j]) {
		t->keys[j] = key;
		t->n++;
	}
	return &t->vals[j];
}

static void remember(struct dw_mod *m, Dwarf_Die *die, struct ctype *t)
{
	t->user = m->user;
	*tmap_slot(&m->types, dwarf_dieoffset(die), 1) = t;
}

static struct ctype *new_type(enum ctype_kind kind, const char *name)
{
	struct ctype *t = xcalloc(1, sizeof(*t));
	t->kind = kind;
	t->name = name;
	return t;
}

/* renamed - a copy of @t called @name (typedefs, qualifiers). */
static struct ctype *renamed(struct ctype *t, const char *name)
{
	struct ctype *c = xmalloc(sizeof(*c));
	*c = *t;
	c->name = name;
	return c;
}

static struct ctype void_type = { .kind = CT_VOID, .name = "void" };

static struct ctype *target_of(struct dw_mod *m, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Die t;
	if (!dwarf_attr_integrate(die, DW_AT_type, &a) ||
	    !dwarf_formref_die(&a, &t))
		return &void_type;
	return dw_ctype(m, &t);
}

struct ctype *dw_die_type(struct dw_mod *m, Dwarf_Die *die)
{
	return target_of(m, die);
}

static int64_t attr_sdata(Dwarf_Die *die, int name, int64_t dflt)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	if (!dwarf_attr_integrate(die, name, &a) || dwarf_formudata(&a, &w) != 0)
		return dflt;
	return (int64_t)w;
}

static void fill_members(struct ctype *t)
{
	struct tdata *d = t->provider_data;
	Dwarf_Die die, c;
	struct ctype_member *mem = NULL;
	int n = 0, cap = 0;
	if (!dwarf_offdie(d->m->dw, d->die, &die) || dwarf_child(&die, &c) != 0)
		return;
	do {
		struct ctype_member *x;
		int64_t dbo;
		if (dwarf_tag(&c) != DW_TAG_member)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			mem = xrealloc(mem, cap * sizeof(*mem));
		}
		x = &mem[n++];
		memset(x, 0, sizeof(*x));
		x->name = dwarf_diename(&c) ? xstrdup(dwarf_diename(&c)) : NULL;
		x->type = target_of(d->m, &c);
		x->offset = attr_sdata(&c, DW_AT_data_member_location, 0);
		x->bit_size = attr_sdata(&c, DW_AT_bit_size, 0);
		dbo = attr_sdata(&c, DW_AT_data_bit_offset, -1);
		if (x->bit_size && dbo >= 0) {
			uint64_t unit = x->type->size ? x->type->size : 4;
			x->offset = (dbo / (unit * 8)) * unit;
			x->bit_offset = dbo - x->offset * 8;
		} else if (x->bit_size) {
			/* DWARF 2/3: DW_AT_bit_offset counts from the most
			 * significant bit of a DW_AT_byte_size unit. */
			int64_t bo = attr_sdata(&c, DW_AT_bit_offset, 0);
			int64_t bs = attr_sdata(&c, DW_AT_byte_size,
						x->type->size);
			x->bit_offset = bs * 8 - bo - x->bit_size;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	t->members = mem;
	t->nmembers = n;
}

static const char *func_name(struct dw_mod *m, Dwarf_Die *die)
{
	struct strbuf b = {0};
	Dwarf_Die c;
	int first = 1;
	strbuf_printf(&b, "%s (*)(", target_of(m, die)->name);
	if (dwarf_child(die, &c) == 0) {
		do {
			if (dwarf_tag(&c) == DW_TAG_formal_parameter) {
				strbuf_printf(&b, "%s%s", first ? "" : ", ",
					      target_of(m, &c)->name);
				first = 0;
			} else if (dwarf_tag(&c) == DW_TAG_unspecified_parameters) {
				strbuf_add(&b, first ? "..." : ", ...");
				first = 0;
			}
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	strbuf_add(&b, ")");
	return strbuf_detach(&b);
}

static struct ctype *aggregate(struct dw_mod *m, Dwarf_Die *die,
			       enum ctype_kind kind, const char *word)
{
	const char *n = dwarf_diename(die);
	char *name = xasprintf("%s %s", word, n ? n : "<anonymous>");
	struct ctype *t;
	Dwarf_Die def;
	struct tdata *d;
	if (dwarf_hasattr(die, DW_AT_declaration) && n &&
	    dw_find_type_die(m, name, &def) == 0 &&
	    !dwarf_hasattr(&def, DW_AT_declaration))
		die = &def;
	t = new_type(kind, name);
	t->size = attr_sdata(die, DW_AT_byte_size, 0);
	d = xmalloc(sizeof(*d));
	d->m = m;
	d->die = dwarf_dieoffset(die);
	t->provider_data = d;
	t->fill = fill_members;
	return t;
}

static struct ctype *array(struct dw_mod *m, Dwarf_Die *die)
{
	Dwarf_Die sub[8], c;
	int nsub = 0, i;
	struct ctype *t = target_of(m, die);
	if (dwarf_child(die, &c) == 0) {
		do {
			if (dwarf_tag(&c) == DW_TAG_subrange_type && nsub < 8)
				sub[nsub++] = c;
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	if (!nsub)
		sub[nsub++] = *die;     /* no bounds: a flexible array */
	for (i = nsub - 1; i >= 0; i--) {
		struct ctype *a = new_type(CT_ARRAY, NULL);
		int64_t count = attr_sdata(&sub[i], DW_AT_count, -1);
		if (count < 0 && dwarf_hasattr(&sub[i], DW_AT_upper_bound))
			count = attr_sdata(&sub[i], DW_AT_upper_bound, -1) + 1;
		if (dwarf_tag(&sub[i]) != DW_TAG_subrange_type)
			count = -1;
		a->target = t;
		a->nelems = count;
		a->size = count > 0 ? count * t->size : 0;
		a->name = count >= 0 ? xasprintf("%s[%lld]", t->name,
						 (long long)count)
				     : xasprintf("%s[]", t->name);
		t = a;
	}
	return t;
}

struct ctype *dw_ctype(struct dw_mod *m, Dwarf_Die *die)
{
	struct ctype **slot, *t;
	const char *n;
	Dwarf_Word enc = 0;
	Dwarf_Attribute a;

	if (!die)
		return &void_type;
	slot = tmap_slot(&m->types, dwarf_dieoffset(die), 0);
	if (slot)
		return *slot;
	n = dwarf_diename(die);
	switch (dwarf_tag(die)) {
	case DW_TAG_base_type:
		dwarf_formudata(dwarf_attr(die, DW_AT_encoding, &a), &enc);
		t = new_type(enc == DW_ATE_float || enc == DW_ATE_complex_float
			     ? CT_FLOAT : CT_INT, n ? n : "int");
		t->size = attr_sdata(die, DW_AT_byte_size, 0);
		t->is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
		t->is_char = enc == DW_ATE_signed_char ||
			     enc == DW_ATE_unsigned_char;
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
		t = new_type(CT_PTR, "void*");
		t->size = attr_sdata(die, DW_AT_byte_size, 8);
		remember(m, die, t);    /* before the target: cycles */
		t->target = target_of(m, die);
		t->name = t->target->kind == CT_FUNC ? t->target->name :
			  xasprintf("%s*", t->target->name);
		return t;
	case DW_TAG_typedef:
		t = renamed(target_of(m, die), n ? n : "<typedef>");
		break;
	case DW_TAG_const_type:
		t = target_of(m, die);
		t = renamed(t, xasprintf("%s const", t->name));
		break;
	case DW_TAG_volatile_type:
		t = target_of(m, die);
		t = renamed(t, xasprintf("%s volatile", t->name));
		break;
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		t = target_of(m, die);
		break;
	case DW_TAG_structure_type:
		t = aggregate(m, die, CT_STRUCT, "struct");
		break;
	case DW_TAG_union_type:
		t = aggregate(m, die, CT_UNION, "union");
		break;
	case DW_TAG_enumeration_type:
		t = new_type(CT_ENUM, xasprintf("enum %s", n ? n : "<anonymous>"));
		t->size = attr_sdata(die, DW_AT_byte_size, 4);
		t->is_signed = dwarf_hasattr(die, DW_AT_type) ?
			       target_of(m, die)->is_signed : 0;
		break;
	case DW_TAG_array_type:
		t = array(m, die);
		break;
	case DW_TAG_subroutine_type:
		t = new_type(CT_FUNC, NULL);
		remember(m, die, t);
		t->name = func_name(m, die);
		return t;
	default:
		t = &void_type;
		break;
	}
	remember(m, die, t);
	return t;
}

int dw_find_type_die(struct dw_mod *m, const char *name, Dwarf_Die *out)
{
	sqlite3_stmt *st;
	int rc = -1;
	if (!m->db)
		return -1;
	if (sqlite3_prepare_v2(m->db, "SELECT die FROM types WHERE name = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW &&
	    dwarf_offdie(m->dw, sqlite3_column_int64(st, 0), out))
		rc = 0;
	sqlite3_finalize(st);
	return rc;
}

struct ctype *dw_find_type_any(struct dw_mod *m, const char *name)
{
	static const char *const tries[] = { "struct %s", "%s", "union %s",
					     "enum %s" };
	size_t i;
	for (i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		char *full = xasprintf(tries[i], name);
		Dwarf_Die d;
		int rc = dw_find_type_die(m, full, &d);
		free(full);
		if (rc == 0)
			return dw_ctype(m, &d);
	}
	return NULL;
}

struct ctype *dw_lookup_type(struct dbg_provider *p, const char *name,
			     const char *module)
{
	struct dw_mod *m = dw_mod_for((struct dw_prov *)p, module);
	if (!m)
		return NULL;
	return dw_find_type_any(m, name);
}
