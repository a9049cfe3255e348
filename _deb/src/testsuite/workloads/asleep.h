/* asleep.h - wait until another task sleeps in a given system call.
 *
 * A workload that needs another task to be blocked (the child it is about
 * to signal, the shell waiting for it) before it goes on includes this. */
#ifndef ASLEEP_H
#define ASLEEP_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/types.h>
#include <unistd.h>

/* proc_read - read up to @size - 1 bytes of /proc/@pid/@file into @buf,
 * NUL-terminated, with one read(2); returns 0, or -1 (no such task). */
static int proc_read(pid_t pid, const char *file, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* asleep_in - wait until task @pid sleeps in system call @nr or @nr2
 * (-1: none): its /proc/PID/syscall, which the kernel fills in only for a
 * task off its CPU, starts with that number, and its /proc/PID/stat state
 * is S.  Polls every 100 us with read(2) of 255 bytes at most; returns 0,
 * or -1 after 300000 polls (30 s and more) with "@pid never slept in
 * @what" on stderr. */
static int asleep_in(pid_t pid, long nr, long nr2, const char *what)
{
	char buf[256], *p;
	long i, got;

	for (i = 0; i < 300000; i++, usleep(100)) {
		if (proc_read(pid, "syscall", buf, sizeof(buf)))
			continue;
		got = strtol(buf, &p, 10);
		if (p == buf || *p != ' ' || (got != nr && got != nr2))
			continue;
		/* "PID (COMM) STATE ...": COMM may hold ") " */
		if (!proc_read(pid, "stat", buf, sizeof(buf)) &&
		    (p = strrchr(buf, ')')) && p[1] == ' ' && p[2] == 'S')
			return 0;
	}
	fprintf(stderr, "%d never slept in %s\n", (int)pid, what);
	return -1;
}
#endif
