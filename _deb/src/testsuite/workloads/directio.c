/* directio: known amounts of block-device and page-cache I/O.
 *
 * Usage: directio write PATH K B    K O_DIRECT pwrite()s of B bytes
 *        directio dread PATH K B    K O_DIRECT pread()s of B bytes
 *        directio read PATH K B     K buffered pread()s of B bytes
 *
 * Call i (0 <= i < K) transfers bytes [i*B, (i+1)*B) of PATH, a block
 * device (e.g. /dev/ram0 from `insmod brd.ko`) or a file on one; PATH must
 * already exist and hold K*B bytes.  B must be a multiple of 4096 (the
 * buffer is 4096-aligned, as O_DIRECT needs).  An O_DIRECT call reaches
 * the device as one or more bios of B bytes in all; a buffered read of
 * data already in the page cache (read once before by another process)
 * never reaches the device.  Prints "MODE calls=K bytes=K*B" (what it
 * did); errors go to stderr with exit status 1. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long k, b, i, bytes = 0;
	int fd, flags, writing;
	char *buf;
	ssize_t n;

	if (argc != 5) {
		fprintf(stderr, "usage: directio write|dread|read PATH K B\n");
		return 1;
	}
	k = strtol(argv[3], NULL, 10);
	b = strtol(argv[4], NULL, 10);
	if (k <= 0 || b <= 0 || b % 4096) {
		fprintf(stderr, "directio: K > 0 and B a multiple of 4096 needed\n");
		return 1;
	}
	writing = strcmp(argv[1], "write") == 0;
	if (writing)
		flags = O_WRONLY | O_DIRECT;
	else if (strcmp(argv[1], "dread") == 0)
		flags = O_RDONLY | O_DIRECT;
	else if (strcmp(argv[1], "read") == 0)
		flags = O_RDONLY;
	else {
		fprintf(stderr, "directio: unknown mode %s\n", argv[1]);
		return 1;
	}
	if (posix_memalign((void **)&buf, 4096, b)) {
		fprintf(stderr, "directio: out of memory\n");
		return 1;
	}
	memset(buf, 'd', b);
	fd = open(argv[2], flags);
	if (fd < 0) {
		perror(argv[2]);
		return 1;
	}
	for (i = 0; i < k; i++) {
		if (writing)
			n = pwrite(fd, buf, b, i * b);
		else
			n = pread(fd, buf, b, i * b);
		if (n != b) {
			fprintf(stderr, "directio: call %ld transferred %zd of %ld bytes\n",
				i, n, b);
			return 1;
		}
		bytes += n;
	}
	if (close(fd)) {
		perror("close");
		return 1;
	}
	printf("%s calls=%ld bytes=%ld\n", argv[1], k, bytes);
	return 0;
}
