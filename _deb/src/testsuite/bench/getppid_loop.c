/* getppid_loop - time N raw getppid() system calls, R rounds; print the
 * median cost per call in nanoseconds ("ns_per_call=X").
 * Usage: getppid_loop [N [R [read]]]   (default 200000 calls, 5 rounds)
 * With "read" the calls are 1-byte read()s of /dev/zero (one vfs_read
 * each) instead.  A raw syscall(2) keeps libc from caching anything. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "timing.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000, i;
	int r = argc > 2 ? atoi(argv[2]) : 5, k;
	int rd = argc > 3 && !strcmp(argv[3], "read");
	int fd = rd ? open("/dev/zero", O_RDONLY) : -1;
	double v[64];
	char c;
	if (n <= 0 || r <= 0 || r > 64 || (argc > 3 && !rd)) {
		fprintf(stderr, "usage: getppid_loop [N [ROUNDS<=64 [read]]]\n");
		return 2;
	}
	if (rd && fd < 0) {
		perror("getppid_loop: /dev/zero");
		return 1;
	}
	for (k = 0; k < r; k++) {
		double t = now_ns();
		for (i = 0; i < n; i++)
			if (rd)
				syscall(SYS_read, fd, &c, 1);
			else
				syscall(SYS_getppid);
		v[k] = (now_ns() - t) / n;
	}
	printf("ns_per_call=%.0f\n", median(v, r));
	return 0;
}
