/* usyms_gen.c - the user-space symbol and unwind tables of the module
 * (struct stp_usyms_desc, runtime/stp_ustack.h) for ubacktrace(),
 * usymname() and the rest of tapset/linux/ucontext.stp.
 *
 * The binaries: the programs and libraries of the script's process(...)
 * probes, each `stap -d PATH`, and with --ldd the shared libraries all of
 * these need (DT_NEEDED, recursively, found as .library("LIB") finds
 * them).  They are put in when -d is given or a used function's embedded
 * C says it needs them with the comment pragma:usyms, as SystemTap's
 * pragma:vma; else the module gets none.  Line tables (usymfileline())
 * only for pragma:ulines, from the binaries' own .debug_line. */
#include "codegen_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int uses_pragma(const struct session *s, const char *pragma)
{
	int i;

	for (i = 0; i < s->functions.n; i++) {
		const struct functiondecl *fn = s->functions.items[i];

		if (fn->embedded_c && strstr(fn->embedded_c, pragma))
			return 1;
	}
	return 0;
}

/* needs_usyms - -d, or a used function asks for the tables */
static int needs_usyms(const struct session *s)
{
	return s->user_modules.n || uses_pragma(s, "pragma:usyms");
}

/* add - append target path @t (host file @h) unless it is there; takes
 * both */
static void add(struct vec *tg, struct vec *ho, char *t, char *h)
{
	int i;

	for (i = 0; i < tg->n; i++)
		if (!strcmp(tg->items[i], t)) {
			free(t);
			free(h);
			return;
		}
	vec_push(tg, t);
	vec_push(ho, h);
}

/* prog_of_library - for process("PROG").library("LIB") probes, whose
 * path is the library's, the program PROG too (unless a wildcard) */
static void prog_of_library(struct session *s, struct derived_probe *d,
			    struct vec *tg, struct vec *ho)
{
	struct probe_point *pp = d->point;
	struct pp_component *c0, *c1;
	char *t, *h, *err = NULL;

	if (!pp || pp->components.n < 2)
		return;
	c0 = pp->components.items[0];
	c1 = pp->components.items[1];
	if (strcmp(c0->name, "process") || strcmp(c1->name, "library") ||
	    !c0->arg || c0->arg->kind != E_STR || strpbrk(c0->arg->str, "*?["))
		return;
	if (uelf_resolve(c0->arg->str, s->sysroot, &t, &h, &err) < 0) {
		free(err);
		return;
	}
	add(tg, ho, t, h);
}

/* binaries - the target and host paths of the binaries; -1 after an
 * error message */
static int binaries(struct session *s, struct vec *tg, struct vec *ho)
{
	int i, j, rc = 0;

	for (i = 0; i < s->derived.n; i++) {
		struct derived_probe *d = s->derived.items[i];
		char *t, *h, *err = NULL;

		if (!d->path)
			continue;
		if (uelf_resolve(d->path, s->sysroot, &t, &h, &err) < 0) {
			free(err);
			continue;
		}
		add(tg, ho, t, h);
		prog_of_library(s, d, tg, ho);
	}
	for (i = 0; i < s->user_modules.n; i++) {
		const char *m = s->user_modules.items[i];
		char *t, *h, *err = NULL;

		if (!strchr(m, '/') && (!strcmp(m, "kernel") ||
		    uelf_resolve(m, s->sysroot, &t, &h, &err) < 0)) {
			/* a kernel module: kallsyms knows it */
			free(err);
			continue;
		}
		if (strchr(m, '/') &&
		    uelf_resolve(m, s->sysroot, &t, &h, &err) < 0) {
			fprintf(stderr, "stap: -d %s: %s\n", m, err);
			free(err);
			rc = -1;
			continue;
		}
		add(tg, ho, t, h);
	}
	/* the list grows as libraries are found: they are walked too */
	for (i = 0; s->ldd && i < tg->n; i++) {
		struct vec need = {0};

		if (ustab_needed(ho->items[i], &need) < 0)
			continue;
		for (j = 0; j < need.n; j++) {
			char *t, *h, *err = NULL;

			if (uelf_resolve_lib(need.items[j], ho->items[i],
					     tg->items[i], s->sysroot, &t, &h,
					     &err) < 0) {
				fprintf(stderr, "stap: warning: --ldd: %s\n",
					err);
				free(err);
			} else
				add(tg, ho, t, h);
			free(need.items[j]);
		}
		free(need.items);
	}
	return rc;
}

static uint32_t clamp32(uint64_t v)
{
	return v > 0xffffffffu ? 0xffffffffu : (uint32_t)v;
}

