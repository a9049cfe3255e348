/* kbuild_cc.c - stap-kbuild-cc: the compiler kbuild runs for stap's
 * builds, remembering the answers of kbuild's compiler feature checks.
 *
 * Usage (kbuild.c): make ... CC="PKGLIBEXECDIR/stap-kbuild-cc gcc"
 * with STAP_KBUILD_CC_CACHE=DIR in the environment.
 *
 * Before it compiles anything, kbuild's top Makefile asks the compiler
 * some thirty questions one after another (cc-option, cc-disable-warning,
 * as-option: scripts/Makefile.compiler's try-run), each a compiler run of
 * 50-80 ms on an empty input whose exit status is the answer: about 2 s of
 * every first build for a kernel.  The answer depends only on the
 * compiler, the assembler and the command line, so this front end keeps
 * it: a command of try-run's shape (input /dev/null, output in a
 * DIR/.tmp_PID/ directory, nothing read from other files) is looked up in
 * a directory of answers by its text (DIR and PID left out: the build's
 * own; so are the paths of -fmacro-prefix-map and its kin, the kernel
 * tree's) and the compiler's and assembler's identity (path, size, mtime,
 * inode); a hit gives the status and output file a run gave, a miss runs
 * the compiler and records them.  Only entries the user owns, in a
 * directory only the user may write, are used.  Every other
 * command, and every command when STAP_KBUILD_CC_CACHE is unset, is the
 * compiler's own (exec).  An entry holds its whole key and is used only
 * when the key matches byte for byte: the FNV-1a name is only where to
 * look.  Entries are written to a temporary file and renamed, so that
 * concurrent builds see whole entries or none.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define ENTRY_MAGIC "stap-kbuild-cc 2\n"

/* the environment variables that change what gcc does (gcc(1)) */
static const char *const gcc_env[] = {
	"GCC_EXEC_PREFIX", "COMPILER_PATH", "LIBRARY_PATH", "CPATH",
	"C_INCLUDE_PATH", "GCC_COMPARE_DEBUG", "DEPENDENCIES_OUTPUT",
	"SUNPRO_DEPENDENCIES", "SOURCE_DATE_EPOCH", NULL };

/* on_path - the file @name (no slash) names on $PATH, in @out (PATH_MAX);
 * @name itself when it has a slash.  0, or -1 when none is found. */
static int on_path(const char *name, char *out)
{
	const char *path = getenv("PATH"), *p, *e;
	if (strchr(name, '/')) {
		snprintf(out, PATH_MAX, "%s", name);
		return access(out, X_OK);
	}
	for (p = path ? path : "/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, ':');
		snprintf(out, PATH_MAX, "%.*s/%s", (int)(e - p),
			 e > p ? p : ".", name);
		if (access(out, X_OK) == 0)
			return 0;
	}
	return -1;
}

/* add_identity - the identity of the program @name (on $PATH) to key @k:
 * its path, size, mtime and inode; "-" when there is none. */
static void add_identity(struct strbuf *k, const char *name)
{
	char path[PATH_MAX];
	struct stat st;
	if (on_path(name, path) < 0 || stat(path, &st) < 0)
		strbuf_printf(k, "%s -\n", name);
	else
		strbuf_printf(k, "%s %s %lld %lld.%09ld %llu:%llu\n", name,
			      path, (long long)st.st_size,
			      (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
			      (unsigned long long)st.st_dev,
			      (unsigned long long)st.st_ino);
}

/* tmp_output - the try-run output path of @argv (argv[i] after -o), or
 * NULL: a DIR/.tmp_DIGITS/NAME path.  *@pid_at, *@pid_len: the digits. */
static const char *tmp_output(char **argv, const char **pid_at,
			      size_t *pid_len)
{
	const char *o = NULL, *t;
	int i;
	for (i = 1; argv[i]; i++)
		if (!strcmp(argv[i], "-o") && argv[i + 1])
			o = argv[++i];
	if (!o || !(t = strstr(o, "/.tmp_")))
		return NULL;
	t += strlen("/.tmp_");
	*pid_at = t;
	*pid_len = strspn(t, "0123456789");
	return *pid_len && t[*pid_len] == '/' ? o : NULL;
}

/* cacheable - @argv (the compiler's, argv[0] the compiler) is a feature
 * check whose answer depends on its text alone: an empty input, nothing
 * read from a file another kernel tree could change */
static int cacheable(char **argv)
{
	static const char *const refused[] = {
		"-include", "-imacros", "-fplugin", "-specs", "-B", "--sysroot",
		"-I", "-iquote", "-isystem", "-idirafter", "-L", "-Wp,", "-Wa,@",
		"-fprofile-use", "-fauto-profile", NULL };
	int i, j, devnull = 0;
	for (i = 1; argv[i]; i++) {
		if (argv[i][0] == '@' || strchr(argv[i], '\n'))
			return 0;
		for (j = 0; refused[j]; j++)
			if (!strncmp(argv[i], refused[j], strlen(refused[j])))
				return 0;
		if (!strcmp(argv[i], "-"))
			return 0;              /* stdin: a program of its own */
		if (!strcmp(argv[i], "/dev/null"))
			devnull = 1;
		else if (argv[i][0] != '-' &&
			 !(i > 1 && (!strcmp(argv[i - 1], "-o") ||
				     !strcmp(argv[i - 1], "-x"))))
			return 0;              /* an input file */
	}
	return devnull;
}

/* run - run @argv; returns its wait status or -1 */
static int run(char **argv)
{
	pid_t pid = fork();
	int st;
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "stap-kbuild-cc: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return st;
}

static int write_all(const char *path, const char *p, size_t n, int flags)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644);
	ssize_t w;
	if (fd < 0)
		return -1;
	while (n > 0 && (w = write(fd, p, n)) > 0) {
		p += w;
		n -= w;
	}
	return close(fd) < 0 || n ? -1 : 0;
}

