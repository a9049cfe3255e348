/* tcpconn: make exactly N TCP connections over loopback to itself.
 *
 * Usage: tcpconn N PORT [6]
 *
 * Listens on 127.0.0.1:PORT (on [::1]:PORT with "6"), then N times: connects a new socket to it
 * (the kernel picks an ephemeral local port), accepts the connection,
 * sends one byte each way and closes both ends.  One process (named
 * "tcpconn") makes N connect(2)s and N accept(2)s.  The loopback device
 * must be up.  Prints "connections=N"; errors go to stderr with exit
 * status 1. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in addr;
	struct sockaddr_in6 addr6;
	struct sockaddr *sa = (struct sockaddr *)&addr;
	socklen_t salen = sizeof(addr);
	long n, i;
	int ls, c, a, one = 1, fam = AF_INET;
	char b = 'x';

	if (argc != 3 && !(argc == 4 && strcmp(argv[3], "6") == 0)) {
		fprintf(stderr, "usage: tcpconn N PORT [6]\n");
		return 1;
	}
	n = strtol(argv[1], NULL, 10);
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_port = htons(strtol(argv[2], NULL, 10));
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (argc == 4) {
		memset(&addr6, 0, sizeof(addr6));
		addr6.sin6_family = fam = AF_INET6;
		addr6.sin6_port = addr.sin_port;
		addr6.sin6_addr = in6addr_loopback;
		sa = (struct sockaddr *)&addr6;
		salen = sizeof(addr6);
	}
	ls = socket(fam, SOCK_STREAM, 0);
	if (ls < 0 || setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(ls, sa, salen) || listen(ls, 16)) {
		perror("tcpconn: listen");
		return 1;
	}
	for (i = 0; i < n; i++) {
		c = socket(fam, SOCK_STREAM, 0);
		if (c < 0 || connect(c, sa, salen)) {
			perror("tcpconn: connect");
			return 1;
		}
		a = accept(ls, NULL, NULL);
		if (a < 0) {
			perror("tcpconn: accept");
			return 1;
		}
		if (write(c, &b, 1) != 1 || read(a, &b, 1) != 1 ||
		    write(a, &b, 1) != 1 || read(c, &b, 1) != 1) {
			perror("tcpconn: transfer");
			return 1;
		}
		close(c);
		close(a);
	}
	close(ls);
	printf("connections=%ld\n", n);
	return 0;
}
