/* timing.c - stap -t: every probe's hits and the cycles they took,
 * kept per CPU by the hit path (stp_hit.h: no lock, no shared cache
 * line) and merged into the "probe hit report" at the end of the run.
 * Without -t (STP_TIMING undefined) only empty functions are left. */
#include <linux/module.h>
#include "stp_hit.h"
#include "map_int.h"

#ifdef STP_TIMING

void stp_timing_add(struct stp_cpu *sc, const struct stp_probe_desc *p,
		    s64 cycles)
{
	unsigned long i = p - stp_module.probes;

	if (i < (unsigned long)stp_module.nprobes)
		stp_stat_accumulate(&sc->timing[i], cycles, 0);
}

/* the statistics' "map": no histogram, no variance shift */
static const struct stp_map stp_timing_map = { .name = "-t" };

/* stp_timing_print - the report's handler: one line per probe of the
 * table that ran, its CPUs' parts merged (no hit runs any more: the
 * probes are unregistered and idle). */
static void stp_timing_print(struct stp_context *c)
{
	int i;

	stp_printf(c, "----- probe hit report: \n");
	for (i = 0; i < stp_module.nprobes; i++) {
		const struct stp_probe_desc *p = &stp_module.probes[i];
		struct stp_stat t = { 0 };
		unsigned int cpu;

		for_each_possible_cpu(cpu) {
			struct stp_cpu *sc = per_cpu(stp_cpu_ptr, cpu);

			if (sc)
				stp_stat_merge(&stp_timing_map, &t,
					       &sc->timing[i]);
		}
		if (!t.count)
			continue;
		stp_printf(c, "%s, (%s), hits: %lld, cycles: %lldmin/%lldavg/"
			   "%lldmax, variance: %lld, from: %s, index: %d\n",
			   p->pp, p->loc ? p->loc : "", (long long)t.count,
			   (long long)t.min,
			   (long long)stp_stat_value(c, &t, 0, STP_STAT_AVG,
						     NULL),
			   (long long)t.max,
			   (long long)stp_stat_value(c, &t, 0,
						     STP_STAT_VARIANCE, NULL),
			   p->pn ? p->pn : p->pp, i);
	}
}

/* the report runs as a hit of a probe of no table (not timed itself) */
static const struct stp_probe_desc stp_timing_desc = {
	.kind = STP_PROBE_NEVER,
	.pp = "-t report",
	.handler = stp_timing_print,
};

void stp_timing_report(void)
{
	stp_run_probe(&stp_timing_desc, NULL, STP_STATE_STOPPING);
}

void stp_timing_warn_skipped(void)
{
	int n = atomic_read(&stp_skipped_lock);

	if (n)
		stp_warn("Skipped due to global lock timeout: %d", n);
	n = atomic_read(&stp_skipped_reentrant);
	if (n)
		stp_warn("Skipped due to reentrancy: %d", n);
}

#else

void stp_timing_report(void)
{
}

void stp_timing_warn_skipped(void)
{
}

#endif
