/* remote.c - stap --remote: build once per kernel, run on every target.
 *
 * For each target: ask its kernel release and machine (`uname -r; uname -m`
 * over ssh), build the module for each distinct release by rerunning this
 * stap as `stap -r KVER -p4 ARGS` (the module cache applies as for any
 * build; --sysroot and the other options are passed on), copy the module
 * into a fresh directory on the target (`mktemp -d` there, `cat >` over the
 * ssh session), and run `staprun` there, its stdout and stderr coming back
 * through the ssh session.  The ssh sessions run in a process group of
 * their own, so a terminal's Ctrl-C reaches only stap: stap then sends
 * SIGINT to each remote staprun through a second ssh session (`kill -INT`
 * of the pid the first session recorded), staprun ends the run and removes
 * the module, and the remote directory is deleted.
 *
 * The ssh client is $SYSTEMTAP_SSH, else `ssh`, run with -o BatchMode=yes
 * (never a password prompt); host keys, identities and other options come
 * from the user's ssh configuration. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "remote.h"
#include "util.h"

struct target {
	char *url;          /* as given */
	char *label;        /* [USER@]HOST[:PORT], or "direct" */
	int direct;         /* run locally with sh -c */
	char *user, *host, *port;
	char *kver, *arch;  /* from uname */
	char *ko;           /* local module for its kernel */
	char *rdir;         /* its directory on the target */
	pid_t pid;          /* the running session, 0 when done */
	int fd[2];          /* session stdout, stderr; -1 when closed */
	struct strbuf line[2];
	int status;         /* session exit status */
	int failed;         /* this target failed */
	char *why;          /* why, for the failure line */
	int stop_sent;
};

static struct target *targets;
static int ntargets;
static int index_prefix;
static volatile sig_atomic_t stop_requested;   /* SIGINT/TERM/HUP seen */

int remote_add(const char *url)
{
	struct target t = { .fd = { -1, -1 } };
	const char *rest = url;
	char *at, *colon;

	if (!strcmp(url, "direct:") || !strcmp(url, "direct://")) {
		t.direct = 1;
		t.label = xstrdup("direct");
	} else {
		if (!strncmp(url, "ssh://", 6))
			rest = url + 6;
		else if (strstr(url, "://")) {
			fprintf(stderr, "stap: --remote %s: unknown scheme (use "
				"ssh://[USER@]HOST[:PORT] or direct:)\n", url);
			return -1;
		}
		t.label = xstrdup(rest);
		t.host = xstrdup(rest);
		if (t.host[0] && t.host[strlen(t.host) - 1] == '/')
			t.host[strlen(t.host) - 1] = 0;
		at = strrchr(t.host, '@');
		if (at) {
			*at = 0;
			t.user = t.host;
			t.host = at + 1;
		}
		colon = strrchr(t.host, ':');
		if (colon && !strchr(colon, ']')) {
			*colon = 0;
			t.port = colon + 1;
			if (!*t.port || strspn(t.port, "0123456789") != strlen(t.port)) {
				fprintf(stderr, "stap: --remote %s: bad port\n", url);
				return -1;
			}
		}
		if (t.host[0] == '[' && t.host[strlen(t.host) - 1] == ']') {
			t.host++;
			t.host[strlen(t.host) - 1] = 0;
		}
		if (!*t.host || (t.user && !*t.user)) {
			fprintf(stderr, "stap: --remote %s: no host\n", url);
			return -1;
		}
	}
	t.url = xstrdup(url);
	targets = xrealloc(targets, (ntargets + 1) * sizeof *targets);
	targets[ntargets++] = t;
	return 0;
}

void remote_set_prefix(void) { index_prefix = 1; }
int remote_active(void) { return ntargets > 0; }

/* shell-quote @s into @b (single quotes). */
static void quote(struct strbuf *b, const char *s)
{
	strbuf_addc(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_add(b, "'\\''");
		else
			strbuf_addc(b, *s);
	}
	strbuf_addc(b, '\'');
}

