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

struct gen;

/* tvar_type - the script type of target expression @e: TYPE_STRING for
 * the pretty-printing forms ($var$, $$parms, ...), else TYPE_LONG. */
enum stp_type tvar_type(const struct expr *e);

/* tvar_probe_per_derived - 1 if @p's body uses target variables, @entry
 * or @defined($...), so that each derived probe gets its own handler. */
int tvar_probe_per_derived(struct probe *p);

/* tvar_check_probe / tvar_check_function - pass 2: resolve the target
 * expressions of a probe body (for each of its derived probes) or of a
 * function body, printing a diagnostic for each that cannot be resolved
 * outside branches that @defined() rules out. */
void tvar_check_probe(struct session *s, struct probe *p);
void tvar_check_function(struct session *s, struct stmt *body);

/* tvar_const_cond - if @e is built only of @defined(...), numbers, !, &&
 * and ||, its value for derived probe @d into *@val and 1; else 0. */
int tvar_const_cond(struct session *s, struct derived_probe *d,
		    struct expr *e, int *val);

/* tvar_entry_exprs - the expressions of a .return derived probe's body
 * evaluated at the function's entry (@entry(...) and $params), in order. */
void tvar_entry_exprs(struct session *s, struct derived_probe *d,
		      struct vec *out);

/* tvar_gen - pass 3: C for E_TARGET, E_CAST, &target, E_ENTRY and
 * @defined($...) in the body being generated (g->dp: its derived probe). */
char *tvar_gen(struct gen *g, struct expr *e);

/* tvar_gen_store - pass 3, guru mode: emit the store of the long C
 * expression @value into target variable @e (a register or memory). */
void tvar_gen_store(struct gen *g, struct expr *e, const char *value);

#endif
