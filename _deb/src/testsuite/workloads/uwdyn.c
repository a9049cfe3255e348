/* uwdyn: a dynamically linked workload (uwdyn.libs: libuwlib.so) for
 * lab/uprobes_lib.
 *
 * Usage: uwdyn [N]
 *
 * Calls the library's uwlib_add(i) for i = 1..N (default 1000) and prints
 * "uwdyn: N calls, sum S" (S = N(N+1)/2 + 7N).  Exit status 0; a bad
 * argument is exit status 1. */
#include <stdio.h>
#include <stdlib.h>

long uwlib_add(long x);

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000, i, sum = 0;

	if (n < 0) {
		fprintf(stderr, "uwdyn: bad count %s\n", argv[1]);
		return 1;
	}
	for (i = 1; i <= n; i++)
		sum += uwlib_add(i);
	printf("uwdyn: %ld calls, sum %ld\n", n, sum);
	return 0;
}
