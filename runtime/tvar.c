/* tvar.c - run-time support for target variables: registers by DWARF
 * number, and the text of the pretty-printing forms ($var$, $$parms). */
#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/string.h>
#include "stp_internal.h"

unsigned long stp_reg(struct stp_context *c, int regno)
{
	struct pt_regs *r = c->regs;

	if (!r) {
		stp_error(c, "no registers at this probe point", c->probe ?
			  c->probe->loc : NULL);
		return 0;
	}
	switch (regno) {
	case 0: return r->ax;
	case 1: return r->dx;
	case 2: return r->cx;
	case 3: return r->bx;
	case 4: return r->si;
	case 5: return r->di;
	case 6: return r->bp;
	case 7: return r->sp;
	case 8: return r->r8;
	case 9: return r->r9;
	case 10: return r->r10;
	case 11: return r->r11;
	case 12: return r->r12;
	case 13: return r->r13;
	case 14: return r->r14;
	case 15: return r->r15;
	case 16: return r->ip;
	}
	stp_error(c, "unknown DWARF register", c->probe ? c->probe->loc : NULL);
	return 0;
}

void stp_tv_appendf(char *dst, const char *fmt, ...)
{
	size_t len = strnlen(dst, MAXSTRINGLEN);
	va_list ap;

	if (len >= MAXSTRINGLEN - 1)
		return;
	va_start(ap, fmt);
	vscnprintf(dst + len, MAXSTRINGLEN - len, fmt, ap);
	va_end(ap);
}

void stp_tv_kstr(struct stp_context *c, char *dst, unsigned long addr,
		 long max)
{
	char buf[64];

	if (max <= 0 || max > (long)sizeof(buf) - 1)
		max = sizeof(buf) - 1;
	if (stp_copy_string(buf, addr, max + 1, 0)) {
		stp_tv_appendf(dst, "0x%lx", addr);
		return;
	}
	stp_tv_appendf(dst, "\"%s\"", buf);
}
