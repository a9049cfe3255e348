/* string.c - bounded script strings and checked arithmetic. */
#include <linux/module.h>
#include <linux/limits.h>
#include <linux/uaccess.h>
#include "stp_internal.h"

void stp_strcpy(char *dst, const char *src)
{
	strscpy(dst, src, MAXSTRINGLEN);
}

void stp_strcat(char *dst, const char *src)
{
	size_t n = strnlen(dst, MAXSTRINGLEN - 1);

	strscpy(dst + n, src, MAXSTRINGLEN - n);
}

void stp_sprintf(char *dst, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, MAXSTRINGLEN, fmt, ap);
	va_end(ap);
}

void stp_long_to_str(char *dst, s64 v)
{
	snprintf(dst, MAXSTRINGLEN, "%lld", (long long)v);
}

s64 stp_div(struct stp_context *c, s64 a, s64 b, const char *loc)
{
	if (unlikely(b == 0)) {
		stp_error(c, "division by zero", loc);
		return 0;
	}
	if (unlikely(b == -1))
		return a == S64_MIN ? S64_MIN : -a;
	return a / b;
}

s64 stp_mod(struct stp_context *c, s64 a, s64 b, const char *loc)
{
	if (unlikely(b == 0)) {
		stp_error(c, "division by zero", loc);
		return 0;
	}
	if (unlikely(b == -1))
		return 0;
	return a % b;
}

void stp_sprintf_cat(char *dst, const char *fmt, ...)
{
	size_t n = strnlen(dst, MAXSTRINGLEN - 1);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst + n, MAXSTRINGLEN - n, fmt, ap);
	va_end(ap);
}

/* stp_emit_bytes - print @n bytes or append them to script string @dst. */
static void stp_emit_bytes(struct stp_context *c, char *dst, const char *b,
			   size_t n)
{
	size_t have, i;

	if (!dst) {
		stp_print(c, b, n);
		return;
	}
	have = strnlen(dst, MAXSTRINGLEN - 1);
	for (i = 0; i < n && b[i] && have < MAXSTRINGLEN - 1; i++)
		dst[have++] = b[i];
	dst[have] = '\0';
}

static void stp_emit_pad(struct stp_context *c, char *dst, int n)
{
	static const char sp[16] = "                ";

	while (n > 0) {
		int k = min(n, 16);

		stp_emit_bytes(c, dst, sp, k);
		n -= k;
	}
}

/* stp_binary_size - @n if it is a valid %b size (1, 2, 4, 8), else -1. */
static int stp_binary_size(int n)
{
	return (n == 1 || n == 2 || n == 4 || n == 8) ? n : -1;
}

void stp_format_special(struct stp_context *c, char *dst, char conv,
			const char *flags, int width, int prec, s64 v,
			const char *loc)
{
	static const char hex[] = "0123456789abcdef";
	int left = strchr(flags, '-') != NULL, n, out, i;
	int user = strchr(flags, '#') != NULL;   /* %#m, %#M: user memory */
	unsigned long addr = (unsigned long)v;
	char chunk[32], txt[64];

	if (conv == 'b') {
		static const char zeros[8];
		int size = stp_binary_size(prec);

		if (width < 0)
			width = size = size < 0 ? 8 : size;
		else if (size < 0)
			size = stp_binary_size(width) < 0 ? 8 : width;
		while (!left && width-- > size)
			stp_emit_bytes(c, dst, zeros, 1);
		stp_emit_bytes(c, dst, (const char *)&v, size);
		while (left && width-- > size)
			stp_emit_bytes(c, dst, zeros, 1);
		return;
	}
	n = prec < 0 ? 1 : min(prec, 1024);
	out = conv == 'M' ? 2 * n : n;
	if (!left)
		stp_emit_pad(c, dst, width - out);
	for (i = 0; i < n; i += sizeof(chunk)) {
		int k = min_t(int, n - i, sizeof(chunk)), j;

		if (user ? copy_from_user_nofault(chunk, (const void __user *)(addr + i), k) :
		    copy_from_kernel_nofault(chunk, (const void *)(addr + i), k)) {
			if (!c->error) {
				snprintf(c->error_buf, sizeof(c->error_buf),
					 "%s read fault at 0x%lx",
					 user ? "user" : "kernel", addr + i);
				stp_error(c, c->error_buf, loc);
			}
			return;
		}
		if (conv == 'm') {
			stp_emit_bytes(c, dst, chunk, k);
			continue;
		}
		for (j = 0; j < k; j++) {
			txt[2 * j] = hex[(unsigned char)chunk[j] >> 4];
			txt[2 * j + 1] = hex[chunk[j] & 15];
		}
		stp_emit_bytes(c, dst, txt, 2 * k);
	}
	if (left)
		stp_emit_pad(c, dst, width - out);
}
