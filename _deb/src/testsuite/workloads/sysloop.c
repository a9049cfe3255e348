/* sysloop: make known numbers of system calls, for the syscall tapset tests.
 *
 * Usage: sysloop [GETPPIDS [EXECS [OPENS]]]     (defaults 100 3 6)
 *        sysloop child I                        (what each exec runs)
 *
 * In this order:
 *   - creates /tmp/sysloop.present (one open(2), not openat, with O_CREAT,
 *     then close), and removes /tmp/sysloop.absent;
 *   - calls getppid() GETPPIDS times (raw syscalls, nothing cached);
 *   - EXECS times: fork(), and the child execve()s this program (argv[0])
 *     as `sysloop child I` (which exits at once); the parent waits;
 *   - calls openat(AT_FDCWD, PATH, O_RDONLY) OPENS times, PATH alternating
 *     /tmp/sysloop.present (even I) and /tmp/sysloop.absent (odd I),
 *     printing "open I PATH: ok" or "open I PATH: ENAME" for each;
 *   - removes /tmp/sysloop.present and prints "done".
 * Errors go to stderr, exit status 1.  */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const paths[2] = { "/tmp/sysloop.present", "/tmp/sysloop.absent" };

/* errname - the symbolic name of the errors the tests provoke */
static const char *errname(int e)
{
	static char buf[32];

	switch (e) {
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case EIO: return "EIO";
	case ENOMEM: return "ENOMEM";
	}
	snprintf(buf, sizeof buf, "errno %d", e);
	return buf;
}

static long count(const char *s)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || n < 0) {
		fprintf(stderr, "sysloop: bad count '%s'\n", s);
		exit(1);
	}
	return n;
}

int main(int argc, char **argv)
{
	long getppids = 100, execs = 3, opens = 6, i;
	int fd;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return 0;
	if (argc > 1)
		getppids = count(argv[1]);
	if (argc > 2)
		execs = count(argv[2]);
	if (argc > 3)
		opens = count(argv[3]);

	fd = syscall(SYS_open, paths[0], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror("sysloop: create /tmp/sysloop.present");
		return 1;
	}
	close(fd);
	unlink(paths[1]);

	for (i = 0; i < getppids; i++)
		syscall(SYS_getppid);

	for (i = 0; i < execs; i++) {
		/* the child's arguments on the stack, not in .rodata: a
		 * forked child has no page table entries for file-backed
		 * pages yet, and probes (which cannot take page faults)
		 * would not be able to read them at its execve */
		char num[24], child[] = "child";
		char *cargv[] = { argv[0], child, num, NULL };
		int status;
		pid_t pid;

		snprintf(num, sizeof num, "%ld", i);
		pid = fork();
		if (pid < 0) {
			perror("sysloop: fork");
			return 1;
		}
		if (pid == 0) {
			execv(argv[0], cargv);
			perror("sysloop: exec");
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			fprintf(stderr, "sysloop: child %ld failed\n", i);
			return 1;
		}
	}

	for (i = 0; i < opens; i++) {
		const char *p = paths[i % 2];

		fd = openat(AT_FDCWD, p, O_RDONLY);
		if (fd >= 0) {
			printf("open %ld %s: ok\n", i, p);
			close(fd);
		} else {
			printf("open %ld %s: %s\n", i, p, errname(errno));
		}
	}
	unlink(paths[0]);
	printf("done\n");
	return 0;
}
