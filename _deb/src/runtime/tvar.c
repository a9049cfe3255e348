/* tvar.c - run-time support for target variables: registers by DWARF
 * number, and the text of the pretty-printing forms ($var$, $$parms). */
#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>
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

void stp_tv_str(char *dst, unsigned long addr, long max, int user)
{
	char buf[64];

	if (max <= 0 || max > (long)sizeof(buf) - 1)
		max = sizeof(buf) - 1;
	if (stp_copy_string(buf, addr, max + 1, user)) {
		stp_tv_appendf(dst, "0x%lx", addr);
		return;
	}
	stp_tv_appendf(dst, "\"%s\"", buf);
}

void stp_tv_kstr(struct stp_context *c, char *dst, unsigned long addr,
		 long max)
{
	stp_tv_str(dst, addr, max, 0);
}

void stp_set_reg(struct stp_context *c, int regno, unsigned long v)
{
	struct pt_regs *r = c->regs;
	unsigned long *slot = NULL;

	if (!r) {
		stp_error(c, "no registers at this probe point", c->probe ?
			  c->probe->loc : NULL);
		return;
	}
	switch (regno) {
	case 0: slot = &r->ax; break;
	case 1: slot = &r->dx; break;
	case 2: slot = &r->cx; break;
	case 3: slot = &r->bx; break;
	case 4: slot = &r->si; break;
	case 5: slot = &r->di; break;
	case 8: slot = &r->r8; break;
	case 9: slot = &r->r9; break;
	case 10: slot = &r->r10; break;
	case 11: slot = &r->r11; break;
	case 12: slot = &r->r12; break;
	case 13: slot = &r->r13; break;
	case 14: slot = &r->r14; break;
	case 15: slot = &r->r15; break;
	}
	if (!slot) {   /* rbp, rsp, rip: changing them would crash */
		stp_error(c, "this register cannot be changed", c->probe ?
			  c->probe->loc : NULL);
		return;
	}
	*slot = v;
}

void stp_write_kernel(struct stp_context *c, unsigned long addr, int size,
		      u64 v, const char *loc)
{
	int bad = 0;

	if (addr < TASK_SIZE_MAX)      /* user memory: not through here */
		goto fault_nopf;
	pagefault_disable();
	switch (size) {
	case 1: __put_kernel_nofault((u8 *)addr, (u8 *)&v, u8, fault); break;
	case 2: __put_kernel_nofault((u16 *)addr, (u16 *)&v, u16, fault); break;
	case 4: __put_kernel_nofault((u32 *)addr, (u32 *)&v, u32, fault); break;
	default: __put_kernel_nofault((u64 *)addr, &v, u64, fault); break;
	}
	goto done;
fault:
	bad = 1;
done:
	pagefault_enable();
	if (0) {
fault_nopf:
		bad = 1;
	}
	if (bad && !c->error) {
		snprintf(c->error_buf, sizeof(c->error_buf),
			 "kernel write fault at 0x%lx", addr);
		stp_error(c, c->error_buf, loc);
	}
}
