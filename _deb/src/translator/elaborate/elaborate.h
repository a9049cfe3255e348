/* elaborate.h - pass 2, the whole interface: resolve the parsed script
 * against the tapset library and the kernel.
 *
 * In:  the session after pass 1 (s->user, s->library) and the kernel's
 *      debugging information (debuginfo/debuginfo.h).
 * Out: the resolved program in the session (s->globals, s->functions,
 *      s->probes, s->derived: every probe point derived into what the
 *      runtime registers), every expression typed; and, for pass 3, what
 *      each target expression reads (struct tv_path below).
 */
#ifndef STP_ELABORATE_H
#define STP_ELABORATE_H

#include "session.h"
#include "parse/parse.h"
#include "debuginfo/debuginfo.h"

/* elaborate - resolve the user script of @s against the tapset library:
 * derive every probe point through its family, bind every identifier to a
 * local, parameter or global, bind calls to functions (pulling in the
 * tapset functions and globals used), and infer every type.  Fills
 * s->globals, s->functions, s->probes and s->derived.
 * Returns 0 on success; otherwise diagnostics were printed. */
int elaborate(struct session *s);

/* ---- --privilege (privilege.c) ---- */

/* privilege_check - at s->privilege stapusr or stapsys, report every
 * construct of the resolved program that needs a higher level (probe
 * points, kernel target variables, embedded C, guru mode, tapset
 * functions not marked unprivileged), positioned, naming the level
 * needed.  Returns 0, or -1 after errors.  Called by elaborate() once
 * every probe is derived and every call bound. */
int privilege_check(struct session *s);

/* privilege_name - "stapusr", "stapsys" or "stapdev" for a STP_PRIV_*
 * level (0 gives "stapdev"). */
const char *privilege_name(int level);

/* privilege_parse - the STP_PRIV_* level named @name, or -1. */
int privilege_parse(const char *name);

/* pprint_resolved - the -p2 listing: globals, functions and probes of the
 * resolved program, with their types. */
void pprint_resolved(struct strbuf *out, const struct session *s);

/* list_probe_points - stap -l / -L: append to @out, one per line and
 * sorted, the probe points matching s->list_pattern: the names of probe
 * aliases (script and tapsets), the forms of the built-in families
 * (begin, timer.ms(N), ...), and a literal family point such as
 * kprobe.function("sym") as given.  With s->list_vars (-L) each alias is
 * followed by the variables its prologue sets, as NAME:TYPE.  Returns 0,
 * or -1 after an error (the pattern does not parse, or nothing matches).
 * (listing.c) */
int list_probe_points(struct session *s, struct strbuf *out);

/* ---- stap --dump-* (dump.c) ----
 * Each appends its list to @out, one per line, sorted, without repeats,
 * in SystemTap's format, and returns 0.  Names starting with '_' only
 * with -v. */
/* dump_probe_types - the point forms of the families: timer.ms(number);
 * at s->privilege stapusr only those allowed there */
int dump_probe_types(struct session *s, struct strbuf *out);
/* dump_probe_aliases - the tapset aliases of @s (loaded by pass 1):
 * NAME = POINT, POINT... (+= for epilogue aliases) */
int dump_probe_aliases(struct session *s, struct strbuf *out);
/* dump_functions - the public tapset functions of @s, resolved and typed
 * by elaborate() (@s has an empty script and no other use after):
 * NAME:TYPE (ARG:TYPE, ...), TYPE unknown for no value or not inferred */
int dump_functions(struct session *s, struct strbuf *out);

/* coverage_update - stap -q, after pass 2: count what @s compiled in the
 * tapset coverage database $SYSTEMTAP_DIR/KVER.db (SystemTap's table
 * "counts"; see coverage.c).  Returns 0, or -1 after a one-line message
 * (the run goes on). */
int coverage_update(struct session *s);

/* ---- target variables (tvar.c) ----
 *
 * $name, $a->b[i], &$x, $$parms, $var$, $return, @entry(...), @cast(...),
 * @var(...), @defined($...).  A probe whose body uses them gets one C
 * handler per derived probe, since a parameter lives in different places
 * in different functions; pass 3 asks for each target expression's path
 * in the derived probe it generates and writes the C that follows it. */

/* One ->field or [index] component, resolved. */
struct tv_step {
	int is_index;
	struct expr *index;         /* [index]: the script expression */
	uint64_t n;                 /* element size ([i]) or member offset
	                             * (->field), bytes */
	int bit_size, bit_offset;   /* ->field of a bitfield: its width and
	                             * position in the unit (bits) */
	struct ctype *unit;         /* ->field: the member's declared type */
	struct ctype *type;         /* the type this component leads to */
};

