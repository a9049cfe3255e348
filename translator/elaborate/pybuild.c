/* pybuild.c - pass 2: the CPython interpreters of the python3 tapset
 * (see pybuild.h): which files a python3 point derives in, whether each
 * is a CPython of the version the tapset reads and has DWARF, and the
 * layout the tapset's C reads, from each one's DWARF.
 *
 * The tapset (tapset/python3.stp) lists what it reads in its top-level C
 * as one macro, one entry a line:
 *
 *   #define STP_PY3_LAYOUT(OFF, SIZE, BIT) \
 *           OFF(CO_NAME, "PyCodeObject", "co_name") \
 *           SIZE(ASCII_SIZE, "PyASCIIObject") \
 *           BIT(STR_COMPACT, "PyASCIIObject", "state.compact")
 *
 * and its C reaches entry NAME of the current interpreter as
 * STP_PY3(NAME); codegen/python3_gen.c emits the values, in that order,
 * for each interpreter of s->py_builds (struct stp_py3_build).
 */
#include "pybuild.h"
#include "elaborate.h"
#include "families/family.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* The CPython versions the tapset reads: one row each. */
struct py_kind {
	unsigned version;           /* Py_Version >> 16: major << 8 | minor */
	const char *name;           /* "CPython 3.11" */
	const char *program;        /* the interpreter, looked up in $PATH */
	const char *library;        /* the library embedding programs link */
	const char *package;        /* Debian's package with the debuginfo
	                             * of both */
};

