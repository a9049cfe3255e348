/* stp_runtime.h - the interface between translator-generated C and the
 * runtime compiled into every module.
 *
 * A module is a kbuild composite object: the generated script.c plus the
 * runtime's .c files.  The runtime owns module_init/module_exit, the
 * transport (relay + control channel), the per-CPU contexts and probe
 * registration; the generated code supplies probe handlers, script
 * functions and one `struct stp_module_desc stp_module` describing them.
 *
 * Probe handlers run with preemption disabled on a per-CPU context that no
 * other probe uses meanwhile; they must not sleep.  Begin and end probes
 * run in process context (the stapio control-channel writer), others in
 * whatever context the probed event has (kprobe, hrtimer softirq, ...).
 */
#ifndef STP_RUNTIME_H
#define STP_RUNTIME_H

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/sched.h>
#include <linux/ptrace.h>
#include <linux/spinlock.h>

#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512        /* bytes of a script string, NUL included */
#endif
#ifndef MAXACTION
#define MAXACTION 1000          /* statements per probe hit */
#endif
#ifndef MAXNESTING
#define MAXNESTING 10           /* script function call depth */
#endif
#ifndef MAXERRORS
#define MAXERRORS 0             /* errors tolerated before the run ends */
#endif
#ifndef MAXSKIPPED
#define MAXSKIPPED 100          /* skipped probes tolerated before the run ends */
#endif
#ifndef MAXTRYLOCK
#define MAXTRYLOCK 1000         /* attempts to take a global's lock */
#endif
#ifndef TRYLOCKDELAY
#define TRYLOCKDELAY 10         /* ns between attempts */
#endif
#ifndef STP_CONTEXT_STACK
#define STP_CONTEXT_STACK 32768 /* bytes of frame arena per CPU context */
#endif
#ifndef STP_PRINT_BUF_SIZE
#define STP_PRINT_BUF_SIZE 8192 /* bytes of output buffered per probe hit */
#endif

/* The state of one probe hit.  One per CPU; owned by the handler running
 * on that CPU for the duration of the hit. */
struct stp_context {
	const struct stp_probe_desc *probe; /* the probe being run */
	struct pt_regs *regs;      /* registers at the probe point, or NULL */
	const char *error;         /* first error of this hit, or NULL */
	const char *error_loc;     /* its script location "file:line:col" */
	char error_buf[128];       /* storage for formatted error messages */
	long actions;              /* statements executed in this hit */
	int nesting;               /* script function call depth */
	size_t frame_used;         /* bytes in use in frames[] */
	char frames[STP_CONTEXT_STACK]; /* locals of the running probe and
	                                 * script functions, bump-allocated */
};

/* stp_error - record a run-time error in the current probe hit.
 * @c: context; @msg: static or c->error_buf text; @loc: "file:line:col".
 * Only the first error of a hit is kept.  After this the generated code
 * unwinds (it tests c->error after every fallible operation) and the
 * runtime reports "ERROR: MSG near LOC" when the handler returns.
 * Context: any; does not sleep. */
static inline void stp_error(struct stp_context *c, const char *msg,
			     const char *loc)
{
	if (!c->error) {
		c->error = msg;
		c->error_loc = loc;
	}
}

/* stp_action - count @n statements against MAXACTION.
 * Returns nonzero (and records an error) when the limit is exceeded. */
static inline int stp_action(struct stp_context *c, long n, const char *loc)
{
	c->actions += n;
	if (unlikely(c->actions > MAXACTION)) {
		stp_error(c, "MAXACTION exceeded", loc);
		return 1;
	}
	return 0;
}

/* stp_frame_push - allocate @size zeroed bytes for a probe's or function's
 * locals.  Returns NULL and records an error ("MAXNESTING exceeded" or
 * "out of context memory") when it cannot.  Frames are popped in LIFO
 * order with stp_frame_pop(c, same size).  Each push increments
 * c->nesting (each pop decrements it): a probe's frame plus MAXNESTING
 * nested function frames fit.  Frames are 8-byte aligned; @size is in
 * bytes and all frames share STP_CONTEXT_STACK bytes.
 * Context: probe handler (context held); does not sleep. */
void *stp_frame_push(struct stp_context *c, size_t size, const char *loc);
void stp_frame_pop(struct stp_context *c, size_t size);

/* ---- strings (all bounded by MAXSTRINGLEN, always NUL-terminated) ----
 * None of these fails, sleeps or takes locks: usable in any context.
 * @dst must not overlap the sources. */

/* stp_strcpy - copy @src into @dst (MAXSTRINGLEN bytes), truncating. */
void stp_strcpy(char *dst, const char *src);
/* stp_strcat - append @src to @dst (MAXSTRINGLEN bytes), truncating. */
void stp_strcat(char *dst, const char *src);
/* stp_sprintf - kernel vsnprintf-style formatting into @dst (MAXSTRINGLEN
 * bytes), truncating.  The format is already in kernel syntax (the
 * translator turns "%d" into "%lld" and passes int64 arguments). */
