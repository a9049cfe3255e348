/* process.c - user-space probe points:
 *   process("PATH").function("PATTERN")[.call|.return]
 *   process("PATH").statement("FUNC@FILE:LINE"|"FUNC@FILE+N")[.nearest]
 *   process("PATH").plt("NAME")
 *   process("PATH").library("LIB").function/.statement/.mark(...)
 *   process("PATH").mark("NAME"), process("PATH").provider("P").mark("NAME")
 *   process("PATH").begin, process("PATH").end, process.begin, process.end
 *   process[("PATH")].thread.begin, process[("PATH")].thread.end
 *
 * PATH names the program: absolute, or looked up in $PATH (with
 * --sysroot the file read here is SYSROOT/PATH when it exists; the module
 * registers the absolute PATH in the target machine, see uelf.h).
 * PATTERN (fnmatch wildcards) is matched against the program's ELF
 * symbol table (.symtab, else .dynsym); each function becomes a
 * DP_UPROBE at the file offset of its first instruction.  When the
 * program has DWARF (-g), $PARAM (in a register at the entry: integers,
 * enums, pointers as integers) and $return come from it
 * (debuginfo/udwarf.c); otherwise, and always for anything else, the
 * arguments are long_arg(N) & co and the value returned returnval().
 * .library("LIB"): the same probes in a shared library of the program
 * (uelf_resolve_lib: by path, or by name in the program's RUNPATH/RPATH,
 * its own directory and the system's library directories); the probes
 * are the library file's, named process("LIB-PATH")... as in SystemTap.
 * .library("PATTERN") with wildcards: each library the program loads at
 * start (its DT_NEEDED, theirs...) whose name or path matches.
 * .plt("NAME") (.plt: "*"): the program's PLT entry for each matching
 * symbol (a call to another object: runs on each call through the PLT,
 * uelf_plt()), $$name its symbol; .plt("NAME").return when it returns.
 * Without PATH (but for .begin/.end/.thread), PATH is the program of the
 * -c command (its first word) or of the -x process, as in SystemTap.
 * .statement: the lowest address where the program's line table starts a
 * statement of LINE in each function matching FUNC (debuginfo/udwarf.c),
 * with the function's $PARAMs where they are at that address;
 * "FUNC@FILE+N" is line N after FUNC's declaration line, and .nearest
 * takes the nearest line with code when that line has none.
 * .mark: the SDT markers of the program's .note.stapsdt (wildcards in P
 * and NAME), a DP_UPROBE at the marker's nop whose $argN the marker's
 * argument spec gives (debuginfo/usdt.c) and whose semaphore the kernel
 * raises only while the probe is registered (ref_ctr).
 * .begin fires in a process that starts running PATH (exec), .end when
 * the last thread of a process running it exits; without PATH, for every
 * process (DP_PROC_BEGIN / DP_PROC_END, runtime/uprocess.c); .thread.begin
 * when a process (running PATH) creates a thread, in the new thread, and
 * .thread.end when a thread other than the process's first exits; the
 * processes and threads already running at startup get their .begin /
 * .thread.begin then (runtime/uprocess_start.c).  Under staprun -c/-x the
 * runtime limits every process probe to the target's process hierarchy. */
#include "family.h"
#include "debuginfo/debuginfo.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

/* What follows .function("PATTERN"). */
#define FN_RETURN   1u      /* .return */
#define FN_CALL     2u      /* .call: out-of-line functions only */
#define FN_INLINE   4u      /* .inline: inline instances only */
#define FN_EXPORTED 8u      /* .exported: functions in .dynsym only */

/* derive_inlines - a DP_UPROBE at the entry of each inline instance of
 * a function matching @pat (from @host's DWARF); the number derived */
