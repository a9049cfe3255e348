/* perf.c - perf.sw.NAME, perf.hw.NAME and perf.type(T).config(C) probe
 * points: a perf event on every online CPU, sampled by count or rate;
 * with .process("PATH").counter("NAME") a counter in each process running
 * PATH that @perf("NAME") reads (elaborate/perf_read.c). */
#include "family.h"
#include "debuginfo/debuginfo.h"

#include <stdlib.h>
#include <string.h>

struct derived_probe *new_perf_derived(struct session *s, enum dp_kind k,
				       struct probe *p, struct probe_point *pp,
				       const char *type, const char *config)
{
	struct derived_probe *d = new_derived(s, k, p, pp);
	d->perf_type = type;
	d->perf_config = config;
	return d;
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

/* perf_event_of - the event of @pp's components 1 and 2 (sw.NAME,
 * hw.NAME or type(T).config(C)) as C constants; 0, or -1 after a
 * diagnostic. */
static int perf_event_of(struct probe_point *pp, const char **type,
			 const char **config)
{
	struct pp_component *g = pp_comp(pp, 1), *e = pp_comp(pp, 2);
	int64_t t, cfg;
	size_t i;
	*type = NULL;
	if (pp_is(g, "type") && pp_is(e, "config")) {
		if (num_arg(g, pp, &t, 1) < 0 || num_arg(e, pp, &cfg, 1) < 0)
			return -1;
		if (t < 0 || t > 0xffffffffLL) {
			diag_error(&g->arg->loc, "perf.type(N): N is a 32-bit "
				   "perf event type");
			return -1;
		}
		*type = xasprintf("%lldU", (long long)t);
		*config = xasprintf("%lluULL", (unsigned long long)cfg);
		return 0;
	}
	if (g && !g->arg && e && !e->arg)
		for (i = 0; i < sizeof(perf_names) / sizeof(perf_names[0]); i++)
			if (pp_is(g, perf_names[i].group) &&
			    pp_is(e, perf_names[i].name)) {
				*type = perf_names[i].type;
				*config = perf_names[i].config;
				return 0;
			}
	struct strbuf b = {0};
	for (i = 0; i < sizeof(perf_names) / sizeof(perf_names[0]); i++)
		strbuf_printf(&b, "%s%s.%s", i ? ", " : "",
			      perf_names[i].group, perf_names[i].name);
	diag_error(&pp->loc, "unknown perf event %s (known: %s, "
		   "type(N).config(M))", probe_point_str(pp), strbuf_str(&b));
	free(b.s);
	return -1;
}

/* perf_process - the program of @c (.process("PATH"), or .process: the
 * -c/-x program) as its absolute path in the target; heap, or NULL after
 * a diagnostic. */
static char *perf_process(struct session *s, struct probe_point *pp,
			  struct pp_component *c)
{
	const char *name;
	char *prog = NULL, *target = NULL, *host = NULL, *err = NULL;
	if (c->arg) {
		if (str_arg(c, pp, &name) < 0)
			return NULL;
	} else if (!(name = prog = target_program(s, pp))) {
		return NULL;
	}
	if (uelf_resolve(name, s->sysroot, &target, &host, &err) < 0) {
		diag_error(c->arg ? &c->arg->loc : &pp->loc, "%s", err);
		free(err);
	}
	free(prog);
	free(host);
	return target;
}

/* perf_slot - the number of a new per-process perf event (counter
 * @name, or NULL: a sampled one), or -1 after a diagnostic at @loc:
 * @name is taken, or there are STP_PERF_COUNTERS_MAX already. */
static int perf_slot(struct session *s, const struct source_loc *loc,
		     const char *name)
{
	int i, n = 0;
	for (i = 0; i < s->derived.n; i++) {
		struct derived_probe *d = s->derived.items[i];
		if (d->kind != DP_PERF_PROC)
			continue;
		if (name && d->symbol && !strcmp(d->symbol, name)) {
			diag_error(loc, "perf counter '%s' is already "
				   "defined (by %s)", name, d->pp_text);
			return -1;
		}
		n++;
	}
	if (n >= STP_PERF_COUNTERS_MAX) {
		diag_error(loc, "too many perf "
			   "counters and .process perf probes: at most %d in a "
			   "script", STP_PERF_COUNTERS_MAX);
		return -1;
	}
	return n;
}

/* perf_counter - derive @pp as perf counter NAME (@c's argument) of the
 * event @type/@config counted in each process running @path (taken). */
static int perf_counter(struct session *s, struct probe *p,
			struct probe_point *pp, struct pp_component *c,
			const char *type, const char *config, char *path)
{
	const char *name;
	struct derived_probe *d;
	int n;
	if (str_arg(c, pp, &name) < 0) {
		free(path);
		return -1;
	}
	if (!name[0] || strpbrk(name, "*?[")) {
		diag_error(&c->arg->loc, "a perf counter needs a plain name "
			   "(no wildcard), not '%s'", name);
		free(path);
		return -1;
	}
	if ((n = perf_slot(s, &c->arg->loc, name)) < 0) {
		free(path);
		return -1;
	}
	if (p->body && p->body->stmts.n)
		diag_warning(&p->loc, "the body of a perf counter probe never "
			     "runs: read the counter with @perf(\"%s\") in a "
			     "process probe", name);
	d = new_perf_derived(s, DP_PERF_PROC, p, pp, type, config);
	d->symbol = xstrdup(name);
	d->path = path;
	d->perf_counter = n;
	return 0;
}

/* perf.sw.NAME[.sample(N)|.hz(N)], perf.hw.NAME[...],
 * perf.type(T).config(C)[.sample(N)|.hz(N)]: the handler runs every N
 * events (default 1000000; ns for the clocks) or N times a second, on
 * every CPU.  EVENT[.sample(N)|.hz(N)].process[("PATH")]: the same in
 * each process running PATH (its threads included), wherever it runs.
 * EVENT.process[("PATH")].counter("NAME"): no handler; a counter of EVENT
 * in each process running PATH, read by @perf("NAME") in process probes
 * (SystemTap's counters without .process count the whole system and
 * cannot be read: refused here). */
static int match_perf(struct session *s, struct probe *p,
		      struct probe_point *pp)
{
	struct pp_component *c, *sample = NULL, *proc = NULL;
	const char *type, *config;
	struct derived_probe *d;
	int64_t n = 1000000;
	char *path = NULL;
	int i = 3;
	if (perf_event_of(pp, &type, &config) < 0)
		return -1;
	c = pp_comp(pp, i);
	if (c && (pp_is(c, "sample") || pp_is(c, "hz"))) {
		if (num_arg(c, pp, &n, 1) < 0)
			return -1;
		if (n <= 0) {
			diag_error(&c->arg->loc, "the %s of a perf probe must "
				   "be positive", c->name);
			return -1;
		}
		sample = c;
		c = pp_comp(pp, ++i);
	}
	if (pp_is(c, "process")) {
		proc = c;
		c = pp_comp(pp, ++i);
	}
	if (pp_is(c, "counter")) {
		if (extra_components(pp, i + 1) < 0)
			return -1;
		if (sample) {
			diag_error(&pp->loc, "a perf counter is read with "
				   "@perf, not sampled: .%s cannot go with "
				   ".counter", sample->name);
			return -1;
		}
		if (!proc) {
			diag_error(&pp->loc, "%s: a counter for the whole "
				   "system cannot be read by @perf; count in "
				   "one program with .process(\"PATH\") (or "
				   ".process: the -c program) before "
				   ".counter", probe_point_str(pp));
			return -1;
		}
		if (!(path = perf_process(s, pp, proc)))
			return -1;
		return perf_counter(s, p, pp, c, type, config, path);
	}
	if (c) {
		diag_error(&pp->loc, "unexpected '.%s' in %s (expected "
			   ".sample(N), .hz(N), .process(\"PATH\") or "
			   ".counter(\"NAME\"))", c->name, probe_point_str(pp));
		return -1;
	}
	if (proc) {
		int slot = perf_slot(s, &pp->loc, NULL);
		if (slot < 0 || !(path = perf_process(s, pp, proc)))
			return -1;
		d = new_perf_derived(s, DP_PERF_PROC, p, pp, type, config);
		d->path = path;
		d->perf_counter = slot;
	} else {
		d = new_perf_derived(s, DP_PERF, p, pp, type, config);
	}
	d->sample = xasprintf("%lldULL", (long long)n);
	d->perf_freq = sample && pp_is(sample, "hz");
	return 0;
}

static const char *const perf_forms[] = {
	"perf.sw.cpu_clock", "perf.sw.task_clock", "perf.sw.page_faults",
	"perf.sw.context_switches", "perf.sw.cpu_migrations",
	"perf.sw.page_faults_min", "perf.sw.page_faults_maj",
	"perf.sw.alignment_faults", "perf.sw.emulation_faults",
	"perf.hw.cpu_cycles", "perf.hw.instructions", "perf.hw.cache_references",
	"perf.hw.cache_misses", "perf.hw.branch_instructions",
	"perf.hw.branch_misses", "perf.hw.bus_cycles",
	"perf.hw.stalled_cycles_frontend", "perf.hw.stalled_cycles_backend",
	"perf.hw.ref_cpu_cycles", "perf.sw.cpu_clock.sample(NUMBER)",
	"perf.sw.cpu_clock.hz(NUMBER)", "perf.hw.cpu_cycles.sample(NUMBER)",
	"perf.type(NUMBER).config(NUMBER)",
	"perf.type(NUMBER).config(NUMBER).sample(NUMBER)",
	"perf.type(NUMBER).config(NUMBER).hz(NUMBER)",
	"perf.type(NUMBER).config(NUMBER).process(STRING)",
	"perf.type(NUMBER).config(NUMBER).sample(NUMBER).process(STRING)",
	"perf.type(NUMBER).config(NUMBER).process(STRING).counter(STRING)",
	"perf.type(NUMBER).config(NUMBER).process.counter(STRING)",
	"perf.sw.page_faults.process(STRING).counter(STRING)",
	"perf.hw.instructions.process(STRING).counter(STRING)", NULL,
};

const struct family family_perf = { "perf", match_perf, perf_forms };