/* A target expression, resolved: its base, then its components.  The
 * position is in memory (DL_ADDR: an address) or a value (DL_VALUE);
 * ->field and [i] through a pointer read the pointer first. */
struct tv_path {
	int kind;                   /* the base: DL_ADDR or DL_VALUE */
	const char *c_expr;         /* the base's C (debuginfo.h conventions),
	                             * "LOC" standing for the location literal;
	                             * NULL for @cast: see cast_operand */
	struct expr *cast_operand;  /* @cast(PTR, ...): PTR */
	struct ctype *type;         /* the base's type */
	struct vec steps;           /* struct tv_step * */
	int final_kind;             /* DL_ADDR / DL_VALUE after the steps */
	struct ctype *final_type;
	int store_reg;              /* TV_STORE: the DWARF register to set,
	                             * or -1: write memory */
	int user;                   /* the memory read is the current task's
	                             * user memory (a user program's DWARF:
	                             * the base's type is ctype.user) */
};

/* What the expression is used as. */
enum tv_use {
	TV_VALUE,                   /* a number (long) */
	TV_ADDR,                    /* &$x: the address */
	TV_PRETTY,                  /* $x$, $x$$: printed */
	TV_STORE,                   /* guru mode: $x = value */
};

/* fn_passes_on - function @fn may end by `next` (a `next` statement in
 * its body, STAP_NEXT in embedded C): its call goes on to the next
 * overload (functiondecl.overloads), or fails with "all functions
 * exhausted" when none is left. */
int fn_passes_on(const struct functiondecl *fn);

/* push_callees - onto @v, each function call @e may run: its function
 * and its overloads (struct functiondecl *) */
void push_callees(struct vec *v, const struct expr *e);

/* tvar_resolve - the path of target expression @e (E_TARGET or E_CAST)
 * in derived probe @d (NULL outside per-derived bodies) used as @use.
 * Returns 0, or -1 after a diagnostic. */
int tvar_resolve(struct session *s, struct derived_probe *d, struct expr *e,
		 enum tv_use use, struct tv_path *out);

/* One variable of $$parms, $$locals, $$vars or $$return. */
struct tv_var {
	const char *name;
	int ok;                     /* 0: not available here (printed "?") */
	struct tv_path path;
};

/* tvar_resolve_set - the variables (struct tv_var *) the set @e names in
 * @d, appended to @vars in declaration order.  Returns 0, or -1 after a
 * diagnostic. */
int tvar_resolve_set(struct session *s, struct derived_probe *d,
		     struct expr *e, struct vec *vars);

/* tvar_type - the script type of target expression @e: TYPE_STRING for
 * the pretty-printing forms ($var$, $$parms, ...), else TYPE_LONG. */
enum stp_type tvar_type(const struct expr *e);

/* tvar_is_set - 1 for $$parms, $$locals, $$vars, $$return (and their $
 * and $$ forms). */
int tvar_is_set(const struct expr *e);

/* tvar_is_probe_name - 1 for $$name: in a .plt probe, the symbol of its
 * PLT entry (a string constant of each derived probe). */
int tvar_is_probe_name(const struct expr *e);

/* tvar_pretty_depth - how deep a pretty-printing form prints structs: 1
 * for $x$ (and $$parms$), 2 for $x$$, 0 for plain forms. */
int tvar_pretty_depth(const struct expr *e);

/* tvar_bare_name - "$x$$" -> "x", "$$parms" -> "parms" (heap). */
char *tvar_bare_name(const char *name);

/* tvar_probe_per_derived - 1 if @p's body uses target variables, @entry
 * or @defined($...), so that each derived probe gets its own handler. */
int tvar_probe_per_derived(struct probe *p);

/* tvar_defined - @defined(@e) in derived probe @d: 1 if @e resolves. */
int tvar_defined(struct session *s, struct derived_probe *d, struct expr *e);

/* tvar_const_cond - if @e is built only of @defined(...), numbers, !, &&
 * and ||, its value for derived probe @d into *@val and 1; else 0. */
int tvar_const_cond(struct session *s, struct derived_probe *d,
		    struct expr *e, int *val);

/* tvar_saved_at_entry - in a .return probe, is @e evaluated at the
 * function's entry (@entry(...), $param, &$param) and its value saved? */
int tvar_saved_at_entry(const struct expr *e);

/* tvar_entry_exprs - the expressions of a .return derived probe's body
 * evaluated at the function's entry (tvar_saved_at_entry), in order. */
void tvar_entry_exprs(struct session *s, struct derived_probe *d,
		      struct vec *out);

#endif