static int derive_inlines(struct session *s, struct probe *p,
			  struct probe_point *pp, const char *target,
			  const char *host, const char *pat)
{
	struct vec v = {0};
	int n = udwarf_inlines(host, target, pat, &v), i, made = 0;
	for (i = 0; i < n; i++) {
		struct udwarf_inline *u = v.items[i];
		int64_t off = uelf_offset(host, u->addr);
		struct derived_probe *d;
		if (off >= 0) {
			d = new_derived(s, DP_UPROBE, p, pp);
			free(d->pp_text);
			d->pp_text = xasprintf("process(\"%s\").function(\"%s\")"
					       ".inline", target, u->name);
			d->path = xstrdup(target);
			d->symbol = xstrdup(u->name);
			d->offset = off;
			d->fn = u->fn;
			made++;
		}
		free(u->name);
		free(u);
	}
	free(v.items);
	return made;
}

/* derive_functions - a DP_UPROBE for each function of @host matching
 * @pat (@flags: FN_*): its out-of-line copy from the ELF symbol table
 * (not with .inline; with .exported only those in .dynsym), and its
 * inline instances from the DWARF (not with .call, .return, .exported):
 * 0, or -1 after a diagnostic */
static int derive_functions(struct session *s, struct probe *p,
			    struct probe_point *pp, struct pp_component *fc,
			    const char *target, const char *host,
			    const char *pat, unsigned flags)
{
	struct vec syms = {0};
	char *err = NULL;
	int n = 0, i, made = 0, is_return = !!(flags & FN_RETURN);
	int before = s->derived.n;
	if (!(flags & FN_INLINE))
		n = uelf_functions(host, pat, &syms, &err);
	if (n < 0) {
		diag_error(&pp->loc, "%s", err);
		free(err);
		return -1;
	}
	if (!(flags & (FN_CALL | FN_RETURN | FN_EXPORTED)))
		made = derive_inlines(s, p, pp, target, host, pat);
	for (i = 0; i < n; i++) {
		struct uelf_sym *u = syms.items[i];
		struct derived_probe *d;
		if ((flags & FN_EXPORTED) && !uelf_exported(host, u->name)) {
			uelf_free_sym(u);
			continue;
		}
		d = new_derived(s, DP_UPROBE, p, pp);
		made++;
		free(d->pp_text);
		d->pp_text = xasprintf("process(\"%s\").function(\"%s\")%s",
				       target, u->name,
				       is_return ? ".return" : ".call");
		d->path = xstrdup(target);
		d->symbol = xstrdup(u->name);
		d->offset = (int64_t)u->offset;
		d->is_return = is_return;
		d->wildcard = n > 1;
		/* $PARAM, $LOCAL & co from the program's DWARF, if built -g */
		d->fn = udwarf_function(host, target, u->addr, u->name,
					is_return);
		uelf_free_sym(u);
	}
	free(syms.items);
	for (i = before; made > 1 && i < s->derived.n; i++)
		((struct derived_probe *)s->derived.items[i])->wildcard = 1;
	if (!made && !pp->optional) {
		diag_error(&fc->arg->loc, "no %sfunction of %s matches \"%s\" "
			   "(in its %s)", flags & FN_INLINE ? "inline instance of a "
			   : flags & FN_EXPORTED ? "exported " : "", target, pat,
			   flags & FN_INLINE ? "DWARF" : flags & FN_EXPORTED ?
			   ".dynsym" : "ELF symbol table");
		return -1;
	}
	return 0;
}

/* derive_marks - a DP_UPROBE for each SDT marker of @host matching
 * @prov (NULL: any) and @name: 0, or -1 after a diagnostic */
static int derive_marks(struct session *s, struct probe *p,
			struct probe_point *pp, struct pp_component *mc,
			const char *target, const char *host,
			const char *prov, const char *name)
{
	struct vec notes = {0};
	char *err = NULL;
	int n = usdt_notes(host, prov, name, &notes, &err), i;
	if (n < 0) {
		diag_error(&pp->loc, "%s", err);
		free(err);
		return -1;
	}
	if (!n) {
		free(notes.items);
		if (pp->optional)
			return 0;
		diag_error(&mc->arg->loc, "no SDT marker of %s matches "
			   "%s%s%s\"%s\" (in its .note.stapsdt)", target,
			   prov ? "provider \"" : "", prov ? prov : "",
			   prov ? "\" " : "", name);
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct usdt_note *u = notes.items[i];
		struct derived_probe *d = new_derived(s, DP_UPROBE, p, pp);
		free(d->pp_text);
		d->pp_text = xasprintf("process(\"%s\").provider(\"%s\")"
				       ".mark(\"%s\")", target, u->provider,
				       u->name);
		d->path = xstrdup(target);
		d->offset = (int64_t)u->offset;
		d->ref_ctr = (int64_t)u->sem_offset;
		d->fn = usdt_function(u, &err);
		d->wildcard = n > 1;
	}
	free(notes.items);
	return 0;
}

