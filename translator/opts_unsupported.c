/* Options SystemTap has that this stap does not take (yet), or takes only
 * in part: each gives a one-line error naming the option, so that a script
 * run with them fails honestly instead of as "unknown option". */
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
	const char *name;
	switch (c) {
	case 'a':
		/* only the host architecture: modules are built for x86_64 */
		if (arg && !strcmp(arg, "x86_64"))
			return 1;
		fprintf(stderr, "stap: -a %s: only x86_64 is supported\n",
			arg ? arg : "");
		return -1;
	case 't': name = "-t (per-probe timing)"; break;
	case 'B': name = "-B NAME=VAL (kbuild variables)"; break;
	case OPT_X_SUPPRESS_HANDLER_ERRORS:
		name = "--suppress-handler-errors"; break;
	default:
		return 0;
	}
	fprintf(stderr, "stap: option %s is not supported by this stap\n", name);
	return -1;
}
