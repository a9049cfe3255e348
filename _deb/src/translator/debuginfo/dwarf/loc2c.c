/* loc2c.c - DWARF location expressions as C expressions (debuginfo.h's
 * conventions): a stack machine over C expression strings.  Register
 * operations yield values (stp_reg), memory operations fault-tolerant
 * reads (stp_read_kernel), DW_OP_fbreg the function's frame base, which
 * for DW_OP_call_frame_cfa is the CFA computed from the CFI at the probe
 * address.
 */
#include "dwarf_int.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#define STACK_MAX 64

struct l2c {
	struct dw_mod *m;
	Dwarf_Attribute *attr;
	Dwarf_Die *fn_die;
	Dwarf_Addr pc;
	int entry;
	const char *loc;
	char *stack[STACK_MAX];
	int sp;
	char *err;
};

static int push(struct l2c *x, char *e)
{
	if (x->sp == STACK_MAX) {
		free(e);
		x->err = xstrdup("DWARF expression stack overflow");
		return -1;
	}
	x->stack[x->sp++] = e;
	return 0;
}

static char *pop(struct l2c *x)
{
	if (!x->sp) {
		if (!x->err)
			x->err = xstrdup("malformed DWARF expression "
					 "(stack underflow)");
		return NULL;
	}
	return x->stack[--x->sp];
}

static char *reg(unsigned n)
{
	return xasprintf("stp_reg(c, %u)", n);
}

static char *breg(unsigned n, int64_t off)
{
	return xasprintf("(stp_reg(c, %u) + (unsigned long)%lldLL)", n,
			 (long long)off);
}

static int binop(struct l2c *x, const char *fmt)
{
	char *b = pop(x), *a = pop(x);
	if (!a || !b) {
		free(a);
		free(b);
		return -1;
	}
	push(x, xasprintf(fmt, a, b));
	free(a);
	free(b);
	return 0;
}

static int unop(struct l2c *x, const char *fmt)
{
	char *a = pop(x);
	if (!a)
		return -1;
	push(x, xasprintf(fmt, a));
	free(a);
	return 0;
}

static const char *opname(unsigned atom)
{
	const char *n = NULL;
	static char buf[32];
	switch (atom) {
	case DW_OP_piece: n = "DW_OP_piece"; break;
	case DW_OP_bit_piece: n = "DW_OP_bit_piece"; break;
	case DW_OP_implicit_pointer: n = "DW_OP_implicit_pointer"; break;
	case DW_OP_GNU_implicit_pointer: n = "DW_OP_GNU_implicit_pointer"; break;
	case DW_OP_GNU_parameter_ref: n = "DW_OP_GNU_parameter_ref"; break;
	case DW_OP_call2: case DW_OP_call4: n = "DW_OP_call"; break;
	case DW_OP_form_tls_address: case DW_OP_GNU_push_tls_address:
		n = "a TLS address"; break;
	default: break;
	}
	if (n)
		return n;
	snprintf(buf, sizeof(buf), "DW_OP 0x%x", atom);
	return buf;
}

static char *translate(struct l2c *x, Dwarf_Attribute *attr,
		       const Dwarf_Op *ops, size_t nops, int *is_value);

/* cfa - the CFA at x->pc from the CFI, as a value expression. */
static char *cfa(struct l2c *x)
{
	Dwarf_Frame *fr = NULL;
	Dwarf_Op *ops;
	size_t nops;
	char *e;
	int v;
	if (!x->m->cfi || dwarf_cfi_addrframe(x->m->cfi, x->pc, &fr) != 0 ||
	    dwarf_frame_cfa(fr, &ops, &nops) != 0 || !ops) {
		free(fr);
		x->err = xasprintf("no call frame information at 0x%llx",
				   (unsigned long long)x->pc);
		return NULL;
	}
	e = translate(x, NULL, ops, nops, &v);
	free(fr);
	return e;
}

/* frame_base - DW_AT_frame_base of x->fn_die at x->pc, as a value. */
static char *frame_base(struct l2c *x)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;
	int v;
	if (!x->fn_die || !dwarf_attr_integrate(x->fn_die, DW_AT_frame_base, &a) ||
	    dwarf_getlocation_addr(&a, x->pc, &ops, &nops, 1) <= 0) {
		x->err = xstrdup("no frame base at this address");
		return NULL;
	}
	if (nops == 1 && ops[0].atom == DW_OP_call_frame_cfa)
		return cfa(x);
	return translate(x, &a, ops, nops, &v);
}

