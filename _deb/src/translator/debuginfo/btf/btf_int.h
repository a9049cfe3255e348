/* btf_int.h - shared by the BTF provider's files (btf.c: the provider,
 * btf_types.c: BTF types as struct ctype, tracepoints.c: kernel.trace).
 */
#ifndef STP_BTF_INT_H
#define STP_BTF_INT_H

#include "debuginfo/debuginfo.h"
#include "util.h"

#include <bpf/btf.h>

/* The BTF provider of a session: the public face first. */
struct btf_prov {
	struct dbg_provider p;
	struct session *s;
	struct btf *btf;
	char *source;               /* where the BTF came from, for messages */
	struct ctype **types;       /* ctype of each BTF id, built on demand */
	struct ctype *void_type;
	__u32 ntypes;
	/* modules: split BTF over the kernel's (first_id: the module's own
	 * first type id; 1 for the kernel) */
	char *module;               /* NULL: the kernel */
	__u32 first_id;
	struct vec modules;         /* the kernel's: struct btf_prov * */
};

/* btf_module_prov - the provider of module @name (kernel provider @kp):
 * its .ko's .BTF split over the kernel's, loaded once per session; NULL
 * with a heap message in *@why. */
struct btf_prov *btf_module_prov(struct btf_prov *kp, const char *name,
				 char **why);

/* btf_ctype - the ctype of BTF type @id (0: void), with the spelling
 * SystemTap prints ("struct file*", "char const*", "size_t").  Built
 * once per id; struct members are filled lazily.  Never NULL. */
struct ctype *btf_ctype(struct btf_prov *bp, __u32 id);

/* btf_pointer_to - a new pointer node to @t, spelled "T*" or, with
 * @qual " const", "T const*". */
struct ctype *btf_pointer_to(struct ctype *t, const char *qual);

/* btf_narrow - @expr (a heap C expression of a 64-bit register or slot
 * holding a value of type @t) with the bits above @t's size cleared, as
 * they are undefined in a register; takes @expr, returns a heap string. */
char *btf_narrow(char *expr, const struct ctype *t);

/* btf_resolved - @id with typedefs, qualifiers and type tags skipped
 * (0 stays 0: void). */
__u32 btf_resolved(struct btf_prov *bp, __u32 id);

/* btf_param_location - where argument @idx (0-based) of FUNC_PROTO
 * @proto is at the function's entry on x86-64: "stp_reg(c, N)" for the
 * six integer registers, an address above the return address for the
 * rest.  Returns 0 and fills @out (type included), or -1 with a heap
 * message in *@why (aggregates passed by value). */
int btf_param_location(struct btf_prov *bp, const struct btf_type *proto,
		       int idx, struct dbg_location *out, char **why);

/* btf_param_names - the names of @proto's parameters from @first on,
 * appended (const char *, owned by the BTF) to @names. */
void btf_param_names(struct btf_prov *bp, const struct btf_type *proto,
		     int first, struct vec *names);

/* btf_param_index - the index of parameter @name of @proto (from @first
 * on), or -1. */
int btf_param_index(struct btf_prov *bp, const struct btf_type *proto,
		    int first, const char *name);

/* btf_list_params - " a b c": @proto's parameter names from @first on,
 * for "not found" messages (heap). */
char *btf_list_params(struct btf_prov *bp, const struct btf_type *proto,
		      int first);

/* A trace event the kernel's headers define. */
struct tp_event {
	char *name;                 /* sched_process_exec */
	const char *sys;            /* its TRACE_SYSTEM: sched */
	char *cls;                  /* its event class (itself for
	                             * TRACE_EVENT and DECLARE_TRACE) */
};

/* tp_headers_load - append the struct tp_event * of every event in the
 * kernel's trace headers (found through s->kernel_build) to @events,
 * sorted by name, one per name.  Returns 0, or -1 with a heap message
 * in *@why.  Reads ~150 files: call once per session.  (tp_headers.c) */
int tp_headers_load(struct session *s, struct vec *events, char **why);

/* A system call of the x86-64 ABI, as the kernel's headers declare it. */
struct tp_syscall {
	char *name;                 /* "openat" */
	long nr;                    /* __NR_openat */
	int has_proto;              /* a sys_NAME prototype was found */
	int nparams;
	char *ptypes[6];            /* "const char __user *" */
	char *pnames[6];            /* "filename", or NULL if unnamed */
};

/* tp_syscalls_load - append a struct tp_syscall * for every __NR_NAME of
 * the kbuild's asm/unistd_64.h to @calls (sorted by name), with the
 * parameters of sys_NAME from include/linux/syscalls.h (and the x86
 * asm/syscalls.h).  Returns 0, or -1 with a heap message in *@why. */
int tp_syscalls_load(struct session *s, struct vec *calls, char **why);

/* tp_match_syscalls - append to @out a dbg_function for each
 * syscalls:sys_enter_NAME / sys_exit_NAME matching fnmatch patterns
 * @psys:@pname (registered at raw_syscalls' sys_enter / sys_exit, see
 * tp_syscall_filter).  Returns the number appended.  (syscalls.c) */
int tp_match_syscalls(struct session *s, struct btf_prov *bp,
		      const char *psys, const char *pname, struct vec *out);

/* tp_syscall_filter - for a dbg_function of tp_match_syscalls: 1 (enter)
 * or 2 (exit) and the syscall number in *@nr; 0 for other functions. */
int tp_syscall_filter(const struct dbg_function *fn, int64_t *nr);

/* A tracepoint of a kernel module (modtp.c). */
struct tp_modpoint {
	char *module;               /* "kvm" ('_' for '-') */
	char *name;                 /* "kvm_exit" */
	char *path;                 /* the .ko */
	char *sys;                  /* its TRACE_SYSTEM, "" if it has no
	                             * trace event; NULL: not looked up yet */
};

/* tp_module_points - every tracepoint of the lab kernel's modules
 * (SYSROOT/lib/modules/KVER/modules.order; a .ko's __tracepoints_strings
 * names them), as struct tp_modpoint *, read once per session (~1000
 * files: section headers and one section each).  Never NULL. */
struct vec *tp_module_points(struct session *s);

/* tp_modpoint_sys - @t's subsystem: the string the .system of its event
 * class points to, followed through the .ko's relocations (event_NAME's
 * .class -> event_class_CLASS, its .system -> "kvm"), member offsets
 * from the kernel's BTF @kp; "" when it has no trace event.  Cached. */
const char *tp_modpoint_sys(struct btf_prov *kp, struct tp_modpoint *t);

#endif
