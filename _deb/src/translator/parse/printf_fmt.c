/* printf_fmt.c - SystemTap printf formats.
 *
 * A conversion is %[flags][width][.precision][length]conv with flags from
 * "-+ #0", width and precision digits or '*', length modifiers (l, ll, h,
 * hh, z, j, t) accepted and ignored (script longs are always 64-bit), and
 * conv one of d i u o x X c s p b m M %.  %b (binary), %m (memory) and %M
 * (memory in hex) have no kernel equivalent: the runtime formats them
 * (stp_format_special).
 */
#include "printf_fmt.h"

#include <stdlib.h>
#include <string.h>

/* A parsed conversion. */
struct conv {
	const char *start;   /* the '%' */
	const char *end;     /* one past the conversion character */
	char flags[8];
	char width[16];      /* digits, "*" or "" */
	char prec[16];       /* ".digits", ".*" or "" */
	char c;              /* conversion */
};

/* parse_conv - parse the conversion at @p (a '%') before @e into @cv.
 * Returns 0, or -1 with *why set. */
static int parse_conv(const char *p, const char *e, struct conv *cv,
		      const char **why)
{
	size_t n;
	memset(cv, 0, sizeof(*cv));
	cv->start = p++;
	for (n = 0; p < e && strchr("-+ #0", *p); p++)
		if (n < sizeof(cv->flags) - 1 && !strchr(cv->flags, *p))
			cv->flags[n++] = *p;
	if (p < e && *p == '*') {
		strcpy(cv->width, "*");
		p++;
	} else {
		for (n = 0; p < e && *p >= '0' && *p <= '9'; p++)
			if (n < sizeof(cv->width) - 1)
				cv->width[n++] = *p;
	}
	if (p < e && *p == '.') {
		cv->prec[0] = '.';
		p++;
		if (p < e && *p == '*') {
			cv->prec[1] = '*';
			p++;
		} else {
			for (n = 1; p < e && *p >= '0' && *p <= '9'; p++)
				if (n < sizeof(cv->prec) - 1)
					cv->prec[n++] = *p;
		}
	}
	while (p < e && strchr("lhzjtL", *p))
		p++;
	if (p >= e) {
		*why = "the format ends in the middle of a conversion";
		return -1;
	}
	cv->c = *p++;
	cv->end = p;
	if (!strchr("diuoxXcspbmM%", cv->c)) {
		*why = "unknown conversion";
		return -1;
	}
	return 0;
}

int printf_arg_types(const char *fmt, size_t len, enum stp_type *types,
		     int max, const struct source_loc *loc, int report)
{
	const char *p = fmt, *e = fmt + len, *why;
	struct conv cv;
	int n = 0;
	while (p < e) {
		if (*p != '%') {
			p++;
			continue;
		}
		if (parse_conv(p, e, &cv, &why) < 0) {
			if (report)
				diag_error(loc, "bad printf format at \"%.*s\": %s",
					   (int)(e - p > 8 ? 8 : e - p), p, why);
			return -1;
		}
		p = cv.end;
		if (cv.c == '%')
			continue;
		if (cv.width[0] == '*' && n < max)
			types[n++] = TYPE_LONG;
		if (cv.prec[1] == '*' && n < max)
			types[n++] = TYPE_LONG;
		if (n < max)
			types[n++] = cv.c == 's' ? TYPE_STRING : TYPE_LONG;
	}
	return n;
}

char *printf_to_kernel(const char *fmt, size_t len, struct fmt_arg *args,
		       int max, int *nargs)
{
	const char *p = fmt, *e = fmt + len, *why;
	struct strbuf out = {0};
	struct conv cv;
	int n = 0;
	while (p < e) {
		if (*p != '%') {
			strbuf_addc(&out, *p++);
			continue;
		}
		if (parse_conv(p, e, &cv, &why) < 0)
			break;   /* cannot happen after printf_arg_types */
		p = cv.end;
		if (cv.c == '%') {
			strbuf_add(&out, "%%");
			continue;
		}
		if (cv.width[0] == '*' && n < max)
			args[n++] = (struct fmt_arg){ TYPE_LONG, '*' };
		if (cv.prec[1] == '*' && n < max)
			args[n++] = (struct fmt_arg){ TYPE_LONG, '*' };
		if (n < max)
			args[n++] = (struct fmt_arg){
				cv.c == 's' ? TYPE_STRING : TYPE_LONG, cv.c };
		if (cv.c == 'p') {
			/* SystemTap's %p is %#x (the kernel's %p would hash
			 * the value). */
			strbuf_printf(&out, "%%#%s%s%sllx", cv.flags, cv.width,
				      cv.prec);
			continue;
		}
		strbuf_printf(&out, "%%%s%s%s", cv.flags, cv.width, cv.prec);
		switch (cv.c) {
		case 'c':
		case 's':
			strbuf_addc(&out, cv.c);
			break;
		case 'i':
			strbuf_add(&out, "lld");
			break;
		default:
			strbuf_printf(&out, "ll%c", cv.c);
			break;
		}
	}
	*nargs = n;
	return strbuf_detach(&out);
}

static int is_special(char c)
{
	return c == 'b' || c == 'm' || c == 'M';
}

int printf_has_special(const char *fmt, size_t len)
{
	struct fmt_piece pc;
	size_t pos = 0;
	while (printf_next_piece(fmt, len, pos, &pc) == 0) {
		if (pc.special)
			return 1;
		pos = pc.end;
	}
	return 0;
}

int printf_next_piece(const char *fmt, size_t len, size_t pos,
		      struct fmt_piece *pc)
{
	const char *p = fmt + pos, *e = fmt + len, *why;
	struct conv cv;
	if (p >= e)
		return -1;
	memset(pc, 0, sizeof(*pc));
	pc->start = pos;
	while (p < e) {
		if (*p != '%') {
			p++;
			continue;
		}
		if (parse_conv(p, e, &cv, &why) < 0)
			break;
		if (is_special(cv.c)) {
			if (p > fmt + pos)
				break;          /* the plain text before it first */
			pc->special = 1;
			pc->conv = cv.c;
			strcpy(pc->flags, cv.flags);
			pc->width = cv.width[0] == '*' ? -2 :
				cv.width[0] ? strtol(cv.width, NULL, 10) : -1;
			pc->prec = cv.prec[1] == '*' ? -2 :
				cv.prec[0] ? strtol(cv.prec + 1, NULL, 10) : -1;
			p = cv.end;
			break;
		}
		p = cv.end;
	}
	pc->end = p - fmt;
	return 0;
}
