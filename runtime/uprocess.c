/* uprocess.c - process.begin/.end and process("PATH").begin/.end:
 * STP_PROBE_PROC_BEGIN / STP_PROBE_PROC_END entries of the probe table,
 * driven by the scheduler's process tracepoints.
 *
 *   process.begin          a new process is created (fork/clone without
 *                          CLONE_THREAD, not a kernel thread): the body
 *                          runs in the child, before its first return to
 *                          user space (a task_work queued at
 *                          sched_process_fork), so pid() is the child's
 *   process("PATH").begin  a process starts running PATH: at
 *                          sched_process_exec, in the new program
 *   process.end            the last thread of a user process exits
 *                          (sched_process_exit with signal->live 0)
 *   process("PATH").end    ... of a process that began running PATH
 *                          (exec) while the script ran: the kernel has
 *                          dropped the exiting task's mm at that
 *                          tracepoint, so exec records the process
 *                          (tgid and inode) in a small table
 *   process[("PATH")].thread.begin  a process (running PATH: its mm's
 *                          exe_file) creates a thread (CLONE_THREAD): in
 *                          the new thread, as process.begin
 *   process[("PATH")].thread.end    a thread other than its process's
 *                          leader exits (PATH: through the same table)
 *
 * The exec hook also creates the counters of perf...counter probes
 * (stp_perf_counters_exec, perf_counter.c).
 * Processes and threads already running when the session starts get
 * their .begin / .thread.begin once, in their own context, and their
 * PATH is put in the table for .end (uprocess_start.c).  Under staprun
 * -c/-x only the target's process hierarchy counts (stp_in_target).  The
 * bodies run without registers ($ variables and long_arg() are errors).
 * Every queued task_work is waited for at unregistration: the child runs
 * it when it first returns to user space or exits, whichever comes
 * first, so the wait is short; a child that gets there while the session
 * is still starting waits for it to run (stp_upstart_holding). */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/binfmts.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>
#include <linux/delay.h>
#include "stp_internal.h"

#define STP_PROC_TABLE 1024        /* processes running a PATH of .end */

struct stp_proc_probe {
	const struct stp_probe_desc *p;
	struct inode *inode;       /* of p->path (igrab), NULL: every process */
};

struct stp_proc_seen {
	pid_t tgid;                /* 0: free slot */
	struct inode *inode;
	unsigned long ended;       /* jiffies (| 1) when the process ended,
	                            * 0: running.  An ended entry is kept for
	                            * STP_PROC_LINGER: a joined thread may
	                            * reach sched_process_exit after its
	                            * leader ended the group. */
};

#define STP_PROC_LINGER HZ

/* stp_proc_stale - @s is free or ended long enough ago to be reused. */
static int stp_proc_stale(const struct stp_proc_seen *s)
{
	return !s->tgid || (s->ended &&
			    time_after(jiffies, s->ended + STP_PROC_LINGER));
}

struct stp_proc_work {
	struct callback_head cb;
	enum stp_probe_kind kind;  /* PROC_BEGIN or THREAD_BEGIN */
	struct inode *exe;         /* THREAD_BEGIN: the process's program
	                            * (compared, never dereferenced) */
};

static struct stp_proc_probe *stp_procs;
static int stp_nprocs;
static int stp_any_fork_begin, stp_any_path_end, stp_any_thread_begin;
static struct stp_proc_seen *stp_proc_seen;    /* [STP_PROC_TABLE] */
static DEFINE_SPINLOCK(stp_proc_lock);
static atomic_t stp_proc_pending = ATOMIC_INIT(0);

static struct {
	const char *name;
	void *fn;
	struct tracepoint *tp;
	int registered;
} stp_proc_tps[3];

/* stp_proc_run - run every probe of @kind whose inode is @inode (NULL:
 * the every-process ones), in table order.  Context: any; no sleep. */
static void stp_proc_run(enum stp_probe_kind kind, struct inode *inode)
{
	int i;

	if (!stp_uid_ok() || !stp_in_target(current))
		return;
	for (i = 0; i < stp_nprocs; i++)
		if (stp_procs[i].p->kind == kind && stp_procs[i].inode == inode &&
		    (!stp_procs[i].p->pid ||
		     stp_procs[i].p->pid == task_tgid_nr(current)))
			stp_run_probe(stp_procs[i].p, NULL, STP_STATE_RUNNING);
}

