/* uwork: a workload for user-space probes (lab/uprobes_*).
 *
 * Usage: uwork [N]
 *
 * Calls work(i) for i = 1..N (default 1000) and prints
 * "uwork: N calls, sum S" where S is the sum of what work() returned
 * (work(x) = 2x + 1, so S = N(N+1) + N).  work() is noinline and noipa
 * so that gcc -O2 keeps one real out-of-line function named "work" whose
 * first argument arrives in %rdi and whose result leaves in %rax: the
 * lab tests probe process("uwork").function("work") and .return and
 * check long_arg(1)/$x and returnval()/$return sums against these
 * numbers (run-tests builds workloads with -g for $x and $return).  Exit
 * status 0; a bad argument is exit status 1. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, noipa, used)) long work(long x)
{
	return 2 * x + 1;
}

/* loop - work(i) for i = 1..n, summed: its loop body is the target of
 * lab/uprobes_func's .statement("loop@uwork.c:LINE") probe (the line
 * marked BODY below), which must hit exactly n times. */
__attribute__((noinline, noipa, used)) long loop(long n)
{
	long i, sum = 0;

	for (i = 1; i <= n; i++)
		sum += work(i);         /* BODY */
	return sum;
}

/* rec - n + (n - 1) + ... + 0, recursively (a real call per level: the
 * volatile keeps gcc from turning it into a loop); main calls rec(10)
 * once, so .return probes see rec(0)..rec(10) return in that order,
 * nested: $x sums to 55 and $return to 220. */
__attribute__((noinline, noipa, used)) long rec(long n)
{
	volatile long r;

	if (n <= 0)
		return 0;
	r = rec(n - 1);
	return n + r;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000, sum;

	if (n < 0) {
		fprintf(stderr, "uwork: bad count %s\n", argv[1]);
		return 1;
	}
	sum = loop(n);
	if (rec(10) != 55)
		return 1;
	printf("uwork: %ld calls, sum %ld\n", n, sum);
	return 0;
}
