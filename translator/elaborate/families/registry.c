/* families.c - the registry of probe-point families.
 *
 * Each family matches probe points by their component names and turns one
 * into derived probes the runtime knows how to register.  A family is a
 * match function in the table at the bottom; unknown points are an error
 * that lists the families with similar names.
 */
#include "elaborate/aliases.h"
#include "elaborate/elaborate.h"

#include <stdlib.h>
#include <string.h>

/* component - the i-th component of @pp, or NULL */
static struct pp_component *component(struct probe_point *pp, int i)
{
	return i < pp->components.n ? pp->components.items[i] : NULL;
}

static int is(struct pp_component *c, const char *name)
{
	return c && strcmp(c->name, name) == 0;
}

static struct derived_probe *new_derived(struct session *s, enum dp_kind k,
					 struct probe *p, struct probe_point *pp)
{
	struct derived_probe *d = xcalloc(1, sizeof(*d));
	d->kind = k;
	d->probe = p;
	d->point = pp;
	d->pp_text = probe_point_str(pp);
	d->optional = pp->optional;
	vec_push(&s->derived, d);
	return d;
}

/* num_arg - the numeric argument of @c into *v; errors name @what. */
static int num_arg(struct pp_component *c, struct probe_point *pp,
		   int64_t *v, int required)
{
	if (!c->arg) {
		if (!required)
			return 0;
		diag_error(&pp->loc, "'%s' needs a number: %s(N)", c->name,
			   c->name);
		return -1;
	}
	if (c->arg->kind != E_NUM) {
		diag_error(&c->arg->loc, "the argument of '%s' must be a number",
			   c->name);
		return -1;
	}
	*v = c->arg->num;
	return 0;
}

static int str_arg(struct pp_component *c, struct probe_point *pp,
		   const char **v)
{
	if (!c->arg || c->arg->kind != E_STR) {
		diag_error(c->arg ? &c->arg->loc : &pp->loc,
			   "'%s' needs a string: %s(\"...\")", c->name, c->name);
		return -1;
	}
	*v = c->arg->str;
	return 0;
}

static int extra_components(struct probe_point *pp, int from)
{
	struct pp_component *c = component(pp, from);
	if (!c)
		return 0;
	diag_error(&pp->loc, "unexpected '.%s' in probe point %s", c->name,
		   probe_point_str(pp));
	return -1;
}

/* begin, begin(N), end, end(N) */
static int match_begin_end(struct session *s, struct probe *p,
			   struct probe_point *pp)
{
	struct pp_component *c = component(pp, 0);
	struct derived_probe *d;
	int64_t order = 0;
	if (num_arg(c, pp, &order, 0) < 0 || extra_components(pp, 1) < 0)
		return -1;
	d = new_derived(s, is(c, "begin") ? DP_BEGIN : DP_END, p, pp);
	d->order = order;
	return 0;
}

/* ---- timer.profile and perf.*: perf events on every online CPU ---- */

static struct derived_probe *new_perf(struct session *s, enum dp_kind k,
				      struct probe *p, struct probe_point *pp,
				      const char *type, const char *config)
{
	struct derived_probe *d = new_derived(s, k, p, pp);
	d->perf_type = type;
	d->perf_config = config;
	return d;
}

/* timer.profile, timer.profile.tick: each CPU's scheduler tick (a
 * cpu-clock event of period 1e9/HZ ns, HZ of the target kernel);
 * timer.profile.freq.hz(N): N times a second per CPU. */
