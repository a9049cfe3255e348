/* memory.c - fault-tolerant reads of kernel and user memory for script
 * code: a bad address becomes a script error, never an oops. */
#include <linux/module.h>
#include <linux/uaccess.h>
#include "stp_internal.h"

/**
 * stp_mem_fault - see stp_deref.h.
 */
void stp_mem_fault(struct stp_context *c, const char *what,
		   unsigned long addr, const char *loc)
{
	if (c->error)
		return;
	snprintf(c->error_buf, sizeof(c->error_buf), "%s fault at 0x%lx",
		 what, addr);
	stp_error(c, c->error_buf, loc);
}

static void stp_read_fault(struct stp_context *c, const char *space,
			   unsigned long addr, const char *loc)
{
	stp_mem_fault(c, strcmp(space, "user") ? "kernel read" : "user read",
		      addr, loc);
}

/**
 * stp_deref - see stp_deref.h.
 */
int stp_deref(struct stp_context *c, unsigned long addr, int size, int user,
	      u64 *v, const char *loc)
{
	*v = 0;
	if ((size == 1 || size == 2 || size == 4 || size == 8) &&
	    !(user ? copy_from_user_nofault(v, (const void __user *)addr, size) :
	      copy_from_kernel_nofault(v, (const void *)addr, size)))
		return 0;
	*v = 0;
	stp_read_fault(c, user ? "user" : "kernel", addr, loc);
	return -EFAULT;
}

/**
 * stp_deref_string - see stp_deref.h.
 */
int stp_deref_string(struct stp_context *c, char *dst, unsigned long addr,
		     long n, const char *loc)
{
	if (n > 0 && !stp_copy_string(dst, addr, n, 0))
		return 0;
	stp_read_fault(c, "kernel", addr, loc);
	return -EFAULT;
}

/**
 * stp_deref_buffer - see stp_deref.h.
 */
int stp_deref_buffer(struct stp_context *c, char *dst, unsigned long addr,
		     size_t n, const char *loc)
{
	char tmp[64];
	size_t done, k;

	for (done = 0; done < n; done += k) {
		k = min_t(size_t, n - done, sizeof(tmp));
		if (copy_from_kernel_nofault(dst ? dst + done : tmp,
					     (const void *)(addr + done), k)) {
			stp_read_fault(c, "kernel", addr + done, loc);
			return -EFAULT;
		}
	}
	return 0;
}

/* stp_sext - @v (read as @size bytes) sign-extended to 64 bits. */
static s64 stp_sext(u64 v, int size)
{
	switch (size) {
	case 1: return (s8)v;
	case 2: return (s16)v;
	case 4: return (s32)v;
	default: return (s64)v;
	}
}

/**
 * stp_read_kernel - read a @size-byte (1, 2, 4 or 8) signed integer at
 * kernel address @addr.  See stp_runtime.h.
 */
s64 stp_read_kernel(struct stp_context *c, unsigned long addr, int size,
		    const char *loc)
{
	u64 v = 0;

	if (copy_from_kernel_nofault(&v, (const void *)addr, size)) {
		stp_read_fault(c, "kernel", addr, loc);
		return 0;
	}
	return stp_sext(v, size);
}

/**
 * stp_read_user - as stp_read_kernel for the current task's user memory.
 */
s64 stp_read_user(struct stp_context *c, unsigned long addr, int size,
		  const char *loc)
{
	u64 v = 0;

	if (copy_from_user_nofault(&v, (const void __user *)addr, size)) {
		stp_read_fault(c, "user", addr, loc);
		return 0;
	}
	return stp_sext(v, size);
}

static long stp_str_limit(long max)
{
	return (max <= 0 || max > MAXSTRINGLEN) ? MAXSTRINGLEN : max + 1;
}

int stp_copy_string(char *dst, unsigned long addr, long limit, int user)
{
	long i;

	for (i = 0; i < limit - 1; i++) {
		char ch;
		long rc = user ?
			copy_from_user_nofault(&ch, (const void __user *)(addr + i), 1) :
			copy_from_kernel_nofault(&ch, (const void *)(addr + i), 1);

		if (rc) {
			dst[i] = '\0';
			return -EFAULT;
		}
		dst[i] = ch;
		if (!ch)
			return 0;
	}
	dst[i] = '\0';
	return 0;
}

void stp_read_kernel_string(struct stp_context *c, char *dst,
			    unsigned long addr, long max, const char *loc)
{
	if (stp_copy_string(dst, addr, stp_str_limit(max), 0)) {
		dst[0] = '\0';
		stp_read_fault(c, "kernel", addr, loc);
	}
}

void stp_read_user_string(struct stp_context *c, char *dst,
			  unsigned long addr, long max, const char *loc)
{
	if (stp_copy_string(dst, addr, stp_str_limit(max), 1)) {
		dst[0] = '\0';
		stp_read_fault(c, "user", addr, loc);
	}
}
