/* staprun - insert a probe module, run stapio on it, remove it.
 *
 *   staprun [options] MODULE.ko [name=value ...]
 *   staprun -A MODULE_NAME        attach to a module left running by -L
 *   staprun -d MODULE_NAME        end (end probes run) and remove a module
 *
 * Options (see man/staprun.8):
 *   -v          verbose (repeatable)
 *   -o FILE     the script's output goes to FILE
 *   -S MB[,N]   with -o: switch to FILE.1, FILE.2, ... every MB megabytes,
 *               keeping at most N files
 *   -b          bulk mode: each CPU's output to FILE_cpuN (FILE: -o, or
 *               "stpd"), unmerged
 *   -s MB       relay buffer size per CPU in MB (module parameter
 *               stp_bufsize)
 *   -c CMD      run CMD (sh -c) once the probes are up; target() is its
 *               pid; the run ends when it exits
 *   -x PID      target() is PID
 *   -R          insert under a name unique to this run: <name>_<pid>
 *   -D          run in the background (needs -o); prints the module name
 *   -L          load, start the probes and leave the module running
 *               without a reader (attach later with -A); prints its name
 *   -F          flight recorder: relay buffers overwrite their oldest
 *               output; with -o like -D, else like -L
 *   -T MS       the longest time output waits for a record still in
 *               flight on another CPU (default 500)
 *   -V          print the version and exit
 *   -w          no warnings from the script (its WARNING: messages)
 *   -C WHEN     color "ERROR:" and "WARNING:" of the messages: always,
 *               auto (default: stderr is a terminal), never; colors from
 *               SYSTEMTAP_COLORS (staprun/colors.c)
 *
 * Privilege (man/staprun.8, "WHO MAY LOAD WHAT"): installed setuid root,
 * staprun first decides from the caller's real uid and groups
 * (privilege.c): root and stapdev load anything; stapsys and stapusr only
 * a module of their level or below that is signed by a trusted signer or
 * placed by root under /lib/modules/KVER/systemtap/ (verify.c); anyone
 * else is refused.  It then runs as the caller, taking root back only to
 * mount debugfs and to insert and remove the module; stapio (started with
 * root as its effective uid) likewise only to open the module's files and
 * remove it.
 *
 * Lifetime: stapio (PKGLIBEXECDIR "/stapio", or $STAPIO) is started
 * before the insertion and waits for a word on a pipe (-w): if staprun
 * dies before it comes, stapio removes the module.  stapio owns the
 * control channel; it removes the module when it ends.  staprun forwards
 * SIGINT/SIGTERM/SIGHUP to it, and stapio is sent SIGTERM when staprun
 * dies (even by SIGKILL: PR_SET_PDEATHSIG), so the run ends cleanly.  If
 * stapio dies, the module stops probing as its control channel closes and
 * staprun removes it.  Exit status: stapio's (0 for a clean run, also
 * after SIGINT/SIGTERM), 1 when anything failed (with a message).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "modops.h"
#include "privilege.h"
#include "verify.h"
#include "colors.h"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>

#ifndef PKGLIBEXECDIR
#define PKGLIBEXECDIR "/usr/local/libexec/systemtap"
#endif

static volatile pid_t child = -1;
static volatile sig_atomic_t pending_sig;
static int verbose;

static void forward_signal(int sig)
{
	if (child > 0)
		kill(child, sig);
	else
		pending_sig = sig;
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
	fprintf(stderr,
		"usage: staprun [-v] [-V] [-w] [-o FILE] [-S MB[,N]] [-b] [-s MB] [-c CMD | -x PID]\n"
		"               [-N PID] [-R] [-D | -L] [-F] [-T MS] [-C WHEN]\n"
		"               MODULE.ko [name=value ...]\n"
		"       staprun -A MODULE_NAME     attach to a module started with -L\n"
		"       staprun -d MODULE_NAME     end and remove a module\n");
	exit(1);
}

struct opts {
	const char *outfile, *size_spec, *cmd, *target, *timeout;
	const char *ns_pid;   /* -N PID: the ns_*() functions' namespaces */
	const char *color;    /* -C WHEN, for stapio */
	int bulk, rename, detach, load_only, flight, attach, remove;
	int no_warnings;      /* -w */
	long bufsize_mb;
};

