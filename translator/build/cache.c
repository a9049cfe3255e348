/* cache.c - the module cache (see cache.h). */
#include "cache.h"
#include "parse/parse.h"
#include "hash.h"
#include "kbuild.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef STAP_CACHE_VERSION
#define STAP_CACHE_VERSION "systemtap-ng 0.1 cache 1"
#endif

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* hash_runtime - the name and contents of every runtime .c/.h, in name
 * order: the runtime "version" is its source. */
static int hash_runtime(struct stp_hash *h, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct vec names = {0};
	int i, rc = 0;

	if (!d) {
		fprintf(stderr, "stap: cannot open the runtime directory %s: %s\n",
			dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);

		if (de->d_name[0] != '.' && n > 2 &&
		    (!strcmp(de->d_name + n - 2, ".c") ||
		     !strcmp(de->d_name + n - 2, ".h")))
			vec_push(&names, xstrdup(de->d_name));
	}
	closedir(d);
	qsort(names.items, names.n, sizeof(void *), cmp_str);
	for (i = 0; i < names.n; i++) {
		char *p = xasprintf("%s/%s", dir, (char *)names.items[i]);

		hash_add_str(h, names.items[i]);
		if (hash_add_file(h, p) < 0)
			rc = -1;
		free(p);
		free(names.items[i]);
	}
	free(names.items);
	return rc;
}

/* vmlinux_build_id - hash the GNU build-id note of @path (an ELF file).
 * Returns 1 when one was found and hashed, else 0. */
static int vmlinux_build_id(struct stp_hash *h, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), found = 0;
	Elf *e;
	Elf_Scn *scn = NULL;

	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && !found && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		while (data && (off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0)
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)data->d_buf + noff, "GNU", 4)) {
				hash_add_str(h, "build-id");
				hash_add(h, (char *)data->d_buf + doff, nh.n_descsz);
				found = 1;
				break;
			}
	}
	if (e)
		elf_end(e);
	close(fd);
	return found;
}

/* kernel_identity - what identifies the target kernel's build: the GNU
 * build-id of the build tree's vmlinux when it has one (a full build
 * tree); otherwise (a headers-only tree, e.g. Debian's linux-headers)
 * the contents of include/generated/utsrelease.h and compile.h (release
 * and build stamp), include/config/kernel.release, .config (the
 * configuration, the compiler version, the architecture) and
 * Module.symvers (the exported symbols' CRCs, which change with any ABI
 * change).  The .config and Module.symvers are hashed in both cases. */
static int kernel_identity(struct stp_hash *h, const char *build)
{
	static const char *const files[] = {
		".config", "Module.symvers", "include/generated/utsrelease.h",
		"include/generated/compile.h", "include/generated/utsversion.h",
		"include/config/kernel.release",
	};
	char *p = xasprintf("%s/vmlinux", build);
	int i, rc = 0, have_id = vmlinux_build_id(h, p);

	free(p);
	for (i = 0; i < (int)(sizeof(files) / sizeof(files[0])); i++) {
		if (have_id && i >= 2)
			break;
		p = xasprintf("%s/%s", build, files[i]);
		hash_add_str(h, files[i]);
		if (hash_add_file(h, p) < 0) {
			fprintf(stderr, "stap: cannot read %s: %s\n", p,
				strerror(errno));
			rc = -1;
		}
		free(p);
	}
	return rc;
}

/* hash_inputs - what both keys hash: the translator, the script and its
 * arguments, the runtime, the kernel's build, the compiler, the
 * architecture and the options that reach passes 2-4.  Returns 0 or -1
 * (a file could not be read). */
