/* opts_check.h - the option values SystemTap refuses: see opts_check.c */
#ifndef OPTS_CHECK_H
#define OPTS_CHECK_H

#include "session.h"

/* opts_check - check the value @arg of option @c (a short-option letter)
 * as SystemTap does before using it: -D NAME[=VALUE], -G NAME=VALUE,
 * -x PID, -s MB, -S SIZE[,N], -T SECONDS, -e given once.  Returns 0, or
 * -1 after a one-line error on stderr naming the option and its form.
 * Option parsing only. */
int opts_check(int c, const char *arg);

/* opts_check_finish - the combinations SystemTap refuses, once every
 * option of @s is parsed (-c with -x).  Returns 0 or -1 as above. */
int opts_check_finish(const struct session *s);

#endif