void stp_proc_fire(enum stp_probe_kind kind, int pathless, struct inode *exe)
{
	if (pathless)
		stp_proc_run(kind, NULL);
	if (exe)
		stp_proc_run(kind, exe);
}

int stp_proc_wanted(enum stp_probe_kind kind, struct inode *inode, pid_t tgid)
{
	int i;

	for (i = 0; i < stp_nprocs; i++)
		if (stp_procs[i].p->kind == kind && stp_procs[i].inode == inode &&
		    (!stp_procs[i].p->pid || stp_procs[i].p->pid == tgid))
			return 1;
	return 0;
}

int stp_proc_has_begin(void)
{
	int i;

	for (i = 0; i < stp_nprocs; i++)
		if (stp_procs[i].p->kind == STP_PROBE_PROC_BEGIN ||
		    stp_procs[i].p->kind == STP_PROBE_THREAD_BEGIN)
			return 1;
	return 0;
}

/* stp_proc_work_fn - the child's process.begin, or the new thread's
 * thread.begin probes, in the child; after the session has started. */
static void stp_proc_work_fn(struct callback_head *cb)
{
	struct stp_proc_work *w = container_of(cb, struct stp_proc_work, cb);
	enum stp_probe_kind kind = w->kind;
	struct inode *exe = w->exe;

	kfree(w);
	while (stp_upstart_holding())
		msleep(1);
	stp_proc_fire(kind, 1, kind == STP_PROBE_THREAD_BEGIN ? exe : NULL);
	atomic_dec(&stp_proc_pending);
}

/* stp_exe_inode - the inode of @mm's program, or NULL; only compared.
 * Context: any; does not sleep. */
struct inode *stp_exe_inode(struct mm_struct *mm)
{
	struct file *f;
	struct inode *inode = NULL;

	if (!mm)
		return NULL;
	rcu_read_lock();
	f = rcu_dereference(mm->exe_file);
	if (f)
		inode = file_inode(f);
	rcu_read_unlock();
	return inode;
}

static void stp_proc_fork(void *data, struct task_struct *parent,
			  struct task_struct *child)
{
	struct stp_proc_work *w;
	int leader = thread_group_leader(child);

	/* claimed even without a probe to run: the walk leaves it alone */
	if ((child->flags & PF_KTHREAD) || stp_upstart_fork(child) ||
	    !(leader ? stp_any_fork_begin : stp_any_thread_begin))
		return;
	w = kmalloc(sizeof(*w), GFP_NOWAIT | __GFP_NOWARN);
	if (!w) {
		atomic_inc(&stp_skipped);
		return;
	}
	w->kind = leader ? STP_PROBE_PROC_BEGIN : STP_PROBE_THREAD_BEGIN;
	w->exe = leader ? NULL : stp_exe_inode(child->mm);
	init_task_work(&w->cb, stp_proc_work_fn);
	atomic_inc(&stp_proc_pending);
	if (task_work_add(child, &w->cb, TWA_RESUME)) {
		atomic_dec(&stp_proc_pending);
		kfree(w);
	}
}

/* stp_proc_note - record that process @tgid now runs @inode (NULL: a
 * program no .end probe names), forgetting what it ran before; when
 * @only_new, only if the table has no running entry for @tgid. */
static void stp_proc_note(pid_t tgid, struct inode *inode, int only_new)
{
	unsigned long flags;
	int i, free_slot = -1;

	spin_lock_irqsave(&stp_proc_lock, flags);
	for (i = 0; only_new && i < STP_PROC_TABLE; i++)
		if (stp_proc_seen[i].tgid == tgid && !stp_proc_seen[i].ended) {
			spin_unlock_irqrestore(&stp_proc_lock, flags);
			return;
		}
	for (i = 0; i < STP_PROC_TABLE; i++) {
		if (stp_proc_seen[i].tgid == tgid)
			stp_proc_seen[i].tgid = 0;
		if (stp_proc_stale(&stp_proc_seen[i]) && free_slot < 0)
			free_slot = i;
	}
	if (inode && free_slot >= 0) {
		stp_proc_seen[free_slot].tgid = tgid;
		stp_proc_seen[free_slot].inode = inode;
		stp_proc_seen[free_slot].ended = 0;
	}
	spin_unlock_irqrestore(&stp_proc_lock, flags);
	if (inode && free_slot < 0)
		atomic_inc(&stp_skipped);   /* its .end will be missed */
}

