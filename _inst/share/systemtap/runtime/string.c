/* string.c - bounded script strings and checked arithmetic. */
#include <linux/module.h>
#include <linux/limits.h>
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
