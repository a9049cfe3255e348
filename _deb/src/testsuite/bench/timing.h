/* timing.h - the clock and the median of the timing loops getppid_loop.c
 * and ucall_loop.c (included by each; static: one program each). */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <stdlib.h>
#include <time.h>

/* now_ns - CLOCK_MONOTONIC in nanoseconds */
static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* median - the median of @v[0..@n) (@n > 0; sorts @v in place) */
static double median(double *v, int n)
{
	qsort(v, n, sizeof(v[0]), cmp_double);
	return v[n / 2];
}

#endif