/* argv running shell command @cmd on target @t. */
static char **target_argv(struct target *t, const char *cmd)
{
	struct vec v = {0};
	const char *ssh = getenv("SYSTEMTAP_SSH");
	if (t->direct) {
		vec_push(&v, "/bin/sh");
		vec_push(&v, "-c");
		vec_push(&v, (char *)cmd);
	} else {
		vec_push(&v, (char *)(ssh && *ssh ? ssh : "ssh"));
		vec_push(&v, "-T");
		vec_push(&v, "-o");
		vec_push(&v, "BatchMode=yes");
		if (t->port) {
			vec_push(&v, "-p");
			vec_push(&v, t->port);
		}
		if (t->user) {
			vec_push(&v, "-l");
			vec_push(&v, t->user);
		}
		vec_push(&v, "--");
		vec_push(&v, t->host);
		vec_push(&v, (char *)cmd);
	}
	vec_push(&v, NULL);
	return (char **)v.items;
}

/* spawn @argv with stdin from @in_fd (-1: /dev/null) and stdout/stderr
 * into pipes *@out / *@err (NULL: inherit); in a process group of its own
 * when @own_group.  Returns the pid or -1. */
static pid_t spawn(char **argv, int in_fd, int *out, int *err, int own_group)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 };
	pid_t pid;
	if ((out && pipe2(po, O_CLOEXEC) < 0) || (err && pipe2(pe, O_CLOEXEC) < 0))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (own_group)
			setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (in_fd < 0)
			in_fd = open("/dev/null", O_RDONLY);
		dup2(in_fd, 0);
		if (out)
			dup2(po[1], 1);
		if (err)
			dup2(pe[1], 2);
		execvp(argv[0], argv);
		fprintf(stderr, "stap: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	if (out) {
		close(po[1]);
		*out = po[0];
	}
	if (err) {
		close(pe[1]);
		*err = pe[0];
	}
	return pid;
}

