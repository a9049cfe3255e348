/* ptyrun: run a command with a terminal, as script(1) does.
 *
 * Usage: ptyrun CMD [ARG]...
 *
 * Runs CMD in a new session whose standard input, output and error are
 * the slave of a new pseudo-terminal (so that isatty(2) is true in it),
 * copies everything it writes there to ptyrun's standard output (with
 * the terminal's output processing: "\n" becomes "\r\n"), and exits with
 * CMD's exit status (128 + N when signal N ended it).  For tests of what
 * a program prints only on a terminal (progress lines). */
#define _GNU_SOURCE
#include <errno.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[4096];
	int master, st;
	ssize_t n;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: ptyrun CMD [ARG]...\n");
		return 2;
	}
	pid = forkpty(&master, NULL, NULL, NULL);
	if (pid < 0) {
		perror("forkpty");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	/* until the slave's last holder is gone: EIO */
	while ((n = read(master, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (fwrite(buf, 1, n, stdout) != (size_t)n)
			return 1;
	}
	fflush(stdout);
	if (waitpid(pid, &st, 0) < 0) {
		perror("waitpid");
		return 1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
