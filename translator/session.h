/* session.h - the state of one stap run, shared by the passes.
 *
 * The driver (main.c) fills in the options; pass 1 (parse/) adds the
 * parsed files; pass 2 (elaborate/) fills in the resolved program, asking
 * debuginfo/ about the kernel; pass 3 (codegen/) and 4 (build/) read it.
 * This header names the AST's types without including parse/ (only
 * pointers to them are kept here), so that every pass may include it.
 */
#ifndef STP_SESSION_H
#define STP_SESSION_H

#include "util.h"

#include <stdint.h>

struct probe;
struct probe_point;
struct stapfile;

/* The probe-point families a derived probe can belong to; each maps to a
 * runtime probe kind (see runtime/stp_runtime.h). */
enum dp_kind {
	DP_BEGIN,
	DP_END,
	DP_TIMER,
	DP_KPROBE,       /* kprobe.*, kernel.function, module().function,
	                  * kernel.statement: symbol + offset */
	DP_TRACEPOINT,   /* kernel.trace("SUBSYS:NAME") */
	DP_PROFILE,      /* timer.profile: every CPU's tick */
	DP_PERF,         /* perf.* events */
	DP_PERF_PROC,    /* perf.EVENT.process("PATH"): the event in each
	                  * process running path (perf_type, perf_config,
	                  * slot perf_counter): .counter("NAME"), symbol
	                  * NAME, sample NULL: counted, no handler; else
	                  * sampled (sample, perf_freq) */
	DP_NEVER,        /* never: compiled, never run */
	DP_ERROR,        /* error, error(N): at the end of a run ended by
	                  * errors, instead of the end probes */
	DP_PROCFS,       /* procfs("PATH").read/.write */
	DP_UPROBE,       /* process("PATH").function: path + file offset */
	DP_PROC_BEGIN,   /* process[("PATH")].begin */
	DP_PROC_END,     /* process[("PATH")].end */
	DP_THREAD_BEGIN, /* process[("PATH")].thread.begin */
	DP_THREAD_END,   /* process[("PATH")].thread.end */
	DP_NETFILTER,    /* netfilter.hook("H").pf("PF"): nf_hook, nf_pf,
	                  * nf_priority */
	DP_HWBKPT,       /* kernel.data(...).write/.rw: address in offset,
	                  * symbol NULL or the data symbol's name */
};

/* At most this many perf counters and sampled .process perf probes in a
 * script (SystemTap reads at most 16 counters). */
#define STP_PERF_COUNTERS_MAX 16

/* Privilege levels (stap --privilege, SystemTap's groups), lowest first. */
enum { STP_PRIV_STAPUSR = 1, STP_PRIV_STAPSYS = 2, STP_PRIV_STAPDEV = 3 };

struct dbg_function;
struct dbg_provider;
struct ksyms;

/* A derived probe: one concrete probe point of a script probe, resolved
 * by its family (elaborate/families/) into what the runtime registers. */
