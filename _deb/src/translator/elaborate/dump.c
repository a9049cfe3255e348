/* dump.c - stap --dump-probe-types, --dump-probe-aliases and
 * --dump-functions: what the families and the tapset library offer, one
 * per line, sorted and without repeats, in SystemTap's formats:
 *
 *   timer.ms(number)                          (a family's point form)
 *   syscall.read = kernel.function("ksys_read")?    (an alias)
 *   execname:string ()                        (a function: NAME:TYPE
 *   substr:string (str:string, start:long, length:long)   (ARG:TYPE, ...))
 *   pid:long () / * unprivileged * /     (and its privilege pragmas)
 *
 * Names starting with '_' (internal) are listed only with -v, as
 * SystemTap does. */
#include "elaborate.h"
#include "aliases.h"

#include <stdlib.h>
#include <string.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* print_sorted - sort the strings of @v and append each distinct one to
 * @out, one per line. */
static void print_sorted(struct strbuf *out, struct vec *v)
{
	int i;
	if (v->n)
		qsort(v->items, v->n, sizeof(*v->items), cmp_str);
	for (i = 0; i < v->n; i++)
		if (!i || strcmp(v->items[i], v->items[i - 1]))
			strbuf_printf(out, "%s\n", (char *)v->items[i]);
}

/* shown - 1 if a name is listed: not internal ('_...') unless -v. */
static int shown(const char *name)
{
	return name[0] != '_' || stp_verbose;
}

/* usr_form - 1 if point form @t is allowed at --privilege=stapusr (the
 * rule of privilege.c: begin, end, error, never, timers but the profile
 * tick, process probes). */
static int usr_form(const char *t)
{
	static const char *const usr[] = { "begin", "end", "error", "never",
					   "timer", "process" };
	size_t i, n;
	if (!strncmp(t, "timer.profile", 13))
		return 0;
	for (i = 0; i < sizeof(usr) / sizeof(usr[0]); i++) {
		n = strlen(usr[i]);
		if (!strncmp(t, usr[i], n) && strchr(".(", t[n] ? t[n] : '.'))
			return 1;
	}
	return 0;
}

int dump_probe_types(struct session *s, struct strbuf *out)
{
	const char *const *t;
	struct vec v = {0};
	for (t = family_templates(); *t; t++) {
		struct strbuf b = {0};
		const char *p;
		if (s->privilege == STP_PRIV_STAPUSR && !usr_form(*t))
			continue;
		/* our forms say NUMBER and STRING; SystemTap number, string */
		for (p = *t; *p; p++) {
			if (!strncmp(p, "(NUMBER)", 8)) {
				strbuf_add(&b, "(number)");
				p += 7;
			} else if (!strncmp(p, "(STRING)", 8)) {
				strbuf_add(&b, "(string)");
				p += 7;
			} else
				strbuf_addc(&b, *p);
		}
		vec_push(&v, strbuf_detach(&b));
	}
	print_sorted(out, &v);
	return 0;
}

/* point_sig - @pp as written in an alias definition: its canonical text
 * with a trailing '!' or '?'. */
static void point_sig(struct strbuf *b, const struct probe_point *pp)
{
	char *t = probe_point_str(pp);
	strbuf_add(b, t);
	free(t);
	if (pp->sufficient)
		strbuf_addc(b, '!');
	else if (pp->optional)
		strbuf_addc(b, '?');
}

int dump_probe_aliases(struct session *s, struct strbuf *out)
{
	struct vec v = {0};
	int i, j, k;
	for (i = 0; i < s->library.n; i++) {
		struct stapfile *f = s->library.items[i];
		for (j = 0; j < f->aliases.n; j++) {
			struct probe_alias *a = f->aliases.items[j];
			struct strbuf b = {0};
			point_sig(&b, a->name);
			if (!shown(strbuf_str(&b))) {
				free(b.s);
				continue;
			}
			strbuf_add(&b, a->epilogue ? " += " : " = ");
			for (k = 0; k < a->points.n; k++) {
				if (k)
					strbuf_add(&b, ", ");
				point_sig(&b, a->points.items[k]);
			}
			vec_push(&v, strbuf_detach(&b));
		}
	}
	print_sorted(out, &v);
	return 0;
}

/* func_sig - "NAME:TYPE (ARG:TYPE, ...)", TYPE "unknown" when the
 * function returns nothing or the type could not be inferred, then as
 * SystemTap the privilege pragmas of its embedded C, in this order:
 * " / * guru * /", " / * unprivileged * /", " / * myproc-unprivileged * /"
 * (without the inner spaces). */
static char *func_sig(const struct functiondecl *fn)
{
	static const char *const pragmas[] = {
		"/* guru */", "/* unprivileged */", "/* myproc-unprivileged */"
	};
	struct strbuf b = {0};
	size_t k;
	int i;
	strbuf_printf(&b, "%s:%s (", fn->name, type_name(fn->ret));
	for (i = 0; i < fn->params.n; i++) {
		const struct sym *y = fn->params.items[i];
		strbuf_printf(&b, "%s%s:%s", i ? ", " : "", y->name,
			      type_name(y->type));
	}
	strbuf_addc(&b, ')');
	for (k = 0; fn->embedded_c && k < sizeof(pragmas) / sizeof(*pragmas); k++)
		if (strstr(fn->embedded_c, pragmas[k]))
			strbuf_printf(&b, " %s", pragmas[k]);
	return strbuf_detach(&b);
}

int dump_functions(struct session *s, struct strbuf *out)
{
	struct vec v = {0};
	int i;
	/* every public tapset function, resolved and typed as far as its
	 * own body tells (elaborate() with s->dump_functions); errors of
	 * functions this kernel cannot have do not matter here */
	s->dump_functions = 1;
	diag_quiet++;
	elaborate(s);
	diag_quiet--;
	for (i = 0; i < s->functions.n; i++) {
		struct functiondecl *fn = s->functions.items[i];
		if (fn->is_private || !fn->loc.file || !shown(fn->name) ||
		    !strncmp(fn->name, EMBEDDED_EXPR_PREFIX,
			     strlen(EMBEDDED_EXPR_PREFIX)))
			continue;
		vec_push(&v, func_sig(fn));
	}
	print_sorted(out, &v);
	return 0;
}