/* derive_plt - a DP_UPROBE for each PLT entry matching @pat, a return
 * probe (the caller's return address is on top of the stack there) when
 * @is_return */
static int derive_plt(struct session *s, struct probe *p,
		      struct probe_point *pp, struct pp_component *c,
		      const char *target, const char *host, const char *pat,
		      int is_return)
{
	struct vec v = {0};
	char *err = NULL;
	int n = uelf_plt(host, pat, &v, &err), i;
	if (n < 0) {
		diag_error(&pp->loc, "%s", err);
		free(err);
		return -1;
	}
	if (!n && !pp->optional) {
		diag_error(c->arg ? &c->arg->loc : &pp->loc, "no PLT entry "
			   "of %s matches \"%s\"", target, pat);
		free(v.items);
		return -1;
	}
	for (i = 0; i < n; i++) {
		struct uelf_sym *u = v.items[i];
		struct derived_probe *d = new_derived(s, DP_UPROBE, p, pp);
		free(d->pp_text);
		d->pp_text = xasprintf("process(\"%s\").plt(\"%s\")%s",
				       target, u->name,
				       is_return ? ".return" : "");
		d->path = xstrdup(target);
		d->symbol = xstrdup(u->name);
		d->offset = (int64_t)u->offset;
		d->is_return = is_return;
		d->plt = 1;
		d->wildcard = n > 1;
		uelf_free_sym(u);
	}
	free(v.items);
	return 0;
}

/* derive_statements - a DP_UPROBE for each statement "FUNC@FILE:LINE"
 * (or "FUNC@FILE+N": N lines after FUNC's declaration) names; with
 * @nearest (.nearest) the nearest line with code when that one has none:
 * 0, or -1 after a diagnostic */
static int derive_statements(struct session *s, struct probe *p,
			     struct probe_point *pp, struct pp_component *c,
			     const char *target, const char *host,
			     const char *spec, int nearest)
{
	const char *at = strchr(spec, '@'), *colon = at ? strrchr(at, ':') : NULL;
	char *func, *file, *err = NULL, *end;
	long line;
	struct vec st = {0};
	int n, i, rel = 0;
	if (at && !colon && (colon = strrchr(at, '+')))
		rel = 1;            /* FUNC@FILE+N: N lines after FUNC's */
	line = colon ? strtol(colon + 1, &end, 10) : 0;
	if (!at || !colon || colon == at + 1 || line < 0 || (!rel && !line) ||
	    *end) {
		diag_error(&c->arg->loc, "expected .statement(\"FUNC@FILE:LINE\") "
			   "or .statement(\"FUNC@FILE+N\")");
		return -1;
	}
	func = xstrndup(spec, at - spec);
	file = xstrndup(at + 1, colon - at - 1);
	n = udwarf_statements(host, *func ? func : "*", file, (int)line, rel,
			      nearest, &st, &err);
	if (n < 0)
		diag_error(&c->arg->loc, "%s", err);
	else if (!n && !pp->optional)
		diag_error(&c->arg->loc, "no statement of %s at %s%c%ld in a "
			   "function matching \"%s\" (in its line table)",
			   target, file, rel ? '+' : ':', line, func);
	for (i = 0; i < (n > 0 ? n : 0); i++) {
		struct udwarf_stmt *u = st.items[i];
		int64_t off = uelf_offset(host, u->addr);
		struct derived_probe *d;
		if (off < 0)
			continue;
		d = new_derived(s, DP_UPROBE, p, pp);
		free(d->pp_text);
		d->pp_text = xasprintf("process(\"%s\").statement(\"%s@%s:%d\")",
				       target, u->func, u->file, u->line);
		d->path = xstrdup(target);
		d->symbol = xstrdup(u->func);
		d->offset = off;
		d->wildcard = n > 1;
		d->fn = udwarf_at(host, target, u->func_addr, u->addr, u->func);
	}
	free(func);
	free(file);
	free(err);
	free(st.items);
	return n < 0 || (!n && !pp->optional) ? -1 : 0;
}

