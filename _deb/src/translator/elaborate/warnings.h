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

/* warn_and_elide - after type inference: warn about globals that are
 * read but never assigned, and (unless -u) replace expression statements
 * of the user script without side effects by empty statements, with a
 * warning. */
void warn_and_elide(struct session *s);

/* expr_has_side_effects - 1 if evaluating @e may change state or output
 * (assignments, ++/--, <<<, printing, calls but to embedded-C functions
 * marked pure), else 0. */
int expr_has_side_effects(const struct expr *e);

#endif
