/* debuginfo.h - the whole interface of debuginfo/: what pass 2 asks of
 * the kernel's debugging information.
 *
 * In:  the session's kernel release and sysroot; questions from pass 2.
 * Out: functions, statements and tracepoints a probe point names, where
 *      a variable lives at a probe point and its C type (ctype.h), the
 *      kernel's symbol table (ksyms.h); for user-space programs, the
 *      program a process("PATH") names and its function symbols (uelf.h)
 *      and SDT markers (usdt.h).
 *
 * Two providers answer the same questions: DWARF (elfutils libdw on the
 * debuginfo vmlinux and module .ko files, in dwarf/) and BTF (libbpf on
 * the kernel's .BTF, in btf/).  The probe-point families
 * (elaborate/families/) ask a provider for the functions a probe point
 * names; elaborate/tvar.c asks it where a variable lives at a probe point
 * and what its type is; codegen/tvar_gen.c puts the answer into C.
 *
 * Generated C conventions for locations (dbg_location.c_expr):
 *  - an expression of type unsigned long, without side effects other
 *    than recording an error in the context;
 *  - it may use `c` (struct stp_context *), `stp_reg(c, N)` (the value of
 *    DWARF register N of x86-64 at the probe point: 0 rax, 1 rdx, 2 rcx,
 *    3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8-15 r8-r15, 16 rip; records an
 *    error when the probe has no registers), `stp_read_kernel(c, ADDR,
 *    SIZE, LOC)` (fault-tolerant), `c->tp_args[i]` (tracepoint arguments)
 *    and `stp_kaddr(LINKADDR)` (a link-time kernel address relocated by
 *    the running kernel's KASLR offset);
 *  - for user-space programs (udwarf.h): `stp_read_user(c, ADDR, SIZE,
 *    LOC)` and `stp_ubias(c, "PATH", VADDR0, LOC)` (the load bias of the
 *    target machine's file PATH in the current process: PATH's mapping
 *    of file offset 0 less VADDR0, its first PT_LOAD's page-aligned
 *    p_vaddr) added to a link-time address;
 *  - GNU statement expressions ({ ... }) are allowed for multi-step
 *    DWARF expressions.
 * LOC is the C string literal of the script location, passed in by the
 * caller, so that a bad address reports "kernel read fault at 0xADDR near
 * file:line:col".
 */
#ifndef STP_DBGINFO_H
#define STP_DBGINFO_H

#include "ctype.h"
#include "ksyms.h"
#include "uelf.h"     /* user-space programs: process("PATH") */
#include "usdt.h"     /* their SDT markers */
#include "udwarf.h"   /* their DWARF */
#include "ustab.h"    /* their symbol and unwind tables */
#include "session.h"

/* Where a variable is at a probe point. */
struct dbg_location {
	enum {
		DL_ADDR,     /* c_expr is the variable's address in memory */
		DL_VALUE,    /* c_expr is the variable's value (a register,
		              * a tracepoint argument, a computed value); for
		              * aggregates that never happens */
	} kind;
	char *c_expr;
	struct ctype *type;
};

/* A function (or inline instance, statement, tracepoint) a probe point
 * resolved to.  Owned by the provider; lives for the session. */
struct dbg_function {
	struct dbg_provider *prov;  /* answers variable questions about it */
	char *name;                 /* the function (tracepoint: "sys:name") */
	char *module;               /* NULL: the kernel; else the module */
	char *file;                 /* source file as the build names it
	                             * ("fs/read_write.c"), or NULL if unknown */
	int line;                   /* declaration (or statement) line, or 0 */
	char *symbol;               /* the ELF symbol the kprobe registers at */
	uint64_t offset;            /* ... and the byte offset from it */
	uint64_t pc;                /* link-time address of the probe point,
	                             * for location lists; 0 if unknown (BTF) */
	uint64_t entry_pc;          /* link-time address of the function's
	                             * entry (for @entry / $param in returns) */
	int inlined;                /* an inlined instance: no .return */
	int exported;               /* EXPORT_SYMBOL'd */
	int is_tracepoint;          /* a tracepoint: variables are its args */
	int syscall_filter;         /* a tracepoint on raw_syscalls standing
	                             * for syscalls:sys_enter_NAME (1) or
	                             * sys_exit_NAME (2) of syscall number
	                             * syscall_nr; 0: none */
	int64_t syscall_nr;
	void *handle;               /* provider data */
};

