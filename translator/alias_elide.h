/* alias_elide.h - dropping alias-prologue assignments nothing reads. */
#ifndef STP_ALIAS_ELIDE_H
#define STP_ALIAS_ELIDE_H

#include "session.h"

/* elide_alias_stores - after pass 2 has resolved and checked every
 * probe: in each probe that expands an alias, replace by empty statements
 * the plain assignments to locals that no code of the probe reads, when
 * the assigned expression has no side effect (calls only to pure
 * functions: embedded C marked pure, or script functions that write no
 * global, print nothing and call only pure ones), repeating until none is
 * left.  Does nothing with -u (s->unoptimized). */
void elide_alias_stores(struct session *s);

#endif
