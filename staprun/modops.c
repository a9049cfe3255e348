/* modops.c - insert, rename and remove kernel modules (see modops.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "modops.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

char *mod_name_of(const char *path)
{
	const char *b = strrchr(path, '/');
	char *name, *p;
	size_t n;

	b = b ? b + 1 : path;
	name = strdup(b);
	if (!name)
		return NULL;
	n = strlen(name);
	if (n > 3 && strcmp(name + n - 3, ".ko") == 0)
		name[n - 3] = '\0';
	for (p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

void *mod_read_fd(int fd, size_t *len)
{
	struct stat st;
	char *img;
	size_t got = 0;

	if (fstat(fd, &st) != 0)
		return NULL;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return NULL;
	}
	if (!(img = malloc(st.st_size ? st.st_size : 1)))
		return NULL;
	while (got < (size_t)st.st_size) {
		ssize_t n = pread(fd, img + got, st.st_size - got, got);

		if (n <= 0) {
			int e = n ? errno : EIO;

			free(img);
			errno = e;
			return NULL;
		}
		got += n;
	}
	*len = got;
	return img;
}

void *mod_read(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *img;
	int e;

	if (fd < 0)
		return NULL;
	img = mod_read_fd(fd, len);
	e = errno;
	close(fd);
	errno = e;
	return img;
}

int mod_insert_fd(int fd, const char *params)
{
	return syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
}

/* find_section - the header of section @want in @img, or NULL. */
static const Elf64_Shdr *find_section(const void *img, size_t len,
				      const char *want)
{
	const Elf64_Ehdr *eh = img;
	const Elf64_Shdr *sh, *str;
	int i;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > len ||
	    eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	sh = (const Elf64_Shdr *)((const char *)img + eh->e_shoff);
	str = &sh[eh->e_shstrndx];
	if (str->sh_offset + str->sh_size > len)
		return NULL;
	for (i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_name < str->sh_size &&
		    !strcmp((const char *)img + str->sh_offset + sh[i].sh_name,
			    want))
			return sh[i].sh_offset + sh[i].sh_size <= len ? &sh[i] : NULL;
	return NULL;
}

char *mod_name_of_image(const void *img, size_t len)
{
	return mod_modinfo(img, len, "name");
}

char *mod_modinfo(const void *img, size_t len, const char *key)
{
	const Elf64_Shdr *sh = find_section(img, len, ".modinfo");
	const char *p, *end;
	size_t k = strlen(key);

	if (!sh)
		return NULL;
	p = (const char *)img + sh->sh_offset;
	end = p + sh->sh_size;
	while (p < end) {
		size_t n = strnlen(p, end - p);

		if (n > k && n < end - p && !strncmp(p, key, k) && p[k] == '=')
			return strdup(p + k + 1);
		p += n + 1;
	}
	return NULL;
}

int mod_rename(void *img, size_t len, const char *oldname, const char *newname)
{
	const Elf64_Shdr *sh = find_section(img, len, ".gnu.linkonce.this_module");
	size_t oldlen = strlen(oldname), newlen = strlen(newname);
	char *sec, *p;

	if (newlen > STP_MODULE_NAME_MAX)
		return -ENAMETOOLONG;
	if (!sh)
		return -ENOEXEC;
	sec = (char *)img + sh->sh_offset;
	/* struct module's name[] is a NUL-padded field of
	 * STP_MODULE_NAME_MAX + 1 bytes: find the old name there */
	for (p = sec; p + STP_MODULE_NAME_MAX + 1 <= sec + sh->sh_size; p++)
		if (!memcmp(p, oldname, oldlen + 1) && (p == sec || p[-1] == '\0')) {
			memset(p, 0, STP_MODULE_NAME_MAX + 1);
			memcpy(p, newname, newlen);
			return 0;
		}
	return -ENOEXEC;
}

int mod_insert_image(const void *img, size_t len, const char *params)
{
	return syscall(SYS_init_module, img, (unsigned long)len, params) ? -errno : 0;
}

int mod_insert_file(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -errno;
	rc = syscall(SYS_finit_module, fd, params, 0) ? -errno : 0;
	close(fd);
	if (rc == -ENOSYS || rc == -EOPNOTSUPP) {
		size_t len;
		void *img = mod_read(path, &len);

		if (!img)
			return -errno;
		rc = mod_insert_image(img, len, params);
		free(img);
	}
	return rc;
}

int mod_remove(const char *name, int wait_ms)
{
	int waited = 0;

	for (;;) {
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0)
			return 0;
		if (errno != EAGAIN && errno != EBUSY && errno != EINTR)
			return -errno;
		if (waited >= wait_ms)
			return -errno;
		nanosleep(&ts, NULL);
		waited += 20;
	}
}

int mod_is_loaded(const char *name)
{
	FILE *f = fopen("/proc/modules", "r");
	char line[512];
	size_t n = strlen(name);
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, name, n) && line[n] == ' ';
	if (f)
		fclose(f);
	return found;
}

int mod_kernel_build_id(char *hex, size_t max)
{
	unsigned char buf[4096];
	size_t n = 0, off = 0, i;
	ssize_t r;
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (n < sizeof(buf) && (r = read(fd, buf + n, sizeof(buf) - n)) > 0)
		n += r;
	close(fd);
	while (off + sizeof(Elf64_Nhdr) <= n) {
		Elf64_Nhdr h;
		size_t name, desc;

		memcpy(&h, buf + off, sizeof(h));
		name = off + sizeof(h);
		desc = name + ((h.n_namesz + 3) & ~3u);
		if (desc + h.n_descsz > n)
			break;
		if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 &&
		    !memcmp(buf + name, "GNU", 4) && h.n_descsz > 0 &&
		    2 * h.n_descsz < max) {
			for (i = 0; i < h.n_descsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", buf[desc + i]);
			return 0;
		}
		off = desc + ((h.n_descsz + 3) & ~3u);
	}
	return -1;
}