static int wait_status(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 255;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* a command whose stdout is collected while others run */
struct job {
	pid_t pid;   /* -1: could not start */
	int fd;      /* its stdout */
};

/* start @argv (stdin @in_fd) in a process group of its own, its stdout
 * into a pipe; stderr is passed through. */
static struct job job_start(char **argv, int in_fd)
{
	struct job j = { -1, -1 };
	j.pid = spawn(argv, in_fd, &j.fd, NULL, 1);
	return j;
}

/* read @j's stdout to its end into *@outp, reap it; returns its exit
 * status (255 when it could not start).  A signal to stap (Ctrl-C) ends
 * the wait: the job's group gets SIGTERM. */
static int job_finish(struct job j, char **outp)
{
	struct strbuf b = {0};
	char buf[4096];
	ssize_t n;
	*outp = NULL;
	if (j.pid < 0)
		return 255;
	while ((n = read(j.fd, buf, sizeof buf)) != 0) {
		if (n < 0) {
			if (errno == EINTR) {
				if (stop_requested)   /* Ctrl-C: no more waiting */
					kill(-j.pid, SIGTERM);
				continue;
			}
			break;
		}
		strbuf_addn(&b, buf, n);
	}
	close(j.fd);
	*outp = strbuf_detach(&b);
	return wait_status(j.pid);
}

/* run @argv (stdin @in_fd), collect its stdout into *@outp; stderr is
 * passed through.  Returns the exit status. */
static int capture(char **argv, int in_fd, char **outp)
{
	return job_finish(job_start(argv, in_fd), outp);
}

static void fail(struct target *t, char *why)
{
	if (!t->failed) {
		t->failed = 1;
		t->why = why;
	}
}

/* ask @t its kernel release and machine: start the question (all
 * targets are asked at once), then read the answer. */
static struct job probe_start(struct target *t)
{
	char **argv = target_argv(t, "uname -r && uname -m");
	struct job j = job_start(argv, -1);
	free(argv);
	return j;
}

static void probe_finish(struct target *t, struct job j)
{
	char *out, *nl;
	int rc = job_finish(j, &out);
	nl = out ? strchr(out, '\n') : NULL;
	if (rc != 0 || !nl || !strchr(nl + 1, '\n')) {
		fail(t, xasprintf("cannot ask its kernel release (exit status %d)", rc));
		free(out);
		return;
	}
	*nl = 0;
	*strchr(nl + 1, '\n') = 0;
	t->kver = xstrdup(out);
	t->arch = xstrdup(nl + 1);
	free(out);
}

/* is @argv[i] a --remote option (and does it take the next word)? */
static int remote_arg(char **argv, int i, int *skip)
{
	*skip = 0;
	if (!strcmp(argv[i], "--remote")) {
		*skip = 1;
		return 1;
	}
	return !strncmp(argv[i], "--remote=", 9) ||
	       !strcmp(argv[i], "--remote-prefix");
}

/* the build for kernel @kver: this stap rerun as `stap -r KVER [-p4]
 * ARGS` (ARGS without the --remote options); a vector of heap words. */
static char *stdin_script;   /* `stap --remote ... -`: the script, saved */

static struct vec build_argv(struct session *s, int argc, char **argv,
			     const char *kver)
{
	int replaced = 0;
	struct vec v = {0};
	int i, skip;
	char *exe = realpath("/proc/self/exe", NULL);

	vec_push(&v, exe ? exe : argv[0]);
	vec_push(&v, "-r");
	vec_push(&v, (char *)kver);
	if (s->last_pass == 5)
		vec_push(&v, "-p4");
	for (i = 1; i < argc; i++) {
		if (remote_arg(argv, i, &skip)) {
			i += skip;
			continue;
		}
		if (!strcmp(argv[i], "--")) {
			for (; i < argc; i++)
				vec_push(&v, argv[i]);
			break;
		}
		if (stdin_script && !replaced && !strcmp(argv[i], "-")) {
			vec_push(&v, stdin_script);   /* read once, by us */
			replaced = 1;
			continue;
		}
		vec_push(&v, argv[i]);
	}
	vec_push(&v, NULL);
	return v;
}

/* -p1..-p4 with --remote: run the build for @kver with its own output;
 * returns 0 when it succeeded. */
static int build_show(struct session *s, int argc, char **argv,
		      const char *kver)
{
	struct vec v = build_argv(s, argc, argv, kver);
	pid_t pid = spawn((char **)v.items, -1, NULL, NULL, 0);
	free(v.items);
	return pid > 0 && wait_status(pid) == 0 ? 0 : -1;
}

/* start the build of the module for @kver (stap prints the module's
 * path on stdout). */
static struct job build_start(struct session *s, int argc, char **argv,
			      const char *kver)
{
	struct vec v = build_argv(s, argc, argv, kver);
	struct job j = job_start((char **)v.items, -1);
	free(v.items);
	return j;
}

/* wait for build @j; returns the module's path (in the cache, or moved
 * from the current directory into @dir) or NULL. */
static char *build_finish(struct job j, const char *dir)
{
	char *out, *ko, *nl;
	int rc = job_finish(j, &out);
	if (rc != 0 || !out || !*out) {
		free(out);
		return NULL;
	}
	nl = strchr(out, '\n');
	if (nl)
		*nl = 0;
	if (out[0] == '/')
		return out;
	/* -m NAME (or no cache): NAME.ko in the current directory */
	ko = xasprintf("%s/%s", dir, out);
	if (rename(out, ko) < 0) {
		fprintf(stderr, "stap: cannot move %s to %s: %s\n", out, ko,
			strerror(errno));
		free(out);
		return NULL;
	}
	free(out);
	return ko;
}

/* copy @t->ko into a new directory on @t; sets t->rdir. */
static void upload(struct target *t)
{
	struct strbuf cmd = {0};
	const char *base = strrchr(t->ko, '/') ? strrchr(t->ko, '/') + 1 : t->ko;
	char *out = NULL, *nl, **argv;
	int fd = open(t->ko, O_RDONLY), rc;
	if (fd < 0) {
		fail(t, xasprintf("cannot open %s: %s", t->ko, strerror(errno)));
		return;
	}
	strbuf_add(&cmd, "d=$(mktemp -d \"${TMPDIR:-/tmp}/stapremote.XXXXXX\") && cat > \"$d\"/");
	quote(&cmd, base);
	strbuf_add(&cmd, " && echo \"$d\"");
	argv = target_argv(t, strbuf_str(&cmd));
	rc = capture(argv, fd, &out);
	close(fd);
	free(argv);
	nl = out ? strchr(out, '\n') : NULL;
	if (rc != 0 || !nl || out[0] != '/') {
		fail(t, xasprintf("cannot copy the module (exit status %d)", rc));
		return;
	}
	*nl = 0;
	t->rdir = out;
}

/* start staprun on @t. */
static void start(struct session *s, struct target *t, struct vec *params)
{
	struct strbuf cmd = {0};
	const char *base = strrchr(t->ko, '/') + 1;
	char **argv;
	int i;
	strbuf_add(&cmd, "cd ");
	quote(&cmd, t->rdir);
	strbuf_add(&cmd, " && echo $$ > pid && exec ");
	if (t->direct) {   /* this machine: our own staprun, as pass 5 runs */
		const char *sr = getenv("SYSTEMTAP_STAPRUN");
		quote(&cmd, sr && *sr ? sr : BINDIR "/staprun");
	} else {
		strbuf_add(&cmd, "staprun");
	}
	for (i = 0; i < stp_verbose && i < 3; i++)
		strbuf_add(&cmd, " -v");
	if (!s->module_name_given)
		strbuf_add(&cmd, " -R");
	for (i = 0; i < s->staprun_opts.n; i++) {
		const char *o = s->staprun_opts.items[i];
		if (!strcmp(o, "-o")) {   /* -o is written here, locally */
			i++;
			continue;
		}
		strbuf_addc(&cmd, ' ');
		quote(&cmd, o);
	}
	strbuf_add(&cmd, " ./");
	quote(&cmd, base);
	for (i = 0; i < params->n; i++) {
		strbuf_addc(&cmd, ' ');
		quote(&cmd, params->items[i]);
	}
	argv = target_argv(t, strbuf_str(&cmd));
	t->pid = spawn(argv, -1, &t->fd[0], &t->fd[1], 1);
	free(argv);
	if (t->pid < 0) {
		t->pid = 0;
		fail(t, xasprintf("cannot start the session"));
	}
}

/* start @what on @t: STOP (SIGINT to its staprun, once the session has
 * recorded its pid) or CLEAN (remove its directory); returns the pid. */
enum { STOP, CLEAN };
static pid_t side_command(struct target *t, int what)
{
	struct strbuf q = {0}, cmd = {0};
	char **argv;
	pid_t pid;
	quote(&q, t->rdir);
	if (what == STOP)
		strbuf_printf(&cmd, "i=0; while [ ! -s %s/pid ] && [ $i -lt 100 ]; "
			      "do sleep 0.1; i=$((i + 1)); done; "
			      "kill -INT $(cat %s/pid)", strbuf_str(&q), strbuf_str(&q));
	else
		strbuf_printf(&cmd, "rm -rf %s", strbuf_str(&q));
	argv = target_argv(t, strbuf_str(&cmd));
	pid = spawn(argv, -1, NULL, NULL, 1);
	free(argv);
	return pid;
}

static void emit(struct target *t, int which, const char *s, size_t n)
{
	FILE *f = which ? stderr : stdout;
	if (index_prefix)
		fprintf(f, "%d: ", (int)(t - targets));
	else if (ntargets > 1)
		fprintf(f, "[%s] ", t->label);
	fwrite(s, 1, n, f);
	fflush(f);
}

/* read what session @t has on stream @which; prefix whole lines. */
static void drain(struct target *t, int which)
{
	char buf[4096];
	struct strbuf *l = &t->line[which];
	ssize_t n = read(t->fd[which], buf, sizeof buf);
	char *p, *nl;
	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) {
		if (l->len) {
			emit(t, which, strbuf_str(l), l->len);
			fputc('\n', which ? stderr : stdout);
		}
		close(t->fd[which]);
		t->fd[which] = -1;
		return;
	}
	strbuf_addn(l, buf, n);
	p = l->s;
	while ((nl = memchr(p, '\n', l->s + l->len - p))) {
		emit(t, which, p, nl - p + 1);
		p = nl + 1;
	}
	n = l->s + l->len - p;
	memmove(l->s, p, n);
	l->len = n;
	l->s[n] = 0;
}

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* run every started session to its end; on a signal stop them all. */
static void run_all(void)
{
	struct pollfd pfd[2 * ntargets];
	struct target *who[2 * ntargets];
	int which[2 * ntargets];
	double stop_at = 0;
	int i, n, st;
	pid_t pid;

	for (;;) {
		int live = 0;
		for (i = 0, n = 0; i < ntargets; i++) {
			struct target *t = &targets[i];
			int k;
			for (k = 0; k < 2; k++)
				if (t->fd[k] >= 0) {
					pfd[n] = (struct pollfd){ t->fd[k], POLLIN, 0 };
					who[n] = t;
					which[n++] = k;
				}
			live += t->pid > 0;
		}
		if (!n && !live)
			break;
		if (stop_requested && !stop_at) {
			stop_at = now_s();
			for (i = 0; i < ntargets; i++)
				if (targets[i].pid > 0 && !targets[i].stop_sent) {
					targets[i].stop_sent = 1;
					side_command(&targets[i], STOP);
				}
		}
		if (stop_at && now_s() - stop_at > 60) {
			/* the targets did not end: give up on them */
			for (i = 0; i < ntargets; i++)
				if (targets[i].pid > 0) {
					kill(-targets[i].pid, SIGTERM);
					fail(&targets[i], xstrdup("did not stop within 60 s"));
				}
			stop_at = now_s();
		}
		if (poll(pfd, n, 200) > 0) {
			for (i = 0; i < n; i++)
				if (pfd[i].revents)
					drain(who[i], which[i]);
		}
		/* reap sessions (and the side commands) */
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
			for (i = 0; i < ntargets; i++)
				if (targets[i].pid == pid) {
					targets[i].pid = 0;
					targets[i].status = WIFEXITED(st) ?
						WEXITSTATUS(st) : 128 + WTERMSIG(st);
				}
	}
}

