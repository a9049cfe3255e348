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

#include "asleep.h"

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

/* sigchild_asleep - wait until the child @pid sleeps in rt_sigsuspend(2)
 * (asleep_in, which says what it returns). */
static int sigchild_asleep(pid_t pid)
{
	return asleep_in(pid, SYS_rt_sigsuspend, -1, "sigsuspend");
}
#endif
