/* ucall_loop - time N calls of a user function, R rounds; print the
 * median cost per call in nanoseconds ("ns_per_call=X").
 * Usage: ucall_loop [N [R]]   (default 200000 calls, 5 rounds)
 * ucall_target() is noinline and noipa so that each call is a real call
 * of one out-of-line function: the place uprobe-cost probes. */
#include <stdio.h>
#include <stdlib.h>
#include "timing.h"

__attribute__((noinline, noipa, used)) long ucall_target(long x)
{
	return x + 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000, i, sum = 0;
	int r = argc > 2 ? atoi(argv[2]) : 5, k;
	double t[64];

	if (n <= 0 || r <= 0 || r > 64)
		return 1;
	for (k = 0; k < r; k++) {
		double t0 = now_ns();
		for (i = 0; i < n; i++)
			sum += ucall_target(i);
		t[k] = (now_ns() - t0) / n;
	}
	printf("ns_per_call=%.0f sum=%ld\n", median(t, r), sum);
	return 0;
}
