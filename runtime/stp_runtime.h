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
#include <linux/moduleparam.h>
#include <linux/ctype.h>
#include <linux/version.h>   /* LINUX_VERSION_CODE, KERNEL_VERSION() for
                                * embedded C of guru scripts */
#include <uapi/linux/perf_event.h>  /* PERF_TYPE_*, PERF_COUNT_* (perf probes) */
#ifndef STP_KCAPS_UNUSED      /* (the runtime's files that do not ask:
                                * kbuild.c's runtime_units) */
#include "stp_kcaps.h"       /* STP_HAVE_*: what this kernel offers */
#endif

#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512        /* bytes of a script string, NUL included */
#endif
#ifdef STP_SUPPRESS_TIME_LIMITS /* stap -g --suppress-time-limits */
#undef MAXACTION
#define MAXACTION LONG_MAX      /* no limit (MAXTRYLOCK stays: a lock never
                                 * released must not hang the probe) */
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
/* ---- regular expressions (s =~ "re"), see runtime/regex.c ----
 * The translator compiles each literal pattern into a Pike VM program
 * (static const data in the module): SAVE 0, <pattern>, SAVE 1, MATCH. */
#define STP_RX_MAXINSNS 512     /* instructions of one program */
#define STP_RX_MAXGROUPS 10     /* group 0 (whole match) and groups 1..9 */
#define STP_RX_NSLOTS (2 * STP_RX_MAXGROUPS)
#define STP_RX_NONE 0xffff      /* capture slot not set */

enum stp_rx_op {
	STP_RX_CHAR,    /* the byte arg */
	STP_RX_ANY,     /* any byte */
	STP_RX_CLASS,   /* a byte of class x (256-bit bitmap) */
	STP_RX_SPLIT,   /* continue at x, and (lower priority) at y */
	STP_RX_JMP,     /* continue at x */
	STP_RX_SAVE,    /* capture slot arg = the current offset */
	STP_RX_BOL,     /* at offset 0 */
	STP_RX_EOL,     /* at the end of the subject */
	STP_RX_MATCH,
};

struct stp_rx_insn {
	u8 op, arg;
	u16 x, y;
};

struct stp_regex {
	const struct stp_rx_insn *insns;
	const u32 (*classes)[8];
	u16 len;                /* instructions (<= STP_RX_MAXINSNS) */
	u8 ngroups;             /* parenthesized groups of the pattern */
};

/* One Pike VM thread: its instruction and its capture offsets. */
struct stp_rx_thread {
	u16 pc;
	u16 caps[STP_RX_NSLOTS];
};

/* The matcher's scratch space (in the per-CPU context: no allocation). */
struct stp_rx_work {
	struct stp_rx_thread list[2][STP_RX_MAXINSNS];
	u32 mark[STP_RX_MAXINSNS];          /* step that added pc, + 1 */
	u32 stack[2 * STP_RX_MAXINSNS + 2];  /* closure work: pc, or a slot
					     * to restore (see regex.c) */
	u16 cur[STP_RX_NSLOTS];
};

/* The perf counters a process probe reads (its desc's perf_reads), read
 * at the hit before its body runs (perf_counter.c); indexed by counter
 * number. */
#define STP_PERF_COUNTERS_MAX 16
struct stp_perf_values {
	u32 missing;               /* bit k: counter k has no value: */
	int rc[STP_PERF_COUNTERS_MAX]; /* -ESRCH: the process does not run
	                            * its program; else -errno of its
	                            * creation */
	s64 v[STP_PERF_COUNTERS_MAX];
};