static int match_one(struct session *s, struct probe *p,
		     struct probe_point *pp, const char *name);
static int match_pid(struct session *s, struct probe *p,
		     struct probe_point *pp, int64_t pid);

/* pid_exe - the program process @pid runs, when this machine is the
 * target (no --sysroot, the running kernel): readlink /proc/PID/exe,
 * heap; else NULL */
static char *pid_exe(struct session *s, int64_t pid)
{
	struct utsname u;
	char link[64], buf[4096];
	ssize_t n;
	if ((s->sysroot && *s->sysroot) || uname(&u) != 0 ||
	    (s->kernel_release && strcmp(s->kernel_release, u.release)))
		return NULL;
	snprintf(link, sizeof(link), "/proc/%lld/exe", (long long)pid);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = 0;
	return xstrdup(buf);
}

/* match_pid - process(PID)...: the probes of process("EXE")... for the
 * program PID runs (found here when this machine is the target, so that
 * everything process("PATH") offers works), each firing only in that
 * process; when building for another machine (-r, --sysroot), only
 * .function("NAME")[.call|.return], .begin/.end and .thread.begin/.end,
 * the program being the process's executable at module start and NAME an
 * exact symbol of it (runtime/uprobes.c), without target variables. */
static int match_pid(struct session *s, struct probe *p,
		     struct probe_point *pp, int64_t pid)
{
	struct pp_component *c = pp_comp(pp, 1), *m;
	char *exe;
	int before = s->derived.n, rc, i, is_return = 0, thread;
	const char *name;
	struct derived_probe *d;
	if (pid <= 0 || pid > 4194304) {    /* PID_MAX_LIMIT */
		diag_error(&pp_comp(pp, 0)->arg->loc, "process(%lld): not a "
			   "process id", (long long)pid);
		return -1;
	}
	if ((exe = pid_exe(s, pid))) {
		rc = match_one(s, p, pp, exe);
		free(exe);
		for (i = before; i < s->derived.n; i++)
			((struct derived_probe *)s->derived.items[i])->pid = pid;
		return rc;
	}
	thread = pp_is(c, "thread") && !c->arg;
	m = thread ? pp_comp(pp, 2) : c;        /* .begin or .end */
	if ((pp_is(m, "begin") || pp_is(m, "end")) && !m->arg) {
		if (extra_components(pp, thread ? 3 : 2) < 0)
			return -1;
		d = new_derived(s, pp_is(m, "begin") ?
				(thread ? DP_THREAD_BEGIN : DP_PROC_BEGIN) :
				(thread ? DP_THREAD_END : DP_PROC_END), p, pp);
		d->pid = pid;
		return 0;
	}
	if (thread) {
		diag_error(&pp->loc, "expected .thread.begin or .thread.end");
		return -1;
	}
	if (!pp_is(c, "function")) {
		diag_error(&pp->loc, "process(%lld): no process %lld here to "
			   "read its program from (/proc/%lld/exe); building "
			   "for another machine, only .function(\"NAME\")"
			   "[.return], .begin/.end and .thread.begin/.end are "
			   "available",
			   (long long)pid, (long long)pid, (long long)pid);
		return -1;
	}
	if (str_arg(c, pp, &name) < 0)
		return -1;
	for (i = 2; (m = pp_comp(pp, i)); i++) {
		if (pp_is(m, "return") && !m->arg && !is_return)
			is_return = 1;
		else if (!(pp_is(m, "call") && !m->arg && i == 2)) {
			diag_error(&pp->loc, "unexpected '.%s' in %s (expected "
				   ".call or .return)", m->name,
				   probe_point_str(pp));
			return -1;
		}
	}
	if (strpbrk(name, "*?[")) {
		diag_error(&c->arg->loc, "process(%lld).function(\"%s\"): "
			   "wildcards need the program here (no /proc/%lld/exe "
			   "on this machine)", (long long)pid, name,
			   (long long)pid);
		return -1;
	}
	d = new_derived(s, DP_UPROBE, p, pp);
	free(d->pp_text);
	d->pp_text = xasprintf("process(%lld).function(\"%s\")%s",
			       (long long)pid, name,
			       is_return ? ".return" : ".call");
	d->symbol = xstrdup(name);
	d->is_return = is_return;
	d->pid = pid;
	return 0;
}