/* add_param - append "name=value" to the parameter string *@p. */
static int add_param(char **p, const char *kv)
{
	size_t n = *p ? strlen(*p) : 0;
	char *q = realloc(*p, n + strlen(kv) + 2);

	if (!q)
		return -1;
	if (n)
		q[n++] = ' ';
	strcpy(q + n, kv);
	*p = q;
	return 0;
}

/* insert - insert @img (@len bytes, read from @kopath) under @name,
 * patching the name first when it differs from the module's own name
 * @own.  Returns 0 or 1 (message printed). */
static int insert(const char *kopath, int fd, void *img, size_t len,
		  const char *own, const char *name, const char *params)
{
	int rc;

	if (verbose)
		fprintf(stderr, "staprun: inserting %s as %s\n", kopath, name);
	if (strcmp(name, own)) {
		rc = mod_rename(img, len, own, name);
		if (rc) {
			fprintf(stderr, "staprun: cannot rename %s to %s: %s\n",
				kopath, name, rc == -ENOEXEC ?
				"its module name was not found in it" : strerror(-rc));
			return 1;
		}
	}
	/* the bytes checked are the bytes inserted: from the descriptor
	 * opened once (finit_module) when nothing was checked or patched,
	 * else from the image read through it */
	priv_raise();
	if (fd >= 0 && !strcmp(name, own))
		rc = mod_insert_fd(fd, params);
	else
		rc = mod_insert_image(img, len, params);
	priv_drop();
	if (rc) {
		fprintf(stderr, "staprun: inserting module %s failed: %s\n", name,
			strerror(-rc));
		if (rc == -EEXIST)
			fprintf(stderr, "staprun: a module named %s is already "
				"loaded (use -R for a name of this run's own, or "
				"staprun -d %s)\n", name, name);
		return 1;
	}
	return 0;
}

/* start_stapio - fork stapio with @args (NULL-terminated, args[0]
 * unused).  Returns 0, or 1 with a message. */
static int start_stapio(const char **args)
{
	const char *stapio = getenv("STAPIO");
	pid_t ppid = getpid();

	sigset_t ends, old;

	if (!stapio || !*stapio || getuid() != 0)
		stapio = PKGLIBEXECDIR "/stapio";
	/* A SIGINT/SIGTERM/SIGHUP forwarded to the child before stapio has
	 * its handlers would be lost (taken by our handler in the child,
	 * whose @child is 0, or fatal to stapio): the child starts with
	 * them blocked, pending signals survive execv(), and stapio
	 * unblocks them once it handles them. */
	sigemptyset(&ends);
	sigaddset(&ends, SIGINT);
	sigaddset(&ends, SIGTERM);
	sigaddset(&ends, SIGHUP);
	sigprocmask(SIG_BLOCK, &ends, &old);
	child = fork();
	if (child < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		fprintf(stderr, "staprun: fork failed: %s\n", strerror(errno));
		return 1;
	}
	if (child == 0) {
		/* staprun killed, even by SIGKILL: stapio ends the run */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != ppid)
			_exit(1);       /* before insertion: nothing to end */
		args[0] = "stapio";
		/* stapio starts as root (effective) with the caller's real
		 * uid, and drops to it at once (stapio.c) */
		priv_raise();
		execv(stapio, (char **)args);
		fprintf(stderr, "staprun: running %s failed: %s\n", stapio,
			strerror(errno));
		_exit(127);
	}
	/* test hook (lab test lifetime): a SIGINT in the window between
	 * the fork and stapio's handlers */
	if (getenv("STAPRUN_TEST_SIGNAL_AT_FORK"))
		raise(SIGINT);
	if (pending_sig)
		kill(child, pending_sig);
	sigprocmask(SIG_SETMASK, &old, NULL);   /* what came meanwhile: now */
	return 0;
}

/* wait_stapio - wait for the stapio started by start_stapio(); returns its
 * exit status, 1 if it was killed. */
static int wait_stapio(void)
{
	int status, ret = 1;
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
		fprintf(stderr, "staprun: stapio was killed by signal %d; the "
			"run ended without its end probes\n", WTERMSIG(status));
	child = -1;
	return ret;
}

