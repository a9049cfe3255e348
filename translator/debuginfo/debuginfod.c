/* debuginfod.c - separate debuginfo from the sysroot, the host, or the
 * debuginfod servers (see debuginfod.h). */
#include "debuginfod.h"
#include "debuginfo.h"
#include "util.h"
#include "btf/vmlinuz.h"

#include <elf.h>
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/utsname.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *urls;              /* DEBUGINFOD_URLS as stap started, or NULL */
static const char *sysroot;     /* --sysroot, or NULL */
static char *last_error;
char *dbgd_debuginfo_path;

void dbg_debuginfod_setup(struct session *s)
{
	const char *u = getenv("DEBUGINFOD_URLS");
	if (u && *u && strspn(u, " \t") < strlen(u))
		urls = xstrdup(u);
	/* libdwfl asks the servers by itself when this is set: only we do */
	unsetenv("DEBUGINFOD_URLS");
	sysroot = s->sysroot && *s->sysroot ? s->sysroot : NULL;
}

int dbgd_enabled(void)
{
	return urls != NULL;
}

const char *dbgd_last_error(void)
{
	return last_error;
}

static char *hex(const unsigned char *id, size_t len)
{
	struct strbuf b = {0};
	size_t i;
	for (i = 0; i < len; i++)
		strbuf_printf(&b, "%02x", id[i]);
	return strbuf_detach(&b);
}

/* on_progress - libdebuginfod's progress callback: @a bytes of @b
 * received (b <= 0 while the size is unknown).  0: go on. */
static int on_progress(debuginfod_client *c, long a, long b)
{
	const char *what = debuginfod_get_user_data(c);
	if (what) {
		const char *url = debuginfod_get_url(c);
		progress_begin("downloading the debuginfo of %s from %s", what,
			       url ? url : urls);
		debuginfod_set_user_data(c, NULL);      /* begun */
	}
	if (b > 0 || a > 0)
		progress_update((double)a, (double)b, "MB");
	return 0;
}

char *dbgd_find(const unsigned char *id, size_t len, const char *what,
		char **why)
{
	debuginfod_client *c;
	char *path = NULL, *idhex = hex(id, len);
	int fd;
	if (!urls) {
		*why = xasprintf("no debuginfod server asked for build-id %s "
				 "(DEBUGINFOD_URLS is not set)", idhex);
		free(idhex);
		return NULL;
	}
	c = debuginfod_begin();
	if (!c) {
		*why = xasprintf("cannot start a debuginfod client: %s",
				 strerror(errno));
		free(idhex);
		return NULL;
	}
	debuginfod_set_progressfn(c, on_progress);
	debuginfod_set_user_data(c, (void *)what);
	if (stp_verbose)
		fprintf(stderr, "stap: asking %s for the debuginfo of %s "
			"(build-id %s)\n", urls, what, idhex);
	setenv("DEBUGINFOD_URLS", urls, 1);
	fd = debuginfod_find_debuginfo(c, id, (int)len, &path);
	unsetenv("DEBUGINFOD_URLS");
	if (!debuginfod_get_user_data(c))       /* a download was shown */
		progress_end(fd < 0 ? strerror(-fd) : NULL);
	debuginfod_end(c);
	if (fd >= 0) {
		close(fd);
		if (stp_verbose)
			fprintf(stderr, "stap: debuginfo of %s: %s\n", what, path);
		free(idhex);
		return path;
	}
	if (fd == -ENOENT)
		*why = xasprintf("the debuginfod server(s) %s have no "
				 "debuginfo for %s (build-id %s)", urls, what,
				 idhex);
	else
		*why = xasprintf("asking the debuginfod server(s) %s for the "
				 "debuginfo of %s (build-id %s) failed: %s",
				 urls, what, idhex, strerror(-fd));
	free(idhex);
	return NULL;
}

char *dbgd_kernel(struct session *s, char **why)
{
	static char *path, *err;        /* asked once per session */
	static int asked;
	unsigned char id[64];
	size_t n = 0, len = 0;
	struct utsname u;
	void *notes = NULL;
	char *what;
	if (asked)
		goto out;
	asked = 1;
	if (!urls) {
		err = xstrdup("no debuginfod server (DEBUGINFOD_URLS is not "
			      "set)");
		goto out;
	}
	if (!(s->sysroot && *s->sysroot) && uname(&u) == 0 &&
	    !strcmp(u.release, s->kernel_release))
		notes = read_file("/sys/kernel/notes", &len);
	if (!notes)
		notes = vmlinuz_notes(s, &len, &err);
	if (!notes)
		goto out;
	n = dbgd_note_build_id(notes, len, id, sizeof(id));
	free(notes);
	if (!n) {
		err = xasprintf("the image of kernel %s has no build-id note",
				s->kernel_release);
		goto out;
	}
	what = xasprintf("vmlinux-%s", s->kernel_release);
	path = dbgd_find(id, n, what, &err);
	free(what);
out:
	if (!path)
		*why = xstrdup(err ? err : "?");
	return path ? xstrdup(path) : NULL;
}

