/* btf_types.c - BTF types as struct ctype (see btf_int.h and ctype.h).
 *
 * Spelling follows what SystemTap prints: the base type, then " const" /
 * " volatile", then "*" for pointers ("char const*", "struct file*"),
 * "[N]" for arrays, "RET (*)(ARGS)" for function pointers.
 */
#include "btf_int.h"

#include <stdlib.h>
#include <string.h>

/* A struct/union node's link back to its BTF type, for fill(). */
struct btf_ref {
	struct btf_prov *bp;
	__u32 id;
};

__u32 btf_resolved(struct btf_prov *bp, __u32 id)
{
	while (id) {
		const struct btf_type *t = btf__type_by_id(bp->btf, id);
		if (!t || !(btf_is_mod(t) || btf_is_typedef(t)))
			break;
		id = t->type;
	}
	return id;
}

static const char *tname(struct btf_prov *bp, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(bp->btf, t->name_off);
	return n ? n : "";
}

static void spell(struct btf_prov *bp, __u32 id, struct strbuf *b);

static void spell_proto(struct btf_prov *bp, const struct btf_type *t,
			const char *mid, struct strbuf *b)
{
	const struct btf_param *p = btf_params(t);
	int i, n = btf_vlen(t);
	spell(bp, t->type, b);
	strbuf_printf(b, " %s(", mid);
	for (i = 0; i < n; i++) {
		if (i)
			strbuf_add(b, ", ");
		if (!p[i].type && i == n - 1)
			strbuf_add(b, "...");
		else
			spell(bp, p[i].type, b);
	}
	strbuf_addc(b, ')');
}

static void spell(struct btf_prov *bp, __u32 id, struct strbuf *b)
{
	const struct btf_type *t = id ? btf__type_by_id(bp->btf, id) : NULL;
	const char *n;
	if (!t) {
		strbuf_add(b, "void");
		return;
	}
	n = tname(bp, t);
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
		strbuf_printf(b, "%s %s",
			      btf_is_union(t) || (btf_is_fwd(t) && btf_kflag(t)) ?
			      "union" : btf_is_any_enum(t) ? "enum" : "struct",
			      *n ? n : "<anonymous>");
		break;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
		spell(bp, t->type, b);
		strbuf_add(b, btf_is_const(t) ? " const" : " volatile");
		break;
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		spell(bp, t->type, b);
		break;
	case BTF_KIND_PTR: {
		const struct btf_type *to =
			btf__type_by_id(bp->btf, btf_resolved(bp, t->type));
		if (to && btf_is_func_proto(to))
			spell_proto(bp, to, "(*)", b);
		else {
			spell(bp, t->type, b);
			strbuf_addc(b, '*');
		}
		break;
	}
	case BTF_KIND_ARRAY:
		spell(bp, btf_array(t)->type, b);
		strbuf_printf(b, "[%u]", btf_array(t)->nelems);
		break;
	case BTF_KIND_FUNC_PROTO:
		spell_proto(bp, t, "", b);
		break;
	default:        /* int, float, typedef, func */
		strbuf_add(b, *n ? n : "<unnamed>");
	}
}

/* fill_members - ctype.fill for structs and unions. */
static void fill_members(struct ctype *ct)
{
	struct btf_ref *r = ct->provider_data;
	struct btf_prov *bp = r->bp;
	const struct btf_type *t = btf__type_by_id(bp->btf, r->id);
	const struct btf_member *m;
	int i, n;
	if (btf_is_fwd(t)) {
		/* a declaration: complete it from the definition */
		int id = btf__find_by_name_kind(bp->btf, tname(bp, t),
						btf_kflag(t) ? BTF_KIND_UNION :
						BTF_KIND_STRUCT);
		if (id <= 0)
			return;
		t = btf__type_by_id(bp->btf, id);
		ct->size = t->size;
	}
	n = btf_vlen(t);
	m = btf_members(t);
	ct->members = xcalloc(n ? n : 1, sizeof(*ct->members));
	for (i = 0; i < n; i++) {
		struct ctype_member *cm = &ct->members[i];
		const char *name = btf__name_by_offset(bp->btf, m[i].name_off);
		__u32 bit = btf_member_bit_offset(t, i);
		__u32 bits = btf_member_bitfield_size(t, i);
		cm->name = name && *name ? name : NULL;
		cm->type = btf_ctype(bp, m[i].type);
		cm->offset = bit / 8;
		if (bits) {
			/* bit position in the naturally aligned unit of the
			 * member's type, when the field fits in one */
			uint64_t unit = cm->type->size ? cm->type->size * 8 : 8;
			uint64_t base = bit - bit % unit;
			if (bit - base + bits <= unit) {
				cm->offset = base / 8;
				cm->bit_offset = bit - base;
			} else
				cm->bit_offset = bit % 8;
			cm->bit_size = bits;
		}
	}
	ct->nmembers = n;
}