static const struct py_kind kinds[] = {
	{ 0x030b, "CPython 3.11", "python3.11", "libpython3.11.so.1.0",
	  "python3.11-dbg" },
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

#define MAX_SCOPES 16
static struct {
	const char *path;
	struct source_loc loc;
} scopes[MAX_SCOPES];
static int nscopes;

void py_scope_push(const char *path, const struct source_loc *loc)
{
	if (nscopes < MAX_SCOPES) {
		scopes[nscopes].path = path;
		scopes[nscopes].loc = *loc;
	}
	nscopes++;
}

void py_scope_pop(void)
{
	nscopes--;
}

int py_named(void)
{
	return nscopes > 0;
}

/* A file checked once per session: its build, or the error it gave. */
struct checked {
	char *target;
	struct py_build *b;         /* NULL: not an interpreter (err) */
	char *err;
	int reported;
};
static struct vec checked;

/* py_version - the version (major << 8 | minor) CPython file @host
 * declares in its Py_Version constant (3.11 on), or 0 */
static unsigned py_version(const char *host)
{
	unsigned char v[4];
	uint64_t a;
	if (uelf_symbol(host, "Py_Version", &a, v, sizeof(v)) < 0)
		return 0;
	return v[3] << 8 | v[2];    /* little-endian 0xMMmmPPRR */
}

static const struct py_kind *kind_of(unsigned version)
{
	size_t i;
	for (i = 0; i < NKINDS; i++)
		if (kinds[i].version == version)
			return &kinds[i];
	return NULL;
}

/* linked_python - the CPython library program @host (@target) links
 * (a DT_NEEDED libpython3*.so*), resolved as .library() resolves; 0 with
 * *@t and *@h (heap), or -1 */
static int linked_python(struct session *s, const char *host,
			 const char *target, char **t, char **h)
{
	struct vec need = {0};
	int i, rc = -1;
	if (ustab_needed(host, &need) < 0)
		return -1;
	for (i = 0; i < need.n; i++) {
		char *err = NULL;
		if (rc < 0 && !fnmatch("libpython3*.so*", need.items[i], 0) &&
		    uelf_resolve_lib(need.items[i], host, target, s->sysroot,
				     t, h, &err) == 0)
			rc = 0;
		free(err);
		free(need.items[i]);
	}
	free(need.items);
	return rc;
}

/* check - the build of interpreter file @target (@host here), checked
 * once per session; NULL with *@err when it is none or has no DWARF */
static struct py_build *check(struct session *s, const char *target,
			      const char *host, struct checked **rec)
{
	struct checked *c;
	const struct py_kind *k;
	unsigned v;
	uint64_t rt;
	int i;
	for (i = 0; i < checked.n; i++) {
		c = checked.items[i];
		if (!strcmp(c->target, target)) {
			*rec = c;
			return c->b;
		}
	}
	c = xcalloc(1, sizeof(*c));
	c->target = xstrdup(target);
	vec_push(&checked, c);
	*rec = c;
	v = py_version(host);
	if (!(k = kind_of(v))) {
		c->err = v ? xasprintf("%s is CPython %u.%u; the python3 tapset "
				       "reads %s", target, v >> 8, v & 0xff,
				       kinds[0].name) :
			xasprintf("%s is no CPython interpreter of version 3.11 "
				  "or later (no Py_Version in its symbols), nor "
				  "a program linking one", target);
		return NULL;
	}
	if (!udwarf_has_dwarf(host)) {
		char *id = uelf_build_id(host, NULL);
		c->err = xasprintf("%s has no debuginfo: the python3 tapset "
				   "reads %s's labels and types from its DWARF, "
				   "which is neither in the file nor under "
				   "/usr/lib/debug/.build-id for its build-id %s "
				   "(Debian: apt-get install %s)", target, k->name,
				   id ? id : "(none)", k->package);
		free(id);
		return NULL;
	}
	if (uelf_symbol(host, "_PyRuntime", &rt, NULL, 0) < 0) {
		c->err = xasprintf("%s has no symbol _PyRuntime", target);
		return NULL;
	}
	c->b = xcalloc(1, sizeof(*c->b));
	c->b->target = xstrdup(target);
	c->b->host = xstrdup(host);
	c->b->runtime = rt;
	c->b->vaddr0 = uelf_vaddr0(host);
	c->b->fixed = uelf_fixed(host);
	c->b->build_id = uelf_build_id(host, &c->b->id_vaddr);
	return c->b;
}

/* add - interpreter @target (@host) into @out and s->py_builds, or its
 * error reported once at @loc: 0 or -1.  Without --sysroot the file is
 * known by its real path (/lib/x86_64-linux-gnu/X is /usr/lib/...'s on
 * a merged /usr, but not on every machine the module runs on). */
static int add(struct session *s, const char *target, const char *host,
	       const struct source_loc *loc, struct vec *out)
{
	struct checked *c;
	struct py_build *b;
	char *real = (!s->sysroot || !*s->sysroot) ? realpath(target, NULL) : NULL;
	int i, seen = 0;
	if (real) {
		target = host = real;
	}
	b = check(s, target, host, &c);
	free(real);
	if (!b) {
		if (!c->reported || diag_quiet)
			diag_error(loc && loc->file ? loc : NULL, "%s", c->err);
		c->reported |= !diag_quiet;
		return -1;
	}
	for (i = 0; i < s->py_builds.n; i++)
		seen |= s->py_builds.items[i] == b;
	if (!seen)
		vec_push(&s->py_builds, b);
	vec_push(out, b);
	return 0;
}

/* named - python3("@name"): a path, a program in $PATH, a library name
 * ("libpython3.11.so.1.0", in the library directories), or a program
 * linking a CPython library (its library then) */
static int named(struct session *s, const char *name,
		 const struct source_loc *loc, struct vec *out)
{
	char *t = NULL, *h = NULL, *lt = NULL, *lh = NULL, *err = NULL;
	int rc;
	if (strstr(name, ".so") && !strchr(name, '/'))
		rc = uelf_resolve_lib(name, "/", "/", s->sysroot, &t, &h, &err);
	else
		rc = uelf_resolve(name, s->sysroot, &t, &h, &err);
	if (rc < 0) {
		diag_error(loc, "python3(\"%s\"): %s", name, err);
		free(err);
		return -1;
	}
	if (!py_version(h) && linked_python(s, h, t, &lt, &lh) == 0) {
		free(t);
		free(h);
		t = lt;
		h = lh;
	}
	rc = add(s, t, h, loc, out);
	free(t);
	free(h);
	return rc;
}

/* target_interp - the -c/-x program when it is a CPython or links one:
 * 0 with it added to @out, 1 when it is neither (or there is none).
 * Errors about interpreters no one named have no location: the tapset's
 * would say nothing to the user. */
static int target_interp(struct session *s, struct probe_point *pp,
			 struct vec *out)
{
	int errs = diag_error_count(), quiet = diag_quiet, rc = 1;
	char *prog, *t = NULL, *h = NULL, *err = NULL;
	if (!s->target_cmd && !s->target_pid)
		return 1;
	diag_quiet = 1;
	prog = target_program(s, pp);
	diag_quiet = quiet;
	diag_rewind(errs);
	if (prog && uelf_resolve(prog, s->sysroot, &t, &h, &err) == 0) {
		char *lt, *lh;
		if (py_version(h))
			rc = add(s, t, h, NULL, out);
		else if (linked_python(s, h, t, &lt, &lh) == 0) {
			rc = add(s, lt, lh, NULL, out);
			free(lt);
			free(lh);
		}
	}
	free(err);
	free(prog);
	free(t);
	free(h);
	return rc;
}

/* path_program - the first @name in $PATH that is a CPython of @k's
 * version (a shell script there, as pyenv's shims, is passed over): 0
 * with *@t and *@h (heap), or -1 */
static int path_program(struct session *s, const struct py_kind *k,
			char **t, char **h)
{
	const char *env = getenv("PATH"), *p, *e;
	for (p = env ? env : ""; *p; p = *e ? e + 1 : e) {
		char *dir, *err = NULL;
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		if (e == p || *p != '/')
			continue;
		dir = xasprintf("%.*s/%s", (int)(e - p), p, k->program);
		if (uelf_resolve(dir, s->sysroot, t, h, &err) == 0) {
			if (py_version(*h) == k->version) {
				free(dir);
				return 0;
			}
			free(*t);
			free(*h);
		}
		free(err);
		free(dir);
	}
	return -1;
}

/* system_interps - the system's interpreters of each version the tapset
 * reads: its program in $PATH and its library where they are installed */
static int system_interps(struct session *s, struct probe_point *pp,
			  struct vec *out)
{
	size_t i;
	int rc = 0, found = 0;
	for (i = 0; i < NKINDS; i++) {
		char *t = NULL, *h = NULL, *err = NULL;
		if (path_program(s, &kinds[i], &t, &h) == 0) {
			found++;
			rc |= add(s, t, h, NULL, out);
			free(t);
			free(h);
		}
		t = h = NULL;
		if (uelf_resolve_lib(kinds[i].library, "/", "/", s->sysroot, &t,
				     &h, &err) == 0) {
			found++;
			rc |= add(s, t, h, NULL, out);
		}
		free(err);
		free(t);
		free(h);
	}
	if (!found) {
		diag_error(NULL, "no %s here: %s is not in $PATH and %s not "
			   "in the library directories; name the interpreter "
			   "with python3(\"PATH\")", kinds[0].name,
			   kinds[0].program, kinds[0].library);
		return -1;
	}
	return rc ? -1 : 0;
}

int py_interps(struct session *s, struct probe_point *pp, struct vec *out)
{
	int n0 = out->n, rc;
	if (nscopes > 0 && nscopes <= MAX_SCOPES)
		rc = named(s, scopes[nscopes - 1].path, &scopes[nscopes - 1].loc,
			   out);
	else if ((rc = target_interp(s, pp, out)) == 1)
		rc = system_interps(s, pp, out);
	return rc < 0 ? -1 : out->n - n0;
}

/* ---- the layout ---- */

#define LAYOUT_DEF "#define STP_PY3_LAYOUT("

/* quoted - the string literal at *@p (after blanks and a comma when
 * @comma) into a heap string, *@p past it; NULL when there is none */
static char *quoted(const char **p, int comma)
{
	const char *q = *p, *e;
	while (isspace((unsigned char)*q))
		q++;
	if (comma) {
		if (*q != ',')
			return NULL;
		q++;
		while (isspace((unsigned char)*q))
			q++;
	}
	if (*q != '"' || !(e = strchr(q + 1, '"')))
		return NULL;
	*p = e + 1;
	return xstrndup(q + 1, e - q - 1);
}

/* parse_layout - the entries of the STP_PY3_LAYOUT definition at @d (up
 * to its first line not continued by a backslash) into s->py_fields; 0,
 * or -1 after a diagnostic on an entry it cannot read */
static int parse_layout(struct session *s, const char *d)
{
	const char *p = strchr(d, ')'), *end = p;
	while (end && (end = strchr(end, '\n')) && end[-1] == '\\')
		end++;
	if (!p)
		return -1;
	for (p++; p && *p && (!end || p < end);) {
		struct py_field *f;
		const char *q;
		size_t n;
		int kind;
		while (*p && (isspace((unsigned char)*p) || *p == '\\'))
			p++;
		if (!*p || (end && p >= end))
			break;
		kind = !strncmp(p, "OFF(", 4) ? 0 : !strncmp(p, "SIZE(", 5) ? 1 :
		       !strncmp(p, "BIT(", 4) ? 2 : -1;
		if (kind < 0) {
			diag_error(NULL, "the python3 tapset's STP_PY3_LAYOUT: "
				   "expected OFF(, SIZE( or BIT( at '%.20s'", p);
			return -1;
		}
		p = strchr(p, '(') + 1;
		while (isspace((unsigned char)*p))
			p++;
		for (q = p; isalnum((unsigned char)*q) || *q == '_'; q++)
			;
		n = q - p;
		f = xcalloc(1, sizeof(*f));
		f->name = xstrndup(p, n);
		f->bit = kind == 2;
		p = q;
		f->type = quoted(&p, 1);
		if (kind != 1)
			f->member = quoted(&p, 1);
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!n || !f->type || (kind != 1 && !f->member) || *p != ')') {
			diag_error(NULL, "the python3 tapset's STP_PY3_LAYOUT: "
				   "cannot read the entry %s", f->name);
			return -1;
		}
		p++;
		vec_push(&s->py_fields, f);
	}
	return 0;
}

