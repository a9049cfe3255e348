/* syscache.c - pass 4: a user's first script for a kernel takes the
 * runtime objects that root built for every user when the kernel's
 * headers were installed (`stap-prep --runtime`, Debian's
 * /etc/kernel/header_postinst.d/systemtap-ng), copying them into the
 * user's own cache: then it compiles only the script's C, like any later
 * script.  See syscache.h. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "syscache.h"
#include "util.h"

const char *syscache_dir(void)
{
	const char *d = getenv("STAP_SYSTEM_DIR");
	return d && *d ? d : LOCALSTATEDIR "/cache/systemtap";
}

/* root_only - whether @st is root's and nobody else can change what it
 * holds: not writable by group or others, or (a directory above the
 * cache, like /tmp) sticky, where others cannot rename root's entries. */
static int root_only(const struct stat *st, int sticky_ok)
{
	if (st->st_uid != 0)
		return 0;
	if (!(st->st_mode & 022))
		return 1;
	return sticky_ok && S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX);
}

/* trusted_path - whether directory @path and every directory above it
 * are root_only (those above may be sticky), none a symbolic link. */
static int trusted_path(const char *path)
{
	char *p = xstrdup(path), *s;
	struct stat st;
	int ok = path[0] == '/';
	for (s = p + 1; ok; s++) {
		char c = *s;
		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		ok = lstat(p, &st) == 0 && S_ISDIR(st.st_mode) &&
		     root_only(&st, c != '\0');
		*s = c;
		if (c == '\0')
			break;
	}
	free(p);
	return ok;
}

/* copy_one - copy the regular file @src (already lstat'ed: @st) to @dst,
 * keeping its modification time (pch.c keeps the most recently used
 * precompiled headers); 0 or -1. */
static int copy_one(const char *src, const char *dst, const struct stat *st)
{
	struct timespec t[2] = { st->st_atim, st->st_mtim };
	if (copy_file_new(src, dst, 0644) < 0)
		return -1;
	utimensat(AT_FDCWD, dst, t, 0);
	return 0;
}

/* copy_tree - copy directory @src's root_only regular files and
 * directories to the new directory @dst, leaving out a precompiled
 * header build's lock and work files (pch.c); 0, or -1 on anything not
 * trusted or not copied. */
static int copy_tree(const char *src, const char *dst)
{
	DIR *d = opendir(src);
	struct dirent *de;
	int rc = d && mkdir(dst, 0755) == 0 ? 0 : -1;
	while (rc == 0 && (de = readdir(d)) != NULL) {
		const char *n = de->d_name;
		char *s, *t;
		struct stat st;
		if (!strcmp(n, ".") || !strcmp(n, "..") ||
		    strstr(n, ".tmp") || strstr(n, ".lock"))
			continue;
		s = xasprintf("%s/%s", src, n);
		t = xasprintf("%s/%s", dst, n);
		if (lstat(s, &st) != 0 || !root_only(&st, 0))
			rc = -1;
		else if (S_ISDIR(st.st_mode))
			rc = copy_tree(s, t);
		else if (S_ISREG(st.st_mode))
			rc = copy_one(s, t, &st);
		else
			rc = -1;
		free(s);
		free(t);
	}
	if (d)
		closedir(d);
	return rc;
}

int syscache_adopt(const char *leaf)
{
	const char *name = strrchr(leaf, '/');
	char *sys, *real, *tmp, *parent;
	struct stat st;
	int rc = 0;
	if (!name)
		return 0;
	sys = xasprintf("%s/cache/runtime%s", syscache_dir(), name);
	real = realpath(sys, NULL);
	/* the user's cache is the system one (root running stap-prep) */
	if (!real || !strcmp(sys, leaf) || !trusted_path(real)) {
		free(real);
		free(sys);
		return 0;
	}
	parent = xstrdup(leaf);
	*strrchr(parent, '/') = '\0';
	tmp = xasprintf("%s.tmp%d", leaf, (int)getpid());
	if (mkdir_p(parent) == 0 && copy_tree(real, tmp) == 0 &&
	    (rename(tmp, leaf) == 0 || stat(leaf, &st) == 0))
		rc = 1;
	remove_tree(tmp);
	if (rc && stp_verbose > 1)
		fprintf(stderr, "stap: runtime objects: copied from %s\n", real);
	free(parent);
	free(tmp);
	free(real);
	free(sys);
	return rc;
}
