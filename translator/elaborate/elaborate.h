/* elaborate.h - pass 2: resolve symbols, probe points and types. */
#ifndef STP_ELABORATE_H
#define STP_ELABORATE_H

#include "session.h"

/* elaborate - resolve the user script of @s against the tapset library:
 * derive every probe point through its family, bind every identifier to a
 * local, parameter or global, bind calls to functions (pulling in the
 * tapset functions and globals used), and infer every type.  Fills
 * s->globals, s->functions, s->probes and s->derived.
 * Returns 0 on success; otherwise diagnostics were printed. */
int elaborate(struct session *s);

/* derive_point - match one probe point against the probe-point families
 * and append the derived probes to s->derived.  Returns 0 on success, -1
 * after a diagnostic (unknown family, bad argument).
 * (families/registry.c) */
int derive_point(struct session *s, struct probe *p, struct probe_point *pp);

/* pprint_resolved - the -p2 listing: globals, functions and probes of the
 * resolved program, with their types. */
void pprint_resolved(struct strbuf *out, const struct session *s);

#endif
