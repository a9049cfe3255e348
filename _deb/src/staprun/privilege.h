/* privilege.h - who runs staprun/stapio, and the root they keep
 * (staprun/privilege.c).  staprun is installed setuid root; these keep
 * the effective uid the caller's except around the few operations that
 * need root (inserting and removing the module, opening its control and
 * relay files, mounting debugfs). */
#ifndef STP_PRIVILEGE_H
#define STP_PRIVILEGE_H

/* The caller's levels, SystemTap's groups, lowest first. */
enum { PRIV_NONE, PRIV_STAPUSR, PRIV_STAPSYS, PRIV_STAPDEV, PRIV_ROOT };

/* priv_caller_level - the caller's level from its real uid, real gid and
 * supplementary groups: PRIV_ROOT for uid 0, else the highest of the
 * groups stapdev, stapsys, stapusr it is in, else PRIV_NONE. */
int priv_caller_level(void);

/* priv_name - "root", "stapdev", "stapsys", "stapusr" or "none". */
const char *priv_name(int level);

/* priv_module_level - the level a module's modinfo "stap_privilege"
 * value names ("stapusr", "stapsys"); NULL or anything else: stapdev. */
int priv_module_level(const char *modinfo_value);

/* priv_setuid - 1 when running with root the real user does not have
 * (setuid: real uid != 0, saved or effective uid 0). */
int priv_setuid(void);

/* priv_sanitize_env - replace the environment by a fixed safe one
 * (PATH, and TERM/LANG/LC_ALL/TZ when their values are plain). */
void priv_sanitize_env(void);

/* priv_drop - effective uid/gid back to the real ones, keeping root as
 * the saved uid for priv_raise().  priv_raise - effective uid 0 again.
 * Both no-ops when the real uid is 0; return 0 or -errno. */
int priv_drop(void);
int priv_raise(void);

/* priv_drop_all - give up root for good (real, effective and saved uid
 * and gid all the real ones): for children running the user's commands.
 * Exits the process when that fails. */
void priv_drop_all(void);

#endif
