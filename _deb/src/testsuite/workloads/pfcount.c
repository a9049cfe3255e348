/* pfcount: exact page-fault counts between probe points (lab/perf_counter*).
 *
 * Usage: pfcount N T [GATE]
 *
 * Maps N + T pages of private anonymous memory (not touched), then:
 *   mark(0); touch(p, 0)      warm-up: the first uprobe hit maps the
 *                             kernel's XOL page, and every code page used
 *                             below is run once, so no fault comes later
 *                             from them
 *   with GATE: mark(5) every 10 ms until the file GATE exists
 *                             (a module loaded meanwhile sees it, and its
 *                             first uprobe hit maps the XOL page: no fault
 *                             of it falls in the phases)
 *   mark(1)                   the main thread's phase starts
 *   touch(p, N)               writes one byte to each of N fresh pages:
 *                             exactly N page faults (anonymous, and
 *                             MADV_NOHUGEPAGE: no transparent huge page)
 *   mark(2)                   ... ends
 *   a thread (pthread_create): it waits until the main thread sleeps in
 *   pthread_join (its /proc state 'S'), then
 *   mark(3); touch(p + N pages, T); mark(4)   exactly T faults in the
 *                             thread, none in the (sleeping) main thread
 * and prints "pfcount: N + T pages".  A probe on mark() reading a
 * page-fault counter of the process sees it rise by exactly N from
 * mark(1) to mark(2) and by T from mark(3) to mark(4) (the thread's
 * faults count for the process), and touch()'s .return sees
 * @perf - @entry(@perf) = N, then T.  Errors: exit status 1. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((noinline, noipa, used)) void mark(long phase)
{
	__asm__ volatile("" : : "r"(phase) : "memory");
}

__attribute__((noinline, noipa, used)) long touch(volatile char *p, long n)
{
	long i;

	for (i = 0; i < n; i++)
		p[i * 4096] = 1;
	return n;
}

static volatile char *pages;
static long npages, tpages;
static pid_t main_tid;

/* main_sleeps - is the main thread asleep (state S in its stat)? */
static int main_sleeps(void)
{
	char path[64], buf[256], *s;
	FILE *f;
	int sleeping = 0;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)main_tid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (s = strrchr(buf, ')')))
		sleeping = s[1] == ' ' && s[2] == 'S';
	fclose(f);
	return sleeping;
}

static void *thread_fn(void *arg)
{
	(void)arg;
	while (!main_sleeps())
		usleep(1000);
	mark(3);
	touch(pages + npages * 4096, tpages);
	mark(4);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	struct stat st;

	if (argc < 3 || argc > 4 || (npages = atol(argv[1])) < 0 ||
	    (tpages = atol(argv[2])) < 0) {
		fprintf(stderr, "usage: pfcount N T [GATE]\n");
		return 1;
	}
	main_tid = (pid_t)syscall(SYS_gettid);
	pages = mmap(NULL, (npages + tpages + 1) * 4096,
		     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED ||
	    madvise((void *)pages, (npages + tpages + 1) * 4096,
		    MADV_NOHUGEPAGE)) {
		perror("pfcount: mmap");
		return 1;
	}
	mark(0);
	touch(pages, 0);
	while (argc == 4 && stat(argv[3], &st) != 0) {
		mark(5);
		usleep(10000);
	}
	mark(1);
	touch(pages, npages);
	mark(2);
	if (pthread_create(&t, NULL, thread_fn, NULL) ||
	    pthread_join(t, NULL)) {
		fprintf(stderr, "pfcount: thread failed\n");
		return 1;
	}
	printf("pfcount: %ld + %ld pages\n", npages, tpages);
	return 0;
}
