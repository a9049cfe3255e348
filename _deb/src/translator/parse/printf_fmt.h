/* printf_fmt.h - SystemTap printf formats: checking and translation to the
 * kernel's vsnprintf syntax. */
#ifndef STP_PRINTF_FMT_H
#define STP_PRINTF_FMT_H

#include "ast.h"

/* One value a format consumes, in order. */
struct fmt_arg {
	enum stp_type type;   /* TYPE_LONG or TYPE_STRING */
	char conv;            /* the SystemTap conversion: d i u o x X c s p,
	                       * or '*' for a width/precision argument */
};

/* printf_arg_types - the types of the values @fmt (@len bytes) consumes,
 * into @types (at most @max).  Returns how many, or -1 after reporting a
 * bad conversion at @loc (only when @report). */
int printf_arg_types(const char *fmt, size_t len, enum stp_type *types,
		     int max, const struct source_loc *loc, int report);

/* printf_to_kernel - translate @fmt (@len bytes) into a kernel format
 * string (returned, heap) in which every long conversion takes a long long
 * argument, and fill @args (at most @max) with what each argument is;
 * *nargs gets their number.  The format must have passed
 * printf_arg_types. */
char *printf_to_kernel(const char *fmt, size_t len, struct fmt_arg *args,
		       int max, int *nargs);

/* A piece of a format: plain text with kernel-formattable conversions,
 * or one conversion the runtime formats itself (%b %m %M). */
struct fmt_piece {
	size_t start, end;    /* byte range of the piece in the format */
	int special;          /* 1: a %b/%m/%M conversion */
	char conv;            /* special: 'b', 'm' or 'M' */
	char flags[8];        /* special: its flags */
	long width, prec;     /* special: -1 absent, -2 from an argument ('*') */
};

/* printf_next_piece - the piece of @fmt (@len bytes) that starts at @pos
 * into @pc.  Returns 0, or -1 at the end of the format.  The format must
 * have passed printf_arg_types. */
int printf_next_piece(const char *fmt, size_t len, size_t pos,
		      struct fmt_piece *pc);

/* printf_has_special - 1 if @fmt has a %b, %m or %M conversion. */
int printf_has_special(const char *fmt, size_t len);

#endif