struct ctype *btf_ctype(struct btf_prov *bp, __u32 id)
{
	struct ctype *ct;
	const struct btf_type *t;
	struct strbuf b = {0};
	__u32 rid;
	if (id >= bp->ntypes)
		id = 0;
	if (!bp->types) {
		bp->types = xcalloc(bp->ntypes, sizeof(*bp->types));
		bp->void_type = xcalloc(1, sizeof(*bp->void_type));
		bp->void_type->kind = CT_VOID;
		bp->void_type->name = "void";
	}
	if (!id)
		return bp->void_type;
	if (bp->types[id])
		return bp->types[id];
	ct = xcalloc(1, sizeof(*ct));
	bp->types[id] = ct;
	spell(bp, id, &b);
	ct->name = strbuf_detach(&b);
	rid = btf_resolved(bp, id);
	t = rid ? btf__type_by_id(bp->btf, rid) : NULL;
	if (!t) {
		ct->kind = CT_VOID;
		return ct;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		__u32 enc = btf_int_encoding(t);
		const char *n = tname(bp, t);
		ct->kind = CT_INT;
		ct->size = t->size;
		ct->is_signed = !!(enc & BTF_INT_SIGNED);
		ct->is_char = t->size == 1 && strstr(n, "char") != NULL;
		break;
	}
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		ct->kind = CT_ENUM;
		ct->size = t->size;
		ct->is_signed = btf_kflag(t);
		break;
	case BTF_KIND_FLOAT:
		ct->kind = CT_FLOAT;
		ct->size = t->size;
		break;
	case BTF_KIND_PTR:
		ct->kind = CT_PTR;
		ct->size = 8;
		ct->target = btf_ctype(bp, t->type);
		break;
	case BTF_KIND_ARRAY:
		ct->kind = CT_ARRAY;
		ct->target = btf_ctype(bp, btf_array(t)->type);
		ct->nelems = btf_array(t)->nelems ? btf_array(t)->nelems : -1;
		ct->size = ct->target->size * btf_array(t)->nelems;
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_FWD: {
		struct btf_ref *r = xmalloc(sizeof(*r));
		r->bp = bp;
		r->id = rid;
		ct->kind = btf_is_union(t) || (btf_is_fwd(t) && btf_kflag(t)) ?
			   CT_UNION : CT_STRUCT;
		ct->size = btf_is_fwd(t) ? 0 : t->size;
		ct->fill = fill_members;
		ct->provider_data = r;
		break;
	}
	case BTF_KIND_FUNC_PROTO:
	case BTF_KIND_FUNC:
		ct->kind = CT_FUNC;
		break;
	default:
		ct->kind = CT_VOID;
	}
	return ct;
}

struct ctype *btf_pointer_to(struct ctype *t, const char *qual)
{
	struct ctype *ptr = xcalloc(1, sizeof(*ptr));
	ptr->kind = CT_PTR;
	ptr->size = 8;
	ptr->target = t;
	ptr->name = xasprintf("%s%s*", t->name, qual ? qual : "");
	return ptr;
}

char *btf_narrow(char *expr, const struct ctype *t)
{
	static const char *const utype[] = { NULL, "unsigned char",
		"unsigned short", NULL, "unsigned int" };
	char *r;
	if ((t->kind != CT_INT && t->kind != CT_ENUM) || t->size >= 8 ||
	    !t->size || !utype[t->size])
		return expr;
	r = xasprintf("((unsigned long)(%s)(%s))", utype[t->size], expr);
	free(expr);
	return r;
}
