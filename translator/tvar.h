/* tvar.h - target variables: $name, $a->b[i], &$x, $$parms, $var$,
 * $return, @entry(...), @cast(...), @var(...), @defined($...).
 *
 * Pass 2 resolves each of them for each derived probe through the
 * session's debuginfo provider (dbginfo.h); pass 3 asks for the C that
 * computes them.  A probe whose body uses target variables gets one C
 * handler per derived probe, since a parameter lives in different places
 * in different functions.
 */
#ifndef STP_TVAR_H
#define STP_TVAR_H

#include "session.h"
#include "util.h"

/* tvar_list - stap -L: append " $name:type" for each parameter (and
 * local, at the probe address) of @d, in declaration order. */
void tvar_list(struct session *s, struct derived_probe *d, struct strbuf *out);

#endif
