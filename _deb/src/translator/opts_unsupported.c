/* Options SystemTap has that this stap takes only in part (today -a, which
 * accepts only x86_64): anything else gives a one-line error naming the
 * option, so that a script run with them fails honestly instead of as
 * "unknown option". */
#include <stdio.h>
#include <string.h>
#include "opts_unsupported.h"

/* Handle one parsed option C (a short-option letter or an OPT_X_* code
 * from opts_unsupported.h) with argument ARG (may be NULL).
 * Returns 1 if the option is accepted and has nothing more to do, 0 if C
 * is not one of ours, -1 after printing a one-line error on stderr.
 * Called from option parsing only (user space, may do anything). */
int opts_unsupported(int c, const char *arg)
{
	switch (c) {
	case 'a':
		/* only the host architecture: modules are built for x86_64 */
		if (arg && !strcmp(arg, "x86_64"))
			return 1;
		fprintf(stderr, "stap: -a %s: only x86_64 is supported\n",
			arg ? arg : "");
		return -1;
	default:
		return 0;
	}
}
