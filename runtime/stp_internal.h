/* stp_internal.h - declarations shared between the runtime's own .c files.
 * Generated code does not include this; it uses stp_runtime.h only. */
#ifndef STP_INTERNAL_H
#define STP_INTERNAL_H

#include "stp_runtime.h"
#include "stp_transport_msgs.h"
#include <linux/atomic.h>
#include <linux/wait.h>

/* Session states (stp_session_state). */
enum stp_state {
	STP_STATE_LOADED,          /* module inserted, waiting for START */
	STP_STATE_STARTING,        /* registering probes, running begin */
	STP_STATE_RUNNING,         /* probes fire */
	STP_STATE_STOPPING,        /* unregistering, running end probes */
	STP_STATE_STOPPED,         /* done; only removal is left */
};

/* The session state and whether exit() was requested (0 none, 1
 * requested, 2 reported), side by side so that a probe hit tests both
 * with one load of .word (stp_hit.h). */
union stp_gate {
	struct {
		atomic_t state;            /* enum stp_state */
		atomic_t exit_requested;
	};
	u64 word;
};
extern union stp_gate stp_gate;
#define stp_session_state (stp_gate.state)
#define stp_exit_requested (stp_gate.exit_requested)

/* stp_gate_publish - after a change of stp_gate, copy whether it is open
 * to the run's hits (RUNNING, no exit requested) into every CPU's
 * stp_cpu_gate (stp_hit.h), which the lightest hits read instead.
 * Callers that race leave the copies as the gate is after the last
 * change: each goes again when the gate changed while it wrote.  A hit
 * on another CPU may still pass for as long as the copying takes, as it
 * may pass the gate itself just before the change.  Context: any (a
 * handler's exit() too); does not sleep, takes no lock (context.c). */
void stp_gate_publish(void);
extern atomic_t stp_errors;        /* probe hits that ended in an error */
extern atomic_t stp_skipped;       /* probe hits not run */
extern atomic_t stp_skipped_reentrant; /* of which: a hit inside a hit */
extern atomic_t stp_skipped_lock;  /* of which: a global's lock timed out */

/* Per-CPU output buffer, one per context. */
struct stp_print_buf {
	u64 wait_budget_ns;        /* how long flushes of this hit may wait
	                            * for relay space (begin/end only) */
	size_t len;                /* bytes of output after hdr */
	struct stp_relay_hdr hdr;  /* filled at flush time; data must follow
	                            * it directly (one relay_write) */
	char data[STP_PRINT_BUF_SIZE];
};

/* stp_abort_requested_p - 1 once the script called abort(): the end
 * probes are skipped (transport.c).  Context: any. */
int stp_abort_requested_p(void);

/* ---- klines.c ---- */
/* stp_kline_at - the source line (0: unknown) of run-time kernel address
 * @addr from the module's copy of the kernel's line table (a script that
 * uses none has no table: always 0); its file in *@file (NULL when
 * unknown).  Any context; no sleep. */
u32 stp_kline_at(unsigned long addr, const char **file);

/* ---- stack.c ---- */
/* stp_frame_fn - called for each frame's address, innermost first;
 * returns false to stop the walk. */
typedef bool (*stp_frame_fn)(unsigned long addr, void *arg);
/* stp_each_addr - call @fn(addr, @arg) for each address in @s, a list
 * of numbers (hex "0x..." or decimal) separated by spaces as
 * backtrace() and ubacktrace() make it: at most MAXBACKTRACE words are
 * read, a word that is not a number (or 24 characters or longer) is
 * passed over, and a false from @fn stops.  Any context; no sleep. */
void stp_each_addr(const char *s, stp_frame_fn fn, void *arg);

/* ---- tvar.c ---- */
/* stp_tv_str - stp_tv_kstr() (@user 0) or stp_tv_ustr() (@user 1): the
 * string at @addr, at most @max bytes (63 when @max is 0, negative or
 * larger), appended to @dst quoted, or its address in hex when it cannot
 * be read.  Context: any; never sleeps. */
void stp_tv_str(char *dst, unsigned long addr, long max, int user);

/* ---- signal.c ---- */
/* stp_raise_sync - wait until no raise() signal is left to send (module
 * exit, after the probes are gone).  Process context; may sleep. */
void stp_raise_sync(void);

