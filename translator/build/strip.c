/* strip.c - the module without its debugging information.
 *
 * The runtime's DWARF and its relocations are some 1.8 MB of every
 * module, more than a whole-kernel probe set's tables: the kernel never
 * loads them, the module cache keeps them for nobody, and modules get
 * copied to every machine of a fleet.  Stripped as distributions strip
 * their kernels' modules (objcopy --strip-debug); -k keeps the build
 * directory with the unstripped objects. */
#include "build.h"
#include "util.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>

int strip_module(const char *ko)
{
	char *argv[] = { "objcopy", "--strip-debug", (char *)ko, NULL };
	extern char **environ;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc;
	if (posix_spawn_file_actions_init(&fa) != 0)
		return -1;
	rc = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY,
					       0) ||
	     posix_spawn_file_actions_adddup2(&fa, 1, 2) ||
	     posix_spawnp(&pid, "objcopy", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0) {
		if (stp_verbose)
			fprintf(stderr, "stap: objcopy --strip-debug %s failed: "
				"the module keeps its debug information\n", ko);
		return -1;
	}
	return 0;
}