/* target_program - the program a process probe without PATH probes
 * (other than .begin/.end/.thread, which mean every process): the first
 * word of the -c command (relative to the current directory when it has
 * a '/', else looked up in $PATH later), or with -x the program the
 * process runs when this machine is the target; heap.  NULL after a
 * diagnostic when there is neither, or -c is more than a plain command
 * (shell syntax: no program to name). */
char *target_program(struct session *s, struct probe_point *pp)
{
	const char *cmd = s->target_cmd, *w;
	size_t n;
	char *exe, cwd[4096];
	if (!cmd && s->target_pid) {
		if ((exe = pid_exe(s, s->target_pid)))
			return exe;
		diag_error(&pp->loc, "%s: no process -x %lld here to read the "
			   "program of a process probe without PATH from "
			   "(/proc/%lld/exe); give process(\"PATH\")",
			   probe_point_str(pp), (long long)s->target_pid,
			   (long long)s->target_pid);
		return NULL;
	}
	if (!cmd) {
		diag_error(&pp->loc, "%s: a process probe without PATH probes "
			   "the program of -c COMMAND or -x PID, and neither "
			   "was given", probe_point_str(pp));
		return NULL;
	}
	w = cmd + strspn(cmd, " \t\n");
	n = strcspn(w, " \t\n");
	if (!n || strpbrk(cmd, "|&;<>(){}`")) {
		diag_error(&pp->loc, "%s: a process probe without PATH needs "
			   "-c to be a plain command (a program and its "
			   "arguments, none of |&;<>(){}`), not '%s'",
			   probe_point_str(pp), cmd);
		return NULL;
	}
	if (w[0] != '/' && memchr(w, '/', n) && getcwd(cwd, sizeof(cwd))) {
		int dot = n > 2 && w[0] == '.' && w[1] == '/' ? 2 : 0;
		return xasprintf("%s/%.*s", cwd, (int)n - dot, w + dot);
	}
	return xstrndup(w, n);
}

/* match_process - process[("PATH")]...: an absolute PATH with wildcards
 * stands for every program it matches (each derived as if named); no
 * PATH (but for .begin/.end/.thread) is the -c/-x program. */
static int match_process(struct session *s, struct probe *p,
			 struct probe_point *pp)
{
	struct pp_component *c0 = pp_comp(pp, 0), *c1 = pp_comp(pp, 1);
	const char *name = NULL;
	struct vec progs = {0};
	int i, n, rc = 0, before = s->derived.n;
	if (c0->arg && c0->arg->kind == E_NUM)
		return match_pid(s, p, pp, c0->arg->num);
	if (c0->arg && str_arg(c0, pp, &name) < 0)
		return -1;
	if (!c0->arg && !(pp_is(c1, "begin") || pp_is(c1, "end") ||
			  pp_is(c1, "thread"))) {
		char *prog = target_program(s, pp);
		if (!prog)
			return -1;
		rc = match_one(s, p, pp, prog);
		free(prog);
		return rc;
	}
	if (!name || name[0] != '/' || !strpbrk(name, "*?["))
		return match_one(s, p, pp, name);
	n = uelf_glob(name, s->sysroot, &progs);
	if (!n && !pp->optional) {
		diag_error(&c0->arg->loc, "no program matches %s", name);
		rc = -1;
	}
	for (i = 0; i < n; i++) {
		/* a program without the function or marker is no error: only
		 * all of them lacking it is */
		int errs = diag_error_count(), quiet = diag_quiet;
		diag_quiet = 1;
		match_one(s, p, pp, progs.items[i]);
		diag_quiet = quiet;
		diag_rewind(errs);
		free(progs.items[i]);
	}
	free(progs.items);
	if (n && s->derived.n == before && !pp->optional) {
		diag_error(&pp->loc, "no program matching %s has %s", name,
			   probe_point_str(pp));
		rc = -1;
	}
	/* several programs: each probe is one of a wildcard's */
	for (i = before; n > 1 && i < s->derived.n; i++)
		((struct derived_probe *)s->derived.items[i])->wildcard = 1;
	return rc;
}

