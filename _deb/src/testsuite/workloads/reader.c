/* reader: make exactly N read() calls (default 1000) on a regular file.
 *
 * Usage: reader [N [waitparent]]
 *
 * Creates a 4096-byte file in /tmp, then calls read(fd, buf, 1) N times,
 * seeking back to the start after each read, removes the file, and prints
 * nothing (errors go to stderr, exit status 1).  The lab tests count the
 * vfs_read calls made by the process named "reader".
 *
 * With "waitparent", it first waits until its parent (the shell that ran
 * it) sleeps in wait4(2) or waitid(2), polling /proc with reads of 255
 * bytes; the parent then stays asleep through the N reads of 1 byte. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "asleep.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	char path[64], block[4096], c;
	int fd;

	if (n < 0) {
		fprintf(stderr, "reader: bad count %s\n", argv[1]);
		return 1;
	}
	if (argc > 2 && strcmp(argv[2], "waitparent") == 0 &&
	    asleep_in(getppid(), SYS_wait4, SYS_waitid, "wait4 or waitid"))
		return 1;
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
