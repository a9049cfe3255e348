/* stapio - the user-space side of a running probe module.
 *
 *   stapio [-v] [-o FILE [-S MB[,N]]] [-b] [-T MS] [-c CMD | -x PID] [-L]
 *          [-C WHEN] [-q] MODULE_NAME
 *   stapio [-v] [-o FILE] -A [-E] MODULE_NAME
 *
 * (started by staprun, which documents the options; its -w is -q here,
 * -w FD being the pipe staprun releases stapio with).  -L: start the
 * probes, detach (the module keeps running without a reader) and exit.
 * -A: attach to a running module left by -L; -E: then end it at once.
 *
 * Opens /sys/kernel/debug/systemtap/MODULE_NAME/{.cmd,traceN}, sends START,
 * copies the script's output (relay records merged across CPUs in sequence
 * order; what begin probes print only once START's reply says every probe
 * fires) to stdout or FILE and the module's warnings/errors to stderr.  On
 * REQUEST_EXIT from the module or on SIGINT/SIGTERM/SIGHUP it sends EXIT,
 * waits for the EXIT reply, drains the remaining output and exits: 0 on a
 * clean run, 1 when the module could not start or reported an error.
 * Whenever it exits (but after -L), stapio closes the control channel,
 * which stops the probes, and removes the module.
 * Protocol: runtime/stp_transport_msgs.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <wordexp.h>
#include <signal.h>
#include <poll.h>
#include <dirent.h>
#include <time.h>
#include <pthread.h>
#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "../runtime/stp_transport_msgs.h"
#include "modops.h"
#include "privilege.h"
#include "colors.h"

#define DEBUGFS "/sys/kernel/debug"
static long gap_wait_ms = 500;   /* how long a hole in seq may delay output (-T) */

struct record {
	uint64_t seq;
	uint32_t len;
	char *data;
};

struct stream {
	int fd;
	char *name;
	char *buf;             /* bytes read but not yet parsed */
	size_t len, cap;
	struct record *q;      /* parsed records, increasing seq */
	size_t qhead, qlen, qcap;
	FILE *bulk_out;        /* -b: this CPU's output file */
};

static int verbose;
static const char *modname;
static int cmd_fd = -1;
static struct stream *streams;
static size_t nstreams;
static FILE *out;
static volatile sig_atomic_t got_signal;
static uint64_t next_seq = 1;
static long long gap_since_ms = -1;
static int error_seen;
static int detached;           /* -L: leave the module loaded */
static int owned;              /* .cmd opened: the module is ours to remove */
static unsigned probes_started; /* from the START reply */
static int module_wakes;       /* STP_MSG_WAKES: poll .cmd with no timeout */
static int wake_pipe[2] = { -1, -1 }; /* the signal handlers' wakes of poll */

/* ---- output files: -o with -S rotation, -b bulk ---- */
static const char *outfile;    /* -o, or NULL for stdout */
static long long rotate_bytes; /* -S MB: 0 = no rotation */
static int rotate_keep;        /* -S ,N: files kept, 0 = all */
static int rotate_index;
static long long out_bytes;    /* in the current file */
static int bulk;               /* -b */
static int no_warnings;        /* -q (staprun -w): WARNING messages dropped */

/* ---- standard input for input.char / input.line ---- */

static int input_fd = -1;      /* /proc/systemtap/MODULE/__stdin, or -1 */

/* open_input - when the module has input probes (the file __stdin in its
 * /proc/systemtap directory), start copying our standard input into it */
static void open_input(void)
{
	char path[512];

	snprintf(path, sizeof(path), "/proc/" STP_DEBUGFS_DIR "/%s/__stdin",
		 modname);
	priv_raise();
	input_fd = open(path, O_WRONLY | O_CLOEXEC);
	priv_drop();
	if (input_fd < 0 && errno != ENOENT && verbose)
		fprintf(stderr, "stapio: cannot open %s: %s\n", path,
			strerror(errno));
}

/* forward_input - copy what standard input has (it polled readable) into
 * __stdin, one byte per write(): each write runs the input probes once,
 * as input.char wants.  End of input (or an error) stops the copying. */
