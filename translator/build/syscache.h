/* syscache.h - pass 4: the runtime objects a kernel package's hook built
 * for every user (syscache.c). */
#ifndef STP_SYSCACHE_H
#define STP_SYSCACHE_H

/* syscache_dir - the system-wide SYSTEMTAP_DIR: $STAP_SYSTEM_DIR, else
 * LOCALSTATEDIR/cache/systemtap (/var/cache/systemtap for the Debian
 * package), where `stap-prep --runtime` (run as root, by the kernel
 * headers' postinst hook) builds the runtime for a kernel.  Static
 * storage; never NULL. */
const char *syscache_dir(void);

/* syscache_adopt - make the user's runtime cache directory @leaf (a path
 * .../cache/runtime/KVER-HASH, runtime_cache_dir's, not there yet) a
 * private copy of the system cache's directory of the same name, when
 * that is trusted: the system directory, every directory below it down
 * to that one and every file copied owned by root and writable by no
 * group or other user (the objects are linked into a kernel module).
 * Copies regular files and directories only, not a precompiled header
 * build's lock or work files; the copy is renamed into place, so a
 * concurrent stap sees all or nothing.  Returns 1 when @leaf was made
 * (or another stap made it meanwhile), 0 when there is nothing trusted
 * to adopt or the copy failed (nothing is left behind: the caller
 * compiles the runtime as without it).  May take a moment: the
 * precompiled header is some 45 MB.  No locks. */
int syscache_adopt(const char *leaf);

#endif
