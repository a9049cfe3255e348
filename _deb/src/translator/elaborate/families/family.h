/* family.h - what a probe-point family is, and the helpers the families
 * share (registry.c).  Internal to elaborate/: the rest of the translator
 * reaches the families through derive_point() (elaborate/elaborate.h).
 *
 * A family turns one probe point whose first component is its name
 * ("timer", "kernel", ...) into derived probes appended to s->derived
 * (see struct derived_probe in session.h), printing a diagnostic for
 * anything it cannot resolve.
 */
#ifndef STP_FAMILY_H
#define STP_FAMILY_H

#include "session.h"
#include "parse/parse.h"

struct family {
	const char *name;           /* the first component it matches */
	/* match - derive @pp (a point of script probe @p); 0, or -1 after a
	 * diagnostic */
	int (*match)(struct session *s, struct probe *p,
		     struct probe_point *pp);
	const char *const *forms;   /* its point forms for stap -l, e.g.
	                             * "timer.ms(NUMBER)"; NULL-terminated */
};

/* The families, one file each; the table is in registry.c. */
extern const struct family family_begin, family_end,    /* begin_end.c */
	family_error;
extern const struct family family_never;               /* never.c */
extern const struct family family_procfs;              /* procfs.c */
extern const struct family family_timer;               /* timer.c */
extern const struct family family_kprobe;              /* kprobe.c */
extern const struct family family_perf;                /* perf.c */
extern const struct family family_kernel, family_module; /* kernel.c */
extern const struct family family_process;             /* process.c */
extern const struct family family_netfilter;           /* netfilter.c */

/* match_kernel_trace - kernel.trace("SUBSYS:NAME"), dispatched to by the
 * kernel family (tracepoint.c). */
/* match_kernel_absolute - kernel.statement(ADDR).absolute, also spelled
 * kprobe.statement(ADDR).absolute: guru mode only; a kprobe at the
 * function symbol containing ADDR plus the offset (KASLR-proof). @c is
 * the statement component.  0, or -1 after a diagnostic. */
int match_kernel_absolute(struct session *s, struct probe *p,
			  struct probe_point *pp, struct pp_component *c);

int match_kernel_trace(struct session *s, struct probe *p,
		       struct probe_point *pp);

/* match_kernel_data - kernel.data(ADDR or "SYMBOL")[.length(N)].write/.rw
 * hardware breakpoints, dispatched to by the kernel family (hwbkpt.c). */
int match_kernel_data(struct session *s, struct probe *p,
		      struct probe_point *pp);

/* target_program - the program a process probe without PATH names: the
 * first word of the -c command, or the -x process's program; heap, or
 * NULL after a diagnostic at @pp (process.c). */
char *target_program(struct session *s, struct probe_point *pp);

/* pp_comp - the i-th component of @pp, or NULL. */
struct pp_component *pp_comp(struct probe_point *pp, int i);
/* pp_is - 1 if component @c exists and is named @name. */
int pp_is(struct pp_component *c, const char *name);
/* new_derived - a derived probe of kind @k for point @pp of probe @p,
 * appended to s->derived (pp_text and optional filled in). */
struct derived_probe *new_derived(struct session *s, enum dp_kind k,
				  struct probe *p, struct probe_point *pp);
/* new_perf_derived - new_derived() for a perf event of C constant type
 * @type and config @config (perf.c). */
struct derived_probe *new_perf_derived(struct session *s, enum dp_kind k,
				       struct probe *p, struct probe_point *pp,
				       const char *type, const char *config);
/* num_arg - the numeric argument of component @c into *@v.  Without an
 * argument: 0 (and *@v untouched) unless @required.  Returns 0, or -1
 * after a diagnostic. */
int num_arg(struct pp_component *c, struct probe_point *pp, int64_t *v,
	    int required);
/* str_arg - the string argument of @c into *@v; 0, or -1 after a
 * diagnostic. */
int str_arg(struct pp_component *c, struct probe_point *pp, const char **v);
/* extra_components - 0 if @pp has no component from index @from on,
 * else -1 after a diagnostic naming the first one. */
int extra_components(struct probe_point *pp, int from);

#endif