/* derive_in - the probes of @pp's components from index @b on (.function,
 * .statement, .plt, .mark, .provider, .begin, .end, .thread) in the
 * program or library @target (its file here: @host); both are consumed.
 * 0, or -1 after a diagnostic */
static int derive_in(struct session *s, struct probe *p,
		     struct probe_point *pp, int b, char *target, char *host)
{
	struct pp_component *c = pp_comp(pp, b);
	const char *pat;
	int rc, is_return = 0, i = b + 1;
	unsigned flags = 0;
	struct derived_probe *d;
	if (pp_is(c, "statement") || pp_is(c, "plt")) {
		const char *spec = "*";     /* .plt: .plt("*") */
		int plt = pp_is(c, "plt"), ret = 0, nearest = 0;
		rc = plt && !c->arg ? 0 : str_arg(c, pp, &spec);
		if (rc == 0 && plt && pp_is(pp_comp(pp, b + 1), "return") &&
		    !pp_comp(pp, b + 1)->arg) {
			ret = 1;
			i++;
		}
		if (rc == 0 && !plt && pp_is(pp_comp(pp, b + 1), "nearest") &&
		    !pp_comp(pp, b + 1)->arg) {
			nearest = 1;
			i++;
		}
		if (rc == 0)
			rc = extra_components(pp, i);
		if (rc == 0)
			rc = plt ? derive_plt(s, p, pp, c, target, host, spec,
					      ret) :
			     derive_statements(s, p, pp, c, target, host, spec,
					       nearest);
		free(target);
		free(host);
		return rc;
	}
	if (pp_is(c, "mark") || pp_is(c, "provider")) {
		const char *prov = NULL, *mark = NULL;
		struct pp_component *mc = c;
		rc = 0;
		if (pp_is(c, "provider")) {
			rc = str_arg(c, pp, &prov);
			mc = pp_comp(pp, b + 1);
			i = b + 2;
		}
		if (rc == 0 && !pp_is(mc, "mark")) {
			diag_error(&pp->loc, "expected .mark(\"NAME\") after "
				   ".provider(\"P\")");
			rc = -1;
		}
		if (rc == 0)
			rc = str_arg(mc, pp, &mark);
		if (rc == 0)
			rc = extra_components(pp, i);
		if (rc == 0)
			rc = derive_marks(s, p, pp, mc, target, host, prov,
					  mark);
		free(target);
		free(host);
		return rc;
	}
	if (!pp_is(c, "function")) {
		int thread = pp_is(c, "thread");
		const char *be = thread ? pp_comp(pp, b + 1)->name : c->name;
		d = new_derived(s, thread ? (!strcmp(be, "begin") ?
				DP_THREAD_BEGIN : DP_THREAD_END) :
				!strcmp(be, "begin") ? DP_PROC_BEGIN :
				DP_PROC_END, p, pp);
		if (target) {
			free(d->pp_text);
			d->pp_text = xasprintf("process(\"%s\").%s%s", target,
					       thread ? "thread." : "", be);
		}
		d->path = target;
		free(host);
		return 0;
	}
	rc = str_arg(c, pp, &pat);
	for (; rc == 0 && pp_comp(pp, i); i++) {
		struct pp_component *m = pp_comp(pp, i);
		if (pp_is(m, "return") && !m->arg && !is_return &&
		    !(flags & FN_INLINE))
			is_return = 1;
		else if (pp_is(m, "call") && !m->arg && !is_return && i == b + 1)
			flags |= FN_CALL;
		else if (pp_is(m, "inline") && !m->arg && i == b + 1)
			flags |= FN_INLINE;
		else if (pp_is(m, "exported") && !m->arg && i == b + 1)
			flags |= FN_EXPORTED;
		else {
			diag_error(&pp->loc, "unexpected '.%s' in %s (expected "
				   ".call, .inline, .exported or .return)",
				   m->name, probe_point_str(pp));
			rc = -1;
		}
	}
	if (is_return)
		flags |= FN_RETURN;
	if (rc == 0)
		rc = derive_functions(s, p, pp, c, target, host, pat, flags);
	free(target);
	free(host);
	return rc;
}

