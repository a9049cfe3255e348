/* opts_misc.h - stap options -W, -E, -q, --color/-C, --dump-*, --example
 * and --target-namespaces: see opts_misc.c. */
#ifndef OPTS_MISC_H
#define OPTS_MISC_H

#include "session.h"

/* opts_misc - handle one parsed option @c (a short-option letter or an
 * OPT_X_* code of opts_unsupported.h) with argument @arg (may be NULL)
 * for session @s.  Returns 1 if it was one of these options, 0 if not,
 * -1 after a one-line error on stderr.  Option parsing only. */
int opts_misc(struct session *s, int c, const char *arg);

/* opts_misc_finish - after every option is parsed (@nwords: the words
 * left, script FILE and arguments): turn the diagnostics' colors on or
 * off (--color, SYSTEMTAP_COLORS); with --example NAME read the example
 * script into s->script_file/s->script_text; with --dump-* or -E alone
 * an empty main script.  Returns 0, or -1 after a one-line error. */
int opts_misc_finish(struct session *s, int nwords);

/* opts_find_example - the path (heap string) of the example script @name
 * (FILE.stp, FILE or DIR/FILE.stp) under our installed examples, else
 * under SystemTap's (/usr/share/doc/systemtap/examples); NULL after a
 * one-line error on stderr (none, or several of that name in one
 * directory). */
char *opts_find_example(const char *name);

/* opts_misc_parse_extra - pass 1: parse the -E scripts and add their
 * probes, functions, globals, aliases and embedded C to s->user.
 * Returns 0, or -1 after diagnostics. */
int opts_misc_parse_extra(struct session *s);

/* opts_misc_dump - pass 1 with --dump-probe-types, --dump-probe-aliases
 * or --dump-functions, once the (empty) script is parsed: load the
 * tapsets, print the list on stdout and return the exit status (0, or 1
 * after an error); -1 when no dump was asked for. */
int opts_misc_dump(struct session *s);

#endif