static void forward_input(void)
{
	char buf[4096];
	ssize_t n, i;

	n = read(0, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	for (i = 0; i < n; i++)
		if (write(input_fd, buf + i, 1) != 1)
			break;
	if (n <= 0 || i < n) {
		close(input_fd);
		input_fd = -1;
	}
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "stapio: cannot open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

/* rotate - -S: move on to OUTFILE.<next>, removing the oldest file when
 * more than rotate_keep exist. */
static void rotate(void)
{
	char path[4200];

	if (out)
		fclose(out);
	rotate_index++;
	snprintf(path, sizeof(path), "%s.%d", outfile, rotate_index);
	out = open_out(path);
	out_bytes = 0;
	if (rotate_keep && rotate_index >= rotate_keep) {
		snprintf(path, sizeof(path), "%s.%d", outfile,
			 rotate_index - rotate_keep);
		unlink(path);
	}
}

static void setup_output(void)
{
	char path[4200];

	out = stdout;
	if (bulk)
		return;                /* per-CPU files, opened as needed */
	if (outfile && rotate_bytes) {
		rotate_index = 0;
		snprintf(path, sizeof(path), "%s.0", outfile);
		out = open_out(path);
	} else if (outfile) {
		out = open_out(outfile);
	}
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("stapio: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		die("out of memory");
	return p;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* wake_poll - make the main loop's poll() return (a byte in wake_pipe):
 * a signal that comes just before poll() must not leave it asleep.
 * Async-signal-safe. */
static void wake_poll(void)
{
	int e = errno;

	if (wake_pipe[1] >= 0 && write(wake_pipe[1], "", 1) < 0) {
		/* full: a wake is pending anyway */
	}
	errno = e;
}

static void on_signal(int sig)
{
	(void)sig;
	got_signal = 1;
	wake_poll();
}

/* SIGCHLD: -c's command may have ended (check_target looks) */
static void on_child(int sig)
{
	(void)sig;
	wake_poll();
}

/* ---- control channel ---- */

/* send_msg - write one message with @len payload bytes at @payload. */
static void send_msg(uint32_t type, const void *payload, uint32_t len)
{
	char buf[sizeof(struct stp_msg_hdr) + 64];
	struct stp_msg_hdr h = { .type = type, .len = len };
	ssize_t n;

	if (len > sizeof(buf) - sizeof(h))
		die("control message too long");
	memcpy(buf, &h, sizeof(h));
	if (len)
		memcpy(buf + sizeof(h), payload, len);
	do
		n = write(cmd_fd, buf, sizeof(h) + len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)(sizeof(h) + len))
		die("writing the control channel failed: %s",
		    n < 0 ? strerror(errno) : "short write");
}

static void send_cmd(uint32_t type)
{
	send_msg(type, NULL, 0);
}

/* START and EXIT make the module run begin/end probes inside the write():
 * send them from a helper thread so that the main loop keeps draining the
 * relay buffers meanwhile (end probes may print more than they hold). */
static void *cmd_thread(void *arg)
{
	send_cmd((uint32_t)(uintptr_t)arg);
	return NULL;
}

static cpu_set_t cmd_cpus;     /* where the command thread may run */
static int cmd_cpus_set;

/* Keep the reading (main) thread and the thread running begin/end probes
 * on different CPUs: the probes run with preemption disabled, so a reader
 * stuck behind them on the same CPU could not drain their output. */
static void split_cpus(void)
{
	cpu_set_t all, one;
	int cpu, reader = -1, n = 0;

	if (sched_getaffinity(0, sizeof(all), &all) != 0)
		return;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &all) && n++ == 0)
			reader = cpu;
	if (n < 2)
		return;
	CPU_ZERO(&one);
	CPU_SET(reader, &one);
	if (sched_setaffinity(0, sizeof(one), &one) != 0)
		return;
	cmd_cpus = all;
	CPU_CLR(reader, &cmd_cpus);
	cmd_cpus_set = 1;
	if (verbose)
		fprintf(stderr, "stapio: reading on CPU %d\n", reader);
}

static void send_cmd_async(uint32_t type)
{
	pthread_attr_t attr;
	pthread_t t;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (cmd_cpus_set)
		pthread_attr_setaffinity_np(&attr, sizeof(cmd_cpus), &cmd_cpus);
	if (pthread_create(&t, &attr, cmd_thread, (void *)(uintptr_t)type) != 0)
		send_cmd(type);
	pthread_attr_destroy(&attr);
}

enum { EV_NONE = 0, EV_START = 1, EV_REQUEST_EXIT = 2, EV_EXIT = 4 };

/* run_system - the script's system(CMD) (STP_MSG_SYSTEM, @len bytes at
 * @p): run `/bin/sh -c CMD` in the background with stdin /dev/null and
 * our stdout and stderr.  The command runs in a grandchild (its parent
 * exits at once and is reaped here), so it leaves no zombie and never
 * confuses the wait for -c's target. */
static void run_system(const char *p, size_t len)
{
	char *cmd = malloc(len + 1);
	pid_t pid;

	if (!cmd)
		die("out of memory");
	memcpy(cmd, p, len);
	cmd[len] = '\0';
	fflush(out);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "WARNING: system(): fork: %s\n", strerror(errno));
	} else if (pid == 0) {
		int fd;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (fork() != 0)
			_exit(0);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0 && fd != 0) {
			dup2(fd, 0);
			close(fd);
		}
		priv_drop_all();
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		fprintf(stderr, "WARNING: system(): cannot run /bin/sh: %s\n", strerror(errno));
		_exit(127);
	} else {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	free(cmd);
}

