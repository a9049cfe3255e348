/* ptyio: a known number of writes and reads through a pseudo-terminal.
 *
 * Usage: ptyio N M ROWS COLS
 *
 * Opens a pty pair (/dev/ptmx and its /dev/pts slave, put in raw mode
 * with VMIN=M), polls the slave once for input (poll(2) with timeout 0:
 * none yet), sets the window size through the master twice with
 * TIOCSWINSZ (24x80 characters of 8x16 pixels, then ROWSxCOLS of 8x16
 * pixels), then N times writes M bytes to the
 * master (message i is M times the letter 'A' + i % 26) and reads them
 * back from the slave with one read(2).  Closes both and prints
 * "writes=N reads=N bytes=B"; errors go to stderr with exit status 1.
 * M is 1 to 64. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

static int fail(const char *what)
{
	perror(what);
	return 1;
}

int main(int argc, char **argv)
{
	char wbuf[64], rbuf[64];
	struct winsize ws;
	struct termios t;
	struct pollfd pfd;
	long n, m, i, bytes = 0;
	int mfd, sfd;

	if (argc != 5) {
		fprintf(stderr, "usage: ptyio N M ROWS COLS\n");
		return 1;
	}
	n = strtol(argv[1], NULL, 10);
	m = strtol(argv[2], NULL, 10);
	if (m < 1 || m > 64) {
		fprintf(stderr, "ptyio: M must be 1 to 64\n");
		return 1;
	}
	mfd = posix_openpt(O_RDWR | O_NOCTTY);
	if (mfd < 0 || grantpt(mfd) < 0 || unlockpt(mfd) < 0)
		return fail("posix_openpt");
	sfd = open(ptsname(mfd), O_RDWR | O_NOCTTY);
	if (sfd < 0)
		return fail("open slave");
	if (tcgetattr(sfd, &t) < 0)
		return fail("tcgetattr");
	cfmakeraw(&t);
	t.c_cc[VMIN] = m;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(sfd, TCSANOW, &t) < 0)
		return fail("tcsetattr");

	pfd.fd = sfd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 0) != 0)
		return fail("poll");

	memset(&ws, 0, sizeof(ws));
	ws.ws_row = 24;
	ws.ws_col = 80;
	ws.ws_xpixel = 80 * 8;
	ws.ws_ypixel = 24 * 16;
	if (ioctl(mfd, TIOCSWINSZ, &ws) < 0)
		return fail("TIOCSWINSZ");
	ws.ws_row = strtol(argv[3], NULL, 10);
	ws.ws_col = strtol(argv[4], NULL, 10);
	ws.ws_xpixel = ws.ws_col * 8;
	ws.ws_ypixel = ws.ws_row * 16;
	if (ioctl(mfd, TIOCSWINSZ, &ws) < 0)
		return fail("TIOCSWINSZ");

	for (i = 0; i < n; i++) {
		memset(wbuf, 'A' + i % 26, m);
		if (write(mfd, wbuf, m) != m)
			return fail("write");
		if (read(sfd, rbuf, m) != m)
			return fail("read");
		if (memcmp(rbuf, wbuf, m) != 0) {
			fprintf(stderr, "ptyio: read back other bytes\n");
			return 1;
		}
		bytes += m;
	}
	close(sfd);
	close(mfd);
	printf("writes=%ld reads=%ld bytes=%ld\n", n, n, bytes);
	return 0;
}
