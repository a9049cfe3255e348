/* main.c - the stap driver: options, then passes 1 to 5.
 *
 *   pass 1  parse the script and the tapset library      (parse.c, tapsets.c)
 *   pass 2  elaborate: resolve probes, symbols, types    (elaborate.c)
 *   pass 3  translate to C                               (codegen.c)
 *   pass 4  build the module with kbuild                 (kbuild.c)
 *   pass 5  run it with staprun                          (staprun/)
 */
#include "build/build.h"
#include "codegen/codegen.h"
#include "elaborate/elaborate.h"
#include "parse/parse.h"
#include "session.h"
#include "remote.h"

#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include "opts_unsupported.h"
#include "opts_misc.h"
#include "opts_check.h"
#include "interactive.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/systemtap"
#endif
#ifndef BINDIR
#define BINDIR "/usr/local/bin"
#endif
#define STAP_VERSION "0.1"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: stap [options] FILE [ARGS...]        run a script file\n"
"   or: stap [options] - [ARGS...]           run the script on stdin\n"
"   or: stap [options] -e SCRIPT [ARGS...]   run a script given inline\n"
"Options:\n"
"  -p NUM      stop after pass NUM (1 parse, 2 elaborate, 3 translate,\n"
"              4 build the module, 5 run it; default 5)\n"
"  -v          more verbose: pass timings (repeat for more)\n"
"  -k          keep the temporary directory\n"
"  -e SCRIPT   the script text\n"
"  -E SCRIPT   another script, run with the main one (repeatable)\n"
"  -m NAME     module name (-p4 leaves NAME.ko in the current directory)\n"
"  -r KVER|DIR build for kernel release KVER or the kernel build tree DIR\n"
"  -o FILE     send the script's output to FILE\n"
"  -I DIR      look for tapsets in DIR too\n"
"  -D NAME=VAL define a C macro for the module (MAXACTION=..., ...)\n"
"  -B NAME=VAL a make variable for the kernel's kbuild (CONFIG_...=y,\n"
"              KCFLAGS=..., V=1); the module is built with make\n"
"  -t          count and time every probe's hits; the report comes at\n"
"              the end of the run\n"
"  -g          guru mode\n"
"  -w          no warnings\n"
"  -W          warnings are errors\n"
"  -q          count what is compiled in the tapset coverage database\n"
"              (SYSTEMTAP_DIR, default ~/.systemtap, KVER.db)\n"
"  -u          keep unused code (no elision of unused functions, globals,\n"
"              statements without side effects)\n"
"  -l POINT    list the probe points matching POINT (wildcards allowed)\n"
"  -L POINT    like -l, with the context variables of each\n"
"  -c CMD      run CMD, end the run when it exits (passed to staprun)\n"
"  -x PID      target() is PID (passed to staprun)\n"
"  -s NUM      output buffer size in MB (passed to staprun)\n"
"  -b          bulk (per-CPU) output (passed to staprun)\n"
"  -d PATH     put the symbols and unwind data of the program or library\n"
"              PATH into the module (repeatable; a kernel module name is\n"
"              accepted: kernel symbols come from kallsyms)\n"
"  -V          print the version\n"
"  --suppress-handler-errors  a run-time error ends only the probe hit:\n"
"                   counted (reported at the end), the run goes on\n"
"  --suppress-time-limits  (with -g) no MAXACTION limit on the statements\n"
"                   of a probe hit\n"
"  --skip-badvars   a target variable that cannot be resolved reads as 0\n"
"                   (with a warning) instead of failing pass 2\n"
"  options may follow the script name; words after -- are arguments\n"
"  --sysroot=DIR    look for the kernel's /boot, debuginfo and modules\n"
"                   under DIR (for -r KVER of another machine)\n"
"  --remote=URL     run on ssh://[USER@]HOST[:PORT] or direct: (this\n"
"                   host); repeatable: one build per kernel release\n"
"  --remote-prefix  prefix each output line with \"N: \" (N: the --remote)\n"
"  --btf            resolve kernel types and parameters from BTF only,\n"
"                   even when DWARF debuginfo is installed\n"
"  --privilege=stapusr|stapsys|stapdev  build for that privilege level:\n"
"                   what the script uses above it is an error\n"
"  --unprivileged   --privilege=stapusr\n"
"  --sign-module[=DIR]  sign the module with the key and certificate\n"
"                   \"stap-server\" of the NSS database DIR (default\n"
"                   ~/.systemtap/ssl/server): MODULE.ko.sgn beside it\n"
"  --sign-kernel=KEY,CERT  append the kernel's own module signature\n"
"                   (PKCS#7, SHA-256) made with the private key KEY and\n"
"                   the X.509 certificate CERT (PEM or DER files), for\n"
"                   kernels that enforce module signatures\n"
"  --ldd            with -d and the probed programs, also their shared\n"
"                   libraries (DT_NEEDED)\n"
"  --all-modules    symbols of all kernel modules (always: kallsyms)\n"
"  --disable-cache  neither use nor fill the module cache\n"
"  --poison-cache   rebuild the module, replacing the cached one\n"
"  --clean-cache    clean the cache (alone: just that, then exit)\n"
"  --color[=WHEN], -C WHEN  color the diagnostics: always, auto, never\n"
"  --dump-probe-types, --dump-probe-aliases, --dump-functions\n"
"                   list what the families and tapsets offer, and exit\n"
"  --example NAME   run the installed example script NAME\n"
"  --target-namespaces=PID  ns_pid(), ns_uid()... see the namespaces of PID\n"
"  -i, --interactive  build and run a script at a prompt (help there)\n"
"  -h          this help\n");
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(path);
}