static int hash_inputs(struct stp_hash *h, struct session *s)
{
	struct utsname u;
	int i, rc = 0;

	hash_add_str(h, STAP_CACHE_VERSION);
	/* the translator itself: any rebuild of stap (a code generator
	 * change without a version bump) is a new key */
	hash_add_str(h, "translator");
	if (hash_add_file(h, "/proc/self/exe") < 0)
		rc = -1;
	hash_add_str(h, "script");
	hash_add_str(h, s->script_text);
	for (i = 0; i < s->extra_scripts.n; i++)        /* -E */
		hash_add_str(h, s->extra_scripts.items[i]);
	hash_add_str(h, "args");
	for (i = 0; i < s->nargs; i++)
		hash_add_str(h, s->args[i]);
	hash_add_str(h, "runtime");
	if (hash_runtime(h, s->runtime_dir) < 0)
		rc = -1;
	hash_add_str(h, "kernel");
	hash_add_str(h, s->kernel_release);
	if (kernel_identity(h, s->kernel_build) < 0)
		rc = -1;
	{
		char *cc = kbuild_compiler_id(s->kernel_build);
		hash_add_str(h, "compiler");
		hash_add_str(h, cc);
		free(cc);
	}
	uname(&u);
	hash_add_str(h, "arch");
	hash_add_str(h, u.machine);
	hash_add_str(h, "options");
	hash_add_str(h, s->guru ? "-g" : "");
	hash_add_str(h, s->btf_only ? "--btf" : "");
	hash_add_str(h, s->skip_badvars ? "--skip-badvars" : "");
	hash_add_str(h, s->unoptimized ? "-u" : "");
	hash_add_str(h, s->privilege == STP_PRIV_STAPUSR ? "stapusr" :
		     s->privilege == STP_PRIV_STAPSYS ? "stapsys" : "");
	hash_add_str(h, s->ldd ? "--ldd" : "");
	/* -c/-x name the program of path-less process probes: -c's first
	 * word only, so the same script run on other arguments hits */
	hash_add(h, s->target_cmd ? s->target_cmd : "",
		 s->target_cmd ? strcspn(s->target_cmd, " \t\n") : 0);
	if (s->target_pid) {
		char pid[24];
		snprintf(pid, sizeof(pid), "-x %lld", (long long)s->target_pid);
		hash_add_str(h, pid);
	}
	for (i = 0; i < s->user_modules.n; i++)
		hash_add_str(h, s->user_modules.items[i]);
	for (i = 0; i < s->defines.n; i++)
		hash_add_str(h, s->defines.items[i]);
	hash_add_str(h, "make");   /* -B: make variables can change the code */
	for (i = 0; i < s->make_vars.n; i++)
		hash_add_str(h, s->make_vars.items[i]);
	return rc;
}

int cache_key(struct session *s, char hex[65])
{
	struct stp_hash *h = hash_new();
	int i, rc;

	if (!h)
		return -1;
	rc = hash_inputs(h, s);
	/* every tapset file parsed (the tapset directory and -I ones): a
	 * superset of those the program uses, and cheap to read */
	hash_add_str(h, "tapsets");
	for (i = 0; i < s->library.n; i++) {
		struct stapfile *f = s->library.items[i];

		hash_add_str(h, f->name);
		if (hash_add_file(h, f->name) < 0)
			rc = -1;
	}
	hash_finish(h, hex);
	return rc;
}

/* debuginfo_identity - what pass 2 reads the kernel from: the build-id
 * of the debuginfo vmlinux; without one, the size and time of the image
 * whose BTF it reads (/boot/vmlinuz, or the running kernel's
 * /sys/kernel/btf/vmlinux).  Returns 0, or -1 when there is none. */
