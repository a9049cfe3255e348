/* pagetouch: fault in exactly N pages of anonymous memory at a known address.
 *
 * Usage: pagetouch N
 *
 * Maps N pages (4096 bytes each) of private anonymous memory at the fixed
 * address 0x200000000 (MAP_FIXED_NOREPLACE), writes one byte to each page
 * in turn (one write fault per page, in user mode), reads them back (no
 * more faults), and unmaps them.  Prints "pages=N sum=S"; errors go to
 * stderr with exit status 1. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define BASE ((void *)0x200000000UL)

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 0, i, sum = 0;
	volatile char *p;

	if (n <= 0) {
		fprintf(stderr, "usage: pagetouch N  (N > 0)\n");
		return 1;
	}
	p = mmap(BASE, n * 4096, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != BASE) {
		perror("pagetouch: mmap");
		return 1;
	}
	for (i = 0; i < n; i++)
		p[i * 4096] = 1;
	for (i = 0; i < n; i++)
		sum += p[i * 4096];
	if (munmap((void *)p, n * 4096)) {
		perror("pagetouch: munmap");
		return 1;
	}
	printf("pages=%ld sum=%ld\n", n, sum);
	return 0;
}