/* ---- context.c ---- */
/* stp_contexts_alloc - allocate one context (and print buffer) per
 * possible CPU.  Returns 0 or -ENOMEM.  Process context; may sleep. */
int stp_contexts_alloc(void);
/* stp_contexts_free - free them; no probe may be running. */
void stp_contexts_free(void);
/* stp_check_skipped - after a hit was skipped: report once that more
 * than MAXSKIPPED were and end the run.  Context: any; does not sleep. */
void stp_check_skipped(void);

/* stp_run_probe - run @p's handler on this CPU's context if the session
 * is in state @want (RUNNING for event probes, STARTING for begin,
 * STOPPING for end): handles busy/skip accounting, error reporting,
 * MAXERRORS/MAXSKIPPED and the output flush.  @regs may be NULL.
 * Context: any; does not sleep; disables preemption itself. */
void stp_run_probe(const struct stp_probe_desc *p, struct pt_regs *regs,
		   int want);
/* stp_copy_string - copy the string at @addr byte by byte (the nofault
 * string helpers are not exported to modules) into @dst, at most
 * @limit - 1 bytes, from user memory if @user.  Returns 0 or -EFAULT
 * (@dst then holds what was read).  Context: any; never sleeps. */
int stp_copy_string(char *dst, unsigned long addr, long limit, int user);

/* stp_run_handler - as stp_run_probe, running @handler (the probe's own,
 * or its .return probe's entry handler) with c->entry_data = @entry_data
 * and c->perf_values = @perf (the counters read for a process probe, or
 * NULL). */
void stp_run_handler(const struct stp_probe_desc *p, struct pt_regs *regs,
		     int want, void (*handler)(struct stp_context *c),
		     void *entry_data, const struct stp_perf_values *perf);
/* stp_run_probe_args - stp_run_probe() with the tracepoint arguments
 * @tp_args (12 of them) copied into the context's tp_args first. */
void stp_run_probe_args(const struct stp_probe_desc *p, struct pt_regs *regs,
			int want, const unsigned long *tp_args);
/* stp_wait_probes_idle - wait (sleeping) until no handler is running.
 * Process context. */
void stp_wait_probes_idle(void);
/* stp_print_buf_of - the print buffer belonging to context @c. */
struct stp_print_buf *stp_print_buf_of(struct stp_context *c);

/* ---- perf.c ---- */
struct perf_event;
/* stp_perf_register - create @p's perf event (STP_PROBE_PERF) on every
 * online CPU, enabled, running @p's handler on each overflow.  On success
 * *@evs is the [nr_cpu_ids] array to pass to stp_perf_unregister.
 * Returns 0 or the -errno of the first CPU that failed (nothing is left
 * registered then).  Process context; sleeps. */
int stp_perf_register(const struct stp_probe_desc *p, struct perf_event ***evs);
/* stp_perf_unregister - release the events of @evs (NULL: nothing) and
 * the array; waits for running overflow handlers.  Process context. */
void stp_perf_unregister(struct perf_event **evs);
struct perf_sample_data;
/* stp_perf_overflow - the overflow handler of a sampled perf event whose
 * overflow_handler_context is its probe's desc: runs the probe with the
 * interrupted registers.  Runs in the event's overflow context: hrtimer
 * interrupt for the software clocks, the task's context for other
 * software events, NMI for hardware counters; does not sleep. */
void stp_perf_overflow(struct perf_event *ev, struct perf_sample_data *data,
		       struct pt_regs *regs);

/* ---- timing.c (-t: STP_TIMING) ---- */
/* stp_timing_report - print "----- probe hit report:" and a line per
 * probe that ran (its point, location, hits, cycles min/avg/max,
 * variance, derivation, index) to the script's output, through a hit of
 * this CPU's context in state STOPPING.  Nothing without -t.
 * Process context, after the end probes; does not sleep. */
void stp_timing_report(void);
/* stp_timing_warn_skipped - with -t, one warning per reason probes were
 * skipped for (reentrancy, lock timeouts) that happened.  Context: any. */
void stp_timing_warn_skipped(void);

/* ---- print.c ---- */
/* stp_print_flush - send @c's buffered output to the relay as one record
 * and empty the buffer.  Context: context held, preemption disabled. */
void stp_print_flush(struct stp_context *c);

/* ---- transport.c ---- */
/* stp_transport_init - create the debugfs dir, .cmd and relay files.
 * Returns 0 or -errno.  Process context. */