static int debuginfo_identity(struct stp_hash *h, struct session *s)
{
	const char *root = s->sysroot ? s->sysroot : "";
	char *p = xasprintf("%s/usr/lib/debug/boot/vmlinux-%s", root,
			    s->kernel_release);
	const char *btf[2];
	struct stat st;
	int i, rc = -1;

	hash_add_str(h, "debuginfo");
	if (!s->btf_only && vmlinux_build_id(h, p)) {
		free(p);
		return 0;
	}
	free(p);
	p = xasprintf("%s/boot/vmlinuz-%s", root, s->kernel_release);
	btf[0] = p;
	btf[1] = s->sysroot ? NULL : "/sys/kernel/btf/vmlinux";
	for (i = 0; i < 2 && rc; i++)
		if (btf[i] && stat(btf[i], &st) == 0) {
			char id[96];

			snprintf(id, sizeof(id), "%s %lld %lld.%09ld",
				 i ? "btf" : "vmlinuz", (long long)st.st_size,
				 (long long)st.st_mtim.tv_sec,
				 st.st_mtim.tv_nsec);
			hash_add_str(h, id);
			rc = 0;
		}
	free(p);
	return rc;
}

int cache_early_key(struct session *s, char hex[65])
{
	struct stp_hash *h = hash_new();
	struct vec files = {0};
	int i, rc;

	if (!h)
		return -1;
	rc = hash_inputs(h, s);
	hash_add_str(h, "sysroot");
	hash_add_str(h, s->sysroot ? s->sysroot : "");
	if (debuginfo_identity(h, s) < 0)
		rc = -1;
	/* every tapset and macro file pass 1 would read */
	hash_add_str(h, "tapset files");
	tapset_files(s, &files);
	for (i = 0; i < files.n; i++) {
		hash_add_str(h, files.items[i]);
		if (hash_add_file(h, files.items[i]) < 0)
			rc = -1;
		free(files.items[i]);
	}
	free(files.items);
	hash_finish(h, hex);
	return rc;
}

