/* spawner: fork exactly N children (default 10), each of which execs this
 * program again (by its path, so that the new comm is "spawner" again)
 * with the argument "child" and exits 0 at once.
 *
 * Usage: spawner [N]
 *
 * The lab tests count, for the processes named "spawner": N forks
 * (sched_process_fork runs in the parent) and N + 1 execs (the children's
 * and the shell's exec of spawner itself).  The parent waits for every
 * child in turn, so the children never overlap.  Prints nothing; errors
 * go to stderr with exit status 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n, i;
	int status;
	char self[4096];
	ssize_t len;

	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return 0;
	n = argc > 1 ? strtol(argv[1], NULL, 10) : 10;
	if (n < 0) {
		fprintf(stderr, "spawner: bad count %s\n", argv[1]);
		return 1;
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0) {
		perror("spawner: /proc/self/exe");
		return 1;
	}
	self[len] = 0;
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("spawner: fork");
			return 1;
		}
		if (pid == 0) {
			execl(self, "spawner", "child", (char *)NULL);
			perror("spawner: exec");
			_exit(1);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			fprintf(stderr, "spawner: child %ld failed\n", i);
			return 1;
		}
	}
	return 0;
}
