/* timer.c - timer.s(N) ... timer.hz(N): an hrtimer on one CPU; and
 * timer.profile[.tick|.freq.hz(N)]: a cpu-clock perf event on every CPU. */
#include "family.h"

#include <stdlib.h>
#include <string.h>

/* timer.profile, timer.profile.tick: each CPU's scheduler tick (a
 * cpu-clock event of period 1e9/HZ ns, HZ of the target kernel);
 * timer.profile.freq.hz(N): N times a second per CPU. */
static int match_timer_profile(struct session *s, struct probe *p,
			       struct probe_point *pp)
{
	struct pp_component *c = pp_comp(pp, 2);
	struct derived_probe *d;
	int64_t hz;
	if (!c || (pp_is(c, "tick") && !c->arg)) {
		if (c && extra_components(pp, 3) < 0)
			return -1;
		d = new_perf_derived(s, DP_PROFILE, p, pp, "PERF_TYPE_SOFTWARE",
			     "PERF_COUNT_SW_CPU_CLOCK");
		d->sample = xstrdup("(1000000000ULL / HZ)");
		return 0;
	}
	if (pp_is(c, "freq") && !c->arg && pp_is(pp_comp(pp, 3), "hz")) {
		if (num_arg(pp_comp(pp, 3), pp, &hz, 1) < 0 ||
		    extra_components(pp, 4) < 0)
			return -1;
		if (hz <= 0 || hz > 100000) {
			diag_error(&pp->loc, "timer.profile.freq.hz(N): N must "
				   "be 1 to 100000");
			return -1;
		}
		d = new_perf_derived(s, DP_PROFILE, p, pp, "PERF_TYPE_SOFTWARE",
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

/* randomize - the optional .randomize(M) after a timer's period (@n of
 * @unit ns each): M in the same unit, 0 < M < N; sets d->randomize_ns.
 * 0, or -1 after a diagnostic. */
static int randomize(struct probe_point *pp, struct derived_probe *d,
		     int64_t n, const char *unit)
{
	struct pp_component *r = pp_comp(pp, 2);
	int64_t m;
	if (!r)
		return 0;
	if (!pp_is(r, "randomize")) {
		diag_error(&pp->loc, "unexpected '.%s' in probe point %s "
			   "(expected .randomize(M))", r->name,
			   probe_point_str(pp));
		return -1;
	}
	if (!unit) {
		diag_error(&pp->loc, "timer.hz(N) cannot be randomized");
		return -1;
	}
	if (num_arg(r, pp, &m, 1) < 0 || extra_components(pp, 3) < 0)
		return -1;
	if (m <= 0 || m >= n) {
		diag_error(&r->arg->loc, ".randomize(M): M must be at least "
			   "1 and less than the period %lld", (long long)n);
		return -1;
	}
	d->randomize_ns = xasprintf("(%lldULL * %s)", (long long)m, unit);
	return 0;
}

/* timer.s(N) .sec(N) .ms(N) .msec(N) .us(N) .usec(N) .ns(N) .nsec(N)
 * .jiffies(N), each optionally .randomize(M); .hz(N) */
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
	struct pp_component *c = pp_comp(pp, 1);
	struct derived_probe *d;
	int64_t n;
	size_t i;
	if (!c) {
		diag_error(&pp->loc, "'timer' needs a period: timer.ms(N), "
			   "timer.s(N), timer.hz(N), timer.profile, ...");
		return -1;
	}
	if (pp_is(c, "profile") && !c->arg)
		return match_timer_profile(s, p, pp);
	if (num_arg(c, pp, &n, 1) < 0 ||
	    (!pp_is(pp_comp(pp, 2), "randomize") && extra_components(pp, 2) < 0))
		return -1;
	if (n <= 0) {
		diag_error(&c->arg->loc, "the timer period must be positive");
		return -1;
	}
	if (pp_is(c, "hz")) {
		if (n > 1000000000) {
			diag_error(&c->arg->loc, "timer.hz(N): N is at most 1e9");
			return -1;
		}
		d = new_derived(s, DP_TIMER, p, pp);
		d->period_ns = xasprintf("(1000000000ULL / %lldULL)", (long long)n);
		return randomize(pp, d, n, NULL);
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (pp_is(c, units[i].name)) {
			if (!strcmp(units[i].name, "ns") && n < 100000) {
				diag_error(&c->arg->loc, "timer.ns(N): the "
					   "period must be at least 100000 ns");
				return -1;
			}
			d = new_derived(s, DP_TIMER, p, pp);
			d->period_ns = xasprintf("(%lldULL * %s)", (long long)n,
						 units[i].unit);
			return randomize(pp, d, n, units[i].unit);
		}
	diag_error(&pp->loc, "unknown timer unit '%s' (use s, ms, us, ns, "
		   "jiffies or hz)", c->name);
	return -1;
}

static const char *const timer_forms[] = {
	"timer.s(NUMBER)", "timer.sec(NUMBER)", "timer.ms(NUMBER)",
	"timer.msec(NUMBER)", "timer.us(NUMBER)", "timer.usec(NUMBER)",
	"timer.ns(NUMBER)", "timer.nsec(NUMBER)", "timer.jiffies(NUMBER)",
	"timer.hz(NUMBER)", "timer.s(NUMBER).randomize(NUMBER)",
	"timer.ms(NUMBER).randomize(NUMBER)",
	"timer.jiffies(NUMBER).randomize(NUMBER)", "timer.profile", "timer.profile.tick",
	"timer.profile.freq.hz(NUMBER)", NULL,
};

const struct family family_timer = { "timer", match_timer, timer_forms };
