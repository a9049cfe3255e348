/* privilege.c - the caller's privilege level and the root staprun and
 * stapio keep (see privilege.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "privilege.h"

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* in_group - 1 when the real gid or a supplementary group is @name's */
static int in_group(const char *name)
{
	struct group *g = getgrnam(name);
	gid_t list[256];
	int i, n;

	if (!g)
		return 0;
	if (getgid() == g->gr_gid)
		return 1;
	n = getgroups(256, list);
	for (i = 0; i < n; i++)
		if (list[i] == g->gr_gid)
			return 1;
	return 0;
}

int priv_caller_level(void)
{
	if (getuid() == 0)
		return PRIV_ROOT;
	if (in_group("stapdev"))
		return PRIV_STAPDEV;
	if (in_group("stapsys"))
		return PRIV_STAPSYS;
	if (in_group("stapusr"))
		return PRIV_STAPUSR;
	return PRIV_NONE;
}

const char *priv_name(int level)
{
	static const char *names[] = { "none", "stapusr", "stapsys",
				       "stapdev", "root" };
	return level >= 0 && level <= PRIV_ROOT ? names[level] : "none";
}

int priv_module_level(const char *v)
{
	if (v && !strcmp(v, "stapusr"))
		return PRIV_STAPUSR;
	if (v && !strcmp(v, "stapsys"))
		return PRIV_STAPSYS;
	return PRIV_STAPDEV;
}

int priv_setuid(void)
{
	uid_t r, e, s;

	if (getresuid(&r, &e, &s) != 0)
		return 0;
	return r != 0 && (e == 0 || s == 0);
}

/* a value without shell or path tricks: letters, digits, . _ - @ : */
static int plain(const char *v)
{
	for (; *v; v++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789._-@:", *v))
			return 0;
	return 1;
}

void priv_sanitize_env(void)
{
	static const char *keep[] = { "TERM", "LANG", "LC_ALL", "TZ" };
	char *vals[4];
	int i;

	for (i = 0; i < 4; i++) {
		const char *v = getenv(keep[i]);
		vals[i] = v && plain(v) && strlen(v) < 64 ? strdup(v) : NULL;
	}
	clearenv();
	setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
	for (i = 0; i < 4; i++)
		if (vals[i]) {
			setenv(keep[i], vals[i], 1);
			free(vals[i]);
		}
}

int priv_drop(void)
{
	if (getuid() == 0)
		return 0;
	if (setresgid(-1, getgid(), -1) != 0 || setresuid(-1, getuid(), -1) != 0)
		return -errno;
	return 0;
}

int priv_raise(void)
{
	if (getuid() == 0)
		return 0;
	if (setresuid(-1, 0, -1) != 0 || setresgid(-1, 0, -1) != 0)
		return -errno;
	return 0;
}

void priv_drop_all(void)
{
	uid_t u = getuid();
	gid_t g = getgid();

	if (u == 0)
		return;
	if (setresuid(-1, 0, -1) != 0 && errno != EPERM)
		_exit(126);
	if (setresgid(g, g, g) != 0 || setresuid(u, u, u) != 0) {
		fprintf(stderr, "staprun: cannot give up root: %s\n",
			strerror(errno));
		_exit(126);
	}
}
