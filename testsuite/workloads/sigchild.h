/* sigchild.h - the signal-receiving child of sigsend.c and sigkinds.c.
 *
 * sigchild_main(K): install a SIGUSR1 handler (one sigaction) that counts
 * and writes 'h' to ack[1], block SIGUSR1, write 'r' (ready) to ack[1],
 * then sigsuspend() until K signals were handled; returns 0 (2 when the
 * pipe fails).  The parent makes the pipe ack first and sends the next
 * signal only after reading the previous 'h', so none is merged with a
 * pending one, and only once sigchild_asleep() says the child sleeps in
 * sigsuspend(), so that every signal wakes it: one sent while it still
 * ran with SIGUSR1 blocked (between its acknowledgement and the next
 * sigsuspend) would be taken without a wake-up or a context switch. */
#ifndef SIGCHILD_H
#define SIGCHILD_H
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int ack[2];
static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	char c = 'h';

	(void)sig;
	handled++;
	if (write(ack[1], &c, 1) != 1)
		_exit(2);
}

static int sigchild_main(long k)
{
	struct sigaction sa;
	sigset_t block, old;
	char c = 'r';

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (write(ack[1], &c, 1) != 1)	/* ready */
		return 2;
	while (handled < k)
		sigsuspend(&old);
	return 0;
}

/* sigchild_asleep - wait until the child @pid sleeps in rt_sigsuspend(2):
 * its /proc/PID/syscall (written only for a task off its CPU) names that
 * syscall and its /proc/PID/stat state is S.  Polls every 100 us; returns
 * 0, or -1 after 30 s (a message on stderr). */
static int sigchild_asleep(pid_t pid)
{
	char path[64], buf[256], *p;
	long i;

	for (i = 0; i < 300000; i++) {
		FILE *f;
		int in_suspend = 0;

		snprintf(path, sizeof(path), "/proc/%d/syscall", (int)pid);
		if ((f = fopen(path, "r"))) {
			if (fgets(buf, sizeof(buf), f))
				in_suspend = strtol(buf, &p, 10) == SYS_rt_sigsuspend &&
					     *p == ' ';
			fclose(f);
		}
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		if (in_suspend && (f = fopen(path, "r"))) {
			/* "PID (COMM) STATE ...": COMM may hold ") " */
			if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) &&
			    p[1] == ' ' && p[2] == 'S') {
				fclose(f);
				return 0;
			}
			fclose(f);
		}
		usleep(100);
	}
	fprintf(stderr, "the child %d never slept in sigsuspend\n", (int)pid);
	return -1;
}
#endif
