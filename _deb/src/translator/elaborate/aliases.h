/* aliases.h - pass 2: probe alias expansion and probe point matching. */
#ifndef STP_ALIASES_H
#define STP_ALIASES_H

#include "session.h"
#include "parse/parse.h"

/* expand_user_probes - turn every probe of the user script into derived
 * probes (s->derived) and the probes whose bodies run (s->probes),
 * expanding aliases (prologue/epilogue bodies are copies, one probe per
 * alias definition), wildcards, '?', '!' and 'if (EXPR)'.
 * Returns 0, -1 after errors were reported, or -2 after the error that
 * the aliases expand to too many probes (the caller should stop). */
int expand_user_probes(struct session *s);

/* include_tapset_probes - append to s->user->probes the probes (not the
 * aliases) of each tapset file the script uses: one of its globals,
 * functions or alias names appears in the script, or in the probes and
 * functions of a file included so (tapset_probes.c).  Call before
 * expand_user_probes. */
void include_tapset_probes(struct session *s);

/* pp_matches_alias - 1 if the probe point pattern @pat (with '*' inside
 * components and '**' for any number of components) matches the alias
 * name @name, else 0. */
int pp_matches_alias(const struct probe_point *pat,
		     const struct probe_point *name);

/* pp_has_wildcard - 1 if a component name of @pp has '*', '?' or '['. */
int pp_has_wildcard(const struct probe_point *pp);

/* derive_point - match one probe point against the probe-point families
 * and append the derived probes to s->derived.  Returns 0 on success, -1
 * after a diagnostic (unknown family, bad argument).
 * (families/registry.c) */
int derive_point(struct session *s, struct probe *p, struct probe_point *pp);

/* family_exists - 1 if @name is a probe-point family (families/registry.c). */
int family_exists(const char *name);

/* family_similar - append to @b the family names similar to @name,
 * separated by ", ", counting them in *n.  (families/registry.c) */
void family_similar(const char *name, struct strbuf *b, int *n);

/* names_similar - 1 if @a and @b are close (small edit distance, or one
 * contains the other).  (families/registry.c) */
int names_similar(const char *a, const char *b);

/* family_templates - the probe point forms of the families, for stap -l:
 * a NULL-terminated array of strings like "timer.ms(NUMBER)". */
const char *const *family_templates(void);

#endif