char *cache_module_name(const char *hex)
{
	return xasprintf("stap_%.*s", CACHE_NAME_HEX, hex);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static char *entry_path(const char *dir, const char *hex)
{
	return xasprintf("%s/%.2s/stap_%.*s.ko", dir, hex, CACHE_NAME_HEX, hex);
}

/* db_open - open (creating) the index of @dir with a busy timeout. */
static sqlite3 *db_open(const char *dir)
{
	char *p = xasprintf("%s/index.db", dir);
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(p, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
			    NULL) != SQLITE_OK) {
		if (stp_verbose)
			fprintf(stderr, "stap: cannot open the cache index %s: %s\n",
				p, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		free(p);
		return NULL;
	}
	free(p);
	sqlite3_busy_timeout(db, 30000);
	if (sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS modules ("
			 "hash TEXT PRIMARY KEY, path TEXT NOT NULL, "
			 "size INTEGER NOT NULL, last_used INTEGER NOT NULL, "
			 "digest TEXT)", NULL, NULL, NULL) != SQLITE_OK) {
		if (stp_verbose)
			fprintf(stderr, "stap: cache index: %s\n",
				sqlite3_errmsg(db));
		sqlite3_close(db);
		return NULL;
	}
	/* early keys (cache_early_key) and the module each stands for */
	if (sqlite3_exec(db, "CREATE TABLE IF NOT EXISTS early ("
			 "key TEXT PRIMARY KEY, hash TEXT NOT NULL)", NULL, NULL,
			 NULL) != SQLITE_OK && stp_verbose)
		fprintf(stderr, "stap: cache index: %s\n", sqlite3_errmsg(db));
	/* an index made before modules had digests: add the column (an
	 * error here only means that it is there already) */
	sqlite3_exec(db, "ALTER TABLE modules ADD COLUMN digest TEXT", NULL,
		     NULL, NULL);
	return db;
}

/* file_digest - the SHA-256 of the file at @path into @hex; 0 or -1. */
static int file_digest(const char *path, char hex[65])
{
	struct stp_hash *h = hash_new();
	int rc = hash_add_file(h, path);
	hash_finish(h, hex);
	return rc;
}

/* db_digest - the digest the index records for module @key (heap), or
 * NULL when it has none. */
static char *db_digest(sqlite3 *db, const char *key)
{
	sqlite3_stmt *st;
	char *d = NULL;
	if (sqlite3_prepare_v2(db, "SELECT digest FROM modules WHERE hash = ?1",
			       -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		d = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return d;
}

/* db_recent - 1 if the index records module @key at @path with @size
 * and a use less than TOUCH_MS ago (ms since the epoch @now): the use
 * need not be recorded again, which would write (and sync) the index on
 * every cache hit; the eviction order is as good at this granularity. */
#define TOUCH_MS (10 * 60 * 1000LL)
static int db_recent(sqlite3 *db, const char *key, const char *path,
		     long long size, long long now)
{
	sqlite3_stmt *st;
	int ok = 0;
	if (sqlite3_prepare_v2(db, "SELECT path, size, last_used FROM modules "
			       "WHERE hash = ?1", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		ok = !strcmp((const char *)sqlite3_column_text(st, 0), path) &&
		     sqlite3_column_int64(st, 1) == size &&
		     now - sqlite3_column_int64(st, 2) < TOUCH_MS &&
		     now >= sqlite3_column_int64(st, 2);
	sqlite3_finalize(st);
	return ok;
}

/* db_exec - run @sql with text/int64 parameters ('t'/'i' in @types). */
static int db_exec(sqlite3 *db, const char *sql, const char *types, ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int i, rc;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	va_start(ap, types);
	for (i = 0; types[i]; i++)
		if (types[i] == 't')
			sqlite3_bind_text(st, i + 1, va_arg(ap, const char *), -1,
					  SQLITE_TRANSIENT);
		else
			sqlite3_bind_int64(st, i + 1, va_arg(ap, long long));
	va_end(ap);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static void db_report(sqlite3 *db, const char *what)
{
	if (stp_verbose)
		fprintf(stderr, "stap: cache index: %s: %s\n", what,
			sqlite3_errmsg(db));
}

/* limit_bytes - the size limit from @dir/cache_mb_limit (written with the
 * default when missing). */
static long long limit_bytes(const char *dir)
{
	char *p = xasprintf("%s/cache_mb_limit", dir);
	FILE *f = fopen(p, "r");
	long long mb = CACHE_DEFAULT_MB;

	if (f) {
		if (fscanf(f, "%lld", &mb) != 1 || mb < 0)
			mb = CACHE_DEFAULT_MB;
		fclose(f);
	} else if ((f = fopen(p, "w")) != NULL) {
		fprintf(f, "%d\n", CACHE_DEFAULT_MB);
		fclose(f);
	}
	free(p);
	return mb * 1024 * 1024;
}

/* evict - in a transaction of @db: remove least recently used modules
 * (never @keep) while the total size exceeds the limit. */
static void evict(sqlite3 *db, const char *dir, const char *keep)
{
	long long limit = limit_bytes(dir), total = 0;
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, "SELECT COALESCE(SUM(size),0) FROM modules",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(st) == SQLITE_ROW)
		total = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (total <= limit)
		return;
	if (sqlite3_prepare_v2(db, "SELECT hash, path, size FROM modules "
			       "WHERE hash != ?1 ORDER BY last_used ASC",
			       -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_text(st, 1, keep ? keep : "", -1, SQLITE_TRANSIENT);
	while (total > limit && sqlite3_step(st) == SQLITE_ROW) {
		char *hash = xstrdup((const char *)sqlite3_column_text(st, 0));
		const char *path = (const char *)sqlite3_column_text(st, 1);

		if (stp_verbose > 1)
			fprintf(stderr, "stap: cache: evicting %s\n", path);
		unlink(path);
		total -= sqlite3_column_int64(st, 2);
		db_exec(db, "DELETE FROM modules WHERE hash = ?1", "t", hash);
		free(hash);
	}
	sqlite3_finalize(st);
}

/* trusted - may the cached module @path be loaded?  It, its directory
 * and the cache must be the user's own and writable by nobody else, and
 * its contents must be what was stored (the digest the index recorded).
 * Says why not on stderr. */
static int trusted(sqlite3 *db, const char *dir, const char *path,
		   const char *key)
{
	char *sub = xstrdup(path), *want, got[65];
	int ok;
	*strrchr(sub, '/') = '\0';
	ok = owned_private(path) == 1 && owned_private(sub) == 1 &&
	     owned_private(dir) == 1;
	free(sub);
	if (!ok) {
		fprintf(stderr, "stap: the cached module %s could have been "
			"written by another user: not used, rebuilding\n", path);
		return 0;
	}
	want = db_digest(db, key);
	ok = want && file_digest(path, got) == 0 && !strcmp(want, got);
	if (!ok)
		fprintf(stderr, "stap: the cached module %s does not match the "
			"digest recorded when it was stored: not used, "
			"rebuilding\n", path);
	free(want);
	return ok;
}

char *cache_lookup(const char *hex)
{
	char *dir = cache_dir(), *path;
	struct stat st;
	sqlite3 *db;

	if (!dir)
		return NULL;
	path = entry_path(dir, hex);
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		free(path);
		free(dir);
		return NULL;
	}
	db = db_open(dir);
	if (!db) {
		/* no index: nothing to check the module against */
		free(path);
		free(dir);
		return NULL;
	}
	{
		char key[CACHE_NAME_HEX + 1];

		memcpy(key, hex, CACHE_NAME_HEX);
		key[CACHE_NAME_HEX] = '\0';
		if (!trusted(db, dir, path, key)) {
			if (owned_private(path) == 1)
				unlink(path);
			db_exec(db, "DELETE FROM modules WHERE hash = ?1", "t",
				key);
			sqlite3_close(db);
			free(path);
			free(dir);
			return NULL;
		}
		if (!db_recent(db, key, path, (long long)st.st_size, now_ms()) &&
		    db_exec(db, "INSERT INTO modules (hash, path, size, last_used) "
			    "VALUES (?1, ?2, ?3, ?4) ON CONFLICT(hash) DO UPDATE "
			    "SET last_used = ?4, size = ?3, path = ?2", "ttii",
			    key, path, (long long)st.st_size, now_ms()) < 0)
			db_report(db, "recording a use");
		sqlite3_close(db);
	}
	free(dir);
	return path;
}

char *cache_store(const char *hex, const char *ko)
{
	char *dir = cache_dir(), *sub, *path, *tmp;
	struct stat st;
	sqlite3 *db;

	if (!dir)
		return NULL;
	sub = xasprintf("%s/%.2s", dir, hex);
	path = entry_path(dir, hex);
	tmp = xasprintf("%s.tmp%d", path, (int)getpid());
	if ((mkdir(sub, 0700) != 0 && errno != EEXIST) ||
	    copy_file_new(ko, tmp, 0600) != 0 || rename(tmp, path) != 0 ||
	    stat(path, &st) != 0) {
		fprintf(stderr, "stap: cannot store the module in the cache as "
			"%s: %s\n", path, strerror(errno));
		unlink(tmp);
		free(sub);
		free(tmp);
		free(path);
		free(dir);
		return NULL;
	}
	free(sub);
	free(tmp);
	db = db_open(dir);
	if (db) {
		char key[CACHE_NAME_HEX + 1], digest[65];

		memcpy(key, hex, CACHE_NAME_HEX);
		key[CACHE_NAME_HEX] = '\0';
		if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
			db_report(db, "locking");
		else {
			if (file_digest(path, digest) < 0 ||
			    db_exec(db, "INSERT OR REPLACE INTO modules (hash, "
				    "path, size, last_used, digest) VALUES (?1, ?2, "
				    "?3, ?4, ?5)", "ttiit", key, path,
				    (long long)st.st_size, now_ms(), digest) < 0)
				db_report(db, "adding a module");
			evict(db, dir, key);
			if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
				db_report(db, "committing");
		}
		sqlite3_close(db);
	}
	free(dir);
	return path;
}

/* index_orphans - add the modules under @dir not in the index (their last
 * use is their modification time). */
static void index_orphans(sqlite3 *db, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	while (d && (de = readdir(d)) != NULL) {
		char *sub;
		DIR *sd;
		struct dirent *fe;

		if (strlen(de->d_name) != 2)
			continue;
		sub = xasprintf("%s/%s", dir, de->d_name);
		sd = opendir(sub);
		while (sd && (fe = readdir(sd)) != NULL) {
			size_t n = strlen(fe->d_name);
			char *p = xasprintf("%s/%s", sub, fe->d_name);
			struct stat st;

			if (n == 5 + CACHE_NAME_HEX + 3 &&
			    !strncmp(fe->d_name, "stap_", 5) &&
			    !strcmp(fe->d_name + n - 3, ".ko") &&
			    stat(p, &st) == 0) {
				char *hex = xstrndup(fe->d_name + 5, CACHE_NAME_HEX);

				db_exec(db, "INSERT OR IGNORE INTO modules (hash, path, "
					"size, last_used) VALUES (?1, ?2, ?3, ?4)",
					"ttii", hex, p, (long long)st.st_size,
					(long long)st.st_mtime * 1000);
				free(hex);
			} else if (strstr(fe->d_name, ".ko.tmp") &&
				   stat(p, &st) == 0 &&
				   st.st_mtime < time(NULL) - 3600) {
				unlink(p);     /* a store that died midway */
			}
			free(p);
		}
		if (sd)
			closedir(sd);
		free(sub);
	}
	if (d)
		closedir(d);
}

int cache_clean(void)
{
	char *dir = cache_dir();
	sqlite3 *db;
	sqlite3_stmt *st;
	struct vec gone = {0};
	int i;

	if (!dir)
		return -1;
	db = db_open(dir);
	if (!db) {
		fprintf(stderr, "stap: cannot open the cache index in %s\n", dir);
		free(dir);
		return -1;
	}
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "stap: cache index: %s\n", sqlite3_errmsg(db));
		sqlite3_close(db);
		free(dir);
		return -1;
	}
	if (sqlite3_prepare_v2(db, "SELECT hash, path FROM modules", -1, &st,
			       NULL) == SQLITE_OK) {
		while (sqlite3_step(st) == SQLITE_ROW)
			if (access((const char *)sqlite3_column_text(st, 1), F_OK))
				vec_push(&gone, xstrdup((const char *)
						sqlite3_column_text(st, 0)));
		sqlite3_finalize(st);
	}
	for (i = 0; i < gone.n; i++) {
		db_exec(db, "DELETE FROM modules WHERE hash = ?1", "t",
			gone.items[i]);
		free(gone.items[i]);
	}
	free(gone.items);
	index_orphans(db, dir);
	evict(db, dir, NULL);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
	free(dir);
	return 0;
}

char *cache_early_lookup(const char *early)
{
	char *dir = cache_dir(), *hex = NULL, *ko;
	sqlite3_stmt *st;
	sqlite3 *db;

	if (!dir)
		return NULL;
	db = db_open(dir);
	free(dir);
	if (!db)
		return NULL;
	if (sqlite3_prepare_v2(db, "SELECT hash FROM early WHERE key = ?1", -1,
			       &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, early, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(st) == SQLITE_ROW &&
		    sqlite3_column_text(st, 0))
			hex = xstrdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	if (!hex || strlen(hex) != 64) {
		free(hex);
		return NULL;
	}
	ko = cache_lookup(hex);
	free(hex);
	return ko;
}

void cache_early_record(const char *early, const char *hex)
{
	char *dir = cache_dir();
	sqlite3 *db = dir ? db_open(dir) : NULL;

	free(dir);
	if (!db)
		return;
	if (db_exec(db, "INSERT OR REPLACE INTO early (key, hash) VALUES "
		    "(?1, ?2)", "tt", early, hex) < 0)
		db_report(db, "recording an early key");
	sqlite3_close(db);
}