/* derive_libs - .library("PATTERN") with wildcards: the probes of
 * derive_in(@b) in each shared library the program @target (file here:
 * @host) loads at start, its DT_NEEDED and theirs (found as
 * uelf_resolve_lib finds them), whose name or path matches PATTERN; a
 * library without the probed function, mark or PLT entry is no error,
 * only all of them lacking it.  0, or -1 after a diagnostic */
static int derive_libs(struct session *s, struct probe *p,
		       struct probe_point *pp, int b, const char *pattern,
		       const char *target, const char *host)
{
	struct vec tg = {0}, ho = {0};
	int i, j, rc = 0, matched = 0, before = s->derived.n;
	vec_push(&tg, xstrdup(target));
	vec_push(&ho, xstrdup(host));
	for (i = 0; i < tg.n; i++) {
		struct vec need = {0};
		const char *base;
		if (ustab_needed(ho.items[i], &need) < 0)
			need.n = 0;
		for (j = 0; j < need.n; j++) {
			char *t, *h, *err = NULL;
			int k, seen = 0;
			if (uelf_resolve_lib(need.items[j], ho.items[i],
					     tg.items[i], s->sysroot, &t, &h,
					     &err) < 0) {
				free(err);         /* ld.so would fail too */
			} else {
				for (k = 0; k < tg.n && !seen; k++)
					seen = !strcmp(tg.items[k], t);
				if (seen) {
					free(t);
					free(h);
				} else {
					vec_push(&tg, t);
					vec_push(&ho, h);
				}
			}
			free(need.items[j]);
		}
		free(need.items);
		base = strrchr(tg.items[i], '/');
		if (i && (!fnmatch(pattern, base + 1, 0) ||
			  !fnmatch(pattern, tg.items[i], 0))) {
			int errs = diag_error_count(), quiet = diag_quiet;
			matched++;
			diag_quiet = 1;
			derive_in(s, p, pp, b, xstrdup(tg.items[i]),
				  xstrdup(ho.items[i]));
			diag_quiet = quiet;
			diag_rewind(errs);
		}
	}
	if (!matched && !pp->optional) {
		diag_error(&pp_comp(pp, 1)->arg->loc, "no shared library of %s "
			   "matches \"%s\"", target, pattern);
		rc = -1;
	} else if (s->derived.n == before && !pp->optional) {
		diag_error(&pp->loc, "no shared library of %s matching \"%s\" "
			   "has %s", target, pattern, probe_point_str(pp));
		rc = -1;
	}
	for (i = before; matched > 1 && i < s->derived.n; i++)
		((struct derived_probe *)s->derived.items[i])->wildcard = 1;
	for (i = 0; i < tg.n; i++) {
		free(tg.items[i]);
		free(ho.items[i]);
	}
	free(tg.items);
	free(ho.items);
	return rc;
}

