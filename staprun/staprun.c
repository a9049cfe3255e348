/* staprun - insert a probe module, run stapio on it, remove it.
 *
 *   staprun [-v] [-o FILE] MODULE.ko [name=value ...]
 *
 * Inserts MODULE.ko (finit_module, falling back to init_module) with the
 * given module parameters, runs stapio (PKGLIBEXECDIR "/stapio", or $STAPIO)
 * on it, forwards SIGINT/SIGTERM/SIGHUP to stapio, waits for it, then
 * always removes the module.  Exits with stapio's status (1 if it was
 * killed or anything else failed).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <signal.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <sys/syscall.h>

#ifndef PKGLIBEXECDIR
#define PKGLIBEXECDIR "/usr/local/libexec/systemtap"
#endif

static volatile pid_t child = -1;
static int verbose;

static void forward_signal(int sig)
{
	if (child > 0)
		kill(child, sig);
}

/* The kernel's name for MODULE.ko: the base name without ".ko", with '-'
 * turned into '_' as kbuild does. */
static char *module_name(const char *path)
{
	const char *b = strrchr(path, '/');
	char *name, *p;
	size_t n;

	b = b ? b + 1 : path;
	name = strdup(b);
	if (!name)
		return NULL;
	n = strlen(name);
	if (n > 3 && strcmp(name + n - 3, ".ko") == 0)
		name[n - 3] = '\0';
	for (p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

static int insert_module(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -errno;
	rc = syscall(SYS_finit_module, fd, params, 0);
	if (rc != 0 && (errno == ENOSYS || errno == EOPNOTSUPP)) {
		struct stat st;
		char *img;
		ssize_t got = 0;

		if (fstat(fd, &st) != 0)
			goto fail;
		img = malloc(st.st_size ? st.st_size : 1);
		if (!img)
			goto fail;
		while (got < st.st_size) {
			ssize_t n = read(fd, img + got, st.st_size - got);

			if (n <= 0) {
				free(img);
				if (n == 0)
					errno = EIO;
				goto fail;
			}
			got += n;
		}
		rc = syscall(SYS_init_module, img, (unsigned long)st.st_size,
			     params);
		free(img);
	}
	if (rc != 0)
		goto fail;
	close(fd);
	return 0;
fail:
	rc = -errno;
	close(fd);
	return rc;
}

/* Remove @name, retrying while it is still busy (stapio's files closing).
 * Returns 0 or -errno; -ENOENT when it was not loaded. */
static int remove_module(const char *name)
{
	int i;

	for (i = 0; i < 100; i++) {
		struct timespec ts = { 0, 50 * 1000 * 1000 };

		if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0)
			return 0;
		if (errno != EAGAIN && errno != EBUSY && errno != EINTR)
			return -errno;
		nanosleep(&ts, NULL);
	}
	return -errno;
}

/* stapio needs debugfs at /sys/kernel/debug: mount it when it is not. */
static void ensure_debugfs(void)
{
	struct statfs sfs;

	if (statfs("/sys/kernel/debug", &sfs) == 0 &&
	    sfs.f_type == 0x64626720 /* DEBUGFS_MAGIC */)
		return;
	if (mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) != 0 &&
	    verbose)
		fprintf(stderr, "staprun: mounting debugfs failed: %s\n",
			strerror(errno));
}

static void usage(void)
{
	fprintf(stderr, "usage: staprun [-v] [-o FILE] MODULE.ko [name=value ...]\n");
	exit(1);
}

int main(int argc, char **argv)
{
	const char *outfile = NULL, *stapio, *kopath;
	char *name, *params;
	size_t plen = 1;
	struct sigaction sa;
	int opt, i, rc, status, ret = 1;

	while ((opt = getopt(argc, argv, "+vo:")) != -1) {
		switch (opt) {
		case 'v':
			verbose++;
			break;
		case 'o':
			outfile = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	kopath = argv[optind++];
	name = module_name(kopath);
	for (i = optind; i < argc; i++)
		plen += strlen(argv[i]) + 1;
	params = calloc(1, plen);
	if (!name || !params) {
		fprintf(stderr, "staprun: out of memory\n");
		return 1;
	}
	for (i = optind; i < argc; i++) {
		if (!strchr(argv[i], '=')) {
			fprintf(stderr, "staprun: bad module parameter '%s' (want name=value)\n",
				argv[i]);
			return 1;
		}
		if (i > optind)
			strcat(params, " ");
		strcat(params, argv[i]);
	}

	/* Forward signals to stapio from before it exists: a signal that
	 * arrives before the fork is delivered to it by the handler below as
	 * soon as child is set (stapio handles them itself too). */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	ensure_debugfs();
	if (verbose)
		fprintf(stderr, "staprun: inserting %s as %s\n", kopath, name);
	rc = insert_module(kopath, params);
	if (rc) {
		fprintf(stderr, "staprun: inserting module failed: %s\n",
			strerror(-rc));
		/* a module of that name left over by an earlier run goes too
		 * (not one in use: removal does not wait or force) */
		if (rc == -EEXIST && remove_module(name) == 0)
			fprintf(stderr, "staprun: removed a stale module %s\n", name);
		return 1;
	}

	stapio = getenv("STAPIO");
	if (!stapio || !*stapio)
		stapio = PKGLIBEXECDIR "/stapio";
	child = fork();
	if (child < 0) {
		fprintf(stderr, "staprun: fork failed: %s\n", strerror(errno));
	} else if (child == 0) {
		const char *args[8];
		int n = 0;

		args[n++] = "stapio";
		if (verbose)
			args[n++] = "-v";
		if (outfile) {
			args[n++] = "-o";
			args[n++] = outfile;
		}
		args[n++] = name;
		args[n] = NULL;
		execv(stapio, (char **)args);
		fprintf(stderr, "staprun: running %s failed: %s\n", stapio,
			strerror(errno));
		_exit(127);
	} else {
		pid_t w;

		do
			w = waitpid(child, &status, 0);
		while (w < 0 && errno == EINTR);
		if (w < 0)
			fprintf(stderr, "staprun: waiting for stapio failed: %s\n",
				strerror(errno));
		else if (WIFEXITED(status))
			ret = WEXITSTATUS(status);
		else if (WIFSIGNALED(status))
			fprintf(stderr, "staprun: stapio killed by signal %d\n",
				WTERMSIG(status));
		child = -1;
	}

	if (verbose)
		fprintf(stderr, "staprun: removing %s\n", name);
	rc = remove_module(name);
	if (rc) {
		fprintf(stderr, "staprun: removing module failed: %s\n",
			strerror(-rc));
		ret = 1;
	}
	return ret;
}