/* What a kernel.function / module().function / kernel.statement point
 * asks for: "FUNC[@FILE[:LINE]]" split by elaborate/families/kernel.c. */
struct dbg_query {
	const char *module;         /* NULL: the kernel (vmlinux) */
	const char *func;           /* fnmatch(3) pattern: "vfs_read", "tcp_*" */
	const char *file;           /* fnmatch(3) pattern on the source file
	                             * ("net/ipv4/" "*.c") or NULL */
	int line;                   /* 0: none; N: the line (statement probes,
	                             * or the function declared at that line) */
	int line_end;               /* statement probes: lines line..line_end
	                             * (":N-M", ":*"); 0: line alone */
	int line_relative;          /* "+N": line and line_end count from
	                             * each function's declaration line */
	unsigned flags;
#define DBG_Q_INLINE   1u           /* .inline: inline instances only */
#define DBG_Q_CALL     2u           /* .call / .return: out-of-line only */
#define DBG_Q_EXPORTED 4u           /* .exported: EXPORT_SYMBOL'd only */
#define DBG_Q_STATEMENT 8u          /* kernel.statement: @FILE:LINE
	                             * addresses inside the function(s) */
#define DBG_Q_NEAREST 16u           /* .statement(...).nearest: a line
	                             * without code stands for the nearest
	                             * line of the function that has some */
};

enum dbg_var_set { DBG_PARAMS, DBG_LOCALS };

/* A debuginfo provider.  Every call may print diagnostics through
 * diag_error()/diag_warning() and must not exit. */
struct dbg_provider {
	const char *name;           /* "dwarf" or "btf" */
	/* find_functions - append a struct dbg_function * to @out for each
	 * function matching @q that kprobes may probe: functions on the
	 * kernel's kprobe blacklist, in notrace/__kprobes/.entry/.noinstr
	 * text, or without a symbol to register at, are left out (see
	 * ksyms.h).  Returns the number appended (0: none match). */
	int (*find_functions)(struct dbg_provider *p, const struct dbg_query *q,
			      struct vec *out);
	/* lookup_var - $NAME at @fn's probe point (parameters first, then
	 * locals in scope at fn->pc, then globals of its compilation unit).
	 * @loc_lit: the C literal of the script location for read faults.
	 * Returns 0 and fills @out, or -1 with a heap message in *@why
	 * ("not found; parameters: file buf count pos" or "optimized out at
	 * this address"). */
	int (*lookup_var)(struct dbg_provider *p, struct dbg_function *fn,
			  const char *name, const char *loc_lit,
			  struct dbg_location *out, char **why);
	/* list_vars - append the names (const char *) of @fn's parameters or
	 * of the locals visible at fn->pc to @names, in declaration order. */
	void (*list_vars)(struct dbg_provider *p, struct dbg_function *fn,
			  enum dbg_var_set which, struct vec *names);
	/* return_type - @fn's return type; NULL for void or unknown. */
	struct ctype *(*return_type)(struct dbg_provider *p,
				     struct dbg_function *fn);
	/* lookup_type - a type by name for @cast: "struct file", "file"
	 * (struct tried first), "task_struct", "pid_t".  @module: NULL or
	 * "kernel" for vmlinux, else a module name.  NULL if unknown. */
	struct ctype *(*lookup_type)(struct dbg_provider *p, const char *name,
				     const char *module);
	/* lookup_global - @var("NAME[@FILE]"[, "MODULE"]): a global or static
	 * variable.  Same returns as lookup_var.  May be NULL (BTF has none). */
	int (*lookup_global)(struct dbg_provider *p, const char *name,
			     const char *file, const char *module,
			     const char *loc_lit, struct dbg_location *out,
			     char **why);
};

