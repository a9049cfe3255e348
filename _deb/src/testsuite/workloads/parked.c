/* parked: a process with exactly T threads besides its main one, all of
 * them waiting until a file exists: lab/uprocess_existing starts it before
 * the script, whose .begin/.thread.begin must fire for what already runs.
 *
 * Usage: parked T GOFILE
 *
 * Creates T threads, each of which blocks on a condition variable; once
 * all T are blocked, prints "parked: T threads ready" (flushed).  The main
 * thread then waits (polling every 10 ms) until GOFILE exists, releases
 * the threads, joins them and prints "parked: T threads released".  Exit
 * status 0; errors go to stderr with exit status 1. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static long waiting, released;

static void *body(void *arg)
{
	pthread_mutex_lock(&lock);
	waiting++;
	pthread_cond_broadcast(&changed);
	while (!released)
		pthread_cond_wait(&changed, &lock);
	pthread_mutex_unlock(&lock);
	return arg;
}

int main(int argc, char **argv)
{
	long t = argc == 3 ? strtol(argv[1], NULL, 10) : -1, i;
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	pthread_t *th;

	if (t < 0 || !(th = calloc(t + 1, sizeof(*th)))) {
		fprintf(stderr, "usage: parked T GOFILE\n");
		return 1;
	}
	for (i = 0; i < t; i++)
		if (pthread_create(&th[i], NULL, body, NULL)) {
			fprintf(stderr, "parked: pthread_create failed\n");
			return 1;
		}
	pthread_mutex_lock(&lock);
	while (waiting < t)
		pthread_cond_wait(&changed, &lock);
	pthread_mutex_unlock(&lock);
	printf("parked: %ld threads ready\n", t);
	fflush(stdout);
	while (access(argv[2], F_OK) != 0)
		nanosleep(&tick, NULL);
	pthread_mutex_lock(&lock);
	released = 1;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < t; i++)
		if (pthread_join(th[i], NULL)) {
			fprintf(stderr, "parked: pthread_join failed\n");
			return 1;
		}
	printf("parked: %ld threads released\n", t);
	return 0;
}
