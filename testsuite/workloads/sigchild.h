/* sigchild.h - the signal-receiving child of sigsend.c and sigkinds.c.
 *
 * sigchild_main(K): install a SIGUSR1 handler (one sigaction) that counts
 * and writes 'h' to ack[1], block SIGUSR1, write 'r' (ready) to ack[1],
 * then sigsuspend() until K signals were handled; returns 0 (2 when the
 * pipe fails).  The parent makes the pipe ack first and sends the next
 * signal only after reading the previous 'h', so none is merged with a
 * pending one. */
#ifndef SIGCHILD_H
#define SIGCHILD_H
#include <signal.h>
#include <string.h>
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
#endif