static int match_timer_profile(struct session *s, struct probe *p,
			       struct probe_point *pp)
{
	struct pp_component *c = component(pp, 2);
	struct derived_probe *d;
	int64_t hz;
	if (!c || (is(c, "tick") && !c->arg)) {
		if (c && extra_components(pp, 3) < 0)
			return -1;
		d = new_perf(s, DP_PROFILE, p, pp, "PERF_TYPE_SOFTWARE",
			     "PERF_COUNT_SW_CPU_CLOCK");
		d->sample = xstrdup("(1000000000ULL / HZ)");
		return 0;
	}
	if (is(c, "freq") && !c->arg && is(component(pp, 3), "hz")) {
		if (num_arg(component(pp, 3), pp, &hz, 1) < 0 ||
		    extra_components(pp, 4) < 0)
			return -1;
		if (hz <= 0 || hz > 100000) {
			diag_error(&pp->loc, "timer.profile.freq.hz(N): N must "
				   "be 1 to 100000");
			return -1;
		}
		d = new_perf(s, DP_PROFILE, p, pp, "PERF_TYPE_SOFTWARE",
			     "PERF_COUNT_SW_CPU_CLOCK");
		d->sample = xasprintf("%lldULL", (long long)hz);
		d->perf_freq = 1;
		return 0;
	}
	diag_error(&pp->loc, "unexpected '.%s' in %s (expected timer.profile, "
		   "timer.profile.tick or timer.profile.freq.hz(N))", c->name,
		   probe_point_str(pp));
	return -1;
}

/* The named perf events: perf.sw.NAME and perf.hw.NAME. */
static const struct perf_name {
	const char *group, *name, *type, *config;
} perf_names[] = {
	{ "sw", "cpu_clock", "PERF_TYPE_SOFTWARE", "PERF_COUNT_SW_CPU_CLOCK" },
	{ "sw", "task_clock", "PERF_TYPE_SOFTWARE", "PERF_COUNT_SW_TASK_CLOCK" },
	{ "sw", "page_faults", "PERF_TYPE_SOFTWARE", "PERF_COUNT_SW_PAGE_FAULTS" },
	{ "sw", "context_switches", "PERF_TYPE_SOFTWARE",
	  "PERF_COUNT_SW_CONTEXT_SWITCHES" },
	{ "sw", "cpu_migrations", "PERF_TYPE_SOFTWARE",
	  "PERF_COUNT_SW_CPU_MIGRATIONS" },
	{ "sw", "page_faults_min", "PERF_TYPE_SOFTWARE",
	  "PERF_COUNT_SW_PAGE_FAULTS_MIN" },
	{ "sw", "page_faults_maj", "PERF_TYPE_SOFTWARE",
	  "PERF_COUNT_SW_PAGE_FAULTS_MAJ" },
	{ "sw", "alignment_faults", "PERF_TYPE_SOFTWARE",
	  "PERF_COUNT_SW_ALIGNMENT_FAULTS" },
	{ "sw", "emulation_faults", "PERF_TYPE_SOFTWARE",
	  "PERF_COUNT_SW_EMULATION_FAULTS" },
	{ "hw", "cpu_cycles", "PERF_TYPE_HARDWARE", "PERF_COUNT_HW_CPU_CYCLES" },
	{ "hw", "instructions", "PERF_TYPE_HARDWARE",
	  "PERF_COUNT_HW_INSTRUCTIONS" },
	{ "hw", "cache_references", "PERF_TYPE_HARDWARE",
	  "PERF_COUNT_HW_CACHE_REFERENCES" },
	{ "hw", "cache_misses", "PERF_TYPE_HARDWARE",
	  "PERF_COUNT_HW_CACHE_MISSES" },
	{ "hw", "branch_instructions", "PERF_TYPE_HARDWARE",
	  "PERF_COUNT_HW_BRANCH_INSTRUCTIONS" },
	{ "hw", "branch_misses", "PERF_TYPE_HARDWARE",
	  "PERF_COUNT_HW_BRANCH_MISSES" },
	{ "hw", "bus_cycles", "PERF_TYPE_HARDWARE", "PERF_COUNT_HW_BUS_CYCLES" },
	{ "hw", "stalled_cycles_frontend", "PERF_TYPE_HARDWARE",
	  "PERF_COUNT_HW_STALLED_CYCLES_FRONTEND" },
	{ "hw", "stalled_cycles_backend", "PERF_TYPE_HARDWARE",
	  "PERF_COUNT_HW_STALLED_CYCLES_BACKEND" },
	{ "hw", "ref_cpu_cycles", "PERF_TYPE_HARDWARE",
	  "PERF_COUNT_HW_REF_CPU_CYCLES" },
};

