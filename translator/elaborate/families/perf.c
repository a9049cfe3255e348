/* perf.c - perf.sw.NAME, perf.hw.NAME and perf.type(T).config(C) probe
 * points: a perf event on every online CPU, sampled by count or rate. */
#include "family.h"

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

/* perf.sw.NAME[.sample(N)|.hz(N)], perf.hw.NAME[...],
 * perf.type(T).config(C)[.sample(N)|.hz(N)]: the handler runs every N
 * events (default 1000000; ns for the clocks) or N times a second. */
static int match_perf(struct session *s, struct probe *p,
		      struct probe_point *pp)
{
	struct pp_component *g = pp_comp(pp, 1), *e = pp_comp(pp, 2), *c;
	const char *type = NULL, *config = NULL;
	struct derived_probe *d;
	int64_t t, n = 1000000;
	int freq = 0;
	size_t i;
	if (pp_is(g, "type") && pp_is(e, "config")) {
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
			if (pp_is(g, perf_names[i].group) &&
			    pp_is(e, perf_names[i].name)) {
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
	c = pp_comp(pp, 3);
	if (c && (pp_is(c, "sample") || pp_is(c, "hz"))) {
		if (num_arg(c, pp, &n, 1) < 0)
			return -1;
		if (n <= 0) {
			diag_error(&c->arg->loc, "the %s of a perf probe must "
				   "be positive", c->name);
			return -1;
		}
		freq = pp_is(c, "hz");
		c = pp_comp(pp, 4);
	}
	if (c) {
		diag_error(&pp->loc, "unexpected '.%s' in %s (expected "
			   ".sample(N) or .hz(N))", c->name,
			   probe_point_str(pp));
		return -1;
	}
	d = new_perf_derived(s, DP_PERF, p, pp, type, config);
	d->sample = xasprintf("%lldULL", (long long)n);
	d->perf_freq = freq;
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
	"perf.type(NUMBER).config(NUMBER).hz(NUMBER)", NULL,
};

const struct family family_perf = { "perf", match_perf, perf_forms };