static char *entry_value(struct l2c *x, Dwarf_Attribute *attr,
			 const Dwarf_Op *op)
{
	Dwarf_Attribute inner;
	Dwarf_Op *iops;
	size_t n;
	if (!x->entry) {
		x->err = xstrdup("only known at the function's entry "
				 "(DW_OP_entry_value)");
		return NULL;
	}
	if (!attr || dwarf_getlocation_attr(attr, op, &inner) != 0 ||
	    dwarf_getlocation(&inner, &iops, &n) != 0 || n != 1) {
		x->err = xstrdup("unsupported DW_OP_entry_value");
		return NULL;
	}
	if (iops[0].atom >= DW_OP_reg0 && iops[0].atom <= DW_OP_reg31)
		return reg(iops[0].atom - DW_OP_reg0);
	if (iops[0].atom == DW_OP_regx)
		return reg(iops[0].number);
	x->err = xstrdup("unsupported DW_OP_entry_value");
	return NULL;
}

static char *translate(struct l2c *x, Dwarf_Attribute *attr,
		       const Dwarf_Op *ops, size_t nops, int *is_value)
{
	size_t i;
	int base = x->sp;
	*is_value = 0;
	for (i = 0; i < nops && !x->err; i++) {
		const Dwarf_Op *op = &ops[i];
		unsigned a = op->atom;
		char *e, *t;
		if (a >= DW_OP_reg0 && a <= DW_OP_reg31) {
			push(x, reg(a - DW_OP_reg0));
			*is_value = 1;
			continue;
		}
		if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
			push(x, breg(a - DW_OP_breg0, (int64_t)op->number));
			continue;
		}
		if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
			push(x, xasprintf("%uUL", a - DW_OP_lit0));
			continue;
		}
		switch (a) {
		case DW_OP_regx:
			push(x, reg(op->number));
			*is_value = 1;
			break;
		case DW_OP_bregx:
			push(x, breg(op->number, (int64_t)op->number2));
			break;
		case DW_OP_fbreg:
			if (!(e = frame_base(x)))
				break;
			push(x, xasprintf("(%s + (unsigned long)%lldLL)", e,
					  (long long)(int64_t)op->number));
			free(e);
			break;
		case DW_OP_call_frame_cfa:
			if ((e = cfa(x)))
				push(x, e);
			break;
		case DW_OP_addr:
			if (x->m->user) {
				push(x, xasprintf("(stp_ubias(c, \"%s\", "
						  "0x%llxUL, %s) + 0x%llxUL)",
						  x->m->upath,
						  (unsigned long long)
						  x->m->uvaddr0, x->loc,
						  (unsigned long long)
						  op->number));
				break;
			}
			if (x->m->name) {
				x->err = xasprintf("a static address in module "
						   "%s is not supported",
						   x->m->name);
				break;
			}
			push(x, xasprintf("stp_kaddr(0x%llxULL)",
					  (unsigned long long)op->number));
			break;
		case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
		case DW_OP_const8u: case DW_OP_constu:
			push(x, xasprintf("0x%llxUL",
					  (unsigned long long)op->number));
			break;
		case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
		case DW_OP_const8s: case DW_OP_consts:
			push(x, xasprintf("(unsigned long)%lldLL",
					  (long long)(int64_t)op->number));
			break;
		case DW_OP_div:
			binop(x, "({ long _a = (long)%s, _b = (long)%s; "
			      "(unsigned long)(_b ? _a / _b : 0); })");
			break;
		case DW_OP_mod:
			binop(x, "({ unsigned long _a = %s, _b = %s; "
			      "_b ? _a %% _b : 0; })");
			break;
		case DW_OP_abs:
			unop(x, "({ long _a = (long)%s; "
			     "(unsigned long)(_a < 0 ? -_a : _a); })");
			break;
		case DW_OP_eq: binop(x, "(unsigned long)(%s == %s)"); break;
		case DW_OP_ne: binop(x, "(unsigned long)(%s != %s)"); break;
		case DW_OP_lt: binop(x, "(unsigned long)((long)%s < (long)%s)"); break;
		case DW_OP_le: binop(x, "(unsigned long)((long)%s <= (long)%s)"); break;
		case DW_OP_gt: binop(x, "(unsigned long)((long)%s > (long)%s)"); break;
		case DW_OP_ge: binop(x, "(unsigned long)((long)%s >= (long)%s)"); break;
		case DW_OP_plus: binop(x, "(%s + %s)"); break;
		case DW_OP_minus: binop(x, "(%s - %s)"); break;
		case DW_OP_mul: binop(x, "(%s * %s)"); break;
		case DW_OP_and: binop(x, "(%s & %s)"); break;
		case DW_OP_or: binop(x, "(%s | %s)"); break;
		case DW_OP_xor: binop(x, "(%s ^ %s)"); break;
		case DW_OP_shl: binop(x, "(%s << (%s & 63))"); break;
		case DW_OP_shr: binop(x, "(%s >> (%s & 63))"); break;
		case DW_OP_shra:
			binop(x, "(unsigned long)((long)%s >> (%s & 63))");
			break;
		case DW_OP_plus_uconst:
			t = xasprintf("(%%s + 0x%llxUL)",
				      (unsigned long long)op->number);
			unop(x, t);
			free(t);
			break;
		case DW_OP_neg: unop(x, "(unsigned long)-(long)%s"); break;
		case DW_OP_not: unop(x, "(~%s)"); break;
		case DW_OP_deref:
			t = xasprintf("(unsigned long)stp_read_%s(c, %%s, 8, "
				      "%s)", x->m->user ? "user" : "kernel",
				      x->loc);
			unop(x, t);
			free(t);
			break;
		case DW_OP_deref_size:
			if (op->number != 1 && op->number != 2 &&
			    op->number != 4 && op->number != 8) {
				x->err = xasprintf("DW_OP_deref_size %llu is "
						   "not supported",
						   (unsigned long long)op->number);
				break;
			}
			t = xasprintf("(unsigned long)stp_read_%s(c, %%s, "
				      "%d, %s)", x->m->user ? "user" : "kernel",
				      (int)op->number, x->loc);
			unop(x, t);
			free(t);
			break;
		case DW_OP_dup:
			if ((e = pop(x))) {
				push(x, e);
				push(x, xstrdup(e));
			}
			break;
		case DW_OP_drop:
			free(pop(x));
			break;
		case DW_OP_swap:
			if ((e = pop(x)) && (t = pop(x))) {
				push(x, e);
				push(x, t);
			} else
				free(e);
			break;
		case DW_OP_over:
			if (x->sp - base < 2)
				x->err = xstrdup("malformed DWARF expression "
						 "(DW_OP_over)");
			else
				push(x, xstrdup(x->stack[x->sp - 2]));
			break;
		case DW_OP_stack_value:
			*is_value = 1;
			break;
		case DW_OP_entry_value:
		case DW_OP_GNU_entry_value:
			if ((e = entry_value(x, attr, op)))
				push(x, e);
			break;
		case DW_OP_implicit_value: {
			const unsigned char *d =
				(const unsigned char *)(uintptr_t)op->number2;
			unsigned long long v = 0;
			int k;
			if (op->number > 8) {
				x->err = xstrdup("DW_OP_implicit_value larger "
						 "than 8 bytes");
				break;
			}
			for (k = (int)op->number - 1; k >= 0; k--)
				v = (v << 8) | d[k];
			push(x, xasprintf("0x%llxUL", v));
			*is_value = 1;
			break;
		}
		case DW_OP_nop:
			break;
		default:
			x->err = xasprintf("%s is not supported", opname(a));
			break;
		}
	}
	if (x->err || x->sp != base + 1) {
		if (!x->err)
			x->err = xstrdup("malformed DWARF expression");
		while (x->sp > base)
			free(pop(x));
		return NULL;
	}
	return pop(x);
}

char *dw_loc2c(struct dw_mod *m, Dwarf_Attribute *attr, const Dwarf_Op *ops,
	       size_t nops, Dwarf_Die *fn_die, Dwarf_Addr pc, int entry,
	       const char *loc_lit, int *is_value, char **why)
{
	struct l2c x = {.m = m, .attr = attr, .fn_die = fn_die, .pc = pc,
			.entry = entry, .loc = loc_lit};
	char *e;
	if (!nops) {
		*why = xstrdup("optimized out at this address");
		return NULL;
	}
	e = translate(&x, attr, ops, nops, is_value);
	if (!e) {
		*why = x.err;
		return NULL;
	}
	return e;
}