static int run_stapio(const char **args)
{
	return start_stapio(args) ? 1 : wait_stapio();
}

/* daemonize - -D: continue in a new session in the background, stdin
 * and stdout on /dev/null.  The foreground process waits for the
 * background one to report the insertion through the returned pipe
 * (report_started()) and exits 0 when it succeeded, else 1. */
static int daemonize(void)
{
	int p[2], fd;
	pid_t pid;
	char c;

	if (pipe(p) != 0 || (pid = fork()) < 0) {
		fprintf(stderr, "staprun: cannot go to the background: %s\n",
			strerror(errno));
		exit(1);
	}
	if (pid > 0) {
		close(p[1]);
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(c == 'g' ? 0 : 1);
	}
	close(p[0]);
	setsid();
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		if (fd > 0)
			close(fd);
	}
	return p[1];
}

/* report_started - tell the -D foreground process (@fd >= 0) whether the
 * module is in (@ok), then put stdout on /dev/null. */
static void report_started(int fd, int ok)
{
	int nul;

	if (fd < 0)
		return;
	fflush(stdout);
	if (write(fd, ok ? "g" : "x", 1) != 1)
		perror("staprun");
	close(fd);
	nul = open("/dev/null", O_WRONLY);
	if (nul >= 0) {
		dup2(nul, 1);
		if (nul > 1)
			close(nul);
	}
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	const char *args[32];
	char *name, *fname, *params = NULL, buf[64];
	void *img;
	size_t len;
	int go[2], bg_fd = -1;
	char gofd[16];
	struct sigaction sa;
	int opt, i, n = 1, ret, level, mlevel, fd = -1, checked = 0;
	char *mpriv, *mid, kid[2 * 64 + 1];

	/* who may load what: decided first, from the real uid and groups */
	level = priv_caller_level();
	if (level == PRIV_NONE) {
		fprintf(stderr, "staprun: uid %d is neither root nor in the group "
			"stapusr, stapsys or stapdev: it may not load systemtap "
			"modules\n", (int)getuid());
		return 1;
	}
	if (priv_setuid()) {
		priv_sanitize_env();
		if (priv_drop() != 0) {
			fprintf(stderr, "staprun: cannot drop root: %s\n",
				strerror(errno));
			return 1;
		}
	}

	while ((opt = getopt(argc, argv, "+vVwo:S:bs:c:x:N:RDLFT:AduC:")) != -1) {
		switch (opt) {
		case 'v': verbose++; break;
		case 'V':
			printf("staprun %s, systemtap-ng's module loader\n",
			       PACKAGE_VERSION);
			return 0;
		case 'w': o.no_warnings = 1; break;
		case 'o': o.outfile = optarg; break;
		case 'S': o.size_spec = optarg; break;
		case 'b': o.bulk = 1; break;
		case 's':
			o.bufsize_mb = strtol(optarg, NULL, 10);
			if (o.bufsize_mb < 1 || o.bufsize_mb > 4095) {
				fprintf(stderr, "staprun: -s takes 1 to 4095 (MB)\n");
				return 1;
			}
			break;
		case 'c': o.cmd = optarg; break;
		case 'x': o.target = optarg; break;
		case 'N': o.ns_pid = optarg; break;
		case 'R': o.rename = 1; break;
		case 'D': o.detach = 1; break;
		case 'L': o.load_only = 1; break;
		case 'F': o.flight = 1; break;
		case 'T': o.timeout = optarg; break;
		case 'A': o.attach = 1; break;
		case 'd': o.remove = 1; break;
		case 'u': break;
		case 'C':
			if (!colors_valid_when(optarg)) {
				fprintf(stderr, "staprun: -C takes always, auto or "
					"never, not '%s'\n", optarg);
				return 1;
			}
			o.color = optarg;
			break;
		default: usage();
		}
	}
	if (optind >= argc)
		usage();
	if (o.cmd && o.target) {
		fprintf(stderr, "staprun: -c and -x exclude each other\n");
		return 1;
	}
	if (o.flight) {
		if (o.outfile)
			o.detach = 1;
		else
			o.load_only = 1;
	}
	if (o.detach && !o.outfile) {
		fprintf(stderr, "staprun: -D needs -o FILE\n");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	priv_raise();
	ensure_debugfs();
	priv_drop();

	/* stapio's options */
	if (verbose)
		args[n++] = "-v";
	if (o.outfile) {
		args[n++] = "-o";
		args[n++] = o.outfile;
	}
	if (o.size_spec) {
		args[n++] = "-S";
		args[n++] = o.size_spec;
	}
	if (o.bulk)
		args[n++] = "-b";
	if (o.timeout) {
		args[n++] = "-T";
		args[n++] = o.timeout;
	}
	if (o.color) {
		args[n++] = "-C";
		args[n++] = o.color;
	}
	if (o.no_warnings)
		args[n++] = "-q";

	/* below stapdev a run ends with its module removed: no attaching,
	 * removing others' modules, or leaving one loaded without a reader */
	if ((o.attach || o.remove || o.load_only) && level < PRIV_STAPDEV) {
		fprintf(stderr, "staprun: -A, -d and -L need stapdev (you have "
			"%s)\n", priv_name(level));
		return 1;
	}
	if (o.attach || o.remove) {
		/* an existing module: stapio attaches, ends it (-d: at once)
		 * and removes it */
		args[n++] = "-A";
		if (o.remove)
			args[n++] = "-E";
		args[n++] = argv[optind];
		args[n] = NULL;
		return run_stapio(args);
	}

	/* opened once, as the caller; read, checked and inserted through
	 * this descriptor */
	fd = open(argv[optind], O_RDONLY | O_CLOEXEC);
	img = fd < 0 ? NULL : mod_read_fd(fd, &len);
	if (!img) {
		fprintf(stderr, "staprun: cannot read %s: %s\n", argv[optind],
			strerror(errno));
		return 1;
	}
	mpriv = mod_modinfo(img, len, "stap_privilege");
	mlevel = priv_module_level(mpriv);
	if (mlevel > level) {
		fprintf(stderr, "staprun: %s was built for privilege %s; you "
			"have %s (build it with stap --privilege=%s)\n",
			argv[optind], priv_name(mlevel), priv_name(level),
			priv_name(level));
		return 1;
	}
	/* a module holds addresses of one kernel build: refuse another
	 * build, even of the same release (a fleet of mixed kernels) */
	mid = mod_modinfo(img, len, "stap_kernel_build_id");
	if (mid && mod_kernel_build_id(kid, sizeof(kid)) == 0 && strcmp(mid, kid)) {
		fprintf(stderr, "staprun: %s was built for the kernel whose "
			"build-id is %s; this kernel's is %s (build it on this "
			"kernel, or with stap -r for this one's files)\n",
			argv[optind], mid, kid);
		return 1;
	}
	free(mid);
	if (level < PRIV_STAPDEV && !verify_blessed(fd)) {
		char *sgn;
		const char *why = NULL;

		if (asprintf(&sgn, "%s.sgn", argv[optind]) < 0)
			return 1;
		if (verify_signature(img, len, sgn, &why) != 0) {
			fprintf(stderr, "staprun: as %s you may load only a module "
				"signed by a trusted signer or placed by root in "
				"/lib/modules/KVER/systemtap/; %s is not: %s\n",
				priv_name(level), argv[optind], why);
			return 1;
		}
		free(sgn);
		checked = 1;
	}
	/* the name the module was built with (not the file's name) */
	fname = mod_name_of_image(img, len);
	if (!fname)
		fname = mod_name_of(argv[optind]);
	if (!fname)
		return 1;
	name = fname;
	if (o.rename) {
		/* <name>_<pid>, the name shortened to fit */
		char suffix[24];
		int keep;

		snprintf(suffix, sizeof(suffix), "_%d", (int)getpid());
		keep = STP_MODULE_NAME_MAX - (int)strlen(suffix);
		if (asprintf(&name, "%.*s%s", keep, fname, suffix) < 0)
			return 1;
	}
	for (i = optind + 1; i < argc; i++) {
		if (!strchr(argv[i], '=')) {
			fprintf(stderr, "staprun: bad module parameter '%s' "
				"(want name=value)\n", argv[i]);
			return 1;
		}
		/* the runtime's own parameters are staprun's to set */
		if (level < PRIV_STAPDEV && !strncmp(argv[i], "_stp_", 5)) {
			fprintf(stderr, "staprun: parameter '%s' is reserved\n",
				argv[i]);
			return 1;
		}
		add_param(&params, argv[i]);
	}
	/* a stapusr module's process probes fire only for the processes
	 * of the user who started it (runtime/uprobes.c) */
	if (mlevel == PRIV_STAPUSR) {
		snprintf(buf, sizeof(buf), "_stp_uid=%d", (int)getuid());
		add_param(&params, buf);
	}
	if (o.bufsize_mb) {
		snprintf(buf, sizeof(buf), "stp_bufsize=%ld", o.bufsize_mb << 20);
		add_param(&params, buf);
	}
	if (o.flight)
		add_param(&params, "stp_overwrite=1");
	if (o.ns_pid) {
		char proc[64];

		if (strspn(o.ns_pid, "0123456789") != strlen(o.ns_pid) ||
		    strlen(o.ns_pid) > 9 || atoi(o.ns_pid) <= 0) {
			fprintf(stderr, "staprun: -N takes a process id, not "
				"'%s'\n", o.ns_pid);
			return 1;
		}
		snprintf(proc, sizeof(proc), "/proc/%d", atoi(o.ns_pid));
		if (access(proc, F_OK) != 0) {
			fprintf(stderr, "staprun: -N %s: no process %s\n",
				o.ns_pid, o.ns_pid);
			return 1;
		}
		snprintf(buf, sizeof(buf), "_stp_namespaces_pid=%d",
			 atoi(o.ns_pid));
		add_param(&params, buf);
	}
	if (o.detach)
		bg_fd = daemonize();
	if (o.cmd) {
		args[n++] = "-c";
		args[n++] = o.cmd;
	}
	if (o.target) {
		args[n++] = "-x";
		args[n++] = o.target;
	}
	if (o.load_only)
		args[n++] = "-L";
	/* stapio starts before the insertion and waits for the word: if
	 * staprun dies in between (even by SIGKILL), the pipe's end tells it
	 * to remove the module, which is then loaded or not at all */
	if (pipe2(go, O_CLOEXEC) != 0) {
		fprintf(stderr, "staprun: pipe: %s\n", strerror(errno));
		return 1;
	}
	snprintf(gofd, sizeof(gofd), "%d", go[0]);
	args[n++] = "-w";
	args[n++] = gofd;
	args[n++] = name;
	args[n] = NULL;
	fcntl(go[0], F_SETFD, 0);         /* stapio inherits the read end */
	if (start_stapio(args)) {
		report_started(bg_fd, 0);
		return 1;
	}
	close(go[0]);
	if (insert(argv[optind], checked ? -1 : fd, img, len, fname, name,
		   params ? params : "")) {
		if (write(go[1], "x", 1) != 1)
			perror("staprun");
		close(go[1]);
		wait_stapio();
		report_started(bg_fd, 0);
		return 1;
	}
	free(img);
	close(fd);
	/* test hook (lab test lifetime): die in the window between the
	 * insertion and the word to stapio */
	if (getenv("STAPRUN_TEST_KILL_AFTER_INSERT"))
		raise(SIGKILL);
	if (o.load_only || o.detach)
		printf("%s\n", name);
	report_started(bg_fd, 1);
	fflush(stdout);
	if (write(go[1], "g", 1) != 1)
		perror("staprun");
	close(go[1]);
	ret = wait_stapio();

	if (o.load_only && ret == 0)
		return 0;     /* left running, detached */
	/* stapio removes the module when it ends; it is still loaded when
	 * stapio died or failed early */
	if (mod_is_loaded(name)) {
		int rc;

		if (verbose)
			fprintf(stderr, "staprun: removing %s\n", name);
		priv_raise();
		rc = mod_remove(name, 5000);
		priv_drop();
		if (rc && rc != -ENOENT) {
			fprintf(stderr, "staprun: removing module %s failed: %s\n",
				name, strerror(-rc));
			ret = 1;
		}
	}
	return ret;
}