struct stp_context {
	const struct stp_probe_desc *probe; /* the probe being run */
	const struct stp_kset_rt *kset; /* a probe set's hit: the set (kset.h)
	                            * and the row (point) hit; else NULL */
	u32 kset_row;
	struct pt_regs *regs;      /* registers at the probe point, or NULL */
	void *entry_data;          /* .return probes: what the entry handler
	                            * saved in the kretprobe instance */
	const struct stp_perf_values *perf_values; /* process probes reading
	                            * perf counters: what was read at the hit;
	                            * else NULL */
	const char *error;         /* first error of this hit, or NULL */
	const char *error_loc;     /* its script location "file:line:col" */
	char error_buf[128];       /* storage for formatted error messages */
	const char *call_loc;      /* script location of the latest call of an
	                            * embedded-C function (STAP_ERROR's) */
	long actions;              /* statements executed in this hit */
	int nesting;               /* script function call depth */
	int next;                  /* set by `next` in a script function: the
	                            * callers unwind to the end of the probe */
	size_t frame_used;         /* bytes in use in frames[] */
	char tok_buf[MAXSTRINGLEN]; /* tokenize(): the string being split */
	size_t tok_pos;            /* ... and the offset of the next token */
	int rx_ngroups;            /* groups of the last regex match attempt
	                            * of this hit; -1: none or it failed */
	u16 rx_caps[STP_RX_NSLOTS]; /* its capture offsets in rx_subject */
	char rx_subject[MAXSTRINGLEN]; /* a copy of its subject */
	struct stp_rx_work rx_work; /* the matcher's scratch space */
	char frames[STP_CONTEXT_STACK]; /* locals of the running probe and
	                                 * script functions, bump-allocated */
	unsigned long tp_args[12];  /* STP_PROBE_TRACEPOINT: the tracepoint's
	                             * arguments, each in a 64-bit slot */
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

/* stp_action_in - count @n statements in *@actions against MAXACTION:
 * c->actions, or the local counter of a handler that calls nothing
 * (codegen's light_body; the compiler folds a constant count away).
 * Returns nonzero (and records an error in @c) when the limit is
 * exceeded.  Context: probe handler. */
static inline int stp_action_in(struct stp_context *c, long *actions, long n,
				const char *loc)
{
	*actions += n;
	if (unlikely(*actions > MAXACTION)) {
		stp_error(c, "MAXACTION exceeded", loc);
		return 1;
	}
	return 0;
}

/* stp_action - count @n statements of this hit against MAXACTION.
 * Returns nonzero (and records an error) when the limit is exceeded. */
static inline int stp_action(struct stp_context *c, long n, const char *loc)
{
	return stp_action_in(c, &c->actions, n, loc);
}

/* stp_uncatchable - the error of this hit cannot be caught by try/catch
 * (MAXACTION: a catch block would only run more statements). */
static inline int stp_uncatchable(const struct stp_context *c)
{
	return c->actions > MAXACTION;
}

/* stp_regex_match - search @s for the pattern compiled into @re
 * (unanchored; POSIX leftmost-longest overall match; group boundaries
 * follow greedy, leftmost-first priority within that match).
 * @c: context (scratch space; the last match's state); @re: program made
 * by the translator; @s: NUL-terminated subject (at most MAXSTRINGLEN
 * bytes are looked at).
 * Returns 1 on a match, 0 otherwise.  After a match c->rx_subject holds a
 * copy of @s and c->rx_caps the group offsets (c->rx_ngroups groups);
 * after a failure c->rx_ngroups is -1.
 * Context: any; no allocation, no recursion, does not sleep; work is
 * O(strlen(s) * re->len * STP_RX_NSLOTS). */
int stp_regex_match(struct stp_context *c, const struct stp_regex *re,
		    const char *s);

/* stp_arena_take - @size bytes (rounded up to 8) from the context's
 * frame arena, or NULL after recording "out of context memory" at @loc.
 * Context: probe handler (context held); does not sleep. */
static inline void *stp_arena_take(struct stp_context *c, size_t size,
				   const char *loc)
{
	size_t sz = ALIGN(size, 8);
	void *p;

	if (unlikely(sz > STP_CONTEXT_STACK - c->frame_used)) {
		stp_error(c, "out of context memory", loc);
		return NULL;
	}
	p = c->frames + c->frame_used;
	c->frame_used += sz;
	return p;
}

/* stp_frame_enter - allocate @size bytes for a probe's or function's
 * locals, the first @zero of them zeroed (the script's locals, which
 * start as 0 or ""; temporaries after them are always written before
 * they are read and are left as they are).  Returns NULL and records an
 * error ("MAXNESTING exceeded" or "out of context memory") when it
 * cannot.  Each frame increments c->nesting: a probe's frame plus
 * MAXNESTING nested function frames fit.  Frames are 8-byte aligned; all
 * frames share STP_CONTEXT_STACK bytes.  Inline: it runs on every hit.
 * Context: probe handler (context held); does not sleep. */
static inline void *stp_frame_enter(struct stp_context *c, size_t size,
				    size_t zero, const char *loc)
{
	void *p;

	if (unlikely(c->nesting > MAXNESTING)) {
		stp_error(c, "MAXNESTING exceeded", loc);
		return NULL;
	}
	p = stp_arena_take(c, size, loc);
	if (!p)
		return NULL;
	c->nesting++;
	if (zero)
		memset(p, 0, zero);
	return p;
}

/* stp_frame_leave - release frame @f (from stp_frame_enter) and
 * everything allocated after it (foreach snapshots of loops left by
 * return, next or an error), and decrement c->nesting.
 * Context: probe handler. */
static inline void stp_frame_leave(struct stp_context *c, void *f)
{
	size_t at = (char *)f - c->frames;

	if (WARN_ON_ONCE(at > c->frame_used || c->nesting <= 0))
		return;
	c->frame_used = at;
	c->nesting--;
}
/* stp_frame_push / stp_frame_pop - a frame of @size bytes, all zeroed,
 * released in LIFO order by its size: for code whose frames hold no
 * foreach snapshots at their exit (entry handlers). */
void *stp_frame_push(struct stp_context *c, size_t size, const char *loc);
void stp_frame_pop(struct stp_context *c, size_t size);
/* stp_arena_alloc - @size bytes (not zeroed, 8-byte aligned) from the
 * frame arena, above the current frame, for data that lives as long as a
 * statement (foreach snapshots).  Released by stp_arena_release to a
 * c->frame_used value taken before, or with the enclosing frame.
 * Returns NULL after recording "out of context memory" at @loc.
 * Context: probe handler; does not sleep. */
void *stp_arena_alloc(struct stp_context *c, size_t size, const char *loc);
/* stp_arena_release - free the arena above @mark (a c->frame_used). */
static inline void stp_arena_release(struct stp_context *c, size_t mark)
{
	c->frame_used = mark;
}

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
/* stp_sprintf_cat - as stp_sprintf, appending to the string in @dst. */
void stp_sprintf_cat(char *dst, const char *fmt, ...) __printf(2, 3);
/* stp_format_special - the printf conversions the kernel lacks, printed
 * (@dst NULL) or appended to the script string @dst:
 *   %b  @v as raw bytes in the machine's byte order: @prec bytes (1, 2,
 *       4 or 8; else @width if valid, else 8), padded with NUL bytes to
 *       @width (bytes after a NUL are lost in a string);
 *   %m  @prec bytes (default 1, at most 1024) of kernel memory at @v
 *       (user memory with the '#' flag), padded with spaces to @width;
 *   %M  the same in hex, two digits per byte.
 * The '-' in @flags pads on the right.  A bad address records "kernel
 * read fault at 0xADDR" (or "user ...") at @loc.
 * Context: probe handler; does not sleep. */
void stp_format_special(struct stp_context *c, char *dst, char conv,
			const char *flags, int width, int prec, s64 v,
			const char *loc);
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

/* stp_switch_file - the script's switch_file(): send what this hit has
 * printed so far, then an empty relay record, which tells stapio to go on
 * in the next output file (see stp_transport_msgs.h).  Context: as
 * stp_print. */
void stp_switch_file(struct stp_context *c);

/* ---- run control ---- */

/* stp_request_exit - ask for the end of the run (the script's exit()):
 * the end probes run soon after, in process context.  Sets an atomic
 * flag and queues stapio's wake (an irq_work: stapio notices within
 * about 20 ms); never sleeps or wakes anything itself, so it is safe even
 * in scheduler kprobes.  Other probes keep running until stapio's EXIT
 * arrives.  Context: any. */
void stp_request_exit(void);
/* stp_request_abort - the script's abort(): as stp_request_exit(), and
 * the end probes will not run.  Context: any. */
void stp_request_abort(void);
/* stp_target_pid - the pid of staprun -c's command or of -x PID (the
 * script's target()), 0 when there is none.  Context: any. */
int stp_target_pid(void);
/* stp_stapio_pid - the process id of the stapio reading this module's
 * output (the one that opened its control channel last; the script's
 * stp_pid()), 0 before one has.  Context: any. */
int stp_stapio_pid(void);
/* stp_target_pid_ns / stp_target_user_ns - the pid and user namespaces
 * of stap --target-namespaces=PID (taken at module load, held until
 * unload), NULL without the option.  Context: any. */
struct pid_namespace;
struct user_namespace;
struct pid_namespace *stp_target_pid_ns(void);
struct user_namespace *stp_target_user_ns(void);
/* stp_warn - send "WARNING: <text>\n" to stapio's stderr (text truncated
 * to about 300 bytes; dropped when the control queue is full).
 * Context: any; does not sleep. */
void stp_warn(const char *fmt, ...) __printf(1, 2);

/* stp_system - ask stapio to run the shell command @cmd (the script's
 * system()): it runs `/bin/sh -c CMD` in the background, soon after, as
 * stapio's user, with stapio's stdout and stderr.  Returns 0, or -ENOSPC
 * / -EBUSY when the control queue cannot take it (the command is
 * dropped).  Context: any; does not sleep. */
int stp_system(const char *cmd);

/* stp_raise - the script's raise(): send signal @sig to the current
 * thread (as send_sig() does) just after this probe hit, from an irq_work
 * (never from inside the handler, so it cannot deadlock on signal locks
 * the probed code holds).  Returns 0, -EINVAL for a bad signal number,
 * -EBUSY when 32 signals are already waiting to be sent.
 * Context: any, NMI included; does not sleep. */
int stp_raise(int sig);

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


/* STP_PCPU_READ - the value of a per-CPU counter global G (see
 * translator/codegen/pcpu.c): its base G (initial value, -G parameter)
 * plus the per-CPU deltas G_pcpu that probes add to with this_cpu_add()
 * without a lock.  Each delta is read whole (one 64-bit load), so the sum
 * holds every update completed before the read and none twice.  Any
 * context, takes no lock, never sleeps. */
#define STP_PCPU_READ(G) ({					\
	s64 __stp_v = (G);					\
	int __stp_cpu;						\
	for_each_possible_cpu(__stp_cpu)			\
		__stp_v = (s64)((u64)__stp_v +			\
			(u64)READ_ONCE(*per_cpu_ptr(&G##_pcpu, __stp_cpu))); \
	__stp_v;						\
})

/* ---- associative arrays and statistics (map.c, stat.c, sort.c) ----
 *
 * A script array is a `struct stp_map` defined statically by the
 * generated code (the fields up to `hist`) and given its storage by
 * stp_map_alloc at module load: a hash table over a preallocated pool of
 * max_entries entries, each sized for the array's own key and value
 * types (a long key takes 8 bytes, a string key MAXSTRINGLEN).  Nothing
 * is allocated in probe context.  A scalar statistic is a statistics map
 * with no keys and one entry.
 *
 * Statistics maps have one table per possible CPU: `<<<` only touches
 * the running CPU's table (preemption is off), so the script global's
 * lock is taken shared for it; reading an aggregate merges the CPUs'
 * tables and needs the lock exclusive.  Long and string maps have one
 * table; readers take the lock shared, writers (and foreach, which sorts
 * the table in place) exclusive.  Every function below except
 * stp_map_alloc/stp_map_free runs in probe context with the map's lock
 * held as described, never sleeps and never allocates. */

#define STP_MAX_KEYS 9
#define STP_HIST_LOG_BUCKETS 128   /* buckets of @hist_log: -2^63 .. 2^63 */
#define STP_HIST_LOG_BUCKET0 64    /* the bucket of value 0 */

enum stp_vtype { STP_T_LONG = 1, STP_T_STR = 2, STP_T_STAT = 3 };
enum stp_hist_type { STP_HIST_NONE = 0, STP_HIST_LOG, STP_HIST_LINEAR };
enum stp_stat_op { STP_STAT_COUNT, STP_STAT_SUM, STP_STAT_MIN, STP_STAT_MAX,
		   STP_STAT_AVG, STP_STAT_VARIANCE };

/* A key of a map access, as generated code passes it: .l for long keys,
 * .s (a NUL-terminated string, truncated to MAXSTRINGLEN) for strings. */
union stp_key {
	s64 l;
	const char *s;
};

/* The histogram kept by a statistic (one kind per global). */
struct stp_hist {
	int type;                  /* enum stp_hist_type */
	s64 start, stop, interval; /* STP_HIST_LINEAR parameters */
	int buckets;               /* set by stp_map_alloc */
};

/* A statistic: one CPU's part, or the merge of all CPUs' parts.
 * @variance follows SystemTap's integer arithmetic: each CPU keeps a
 * running (Welford) mean and second moment; merging combines them with
 * the total-variance formula. */
struct stp_stat {
	s64 count, sum, min, max;
	s64 avg, m2, var;          /* one CPU: running mean, second moment,
	                            * sample variance (count >= 2), all of the
	                            * values shifted left by the map's
	                            * var_shift bits */
	s64 acc_a, acc_b, acc_s2;  /* merged: sum of count*avg^2, of
	                            * count*avg, of (count-1)*var */
	s64 hist[];                /* hist.buckets counters */
};

struct stp_htab;

struct stp_map {
	/* filled in by the generated code */
	const char *name;          /* script name, for messages */
	int nkeys;                 /* 0 (scalar statistic) .. STP_MAX_KEYS */
	u8 key_types[STP_MAX_KEYS]; /* STP_T_LONG or STP_T_STR */
	u8 val_type;               /* enum stp_vtype */
	u32 max_entries;           /* capacity ([N] or MAXMAPENTRIES) */
	int wrap;                  /* % : evict the oldest entry when full */
	struct stp_hist hist;      /* statistics only */
	int var_shift;             /* statistics: @variance(s, SHIFT), 0..31 */
	u8 percpu;                 /* a long map that probes only add to
	                            * (stp_map_add): one table per CPU, as
	                            * statistics have, merged into tab when
	                            * read (translator/codegen/pcpu.c) */
	/* owned by the runtime */
	struct stp_htab *tab;      /* long/string values (per-CPU long maps:
	                            * the merged values) */
	struct stp_htab **pcpu;    /* statistics, per-CPU long maps:
	                            * [nr_cpu_ids] */
	struct stp_htab *agg;      /* statistics: merged for foreach */
	struct stp_stat *scratch;  /* statistics: one merged value */
};

#ifndef MAXMAPENTRIES
#define MAXMAPENTRIES 2048
#endif

/* stp_map_alloc - allocate @m's tables (vmalloc).  Returns 0 or -ENOMEM.
 * Process context; may sleep.  stp_map_free releases them (idempotent). */
int stp_map_alloc(struct stp_map *m);
void stp_map_free(struct stp_map *m);

/* stp_map_ref - the value slot of @keys in long/string map @m, created
 * (zeroed: 0 or "") if absent.  Returns an s64 * or a char[MAXSTRINGLEN]
 * to write; NULL when the map is full (error "Array overflow, check size
 * limit (N) for array 'NAME'" at @loc), unless it is a wrap-around map,
 * which then evicts its oldest entry.  Lock: exclusive. */
void *stp_map_ref(struct stp_context *c, struct stp_map *m,
		  const union stp_key *keys, const char *loc);
/* stp_map_add - `m[keys] += v` (and ++, --, -=) on this CPU's table of
 * per-CPU long map @m (m->percpu), the entry created if absent.  Returns
 * 0, or -1 after recording the overflow error as stp_map_ref does.
 * Lock: shared (per-CPU data; preemption disabled). */
int stp_map_add(struct stp_context *c, struct stp_map *m,
		const union stp_key *keys, s64 v, const char *loc);
/* stp_map_get_long / stp_map_get_str - the value of @keys, 0 or "" if
 * absent (nothing is created; a per-CPU long map sums its CPUs).  The
 * string stays valid until the map is next modified.  Lock: shared
 * (exclusive for a per-CPU long map). */
s64 stp_map_get_long(struct stp_map *m, const union stp_key *keys);
const char *stp_map_get_str(struct stp_map *m, const union stp_key *keys);
/* stp_map_exists - 1 if @keys is in @m (any CPU for statistics).
 * Lock: shared (exclusive for statistics). */
int stp_map_exists(struct stp_map *m, const union stp_key *keys);
/* stp_map_delete - remove @keys (all CPUs' parts of a statistic).
 * stp_map_clear - remove everything.  Lock: exclusive. */
void stp_map_delete(struct stp_map *m, const union stp_key *keys);
void stp_map_clear(struct stp_map *m);
/* stp_map_slice - the elements of @m whose keys equal @keys at every
 * position i whose bit (1 << i) in @wild is clear (the '*' keys of a
 * slice, whose @keys entries are ignored).  @del 0: returns 1 if there
 * is one, else 0 (lock: shared); @del 1: removes them all as
 * stp_map_delete does and returns how many (lock: exclusive).  Probe
 * context; does not sleep; O(elements). */
int stp_map_slice(struct stp_map *m, const union stp_key *keys, u32 wild,
		  int del);

/* stp_stat_add - `m[keys] <<< v` on this CPU's part.  Returns 0, or -1
 * after recording the overflow error as stp_map_ref does.
 * Lock: shared (per-CPU data; preemption disabled). */
int stp_stat_add(struct stp_context *c, struct stp_map *m,
		 const union stp_key *keys, s64 v, const char *loc);
/* stp_stat_op - @op (enum stp_stat_op) of the statistic at @keys merged
 * over all CPUs.  @count and @sum of an empty statistic are 0; the other
 * operators record "empty aggregate" at @loc and return 0.
 * Lock: exclusive. */
s64 stp_stat_op(struct stp_context *c, struct stp_map *m,
		const union stp_key *keys, int op, const char *loc);
/* stp_stat_print_hist - print the statistic's histogram (@hist_log or
 * @hist_linear as declared in m->hist) in SystemTap's layout; an empty
 * statistic is the error "empty aggregate".  Lock: exclusive. */
void stp_stat_print_hist(struct stp_context *c, struct stp_map *m,
			 const union stp_key *keys, const char *loc);
/* stp_stat_sprint_hist - as stp_stat_print_hist, appending the text to
 * the script string @dst instead (truncated at MAXSTRINGLEN; @dst NULL:
 * printed).  Lock: exclusive. */
void stp_stat_sprint_hist(struct stp_context *c, struct stp_map *m,
			  const union stp_key *keys, char *dst,
			  const char *loc);

/* ---- statistics in local variables ----
 * A probe's or function's local statistic is one struct stp_stat in its
 * frame, followed by the counters of its histogram: STP_LSTAT_WORDS(B)
 * s64 words for B buckets (0 without a histogram; STP_HIST_LOG_BUCKETS
 * for @hist_log; (stop - start) / interval + 3 for @hist_linear).  It is
 * zeroed with the frame's locals (the empty statistic), so it starts
 * empty at each hit or call.  No per-CPU parts and no lock: only the
 * frame's owner touches it.  The histogram kind and @variance's bit
 * shift are those its uses declare, passed by the generated code as a
 * struct stp_hist (.buckets filled in; NULL: none) and @var_shift
 * (0..31).  Context: probe handler; none of them sleeps or allocates. */
#define STP_LSTAT_WORDS(buckets) \
	(sizeof(struct stp_stat) / sizeof(s64) + (buckets))
/* stp_stat_add_value - `s <<< v`: add @v to the statistic @s (one part)
 * and to its histogram @h (NULL or STP_HIST_NONE: none).  Also the
 * per-CPU step of stp_stat_add. */
void stp_stat_add_value(struct stp_stat *s, const struct stp_hist *h,
			int var_shift, s64 v);
/* stp_stat_local_op - @op (enum stp_stat_op) of local statistic @s, with
 * stp_stat_op's results and errors ("empty aggregate" at @loc, returning
 * 0, for all but @count and @sum of an empty one). */
s64 stp_stat_local_op(struct stp_context *c, const struct stp_stat *s,
		      int var_shift, int op, const char *loc);
/* stp_stat_hist_print - print histogram @h of statistic @s (a local one,
 * or a merged global one) in SystemTap's layout, or append it to the
 * script string @dst when not NULL (truncated at MAXSTRINGLEN).  An
 * empty statistic is the error "empty aggregate" at @loc. */
void stp_stat_hist_print(struct stp_context *c, const struct stp_stat *s,
			 const struct stp_hist *h, char *dst, const char *loc);

/* ---- foreach ----
 * Each foreach visits its own snapshot of the array's order, taken when
 * the loop starts, so a nested loop over the same array (sorted the same
 * way or not) never disturbs the outer one.  Elements deleted while the
 * loop runs (by its body or anything it calls) are skipped when their
 * turn comes; elements inserted meanwhile are not visited; `delete a`
 * ends the loop.  The snapshot takes 4 bytes per visited element from
 * the context's frame arena (STP_CONTEXT_STACK).
 *
 * stp_map_iter_start - prepare loop @it over @m: for statistics, merge
 * the CPUs' parts into the aggregate table; when @dir is +1 or -1, sort
 * it (stably, in place) by key @col (1..nkeys) or by value (@col -1;
 * statistics by aggregate @aggr, an enum stp_stat_op: a@sum-); then take
 * the snapshot of the first @limit elements (<= 0: none; S64_MAX: all).
 * Returns 0, or -1 after recording an error (merged table overflow, "out
 * of context memory").  Lock: exclusive.
 * stp_map_iter_next - the next element to visit, NULL at the end.
 * stp_map_iter_end - release the snapshot: on the loop's normal end and
 * on break.  Other exits need not call it: popping the frame of the
 * probe or function (stp_frame_leave) releases it, and so does a catch
 * (stp_arena_release to the mark of the try). */
struct stp_iter {
	struct stp_htab *t;        /* the table visited */
	u32 *order;                /* pool indexes of the elements to visit */
	u32 n, pos;                /* elements in order[], next to visit */
	u32 seq;                   /* the table's insertion count at start */
	size_t mark;               /* c->frame_used before the snapshot */
};
int stp_map_iter_start(struct stp_context *c, struct stp_map *m,
		       struct stp_iter *it, int col, int dir, int aggr,
		       s64 limit, const char *loc);
void *stp_map_iter_next(struct stp_iter *it);
void stp_map_iter_end(struct stp_context *c, struct stp_iter *it);
/* Accessors of entry @e of table @t: key @i (0-based), value. */
s64 stp_map_iter_key_long(struct stp_htab *t, void *e, int i);
const char *stp_map_iter_key_str(struct stp_htab *t, void *e, int i);
s64 stp_map_iter_val_long(struct stp_htab *t, void *e);
const char *stp_map_iter_val_str(struct stp_htab *t, void *e);

/* stp_map_dump - print every element of @m, one per line, as
 * "NAME[k1,"k2"]=value" (strings quoted), scalar statistics as
 * "NAME @count=N @min=.. @max=.. @sum=.. @avg=..".  Used for the
 * globals a script writes but never reads.  Lock: exclusive. */
void stp_map_dump(struct stp_context *c, struct stp_map *m);

/* ---- target variables (tvar.c) ---- */

/* stp_reg - the value of x86-64 DWARF register @regno (0 rax, 1 rdx,
 * 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8-15 r8-r15, 16 rip) at the
 * probe point.  Without registers (begin, timers) or for another number
 * it records an error and returns 0.  Context: any; does not sleep. */
unsigned long stp_reg(struct stp_context *c, int regno);

/* stp_set_reg - guru mode: set DWARF register @regno (as stp_reg) of the
 * probed code to @v; the kprobe or kretprobe returns into the new value.
 * Errors as stp_reg.  Context: any; does not sleep. */
void stp_set_reg(struct stp_context *c, int regno, unsigned long v);

/* stp_write_kernel - guru mode: store the low @size (1, 2, 4, 8) bytes of
 * @v at kernel address @addr; a bad address records "kernel write fault
 * at 0xADDR" at @loc.  Context: any; never sleeps. */
void stp_write_kernel(struct stp_context *c, unsigned long addr, int size,
		      u64 v, const char *loc);

/* stp_tv_appendf - append printf-style text to the MAXSTRINGLEN buffer
 * @dst, truncating.  Context: any. */
void stp_tv_appendf(char *dst, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* stp_tv_kstr - append the kernel string at @addr (at most @max bytes)
 * quoted, as "text", or its address in hex if it cannot be read (no
 * error: pretty-printing shows what it can).  Context: any. */
void stp_tv_kstr(struct stp_context *c, char *dst, unsigned long addr,
		 long max);

/* ---- user programs' target variables (uvars.c) ---- */
/* stp_uid_ok - uprobes.c: is current the script owner's?  For a stapusr
 * module (_stp_uid set by staprun) its real and effective uids must be
 * that user's; otherwise always 1.  Process probes fire only where it
 * holds; is_myproc() returns it.  Any context; no sleep. */
int stp_uid_ok(void);
/* stp_ubias - the load bias of file @path (absolute) in the current
 * process: its mapping of file offset 0 less @vaddr0 (page-aligned
 * p_vaddr of its first PT_LOAD); in a uprobe of @path the probe's
 * address less its link-time address (no lock).  0 and an error at @loc
 * when it is not mapped.  Context: any; never sleeps
 * (mmap_read_trylock). */
unsigned long stp_ubias(struct stp_context *c, const char *path,
			unsigned long vaddr0, const char *loc);
/* stp_ubias_find - the same into *@bias: 0, or -1 (no error recorded)
 * when @path is not mapped in the current process, there is none, or
 * its memory map is busy.  Context: any; never sleeps. */
int stp_ubias_find(struct stp_context *c, const char *path,
		   unsigned long vaddr0, unsigned long *bias);
/* A user-space file whose load bias code asks for often and in any
 * probe (the python3 tapset's interpreters): how to recognise it in a
 * process's memory without walking its memory map. */
struct stp_umapped {
	const char *path;          /* absolute, in the target (stp_upaths:
	                            * generated code names it with
	                            * STP_UMAPPED_PATH("...")) */
	unsigned long vaddr0;      /* page-aligned p_vaddr of its first
	                            * PT_LOAD */
	int fixed;                 /* ET_EXEC: loaded at its link-time
	                            * addresses, bias 0 */
	unsigned long id_vaddr;    /* link-time address of its build-id */
	const unsigned char *id;   /* ... and the build-id's bytes */
	int id_len;                /* 0: it has none */
};
#define STP_UMAPPED_PATH(p) p
/* stp_umapped_bias - the load bias of @f in the current process into
 * *@bias: in a uprobe of @f from the probe's address; else where @f's
 * build-id is found in the process's memory at its link-time address
 * (@f->fixed) or at the bias last found for this process (a cache, each
 * entry checked so; "not mapped" kept while the process's memory map has
 * as many areas); else by a walk of the memory map (trylock), whose
 * answer goes into the cache.  0, or -1 when @f is not mapped or it
 * cannot tell.  Context: any; never sleeps. */
int stp_umapped_bias(struct stp_context *c, const struct stp_umapped *f,
		   unsigned long *bias);
/* stp_tv_ustr - stp_tv_kstr() for the current task's user memory. */
void stp_tv_ustr(struct stp_context *c, char *dst, unsigned long addr,
		 long max);
/* stp_write_user - stp_write_kernel() for the current task's user
 * memory (copy_to_user_nofault).  Context: any; never sleeps. */
void stp_write_user(struct stp_context *c, unsigned long addr, int size,
		    u64 v, const char *loc);

/* ---- fault-tolerant memory access (memory.c) ----
 * Reads of kernel or user memory for script code.  A bad address records
 * "kernel read fault at 0xADDR" (or "user read fault ...") at @loc and
 * returns 0 / "".  Context: any; never sleeps (nofault copies). */
s64 stp_read_kernel(struct stp_context *c, unsigned long addr, int size,
		    const char *loc);
s64 stp_read_user(struct stp_context *c, unsigned long addr, int size,
		  const char *loc);
/* stp_read_kernel_string / stp_read_user_string - copy the string at
 * @addr (at most @max bytes, truncated to MAXSTRINGLEN - 1) into @dst. */
void stp_read_kernel_string(struct stp_context *c, char *dst,
			    unsigned long addr, long max, const char *loc);
void stp_read_user_string(struct stp_context *c, char *dst,
			  unsigned long addr, long max, const char *loc);

/* ---- stacks and symbols (stack.c) ----
 * All of these run in probe context: no sleeping, no allocation; symbol
 * names come from kallsyms (sprint_symbol), stacks from the kernel's
 * unwinder (ORC), at most MAXBACKTRACE frames. */
#ifndef MAXBACKTRACE
#define MAXBACKTRACE 20            /* frames of a backtrace */
#endif

/* stp_symname - the name of the kernel symbol containing @addr ("vfs_read",
 * without a module suffix) into @dst (MAXSTRINGLEN); "0x..." if none. */
void stp_symname(char *dst, unsigned long addr);
/* stp_ksymfileline - "fs/read_write.c:450" (@what STP_KLINE_BOTH), the
 * file (STP_KLINE_FILE) or "450" (STP_KLINE_LINE) of kernel address
 * @addr from the module's copy of the kernel's line table, to @dst
 * (MAXSTRINGLEN); @addr in hex when the table has no line for it (a
 * module's address, or a script that did not ask for the table). */
#define STP_KLINE_FILE 1
#define STP_KLINE_LINE 2
#define STP_KLINE_BOTH 3
void stp_ksymfileline(char *dst, unsigned long addr, int what);
/* stp_symdata - "vfs_read+0x0/0x1a0 [kernel]" (modules: "[ext4]") for
 * @addr into @dst (MAXSTRINGLEN); "0x..." if no symbol contains it. */
void stp_symdata(char *dst, unsigned long addr);
/* stp_symmod - the module containing @addr ("ext4"), "kernel" for the
 * kernel image, "" if neither. */
void stp_symmod(char *dst, unsigned long addr);
/* stp_backtrace - the kernel stack of the probe hit as hex addresses
 * separated by spaces ("0xffffffff81234567 0x...") into @dst
 * (MAXSTRINGLEN, truncated at a whole address).  Unwinds from c->regs
 * when the hit has kernel-mode registers (first the interrupted address),
 * from nothing when they are user-mode, else from the current stack
 * without the runtime's own frames. */
void stp_backtrace(struct stp_context *c, char *dst);
/* stp_task_backtrace - as stp_backtrace, the kernel stack of the task
 * whose task_struct is at @task: current's from here (without the
 * runtime's frames), another task's from where it last slept.  Errors
 * (at @loc): @task is not a live task, or it runs on another CPU. */
void stp_task_backtrace(struct stp_context *c, char *dst,
			unsigned long task, const char *loc);
/* stp_print_backtrace - print the same stack, one frame a line:
 * " 0xffffffff81234567 : vfs_read+0x0/0x1a0 [kernel]" (to @dst,
 * MAXSTRINGLEN, truncated, when it is not NULL). */
void stp_print_backtrace(struct stp_context *c, char *dst);
/* stp_print_backtrace_fileline - print the same, each frame with its
 * source file and line where the kernel's line table has them (needs
 * pragma:lines): " 0xffffffff81234567 : vfs_read+0x0/0x1a0 at
 * fs/read_write.c:450 [kernel]". */
void stp_print_backtrace_fileline(struct stp_context *c);
/* stp_print_stack - print the frames of a stp_backtrace() string @s in
 * the same format (to @dst, MAXSTRINGLEN, when it is not NULL). */
void stp_print_stack(struct stp_context *c, char *dst, const char *s);
/* stp_stack_nth - the address of frame @n (0: the innermost) of the same
 * stack, 0 when it has no such frame. */
unsigned long stp_stack_nth(struct stp_context *c, s64 n);
/* stp_probe_addr - the probed address: the interrupted instruction of a
 * kprobe/perf hit (c->regs ip), 0 when the hit has no registers. */
unsigned long stp_probe_addr(struct stp_context *c);
/* stp_probe_uaddr - the user-space instruction pointer of the current
 * task at the hit, 0 in kernel threads. */
unsigned long stp_probe_uaddr(struct stp_context *c);
/* stp_probefunc / stp_probemod - the probed function ("vfs_read") and
 * its module ("kernel", "ext4") into @dst (MAXSTRINGLEN); "" when the
 * probe has no address (begin, timer.ms, ...). */
void stp_probefunc(struct stp_context *c, char *dst);
void stp_probemod(struct stp_context *c, char *dst);

/* ---- procfs probes (procfs.c) ---- */
#ifndef STP_PROCFS_BUFSIZE
#define STP_PROCFS_BUFSIZE MAXSTRINGLEN  /* default .read buffer bytes */
#endif

/* stp_procfs_value - $value of a procfs probe into @dst (MAXSTRINGLEN,
 * truncated): in a .write probe the bytes of this write() (a write of
 * more than MAXSTRINGLEN - 1 bytes runs the probe once per piece), in a
 * .read probe the text assigned so far.  Outside a procfs probe it
 * records an error at @loc and gives "".
 * Context: probe handler; does not sleep. */
void stp_procfs_value(struct stp_context *c, char *dst, const char *loc);
/* stp_procfs_set_value - a procfs .read probe's `$value = s` (@append 0)
 * or `$value .= s` (@append 1): the text the reader gets, truncated to
 * the file's maxsize (STP_PROCFS_BUFSIZE by default) - 1 bytes.  Outside
 * a .read probe it records an error at @loc.
 * Context: probe handler; does not sleep. */
void stp_procfs_set_value(struct stp_context *c, const char *s, int append,
			  const char *loc);

/* stp_perf_value - @perf("@name"): the value of perf counter @k (the
 * count of its event in the current process since it began running the
 * counter's program or since the start, whichever came last, its threads
 * included) as read at this hit.  Errors (at @loc, giving 0): the
 * process has no such counter (it runs another program), or creating it
 * failed.  Context: probe handler of a process probe; does not sleep. */
s64 stp_perf_value(struct stp_context *c, int k, const char *name,
		   const char *loc);

/* stp_param_ops_s64 - module parameter operations for a long script
 * global (stap -G name=value): decimal, 0x hex or 0 octal, 64-bit. */
extern const struct kernel_param_ops stp_param_ops_s64;

/* ---- the module description, defined by the generated code ---- */

enum stp_probe_kind {
	STP_PROBE_BEGIN,
	STP_PROBE_END,
	STP_PROBE_TIMER,           /* period_ns, one CPU (timer.ms/s/us/ns) */
	STP_PROBE_KPROBE,          /* symbol (+offset), is_return, maxactive */
	STP_PROBE_PERF,            /* perf event on every online CPU: perf_type,
	                            * perf_config, sample, perf_freq
	                            * (timer.profile, perf.*) */
	STP_PROBE_TRACEPOINT,      /* symbol: the tracepoint's name */
	STP_PROBE_NEVER,           /* never: compiled, never run */
	STP_PROBE_ERROR,           /* error probes: run instead of the end
	                            * probes when errors ended the run */
	STP_PROBE_PROCFS,          /* symbol: a file of /proc/systemtap/MODULE;
	                            * procfs_write, procfs_maxsize, procfs_umask */
	STP_PROBE_UPROBE,          /* path + offset (file offset of the
	                            * instruction), is_return, ref_ctr_offset
	                            * (uprobes.c) */
	STP_PROBE_PROC_BEGIN,      /* a process starts (path: only processes
	                            * executing that file), uprobes.c */
	STP_PROBE_PROC_END,        /* a process (its last thread) exits */
	STP_PROBE_THREAD_BEGIN,    /* a new thread of a process (path: of a
	                            * process running that file), uprocess.c */
	STP_PROBE_THREAD_END,      /* a thread other than the leader exits */
	STP_PROBE_NETFILTER,       /* a netfilter hook: nf_hook, nf_pf,
	                            * nf_priority (netfilter.c) */
	STP_PROBE_PERF_PROC,    /* a counter (no handler) of perf_type/
	                            * perf_config in every process that begins
	                            * running path, number perf_counter, name
	                            * symbol (perf_counter.c) */
	STP_PROBE_HWBKPT,          /* kernel.data: a hardware breakpoint on
	                            * offset (symbol NULL) or on symbol's
	                            * link-time address offset, relocated by
	                            * hw_anchor; hw_len, hw_rw (hwbkpt.c) */
};

struct kprobe;
struct ftrace_ops;
struct ftrace_regs;
struct stp_kset_rt;

/* A probe set: the points of one kprobe entry of the probe table (its
 * .kset), a row each, made by translator/codegen/kset_gen.c and
 * attached by runtime/kset.c.  The tables are strings of VLQs (6 bits a
 * character of "A-Za-z0-9+/": 5 of the value, least significant first,
 * 32 when more follow; signed values zigzag-coded):
 *   rows   nrows x (address - the previous row's (0 for the first) times
 *          2, plus 1 for a kprobe's row (0: ftrace runs it); the
 *          function index - the previous row's, signed)
 *   funcs  nfuncs x (0, or 1 + the index of its file in files; line)
 * names holds each function's name, files each file's path, NUL-
 * terminated.  pp() of a row: pp_prefix NAME[@FILE[:LINE]] pp_suffix. */
struct stp_kset {
	const char *rows, *funcs, *names, *files;
	u32 nrows, nfuncs, nfiles;
	u64 base;                  /* link-time address of row 0 */
	u64 anchor;                /* link-time address of _printk */
	const char *pp_prefix, *pp_suffix;
	/* entry sets: the callbacks with the handler inlined (kset.h) */
	void (*ftrace_fn)(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs);
	int (*kprobe_pre)(struct kprobe *kp, struct pt_regs *regs);
	int regs;                  /* the handler may read registers */
};

/* stp_pp - pp() of this hit into @dst (MAXSTRINGLEN bytes): the probe's,
 * or its set's row's (kset.c).  Context: probe handler. */
void stp_pp(struct stp_context *c, char *dst);
/* stp_kset_function - the function a probe set's hit is in (its name
 * as the debuginfo gives it), or NULL when the hit is not a set's. */
const char *stp_kset_function(struct stp_context *c);

/* STP_PROBE_NETFILTER: what the hook puts in the context's tp_args (the
 * netfilter tapset reads them): the struct sk_buff *, the const struct
 * nf_hook_state *, and the address of the unsigned int verdict. */
#define STP_NF_ARG_SKB 0
#define STP_NF_ARG_STATE 1
#define STP_NF_ARG_VERDICT 2

struct stp_probe_desc {
	enum stp_probe_kind kind;
	const char *pp;            /* probe point text, for pp() */
	const char *pn;            /* the alias (or point) the script named,
	                            * for pn(); NULL: pp */
	const char *loc;           /* script location of the probe "file:line:col" */
	void (*handler)(struct stp_context *c);
	u64 period_ns;             /* STP_PROBE_TIMER */
	u64 randomize_ns;          /* STP_PROBE_TIMER: each period is
	                            * period_ns + a uniform [-r, +r] */
	const char *symbol;        /* STP_PROBE_KPROBE, STP_PROBE_TRACEPOINT */
	unsigned long offset;
	int is_return;
	int maxactive;             /* 0: the kernel's default */
	int optional;              /* registration failure is not an error */
	int wildcard;              /* one of several probes a pattern matched:
	                            * failing to register is counted, and one
	                            * warning per pattern is sent */
	const char *pattern;       /* wildcard: the pattern as written; the
	                            * probes of one pattern are adjacent */
	u32 perf_type;             /* STP_PROBE_PERF: PERF_TYPE_* */
	u64 perf_config;           /* PERF_COUNT_* */
	u64 sample;                /* sample period (ns for the clocks) or,
	                            * with perf_freq, samples per second */
	int perf_freq;
	int perf_counter;          /* STP_PROBE_PERF_PROC: its number */
	u32 perf_reads;            /* STP_PROBE_UPROBE: bit k: read counter k
	                            * at each hit (c->perf_values) */
	/* .return probes reading values of the function's entry: run at the
	 * entry with c->entry_data = entry_size bytes of the kretprobe
	 * instance, whose first int it sets to 1 on success. */
	void (*entry_handler)(struct stp_context *c);
	size_t entry_size;
	int syscall_filter;        /* STP_PROBE_TRACEPOINT on raw_syscalls'
	                            * sys_enter (1) / sys_exit (2): run only
	                            * for native syscall syscall_nr; 0: all */
	long syscall_nr;
	int procfs_write;          /* STP_PROBE_PROCFS: 1 .write, 0 .read */
	long procfs_maxsize;       /* .read: read buffer bytes, 0: default */
	int procfs_umask;          /* -1: default permissions */
	/* STP_PROBE_UPROBE, STP_PROBE_PROC_*: the program's absolute path in
	 * the target machine (resolved to an inode at module start; NULL for
	 * process.begin/.end of every process) */
	const char *path;
	int pid;                   /* process(PID): fires only in that
	                            * process (its tgid); 0: any.  A UPROBE
	                            * with pid and no path: the program is
	                            * the process's executable at module
	                            * start and offset that of its function
	                            * symbol (uelfk.c) */
	int hw_len;                /* STP_PROBE_HWBKPT: bytes (1, 2, 4, 8) */
	int hw_rw;                 /* 1: reads and writes, 0: writes */
	unsigned long hw_anchor;   /* link-time address of _printk */
	unsigned long uvaddr;      /* STP_PROBE_UPROBE: the link-time address
	                            * of the probed instruction, 0: unknown
	                            * (stp_ubias: bias = ip - uvaddr) */
	unsigned long ref_ctr_offset; /* STP_PROBE_UPROBE: file offset of an
	                            * SDT semaphore the kernel raises while the
	                            * probe is registered, 0: none */
	/* STP_PROBE_KPROBE (not .return): the kprobe's pre_handler, with
	 * the hit path and this probe's handler inlined (generated with
	 * stp_kprobe_hit, stp_hit.h); NULL: the runtime's generic one */
	int (*kprobe_pre)(struct kprobe *kp, struct pt_regs *regs);
	int nf_hook, nf_pf, nf_priority; /* STP_PROBE_NETFILTER */
	/* STP_PROBE_KPROBE: the points of a probe set (kset.c), registered
	 * as a batch instead of symbol + offset; pp is the point as the
	 * script wrote it (stp_pp gives a hit's row's) */
	const struct stp_kset *kset;
};

/* The kernel's line table (runtime/klines.c, made by
 * translator/codegen/klines_gen.c).  Row r: from link-time address
 * base + A(r) on, line L(r) of srcs + src_off[F(r)] (L 0: none).  Row 0
 * and every STP_KLINES_EVERY-th row are checkpoints, 4 u32 each in ck:
 * A, the stream offset of the next row, L, F.  The stream holds each
 * other row as uleb128(A(r) - A(r-1)), sleb128(2 * (L(r) - L(r-1)) + d)
 * and, when d is 1 (the file changes), uleb128(F(r)).  anchor: _printk's
 * link-time address (the KASLR offset is that of _printk). */
#define STP_KLINES_EVERY 64
struct stp_klines_desc {
	u64 base, anchor;
	const u8 *stream;
	const u32 *ck;
	u32 nck, nrows;
	const char *srcs;
	const u32 *src_off;
	u32 nsrcs;
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
	/* maps - the script's arrays and statistics: allocated by the
	 * runtime at module load (before init_globals), freed at unload. */
	struct stp_map *const *maps;
	int nmaps;
	/* upaths - the user-space files (absolute paths) whose load bias
	 * the code asks for (stp_ubias), NULL-terminated; resolved to their
	 * inodes at module start (uvars.c). */
	const char *const *upaths;
	/* usyms - user-space symbol and unwind tables (stp_ustack.h), or
	 * NULL when the script needs none */
	const struct stp_usyms_desc *usyms;
	/* klines - the kernel's line table (klines.c), or NULL when the
	 * script needs none */
	const struct stp_klines_desc *klines;
};

#include "stp_ustack.h"   /* user-space stacks and symbols */

/* Defined by the generated code. */
extern const struct stp_module_desc stp_module;

#include "stp_deref.h"    /* kread() & co. for guru embedded C */

#endif