int stp_transport_init(void);
/* stp_transport_exit - remove them.  Process context. */
void stp_transport_exit(void);
/* stp_relay_write - append @len bytes at @data to this CPU's relay
 * buffer as one unit (drops and counts it when the buffer is full).
 * Context: any; does not sleep. */
void stp_relay_write(const void *data, size_t len);
/* stp_relay_wait_room - busy-wait (udelay steps, preemption stays off)
 * until this CPU's relay buffer can take a @len-byte record, @budget_ns
 * is used up (it is decremented; 0 means do not wait) or the reader made
 * no progress for a second (then *budget_ns becomes 0).  For begin/end
 * probes, which may print more than the buffer holds while stapio drains
 * it from another CPU.  Context: context held, preemption disabled. */
void stp_relay_wait_room(size_t len, u64 *budget_ns);
/* stp_relay_lost - records dropped so far. */
unsigned int stp_relay_lost(void);
/* stp_ctl_send - queue a control message for stapio.  Returns 0, or
 * -ENOSPC when the queue is full (the message is dropped).
 * Context: any; does not sleep (stapio is woken through
 * stp_reader_kick). */
int stp_ctl_send(u32 type, const void *payload, size_t len);
/* stp_ctl_send_text - stp_ctl_send of a formatted text line. */
void stp_ctl_send_text(u32 type, const char *fmt, ...) __printf(2, 3);

/* ---- reader_wake.c ---- */
/* The control channel's waiters (stapio's poll and blocking reads). */
extern wait_queue_head_t stp_reader_wq;
/* stp_reader_kick - output or a control message now waits for stapio:
 * wake it within STP_CMD_POLL_MS milliseconds (once for all that comes
 * meanwhile).  Call after the write.  Context: any, NMI included; does
 * not sleep or take a lock. */
void stp_reader_kick(void);
/* stp_reader_woken - whether a wake came since the last call (cleared
 * by this call): the control channel then polls readable.  Context:
 * process; does not sleep. */
bool stp_reader_woken(void);
/* stp_reader_wake_stop - no wake from now on; returns once none is
 * running.  Only when no probe runs any more (module unload).  Process
 * context; may sleep. */
void stp_reader_wake_stop(void);

#ifndef STP_END_FLUSH_WAIT_NS
#define STP_END_FLUSH_WAIT_NS (10ULL * NSEC_PER_SEC) /* per begin/end hit */
#endif

/* ---- probes.c ---- */
/* stp_probes_register - register timer and kprobe probes.  Returns 0 or
 * -errno of the first non-optional failure (then nothing stays
 * registered) after reporting it with stp_ctl_send_text.  Process
 * context; sleeps. */
int stp_probes_register(void);
/* stp_probes_unregister - unregister what is registered and wait for
 * their handlers to finish.  Idempotent.  Process context; sleeps. */
void stp_probes_unregister(void);
/* ---- tracepoints.c ---- */
/* stp_tracepoints_register - attach every STP_PROBE_TRACEPOINT probe to
 * its tracepoint.  Returns 0 or -errno of the first non-optional failure
 * (a tracepoint not in the kernel: -ENOENT), reported with
 * stp_ctl_send_text; then none stays attached.  Process context; sleeps. */
int stp_tracepoints_register(void);
/* stp_tracepoints_unregister - detach them and wait until no callback is
 * running (tracepoint_synchronize_unregister).  Idempotent.  Process
 * context; sleeps. */
void stp_tracepoints_unregister(void);
/* ---- uprobes.c ---- */
/* stp_uprobes_register - register every STP_PROBE_UPROBE probe by the
 * inode of its path and its file offset (uprobe_register_refctr), at
 * once whether or not the program runs.  Returns 0 or -errno of the
 * first non-optional failure (no such file: -ENOENT), reported with
 * stp_ctl_send_text; then none stays registered.  A failing probe of a
 * wildcard is a warning.  Process context; sleeps. */
int stp_uprobes_register(void);
/* stp_uprobes_unregister - unregister them; on return no handler of ours
 * runs (uprobe_unregister waits for them) and the inodes are released.
 * Idempotent.  Process context; sleeps. */
void stp_uprobes_unregister(void);
/* stp_path_inode - the inode of @path with a reference (igrab), or an
 * ERR_PTR: -ENOENT when no such file, -EINVAL when not a regular file.
 * Process context; sleeps. */
