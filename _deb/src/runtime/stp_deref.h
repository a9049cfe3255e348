/* stp_deref.h - the helpers SystemTap gives the embedded C of guru
 * functions (%{ ... %}) for reading and writing memory that may fault:
 *
 *   kread(PTR), uread(PTR)            *PTR (1, 2, 4 or 8 bytes) of kernel
 *                                     / the current task's user memory
 *   kwrite(PTR, V), uwrite(PTR, V)    *PTR = V
 *   kderef(SIZE, ADDR), uderef(...)   SIZE bytes at ADDR, zero-extended
 *   kderef_buffer(DST, ADDR, N)       N bytes at ADDR into DST (NULL:
 *                                     only checked); returns DST
 *   kderef_string(DST, ADDR, N)       the string at ADDR, at most N - 1
 *                                     bytes and a NUL, into DST
 *   DEREF_FAULT(ADDR), STORE_DEREF_FAULT(ADDR)   report a fault
 *   CATCH_DEREF_FAULT()               SystemTap's marker: nothing to do
 *
 * A fault records "kernel read fault at 0xADDR" ("user ...", "... write
 * ...") at the calling script location and jumps to the function's
 * deref_fault label, which the translator puts just before its end
 * (codegen.c); the function then returns 0 / "" and the probe stops with
 * that error.  They use the function's context `c` and STAP_LOC, so they
 * work in embedded-C functions only.  Never sleep (nofault copies). */
#ifndef STP_DEREF_H
#define STP_DEREF_H

/* stp_mem_fault - record "@what fault at 0xADDR" (what: "kernel read",
 * "user write", ...) at @loc, unless an error is already recorded. */
void stp_mem_fault(struct stp_context *c, const char *what,
		   unsigned long addr, const char *loc);
/* stp_deref - @size (1, 2, 4, 8) bytes at @addr of kernel (@user 0) or
 * user memory, zero-extended, into *@v: 0, or -EFAULT with the fault
 * recorded. */
int stp_deref(struct stp_context *c, unsigned long addr, int size, int user,
	      u64 *v, const char *loc);
/* stp_deref_buffer - @n bytes of kernel memory at @addr into @dst (NULL:
 * only read): 0, or -EFAULT with the fault recorded. */
int stp_deref_buffer(struct stp_context *c, char *dst, unsigned long addr,
		     size_t n, const char *loc);

/* stp_deref_string - the string at kernel address @addr (at most @n - 1
 * bytes and a NUL) into @dst: 0, or -EFAULT with the fault recorded. */
int stp_deref_string(struct stp_context *c, char *dst, unsigned long addr,
		     long n, const char *loc);

#define STP_DEREF_SIZE_OK(ptr) BUILD_BUG_ON(sizeof(*(ptr)) != 1 &&	\
	sizeof(*(ptr)) != 2 && sizeof(*(ptr)) != 4 && sizeof(*(ptr)) != 8)

#define DEREF_FAULT(addr) ({						\
	stp_mem_fault(c, "kernel read", (unsigned long)(addr), STAP_LOC); \
	goto deref_fault; })
#define STORE_DEREF_FAULT(addr) ({					\
	stp_mem_fault(c, "kernel write", (unsigned long)(addr), STAP_LOC); \
	goto deref_fault; })
#define CATCH_DEREF_FAULT() ((void)0)

#define __stp_xderef(size, addr, user) ({				\
	u64 __stp_v = 0;						\
	if (stp_deref(c, (unsigned long)(addr), (size), (user), &__stp_v, \
		      STAP_LOC))					\
		goto deref_fault;					\
	__stp_v; })
#define kderef(size, addr) __stp_xderef((size), (addr), 0)
#define uderef(size, addr) __stp_xderef((size), (addr), 1)

#define __stp_xread(ptr, user) ({					\
	STP_DEREF_SIZE_OK(ptr);						\
	(typeof(*(ptr)))__stp_xderef(sizeof(*(ptr)), (ptr), (user)); })
#define kread(ptr) __stp_xread((ptr), 0)
#define uread(ptr) __stp_xread((ptr), 1)

#define __stp_xwrite(ptr, value, writer) ({				\
	typeof(*(ptr)) __stp_w = (value);				\
	u64 __stp_u = 0;						\
	STP_DEREF_SIZE_OK(ptr);						\
	memcpy(&__stp_u, &__stp_w, sizeof(__stp_w));			\
	writer(c, (unsigned long)(ptr), sizeof(__stp_w), __stp_u, STAP_LOC); \
	if (c->error)							\
		goto deref_fault;					\
	})
#define kwrite(ptr, value) __stp_xwrite((ptr), (value), stp_write_kernel)
#define uwrite(ptr, value) __stp_xwrite((ptr), (value), stp_write_user)

#define kderef_buffer(dst, addr, n) ({					\
	char *__stp_d = (char *)(dst);					\
	if (stp_deref_buffer(c, __stp_d, (unsigned long)(addr), (n),	\
			     STAP_LOC))					\
		goto deref_fault;					\
	__stp_d; })
#define kderef_string(dst, addr, n) ({					\
	char *__stp_d = (dst);						\
	if (stp_deref_string(c, __stp_d, (unsigned long)(addr), (n),	\
			     STAP_LOC))					\
		goto deref_fault;					\
	__stp_d; })

#endif
