/* syscalls.c - kernel.trace("syscalls:sys_enter_NAME") and
 * ("syscalls:sys_exit_NAME").
 *
 * These are ftrace events, not tracepoints one can attach to, so they are
 * built here as ftrace builds them: over the raw_syscalls tracepoints
 * sys_enter (struct pt_regs *regs, long id) and sys_exit
 * (struct pt_regs *regs, long ret) with the runtime filtering on the
 * syscall number (__NR_NAME).  At sys_enter the arguments are named from
 * the kernel's sys_NAME prototype and read from the user registers saved
 * in regs (di, si, dx, r10, r8, r9: the x86-64 syscall convention); at
 * sys_exit there is $ret.  Their provider answers only variable
 * questions; types come from the BTF provider.
 */
#include "btf_int.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* The syscall pseudo-provider of a session. */
struct sc_prov {
	struct dbg_provider p;
	struct btf_prov *bp;
	struct vec calls;           /* struct tp_syscall *, by name */
	uint64_t reg_off[6];        /* offsets of di si dx r10 r8 r9 */
};

/* What a syscall dbg_function's handle points to. */
struct sc_fn {
	struct tp_syscall *sc;
	int is_exit;
};

static struct sc_prov *scp;

/* C spellings of integer types -> the names BTF (like DWARF) gives them */
static const char *const int_names[][2] = {
	{ "unsigned long", "long unsigned int" },
	{ "long", "long int" },
	{ "unsigned", "unsigned int" },
	{ "unsigned short", "short unsigned int" },
	{ "short", "short int" },
	{ "long long", "long long int" },
	{ "unsigned long long", "long long unsigned int" },
	{ "signed char", "signed char" },
};

/* text_type - the ctype of a parameter's type as the header spells it
 * ("const char __user *"); long when the base type is unknown. */
