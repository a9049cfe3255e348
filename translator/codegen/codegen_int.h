/* codegen_int.h - shared state of pass 3 (codegen.c, gen_body.c).
 *
 * Generated code conventions (see runtime/stp_runtime.h):
 *  - script globals are C statics g_NAME; every global has a lock in
 *    stp_global_locks[index];
 *  - each probe body is a function probe_N(struct stp_context *c) and each
 *    script function fn_NAME_ARITY(c, [char *ret,] args...); their locals,
 *    parameters and temporaries live in a frame struct allocated from the
 *    context's frame arena (never on the kernel stack); only the fields
 *    before its zero_end marker (the script's locals) start zeroed;
 *  - a foreach walks its own snapshot of the array's order, kept in the
 *    arena above the frame until the loop ends (or the frame is left);
 *  - `next` in a function sets c->next and every caller unwinds to the
 *    end of the probe;
 *  - long values are s64 C expressions, string values const char *
 *    expressions pointing at storage that lives until the statement ends;
 *  - after anything that can fail, "if (unlikely(c->error)) goto LABEL;"
 *    unwinds to the error label (the end of the body, or a catch block).
 */
#ifndef STP_CODEGEN_INT_H
#define STP_CODEGEN_INT_H

#include "session.h"
#include "elaborate/elaborate.h"

struct gen {
	struct session *s;
	struct strbuf *out;          /* the body being generated */
	struct strbuf frame;         /* fields of the frame struct */
	int ntemps;                  /* temporaries t0..tN-1 in the frame */
	int nlabels;                 /* for unique labels */
	int indent;
	struct functiondecl *func;   /* NULL in a probe body */
	const char *err_label;       /* where errors unwind to */
	const char *brk_label;       /* innermost loop's break target, or NULL */
	const char *cont_label;      /* ... and continue target */
	int failed;                  /* an unsupported construct was found */
	struct derived_probe *dp;    /* the derived probe whose handler this
	                              * is, when the body uses target vars */
	struct vec *entries;         /* .return: expressions saved at entry
	                              * (ed->vN), see tvar_entry_exprs */
	int in_entry;                /* generating the entry handler */
};

/* gen_expr - emit what expression @e needs; returns the C expression of
 * its value (heap). */
char *gen_expr(struct gen *g, struct expr *e);
/* new_temp - a fresh frame temporary of type @t; returns its C lvalue. */
char *new_temp(struct gen *g, enum stp_type t);
/* check_error - emit the unwind test after a fallible operation. */
void check_error(struct gen *g);