/* build_all - one build per distinct kernel release of the targets
 * that have not failed, all at once (they are independent: the module
 * cache and its index take concurrent builds); one after the other for
 * -p1..-p4, whose output is shown, and with -m NAME, whose builds would
 * all write NAME.ko into the current directory.  Sets each target's ko,
 * or fails it. */
static void build_all(struct session *s, int argc, char **argv,
		      const char *tdir)
{
	struct job *jobs = xcalloc(ntargets, sizeof *jobs);
	int *from = xcalloc(ntargets, sizeof *from);  /* the target building its kernel */
	int serial = s->last_pass < 5 || s->module_name_given;
	int i, j;

	for (i = 0; i < ntargets; i++)
		from[i] = -1;
	for (i = 0; i < ntargets && !stop_requested; i++) {
		struct target *t = &targets[i];
		char *d;
		if (t->failed)
			continue;
		for (j = 0; j < i; j++)
			if (from[j] == j && !strcmp(targets[j].kver, t->kver))
				break;
		from[i] = j;
		if (j < i)
			continue;
		if (s->last_pass < 5) {
			t->ko = build_show(s, argc, argv, t->kver) ? NULL : xstrdup("");
			continue;
		}
		d = xasprintf("%s/%d", tdir, i);
		mkdir(d, 0700);
		jobs[i] = build_start(s, argc, argv, t->kver);
		if (serial)
			t->ko = build_finish(jobs[i], d);
		free(d);
	}
	for (i = 0; i < ntargets; i++) {
		struct target *t = &targets[i];
		if (from[i] == i && !serial) {
			char *d = xasprintf("%s/%d", tdir, i);
			t->ko = build_finish(jobs[i], d);
			free(d);
		}
		if (from[i] >= 0 && !targets[from[i]].ko)
			fail(t, xasprintf("building for kernel %s failed", t->kver));
		else if (from[i] >= 0)
			t->ko = targets[from[i]].ko;
	}
	free(jobs);
	free(from);
}

