/* warnings.h - pass 2 warnings and elision of unused code. */
#ifndef STP_WARNINGS_H
#define STP_WARNINGS_H

#include "session.h"
#include "parse/parse.h"

/* elide_unused - before type inference: warn about locals of the user
 * script that are never assigned or never read, and (unless -u) drop the
 * functions no probe calls and the globals no kept code uses from
 * s->functions and s->globals, with a warning for the user's own. */
void elide_unused(struct session *s);

/* elide_dead_code - after elide_unused, before type inference, unless
 * -u: as SystemTap, replace each assignment to a local nothing reads by
 * the value assigned and drop the statements without side effects (a
 * warning for the user's), until nothing changes; then drop the locals,
 * functions and globals no code left uses (a warning for the user's). */
void elide_dead_code(struct session *s);

/* warn_and_elide - after type inference: warn about globals that are
 * read but never assigned and, with -u, about the user's statements
 * without side effects (kept). */
void warn_and_elide(struct session *s);

/* expr_has_side_effects - 1 if evaluating @e, of statement @st, may
 * change state or output (assignments, ++/--, <<<, printing, calls but
 * to embedded-C functions marked pure), or, when @st is of the user's
 * script (not a tapset), end the probe with a run-time error (a division,
 * a fault, STAP_ERROR); else 0. */
int expr_has_side_effects(const struct session *s, const struct stmt *st,
			  const struct expr *e);

#endif
