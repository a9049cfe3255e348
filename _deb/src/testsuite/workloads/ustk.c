/* ustk: a dynamically linked workload (ustk.libs: libustk.so) for
 * lab/ustack: main -> a -> b -> c -> ustk_leaf (in libustk.so).
 *
 * Usage: ustk [N]
 *
 * Calls a(i) for i = 1..N (default 3) and prints "ustk: N calls, sum S"
 * (a(x) = 8x + 47, so S = 4N(N+1) + 47N).  Built -O2 without frame
 * pointers: a, b and c keep locals on the stack and address them from
 * rsp, so only the CFI (.eh_frame) finds their callers.  None of the
 * calls is a tail call (each result is used after the call).  Exit
 * status 0; a bad argument is exit status 1. */
#include <stdio.h>
#include <stdlib.h>

long ustk_leaf(long y);

#define NOINLINE __attribute__((noinline, noipa))

NOINLINE long c(long x)        /* 4x + 14 */
{
	volatile long buf[8];
	int i;

	for (i = 0; i < 8; i++)
		buf[i] = x + i;
	return ustk_leaf(buf[3]) + buf[5];
}

NOINLINE long b(long x)        /* 2 c(x + 1) = 8x + 36 */
{
	volatile long buf[4];

	buf[2] = x + 1;
	return c(buf[2]) * 2;
}

NOINLINE long a(long x)        /* b(x + 1) + 3 = 8x + 47 */
{
	volatile long buf[2];

	buf[1] = x + 1;
	return b(buf[1]) + 3;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 3, i, sum = 0;

	if (n < 0) {
		fprintf(stderr, "ustk: bad count %s\n", argv[1]);
		return 1;
	}
	for (i = 1; i <= n; i++)
		sum += a(i);
	printf("ustk: %ld calls, sum %ld\n", n, sum);
	return 0;
}