struct inode *stp_path_inode(const char *path);
/* stp_in_target - is @t the staprun -c/-x target process or one of its
 * descendants (always 1 without a target)?  Process probes fire only
 * there, as SystemTap's.  Any context; no sleep.  (uprobes.c) */
struct task_struct;
int stp_in_target(struct task_struct *t);
/* stp_uprobes_inode - the inode (held while the probes are registered)
 * a registered uprobe resolved @path to at module start, or NULL; so
 * that a path given through a symlink still names its file.  Context:
 * any, while the probes are registered; never sleeps. */
struct inode *stp_uprobes_inode(const char *path);
/* stp_uvars_register / stp_uvars_unregister - resolve stp_module.upaths
 * to inodes (a missing file is skipped) / drop them, after every probe is
 * gone.  Process context; sleep.  (uvars.c) */
int stp_uvars_register(void);
void stp_uvars_unregister(void);
/* stp_elf_func_offset - the file offset of function @name (exact) in
 * the 64-bit ELF file @f (.symtab, else .dynsym); 0, -ENOENT, -ENOEXEC
 * or -ENOMEM.  Process context; sleeps.  (uelfk.c) */
int stp_elf_func_offset(struct file *f, const char *name,
			unsigned long *offset);
/* ---- perf_counter.c ---- */
/* stp_perf_counters_register - resolve the STP_PROBE_PERF_PROC
 * probes' programs, check that this kernel can count their events and
 * create them in the processes running those programs now.  Returns 0 or
 * -errno (reported; a missing PMU as such).  Before
 * stp_uprocess_register, whose exec hook creates those of later
 * processes.
 * Process context; sleeps. */
int stp_perf_counters_register(void);
/* stp_perf_counters_unregister - after the uprobes and the exec hook are
 * gone: wait for queued creations, release every counter.  Idempotent.
 * Process context; sleeps. */
void stp_perf_counters_unregister(void);
/* stp_perf_counters_exec - current has just exec'd @inode (from the
 * sched_process_exec hook): queue the creation of its counters, or the
 * release of those of its previous program.  Context: tracepoint; no
 * sleep. */
void stp_perf_counters_exec(struct inode *inode);
/* stp_perf_read - read into @pv the counters @p's body reads
 * (p->perf_reads) for the current process; @pv, or NULL when it reads
 * none.  Context: a process probe's uprobe handler, in the probed task;
 * sleeps (mutex, perf_event_read_value). */
const struct stp_perf_values *stp_perf_read(const struct stp_probe_desc *p,
					    struct stp_perf_values *pv);

/* ---- uprocess.c ---- */
/* stp_uprocess_register - attach the STP_PROBE_PROC_BEGIN/END and
 * STP_PROBE_THREAD_BEGIN/END probes (process[("PATH")].begin/.end,
 * .thread.begin/.end) to the sched_process_fork, _exec and
 * _exit tracepoints, PATHs resolved to inodes.  Returns 0 or -errno
 * (reported with stp_ctl_send_text; then nothing stays attached).
 * Process context; sleeps. */
int stp_uprocess_register(void);
/* stp_uprocess_unregister - detach them, wait for the tracepoint
 * callbacks and for every process.begin queued in a new child to have
 * run.  Idempotent.  Process context; sleeps. */
void stp_uprocess_unregister(void);
/* stp_proc_fire - run the probes of @kind without PATH (when @pathless)
 * and those of program @exe (when not NULL) in current.  Context: a
 * task's own (task_work); does not sleep. */
void stp_proc_fire(enum stp_probe_kind kind, int pathless, struct inode *exe);
/* stp_proc_wanted - has the table a probe of @kind for program @inode
 * (NULL: the probes without PATH) that process @tgid would run (no
 * process(PID), or that PID)?  Any context. */
int stp_proc_wanted(enum stp_probe_kind kind, struct inode *inode,
		    pid_t tgid);
/* stp_proc_has_begin - has the table a .begin or .thread.begin probe?
 * Any context. */
int stp_proc_has_begin(void);
/* stp_proc_remember - note that process @tgid runs @inode, for the .end
 * probes of that PATH (none: forget what it ran); with @only_new only
 * when nothing is noted for it.  Any context; no sleep. */