/* layout_text - the STP_PY3_LAYOUT definition in the top-level C of a
 * tapset file one of whose functions the program uses, or NULL */
static const char *layout_text(struct session *s)
{
	int i, j, k;
	for (i = 0; i < s->library.n; i++) {
		struct stapfile *f = s->library.items[i];
		int used = 0;
		for (j = 0; j < f->functions.n && !used; j++)
			for (k = 0; k < s->functions.n && !used; k++)
				used = s->functions.items[k] == f->functions.items[j];
		for (j = 0; used && j < f->embeds.n; j++) {
			const char *d = strstr(f->embeds.items[j], LAYOUT_DEF);
			if (d)
				return d;
		}
	}
	return NULL;
}

int py_layouts(struct session *s)
{
	const char *d = layout_text(s);
	int i, j, rc = 0;
	if (!d)
		return 0;
	if (parse_layout(s, d) < 0)
		return -1;
	if (!s->py_builds.n) {
		/* only functions of the tapset (python3_backtrace() in a
		 * kernel probe): the interpreters a python3 point would have */
		struct probe_point pp = {0};
		struct vec v = {0};
		rc = py_interps(s, &pp, &v);
		free(v.items);
		if (rc < 0)
			return -1;
	}
	for (i = 0; i < s->py_builds.n; i++) {
		struct py_build *b = s->py_builds.items[i];
		b->values = xcalloc(s->py_fields.n + 1, sizeof(*b->values));
		for (j = 0; j < s->py_fields.n; j++) {
			struct py_field *f = s->py_fields.items[j];
			char *why = NULL;
			if (udwarf_offsetof(b->host, b->target, f->type, f->member,
					    f->bit, &b->values[j], &why) < 0) {
				diag_error(NULL, "python3 tapset: %s (the layout "
					   "entry %s)", why, f->name);
				free(why);
				rc = -1;
			}
		}
	}
	return rc;
}
