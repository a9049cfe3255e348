/* reader: make exactly N read() calls (default 1000) on a regular file.
 *
 * Usage: reader [N]
 *
 * Creates a 4096-byte file in /tmp, then calls read(fd, buf, 1) N times,
 * seeking back to the start after each read, removes the file, and prints
 * nothing (errors go to stderr, exit status 1).  The lab tests count the
 * vfs_read calls made by the process named "reader".  */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	char path[64], block[4096], c;
	int fd;

	if (n < 0) {
		fprintf(stderr, "reader: bad count %s\n", argv[1]);
		return 1;
	}
	snprintf(path, sizeof path, "/tmp/reader.%ld", (long)getpid());
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		perror("reader: open");
		return 1;
	}
	unlink(path);
	memset(block, 'r', sizeof block);
	if (write(fd, block, sizeof block) != (ssize_t)sizeof block) {
		perror("reader: write");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		if (lseek(fd, 0, SEEK_SET) != 0) {
			perror("reader: lseek");
			return 1;
		}
		if (read(fd, &c, 1) != 1) {
			perror("reader: read");
			return 1;
		}
	}
	close(fd);
	return 0;
}
