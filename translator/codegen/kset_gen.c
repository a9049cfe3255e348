/* kset_gen.c - probe sets: the kernel points of one handler as the rows
 * of a table instead of one probe descriptor each.
 *
 * A wildcard such as kernel.function("*").call derives tens of thousands
 * of kprobes with the same handler.  Each one's descriptor in the probe
 * table costs some 200 bytes and a dozen relocations, and the runtime
 * would register each alone.  Derived kprobes of the kernel (not of a
 * module) that agree on everything but their address -- handler, probe,
 * point as written, .return and its maxactive -- become one probe set:
 * one entry of the probe table standing for them all (its .kset) and
 * four tables (struct stp_kset, runtime/stp_runtime.h):
 *
 *   rows   per point, in address order: the link-time address as a delta
 *          from the previous row's, doubled, plus 1 when the point is a
 *          kprobe's (0: ftrace can run it: a function's __fentry__ call,
 *          debuginfo/ksyms.h; a .return set's then goes to fprobe where
 *          the kernel has it); then the change of its function index
 *   funcs  per function: 1 + its file's index (0: none), its line
 *   names  per function: its name, NUL-terminated
 *   files  the source files, NUL-terminated
 *
 * Numbers are unsigned VLQs written in 64 printable characters (6 bits a
 * character: 5 of the value, least significant first, and 32 when more
 * follow; signed values zigzag-coded), so a table is one plain C string
 * literal: the compiler reads it as fast as it reads the disk, no
 * relocation per row.  pp() is rebuilt from a row as PREFIX NAME
 * [@FILE[:LINE]] SUFFIX, the set's prefix and suffix taken from its
 * points' own pp() texts (a point whose text has another shape stays
 * out of the set).
 */
#include "codegen_int.h"
#include "debuginfo/debuginfo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Sets have at least this many points: a few kprobes are as cheap one
 * by one, and keep their own descriptors. */
#define KSET_MIN 2

struct kpoint {
	struct derived_probe *d;
	int key;                     /* what the points of a set share: an
	                              * interned text (keys[]) */
	int prefix_len;              /* pp() = the first prefix_len bytes,
	                              * NAME[@FILE[:LINE]], then suffix */
	const char *suffix;          /* (in d->pp_text) */
	const char *name, *file;
	int line;
	uint64_t addr;               /* link-time attach address */
	int kprobe;                  /* not through ftrace */
	int func;                    /* index in its set's functions */
};

struct kset {
	struct kpoint **pts;         /* in address order */
	int n;
};

static struct kset *sets;
static int nsets;

/* The distinct keys, interned in an open-addressing table: tens of
 * thousands of points share a handful. */
static struct vec keys;
static int *key_slots;           /* 1 + index in keys, 0: empty */
static size_t nslots;