/* Read and handle every queued control message; returns EV_* bits and
 * the START status in *start_status. */
/* show_progress - a long registration's progress (STP_MSG_PROGRESS, @len
 * bytes at @p), on a terminal only and not under -q (staprun -w): one
 * line rewritten in place, ended when done == total. */
static void show_progress(const char *p, size_t len)
{
	struct stp_msg_progress m;

	if (!isatty(2) || no_warnings || len < sizeof(m))
		return;
	memcpy(&m, p, sizeof(m));
	if (m.done < m.total)
		fprintf(stderr, "\rRegistering probes: %u of %u", m.done, m.total);
	else
		fprintf(stderr, "\rRegistering probes: %u of %u, done in %.1f s\n",
			m.done, m.total, m.ms / 1000.0);
	fflush(stderr);
}

static int read_cmds(int *start_status)
{
	static char buf[65536];
	int ev = 0;

	for (;;) {
		ssize_t n = read(cmd_fd, buf, sizeof(buf));
		size_t off = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return ev;
		if (n <= 0)
			die("reading the control channel failed: %s",
			    n < 0 ? strerror(errno) : "end of file");
		while (off + sizeof(struct stp_msg_hdr) <= (size_t)n) {
			struct stp_msg_hdr h;
			const char *p;

			memcpy(&h, buf + off, sizeof(h));
			p = buf + off + sizeof(h);
			if (off + sizeof(h) + h.len > (size_t)n)
				die("malformed control message");
			switch (h.type) {
			case STP_MSG_START: {
				struct stp_msg_status st = { .status = -EPROTO };

				memcpy(&st, p, h.len < sizeof(st) ? h.len : sizeof(st));
				*start_status = st.status;
				probes_started = st.probes;
				ev |= EV_START;
				break;
			}
			case STP_MSG_REQUEST_EXIT:
				ev |= EV_REQUEST_EXIT;
				break;
			case STP_MSG_EXIT: {
				struct stp_msg_exit ex;

				memset(&ex, 0, sizeof(ex));
				memcpy(&ex, p, h.len < sizeof(ex) ? h.len : sizeof(ex));
				if (ex.errors)
					error_seen = 1;
				if (verbose)
					fprintf(stderr, "stapio: exit: errors %u skipped %u lost %u "
						"suppressed %u\n", ex.errors,
						ex.skipped, ex.lost, ex.suppressed);
				ev |= EV_EXIT;
				break;
			}
			case STP_MSG_SYSTEM:
				run_system(p, h.len);
				break;
			case STP_MSG_PROGRESS:
				show_progress(p, h.len);
				break;
			case STP_MSG_WAKES:
				module_wakes = 1;
				break;
			case STP_MSG_WARNING:
				if (no_warnings)
					break;
				/* fall through */
			case STP_MSG_ERROR:
				error_seen |= h.type == STP_MSG_ERROR;
				fflush(out);
				colors_write(stderr, p, h.len);
				fflush(stderr);
				break;
			default:
				if (verbose)
					fprintf(stderr, "stapio: unknown message %u\n", h.type);
			}
			off += sizeof(h) + h.len;
		}
	}
}

