/* opts_check.c - option values and combinations SystemTap refuses, so
 * that a command line it rejects is rejected here too, with a one-line
 * error naming the option and the form it takes:
 *   -D NAME or NAME=VALUE   a C macro: NAME a C identifier, VALUE letters,
 *                           digits and '_', maybe after a '-'
 *   -G NAME=VALUE           a global's start value: the same NAME, VALUE
 *                           letters, digits, '_' and '-'
 *   -x PID                  a process id
 *   -s MB                   the buffer size, 1 to 4095
 *   -S SIZE[,N]             output file size in MB and how many to keep
 *   -T SECONDS              a timeout, a positive number
 *   -e SCRIPT               once ("only one script")
 *   -c CMD and -x PID       not both (one target process)
 */
#include "opts_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* name_value - @s is NAME[=VALUE] with NAME an identifier and VALUE of
 * ident_char()s (and '-' where @dash allows: 1 as its first, 2 anywhere);
 * @need_value: the '=VALUE' is required */
static int name_value(const char *s, int need_value, int dash)
{
	const char *v;
	if (!ident_start(*s))
		return 0;
	for (s++; ident_char(*s); s++)
		;
	if (!*s)
		return !need_value;
	if (*s != '=' || !s[1])
		return 0;
	for (v = ++s; *s; s++)
		if (!ident_char(*s) && !(*s == '-' && (dash == 2 || s == v)))
			return 0;
	return 1;
}

/* number - @s is a decimal number from @lo to @hi */
static int number(const char *s, long lo, long hi)
{
	char *end;
	long v;
	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 10)
		return 0;
	v = strtol(s, &end, 10);
	return v >= lo && v <= hi;
}

static int bad(const char *opt, const char *arg, const char *form)
{
	fprintf(stderr, "stap: %s takes %s, not '%s'\n", opt, form, arg);
	return -1;
}

int opts_check(int c, const char *arg)
{
	static int scripts;
	const char *comma;
	switch (c) {
	case 'D':
		return name_value(arg, 0, 1) ? 0 : bad("-D", arg,
			"NAME or NAME=VALUE (a C identifier; VALUE of letters, "
			"digits and '_', maybe after a '-')");
	case 'G':
		return name_value(arg, 1, 2) ? 0 : bad("-G", arg,
			"NAME=VALUE (a global's name; VALUE of letters, digits, "
			"'_' and '-')");
	case 'x':
		return number(arg, 1, 0x7fffffff) ? 0 :
			bad("-x", arg, "a process id");
	case 's':
		return number(arg, 1, 4095) ? 0 :
			bad("-s", arg, "a buffer size in MB, 1 to 4095");
	case 'T':
		return number(arg, 1, 0x7fffffff) ? 0 :
			bad("-T", arg, "a timeout in seconds, from 1");
	case 'S':
		comma = strchr(arg, ',');
		if (comma) {
			char *size = xstrndup(arg, comma - arg);
			int ok = number(size, 1, 0x7fffffff) &&
				 number(comma + 1, 1, 0x7fffffff);
			free(size);
			return ok ? 0 : bad("-S", arg, "SIZE[,N] (MB and a "
					    "number of files, both from 1)");
		}
		return number(arg, 1, 0x7fffffff) ? 0 : bad("-S", arg,
			"SIZE[,N] (MB and a number of files, both from 1)");
	case 'e':
		if (scripts++) {
			fprintf(stderr, "stap: -e given twice: only one script "
				"(add more with -E SCRIPT)\n");
			return -1;
		}
		return 0;
	}
	return 0;
}

int opts_check_finish(const struct session *s)
{
	if (s->target_cmd && s->target_pid) {
		fprintf(stderr, "stap: -c CMD and -x PID name the target "
			"process twice: give one\n");
		return -1;
	}
	return 0;
}
