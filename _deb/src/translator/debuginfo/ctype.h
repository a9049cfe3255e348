/* ctype.h - the kernel's C types as pass 2 sees them, whatever the source.
 *
 * A debuginfo provider (DWARF through libdw, BTF through libbpf; see
 * debuginfo.h) turns its own type descriptions into these nodes, and the
 * target-variable code (elaborate/tvar.c, codegen/tvar_gen.c) walks them to turn `$a->b[3]->c` into C.
 * Nodes are created on demand along the paths a script walks and are
 * never freed before the session ends (they are small and few).
 *
 * Qualifiers (const, volatile, restrict) and typedefs are looked through
 * by the provider: a node is never a typedef or a qualifier, but `name`
 * keeps the spelling a user would recognise ("size_t", "struct file").
 */
#ifndef STP_CTYPE_H
#define STP_CTYPE_H

#include <stdint.h>

enum ctype_kind {
	CT_VOID,     /* void (only as a pointer target or a return type) */
	CT_INT,      /* integers, _Bool and char of any size */
	CT_ENUM,     /* an enumeration: read as a signed/unsigned integer */
	CT_FLOAT,    /* float/double: cannot be read by scripts */
	CT_PTR,      /* a pointer: target is the pointee (CT_VOID for void *) */
	CT_ARRAY,    /* target is the element type, nelems the count */
	CT_STRUCT,
	CT_UNION,
	CT_FUNC,     /* a function (only as a pointer target) */
};

struct ctype;

/* One member of a struct or union.  Anonymous struct/union members have
 * name NULL; tvar.c searches into them for a field name, as C does. */
struct ctype_member {
	const char *name;         /* NULL: an anonymous struct/union member */
	uint64_t offset;          /* bytes from the start of the aggregate */
	int bit_offset;           /* bitfields: bit position within the
	                           * naturally aligned unit at `offset`, counted
	                           * from the least significant bit (x86) */
	int bit_size;             /* bitfields: width in bits; 0: not one */
	struct ctype *type;
};

struct ctype {
	enum ctype_kind kind;
	const char *name;         /* "int", "size_t", "struct file", "char *";
	                           * never NULL (anonymous: "struct <anonymous>") */
	uint64_t size;            /* bytes; 0 for void, functions and
	                           * incomplete aggregates */
	int is_signed;            /* CT_INT, CT_ENUM */
	int is_char;              /* CT_INT of a char type (char, signed char,
	                           * unsigned char): char * and char[] print as
	                           * strings in $var$ / $$vars forms */
	int user;                 /* a type of a user-space program's DWARF:
	                           * what it points to is in user memory */
	struct ctype *target;     /* CT_PTR: pointee; CT_ARRAY: element */
	int64_t nelems;           /* CT_ARRAY: element count, -1 if unknown
	                           * (flexible array member) */
	/* CT_STRUCT / CT_UNION members.  Providers may fill them lazily: code
	 * reading them calls ctype_members() first. */
	int nmembers;
	struct ctype_member *members;
	int members_filled;
	/* fill - the provider's callback filling nmembers/members (and size,
	 * for a declaration completed from another compilation unit). */
	void (*fill)(struct ctype *t);
	void *provider_data;      /* the provider's handle (DIE offset, BTF id) */
};

/* ctype_members - make sure @t's members are filled; returns @t. */
static inline struct ctype *ctype_members(struct ctype *t)
{
	if (t && !t->members_filled && t->fill) {
		t->members_filled = 1;
		t->fill(t);
	}
	return t;
}

#endif
