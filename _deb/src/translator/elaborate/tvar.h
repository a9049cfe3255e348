/* tvar.h - target variables inside pass 2 (tvar.c): the checks the
 * elaborator runs and the stap -L listing.  What codegen reads of a
 * resolved target expression is declared in elaborate.h. */
#ifndef STP_TVAR_H
#define STP_TVAR_H

#include "session.h"
#include "parse/parse.h"

/* tvar_check_probe / tvar_check_function - resolve the target
 * expressions of a probe body (for each of its derived probes) or of a
 * function body, printing a diagnostic for each that cannot be resolved
 * outside branches that @defined() rules out. */
void tvar_check_probe(struct session *s, struct probe *p);
void tvar_check_function(struct session *s, struct stmt *body);

/* tvar_elide_unresolved - before tvar_check_probe: drop the statements
 * whose result nothing reads that hold a target expression unresolvable
 * for a point of their probe (unless -u), and with --skip-badvars make
 * each target expression that no point of its probe resolves read as 0,
 * with a warning (badvars.c). */
void tvar_elide_unresolved(struct session *s);

/* tvar_list - stap -L: append " $name:type" for each parameter (and
 * local, at the probe address) of @d, in declaration order. */
void tvar_list(struct session *s, struct derived_probe *d, struct strbuf *out);

/* tvar_resolve_quiet - tvar_resolve() without diagnostics. */
int tvar_resolve_quiet(struct session *s, struct derived_probe *d,
		       struct expr *e, enum tv_use use, struct tv_path *out);

/* autocast_index - record the program's assignments to locals, which
 * autocast_type follows (autocast.c).  Call once the program is resolved
 * and before target expressions are resolved. */
void autocast_index(struct session *s);

/* autocast_type - the struct or union autocast @e (an E_CAST without a
 * type name: OPERAND->field...) points to in derived probe @d (NULL in a
 * function), or NULL when OPERAND's type is not known. */
struct ctype *autocast_type(struct session *s, struct derived_probe *d,
			    struct expr *e);

#endif