void stp_sprintf(char *dst, const char *fmt, ...) __printf(2, 3);
/* stp_long_to_str - decimal text of @v into @dst (MAXSTRINGLEN bytes). */
void stp_long_to_str(char *dst, s64 v);

/* ---- arithmetic that can fail ---- */

/* stp_div / stp_mod - 64-bit signed division and remainder; a zero divisor
 * records "division by zero" at @loc and returns 0.  INT64_MIN / -1 is
 * INT64_MIN (no trap); INT64_MIN % -1 is 0.  Context: any; no sleeping. */
s64 stp_div(struct stp_context *c, s64 a, s64 b, const char *loc);
s64 stp_mod(struct stp_context *c, s64 a, s64 b, const char *loc);

/* ---- output ---- */

/* stp_print - append @len bytes of @s to this CPU's output for the current
 * probe hit.  The buffer goes to the relay in one piece when the hit ends,
 * so one hit's output is never interleaved with another's; a hit that
 * prints more than STP_PRINT_BUF_SIZE is flushed in pieces.
 * Context: probe handler (context held, preemption disabled). */
void stp_print(struct stp_context *c, const char *s, size_t len);
/* stp_print_str - stp_print of a NUL-terminated string. */
void stp_print_str(struct stp_context *c, const char *s);
/* stp_printf - format with the kernel's vsnprintf and stp_print it.  One
 * call's output longer than STP_PRINT_BUF_SIZE - 1 bytes is truncated.
 * Output that finds the relay buffer full is dropped and counted ("There
 * were N transport failures" at the end); begin/end probes instead wait
 * a bounded time for stapio to drain it.  Context: as stp_print. */
void stp_printf(struct stp_context *c, const char *fmt, ...) __printf(2, 3);

/* ---- run control ---- */

/* stp_request_exit - ask for the end of the run (the script's exit()):
 * the end probes run soon after, in process context.  Only sets an atomic
 * flag (stapio notices it within about 20 ms); never sleeps or wakes
 * anything, so it is safe even in scheduler kprobes.  Other probes keep
 * running until stapio's EXIT arrives.  Context: any. */
void stp_request_exit(void);
/* stp_target_pid - the pid of staprun -c's command or of -x PID (the
 * script's target()), 0 when there is none.  Context: any. */
int stp_target_pid(void);
/* stp_warn - send "WARNING: <text>\n" to stapio's stderr (text truncated
 * to about 300 bytes; dropped when the control queue is full).
 * Context: any; does not sleep. */
void stp_warn(const char *fmt, ...) __printf(1, 2);

/* ---- global variables ---- */

/* A script global's lock.  Probes take the locks of the globals they use,
 * in ascending index order (readers shared, writers exclusive), with
 * bounded trylock loops so that a probe can never deadlock: if it cannot
 * get one in time it is skipped and counted. */
struct stp_global_lock {
	rwlock_t lock;
};
struct stp_lock_req {
	struct stp_global_lock *lock;
	int write;                 /* 1: exclusive; 0: shared */
};
/* stp_lock_globals - take @n locks in array order.  Returns 1 on success;
 * 0 when one could not be taken (all taken ones are released, the probe
 * hit is counted as skipped and must not run).  Each lock is tried up to
 * MAXTRYLOCK times, TRYLOCKDELAY ns apart (busy-waiting, never sleeping).
 * Exceeding MAXSKIPPED skipped hits ends the run with an error.
 * Context: probe handler, preemption disabled. */
int stp_lock_globals(struct stp_context *c, const struct stp_lock_req *reqs,
		     int n);
/* stp_unlock_globals - release what stp_lock_globals took (same @reqs,
 * @n), in reverse order.  Context: as stp_lock_globals. */
void stp_unlock_globals(const struct stp_lock_req *reqs, int n);

/* ---- the module description, defined by the generated code ---- */

enum stp_probe_kind {
	STP_PROBE_BEGIN,
	STP_PROBE_END,
	STP_PROBE_TIMER,           /* period_ns, one CPU (timer.ms/s/us/ns) */
	STP_PROBE_KPROBE,          /* symbol (+offset), is_return, maxactive */
};

struct stp_probe_desc {
	enum stp_probe_kind kind;
	const char *pp;            /* probe point text, for pp() */
	const char *loc;           /* script location of the probe "file:line:col" */
	void (*handler)(struct stp_context *c);
	u64 period_ns;             /* STP_PROBE_TIMER */
	const char *symbol;        /* STP_PROBE_KPROBE */
	unsigned long offset;
	int is_return;
	int maxactive;             /* 0: the kernel's default */
	int optional;              /* registration failure is not an error */
};

struct stp_module_desc {
	const char *script_name;   /* the script's file name, or "<input>" */
	const struct stp_probe_desc *probes;
	int nprobes;
	/* init_globals - set globals to their initial values; runs once in
	 * process context before any probe (at module load, after module
	 * parameters are set and locks initialised), may be NULL. */
	void (*init_globals)(void);
	/* globals_locks - every global's lock, initialised by the runtime
	 * at module load (before init_globals). */
	struct stp_global_lock *locks;
	int nlocks;
};

/* Defined by the generated code. */
extern const struct stp_module_desc stp_module;

#endif
