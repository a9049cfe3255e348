/* hammer: T threads each making exactly N getppid() system calls.
 *
 * Usage: hammer [T [N]]   (defaults 8 and 5000)
 *
 * The threads start together (a barrier) so that their system calls run
 * concurrently on all CPUs; the lab tests count the calls made by the
 * process named "hammer" with a statistic and compare with T * N.
 * Prints nothing; errors go to stderr with exit status 1. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static long calls;
static pthread_barrier_t start;

static void *worker(void *arg)
{
	long i;

	(void)arg;
	pthread_barrier_wait(&start);
	for (i = 0; i < calls; i++)
		syscall(SYS_getppid);
	return NULL;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 1 ? atoi(argv[1]) : 8, i;
	pthread_t *tids;

	calls = argc > 2 ? atol(argv[2]) : 5000;
	if (nthreads <= 0 || nthreads > 1024 || calls < 0) {
		fprintf(stderr, "hammer: bad arguments\n");
		return 1;
	}
	tids = calloc(nthreads, sizeof(*tids));
	if (!tids || pthread_barrier_init(&start, NULL, nthreads)) {
		fprintf(stderr, "hammer: out of memory\n");
		return 1;
	}
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&tids[i], NULL, worker, NULL)) {
			fprintf(stderr, "hammer: pthread_create failed\n");
			return 1;
		}
	for (i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	return 0;
}