static void gen_file(struct strbuf *o, int k, const struct ustab *t)
{
	size_t i, name = 0;

	strbuf_printf(o, "static const struct stp_usym stp_usyms_%d[] = {\n",
		      k);
	for (i = 0; i < t->nsyms; i++) {
		strbuf_printf(o, "{0x%x,0x%x,%zu},\n", clamp32(t->syms[i].off),
			      clamp32(t->syms[i].size), name);
		name += strlen(t->syms[i].name) + 1;
	}
	strbuf_printf(o, "{0,0,0}};\nstatic const char stp_unames_%d[] =\n",
		      k);
	for (i = 0; i < t->nsyms; i++) {
		const char *n = t->syms[i].name;
		char *q = c_quote(n, strlen(n));

		/* c_quote gives "...": close with the NUL separator */
		strbuf_printf(o, "%.*s\\0\"\n", (int)strlen(q) - 1, q);
		free(q);
	}
	strbuf_printf(o, "\"\";\nstatic const struct stp_ucfi stp_ucfi_%d[] = {\n",
		      k);
	for (i = 0; i < t->nrows; i++) {
		const struct ustab_row *r = &t->rows[i];
		int ok = r->cfa_reg != USTAB_CFA_NONE &&
			 r->cfa_off >= INT32_MIN && r->cfa_off <= INT32_MAX &&
			 r->rbp_off >= INT16_MIN && r->rbp_off <= INT16_MAX;

		strbuf_printf(o, "{0x%x,%lld,%lld,%d,%d},\n", clamp32(r->off),
			      ok ? (long long)r->cfa_off : 0LL,
			      ok ? (long long)r->rbp_off : 0LL,
			      ok ? r->cfa_reg : 0, r->rbp_rule);
	}
	strbuf_printf(o, "{0,0,0,0,0}};\n");
	if (!t->nlines)
		return;
	{
		size_t *at = xcalloc(t->files.n + 1, sizeof(*at)), pos = 0;
		int f;

		strbuf_printf(o, "static const char stp_usrcs_%d[] =\n", k);
		for (f = 0; f < t->files.n; f++) {
			const char *n = t->files.items[f];
			char *q = c_quote(n, strlen(n));

			at[f] = pos;
			pos += strlen(n) + 1;
			strbuf_printf(o, "%.*s\\0\"\n", (int)strlen(q) - 1, q);
			free(q);
		}
		strbuf_printf(o, "\"\";\nstatic const struct stp_uline "
			      "stp_ulines_%d[] = {\n", k);
		for (i = 0; i < t->nlines; i++)
			strbuf_printf(o, "{0x%x,%u,%zu},\n",
				      clamp32(t->lines[i].off),
				      t->lines[i].line, at[t->lines[i].file]);
		strbuf_printf(o, "{0,0,0}};\n");
		free(at);
	}
}

int gen_usyms(struct session *s, struct strbuf *o)
{
	struct vec tg = {0}, ho = {0}, tabs = {0};
	int i, rc, lines = uses_pragma(s, "pragma:ulines");

	if (!needs_usyms(s))
		return 0;
	if (binaries(s, &tg, &ho) < 0)
		return -1;
	for (i = 0; i < tg.n; i++) {
		char *err = NULL;
		struct ustab *t = ustab_read(ho.items[i], tg.items[i], &err);

		if (!t) {
			fprintf(stderr, "stap: warning: no symbols of %s: %s\n",
				(char *)tg.items[i], err);
			free(err);
			continue;
		}
		if (lines)
			ustab_read_lines(t);
		if (stp_verbose)
			fprintf(stderr, "stap: symbols of %s: %zu symbols, "
				"%zu unwind rows, %zu line rows\n", t->target,
				t->nsyms, t->nrows, t->nlines);
		gen_file(o, tabs.n, t);
		vec_push(&tabs, t);
	}
	strbuf_printf(o, "static const struct stp_ufile stp_ufiles[] = {\n");
	for (i = 0; i < tabs.n; i++) {
		struct ustab *t = tabs.items[i];
		char *q = c_quote(t->target, strlen(t->target));

		strbuf_printf(o, "{%s, stp_usyms_%d, %zu, stp_unames_%d, "
			      "stp_ucfi_%d, %zu", q, i, t->nsyms, i, i,
			      t->nrows);
		if (t->nlines)
			strbuf_printf(o, ", stp_ulines_%d, %zu, stp_usrcs_%d",
				      i, t->nlines, i);
		strbuf_printf(o, "},\n");
		free(q);
		ustab_free(t);
	}
	strbuf_printf(o, "{0}};\nstatic const struct stp_usyms_desc stp_usyms = "
		      "{ stp_ufiles, %d };\n", tabs.n);
	rc = 1;
	for (i = 0; i < tg.n; i++) {
		free(tg.items[i]);
		free(ho.items[i]);
	}
	free(tg.items);
	free(ho.items);
	free(tabs.items);
	return rc;
}