char *dbgd_kernel_build_id(struct session *s)
{
	static const char *const dwarf[] = {
		"%s/usr/lib/debug/boot/vmlinux-%s",
		"%s/usr/lib/debug/lib/modules/%s/vmlinux",
		"%s/boot/vmlinux-%s",
	};
	const char *root = s->sysroot && *s->sysroot ? s->sysroot : "";
	unsigned char id[64];
	struct utsname u;
	size_t n = 0, len, i;
	char *hex;

	if (!*root && uname(&u) == 0 && !strcmp(u.release, s->kernel_release)) {
		void *notes = read_file("/sys/kernel/notes", &len);
		if (notes)
			n = dbgd_note_build_id(notes, len, id, sizeof(id));
		free(notes);
	}
	for (i = 0; !n && i < sizeof(dwarf) / sizeof(dwarf[0]); i++) {
		char *p = xasprintf(dwarf[i], root, s->kernel_release);
		n = dbgd_build_id(p, id, sizeof(id));
		free(p);
	}
	if (!n)
		return NULL;
	hex = xmalloc(2 * n + 1);
	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	return hex;
}

size_t dbgd_note_build_id(const unsigned char *p, size_t n,
			  unsigned char *id, size_t max)
{
	size_t off = 0;
	while (off + sizeof(Elf64_Nhdr) <= n) {
		Elf64_Nhdr h;
		size_t name, desc;
		memcpy(&h, p + off, sizeof(h));
		name = off + sizeof(h);
		desc = name + ((h.n_namesz + 3) & ~3u);
		if (desc + h.n_descsz > n)
			break;
		if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 &&
		    !memcmp(p + name, "GNU", 4) && h.n_descsz <= max &&
		    h.n_descsz > 0) {
			memcpy(id, p + desc, h.n_descsz);
			return h.n_descsz;
		}
		off = desc + ((h.n_descsz + 3) & ~3u);
	}
	return 0;
}

size_t dbgd_build_id(const char *path, unsigned char *id, size_t max)
{
	static char *no_path;
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &no_path,
	};
	Dwfl *dwfl = dwfl_begin(&cb);
	Dwfl_Module *mod;
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = 0;
	if (!dwfl)
		return 0;
	dwfl_report_begin(dwfl);
	mod = dwfl_report_offline(dwfl, "file", path, -1);
	dwfl_report_end(dwfl, NULL, NULL);
	if (mod)
		n = dwfl_module_build_id(mod, &bits, &vaddr);
	if (n > 0 && (size_t)n <= max)
		memcpy(id, bits, n);
	else
		n = 0;
	dwfl_end(dwfl);
	return n;
}

int dbgd_find_debuginfo(Dwfl_Module *mod, void **userdata,
			const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file,
			GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	size_t n = sysroot ? strlen(sysroot) : 0;
	const unsigned char *bits;
	GElf_Addr vaddr;
	char *path, *why = NULL;
	int fd, len;
	/* a file of the target machine has its debuginfo in the target's
	 * /usr/lib/debug; one found on the host (no copy in the sysroot),
	 * in the host's */
	free(dbgd_debuginfo_path);
	if (sysroot && file_name && !strncmp(file_name, sysroot, n) &&
	    file_name[n] == '/')
		dbgd_debuginfo_path = xasprintf(":.debug:%s/usr/lib/debug",
						sysroot);
	else
		dbgd_debuginfo_path = xstrdup(":.debug:/usr/lib/debug");
	fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base,
					  file_name, debuglink_file,
					  debuglink_crc, debuginfo_file_name);
	if (fd >= 0 || !urls)
		return fd;
	len = dwfl_module_build_id(mod, &bits, &vaddr);
	if (len <= 0)
		return -1;
	path = dbgd_find(bits, len, file_name ? file_name : modname, &why);
	if (!path) {
		free(last_error);
		last_error = why;
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(path);
		return -1;
	}
	*debuginfo_file_name = path;
	return fd;
}