static int match_one(struct session *s, struct probe *p,
		     struct probe_point *pp, const char *name)
{
	struct pp_component *c0 = pp_comp(pp, 0), *c = pp_comp(pp, 1);
	char *target = NULL, *host = NULL, *err = NULL;
	int rc, b = 1;
	const char *lib = NULL;
	if (name && pp_is(c, "library")) {     /* .library("LIB")... */
		if (str_arg(c, pp, &lib) < 0)
			return -1;
		c = pp_comp(pp, b = 2);
		if (!pp_is(c, "function") && !pp_is(c, "mark") &&
		    !pp_is(c, "provider") && !pp_is(c, "statement") &&
		    !pp_is(c, "plt")) {
			diag_error(&pp->loc, "expected .function, .statement, "
				   ".plt or .mark after .library(\"LIB\")");
			return -1;
		}
	}
	if (pp_is(c, "thread") && !c->arg) {
		struct pp_component *t = pp_comp(pp, b + 1);
		if (!(pp_is(t, "begin") || pp_is(t, "end")) || t->arg) {
			diag_error(&pp->loc, "expected .thread.begin or "
				   ".thread.end");
			return -1;
		}
		if (extra_components(pp, b + 2) < 0)
			return -1;
	} else if ((pp_is(c, "begin") || pp_is(c, "end")) && !c->arg) {
		if (extra_components(pp, b + 1) < 0)
			return -1;
	} else if (name && (pp_is(c, "mark") || pp_is(c, "provider") ||
			    pp_is(c, "statement") || pp_is(c, "plt"))) {
		;
	} else if (!name || !pp_is(c, "function")) {
		diag_error(&pp->loc, "expected process(\"PATH\").function"
			   "(\"NAME\")[.return], process(\"PATH\")"
			   "[.provider(\"P\")].mark(\"NAME\"), "
			   "process(\"PATH\").begin/.end "
			   "or process.begin/.end");
		return -1;
	}
	if (name && uelf_resolve(name, s->sysroot, &target, &host, &err) < 0) {
		if (pp->optional) {
			free(err);
			return 0;
		}
		diag_error(c0->arg ? &c0->arg->loc : &pp->loc, "%s", err);
		free(err);
		return -1;
	}
	if (lib && lib[0] != '/' && strpbrk(lib, "*?[")) {
		rc = derive_libs(s, p, pp, b, lib, target, host);
		free(target);
		free(host);
		return rc;
	}
	if (lib) {
		char *lt = NULL, *lh = NULL;
		rc = uelf_resolve_lib(lib, host, target, s->sysroot, &lt, &lh,
				      &err);
		free(target);
		free(host);
		if (rc < 0) {
			if (!pp->optional)
				diag_error(&pp_comp(pp, 1)->arg->loc, "%s", err);
			free(err);
			return pp->optional ? 0 : -1;
		}
		target = lt;    /* probes are the library's, as SystemTap's */
		host = lh;
	}
	return derive_in(s, p, pp, b, target, host);
}

static const char *const process_forms[] = {
	"process(STRING).function(STRING)",
	"process(STRING).function(STRING).call",
	"process(STRING).function(STRING).return",
	"process(STRING).function(STRING).inline",
	"process(STRING).function(STRING).exported",
	"process(STRING).function(STRING).exported.return",
	"process(STRING).statement(STRING)",
	"process(STRING).statement(STRING).nearest",
	"process(STRING).plt(STRING)",
	"process(STRING).plt(STRING).return", "process(STRING).plt",
	"process(STRING).plt.return",
	"process.function(STRING)", "process.function(STRING).return",
	"process.statement(STRING)", "process.plt", "process.plt.return",
	"process.plt(STRING)", "process.plt(STRING).return",
	"process.mark(STRING)", "process.library(STRING).function(STRING)",
	"process.library(STRING).plt", "process.library(STRING).plt.return",
	"process(STRING).mark(STRING)",
	"process(STRING).provider(STRING).mark(STRING)",
	"process(STRING).begin", "process(STRING).end",
	"process.begin", "process.end",
	"process(STRING).thread.begin", "process(STRING).thread.end",
	"process.thread.begin", "process.thread.end",
	"process(NUMBER).function(STRING)",
	"process(NUMBER).function(STRING).return",
	"process(NUMBER).begin", "process(NUMBER).end",
	"process(NUMBER).thread.begin", "process(NUMBER).thread.end", NULL,
};

const struct family family_process = { "process", match_process,
				       process_forms };
