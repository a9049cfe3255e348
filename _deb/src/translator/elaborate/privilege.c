/* privilege.c - pass 2: what a script built for --privilege=stapusr or
 * stapsys may use (SystemTap's rules).
 *
 * stapusr: begin/end/error/never, timers, process probes (which the
 *          runtime fires only for the processes of the user who started
 *          the module, runtime/uprobes.c), user-space target variables,
 *          script functions, and tapset functions in embedded C only when
 *          marked unprivileged (a comment in their %{ ... %} body).
 * stapsys: also kernel probes of every family and kernel target
 *          variables; tapset functions of any kind.
 * stapdev: everything, guru mode and the script's own embedded C.
 * Each construct above the level is a positioned error naming it and the
 * level it needs.
 */
#include "elaborate.h"

#include <stdlib.h>
#include <string.h>

const char *privilege_name(int level)
{
	switch (level) {
	case STP_PRIV_STAPUSR: return "stapusr";
	case STP_PRIV_STAPSYS: return "stapsys";
	default: return "stapdev";
	}
}

int privilege_parse(const char *name)
{
	if (!strcmp(name, "stapusr"))
		return STP_PRIV_STAPUSR;
	if (!strcmp(name, "stapsys"))
		return STP_PRIV_STAPSYS;
	if (!strcmp(name, "stapdev"))
		return STP_PRIV_STAPDEV;
	return -1;
}

/* the level a derived probe of @kind needs */
static int kind_level(enum dp_kind kind)
{
	switch (kind) {
	case DP_BEGIN: case DP_END: case DP_TIMER: case DP_NEVER:
	case DP_ERROR: case DP_UPROBE: case DP_PROC_BEGIN: case DP_PROC_END:
	case DP_THREAD_BEGIN: case DP_THREAD_END:
		return STP_PRIV_STAPUSR;
	default:
		return STP_PRIV_STAPSYS;
	}
}

/* an embedded-C tapset function usable at stapusr */
static int marked_unprivileged(const struct functiondecl *fn)
{
	return fn->embedded_c && (strstr(fn->embedded_c, "/* unprivileged */") ||
				  strstr(fn->embedded_c, "/* myproc-unprivileged */"));
}

struct walk {
	struct session *s;
	int level;
	struct vec seen;            /* functions whose bodies were walked */
	struct vec bad;             /* tapset functions found needing more */
	struct vec bad_why;
	const char *why;            /* set by a walk: the first reason */
};

static int in_vec(struct vec *v, const void *p)
{
	int i;
	for (i = 0; i < v->n; i++)
		if (v->items[i] == p)
			return 1;
	return 0;
}

/* a kernel target variable: @var("name[@file]") without a program path,
 * @cast(p, "type"[, "kernel" or a module]) */
static int kernel_target(const struct expr *e)
{
	if (e->kind == E_TARGET && e->name && !strcmp(e->name, "@var"))
		return !e->module || e->module[0] != '/';
	if (e->kind == E_CAST && e->name)
		return !e->module || e->module[0] != '/';
	return 0;
}

static const char *function_needs(struct walk *w, struct functiondecl *fn);

/* in the user's code: report each construct; in a tapset function (w->why
 * collecting): remember the first reason only */
static void check_expr(void *arg, struct expr *e, int *skip)
{
	struct walk *w = arg;
	const char *why;
	int i;

	(void)skip;
	if (kernel_target(e) && w->level < STP_PRIV_STAPSYS) {
		if (w->why) {
			if (!*w->why)
				w->why = e->kind == E_CAST ? "a kernel @cast"
							  : "a kernel @var";
			return;
		}
		diag_error(&e->loc, "%s reads a kernel target variable, which "
			   "needs privilege stapsys (the script is built for %s)",
			   e->kind == E_CAST ? "@cast" : "@var",
			   privilege_name(w->level));
		return;
	}
	if (e->kind != E_CALL || !e->func)
		return;
	why = function_needs(w, e->func);
	for (i = 0; !why && i < e->func->overloads.n; i++)
		why = function_needs(w, e->func->overloads.items[i]);
	if (!why)
		return;
	if (w->why) {
		if (!*w->why)
			w->why = why;
		return;
	}
	diag_error(&e->loc, "function '%s' %s, which needs privilege stapsys "
		   "(the script is built for %s)", e->func->name, why,
		   privilege_name(w->level));
}

