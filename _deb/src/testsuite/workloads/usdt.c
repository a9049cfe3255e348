/* usdt: a workload with SDT markers (<sys/sdt.h>, Debian package
 * systemtap-sdt-dev) for lab/uprobes_sdt.
 *
 * Usage: usdt [N]
 *
 * Fires the marker usdt:hit N times (default 1000) with $arg1 = i
 * (i = 1..N, a long) and $arg2 = 3 * i (an int), usdt:mem N times with
 * $arg1 = i read from a stack slot (a memory operand), then usdt:done once
 * with $arg1 = N.  Both markers have semaphores; before each hit the
 * program notes whether usdt:hit's semaphore was raised (a tracer has the
 * marker probed) and prints "usdt: N hits, semaphore set K times", so a
 * lab test shows that the semaphore is raised exactly while its script
 * runs (K = N) and not otherwise (K = 0).  Exit status 0; a bad argument
 * is exit status 1. */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>

/* the semaphores sys/sdt.h's notes point at (PROVIDER_NAME_semaphore) */
__extension__ unsigned short usdt_hit_semaphore
	__attribute__((unused, section(".probes")));
__extension__ unsigned short usdt_mem_semaphore
	__attribute__((unused, section(".probes")));
__extension__ unsigned short usdt_done_semaphore
	__attribute__((unused, section(".probes")));

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000, i, set = 0;
	volatile long mem = 0;

	if (n < 0) {
		fprintf(stderr, "usdt: bad count %s\n", argv[1]);
		return 1;
	}
	for (i = 1; i <= n; i++) {
		int three = (int)(3 * i);

		if (*(volatile unsigned short *)&usdt_hit_semaphore)
			set++;
		STAP_PROBE2(usdt, hit, i, three);
		mem = i;   /* a volatile local: usdt:mem's argument is in memory */
		STAP_PROBE1(usdt, mem, mem);
	}
	STAP_PROBE1(usdt, done, n);
	printf("usdt: %ld hits, semaphore set %ld times\n", n, set);
	return 0;
}