/* stp_proc_forget - the inode process @tgid ran (from the table), and
 * mark the process ended (unless @keep: a thread's exit, which may come
 * shortly after the group's end); NULL when it is not there. */
static struct inode *stp_proc_forget(pid_t tgid, int keep)
{
	unsigned long flags;
	struct inode *inode = NULL;
	int i;

	spin_lock_irqsave(&stp_proc_lock, flags);
	for (i = 0; i < STP_PROC_TABLE; i++)
		if (stp_proc_seen[i].tgid == tgid &&
		    !stp_proc_stale(&stp_proc_seen[i]) &&
		    (keep || !stp_proc_seen[i].ended)) {
			inode = stp_proc_seen[i].inode;
			if (!keep)
				stp_proc_seen[i].ended = jiffies | 1;
			break;
		}
	spin_unlock_irqrestore(&stp_proc_lock, flags);
	return inode;
}

void stp_proc_remember(pid_t tgid, struct inode *inode, int only_new)
{
	int i, ended = 0;

	if (!stp_any_path_end || (!inode && only_new))
		return;
	for (i = 0; inode && i < stp_nprocs && !ended; i++)
		ended = (stp_procs[i].p->kind == STP_PROBE_PROC_END ||
			 stp_procs[i].p->kind == STP_PROBE_THREAD_END) &&
			stp_procs[i].inode == inode;
	if (ended || !only_new)
		stp_proc_note(tgid, ended ? inode : NULL, only_new);
}

static void stp_proc_exec(void *data, struct task_struct *p, pid_t old_pid,
			  struct linux_binprm *bprm)
{
	struct inode *inode = bprm && bprm->file ? file_inode(bprm->file) :
						   NULL;
	/* claimed first: the walk then does not note the old program */
	int seen = stp_upstart_exec(p, inode);

	stp_proc_remember(p->tgid, inode, 0);
	if (inode && !seen)
		stp_proc_run(STP_PROBE_PROC_BEGIN, inode);
	stp_perf_counters_exec(inode);          /* perf_counter.c */
}

/* The processes whose end was seen lately: a joined thread can reach
 * sched_process_exit after the last thread (the one that made
 * signal->live 0) did, and must not end the process again.  A process is
 * its signal_struct and its leader's start time (both stay while any of
 * its threads does), so a reused signal_struct is another process. */
#define STP_PROC_ENDED 256
static struct {
	const void *signal;
	u64 start;
} stp_proc_ended[STP_PROC_ENDED];
static int stp_proc_ended_next;

/* stp_proc_group_ends - does @p's exit end its process, for the first
 * time?  Context: sched_process_exit of @p; no sleep. */
static int stp_proc_group_ends(struct task_struct *p)
{
	const void *sig = p->signal;
	u64 start = p->group_leader->start_time;
	unsigned long flags;
	int i, first = 1;

	if (atomic_read(&p->signal->live))
		return 0;       /* other threads remain */
	spin_lock_irqsave(&stp_proc_lock, flags);
	for (i = 0; i < STP_PROC_ENDED && first; i++)
		first = !(stp_proc_ended[i].signal == sig &&
			  stp_proc_ended[i].start == start);
	if (first) {
		stp_proc_ended[stp_proc_ended_next].signal = sig;
		stp_proc_ended[stp_proc_ended_next].start = start;
		stp_proc_ended_next = (stp_proc_ended_next + 1) % STP_PROC_ENDED;
	}
	spin_unlock_irqrestore(&stp_proc_lock, flags);
	return first;
}

static void stp_proc_exit(void *data, struct task_struct *p)
{
	struct inode *inode;

	if (p->flags & PF_KTHREAD)
		return;
	stp_upstart_exit(p);    /* a .begin still queued runs first */
	if (!thread_group_leader(p)) {
		stp_proc_run(STP_PROBE_THREAD_END, NULL);
		if (stp_any_path_end && (inode = stp_proc_forget(p->tgid, 1)))
			stp_proc_run(STP_PROBE_THREAD_END, inode);
	}
	if (!stp_proc_group_ends(p))
		return;
	stp_proc_run(STP_PROBE_PROC_END, NULL);
	if (stp_any_path_end && (inode = stp_proc_forget(p->tgid, 0)))
		stp_proc_run(STP_PROBE_PROC_END, inode);
}

static void stp_proc_find_tp(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(stp_proc_tps); i++)
		if (!stp_proc_tps[i].tp && !strcmp(tp->name,
						   stp_proc_tps[i].name))
			stp_proc_tps[i].tp = tp;
}