/* perf.sw.NAME[.sample(N)|.hz(N)], perf.hw.NAME[...],
 * perf.type(T).config(C)[.sample(N)|.hz(N)]: the handler runs every N
 * events (default 1000000; ns for the clocks) or N times a second. */
static int match_perf(struct session *s, struct probe *p,
		      struct probe_point *pp)
{
	struct pp_component *g = component(pp, 1), *e = component(pp, 2), *c;
	const char *type = NULL, *config = NULL;
	struct derived_probe *d;
	int64_t t, n = 1000000;
	int freq = 0;
	size_t i;
	if (is(g, "type") && is(e, "config")) {
		int64_t cfg;
		if (num_arg(g, pp, &t, 1) < 0 || num_arg(e, pp, &cfg, 1) < 0)
			return -1;
		if (t < 0 || t > 0xffffffffLL) {
			diag_error(&g->arg->loc, "perf.type(N): N is a 32-bit "
				   "perf event type");
			return -1;
		}
		type = xasprintf("%lldU", (long long)t);
		config = xasprintf("%lluULL", (unsigned long long)cfg);
	} else if (g && !g->arg && e && !e->arg) {
		for (i = 0; i < sizeof(perf_names) / sizeof(perf_names[0]); i++)
			if (is(g, perf_names[i].group) &&
			    is(e, perf_names[i].name)) {
				type = perf_names[i].type;
				config = perf_names[i].config;
			}
	}
	if (!type) {
		struct strbuf b = {0};
		for (i = 0; i < sizeof(perf_names) / sizeof(perf_names[0]); i++)
			strbuf_printf(&b, "%s%s.%s", i ? ", " : "",
				      perf_names[i].group, perf_names[i].name);
		diag_error(&pp->loc, "unknown perf event %s (known: %s, "
			   "type(N).config(M))", probe_point_str(pp),
			   strbuf_str(&b));
		free(b.s);
		return -1;
	}
	c = component(pp, 3);
	if (c && (is(c, "sample") || is(c, "hz"))) {
		if (num_arg(c, pp, &n, 1) < 0)
			return -1;
		if (n <= 0) {
			diag_error(&c->arg->loc, "the %s of a perf probe must "
				   "be positive", c->name);
			return -1;
		}
		freq = is(c, "hz");
		c = component(pp, 4);
	}
	if (c) {
		diag_error(&pp->loc, "unexpected '.%s' in %s (expected "
			   ".sample(N) or .hz(N))", c->name,
			   probe_point_str(pp));
		return -1;
	}
	d = new_perf(s, DP_PERF, p, pp, type, config);
	d->sample = xasprintf("%lldULL", (long long)n);
	d->perf_freq = freq;
	return 0;
}

/* timer.s(N) .sec(N) .ms(N) .msec(N) .us(N) .usec(N) .ns(N) .nsec(N)
 * .jiffies(N) .hz(N) */
