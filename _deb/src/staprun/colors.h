/* colors.h - staprun/stapio -C WHEN: the "ERROR:" and "WARNING:" that
 * begin the messages on stderr, in the colors of SYSTEMTAP_COLORS (as
 * stap --color). */
#ifndef STAPRUN_COLORS_H
#define STAPRUN_COLORS_H

#include <stddef.h>
#include <stdio.h>

/* colors_valid_when - is @when one of "always", "auto", "never"? */
int colors_valid_when(const char *when);

/* colors_setup - decide once: "always" colors, "never" does not, "auto"
 * (and NULL) colors when stderr is a terminal whose TERM is not "dumb".
 * The colors are SYSTEMTAP_COLORS' error= and warning= (its other keys,
 * source, caret and token, are stap's); absent: error 01;31, warning
 * 00;33; empty or invalid: no colors.  Returns 0, or -1 for a bad @when. */
int colors_setup(const char *when);

/* colors_write - write @len bytes of @text to @f, each line that begins
 * with "ERROR:" or "WARNING:" with that word colored (when on). */
void colors_write(FILE *f, const char *text, size_t len);

#endif