void stp_proc_remember(pid_t tgid, struct inode *inode, int only_new);
/* stp_exe_inode - the inode of @mm's program (compared only) or NULL.
 * Any context; no sleep. */
struct mm_struct;
struct inode *stp_exe_inode(struct mm_struct *mm);

/* ---- uprocess_start.c ---- */
/* stp_upstart_open - from now on (the hooks are about to be attached)
 * the fork and exec hooks claim the tasks they see, and new tasks' works
 * wait for the session to run.  Process context. */
void stp_upstart_open(void);
/* stp_uprocess_existing - once the session runs: .begin/.thread.begin in
 * every process and thread that already ran, in its context (queued),
 * and their PATH noted for .end; then no more claims.  Process context;
 * sleeps. */
void stp_uprocess_existing(void);
/* stp_upstart_fork / stp_upstart_exec - from the fork hook (new @child)
 * and the exec hook (@p now runs @inode): 1 when the walk has already
 * queued the task's (thread.)begin, respectively that PATH's begin, and
 * the hook must not; else 0, and the walk will leave it alone.
 * Tracepoint context; no sleep. */
int stp_upstart_fork(struct task_struct *child);
int stp_upstart_exec(struct task_struct *p, struct inode *inode);
/* stp_upstart_exit - from the exit hook, in exiting @p (current): run
 * the probes of the walk's work still queued for it, which would run
 * only after its .end.  Tracepoint context; no sleep. */
void stp_upstart_exit(struct task_struct *p);
/* stp_upstart_holding - is the session still starting (a new task's
 * work must wait before it runs probes)?  Any context. */
int stp_upstart_holding(void);
/* stp_upstart_close - at unregistration, after the hooks are detached:
 * cancel the walk's works not run yet, wait for those running, drop the
 * claims.  Idempotent.  Process context; sleeps. */
void stp_upstart_close(void);

/* ---- hwbkpt.c ---- */
/* stp_hwbkpt_register - a wide hardware breakpoint for every
 * STP_PROBE_HWBKPT probe.  Returns 0 or -errno (reported with
 * stp_ctl_send_text; then none stays registered).  Optional probes that
 * fail are skipped.  Process context; sleeps. */
int stp_hwbkpt_register(void);
/* stp_hwbkpt_unregister - remove them.  Idempotent.  Process context;
 * sleeps. */
void stp_hwbkpt_unregister(void);

/* ---- procfs.c ---- */
/* stp_procfs_register - create /proc/systemtap/MODULE and a file for
 * each path of the STP_PROBE_PROCFS probes.  Returns 0 or -errno
 * (reported; then nothing is left).  Process context; sleeps. */
int stp_procfs_register(void);
/* stp_netfilter_register - register a netfilter hook in the initial
 * network namespace for each STP_PROBE_NETFILTER probe.  Returns 0 or
 * -errno (after reporting it, nothing left registered).  Process
 * context, may sleep. */
int stp_netfilter_register(void);
/* stp_netfilter_unregister - unregister them (nf_unregister_net_hook
 * waits for running hooks).  Process context, may sleep. */
void stp_netfilter_unregister(void);
/* stp_procfs_unregister - remove them, waiting for reads and writes in
 * progress.  Idempotent.  Process context; sleeps. */
void stp_procfs_unregister(void);

/* stp_error_exit - set when errors ended the run (more than MAXERRORS, or
 * more than MAXSKIPPED skipped hits):
 * end probes are then skipped and error probes run (module.c). */
extern atomic_t stp_error_exit;

/* stp_run_kind - run every probe of @kind (begin/end) in table order in
 * the calling process, with state @want. */
void stp_run_kind(enum stp_probe_kind kind, int want);

/* ---- locks.c ---- */
void stp_locks_init(void);

/* ---- namespaces.c ---- */
/* stp_namespaces_init - take the namespaces of --target-namespaces'
 * process: 0, or -ESRCH (reported) when it does not exist.
 * stp_namespaces_exit - drop them.  Module load/unload; may sleep. */
int stp_namespaces_init(void);
void stp_namespaces_exit(void);

/* ---- module.c ---- */
/* stp_session_start - the START command.  Returns the status to report.
 * stp_session_stop - the EXIT command (@run_end: run end probes and
 * report; 0 when stapio went away).  Both serialize on a mutex; process
 * context; sleep. */
int stp_session_start(void);
void stp_session_stop(int run_end);

#endif