static struct ctype *text_type(struct btf_prov *bp, const char *text)
{
	struct strbuf base = {0};
	char *t = xstrdup(text), *w, *save = NULL;
	int stars = 0, is_const = 0;
	size_t i;
	struct ctype *ct;
	for (w = t; *w; w++)
		if (*w == '*') {
			*w = ' ';
			stars++;
		}
	for (w = strtok_r(t, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
		if (!strcmp(w, "const"))
			is_const = 1;
		else if (strcmp(w, "__user") && strcmp(w, "volatile") &&
			 strcmp(w, "__force"))
			strbuf_printf(&base, "%s%s", base.len ? " " : "", w);
	}
	free(t);
	for (i = 0; i < sizeof(int_names) / sizeof(int_names[0]); i++)
		if (base.s && !strcmp(base.s, int_names[i][0])) {
			free(base.s);
			base.s = xstrdup(int_names[i][1]);
		}
	ct = base.s ? bp->p.lookup_type(&bp->p, base.s, NULL) : NULL;
	if (!ct && base.s && !strcmp(base.s, "void"))
		ct = btf_ctype(bp, 0);
	if (!ct)
		ct = bp->p.lookup_type(&bp->p, "long int", NULL);
	free(base.s);
	for (i = 0; ct && i < (size_t)stars; i++)
		ct = btf_pointer_to(ct, i == 0 && is_const ? " const" : NULL);
	return ct;
}

static int sc_lookup_var(struct dbg_provider *p, struct dbg_function *fn,
			 const char *name, const char *loc_lit,
			 struct dbg_location *out, char **why)
{
	struct sc_fn *f = fn->handle;
	struct strbuf names = {0};
	int i;
	if (f->is_exit) {
		if (!strcmp(name, "ret")) {
			out->kind = DL_VALUE;
			out->c_expr = xstrdup("c->tp_args[1]");
			out->type = text_type(scp->bp, "long");
			return 0;
		}
		*why = xstrdup("not found; sys_exit_ probes have $ret only");
		return -1;
	}
	for (i = 0; i < f->sc->nparams; i++) {
		if (!f->sc->pnames[i])
			continue;
		if (strcmp(f->sc->pnames[i], name)) {
			strbuf_printf(&names, " %s", f->sc->pnames[i]);
			continue;
		}
		free(names.s);
		out->kind = DL_VALUE;
		out->type = text_type(scp->bp, f->sc->ptypes[i]);
		out->c_expr = btf_narrow(xasprintf(
			"stp_read_kernel(c, c->tp_args[0] + %llu, 8, %s)",
			(unsigned long long)scp->reg_off[i], loc_lit),
			out->type);
		return 0;
	}
	*why = xasprintf("not found; the arguments of sys_%s:%s", f->sc->name,
			 names.s ? names.s : " (none known)");
	free(names.s);
	return -1;
}

static void sc_list_vars(struct dbg_provider *p, struct dbg_function *fn,
			 enum dbg_var_set which, struct vec *names)
{
	struct sc_fn *f = fn->handle;
	int i;
	if (which != DBG_PARAMS)
		return;
	if (f->is_exit) {
		vec_push(names, "ret");
		return;
	}
	for (i = 0; i < f->sc->nparams; i++)
		if (f->sc->pnames[i])
			vec_push(names, f->sc->pnames[i]);
}

static struct ctype *sc_return_type(struct dbg_provider *p,
				    struct dbg_function *fn)
{
	return NULL;
}

static struct ctype *sc_lookup_type(struct dbg_provider *p, const char *name,
				    const char *module)
{
	return scp->bp->p.lookup_type(&scp->bp->p, name, module);
}

/* reg_offsets - where pt_regs keeps di si dx r10 r8 r9.  -1 if BTF has
 * no struct pt_regs. */
static int reg_offsets(struct sc_prov *sp)
{
	static const char *const regs[6] = { "di", "si", "dx", "r10", "r8",
					     "r9" };
	struct ctype *t = ctype_members(sp->bp->p.lookup_type(
		&sp->bp->p, "struct pt_regs", NULL));
	int i, j, found = 0;
	for (i = 0; t && i < 6; i++)
		for (j = 0; j < t->nmembers; j++)
			if (t->members[j].name &&
			    !strcmp(t->members[j].name, regs[i])) {
				sp->reg_off[i] = t->members[j].offset;
				found++;
			}
	return found == 6 ? 0 : -1;
}

/* sc_for - the session's syscall provider; what is missing for it is a
 * warning unless @quiet (a pattern such as "*" not asking for syscalls). */
static struct sc_prov *sc_for(struct session *s, struct btf_prov *bp,
			      int quiet)
{
	char *why = NULL;
	if (scp && scp->bp == bp)
		return scp;
	scp = xcalloc(1, sizeof(*scp));
	scp->p.name = "btf-syscalls";
	scp->p.lookup_var = sc_lookup_var;
	scp->p.list_vars = sc_list_vars;
	scp->p.return_type = sc_return_type;
	scp->p.lookup_type = sc_lookup_type;
	scp->bp = bp;
	if (tp_syscalls_load(s, &scp->calls, &why) < 0) {
		if (!quiet)
			diag_warning(NULL, "no syscalls:sys_enter_/sys_exit_ "
				     "probes: %s", why);
		free(why);
	} else if (reg_offsets(scp) < 0) {
		if (!quiet)
			diag_warning(NULL, "no syscalls:sys_enter_/sys_exit_ "
				     "probes: BTF has no struct pt_regs");
		scp->calls.n = 0;
	}
	return scp;
}

int tp_match_syscalls(struct session *s, struct btf_prov *bp,
		      const char *psys, const char *pname, struct vec *out)
{
	struct sc_prov *sp;
	int i, k, n = 0;
	if (fnmatch(psys, "syscalls", 0))
		return 0;
	sp = sc_for(s, bp, strcmp(psys, "syscalls") != 0);
	for (k = 0; k < 2; k++)
		for (i = 0; i < sp->calls.n; i++) {
			struct tp_syscall *sc = sp->calls.items[i];
			char *tp = xasprintf("sys_%s_%s", k ? "exit" : "enter",
					     sc->name);
			struct dbg_function *fn;
			struct sc_fn *f;
			if (fnmatch(pname, tp, 0)) {
				free(tp);
				continue;
			}
			f = xcalloc(1, sizeof(*f));
			f->sc = sc;
			f->is_exit = k;
			fn = xcalloc(1, sizeof(*fn));
			fn->prov = &sp->p;
			fn->name = xasprintf("syscalls:%s", tp);
			fn->symbol = k ? "sys_exit" : "sys_enter";
			fn->is_tracepoint = 1;
			fn->handle = f;
			vec_push(out, fn);
			free(tp);
			n++;
		}
	return n;
}

int tp_syscall_filter(const struct dbg_function *fn, int64_t *nr)
{
	const struct sc_fn *f;
	if (!scp || fn->prov != &scp->p)
		return 0;
	f = fn->handle;
	*nr = f->sc->nr;
	return f->is_exit ? 2 : 1;
}