/* ---- relay output ---- */

static void open_streams(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		die("cannot open %s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		unsigned cpu;
		char path[4400];
		struct stream *s;

		if (sscanf(e->d_name, STP_RELAY_BASE "%u", &cpu) != 1)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		streams = xrealloc(streams, (nstreams + 1) * sizeof(*streams));
		s = &streams[nstreams];
		memset(s, 0, sizeof(*s));
		s->fd = open(path, O_RDONLY | O_NONBLOCK);
		if (s->fd < 0)
			die("cannot open %s: %s", path, strerror(errno));
		s->name = strdup(e->d_name);
		nstreams++;
	}
	closedir(d);
	if (!nstreams)
		die("no relay files in %s", dir);
}

/* Parse complete records out of s->buf. */
static void parse_stream(struct stream *s)
{
	size_t off = 0;

	while (s->len - off >= sizeof(struct stp_relay_hdr)) {
		struct stp_relay_hdr h;
		struct record *r;

		memcpy(&h, s->buf + off, sizeof(h));
		if (h.magic != STP_RELAY_MAGIC)
			die("corrupt output stream in %s", s->name);
		if (s->len - off - sizeof(h) < h.len)
			break;
		if (s->qhead + s->qlen == s->qcap) {
			if (s->qhead) {
				memmove(s->q, s->q + s->qhead, s->qlen * sizeof(*s->q));
				s->qhead = 0;
			} else {
				s->qcap = s->qcap ? 2 * s->qcap : 64;
				s->q = xrealloc(s->q, s->qcap * sizeof(*s->q));
			}
		}
		r = &s->q[s->qhead + s->qlen++];
		r->seq = h.seq;
		r->len = h.len;
		r->data = xrealloc(NULL, h.len ? h.len : 1);
		memcpy(r->data, s->buf + off + sizeof(h), h.len);
		off += sizeof(h) + h.len;
	}
	memmove(s->buf, s->buf + off, s->len - off);
	s->len -= off;
}