/* lookup - the answer of entry @name for @key (@klen bytes, its NUL
 * included): its status, the output file's bytes written to @out; -1
 * when there is none (or it cannot be trusted: not the user's own) */
static int lookup(const char *dir, const char *name, const char *key,
		  size_t klen, const char *out)
{
	size_t len;
	char *e;
	int status = -1;
	if (owned_private(dir) != 1 || owned_private(name) != 1 ||
	    !(e = read_file(name, &len)))
		return -1;
	if (len > klen && !memcmp(e, key, klen)) {
		status = (unsigned char)e[klen];
		if (status == 0 &&
		    write_all(out, e + klen + 1, len - klen - 1, O_TRUNC) < 0)
			status = -1;       /* (its directory is gone) */
	}
	free(e);
	return status;
}

/* path_map - the length of @arg's option name when @arg maps paths
 * (-fmacro-prefix-map=OLD=NEW and its kin), else 0.  Its paths are the
 * kernel tree's (kbuild adds -fmacro-prefix-map=$(srctree)/=, which a
 * kernel update changes) and change nothing on an empty input, so the
 * key keeps only the option: a check asked for one kernel is known for
 * the next one of the same flags. */
static size_t path_map(const char *arg)
{
	static const char *const maps[] = { "-fmacro-prefix-map=",
		"-ffile-prefix-map=", "-fdebug-prefix-map=", NULL };
	int i;
	for (i = 0; maps[i]; i++) {
		size_t n = strlen(maps[i]);
		if (!strncmp(arg, maps[i], n) && strchr(arg + n, '='))
			return n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = getenv("STAP_KBUILD_CC_CACHE"), *out, *pid_at;
	struct strbuf key = {0};
	char *name, *tmp, *obj = NULL;
	size_t pid_len, olen = 0;
	uint64_t h = 0xcbf29ce484222325ULL;
	int i, st;

	if (argc < 2) {
		fprintf(stderr, "usage: stap-kbuild-cc COMPILER [ARG]...\n");
		return 2;
	}
	argv++;                        /* the compiler's own argv */
	if (!dir || !*dir || !cacheable(argv) ||
	    !(out = tmp_output(argv, &pid_at, &pid_len))) {
		execvp(argv[0], argv);
		fprintf(stderr, "stap-kbuild-cc: cannot run %s: %s\n", argv[0],
			strerror(errno));
		return 127;
	}
	/* the key: the tools' identity, then the command, the build's
	 * directory and PID and the mapped paths left out */
	strbuf_add(&key, ENTRY_MAGIC);
	add_identity(&key, argv[0]);
	add_identity(&key, "as");
	for (i = 0; gcc_env[i]; i++)   /* what else the driver reads */
		if (getenv(gcc_env[i]))
			strbuf_printf(&key, "%s=%s\n", gcc_env[i],
				      getenv(gcc_env[i]));
	for (i = 0; argv[i]; i++) {
		size_t m = path_map(argv[i]);
		if (argv[i] == out) {
			strbuf_add(&key, "DIR/.tmp_PID");
			strbuf_add(&key, pid_at + pid_len);
		} else if (m) {
			strbuf_addn(&key, argv[i], m);
			strbuf_add(&key, "OLD=NEW");
		} else {
			strbuf_add(&key, argv[i]);
		}
		strbuf_addc(&key, '\n');
	}
	for (i = 0; i <= (int)key.len; i++) {   /* (its NUL too) */
		h ^= (unsigned char)key.s[i];
		h *= 0x100000001b3ULL;
	}
	name = xasprintf("%s/%016llx", dir, (unsigned long long)h);
	/* an entry: the key and its NUL, a status byte, the output file */
	st = lookup(dir, name, key.s, key.len + 1, out);
	if (st >= 0)
		return st;
	st = run(argv);
	if (st < 0 || !WIFEXITED(st))
		return st < 0 ? 127 : 128 + WTERMSIG(st);
	st = WEXITSTATUS(st);
	if (st == 127 || (st == 0 && !(obj = read_file(out, &olen))))
		return st;                 /* not a compiler's answer */
	strbuf_addn(&key, "", 1);
	strbuf_addn(&key, (char[]){ (char)st }, 1);
	strbuf_addn(&key, obj ? obj : "", olen);
	tmp = xasprintf("%s/.%016llx.%ld", dir, (unsigned long long)h,
			(long)getpid());
	if (write_all(tmp, key.s, key.len, O_EXCL) == 0)
		rename(tmp, name);
	unlink(tmp);
	return st;
}
