/* chunkread: read a file of known size N times in chunks of M bytes.
 *
 * Usage: chunkread NAME SIZE M N
 *
 * Creates /tmp/NAME holding SIZE bytes, then N times: seeks to the start
 * and makes exactly SIZE/M read(fd, buf, M) calls (no read at end of file),
 * so the process makes N*(SIZE/M) reads of the file, returning M bytes
 * each.  SIZE must be a multiple of M, M at most 65536.  Removes the file
 * and prints "reads=R bytes=B" (what it did); errors go to stderr with
 * exit status 1. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[65536];
	long size, m, n, i, j, reads = 0, bytes = 0;
	char path[256];
	int fd;

	if (argc != 5) {
		fprintf(stderr, "usage: chunkread NAME SIZE M N\n");
		return 1;
	}
	size = strtol(argv[2], NULL, 10);
	m = strtol(argv[3], NULL, 10);
	n = strtol(argv[4], NULL, 10);
	if (size <= 0 || m <= 0 || m > (long)sizeof(buf) || size % m || n < 0) {
		fprintf(stderr, "chunkread: SIZE must be a positive multiple of "
			"M (1..65536), N >= 0\n");
		return 1;
	}
	snprintf(path, sizeof(path), "/tmp/%s", argv[1]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		perror("chunkread: open");
		return 1;
	}
	memset(buf, 'x', sizeof(buf));
	for (i = 0; i < size; i += m)
		if (write(fd, buf, m) != m) {
			perror("chunkread: write");
			return 1;
		}
	for (j = 0; j < n; j++) {
		if (lseek(fd, 0, SEEK_SET) != 0) {
			perror("chunkread: lseek");
			return 1;
		}
		for (i = 0; i < size / m; i++) {
			ssize_t r = read(fd, buf, m);
			if (r != m) {
				fprintf(stderr, "chunkread: short read %zd\n", r);
				return 1;
			}
			reads++;
			bytes += r;
		}
	}
	close(fd);
	unlink(path);
	printf("reads=%ld bytes=%ld\n", reads, bytes);
	return 0;
}
