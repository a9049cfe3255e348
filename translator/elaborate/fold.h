/* fold.h - constant conditions folded before type inference (fold.c) */
#ifndef STP_FOLD_H
#define STP_FOLD_H

#include "elaborate.h"

/* fold_constants - unless -u, in every probe and function of @s: keep
 * only the branch of ?:, if and while that a constant condition
 * (numbers, @defined(...), !, &&, ||) chooses, and turn @defined(...)
 * into 0 or 1, where the value is the same for every derived probe of
 * the body.  After resolution, before elision and type inference. */
void fold_constants(struct session *s);

#endif