struct derived_probe {
	enum dp_kind kind;
	struct probe *probe;        /* the script probe whose body runs */
	struct probe_point *point;  /* the point as written */
	char *pp_text;              /* canonical probe point, for pp() */
	int64_t order;              /* begin(N)/end(N) sequence, default 0 */
	char *period_ns;            /* DP_TIMER: a C constant expression */
	char *randomize_ns;         /* DP_TIMER .randomize(M): a C constant
	                             * expression, or NULL */
	char *symbol;               /* DP_KPROBE: "sym" or "module:sym" */
	int64_t offset;
	int is_return;
	int plt;                    /* DP_UPROBE at a PLT entry: $$name is
	                             * its symbol */
	int64_t maxactive;
	int optional;
	int wildcard;               /* one of many points a pattern matched:
	                             * failing to register it is a warning */
	/* DP_PROFILE, DP_PERF: a perf event on every online CPU; C constant
	 * expressions for the generated table */
	const char *perf_type;      /* "PERF_TYPE_SOFTWARE", or a number */
	const char *perf_config;    /* "PERF_COUNT_SW_CPU_CLOCK", ... */
	char *sample;               /* sample period (events, ns for clocks),
	                             * or the frequency in Hz when perf_freq */
	int perf_freq;
	int perf_counter;           /* DP_PERF_PROC: its number, 0.. */
	uint32_t perf_reads;        /* DP_UPROBE: bit k set when the body
	                             * reads counter k (@perf), read at the
	                             * hit before the body runs */
	int syscall_filter;         /* DP_TRACEPOINT on raw_syscalls for
	                             * syscalls:sys_enter_NAME (1) or
	                             * sys_exit_NAME (2): run only for syscall
	                             * number syscall_nr; 0: no filter */
	int64_t syscall_nr;
	/* DP_PROCFS: symbol is the file name under /proc/systemtap/MODULE */
	int procfs_write;           /* 1: .write, 0: .read */
	int64_t procfs_maxsize;     /* .read: bytes of the read buffer, 0:
	                             * the default (STP_PROCFS_BUFSIZE) */
	int64_t procfs_umask;       /* -1: none given */
	int nf_hook, nf_pf, nf_priority; /* DP_NETFILTER: hook number,
	                             * protocol family (NFPROTO_*), priority */
	int64_t hw_len;             /* DP_HWBKPT: bytes watched (1, 2, 4, 8) */
	int hw_rw;                  /* DP_HWBKPT: 1 .rw, 0 .write */
	uint64_t hw_anchor;         /* DP_HWBKPT of a symbol: link-time address
	                             * of _printk (offset is link-time too) */
	uint64_t uvaddr;            /* DP_UPROBE: link-time address of the
	                             * probed instruction, 0: unknown */
	int64_t ref_ctr;            /* DP_UPROBE of an SDT marker: file offset
	                             * of its semaphore, 0: none */
	int64_t pid;                /* DP_UPROBE, DP_PROC_*: process(PID):
	                             * fires only in that process; 0: any */
	char *path;                 /* DP_UPROBE, DP_PROC_*: the program's
	                             * absolute path in the target (NULL:
	                             * every process) */
	struct dbg_function *fn;    /* kernel.function & co, kernel.trace: what
	                             * target variables are resolved against */
	void *tvars;                /* pass 2 (elaborate/tvar.c): the target-variable
	                             * accesses of this derived probe */
	int entry_n;                /* pass 3: values its .return handler
	                             * saves at the function's entry */
	int func_entry;             /* DP_KPROBE at a function's entry (not
	                             * a statement or an inline instance):
	                             * ftrace may run it */
	int kset;                   /* pass 3: 1 + the probe set it is a row
	                             * of (codegen/kset_gen.c), 0: none */
	int light;                  /* pass 3: its handler uses the context
	                             * only for MAXACTION and errors (its
	                             * kprobe pre_handler takes the light hit
	                             * path, runtime/stp_hit.h) */
	int light_bound;            /* pass 3: of a light handler that can
	                             * record no error but MAXACTION's, 1 +
	                             * the most statements a hit runs (no
	                             * loop); 0: none known */
};

/* A CPython interpreter the python3 tapset traces (elaborate/pybuild.c):
 * a program or a shared library holding the evaluation loop. */
struct py_build {
	char *target;               /* its absolute path in the target */
	char *host;                 /* the file read here */
	uint64_t vaddr0;            /* page-aligned p_vaddr of its first
	                             * PT_LOAD (stp_ubias) */
	uint64_t runtime;           /* link-time address of _PyRuntime */
	int fixed;                  /* ET_EXEC: loaded at link-time addresses */
	char *build_id;             /* hex, or NULL */
	uint64_t id_vaddr;          /* link-time address of its bytes */
	int64_t *values;            /* s->py_fields' values in its DWARF */
};

/* One entry of the python3 tapset's STP_PY3_LAYOUT list. */
struct py_field {
	char *name;                 /* NAME: the tapset's STP_PY3_NAME */
	char *type;                 /* "TYPE" */
	char *member;               /* "MEMBER[.MEMBER]"; NULL: SIZE() */
	int bit;                    /* BIT(): the member's bit position */
};