/* dbg_dwarf_open / dbg_btf_open - open the provider for s->kernel_release
 * (looking under s->sysroot when set).  NULL when that information is not
 * installed; *@why (heap) then names what was searched.  (dwarf/, btf/) */
struct dbg_provider *dbg_dwarf_open(struct session *s, char **why);
struct dbg_provider *dbg_btf_open(struct session *s, char **why);

/* dbg_find_tracepoints - append to @out a struct dbg_function * (its
 * is_tracepoint set, name "SUBSYS:NAME") for each kernel tracepoint whose
 * subsystem matches the fnmatch(3) pattern @sys and whose name matches
 * @name, syscalls:sys_enter_NAME/sys_exit_NAME included.  Returns the
 * number appended, or -1 after a diagnostic when the kernel's BTF is not
 * available.  (btf/tracepoints.c) */
int dbg_find_tracepoints(struct session *s, const char *sys, const char *name,
			 struct vec *out);

/* dbg_provider_for - the session's provider, opened once: DWARF when its
 * debuginfo is installed and --btf was not given, else BTF.  NULL after
 * a diagnostic saying what to install.  (debuginfo.c) */
struct dbg_provider *dbg_provider_for(struct session *s);

/* One row of a line table: from address addr (link-time) on, source
 * line @line (0: none) of files[@file]; seq: order in the table. */
struct dbg_line {
	uint64_t addr;
	uint32_t line, file;
	size_t seq;
};

/* dbg_kernel_lines - the kernel's (vmlinux's) whole line table from its
 * DWARF .debug_line, sorted by address, one row per address, only rows
 * that change the line or file (~2 million), in *@rows (heap); the
 * source files ("fs/read_write.c", char *) appended to @files; the
 * link-time address of _printk (the anchor the runtime finds the KASLR
 * offset by) in *@printk_addr.  Returns the number of rows, or -1 with a
 * heap message in *@why (no DWARF, no _printk).  Takes a few seconds.
 * (dwarf/lines.c) */
long dbg_kernel_lines(struct session *s, struct dbg_line **rows,
		      struct vec *files, uint64_t *printk_addr, char **why);
/* dbg_btf_for - the session's BTF provider (for tracepoints, which BTF
 * always describes), or NULL after a diagnostic.  (debuginfo.c) */
struct dbg_provider *dbg_btf_for(struct session *s);

/* dbg_module_names - append (malloc'd) to @out the names of the kernel
 * modules of s->kernel_release (under --sysroot) whose name matches the
 * shell wildcard @pattern, sorted: every *.ko of its modules tree and of
 * its debuginfo tree, named as the kernel names them ('-' read as '_').
 * Returns how many were added (0 when none matches). */
int dbg_module_names(struct session *s, const char *pattern, struct vec *out);

/* dbgd_kernel_build_id - the build-id of kernel s->kernel_release as
 * lower-case hex (heap): the running kernel's (/sys/kernel/notes) when it
 * is that release and no sysroot is given, else that of its DWARF vmlinux
 * (SYSROOT/usr/lib/debug/boot/vmlinux-KVER, .../lib/modules/KVER/vmlinux
 * or SYSROOT/boot/vmlinux-KVER: the same link as the image).  NULL when
 * neither is there (the compressed image is not unpacked for it). */
char *dbgd_kernel_build_id(struct session *s);

/* dbg_debuginfod_setup - at the start, before any debuginfo is opened:
 * take DEBUGINFOD_URLS (the servers asked for debuginfo that is not
 * installed, see debuginfod.h) and the session's sysroot. */
void dbg_debuginfod_setup(struct session *s);

#endif
