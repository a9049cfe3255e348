/* tcpecho: N round trips of a 64-byte message over a TCP connection on
 * 127.0.0.1 (default 100).
 *
 * Usage: tcpecho [N]
 *
 * Listens on 127.0.0.1 (an ephemeral port), forks a child that connects
 * and echoes back whatever it receives, then sends N messages and reads
 * each echo back in full, checking its contents.  Prints nothing; errors
 * go to stderr with exit status 1.  Both processes are named "tcpecho". */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MSG 64

static int full_io(int fd, char *buf, size_t n, int writing)
{
	size_t done = 0;
	while (done < n) {
		ssize_t r = writing ? write(fd, buf + done, n - done)
				    : read(fd, buf + done, n - done);
		if (r <= 0)
			return -1;
		done += r;
	}
	return 0;
}

static int echo_child(struct sockaddr_in *addr)
{
	char buf[MSG];
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)addr, sizeof(*addr)) < 0) {
		perror("tcpecho: connect");
		return 1;
	}
	while (full_io(fd, buf, MSG, 0) == 0)
		if (full_io(fd, buf, MSG, 1) < 0)
			return 1;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100;
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	char out[MSG], in[MSG];
	int ls, fd, status;
	pid_t pid;

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ls = socket(AF_INET, SOCK_STREAM, 0);
	if (ls < 0 || bind(ls, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(ls, 1) < 0 ||
	    getsockname(ls, (struct sockaddr *)&addr, &alen) < 0) {
		perror("tcpecho: listen");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("tcpecho: fork");
		return 1;
	}
	if (pid == 0) {
		close(ls);
		_exit(echo_child(&addr));
	}
	fd = accept(ls, NULL, NULL);
	if (fd < 0) {
		perror("tcpecho: accept");
		return 1;
	}
	for (long i = 0; i < n; i++) {
		memset(out, 'a' + i % 26, sizeof(out));
		if (full_io(fd, out, MSG, 1) < 0 || full_io(fd, in, MSG, 0) < 0 ||
		    memcmp(in, out, MSG) != 0) {
			fprintf(stderr, "tcpecho: round trip %ld failed\n", i);
			return 1;
		}
	}
	close(fd);
	close(ls);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0) {
		fprintf(stderr, "tcpecho: echo child failed\n");
		return 1;
	}
	return 0;
}
