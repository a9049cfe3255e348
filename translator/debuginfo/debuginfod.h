/* debuginfod.h - where separate debuginfo files come from (debuginfo/
 * only): the sysroot's or the host's /usr/lib/debug, else the debuginfod
 * servers DEBUGINFOD_URLS names, by build-id, through elfutils'
 * libdebuginfod.
 *
 * What a server sends is kept in the debuginfod client cache
 * ($DEBUGINFOD_CACHE_PATH, else $XDG_CACHE_HOME/debuginfod_client or
 * ~/.cache/debuginfod_client), shared with gdb and every other client,
 * so it is downloaded once.  A download shows a progress line on a
 * terminal (util.h: progress_begin).
 *
 * stap takes DEBUGINFOD_URLS out of its environment at the start
 * (dbg_debuginfod_setup, debuginfo.h) so that libdwfl never asks a
 * server behind our back: every query goes through dbgd_find.
 */
#ifndef STP_DEBUGINFOD_H
#define STP_DEBUGINFOD_H

#include "session.h"
#include <elfutils/libdwfl.h>
#include <stddef.h>

/* dbgd_enabled - whether DEBUGINFOD_URLS named a server. */
int dbgd_enabled(void);

/* dbgd_find - the local path (heap) of the debuginfo file whose build-id
 * is the @len bytes at @id, from the client cache or downloaded now;
 * @what names the file for the progress line and messages
 * ("vmlinux-6.1.0-56-cloud-amd64", "/usr/bin/python3.11").  NULL with a
 * heap message in *@why when no server is set, the servers have nothing
 * for that build-id, or they cannot be reached.  May take minutes (a
 * kernel's DWARF is hundreds of MB); may not be called from probe
 * context, obviously, nor with locks held. */
char *dbgd_find(const unsigned char *id, size_t len, const char *what,
		char **why);

/* dbgd_kernel - the DWARF vmlinux of s->kernel_release from the servers,
 * by the build-id of the running kernel (/sys/kernel/notes: no sysroot,
 * the running release) or of SYSROOT/boot/vmlinuz-KVER: its local path
 * (heap), or NULL with a heap message in *@why.  The servers are asked
 * once per session. */
char *dbgd_kernel(struct session *s, char **why);

/* dbgd_build_id - the build-id of ELF file @path (compressed .ko.xz,
 * .ko.gz, .ko.zst too) into @id (@max bytes).  Returns its length, or 0
 * when the file has none or cannot be read. */
size_t dbgd_build_id(const char *path, unsigned char *id, size_t max);

/* dbgd_note_build_id - the build-id in the ELF notes of @n bytes at @p
 * (a PT_NOTE segment, .notes, /sys/kernel/notes) into @id (@max bytes).
 * Returns its length, or 0. */
size_t dbgd_note_build_id(const unsigned char *p, size_t n,
			  unsigned char *id, size_t max);

/* dbgd_find_debuginfo - libdwfl's find_debuginfo callback: the separate
 * debuginfo of @mod from the sysroot's /usr/lib/debug when @file_name
 * lies in the sysroot (else the host's), by build-id or debuglink as
 * dwfl_standard_find_debuginfo finds it; then from the debuginfod
 * servers.  Use with .debuginfo_path = &dbgd_debuginfo_path.  Returns an
 * open fd (the file's path in *@debuginfo_file_name) or -1; after -1,
 * dbgd_last_error() says what the servers answered, if asked. */
int dbgd_find_debuginfo(Dwfl_Module *mod, void **userdata,
			const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file,
			GElf_Word debuglink_crc, char **debuginfo_file_name);
extern char *dbgd_debuginfo_path;

/* dbgd_last_error - what the last failed server query said, or NULL. */
const char *dbgd_last_error(void);

#endif
