/* pfstorm: K threads fault in pages at the same time (lab/perf_counter_smp).
 *
 * Usage: pfstorm K P
 *
 * start() once, then K threads each write to P fresh anonymous pages of
 * their own (MADV_NOHUGEPAGE: one fault each), calling step(i) after each page (i = 1..P), all at once
 * (a barrier releases them together); the main thread joins them and
 * calls done().  A page-fault counter of the process read at each step()
 * never decreases within a thread, and grows by at least K * P from
 * start() to done() (thread creation faults too).  Prints "pfstorm: K x P
 * pages"; errors: exit status 1. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

__attribute__((noinline, noipa, used)) void start(void)
{
	__asm__ volatile("" : : : "memory");
}

__attribute__((noinline, noipa, used)) void step(long i)
{
	__asm__ volatile("" : : "r"(i) : "memory");
}

__attribute__((noinline, noipa, used)) void done(void)
{
	__asm__ volatile("" : : : "memory");
}

static long npages;
static pthread_barrier_t go;

static void *body(void *arg)
{
	volatile char *p = arg;
	long i;

	pthread_barrier_wait(&go);
	for (i = 0; i < npages; i++) {
		p[i * 4096] = 1;
		step(i + 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long k, i;
	pthread_t *t;
	char *mem;

	if (argc != 3 || (k = atol(argv[1])) <= 0 ||
	    (npages = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: pfstorm K P\n");
		return 1;
	}
	t = calloc(k, sizeof(*t));
	mem = mmap(NULL, k * npages * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* one fault per page: no transparent huge page (a 2 MB range of
	 * the mapping would fault once) */
	if (!t || mem == MAP_FAILED ||
	    madvise(mem, k * npages * 4096, MADV_NOHUGEPAGE) ||
	    pthread_barrier_init(&go, NULL, k)) {
		perror("pfstorm");
		return 1;
	}
	start();
	for (i = 0; i < k; i++)
		if (pthread_create(&t[i], NULL, body,
				   mem + i * npages * 4096)) {
			fprintf(stderr, "pfstorm: thread failed\n");
			return 1;
		}
	for (i = 0; i < k; i++)
		pthread_join(t[i], NULL);
	done();
	printf("pfstorm: %ld x %ld pages\n", k, npages);
	return 0;
}