static int match_timer(struct session *s, struct probe *p,
		       struct probe_point *pp)
{
	static const struct { const char *name, *unit; } units[] = {
		{ "s", "1000000000ULL" }, { "sec", "1000000000ULL" },
		{ "ms", "1000000ULL" }, { "msec", "1000000ULL" },
		{ "us", "1000ULL" }, { "usec", "1000ULL" },
		{ "ns", "1ULL" }, { "nsec", "1ULL" },
		{ "jiffies", "(1000000000ULL / HZ)" },
	};
	struct pp_component *c = component(pp, 1);
	struct derived_probe *d;
	int64_t n;
	size_t i;
	if (!c) {
		diag_error(&pp->loc, "'timer' needs a period: timer.ms(N), "
			   "timer.s(N), timer.hz(N), timer.profile, ...");
		return -1;
	}
	if (is(c, "profile") && !c->arg)
		return match_timer_profile(s, p, pp);
	if (num_arg(c, pp, &n, 1) < 0 || extra_components(pp, 2) < 0)
		return -1;
	if (n <= 0) {
		diag_error(&c->arg->loc, "the timer period must be positive");
		return -1;
	}
	if (is(c, "hz")) {
		if (n > 1000000000) {
			diag_error(&c->arg->loc, "timer.hz(N): N is at most 1e9");
			return -1;
		}
		d = new_derived(s, DP_TIMER, p, pp);
		d->period_ns = xasprintf("(1000000000ULL / %lldULL)", (long long)n);
		return 0;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (is(c, units[i].name)) {
			if (!strcmp(units[i].name, "ns") && n < 100000) {
				diag_error(&c->arg->loc, "timer.ns(N): the "
					   "period must be at least 100000 ns");
				return -1;
			}
			d = new_derived(s, DP_TIMER, p, pp);
			d->period_ns = xasprintf("(%lldULL * %s)", (long long)n,
						 units[i].unit);
			return 0;
		}
	diag_error(&pp->loc, "unknown timer unit '%s' (use s, ms, us, ns, "
		   "jiffies or hz)", c->name);
	return -1;
}

/* kprobe.function("SYM")[.return][.maxactive(N)]
 * kprobe.module("MOD").function("SYM")[.return][.maxactive(N)] */
static int match_kprobe(struct session *s, struct probe *p,
			struct probe_point *pp)
{
	struct pp_component *c = component(pp, 1);
	const char *mod = NULL, *sym;
	struct derived_probe *d;
	int i = 1, is_return = 0;
	int64_t maxactive = 0;
	if (is(c, "module")) {
		if (str_arg(c, pp, &mod) < 0)
			return -1;
		c = component(pp, ++i);
	}
	if (!is(c, "function")) {
		diag_error(&pp->loc, "expected kprobe.function(\"SYMBOL\") or "
			   "kprobe.module(\"MOD\").function(\"SYMBOL\")");
		return -1;
	}
	if (str_arg(c, pp, &sym) < 0)
		return -1;
	if (strpbrk(sym, "*?[")) {
		diag_error(&c->arg->loc, "kprobe.function does not take "
			   "wildcards; name one symbol");
		return -1;
	}
	for (c = component(pp, ++i); c; c = component(pp, ++i)) {
		if (is(c, "return") && !c->arg)
			is_return = 1;
		else if (is(c, "call") && !c->arg && !is_return)
			;   /* the entry, as without .return */
		else if (is(c, "maxactive") && is_return) {
			if (num_arg(c, pp, &maxactive, 1) < 0)
				return -1;
		} else {
			diag_error(&pp->loc, "unexpected '.%s' in %s (expected "
				   ".return or .return.maxactive(N))", c->name,
				   probe_point_str(pp));
			return -1;
		}
	}
	d = new_derived(s, DP_KPROBE, p, pp);
	d->symbol = mod ? xasprintf("%s:%s", mod, sym) : xstrdup(sym);
	d->is_return = is_return;
	d->maxactive = maxactive;
	return 0;
}

struct family {
	const char *name;
	int (*match)(struct session *, struct probe *, struct probe_point *);
};

static const struct family families[] = {
	{ "begin", match_begin_end },
	{ "end", match_begin_end },
	{ "timer", match_timer },
	{ "kprobe", match_kprobe },
	{ "perf", match_perf },
	{ "kernel", match_kernel },
	{ "module", match_kernel },
};

/* edit_distance - Levenshtein distance, for "did you mean" suggestions */
static int edit_distance(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b), i, j;
	int *row = xcalloc(lb + 1, sizeof(int)), d;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		int prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			int cur = row[j];
			int sub = prev + (a[i - 1] != b[j - 1]);
			int del = row[j] + 1, ins = row[j - 1] + 1;
			row[j] = sub < del ? (sub < ins ? sub : ins) :
				(del < ins ? del : ins);
			prev = cur;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

#define NFAMILIES (sizeof(families) / sizeof(families[0]))

int family_exists(const char *name)
{
	size_t i;
	for (i = 0; i < NFAMILIES; i++)
		if (!strcmp(families[i].name, name))
			return 1;
	return 0;
}

int names_similar(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (!la || !lb)
		return 0;
	if ((la >= 3 && strstr(b, a)) || (lb >= 3 && strstr(a, b)))
		return 1;
	return edit_distance(a, b) <= (la < 4 ? 1 : 2);
}

void family_similar(const char *name, struct strbuf *b, int *n)
{
	size_t i;
	for (i = 0; i < NFAMILIES; i++)
		if (names_similar(name, families[i].name))
			strbuf_printf(b, "%s%s", (*n)++ ? ", " : "",
				      families[i].name);
}

const char *const *family_templates(void)
{
	static const char *const t[] = {
		"begin", "begin(NUMBER)", "end", "end(NUMBER)",
		"timer.s(NUMBER)", "timer.sec(NUMBER)", "timer.ms(NUMBER)",
		"timer.msec(NUMBER)", "timer.us(NUMBER)", "timer.usec(NUMBER)",
		"timer.ns(NUMBER)", "timer.nsec(NUMBER)",
		"timer.jiffies(NUMBER)", "timer.hz(NUMBER)",
		"kprobe.function(STRING)", "kprobe.function(STRING).call",
		"kprobe.function(STRING).return",
		"kprobe.function(STRING).return.maxactive(NUMBER)",
		"kprobe.module(STRING).function(STRING)",
		"kprobe.module(STRING).function(STRING).return",
		"timer.profile", "timer.profile.tick",
		"timer.profile.freq.hz(NUMBER)",
		"perf.sw.cpu_clock", "perf.sw.task_clock",
		"perf.sw.page_faults", "perf.sw.context_switches",
		"perf.sw.cpu_migrations", "perf.sw.page_faults_min",
		"perf.sw.page_faults_maj", "perf.sw.alignment_faults",
		"perf.sw.emulation_faults",
		"perf.hw.cpu_cycles", "perf.hw.instructions",
		"perf.hw.cache_references", "perf.hw.cache_misses",
		"perf.hw.branch_instructions", "perf.hw.branch_misses",
		"perf.hw.bus_cycles", "perf.hw.stalled_cycles_frontend",
		"perf.hw.stalled_cycles_backend", "perf.hw.ref_cpu_cycles",
		"perf.sw.cpu_clock.sample(NUMBER)", "perf.sw.cpu_clock.hz(NUMBER)",
		"perf.hw.cpu_cycles.sample(NUMBER)",
		"perf.type(NUMBER).config(NUMBER)",
		"perf.type(NUMBER).config(NUMBER).sample(NUMBER)",
		"perf.type(NUMBER).config(NUMBER).hz(NUMBER)",
		"kernel.function(STRING)", "kernel.function(STRING).call",
		"kernel.function(STRING).return",
		"kernel.function(STRING).return.maxactive(NUMBER)",
		"kernel.function(STRING).inline",
		"kernel.function(STRING).exported",
		"kernel.statement(STRING)", "kernel.statement(NUMBER).absolute",
		"kernel.trace(STRING)",
		"module(STRING).function(STRING)",
		"module(STRING).function(STRING).call",
		"module(STRING).function(STRING).return",
		"module(STRING).function(STRING).inline",
		"module(STRING).statement(STRING)",
		NULL,
	};
	return t;
}

int derive_point(struct session *s, struct probe *p, struct probe_point *pp)
{
	struct pp_component *c = component(pp, 0);
	struct strbuf similar = {0};
	size_t i;
	int rc;
	if (!c)
		return -1;
	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (is(c, families[i].name)) {
			rc = families[i].match(s, p, pp);
			return rc;
		}
	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (edit_distance(c->name, families[i].name) <= 2 ||
		    strstr(families[i].name, c->name) ||
		    strstr(c->name, families[i].name))
			strbuf_printf(&similar, "%s%s", similar.len ? ", " : "",
				      families[i].name);
	diag_error(&pp->loc, "unknown probe point family '%s'%s%s", c->name,
		   similar.len ? "; similar: " : "", strbuf_str(&similar));
	free(similar.s);
	return -1;
}
