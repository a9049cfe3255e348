/* modtp.c - the tracepoints of kernel modules, for kernel.trace("kvm:*")
 * (tracepoints.c): which module defines which tracepoint, and in which
 * subsystem.
 *
 * A module's tracepoint names are the strings of its .ko's
 * __tracepoints_strings section.  The subsystem is not written down
 * anywhere as a string of its own: the trace event event_NAME (a struct
 * trace_event_call) points to its class event_class_CLASS, whose first
 * member .system points to the TRACE_SYSTEM string; in a .ko those
 * pointers are relocations, followed here.  Compressed modules (.ko.xz)
 * are read through their unstripped copies under /usr/lib/debug when the
 * debuginfo is installed, else unpacked (kmodfile.h).
 */
#include "btf_int.h"
#include "debuginfo/kmodfile.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct vec points;               /* struct tp_modpoint * */
static struct session *points_session;

/* The .ko last read by lookup_sys: the tracepoints of one module come
 * one after the other, and a compressed one is unpacked once for all. */
static struct {
	char *path;
	int fd;
	Elf *e;
} last;

/* close_last - forget the .ko lookup_sys read last */
static void close_last(void)
{
	if (last.e)
		elf_end(last.e);
	if (last.path && last.fd >= 0)
		close(last.fd);
	free(last.path);
	memset(&last, 0, sizeof(last));
}

/* open_last - the libelf handle of the module file @path (NULL if it
 * cannot be read), kept until the next path or the session's end */
static Elf *open_last(const char *path)
{
	if (last.path && !strcmp(last.path, path))
		return last.e;
	close_last();
	last.path = xstrdup(path);
	if ((last.fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0)
		last.e = kmod_elf_begin(last.fd);
	return last.e;
}

/* forget_points - util_on_reset */
static void forget_points(void)
{
	memset(&points, 0, sizeof(points));
	points_session = NULL;
	close_last();
}

/* section_named - the section of @e called @name, or NULL */
static Elf_Scn *section_named(Elf *e, const char *name)
{
	size_t shstr;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	if (elf_getshdrstrndx(e, &shstr))
		return NULL;
	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh)) {
			const char *n = elf_strptr(e, shstr, sh.sh_name);
			if (n && !strcmp(n, name))
				return scn;
		}
	return NULL;
}

/* modname - "kvm_intel" for ".../kvm-intel.ko" */
static char *modname(const char *path)
{
	const char *base = strrchr(path, '/');
	char *n = xstrdup(base ? base + 1 : path), *c;
	if ((c = strstr(n, ".ko")))
		*c = 0;
	for (c = n; *c; c++)
		if (*c == '-')
			*c = '_';
	return n;
}

/* add_module - the tracepoints of the .ko at @path */
static void add_module(const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn;
	Elf_Data *d;
	char *mod = NULL;
	size_t i;
	if (fd < 0)
		return;
	e = kmod_elf_begin(fd);
	if (e && (scn = section_named(e, "__tracepoints_strings")) &&
	    (d = elf_getdata(scn, NULL)) && d->d_buf) {
		const char *b = d->d_buf;
		mod = modname(path);
		for (i = 0; i < d->d_size; i += strlen(b + i) + 1) {
			struct tp_modpoint *t;
			if (!b[i] || !memchr(b + i, 0, d->d_size - i))
				continue;
			t = xcalloc(1, sizeof(*t));
			t->module = xstrdup(mod);
			t->name = xstrdup(b + i);
			t->path = xstrdup(path);
			vec_push(&points, t);
		}
	}
	free(mod);
	if (e)
		elf_end(e);
	close(fd);
}

struct vec *tp_module_points(struct session *s)
{
	char *order, *text, *line, *next;
	if (points_session == s)
		return &points;
	points_session = s;
	points.n = 0;
	util_on_reset(forget_points);
	elf_version(EV_CURRENT);
	order = xasprintf("%s/lib/modules/%s/modules.order",
			  s->sysroot ? s->sysroot : "", s->kernel_release);
	text = read_file(order, NULL);
	for (line = text; line && *line; line = next) {
		if ((next = strchr(line, '\n')))
			*next++ = 0;
		else
			next = line + strlen(line);
		if (*line) {
			char *path = kmod_file(s, line);
			if (path)
				add_module(path);
			free(path);
		}
	}
	free(text);
	free(order);
	return &points;
}

