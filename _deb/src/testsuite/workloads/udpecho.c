/* udpecho: send exactly N datagrams of S bytes over loopback UDP.
 *
 * Usage: udpecho N S PORT
 *
 * Binds a receiver socket to 127.0.0.1:PORT and connects a sender socket
 * to it; N times the sender send(2)s S bytes (S <= 1024) and the receiver
 * recv(2)s them.  One process (named "udpecho"): N sends and N receives
 * of S bytes each.  The loopback device must be up.  Prints "datagrams=N
 * bytes=N*S"; errors go to stderr with exit status 1. */
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
	char buf[1024];
	long n, s, i, bytes = 0;
	int rs, ss;

	if (argc != 4) {
		fprintf(stderr, "usage: udpecho N S PORT\n");
		return 1;
	}
	n = strtol(argv[1], NULL, 10);
	s = strtol(argv[2], NULL, 10);
	if (n <= 0 || s <= 0 || s > (long)sizeof(buf)) {
		fprintf(stderr, "udpecho: N > 0 and 0 < S <= 1024 needed\n");
		return 1;
	}
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_port = htons(strtol(argv[3], NULL, 10));
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rs = socket(AF_INET, SOCK_DGRAM, 0);
	ss = socket(AF_INET, SOCK_DGRAM, 0);
	if (rs < 0 || ss < 0 || bind(rs, (struct sockaddr *)&addr, sizeof(addr)) ||
	    connect(ss, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("udpecho: setup");
		return 1;
	}
	memset(buf, 'u', sizeof(buf));
	for (i = 0; i < n; i++) {
		if (send(ss, buf, s, 0) != s) {
			perror("udpecho: send");
			return 1;
		}
		if (recv(rs, buf, sizeof(buf), 0) != s) {
			perror("udpecho: recv");
			return 1;
		}
		bytes += s;
	}
	close(ss);
	close(rs);
	printf("datagrams=%ld bytes=%ld\n", n, bytes);
	return 0;
}