static unsigned long hash_str(const char *s)
{
	unsigned long h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* intern - the index of text @k in keys (added when new) */
static int intern(const char *k)
{
	size_t i;
	if ((size_t)keys.n * 2 >= nslots) {
		int j;
		nslots = nslots ? 2 * nslots : 64;
		free(key_slots);
		key_slots = xcalloc(nslots, sizeof(*key_slots));
		for (j = 0; j < keys.n; j++) {
			for (i = hash_str(keys.items[j]) % nslots; key_slots[i];
			     i = (i + 1) % nslots)
				;
			key_slots[i] = j + 1;
		}
	}
	for (i = hash_str(k) % nslots; key_slots[i]; i = (i + 1) % nslots)
		if (!strcmp(keys.items[key_slots[i] - 1], k))
			return key_slots[i] - 1;
	key_slots[i] = vec_push(&keys, xstrdup(k)) + 1;
	return keys.n - 1;
}

/* split_pp - find NAME[@FILE[:LINE]] of @k in its pp() text between
 * "(\"" and "\")": the prefix before it, the suffix after it.  Returns
 * 0, or -1 when the text has another shape. */
static int split_pp(struct kpoint *k, struct strbuf *core)
{
	const char *pp = k->d->pp_text, *at;
	core->len = 0;
	strbuf_printf(core, "(\"%s", k->name);
	if (k->file) {
		strbuf_printf(core, "@%s", k->file);
		if (k->line)
			strbuf_printf(core, ":%d", k->line);
	}
	strbuf_add(core, "\")");
	at = pp ? strstr(pp, strbuf_str(core)) : NULL;
	if (!at || strstr(at + 1, "(\""))
		return -1;
	k->prefix_len = at - pp + 2;
	k->suffix = at + core->len - 2;
	return 0;
}

/* point_of - @d as a row of a set, or NULL when it cannot be one (not a
 * kernel kprobe, no address, a pp() of another shape). */
static struct kpoint *point_of(struct session *s, struct derived_probe *d,
			       const char *handler)
{
	static struct strbuf core, key;
	static struct probe_point *last_point;
	static char *pattern;
	struct ksyms *k;
	struct kpoint p = { .d = d }, *r;
	uint64_t a, site;
	int fs;
	if (d->kind != DP_KPROBE || !d->symbol || strchr(d->symbol, ':') ||
	    !(k = ksyms_for(s)) || ksyms_addr(k, d->symbol, &a) < 0)
		return NULL;
	p.name = d->fn ? d->fn->name : d->symbol;
	p.file = d->fn ? d->fn->file : NULL;
	p.line = d->fn ? d->fn->line : 0;
	p.addr = a + d->offset;
	if (split_pp(&p, &core) < 0)
		return NULL;
	/* a function's entry (or, through fprobe's exit handler, its
	 * return) goes through ftrace when it has the call (when the
	 * kernel's table is unknown, the runtime finds out) */
	fs = d->func_entry ? ksyms_ftrace_site(k, p.addr, &site) : 0;
	if (fs == 1)
		p.addr = site;
	p.kprobe = fs == 0;
	if (d->point != last_point) {
		free(pattern);
		pattern = d->wildcard ? probe_point_str(d->point)
				      : xasprintf("%p", (void *)d->point);
		last_point = d->point;
	}
	key.len = 0;
	strbuf_printf(&key, "%s|%p|%s|%d|%lld|%d|%d|%d|%d|%.*s|%s", handler,
		      (void *)d->probe, pattern, d->is_return,
		      (long long)d->maxactive, d->optional, d->entry_n,
		      d->light, d->light_bound, p.prefix_len, d->pp_text,
		      p.suffix);
	p.key = intern(strbuf_str(&key));
	r = xmalloc(sizeof(*r));
	*r = p;
	return r;
}

static int cmp_key(const void *a, const void *b)
{
	const struct kpoint *x = *(struct kpoint *const *)a;
	const struct kpoint *y = *(struct kpoint *const *)b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int kset_plan(struct session *s, char **handler)
{
	struct kpoint **v = xcalloc(s->derived.n + 1, sizeof(*v));
	int i, j, m, n = 0;
	for (i = 0; i < s->derived.n; i++) {
		struct derived_probe *d = s->derived.items[i];
		d->kset = 0;
		if ((v[n] = point_of(s, d, handler[i])))
			n++;
	}
	qsort(v, n, sizeof(*v), cmp_key);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && v[j]->key == v[i]->key; j++)
			;
		if (j - i < KSET_MIN)
			continue;
		sets = xrealloc(sets, (nsets + 1) * sizeof(*sets));
		sets[nsets].pts = xcalloc(j - i, sizeof(*v));
		memcpy(sets[nsets].pts, v + i, (j - i) * sizeof(*v));
		sets[nsets].n = j - i;
		nsets++;
		for (m = i; m < j; m++) {
			v[m]->d->kset = nsets;
			v[m] = NULL;            /* kept by the set */
		}
	}
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return nsets;
}

/* ---- the tables ---- */

