/* SystemTap options taken in part, and the option codes main.c shares:
 * see opts_unsupported.c */
#ifndef OPTS_UNSUPPORTED_H
#define OPTS_UNSUPPORTED_H

/* short options handled here, to append to main.c's getopt string */
#define OPTS_X_SHORT "a:tWqB:E:C:i"

enum {
	OPT_X_DUMP_PROBE_TYPES = 0x300,
	OPT_X_DUMP_PROBE_ALIASES,
	OPT_X_DUMP_FUNCTIONS,
	OPT_X_EXAMPLE,
	OPT_X_COLOR,
	OPT_X_SUPPRESS_HANDLER_ERRORS,
	OPT_X_SUPPRESS_TIME_LIMITS,
	OPT_X_TARGET_NAMESPACES,
};

#define OPTS_X_LONG \
	{ "dump-probe-types", no_argument, NULL, OPT_X_DUMP_PROBE_TYPES }, \
	{ "dump-probe-aliases", no_argument, NULL, OPT_X_DUMP_PROBE_ALIASES }, \
	{ "dump-functions", no_argument, NULL, OPT_X_DUMP_FUNCTIONS }, \
	{ "example", required_argument, NULL, OPT_X_EXAMPLE }, \
	{ "color", optional_argument, NULL, OPT_X_COLOR }, \
	{ "colour", optional_argument, NULL, OPT_X_COLOR }, \
	{ "suppress-handler-errors", no_argument, NULL, \
	  OPT_X_SUPPRESS_HANDLER_ERRORS }, \
	{ "suppress-time-limits", no_argument, NULL, \
	  OPT_X_SUPPRESS_TIME_LIMITS }, \
	{ "target-namespaces", required_argument, NULL, OPT_X_TARGET_NAMESPACES }, \
	{ "interactive", no_argument, NULL, 'i' }

int opts_unsupported(int c, const char *arg);

#endif