/* Read everything available now; returns bytes read. */
static size_t read_streams(void)
{
	size_t total = 0, i;

	for (i = 0; i < nstreams; i++) {
		struct stream *s = &streams[i];

		for (;;) {
			ssize_t n;

			if (s->cap - s->len < 65536) {
				s->cap = s->cap ? 2 * s->cap : 262144;
				s->buf = xrealloc(s->buf, s->cap);
			}
			n = read(s->fd, s->buf + s->len, s->cap - s->len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			s->len += n;
			total += n;
		}
		parse_stream(s);
	}
	return total;
}

/* write_record - one record of @s to its output: the per-CPU file (-b),
 * else the output file, rotating first when it would exceed -S.  An empty
 * record is the script's switch_file(): with -o (and not -b), the output
 * goes on in the next file, OUTFILE.N (as -S rotation names them). */
static void write_record(struct stream *s, const struct record *r)
{
	if (!r->len) {
		if (outfile && !bulk)
			rotate();
		return;
	}
	if (bulk) {
		if (!s->bulk_out) {
			char path[4200];

			snprintf(path, sizeof(path), "%s_cpu%s",
				 outfile ? outfile : "stpd",
				 s->name + strlen(STP_RELAY_BASE));
			s->bulk_out = open_out(path);
		}
		fwrite(r->data, 1, r->len, s->bulk_out);
		return;
	}
	if (rotate_bytes && out_bytes && out_bytes + r->len > rotate_bytes)
		rotate();
	fwrite(r->data, 1, r->len, out);
	out_bytes += r->len;
}

/* Write records in seq order.  Without @force, stop at a hole in the
 * sequence until it has lasted GAP_WAIT_MS (the missing record may still
 * be on its way on another CPU; or it was lost). */
static int emit(int force)
{
	size_t i;
	int held = 0;

	for (;;) {
		struct stream *best = NULL;
		struct record *r;

		for (i = 0; i < nstreams; i++) {
			struct stream *s = &streams[i];

			if (s->qlen && (!best ||
			    s->q[s->qhead].seq < best->q[best->qhead].seq))
				best = s;
		}
		if (!best)
			break;
		r = &best->q[best->qhead];
		if (r->seq > next_seq && !force) {
			long long t = now_ms();

			if (gap_since_ms < 0)
				gap_since_ms = t;
			if (t - gap_since_ms < gap_wait_ms) {
				held = 1;
				break;
			}
			if (verbose)
				fprintf(stderr, "stapio: output records %llu..%llu missing\n",
					(unsigned long long)next_seq,
					(unsigned long long)r->seq - 1);
		}
		gap_since_ms = -1;
		write_record(best, r);
		free(r->data);
		next_seq = r->seq + 1;
		best->qhead++;
		best->qlen--;
	}
	fflush(out);
	for (i = 0; bulk && i < nstreams; i++)
		if (streams[i].bulk_out)
			fflush(streams[i].bulk_out);
	return held;
}

/* ---- the run's end: close everything and remove the module ---- */

static void cleanup(void)
{
	size_t i;
	int rc;

	if (!modname || detached || !owned)
		return;
	if (cmd_fd >= 0)
		close(cmd_fd);      /* stops the probes if EXIT was not sent */
	cmd_fd = -1;
	for (i = 0; i < nstreams; i++)
		close(streams[i].fd);
	nstreams = 0;
	priv_raise();
	rc = mod_remove(modname, 5000);
	priv_drop();
	if (rc && rc != -ENOENT && rc != -EPERM)
		fprintf(stderr, "stapio: removing module %s failed: %s\n",
			modname, strerror(-rc));
	else if (verbose && !rc)
		fprintf(stderr, "stapio: removed %s\n", modname);
}

/* ---- -c CMD: the target process ---- */

static pid_t target_pid;
static int target_release_fd = -1;    /* write end: releases the child */
static int target_done;

/* start_target - fork CMD, held until release_target(): CMD is split
 * into words as the shell would (wordexp(3): quotes, variables, globs,
 * but no command substitution) and executed directly, so that target()
 * is the command itself, as in SystemTap, whatever /bin/sh does. */
static void start_target(const char *cmd)
{
	int p[2], rc;
	char c;
	wordexp_t we;

	rc = wordexp(cmd, &we, WRDE_NOCMD | WRDE_SHOWERR);
	if (rc == WRDE_CMDSUB)
		die("-c '%s': command substitution is not allowed", cmd);
	if (rc != 0)
		die("-c '%s': cannot split into words (wordexp error %d)", cmd,
		    rc);
	if (we.we_wordc == 0)
		die("-c: empty command");
	if (pipe2(p, O_CLOEXEC) != 0)
		die("pipe: %s", strerror(errno));
	target_pid = fork();
	if (target_pid < 0)
		die("fork: %s", strerror(errno));
	if (target_pid == 0) {
		close(p[1]);
		/* run only when released: EOF means stapio gave up */
		if (read(p[0], &c, 1) != 1)
			_exit(127);
		priv_drop_all();
		execvp(we.we_wordv[0], we.we_wordv);
		fprintf(stderr, "stapio: cannot run %s: %s\n", we.we_wordv[0],
			strerror(errno));
		_exit(127);
	}
	wordfree(&we);
	close(p[0]);
	target_release_fd = p[1];
}

static void release_target(void)
{
	if (target_release_fd >= 0) {
		if (write(target_release_fd, "g", 1) != 1)
			fprintf(stderr, "stapio: cannot start the command\n");
		close(target_release_fd);
		target_release_fd = -1;
	}
}

static void check_target(void)
{
	int st;

	if (target_pid > 0 && !target_done &&
	    waitpid(target_pid, &st, WNOHANG) == target_pid) {
		target_done = 1;
		if (verbose)
			fprintf(stderr, "stapio: the command exited\n");
	}
}

/* wait_for_insertion - -w FD: staprun started us before inserting the
 * module and writes 'g' on FD once it is in, 'x' when the insertion
 * failed (exit quietly).  End of file: staprun died; its insertion is
 * over (a process's files close after its last system call), so the
 * module is loaded or not at all: remove it if it is. */
static void wait_for_insertion(int fd)
{
	ssize_t n;
	char c = 0;

	do
		n = read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n == 1 && c == 'g')
		return;
	if (n == 1)
		exit(0);
	if (mod_is_loaded(modname)) {
		int rc;

		priv_raise();
		rc = mod_remove(modname, 5000);
		priv_drop();
		fprintf(stderr, "stapio: staprun died after inserting %s; %s\n",
			modname, rc ? "removing it failed" : "removed it");
	}
	exit(1);
}

