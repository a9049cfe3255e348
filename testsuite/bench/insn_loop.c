/* insn_loop - N raw 1-byte read()s of /dev/zero (one vfs_read each), or
 * N getppid()s, between two marks that bench/insn_count.c's qemu plugin
 * watches: it counts the guest instructions run from insn_mark_start to
 * insn_mark_end.  Built static and non-PIE at an address no other guest
 * program uses, so that only this program runs the marks.
 * Usage: insn_loop N read|getppid */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* the marks: the plugin notes the count at their first instruction */
__attribute__((noinline, used)) void insn_mark_start(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline, used)) void insn_mark_end(void)
{
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[1]) : 0, i;
	int rd = argc > 2 && !strcmp(argv[2], "read");
	int fd = open("/dev/zero", O_RDONLY);
	char c;

	if (n <= 0 || (!rd && strcmp(argv[2], "getppid"))) {
		fprintf(stderr, "usage: insn_loop N read|getppid\n");
		return 2;
	}
	if (fd < 0) {
		perror("insn_loop: /dev/zero");
		return 1;
	}
	insn_mark_start();
	for (i = 0; i < n; i++)
		if (rd)
			syscall(SYS_read, fd, &c, 1);
		else
			syscall(SYS_getppid);
	insn_mark_end();
	return 0;
}
