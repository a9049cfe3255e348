/* sfwork: a workload for the stapfuncs lab tests (lab/stapfuncs_*):
 * known wide strings, buffers and values for the tapset's readers and
 * guru setters to read and change.
 *
 * Usage: sfwork
 *
 * In this order:
 *   - prints "buildid=HEX", its own GNU build-id (from its program
 *     headers), for lab/stapfuncs_user to compare umodbuildid() with;
 *   - calls strings(u16, u32, buf, 12, bad16, bad32): u16 the UTF-16
 *     string u"Hé€😀!" (😀 a surrogate pair), u32 the UTF-32 string
 *     U"Aé€😀", buf the 12 bytes "ab\0c\n\"\x7f\xc3\xa9z\t\\", bad16 a
 *     UTF-16 string with a lone high surrogate (0xd800, 'x'), bad32 a
 *     UTF-32 "character" 0x110000;
 *   - calls poke(target, &v): target a 32-byte buffer holding
 *     "original", v a struct of a char 'c', a short 1000, an int 41, a
 *     long 1234567890123 and a pointer 0x1000; then prints
 *     "target=TEXT c=C s=S i=I l=L p=0xP" (what a guru script stored);
 *   - creates /tmp/sfwork.dat with 100 bytes, then prints
 *     "lseek=N" for lseek(fd, 5, SEEK_SET) (5 unless a script changed
 *     the arguments), and removes the file;
 *   - on an AF_INET TCP socket, setsockopt(IPPROTO_TCP) TCP_NODELAY,
 *     TCP_KEEPIDLE and TCP_USER_TIMEOUT (to 1, 60 and 5000), printing
 *     "setsockopt ok" when all three work;
 *   - prints "done".
 * Errors go to stderr, exit status 1. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <uchar.h>
#include <unistd.h>

struct vals {
	char c;
	short s;
	int i;
	long l;
	void *p;
};

/* strings - where lab/stapfuncs_strings reads its arguments: pointer_arg(1..6) */
__attribute__((noinline, noipa, used)) long strings(const char16_t *u16, const char32_t *u32, const char *buf, long len, const char16_t *bad16, const char32_t *bad32)
{
	return u16[0] + u32[0] + buf[0] + len + bad16[0] + bad32[0];
}

/* poke - where lab/stapfuncs_guru stores into *target and *v */
__attribute__((noinline, noipa, used)) long poke(char *target, struct vals *v)
{
	return target[0] + v->c;
}

static int build_id(struct dl_phdr_info *info, size_t size, void *data)
{
	int i;

	(void)size;
	(void)data;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p, *end;

		if (ph->p_type != PT_NOTE)
			continue;
		p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			const unsigned char *d = (const unsigned char *)(nh + 1) + ((nh->n_namesz + 3) & ~3u);
			unsigned j;

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(nh + 1, "GNU", 4)) {
				printf("buildid=");
				for (j = 0; j < nh->n_descsz; j++)
					printf("%02x", d[j]);
				printf("\n");
				return 1;
			}
			p = (const char *)d + ((nh->n_descsz + 3) & ~3u);
		}
	}
	return 0;
}

int main(void)
{
	static const char16_t u16[] = u"H\u00e9\u20ac\U0001F600!";
	static const char32_t u32[] = U"A\u00e9\u20ac\U0001F600";
	static const char16_t bad16[] = { 0xd800, 'x', 0 };
	static const char32_t bad32[] = { 0x110000, 0 };
	static const char buf[12] = "ab\0c\n\"\x7f\xc3\xa9z\t\\";
	char target[32] = "original";
	struct vals v = { 'c', 1000, 41, 1234567890123L, (void *)0x1000 };
	char data[100];
	int fd, one = 1, idle = 60, tmo = 5000;
	off_t off;

	if (!dl_iterate_phdr(build_id, NULL))
		printf("buildid=none\n");
	fflush(stdout);
	strings(u16, u32, buf, sizeof(buf), bad16, bad32);
	poke(target, &v);
	printf("target=%s c=%c s=%d i=%d l=%ld p=%p\n", target, v.c, v.s, v.i, v.l, v.p);
	memset(data, 'x', sizeof(data));
	fd = open("/tmp/sfwork.dat", O_CREAT | O_RDWR | O_TRUNC, 0600);
	if (fd < 0 || write(fd, data, sizeof(data)) != sizeof(data)) {
		perror("sfwork: /tmp/sfwork.dat");
		return 1;
	}
	off = lseek(fd, 5, SEEK_SET);
	printf("lseek=%ld\n", (long)off);
	close(fd);
	unlink("/tmp/sfwork.dat");
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 ||
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) ||
	    setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle)) ||
	    setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &tmo, sizeof(tmo))) {
		perror("sfwork: setsockopt");
		return 1;
	}
	close(fd);
	printf("setsockopt ok\ndone\n");
	return 0;
}