/* member_offset - the byte offset of member @member of struct @sname in
 * the kernel's BTF, or -1 */
static long member_offset(struct btf_prov *kp, const char *sname,
			  const char *member)
{
	int id = btf__find_by_name_kind(kp->btf, sname, BTF_KIND_STRUCT);
	const struct btf_type *t;
	const struct btf_member *m;
	int i;
	if (id <= 0 || !(t = btf__type_by_id(kp->btf, id)))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(kp->btf, m->name_off), member))
			return btf_member_bit_offset(t, i) / 8;
	return -1;
}

/* The symbol table of one .ko, for following relocations. */
struct relf {
	Elf *e;
	Elf_Data *syms;
	size_t symstr;
};

/* reloc_target - where the 64-bit pointer at byte @off of section @sec
 * points: its relocation's symbol's section (*@tsec) and the byte offset
 * in it (*@toff).  0, or -1 when no relocation is there. */
static int reloc_target(struct relf *r, size_t sec, uint64_t off,
			size_t *tsec, uint64_t *toff)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(r->e, scn))) {
		Elf_Data *d;
		size_t i, n;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA ||
		    sh.sh_info != sec || !(d = elf_getdata(scn, NULL)))
			continue;
		n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (i = 0; i < n; i++) {
			GElf_Rela rel;
			GElf_Sym sym;
			if (!gelf_getrela(d, i, &rel) || rel.r_offset != off ||
			    !gelf_getsym(r->syms, GELF_R_SYM(rel.r_info), &sym))
				continue;
			*tsec = sym.st_shndx;
			*toff = sym.st_value + rel.r_addend;
			return 0;
		}
	}
	return -1;
}

/* symbol_at - section and offset of the symbol called @name */
static int symbol_at(struct relf *r, const char *name, size_t *sec,
		     uint64_t *off)
{
	size_t i, n = r->syms->d_size / sizeof(Elf64_Sym);
	for (i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *sn;
		if (!gelf_getsym(r->syms, i, &sym) ||
		    !(sn = elf_strptr(r->e, r->symstr, sym.st_name)) ||
		    strcmp(sn, name))
			continue;
		*sec = sym.st_shndx;
		*off = sym.st_value;
		return 0;
	}
	return -1;
}

/* lookup_sys - the subsystem of @t (heap; "" if unknown) */
static char *lookup_sys(struct btf_prov *kp, struct tp_modpoint *t)
{
	long cls_off = member_offset(kp, "trace_event_call", "class");
	long sys_off = member_offset(kp, "trace_event_class", "system");
	struct relf r = {0};
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	char *ev = xasprintf("event_%s", t->name), *ret = NULL;
	size_t sec, ssec;
	uint64_t off, soff;
	Elf_Data *d;
	if (cls_off >= 0 && sys_off >= 0)
		r.e = open_last(t->path);
	while (r.e && (scn = elf_nextscn(r.e, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			r.syms = elf_getdata(scn, NULL);
			r.symstr = sh.sh_link;
			break;
		}
	if (r.syms && !symbol_at(&r, ev, &sec, &off) &&
	    !reloc_target(&r, sec, off + cls_off, &sec, &off) &&
	    !reloc_target(&r, sec, off + sys_off, &ssec, &soff) &&
	    (scn = elf_getscn(r.e, ssec)) && (d = elf_getdata(scn, NULL)) &&
	    d->d_buf && soff < d->d_size &&
	    memchr((char *)d->d_buf + soff, 0, d->d_size - soff))
		ret = xstrdup((char *)d->d_buf + soff);
	free(ev);
	return ret ? ret : xstrdup("");
}

const char *tp_modpoint_sys(struct btf_prov *kp, struct tp_modpoint *t)
{
	if (!t->sys)
		t->sys = lookup_sys(kp, t);
	return t->sys;
}