static void collect_params(int argc, char **argv, struct vec *params)
{
	int i;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "-G") && i + 1 < argc)
			vec_push(params, argv[++i]);
		else if (!strncmp(argv[i], "-G", 2) && argv[i][2])
			vec_push(params, argv[i] + 2);
	}
}

int remote_main(struct session *s, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct vec params = {0};
	struct utsname me;
	char dir[] = "/tmp/stapremoteXXXXXX";
	const char *td = getenv("TMPDIR");
	char *tdir;
	struct job *asks;
	int i, rc = 0;

	if (s->kernel_release) {
		fprintf(stderr, "stap: -r and --remote exclude each other (the "
			"targets' kernels are asked)\n");
		return 1;
	}
	tdir = td && *td ? xasprintf("%s/stapremoteXXXXXX", td) : xstrdup(dir);
	if (!mkdtemp(tdir)) {
		fprintf(stderr, "stap: cannot create a temporary directory: %s\n",
			strerror(errno));
		return 1;
	}
	if (s->script_file && !strcmp(s->script_file, "-") && !s->list_pattern) {
		FILE *f;
		stdin_script = xasprintf("%s/script.stp", tdir);
		f = fopen(stdin_script, "w");
		if (!f || fputs(s->script_text, f) < 0 || fclose(f) != 0) {
			fprintf(stderr, "stap: cannot write %s\n", stdin_script);
			return 1;
		}
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	uname(&me);
	collect_params(argc, argv, &params);
	if (s->output_file && s->last_pass == 5 &&
	    !freopen(s->output_file, "w", stdout)) {
		fprintf(stderr, "stap: cannot write %s: %s\n", s->output_file,
			strerror(errno));
		return 1;
	}

	asks = xcalloc(ntargets, sizeof *asks);
	for (i = 0; i < ntargets; i++)   /* every target asked at once */
		if (!targets[i].direct)
			asks[i] = probe_start(&targets[i]);
	for (i = 0; i < ntargets; i++) {
		struct target *t = &targets[i];
		if (t->direct) {
			t->kver = xstrdup(me.release);
			t->arch = xstrdup(me.machine);
		} else {
			probe_finish(t, asks[i]);
		}
		if (t->failed)
			continue;
		if (stp_verbose)
			fprintf(stderr, "stap: %s: kernel %s, %s\n", t->label,
				t->kver, t->arch);
		if (strcmp(t->arch, me.machine))
			fail(t, xasprintf("machine %s differs from this one's (%s)",
					  t->arch, me.machine));
	}
	free(asks);
	build_all(s, argc, argv, tdir);
	if (s->last_pass < 5)
		goto out;
	for (i = 0; i < ntargets && !stop_requested; i++)
		if (!targets[i].failed)
			upload(&targets[i]);
	for (i = 0; i < ntargets && !stop_requested; i++)
		if (!targets[i].failed)
			start(s, &targets[i], &params);
	run_all();
	for (i = 0; i < ntargets; i++) {
		struct target *t = &targets[i];
		if (t->rdir) {
			pid_t p = side_command(t, CLEAN);
			if (p > 0)
				wait_status(p);
		}
		if (!t->failed && t->rdir && t->status != 0)
			fail(t, xasprintf("staprun (or its ssh session) exited with status %d",
					  t->status));
	}
out:
	for (i = 0; i < ntargets; i++)
		if (targets[i].failed) {
			fprintf(stderr, "stap: --remote %s failed: %s\n",
				targets[i].url, targets[i].why);
			rc = 1;
		} else if (s->last_pass < 5 && !targets[i].ko) {
			rc = 1;
		}
	{
		char *cmd = xasprintf("rm -rf '%s'", tdir);
		if (system(cmd) != 0)
			rc = rc ? rc : 0;
		free(cmd);
	}
	return rc;
}
