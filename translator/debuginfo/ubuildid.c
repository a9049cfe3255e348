/* ubuildid.c - separate debuginfo of user-space programs by build-id
 * (see udwarf_debugfile in udwarf.h). */
#include "debuginfo/debuginfo.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* build_id - the GNU build-id of ELF file @path as lower-case hex
 * (malloc'd), or NULL */
static char *build_id(const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	const void *id = NULL;
	ssize_t n = -1, i;
	char *hex = NULL;
	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e)
		n = dwelf_elf_gnu_build_id(e, &id);
	if (n > 0) {
		hex = xcalloc(1, 2 * n + 1);
		for (i = 0; i < n; i++)
			sprintf(hex + 2 * i, "%02x",
				((const unsigned char *)id)[i]);
	}
	if (e)
		elf_end(e);
	close(fd);
	return hex;
}

char *udwarf_debugfile(const char *host)
{
	char *id = build_id(host), *path, *other;
	if (!id || strlen(id) < 3) {
		free(id);
		return NULL;
	}
	path = xasprintf("/usr/lib/debug/.build-id/%.2s/%s.debug", id, id + 2);
	other = build_id(path);
	if (!other || strcmp(other, id)) {
		free(path);
		path = NULL;
	}
	free(other);
	free(id);
	return path;
}