int stp_uprocess_register(void)
{
	int i, n = 0, rc;

	for (i = 0; i < stp_module.nprobes; i++)
		n += (stp_module.probes[i].kind >= STP_PROBE_PROC_BEGIN &&
		      stp_module.probes[i].kind <= STP_PROBE_THREAD_END) ||
		     stp_module.probes[i].kind == STP_PROBE_PERF_PROC;
	if (!n)
		return 0;
	stp_procs = kvcalloc(n, sizeof(*stp_procs), GFP_KERNEL);
	stp_proc_seen = kcalloc(STP_PROC_TABLE, sizeof(*stp_proc_seen),
				GFP_KERNEL);
	if (!stp_procs || !stp_proc_seen) {
		stp_uprocess_unregister();
		return -ENOMEM;
	}
	for (i = 0; i < stp_module.nprobes; i++) {
		const struct stp_probe_desc *p = &stp_module.probes[i];
		struct stp_proc_probe *q;

		if (p->kind < STP_PROBE_PROC_BEGIN ||
		    p->kind > STP_PROBE_THREAD_END)
			continue;
		stp_any_thread_begin |= p->kind == STP_PROBE_THREAD_BEGIN;
		q = &stp_procs[stp_nprocs];
		q->p = p;
		if (p->path) {
			struct inode *inode = stp_path_inode(p->path);

			if (IS_ERR(inode)) {
				if (p->optional)
					continue;
				rc = PTR_ERR(inode);
				stp_ctl_send_text(STP_MSG_ERROR,
					"ERROR: probe %s registration failed "
					"(rc %d: %s) near %s\n", p->pp, rc,
					p->path, p->loc ? p->loc : "?");
				stp_uprocess_unregister();
				return rc;
			}
			q->inode = inode;
			stp_any_path_end |= p->kind == STP_PROBE_PROC_END ||
					    p->kind == STP_PROBE_THREAD_END;
		} else {
			stp_any_fork_begin |= p->kind == STP_PROBE_PROC_BEGIN;
		}
		stp_nprocs++;
	}
	/* before the hooks: what they see from now on is not walked again */
	stp_upstart_open();
	stp_proc_tps[0].name = "sched_process_fork";
	stp_proc_tps[0].fn = stp_proc_fork;
	stp_proc_tps[1].name = "sched_process_exec";
	stp_proc_tps[1].fn = stp_proc_exec;
	stp_proc_tps[2].name = "sched_process_exit";
	stp_proc_tps[2].fn = stp_proc_exit;
	for_each_kernel_tracepoint(stp_proc_find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(stp_proc_tps); i++) {
		rc = stp_proc_tps[i].tp ?
		     tracepoint_probe_register(stp_proc_tps[i].tp,
					       stp_proc_tps[i].fn, NULL) :
		     -ENOENT;
		if (rc) {
			stp_ctl_send_text(STP_MSG_ERROR,
				"ERROR: process.begin/.end: cannot attach to "
				"tracepoint %s (rc %d)\n",
				stp_proc_tps[i].name, rc);
			stp_uprocess_unregister();
			return rc;
		}
		stp_proc_tps[i].registered = 1;
	}
	return 0;
}

void stp_uprocess_unregister(void)
{
	int i, any = 0;

	for (i = 0; i < ARRAY_SIZE(stp_proc_tps); i++) {
		if (stp_proc_tps[i].registered) {
			tracepoint_probe_unregister(stp_proc_tps[i].tp,
						    stp_proc_tps[i].fn, NULL);
			any = 1;
		}
		stp_proc_tps[i].registered = 0;
		stp_proc_tps[i].tp = NULL;
	}
	if (any)
		tracepoint_synchronize_unregister();
	stp_upstart_close();    /* the walk's works: run, or cancelled */
	/* children of the last forks run their work on their way to user
	 * space (or out) */
	while (atomic_read(&stp_proc_pending) > 0)
		msleep(1);
	for (i = 0; i < stp_nprocs; i++)
		if (stp_procs[i].inode)
			iput(stp_procs[i].inode);
	kvfree(stp_procs);
	kfree(stp_proc_seen);
	stp_procs = NULL;
	stp_proc_seen = NULL;
	memset(stp_proc_ended, 0, sizeof(stp_proc_ended));
	stp_nprocs = 0;
	stp_any_fork_begin = stp_any_path_end = stp_any_thread_begin = 0;
}