static void usage(void)
{
	fprintf(stderr, "usage: stapio [-v] [-o FILE [-S MB[,N]]] [-b] [-T MS] "
		"[-c CMD | -x PID] [-L | -A [-E]] [-w FD] [-C WHEN] [-q] "
		"MODULE_NAME\n");
	exit(1);
}

int main(int argc, char **argv)
{
	const char *cmd = NULL;
	char dir[4096], path[4200];
	struct sigaction sa;
	sigset_t ends;
	int opt, start_status = 0, started = 0, exit_sent = 0, done = 0;
	int exit_asked = 0;
	int load_only = 0, attach = 0, end_now = 0;
	long xpid = 0;
	int go_fd = -1;
	const char *color_when = NULL;
	size_t i;

	/* started by a setuid staprun: the caller's uid except to open
	 * the module's files and to remove it */
	if (priv_drop() != 0)
		die("cannot drop root: %s", strerror(errno));
	while ((opt = getopt(argc, argv, "+vo:S:bT:c:x:LAEw:C:q")) != -1) {
		switch (opt) {
		case 'v': verbose++; break;
		case 'o': outfile = optarg; break;
		case 'S': {
			char *comma;

			rotate_bytes = strtoll(optarg, &comma, 10) << 20;
			if (*comma == ',')
				rotate_keep = atoi(comma + 1);
			if (rotate_bytes <= 0)
				usage();
			break;
		}
		case 'b': bulk = 1; break;
		case 'T': gap_wait_ms = atol(optarg); break;
		case 'c': cmd = optarg; break;
		case 'x': xpid = atol(optarg); break;
		case 'L': load_only = 1; break;
		case 'A': attach = 1; break;
		case 'E': end_now = 1; break;
		case 'w': go_fd = atoi(optarg); break;
		case 'C': color_when = optarg; break;
		case 'q': no_warnings = 1; break;
		default: usage();
		}
	}
	if (optind != argc - 1)
		usage();
	if (colors_setup(color_when) < 0) {
		fprintf(stderr, "stapio: -C takes always, auto or never, not "
			"'%s'\n", color_when);
		return 1;
	}
	if (rotate_bytes && !outfile) {
		fprintf(stderr, "stapio: -S needs -o FILE\n");
		return 1;
	}
	modname = argv[optind];
	atexit(cleanup);

	if (pipe2(wake_pipe, O_NONBLOCK | O_CLOEXEC) != 0)
		die("pipe: %s", strerror(errno));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	/* staprun starts us with them blocked (those it forwarded before
	 * now are pending): handled from here on */
	sigemptyset(&ends);
	sigaddset(&ends, SIGINT);
	sigaddset(&ends, SIGTERM);
	sigaddset(&ends, SIGHUP);
	sigprocmask(SIG_UNBLOCK, &ends, NULL);
	if (go_fd >= 0)
		wait_for_insertion(go_fd);
	setup_output();
	if (cmd)
		start_target(cmd);

	snprintf(dir, sizeof(dir), DEBUGFS "/" STP_DEBUGFS_DIR "/%s", modname);
	snprintf(path, sizeof(path), "%s/" STP_CMD_FILE, dir);
	/* root (when staprun is setuid) only to open the module's files */
	priv_raise();
	cmd_fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	i = errno;
	if (cmd_fd >= 0)
		open_streams(dir);
	priv_drop();
	errno = i;
	if (cmd_fd < 0) {
		if (errno == EBUSY)
			die("module %s is in use by another stapio", modname);
		die("cannot open %s: %s", path, strerror(errno));
	}
	owned = 1;
	if (verbose)
		fprintf(stderr, "stapio: %s: %zu relay files; %s\n", modname,
			nstreams, attach ? "attached" : "starting");

	split_cpus();
	if (cmd || xpid) {
		struct stp_msg_target t = { .pid = cmd ? target_pid : (__s32)xpid };

		send_msg(STP_MSG_TARGET, &t, sizeof(t));
	}
	if (attach) {
		started = 1;
		if (end_now)
			got_signal = 1;
	} else {
		send_cmd_async(STP_MSG_START);
	}
	while (!done) {
		struct pollfd pfd[3] = { { .fd = cmd_fd, .events = POLLIN },
					 { .fd = wake_pipe[0], .events = POLLIN },
					 { .fd = 0, .events = POLLIN } };
		int ev, held = 0;
		char drain[64];

		ev = read_cmds(&start_status);
		if (ev & EV_START) {
			if (start_status != 0) {
				read_streams();
				emit(1);
				if (target_pid > 0) {
					kill(target_pid, SIGKILL);
					waitpid(target_pid, NULL, 0);
				}
				fprintf(stderr, "stapio: starting the probes failed: %s\n",
					strerror(-start_status));
				return 1;
			}
			started = 1;
			if (verbose)
				fprintf(stderr, "stapio: running\n");
			else if (isatty(2) && !load_only)
				fprintf(stderr, "Tracing with %u probe%s; Ctrl-C "
					"ends the run.\n", probes_started,
					probes_started == 1 ? "" : "s");
			release_target();
			if (!load_only)
				open_input();
			if (load_only) {
				/* leave it running without a reader: what it
				 * printed so far stays in the relay buffers
				 * for the next stapio that attaches */
				send_cmd(STP_MSG_DETACH);
				detached = 1;
				return 0;
			}
		}
		if (ev & EV_EXIT)
			done = 1;
		check_target();
		/* kept until the run has started: an exit() or error in a
		 * begin probe may be asked for before START's reply comes */
		if (ev & EV_REQUEST_EXIT)
			exit_asked = 1;
		if (!done && started && !exit_sent &&
		    (exit_asked || got_signal || target_done)) {
			if (verbose)
				fprintf(stderr, "stapio: sending EXIT\n");
			exit_sent = 1;
			send_cmd_async(STP_MSG_EXIT);
		}
		if (!load_only) {  /* -L leaves the output to -A */
			read_streams();
			/* the module lets its other probes fire only once
			 * the begin probes have all run: keep their output
			 * until START says so, so that whoever waits for it
			 * (a "tracing" line) starts no workload too early */
			if (started)
				held = emit(0);
		}
		if (input_fd >= 0 && exit_sent) {
			close(input_fd);        /* the run is ending */
			input_fd = -1;
		}
		/* A module that wakes us (STP_MSG_WAKES) is polled with no
		 * timeout, so that an idle run costs nothing; but a record
		 * held back at a hole in seq waits for a timeout. */
		if (!done && poll(pfd, input_fd >= 0 ? 3 : 2,
				  module_wakes && !held ? -1 : STP_CMD_POLL_MS) > 0) {
			if (pfd[1].revents & POLLIN)
				while (read(wake_pipe[0], drain, sizeof(drain)) > 0)
					;
			if (input_fd >= 0 &&
			    (pfd[2].revents & (POLLIN | POLLHUP | POLLERR)))
				forward_input();
		}
	}
	/* Everything is in the relay buffers now: drain and merge. */
	while (read_streams())
		;
	emit(1);
	for (i = 0; i < nstreams; i++)
		if (streams[i].len)
			fprintf(stderr, "stapio: %zu bytes of incomplete output in %s\n",
				streams[i].len, streams[i].name);
	for (i = 0; i < nstreams; i++)
		if (streams[i].bulk_out && fclose(streams[i].bulk_out) != 0)
			die("writing the output failed: %s", strerror(errno));
	if (fflush(out) != 0 || (out != stdout && fclose(out) != 0))
		die("writing the output failed: %s", strerror(errno));
	out = stdout;
	return error_seen ? 1 : 0;
}
