/* vecio: a known number of vectored reads and writes of a file.
 *
 * Usage: vecio NAME K N S
 *
 * Creates /tmp/NAME, makes K writev() calls of N buffers of S bytes each
 * (call i writes bytes [i*N*S, (i+1)*N*S)), seeks to the start and makes
 * K readv() calls of the same shape, each returning N*S bytes.  N is at
 * most 64, S at most 4096.  Removes the file and prints
 * "writev=K readv=K bytes=B" (B: the bytes each side moved); errors go to
 * stderr with exit status 1. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char bufs[64][4096];
	struct iovec iov[64];
	long k, n, s, i, wbytes = 0, rbytes = 0;
	char path[256];
	int fd;

	if (argc != 5) {
		fprintf(stderr, "usage: vecio NAME K N S\n");
		return 1;
	}
	k = strtol(argv[2], NULL, 10);
	n = strtol(argv[3], NULL, 10);
	s = strtol(argv[4], NULL, 10);
	if (k < 0 || n < 1 || n > 64 || s < 1 || s > 4096) {
		fprintf(stderr, "vecio: K >= 0, N in 1..64, S in 1..4096\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		memset(bufs[i], 'a' + i % 26, s);
		iov[i].iov_base = bufs[i];
		iov[i].iov_len = s;
	}
	snprintf(path, sizeof(path), "/tmp/%s", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		perror("vecio: open");
		return 1;
	}
	for (i = 0; i < k; i++) {
		ssize_t w = writev(fd, iov, n);
		if (w != n * s) {
			fprintf(stderr, "vecio: short writev %zd\n", w);
			return 1;
		}
		wbytes += w;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		perror("vecio: lseek");
		return 1;
	}
	for (i = 0; i < k; i++) {
		ssize_t r = readv(fd, iov, n);
		if (r != n * s) {
			fprintf(stderr, "vecio: short readv %zd\n", r);
			return 1;
		}
		rbytes += r;
	}
	close(fd);
	unlink(path);
	if (wbytes != rbytes) {
		fprintf(stderr, "vecio: wrote %ld, read %ld\n", wbytes, rbytes);
		return 1;
	}
	printf("writev=%ld readv=%ld bytes=%ld\n", k, k, wbytes);
	return 0;
}
