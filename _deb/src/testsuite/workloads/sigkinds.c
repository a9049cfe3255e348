/* sigkinds: signals sent and handled every way the signal tapset sees.
 *
 * Usage: sigkinds [N]   (N > 0, default 5)
 *
 * 1. Forks a child with a SIGUSR1 handler (set once with sigaction) that
 *    acknowledges each signal through a pipe; the parent sends it SIGUSR1
 *    N times with kill(2), N times with tkill(2) and N times with
 *    tgkill(2), each time waiting for the acknowledgement (no signal is
 *    merged with a pending one) and first for the child to sleep in
 *    sigsuspend(): 3N generated, 3N wake-ups of the child, 3N delivered
 *    to the handler.  The child then exits 0.
 * 2. The parent calls sigprocmask(SIG_UNBLOCK, {SIGWINCH}) N times and
 *    sigpending(2) N times.
 * 3. A POSIX timer (CLOCK_MONOTONIC, SIGUSR2 to the process) is armed N
 *    times for 1 ms, one shot, each expiry taken with sigwaitinfo(): N
 *    signals sent by send_sigqueue().
 * 4. The parent maps PAGES (4) private anonymous pages at 0x200000000,
 *    writes them, forks a child that writes each once more: 4
 *    copy-on-write faults at those addresses in that child.
 * 5. A child with a SIGUSR2 handler on an alternate signal stack that is
 *    not writable raises SIGUSR2: the kernel cannot build the signal frame
 *    and forces SIGSEGV on it once; it dies of SIGSEGV.
 * 6. A child asks to be traced and stops itself (SIGSTOP); the parent
 *    reads its user area N times with PTRACE_PEEKUSER, then PTRACE_CONTs
 *    it (each of those N + 1 requests waits for the stopped child to be
 *    off its CPU), and it exits 0.
 *
 * Prints "kill=N tkill=N tgkill=N handled=3N procmask=N pending=N
 * timer=N cow=4 segv=1 peeks=N"; errors go to stderr with exit status 1. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define COW_ADDR ((void *)0x200000000UL)
#define PAGES 4

#include "sigchild.h"

static int die(const char *what)
{
	perror(what);
	return 1;
}

/* send: one SIGUSR1 to @pid by @how (0 kill, 1 tkill, 2 tgkill), then
 * wait for the handler's acknowledgement */
static int send(pid_t pid, int how)
{
	long r;
	char c;

	if (sigchild_asleep(pid))
		return 1;
	if (how == 0)
		r = kill(pid, SIGUSR1);
	else if (how == 1)
		r = syscall(SYS_tkill, pid, SIGUSR1);
	else
		r = syscall(SYS_tgkill, pid, pid, SIGUSR1);
	if (r)
		return die("kill");
	if (read(ack[0], &c, 1) != 1 || c != 'h') {
		fprintf(stderr, "sigkinds: no acknowledgement\n");
		return 1;
	}
	return 0;
}

static int wait_ok(pid_t pid, int want_sig)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return 0;
	if (want_sig)
		return WIFSIGNALED(status) && WTERMSIG(status) == want_sig;
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

static void on_usr2(int sig)
{
	(void)sig;
	_exit(3);	/* never: the frame cannot be built */
}

/* segv_child: SIGUSR2's handler runs on an alternate stack that is not
 * writable, so its delivery fails */
static int segv_child(void)
{
	struct sigaction sa;
	stack_t ss;
	void *p = mmap(NULL, 65536, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 2;
	ss.ss_sp = p;
	ss.ss_size = 65536;
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL))
		return 2;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr2;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	raise(SIGUSR2);
	return 4;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 5, i;
	struct sigevent sev;
	struct itimerspec its;
	sigset_t set, pend;
	timer_t timer;
	siginfo_t si;
	volatile char *cow;
	pid_t pid;
	char c;

	if (n <= 0) {
		fprintf(stderr, "usage: sigkinds [N]  (N > 0)\n");
		return 1;
	}
	/* 1 */
	if (pipe(ack))
		return die("pipe");
	pid = fork();
	if (pid < 0)
		return die("fork");
	if (pid == 0)
		_exit(sigchild_main(3 * n));
	if (read(ack[0], &c, 1) != 1 || c != 'r') {
		fprintf(stderr, "sigkinds: the child did not start\n");
		return 1;
	}
	for (i = 0; i < 3 * n; i++)
		if (send(pid, i / n))
			return 1;
	if (!wait_ok(pid, 0)) {
		fprintf(stderr, "sigkinds: the child failed\n");
		return 1;
	}
	/* 2 */
	sigemptyset(&set);
	sigaddset(&set, SIGWINCH);
	for (i = 0; i < n; i++) {
		if (sigprocmask(SIG_UNBLOCK, &set, NULL))
			return die("sigprocmask");
		if (sigpending(&pend))
			return die("sigpending");
	}
	/* 3 */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGUSR2;
	if (timer_create(CLOCK_MONOTONIC, &sev, &timer))
		return die("timer_create");
	memset(&its, 0, sizeof(its));
	its.it_value.tv_nsec = 1000000;
	for (i = 0; i < n; i++) {
		if (timer_settime(timer, 0, &its, NULL))
			return die("timer_settime");
		if (sigwaitinfo(&set, &si) != SIGUSR2)
			return die("sigwaitinfo");
	}
	timer_delete(timer);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	/* 4 */
	cow = mmap(COW_ADDR, PAGES * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (cow != COW_ADDR)
		return die("mmap");
	for (i = 0; i < PAGES; i++)
		cow[i * 4096] = 1;
	pid = fork();
	if (pid < 0)
		return die("fork");
	if (pid == 0) {
		for (i = 0; i < PAGES; i++)
			cow[i * 4096] = 2;
		_exit(0);
	}
	if (!wait_ok(pid, 0)) {
		fprintf(stderr, "sigkinds: the copy-on-write child failed\n");
		return 1;
	}
	/* 5 */
	pid = fork();
	if (pid < 0)
		return die("fork");
	if (pid == 0)
		_exit(segv_child());
	if (!wait_ok(pid, SIGSEGV)) {
		fprintf(stderr, "sigkinds: the alternate-stack child did not die of SIGSEGV\n");
		return 1;
	}
	/* 6 */
	pid = fork();
	if (pid < 0)
		return die("fork");
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(2);
		raise(SIGSTOP);
		_exit(0);
	}
	{
		int status;

		if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
			return die("waitpid (traced child)");
	}
	for (i = 0; i < n; i++) {
		errno = 0;
		ptrace(PTRACE_PEEKUSER, pid, (void *)offsetof(struct user, regs), NULL);
		if (errno)
			return die("PTRACE_PEEKUSER");
	}
	if (ptrace(PTRACE_CONT, pid, NULL, NULL))
		return die("PTRACE_CONT");
	if (!wait_ok(pid, 0)) {
		fprintf(stderr, "sigkinds: the traced child failed\n");
		return 1;
	}
	printf("kill=%ld tkill=%ld tgkill=%ld handled=%ld procmask=%ld pending=%ld "
	       "timer=%ld cow=%d segv=1 peeks=%ld\n", n, n, n, 3 * n, n, n, n, PAGES, n);
	return 0;
}
