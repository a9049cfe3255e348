/* threads: create exactly T threads (default 4), one after the other,
 * each of which adds its number to a shared sum and exits; the main
 * thread joins each before starting the next.
 *
 * Usage: threads [T]
 *
 * Prints "threads: T threads, sum S" (S = T(T+1)/2).  lab/uprocess_threads
 * counts T thread.begin and T thread.end.  Exit status 0; errors go to
 * stderr with exit status 1. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long sum;

static void *body(void *arg)
{
	sum += (long)arg;
	return NULL;
}

int main(int argc, char **argv)
{
	long t = argc > 1 ? strtol(argv[1], NULL, 10) : 4, i;

	if (t < 0) {
		fprintf(stderr, "threads: bad count %s\n", argv[1]);
		return 1;
	}
	for (i = 1; i <= t; i++) {
		pthread_t th;

		if (pthread_create(&th, NULL, body, (void *)i) ||
		    pthread_join(th, NULL)) {
			fprintf(stderr, "threads: pthread failed\n");
			return 1;
		}
	}
	printf("threads: %ld threads, sum %ld\n", t, sum);
	return 0;
}
