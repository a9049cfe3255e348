/* sockio: a known number of socket transfers and TCP option settings.
 *
 * Usage: sockio N M K
 *
 * Over an AF_UNIX stream socketpair: N writev() calls of M bytes (two
 * iovecs, M/2 and M - M/2 bytes), each followed by one readv() of the M
 * bytes into two iovecs of the same sizes; then one writev() and one
 * readv() of 1024 iovecs of one byte each (UIO_MAXIOV).  Between two AF_INET UDP
 * sockets bound to 127.0.0.1: N sendmsg() calls of one M-byte datagram,
 * each followed by one recvmsg() of it.  Then K setsockopt(TCP_NODELAY)
 * calls on an AF_INET TCP socket and K on an AF_INET6 one (neither
 * connected).  Closes the six sockets and prints
 * "writev=N+1 readv=N+1 sendmsg=N recvmsg=N nodelay=2K"; errors go to stderr
 * with exit status 1.  M is 2 to 4096; the loopback device must be up. */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static int fail(const char *what)
{
	perror(what);
	return 1;
}

int main(int argc, char **argv)
{
	static char wbuf[4096], rbuf[4096];
	static struct iovec many[1024];
	struct sockaddr_in addr;
	socklen_t alen = sizeof(addr);
	struct iovec wv[2], rv[2];
	struct msghdr msg;
	long n, m, k, i;
	int up[2], u1, u2, t4, t6, one = 1;

	if (argc != 4) {
		fprintf(stderr, "usage: sockio N M K\n");
		return 1;
	}
	n = strtol(argv[1], NULL, 10);
	m = strtol(argv[2], NULL, 10);
	k = strtol(argv[3], NULL, 10);
	if (m < 2 || m > 4096) {
		fprintf(stderr, "sockio: M must be 2 to 4096\n");
		return 1;
	}
	memset(wbuf, 'v', sizeof(wbuf));

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, up) < 0)
		return fail("socketpair");
	wv[0].iov_base = wbuf;
	wv[0].iov_len = m / 2;
	wv[1].iov_base = wbuf + m / 2;
	wv[1].iov_len = m - m / 2;
	rv[0].iov_base = rbuf;
	rv[0].iov_len = m / 2;
	rv[1].iov_base = rbuf + m / 2;
	rv[1].iov_len = m - m / 2;
	for (i = 0; i < n; i++) {
		if (writev(up[0], wv, 2) != m)
			return fail("writev");
		if (readv(up[1], rv, 2) != m)
			return fail("readv");
	}
	for (i = 0; i < 1024; i++) {
		many[i].iov_base = wbuf + i;
		many[i].iov_len = 1;
	}
	if (writev(up[0], many, 1024) != 1024)
		return fail("writev 1024");
	for (i = 0; i < 1024; i++)
		many[i].iov_base = rbuf + i;
	if (readv(up[1], many, 1024) != 1024)
		return fail("readv 1024");

	u1 = socket(AF_INET, SOCK_DGRAM, 0);
	u2 = socket(AF_INET, SOCK_DGRAM, 0);
	if (u1 < 0 || u2 < 0)
		return fail("socket udp");
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(u2, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    getsockname(u2, (struct sockaddr *)&addr, &alen) < 0)
		return fail("bind");
	for (i = 0; i < n; i++) {
		wv[0].iov_len = m;
		memset(&msg, 0, sizeof(msg));
		msg.msg_name = &addr;
		msg.msg_namelen = sizeof(addr);
		msg.msg_iov = wv;
		msg.msg_iovlen = 1;
		if (sendmsg(u1, &msg, 0) != m)
			return fail("sendmsg");
		rv[0].iov_len = m;
		memset(&msg, 0, sizeof(msg));
		msg.msg_iov = rv;
		msg.msg_iovlen = 1;
		if (recvmsg(u2, &msg, 0) != m)
			return fail("recvmsg");
	}

	t4 = socket(AF_INET, SOCK_STREAM, 0);
	t6 = socket(AF_INET6, SOCK_STREAM, 0);
	if (t4 < 0 || t6 < 0)
		return fail("socket tcp");
	for (i = 0; i < k; i++)
		if (setsockopt(t4, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0 ||
		    setsockopt(t6, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
			return fail("setsockopt");

	close(up[0]);
	close(up[1]);
	close(u1);
	close(u2);
	close(t4);
	close(t6);
	printf("writev=%ld readv=%ld sendmsg=%ld recvmsg=%ld nodelay=%ld\n",
	       n + 1, n + 1, n, n, 2 * k);
	return 0;
}