static int valid_module_name(const char *n)
{
	const char *p;
	if (!*n || strlen(n) > 55)
		return 0;
	for (p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	return 1;
}

/* default_module_name - stap_<script hash>_<pid>: unique to this run. */
static char *default_module_name(const char *text)
{
	uint64_t h = 1469598103934665603ULL;   /* FNV-1a */
	const unsigned char *p;
	for (p = (const unsigned char *)text; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return xasprintf("stap_%012llx_%d",
			 (unsigned long long)(h & 0xffffffffffffULL), (int)getpid());
}

static char *path_env(const char *var, const char *dflt)
{
	const char *v = getenv(var);
	return xstrdup(v && *v ? v : dflt);
}


/* ---- the module cache (cache.c) in the driver ----
 * Without -m and --disable-cache, passes 3-4 are skipped when the cache
 * has the module (cache_key() after pass 2), and a built module is
 * stored there.  A cached module is built as stap_<hash prefix> and run
 * with staprun -R (inserted as stap_<hash prefix>_<pid>).  With -m NAME
 * the module is neither looked up nor stored: it keeps its exact name. */
enum { OPT_DISABLE_CACHE = 0x100, OPT_POISON_CACHE, OPT_CLEAN_CACHE,
       OPT_SYSROOT, OPT_BTF, OPT_REMOTE, OPT_REMOTE_PREFIX,
       OPT_SYMBOLS_ALL, OPT_SKIP_BADVARS, OPT_PRIVILEGE,
       OPT_UNPRIVILEGED, OPT_SIGN_MODULE, OPT_SIGN_KERNEL, OPT_LDD };

static struct {
	int disable, poison, clean;   /* --disable/poison/clean-cache */
	int active;                   /* this run uses the cache */
	int hit;                      /* the module came from the cache */
	char hex[65];                 /* the cache key */
	int early;                    /* early holds the early key */
	char early_key[65];           /* cache_early_key(), before pass 1 */
} cache_run;

/* cache_before_pass1 - before parsing anything: the module an earlier
 * run of the same script, tapsets, options and kernel (debuginfo
 * included) built, looked up by the early key, or NULL.  The early key
 * is kept for cache_record_early. */
static char *cache_before_pass1(struct session *s)
{
	const char *base;
	char *ko;

	if (cache_run.disable || cache_run.poison || s->module_name_given ||
	    s->last_pass < 4 || s->list_pattern || s->dump_mode ||
	    s->coverage || cache_early_key(s, cache_run.early_key) < 0)
		return NULL;
	cache_run.early = 1;
	ko = cache_early_lookup(cache_run.early_key);
	if (!ko)
		return NULL;
	base = strrchr(ko, '/') ? strrchr(ko, '/') + 1 : ko;
	s->module_name = xstrndup(base, strcspn(base, "."));
	cache_run.active = cache_run.hit = 1;
	if (stp_verbose)
		fprintf(stderr, "Pass 1-4: using cached %s (no parsing, no "
			"debuginfo)\n", ko);
	return ko;
}

/* early_cacheable - whether what pass 2 made of @s depends on nothing
 * the early key leaves out: no user-space program (process probes, -d,
 * --ldd: their binaries are not hashed) and no kernel module (its
 * debuginfo is not). */
static int early_cacheable(struct session *s)
{
	int i;

	if (s->user_modules.n || s->ldd)
		return 0;
	for (i = 0; i < s->derived.n; i++) {
		struct derived_probe *d = s->derived.items[i];

		switch (d->kind) {
		case DP_UPROBE: case DP_PROC_BEGIN: case DP_PROC_END:
		case DP_THREAD_BEGIN: case DP_THREAD_END: case DP_PERF_PROC:
			return 0;
		default:
			break;
		}
		if ((d->symbol && d->kind == DP_KPROBE &&
		     strchr(d->symbol, ':')) || (d->fn && d->fn->module))
			return 0;
	}
	return 1;
}

/* cache_record_early - after pass 2 found or built the module: let the
 * early key stand for it, when it may */
static void cache_record_early(struct session *s)
{
	if (cache_run.early && cache_run.active && early_cacheable(s))
		cache_early_record(cache_run.early_key, cache_run.hex);
}

/* cache_option - handle a cache long option @c; returns 1 if it was one. */
static int cache_option(int c)
{
	switch (c) {
	case OPT_DISABLE_CACHE: cache_run.disable = 1; return 1;
	case OPT_POISON_CACHE: cache_run.poison = 1; return 1;
	case OPT_CLEAN_CACHE: cache_run.clean = 1; return 1;
	}
	return 0;
}

/* cache_before_pass3 - after pass 2: decide whether this run uses the
 * cache; if so compute the key, name the module after it and look it up.
 * Returns the cached module's path on a hit (passes 3-4 are skipped),
 * else NULL. */
static char *cache_before_pass3(struct session *s)
{
	char *ko;

	if (cache_run.disable || s->module_name_given || s->last_pass < 4)
		return NULL;
	if (cache_key(s, cache_run.hex) < 0) {
		if (stp_verbose)
			fprintf(stderr, "stap: not using the cache\n");
		return NULL;
	}
	cache_run.active = 1;
	s->module_name = cache_module_name(cache_run.hex);
	if (cache_run.poison)
		return NULL;
	ko = cache_lookup(cache_run.hex);
	if (ko) {
		cache_run.hit = 1;
		cache_record_early(s);
		if (stp_verbose) {
			fprintf(stderr, "Pass 3: using cached module %s\n", ko);
			fprintf(stderr, "Pass 4: using cached %s\n", ko);
		}
	}
	return ko;
}

/* cache_after_pass4 - store the module built at @ko in the cache when
 * this run uses it; returns the path to use from now on (the cached copy,
 * or @ko when storing failed or the cache is not used). */
static char *cache_after_pass4(struct session *s, char *ko)
{
	char *c;

	if (!cache_run.active)
		return ko;
	c = cache_store(cache_run.hex, ko);
	if (!c) {
		cache_run.active = 0;
		return ko;
	}
	if (stp_verbose > 1)
		fprintf(stderr, "Pass 4: stored %s in the cache\n", c);
	cache_record_early(s);
	return c;
}

/* -G NAME=VALUE: module parameters, given to staprun after the module. */
static struct vec module_params;

/* run_staprun - pass 5: run staprun on @ko and return its exit status.
 * stap ignores SIGINT (the terminal sends it to staprun and stapio too,
 * which end the run cleanly) and forwards SIGTERM/SIGHUP. */
static pid_t child;
static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

static int run_staprun(struct session *s, const char *ko)
{
	char *staprun = path_env("SYSTEMTAP_STAPRUN", BINDIR "/staprun");
	struct vec argv = {0};
	struct sigaction sa = { .sa_handler = forward };
	int i, st;
	vec_push(&argv, staprun);
	for (i = 0; i < stp_verbose && i < 3; i++)
		vec_push(&argv, "-v");
	if (cache_run.active)
		vec_push(&argv, "-R");   /* a name of its own for this run */
	for (i = 0; i < s->staprun_opts.n; i++)
		vec_push(&argv, s->staprun_opts.items[i]);
	vec_push(&argv, (char *)ko);
	for (i = 0; i < module_params.n; i++)   /* -G: after the module */
		vec_push(&argv, module_params.items[i]);
	vec_push(&argv, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGINT, SIG_IGN);
	child = fork();
	if (child < 0) {
		fprintf(stderr, "stap: cannot fork: %s\n", strerror(errno));
		return 1;
	}
	if (child == 0) {
		/* stap killed (even by SIGKILL): staprun ends the run */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() == 1)
			_exit(1);
		signal(SIGINT, SIG_DFL);
		execv(staprun, (char **)argv.items);
		fprintf(stderr, "stap: cannot run %s: %s\n", staprun,
			strerror(errno));
		_exit(127);
	}
	while (waitpid(child, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	signal(SIGINT, SIG_DFL);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

static void add_opt(struct session *s, const char *opt, const char *arg)
{
	vec_push(&s->staprun_opts, xstrdup(opt));
	if (arg)
		vec_push(&s->staprun_opts, xstrdup(arg));
}

/* the short options (getopt) */
#define STAP_SHORTOPTS "hVvkgbwup:e:m:r:o:I:D:R:c:x:s:G:S:T:Fl:L:d:" OPTS_X_SHORT

static int parse_options(struct session *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "disable-cache", no_argument, NULL, OPT_DISABLE_CACHE },
		{ "poison-cache", no_argument, NULL, OPT_POISON_CACHE },
		{ "clean-cache", no_argument, NULL, OPT_CLEAN_CACHE },
		{ "sysroot", required_argument, NULL, OPT_SYSROOT },
		{ "btf", no_argument, NULL, OPT_BTF },
		{ "remote", required_argument, NULL, OPT_REMOTE },
		{ "remote-prefix", no_argument, NULL, OPT_REMOTE_PREFIX },
		{ "all-modules", no_argument, NULL, OPT_SYMBOLS_ALL },
		{ "ldd", no_argument, NULL, OPT_LDD },
		{ "skip-badvars", no_argument, NULL, OPT_SKIP_BADVARS },
		{ "privilege", required_argument, NULL, OPT_PRIVILEGE },
		{ "unprivileged", no_argument, NULL, OPT_UNPRIVILEGED },
		{ "sign-module", optional_argument, NULL, OPT_SIGN_MODULE },
		{ "sign-kernel", required_argument, NULL, OPT_SIGN_KERNEL },
		OPTS_X_LONG,
		{ NULL, 0, NULL, 0 },
	};
	int c, no_time_limits = 0;
	s->last_pass = 5;
	/* GNU getopt permutes, as SystemTap's option parsing does: options
	 * may come before or after the script name and its arguments
	 * (`stap s.stp -x PID ARG`); every word after `--` is an argument */
	while ((c = getopt_long(argc, argv, STAP_SHORTOPTS,
				longopts, NULL)) != -1) {
		if (optarg && opts_check(c, optarg) < 0)
			return -1;
		switch (c) {
		case 'h': usage(stdout); exit(0);
		case 'V':
			printf("stap %s, a SystemTap-compatible translator\n",
			       STAP_VERSION);
			exit(0);
		case 'v': stp_verbose++; break;
		case 'k': s->keep_tmpdir = 1; break;
		case 'g': s->guru = 1; break;
		case 'w':       /* the script's warnings too (staprun -w) */
			diag_no_warnings = 1;
			add_opt(s, "-w", NULL);
			break;
		case 'u': s->unoptimized = 1; break;
		case 'l': case 'L':
			s->list_pattern = optarg;
			s->list_vars = c == 'L';
			s->last_pass = 2;
			break;
		case 'p':
			s->last_pass = atoi(optarg);
			if (s->last_pass < 1 || s->last_pass > 5) {
				fprintf(stderr, "stap: -p takes 1 to 5\n");
				return -1;
			}
			break;
		case 'e':
			s->script_text = optarg;
			s->script_file = "<input>";
			break;
		case 'm':
			if (!valid_module_name(optarg)) {
				fprintf(stderr, "stap: invalid module name '%s': "
					"use letters, digits and '_', at most 55\n",
					optarg);
				return -1;
			}
			s->module_name = optarg;
			s->module_name_given = 1;
			break;
		case 'r': s->kernel_release = optarg; break;
		case 'o': s->output_file = optarg; add_opt(s, "-o", optarg); break;
		case 'I': vec_push(&s->include_dirs, optarg); break;
		case 'D': vec_push(&s->defines, optarg); break;
		case 'R': s->runtime_dir = optarg; break;
		case 'c': s->target_cmd = optarg; add_opt(s, "-c", optarg);
			  break;
		case 'x': s->target_pid = strtoll(optarg, NULL, 10);
			  add_opt(s, "-x", optarg); break;
		case 's': add_opt(s, "-s", optarg); break;
		case 'b': add_opt(s, "-b", NULL); break;
		case 'S': add_opt(s, "-S", optarg); break;
		case 'T': add_opt(s, "-T", optarg); break;
		case 'F': add_opt(s, "-F", NULL); break;
		case 'G': vec_push(&module_params, xstrdup(optarg)); break;
		case 't':
			/* the runtime's hit path times each probe (stp_hit.h)
			 * and prints the report at the end (timing.c) */
			if (!s->timing)
				vec_push(&s->defines, "STP_TIMING");
			s->timing = 1;
			break;
		case OPT_X_SUPPRESS_HANDLER_ERRORS:
			/* run-time errors are counted, not fatal (context.c) */
			if (!s->suppress_errors)
				vec_push(&s->defines,
					 "STP_SUPPRESS_HANDLER_ERRORS");
			s->suppress_errors = 1;
			break;
		case OPT_X_SUPPRESS_TIME_LIMITS:
			/* stp_runtime.h lifts MAXACTION; checked for -g below */
			if (!no_time_limits)
				vec_push(&s->defines, "STP_SUPPRESS_TIME_LIMITS");
			no_time_limits = 1;
			break;
		case 'B':
			if (!strchr(optarg, '=') || optarg[0] == '=') {
				fprintf(stderr, "stap: -B takes NAME=VALUE (a make "
					"variable for kbuild), not '%s'\n", optarg);
				return -1;
			}
			vec_push(&s->make_vars, optarg);
			break;
		case OPT_SYSROOT: s->sysroot = optarg; break;
		case OPT_BTF: s->btf_only = 1; break;
		case OPT_REMOTE:
			if (remote_add(optarg) < 0)
				return -1;
			break;
		case OPT_REMOTE_PREFIX: remote_set_prefix(); break;
		case 'd': vec_push(&s->user_modules, optarg); break;
		case OPT_LDD: s->ldd = 1; break;
		case OPT_SYMBOLS_ALL:
			/* kernel symbols (of every module) come from kallsyms
			 * at run time: nothing to add to the module */
			s->all_modules = 1;
			break;
		case OPT_SKIP_BADVARS: s->skip_badvars = 1; break;
		case OPT_UNPRIVILEGED: s->privilege = STP_PRIV_STAPUSR; break;
		case OPT_PRIVILEGE:
			s->privilege = privilege_parse(optarg);
			if (s->privilege < 0) {
				fprintf(stderr, "stap: --privilege takes stapusr, "
					"stapsys or stapdev, not '%s'\n", optarg);
				return -1;
			}
			break;
		case OPT_SIGN_MODULE:
			s->sign_db = optarg ? optarg : sign_default_db();
			break;
		case OPT_SIGN_KERNEL:
			/* signs the built file in place: not one of the cache */
			s->sign_kernel = optarg;
			cache_run.disable = 1;
			break;
		default:
			if (cache_option(c))
				break;
			switch (opts_misc(s, c, optarg)) {
			case 1: continue;
			case -1: return -1;
			}
			switch (opts_unsupported(c, optarg)) {
			case 1: continue;
			case -1: return -1;
			}
			fprintf(stderr, "Try 'stap --help' for the options.\n");
			return -1;
		}
	}
	if (no_time_limits && !s->guru) {
		fprintf(stderr, "stap: --suppress-time-limits needs guru mode (-g)\n");
		return -1;
	}
	if (opts_misc_finish(s, argc - optind) < 0 || opts_check_finish(s) < 0)
		return -1;
	if (cache_run.clean) {
		if (cache_clean() < 0)
			exit(1);
		if (!s->script_text && optind >= argc && !s->list_pattern)
			exit(0);
	}
	if (!s->script_text && s->list_pattern) {
		s->script_file = "<list>";
		s->script_text = "";
	} else if (!s->script_text) {
		FILE *f;
		if (optind >= argc) {
			fprintf(stderr, "stap: no script given (a FILE, or -e "
				"SCRIPT)\n");
			usage(stderr);
			return -1;
		}
		s->script_file = argv[optind++];
		f = strcmp(s->script_file, "-") ? fopen(s->script_file, "r") : stdin;
		if (!f) {
			fprintf(stderr, "stap: cannot open script %s: %s\n",
				s->script_file, strerror(errno));
			return -1;
		}
		s->script_text = read_stream(f, NULL);
		if (f != stdin)
			fclose(f);
	}
	s->nargs = argc - optind;
	s->args = argv + optind;
	return 0;
}

static void setup_paths(struct session *s)
{
	struct utsname u;
	if (!s->kernel_release) {
		uname(&u);
		s->kernel_release = xstrdup(u.release);
	}
	s->kernel_build = kbuild_dir_for(s->kernel_release);
	if (strchr(s->kernel_release, '/')) {
		char *rel = kbuild_release_of(s->kernel_build);
		if (rel)
			s->kernel_release = rel;
	}
	if (!s->runtime_dir)
		s->runtime_dir = path_env("SYSTEMTAP_RUNTIME", PKGDATADIR "/runtime");
	s->tapset_dir = path_env("SYSTEMTAP_TAPSET", PKGDATADIR "/tapset");
	if (!s->module_name)
		s->module_name = default_module_name(s->script_text);
}

static void print_out(const struct strbuf *b)
{
	fwrite(strbuf_str(b), 1, b->len, stdout);
	fflush(stdout);
}

/* copy_file - copy @src to @dst; 0 or -1 with a message. */
static int copy_file(const char *src, const char *dst)
{
	FILE *in = fopen(src, "rb"), *out = in ? fopen(dst, "wb") : NULL;
	char buf[65536];
	size_t n;
	int rc = 0;
	if (!in || !out) {
		fprintf(stderr, "stap: cannot copy %s to %s: %s\n", src, dst,
			strerror(errno));
		if (in)
			fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	fclose(in);
	if (fclose(out) != 0 || rc) {
		fprintf(stderr, "stap: cannot write %s\n", dst);
		return -1;
	}
	return 0;
}

static int run_passes(struct session *s)
{
	struct strbuf out = {0};
	struct pp_config cfg = {0};
	double t = now_ms();
	char *ko = NULL;
	int rc;

	ko = cache_before_pass1(s);
	if (ko)
		goto built;

	/* pass 1 */
	cfg.kernel_release = s->kernel_release;
	cfg.sysroot = s->sysroot;
	/* SystemTap's guru-only functions are ordinary tapset functions that
	 * only a guru-mode script may call, and --dump-functions lists them
	 * either way; ours are defined in guru mode only (%( guru_mode == 1
	 * %?): the listing reads the tapsets as in guru mode */
	cfg.guru_mode = s->guru || s->dump_mode == OPT_X_DUMP_FUNCTIONS;
	parse_set_config(&cfg);
	parse_set_args(s->nargs, s->args);
	load_tapset_macros(s);
	s->user = parse_script(s->script_file, s->script_text, 0);
	if (!s->user || opts_misc_parse_extra(s) < 0) {
		diag_summary("Pass 1 (parse)", "error::pass1");
		return 1;
	}
	if (s->dump_mode)
		return opts_misc_dump(s);
	if (s->list_pattern) {
		if (load_tapsets(s) < 0)
			return 1;
		return list_probe_points(s, &out) < 0 ? 1 : (print_out(&out), 0);
	}
	if (s->last_pass == 1) {
		pprint_file(&out, s->user);
		print_out(&out);
		return 0;
	}
	if (load_tapsets(s) < 0)
		return 1;
	if (diag_failed()) {   /* -W */
		diag_summary("Pass 1 (parse)", "error::pass1");
		return 1;
	}
	if (stp_verbose)
		fprintf(stderr, "Pass 1: parsed user script and %d library "
			"scripts in %.1f ms.\n", s->library.n, now_ms() - t);

	/* pass 2 */
	t = now_ms();
	if (elaborate(s) < 0 || diag_failed()) {   /* -W */
		diag_summary("Pass 2 (elaboration)", "error::pass2");
		return 1;
	}
	if (stp_verbose)
		fprintf(stderr, "Pass 2: analyzed script: %d probes, %d "
			"functions, %d globals in %.1f ms.\n", s->derived.n,
			s->functions.n, s->globals.n, now_ms() - t);
	if (s->coverage)
		coverage_update(s);   /* -q */
	if (s->last_pass == 2) {
		pprint_resolved(&out, s);
		print_out(&out);
		return 0;
	}

	ko = cache_before_pass3(s);
	if (ko)
		goto built;

	/* pass 3 */
	t = now_ms();
	if (codegen(s, &out) < 0) {
		fprintf(stderr, "Pass 3: translation failed.  [man error::pass3]\n");
		return 1;
	}
	if (stp_verbose)
		fprintf(stderr, "Pass 3: translated to C in %.0f ms.\n",
			now_ms() - t);
	if (s->last_pass == 3) {
		print_out(&out);
		return 0;
	}

	/* pass 4 */
	t = now_ms();
	rc = kbuild_module(s, strbuf_str(&out), &ko);
	free(out.s);
	if (rc < 0)
		return 1;
	strip_module(s, ko);
	if (stp_verbose)
		fprintf(stderr, "Pass 4: compiled C into \"%s.ko\" in %.0f ms.\n",
			s->module_name, now_ms() - t);
	ko = cache_after_pass4(s, ko);
built:
	if (s->sign_kernel && sign_module_kernel(s, s->sign_kernel, ko) < 0)
		return 1;
	if (s->sign_db && sign_module(s->sign_db, ko) < 0)
		return 1;
	if (s->last_pass == 4 && cache_run.active) {
		printf("%s\n", ko);
		fflush(stdout);
		return 0;
	}
	if (s->last_pass == 4) {
		char *dst = xasprintf("%s.ko", s->module_name);
		if (copy_file(ko, dst) < 0)
			return 1;
		if (s->sign_db && sign_module(s->sign_db, dst) < 0)
			return 1;
		printf("%s\n", dst);
		fflush(stdout);
		return 0;
	}

	/* pass 5 */
	t = now_ms();
	if (stp_verbose)
		fprintf(stderr, "Pass 5: starting run.\n");
	rc = run_staprun(s, ko);
	if (stp_verbose)
		fprintf(stderr, "Pass 5: run completed in %.0f ms.\n",
			now_ms() - t);
	if (rc != 0)
		fprintf(stderr, "Pass 5: run failed.  [man error::pass5]\n");
	return rc;
}

int main(int argc, char **argv)
{
	struct session s = {0};
	int rc;
	if (parse_options(&s, argc, argv) < 0)
		return 1;
	if (s.interactive)
		return interactive_main(&s, argc, argv, STAP_SHORTOPTS);
	if (remote_active() && !s.list_pattern)
		return remote_main(&s, argc, argv);   /* remote.c */
	setup_paths(&s);
	dbg_debuginfod_setup(&s);
	if (s.last_pass >= 3) {
		const char *td = getenv("TMPDIR");
		char *t = xasprintf("%s/stapXXXXXX", td && *td ? td : "/tmp");
		if (!mkdtemp(t)) {
			fprintf(stderr, "stap: cannot create a temporary "
				"directory: %s\n", strerror(errno));
			return 1;
		}
		s.tmpdir = t;
	}
	rc = run_passes(&s);
	if (s.tmpdir) {
		if (s.keep_tmpdir)
			fprintf(stderr, "Keeping temporary directory \"%s\"\n",
				s.tmpdir);
		else
			nftw(s.tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	}
	return rc;
}