/* NULL when @fn (a tapset function) may be called at w->level, else why
 * not; walks script bodies once */
static const char *function_needs(struct walk *w, struct functiondecl *fn)
{
	int i;
	const char *save;

	for (i = 0; i < w->bad.n; i++)
		if (w->bad.items[i] == fn)
			return w->bad_why.items[i];
	if (in_vec(&w->seen, fn))
		return NULL;
	vec_push(&w->seen, fn);
	if (fn->embedded_c) {
		if (w->level >= STP_PRIV_STAPSYS || marked_unprivileged(fn))
			return NULL;
		vec_push(&w->bad, fn);
		vec_push(&w->bad_why, (void *)"is embedded C not marked unprivileged");
		return "is embedded C not marked unprivileged";
	}
	if (!fn->body)
		return NULL;
	save = w->why;
	w->why = "";
	ast_walk_stmt(fn->body, check_expr, w);
	if (*w->why) {
		const char *why = strstr(w->why, "kernel") ? "reads a kernel "
			"target variable" : "calls embedded C not marked "
			"unprivileged";
		vec_push(&w->bad, fn);
		vec_push(&w->bad_why, (void *)why);
		w->why = save;
		return why;
	}
	w->why = save;
	return NULL;
}

int privilege_check(struct session *s)
{
	struct walk w = { .s = s, .level = s->privilege };
	int i, errors0 = diag_error_count();

	if (!s->privilege || s->privilege >= STP_PRIV_STAPDEV)
		return 0;
	if (s->guru)
		diag_error(NULL, "guru mode (-g) needs privilege stapdev (the "
			   "script is built for %s)", privilege_name(w.level));
	for (i = 0; i < s->user->embed_locs.n; i++)
		diag_error(s->user->embed_locs.items[i], "embedded C (%%{ ... %%}) "
			   "needs privilege stapdev (the script is built for %s)",
			   privilege_name(w.level));
	for (i = 0; i < s->user->functions.n; i++) {
		struct functiondecl *fn = s->user->functions.items[i];
		if (fn->embedded_c)
			diag_error(&fn->loc, "function '%s' is embedded C, which "
				   "needs privilege stapdev (the script is built "
				   "for %s)", fn->name, privilege_name(w.level));
		vec_push(&w.seen, fn);      /* the user's own: walked below */
	}
	for (i = 0; i < s->derived.n; i++) {
		struct derived_probe *d = s->derived.items[i];
		struct probe_point *pt = d->probe->user_point ? d->probe->user_point
							      : d->point;
		int need = kind_level(d->kind);
		if (need > w.level && !in_vec(&w.bad, pt)) {
			vec_push(&w.bad, pt);   /* once per point written */
			char *txt = probe_point_str(pt);
			diag_error(&pt->loc, "probe point %s needs privilege %s "
				   "(the script is built for %s)", txt,
				   privilege_name(need), privilege_name(w.level));
			free(txt);
		}
	}
	if (diag_error_count() != errors0)
		goto out;
	w.bad.n = 0;
	for (i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		ast_walk_stmt(p->body, check_expr, &w);
	}
	for (i = 0; i < s->user->functions.n; i++) {
		struct functiondecl *fn = s->user->functions.items[i];
		if (fn->body)
			ast_walk_stmt(fn->body, check_expr, &w);
	}
out:
	free(w.seen.items);
	free(w.bad.items);
	free(w.bad_why.items);
	return diag_error_count() != errors0 ? -1 : 0;
}