static const char vlq_digits[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void put_vlq(struct strbuf *b, uint64_t v)
{
	do {
		unsigned d = v & 31;
		v >>= 5;
		strbuf_addc(b, vlq_digits[d | (v ? 32 : 0)]);
	} while (v);
}

static void put_svlq(struct strbuf *b, int64_t v)
{
	put_vlq(b, v < 0 ? ((uint64_t)-(v + 1) << 1) | 1 : (uint64_t)v << 1);
}

/* emit_literal - @b as a C string literal of 96-character lines */
static void emit_literal(struct strbuf *o, const struct strbuf *b)
{
	size_t i;
	strbuf_add(o, "\"");
	for (i = 0; i < b->len; i++) {
		if (i && i % 96 == 0)
			strbuf_add(o, "\"\n\"");
		strbuf_addc(o, b->s[i]);
	}
	strbuf_add(o, "\"");
}

/* emit_strings - @v's strings as one literal, each NUL-terminated */
static void emit_strings(struct strbuf *o, struct vec *v)
{
	int i;
	for (i = 0; i < v->n; i++) {
		char *q = c_quote(v->items[i], strlen(v->items[i]));
		strbuf_printf(o, "\n%.*s\\0\"", (int)strlen(q) - 1, q);
		free(q);
	}
	if (!v->n)
		strbuf_add(o, "\"\"");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* sorted_files - the distinct source files of @k's points, sorted */
static void sorted_files(struct kset *k, struct vec *files)
{
	int i, n = 0;
	for (i = 0; i < k->n; i++)
		if (k->pts[i]->file)
			vec_push(files, (void *)k->pts[i]->file);
	qsort(files->items, files->n, sizeof(void *), cmp_str);
	for (i = 0; i < files->n; i++)
		if (!n || strcmp(files->items[n - 1], files->items[i]))
			files->items[n++] = files->items[i];
	files->n = n;
}

struct fkey {
	const char *name, *file;
	int line, ix;
};

static int cmp_fkey(const void *a, const void *b)
{
	const struct fkey *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
	if (c)
		return c;
	return x->line - y->line;
}

/* number_funcs - each point's function index (a function: name, file,
 * line), functions in the order of their first point; @names and
 * @files the string tables, @funcs the (file, line) stream */
static void number_funcs(struct kset *k, struct vec *names, struct vec *files,
			 struct strbuf *funcs)
{
	struct fkey *f = xcalloc(k->n + 1, sizeof(*f));
	int *first = xcalloc(k->n + 1, sizeof(*first));
	int i, j, m, nf = 0;
	sorted_files(k, files);
	for (i = 0; i < k->n; i++) {
		f[i].name = k->pts[i]->name;
		f[i].file = k->pts[i]->file;
		f[i].line = k->pts[i]->line;
		f[i].ix = i;
	}
	qsort(f, k->n, sizeof(*f), cmp_fkey);
	/* first[p]: the first point (in address order) of p's function */
	for (i = 0; i < k->n; i = j) {
		int lead = f[i].ix;
		for (j = i + 1; j < k->n && !cmp_fkey(&f[i], &f[j]); j++)
			if (f[j].ix < lead)
				lead = f[j].ix;
		for (m = i; m < j; m++)
			first[f[m].ix] = lead;
	}
	for (i = 0; i < k->n; i++) {
		struct kpoint *p = k->pts[i];
		const char **hit;
		if (first[i] != i) {
			p->func = k->pts[first[i]]->func;
			continue;
		}
		p->func = nf++;
		vec_push(names, (void *)p->name);
		hit = p->file ? bsearch(&p->file, files->items, files->n,
					sizeof(void *), cmp_str) : NULL;
		put_vlq(funcs, hit ? 1 + (hit - (const char **)files->items) : 0);
		put_vlq(funcs, p->line);
	}
	free(first);
	free(f);
}

/* gen_kset - the tables of set @i, its hit functions and its struct
 * stp_kset stp_ksetN */
static void gen_kset(struct session *s, struct strbuf *o, int i,
		     const char *handler)
{
	struct kset *k = &sets[i];
	struct derived_probe *d0 = k->pts[0]->d;
	struct strbuf rows = {0}, funcs = {0};
	struct vec names = {0}, files = {0};
	struct ksyms *ks = ksyms_for(s);
	uint64_t anchor = 0;
	char *pre = c_quote(d0->pp_text, k->pts[0]->prefix_len);
	char *suf = c_quote(k->pts[0]->suffix, strlen(k->pts[0]->suffix));
	int j, prev_func = 0, nkp = 0;
	if (ks)
		ksyms_addr(ks, "_printk", &anchor);
	number_funcs(k, &names, &files, &funcs);
	for (j = 0; j < k->n; j++) {
		struct kpoint *p = k->pts[j];
		uint64_t delta = j ? p->addr - k->pts[j - 1]->addr : 0;
		put_vlq(&rows, delta * 2 + p->kprobe);
		put_svlq(&rows, (int64_t)p->func - prev_func);
		prev_func = p->func;
		nkp += p->kprobe;
	}
	strbuf_printf(o, "/* probe set %d: %d points of %s (%d by kprobes), "
		      "%d functions (codegen/kset_gen.c) */\n"
		      "static const char stp_kset%d_rows[] =\n", i, k->n,
		      d0->wildcard ? "a wildcard" : "a probe", nkp, names.n, i);
	emit_literal(o, &rows);
	strbuf_printf(o, ";\nstatic const char stp_kset%d_funcs[] =\n", i);
	emit_literal(o, &funcs);
	strbuf_printf(o, ";\nstatic const char stp_kset%d_names[] =", i);
	emit_strings(o, &names);
	strbuf_printf(o, ";\nstatic const char stp_kset%d_files[] =", i);
	emit_strings(o, &files);
	strbuf_add(o, ";\n");
	if (!d0->is_return) {
		/* the ftrace callback, its out-of-line rest, the kprobe
		 * pre_handler of the rows ftrace does not run */
		const char *mode = hit_mode(d0);

		strbuf_printf(o, "static noinline void stp_kset%d_ft_slow("
			      "struct ftrace_ops *op,\n\tunsigned long ip, struct "
			      "ftrace_regs *fregs, int bit)\n{\n\t"
			      "stp_kset_ftrace_slow(op, ip, fregs, bit, %s, %s);"
			      "\n}\n\n", i, handler, mode);
		strbuf_printf(o, "static void stp_kset%d_ft(unsigned long ip, "
			      "unsigned long parent_ip,\n\tstruct ftrace_ops *op, "
			      "struct ftrace_regs *fregs)\n{\n\tstp_kset_ftrace_hit("
			      "op, ip, parent_ip, fregs, %s, %s,\n\t\t"
			      "stp_kset%d_ft_slow);\n}\n\n", i, handler, mode, i);
		strbuf_printf(o, "static int stp_kset%d_kp(struct kprobe *kp, "
			      "struct pt_regs *regs)\n{\n\treturn "
			      "stp_kset_kprobe_hit(kp, regs, %s, %s);\n}\n\n", i,
			      handler, mode);
	}
	strbuf_printf(o, "static const struct stp_kset stp_kset%d = {\n"
		      "\t.rows = stp_kset%d_rows, .funcs = stp_kset%d_funcs,\n"
		      "\t.names = stp_kset%d_names, .files = stp_kset%d_files,\n"
		      "\t.nrows = %d, .nfuncs = %d, .nfiles = %d,\n"
		      "\t.base = %#llxULL, .anchor = %#llxULL,\n"
		      "\t.pp_prefix = %s, .pp_suffix = %s,\n",
		      i, i, i, i, i, k->n, names.n, files.n,
		      (unsigned long long)k->pts[0]->addr,
		      (unsigned long long)anchor, pre, suf);
	if (!d0->is_return)
		strbuf_printf(o, "\t.ftrace_fn = stp_kset%d_ft, .kprobe_pre = "
			      "stp_kset%d_kp, .regs = %d,\n", i, i, !d0->light);
	strbuf_add(o, "};\n\n");
	if (stp_verbose)
		fprintf(stderr, "stap: probe set %d: %d points (%d by kprobes), "
			"%d functions, %zu + %zu bytes of tables\n", i, k->n,
			nkp, names.n, rows.len, funcs.len);
	free(rows.s);
	free(funcs.s);
	free(names.items);
	free(files.items);
	free(pre);
	free(suf);
}

int gen_ksets(struct session *s, struct strbuf *o, char **handler)
{
	int i, j;
	if (!nsets)
		return 0;
	strbuf_add(o, "#include \"kset.h\"  /* probe sets */\n\n");
	for (i = 0; i < nsets; i++) {
		struct derived_probe *d0 = sets[i].pts[0]->d;
		for (j = 0; j < s->derived.n && s->derived.items[j] != d0; j++)
			;
		gen_kset(s, o, i, handler[j]);
	}
	return nsets;
}