/* c_quote - a C string literal for @len bytes of @s (heap). */
char *c_quote(const char *s, size_t len);
/* loc_literal - the C string literal "file:line:col" for @loc (heap). */
char *loc_literal(const struct source_loc *loc);
/* emit - append an indented line to g->out (printf-style). */
void emit(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* var_ref - the C lvalue of symbol @y in the current body. */
char *var_ref(struct gen *g, const struct sym *y);
/* c_type_decl - a frame/global field declaration of type @t named @name. */
char *c_type_decl(enum stp_type t, const char *name);

/* frame_decl - the frame field declaration of local or parameter @y
 * named @name (a statistic: its struct stp_stat and histogram). */
char *frame_decl(const struct sym *y, const char *name);

/* stat_spec.c: what a statistic keeps besides its moments. */
enum { STAT_HIST_NONE, STAT_HIST_LOG, STAT_HIST_LINEAR };
struct stat_spec {
	int hist;                    /* STAT_HIST_* */
	int64_t start, stop, interval; /* STAT_HIST_LINEAR */
	int buckets;                 /* histogram counters (0: none) */
	int shift;                   /* @variance(s, SHIFT), 0 without */
};
/* stat_spec_of - the histogram and variance shift statistic @y is read
 * with in any body.  Returns 0, or -1 after an error message (two
 * histogram kinds or shifts, a bad @hist_linear). */
int stat_spec_of(struct session *s, struct sym *y, struct stat_spec *sp);
/* stat_hist_c - the C initializer of the struct stp_hist of @sp (heap). */
char *stat_hist_c(const struct stat_spec *sp);
/* lstat_plan - the specs of every statistic in a local variable of @s,
 * for lstat_spec (replacing those of an earlier session).  Returns 0, or
 * -1 after error messages.  Before any body is generated. */
int lstat_plan(struct session *s);
/* lstat_spec - the spec of local statistic @y (from lstat_plan). */
const struct stat_spec *lstat_spec(const struct sym *y);

/* is_map - @y is a global kept in a struct stp_map (an array or a
 * statistic); its C object is g_NAME, passed as &g_NAME. */
static inline int is_map(const struct sym *y)
{
	return y && y->kind == SYM_GLOBAL &&
	       (y->arity > 0 || y->type == TYPE_STATS);
}

/* gen_stmt - generate statement @st into g->out. */
void gen_stmt(struct gen *g, struct stmt *st);

/* fn_cname - the C name of a script function: fn_NAME_ARITY (heap). */
char *fn_cname(const struct functiondecl *fn);

/* gen_map_keys - evaluate the keys @args of an access to map global @y
 * into a frame key vector; returns its C expression ("NULL" without
 * keys). */
char *gen_map_keys(struct gen *g, const struct sym *y, struct vec *args);

/* pcpu_update - if statement @st adds to a global (G++, G += E, A[K]++,
 * A[K] -= E, ...) in a form that per-CPU storage can hold, that global;
 * else NULL (pcpu.c). */
struct sym *pcpu_update(const struct stmt *st);

/* pcpu_classify - decide which scalar globals are counters kept per CPU
 * (sym->pcpu); before any body is generated (pcpu.c). */
void pcpu_classify(struct session *s);

/* pcpu_gen_update - if statement @st updates a per-CPU global (G++,
 * G += E, ...), emit its lock-free update and return 1; else 0. */
int pcpu_gen_update(struct gen *g, struct stmt *st);

/* tvar_gen - C for E_TARGET, E_CAST, &target, E_ENTRY and
 * @defined($...) in the body being generated (g->dp: its derived probe),
 * from the path pass 2 resolved (tvar_gen.c). */
char *tvar_gen(struct gen *g, struct expr *e);

/* tvar_gen_store - guru mode: emit the store of the long C expression
 * @value into target variable @e (a register or memory). */
void tvar_gen_store(struct gen *g, struct expr *e, const char *value);

/* uses_pragma - 1 if the embedded C of a used function has the comment
 * @pragma ("pragma:usyms", as SystemTap's pragma:vma): it needs a table
 * in the module (usyms_gen.c). */
int uses_pragma(const struct session *s, const char *pragma);

/* gen_usyms - emit the user-space symbol and unwind tables
 * (stp_usyms, usyms_gen.c) when the script needs them.  Returns 1 when
 * emitted, 0 when not needed, -1 after an error message. */
int gen_usyms(struct session *s, struct strbuf *o);

/* gen_klines - emit the kernel's line table (stp_klines, klines_gen.c)
 * when a used function's embedded C has pragma:lines.  Returns 1 when
 * emitted, 0 when not needed, -1 after an error message. */
int gen_klines(struct session *s, struct strbuf *o);

/* share.c: one handler for probe points whose bodies generate the same C.
 * share_handler - @text is the generated handler @name; returns the name
 * of an earlier handler with the same code (then @text is not needed and
 * @name becomes an alias of it), or NULL when @text is new and must be
 * emitted.  share_resolve - the handler emitted for @name (heap; frees
 * @name).  share_count - distinct handlers seen. */
const char *share_handler(const char *text, const char *name);
char *share_resolve(char *name);
int share_count(void);
/* names_frame - whether generated @body may use the frame pointer `f`
 * (conservative: any `f` token, strings included). */
int names_frame(const char *body);
/* light_body - whether generated probe @body uses its context only to
 * count statements (stp_action) and record or test an error (so it
 * calls nothing that takes the context, prints nothing and reads no
 * registers): such a handler runs on the light hit path (stp_hit.h's
 * @light).  Conservative: any other `c` token outside literals and
 * comments says no. */
int light_body(const char *body);
/* light_actions - rewrite light @body's stp_action(c, ...) calls to count
 * in the handler's local `actions` (stp_action_in). */
void light_actions(struct strbuf *body);
/* light_statements - the statements light @body (after light_actions)
 * counts in all, when it records no error of its own (no stp_error, no
 * c->error): run without a loop, it can fail only past MAXACTION; -1
 * when it names an error or counts other than by constants. */
long light_statements(const char *body);
/* hit_mode - stp_hit's mode for derived probe @d's handler, as a C
 * constant expression (runtime/stp_hit.h: STP_HIT_LIGHT, and
 * STP_HIT_NOERR when its statements stay within MAXACTION); a static
 * buffer, valid until the next call. */
const char *hit_mode(const struct derived_probe *d);
/* frame_used_locals - append to @frame the declarations of the locals of
 * @v that the generated @body references (f->l_NAME); returns how many. */
int frame_used_locals(struct strbuf *frame, struct vec *v, const char *body);
/* gen_python3 - the python3 tapset's interpreters and their layouts
 * (stp_py3_builds, stp_py3_bias) when the program uses its C; emitted
 * before the tapsets' C (python3_gen.c). */
void gen_python3(struct session *s, struct strbuf *o);

/* gen_upaths - append to @o the NULL-terminated table stp_upaths of
 * the user-space files the code so far in @o asks the load bias of
 * (stp_ubias), for runtime/uvars.c to resolve at module start.
 * (upaths.c) */
void gen_upaths(struct strbuf *o);

/* kset_plan - group the derived kprobes of @s into probe sets
 * (kset_gen.c): kernel points agreeing on all but their address, given
 * @handler[i], the C handler of s->derived.items[i]; sets each member's
 * d->kset.  Returns the number of sets. */
int kset_plan(struct session *s, char **handler);
/* gen_ksets - the sets' tables, hit functions and struct stp_kset
 * stp_ksetN (before the probe table).  Returns the number of sets. */
int gen_ksets(struct session *s, struct strbuf *o, char **handler);

#endif