struct session {
	/* options */
	int last_pass;              /* -p N, default 5 */
	const char *script_file;    /* FILE, or "<input>" with -e */
	const char *script_text;    /* the script's text */
	int nargs;                  /* script arguments $1..$N */
	char **args;
	const char *module_name;    /* -m, or generated */
	int module_name_given;
	const char *kernel_release; /* -r KVER, or uname -r */
	const char *kernel_build;   /* the kbuild directory for it */
	const char *sysroot;        /* --sysroot: root of the target's files */
	int btf_only;               /* --btf: no DWARF even if installed */
	int skip_badvars;           /* --skip-badvars: unresolvable $vars read 0 */
	struct vec user_modules;    /* -d PATH: const char *, binaries whose
	                             * symbols and unwind tables go into the
	                             * module (codegen/usyms_gen.c) */
	int ldd;                    /* --ldd: and their shared libraries */
	int all_modules;            /* --all-modules (kernel modules: always
	                             * known through kallsyms) */
	const char *output_file;    /* -o */
	int keep_tmpdir;            /* -k */
	int guru;                   /* -g */
	int privilege;              /* --privilege: STP_PRIV_*; 0: not
	                             * given (stapdev) */
	const char *sign_db;        /* --sign-module: the signer's NSS
	                             * database directory, or NULL */
	const char *sign_kernel;    /* --sign-kernel=KEY,CERT, or NULL */
	int unoptimized;            /* -u: keep unused functions, globals,
	                             * side-effect-free statements */
	const char *list_pattern;   /* -l / -L PATTERN: list probe points */
	int list_vars;              /* -L: with their context variables */
	struct vec include_dirs;    /* -I: const char * */
	struct vec defines;         /* -D: "MACRO=VALUE"; -t adds STP_TIMING,
	                             * --suppress-handler-errors
	                             * STP_SUPPRESS_HANDLER_ERRORS (runtime) */
	struct vec make_vars;       /* -B: "NAME=VALUE" for kbuild's make */
	int timing;                 /* -t: per-probe hit counts and times */
	int suppress_errors;        /* --suppress-handler-errors */
	struct vec staprun_opts;    /* options passed through to staprun */
	const char *target_cmd;     /* -c CMD: its first word names the
	                             * program of path-less process probes */
	int64_t target_pid;         /* -x PID, else 0 */
	/* opts_misc.c */
	struct vec extra_scripts;   /* -E SCRIPT: const char *, in order */
	int dump_mode;              /* --dump-*: its OPT_X_DUMP_* code, or 0 */
	int dump_functions;         /* elaborate every public tapset function
	                             * (--dump-functions) */
	const char *example;        /* --example NAME */
	int coverage;               /* -q: record tapset coverage */
	int interactive;            /* -i: the prompt (interactive.c) */
	const char *runtime_dir;
	const char *tapset_dir;
	char *tmpdir;

	/* pass 1 */
	struct stapfile *user;      /* the user's script */
	struct vec library;         /* struct stapfile *: parsed tapsets */
	struct vec broken_tapsets;  /* const char *: path, text, path, text...
	                             * of tapset files that do not parse */

	/* pass 2: the resolved program */
	struct vec globals;         /* struct sym *: used globals */
	struct vec functions;       /* struct functiondecl *: used functions */
	struct vec probes;          /* struct probe *: probes with a derived point */
	struct vec derived;         /* struct derived_probe * */
	struct vec aliases_used;    /* struct probe_alias *: each expansion
	                             * of an alias that derived a probe */

	struct vec py_builds;       /* struct py_build *: the CPython
	                             * interpreters of python3 points and
	                             * the python3 tapset's C */
	struct vec py_fields;       /* struct py_field *: what it reads of
	                             * each (empty: the tapset is not used) */

	/* pass 2: kernel information, opened on first use (debuginfo/) */
	struct dbg_provider *dbg;   /* DWARF, or BTF */
	struct dbg_provider *btf;   /* BTF (tracepoints) */
	struct ksyms *ksyms;        /* ksyms.c */
	int dbg_tried, btf_tried, ksyms_tried;
};

#endif
