/* listing.h - stap -l / -L: list the probe points matching a pattern. */
#ifndef STP_LISTING_H
#define STP_LISTING_H

#include "session.h"

/* list_probe_points - append to @out, one per line and sorted, the probe
 * points matching s->list_pattern: the names of probe aliases (script
 * and tapsets), the forms of the built-in families (begin, timer.ms(N),
 * ...), and a literal family point such as kprobe.function("sym") as
 * given.  With s->list_vars (-L) each alias is followed by the variables
 * its prologue sets, as NAME:TYPE.  Returns 0, or -1 after an error (the
 * pattern does not parse, or nothing matches). */
int list_probe_points(struct session *s, struct strbuf *out);

#endif
