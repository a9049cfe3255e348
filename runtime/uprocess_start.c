/* uprocess_start.c - the processes and threads already running when the
 * session starts: SystemTap runs process[(PID)|("PATH")].begin once in
 * each such process and .thread.begin in each of its other threads, at
 * startup, and knows their PATH for .end.
 *
 * Once the session runs (after the begin probes), stp_uprocess_existing()
 * walks every thread under RCU; for each user thread (not a kernel thread,
 * not past exit_mm, in the -c/-x target's hierarchy) with a probe to run, a
 * task_work (TWA_SIGNAL: a sleeping task is woken and its system call
 * restarted, as SystemTap's utrace interrupt does) runs the probes in the
 * thread's own context; a process running a PATH some .end probe names is
 * put in uprocess.c's table.
 *
 * The tracepoints are attached before the walk, so a task created (or
 * exec'ing) meanwhile could be seen twice: from the moment the hooks are
 * attached until the walk ends, the fork and exec hooks leave a claim on
 * the task (its pointer and start time) and the walk leaves its work on a
 * list (with a task reference): whichever comes second skips the task.
 * The hooks consult that list until each work has run, even after the
 * walk: a child is on the thread list (and may be walked) before its
 * parent reaches the fork hook.
 * New tasks' works wait while the session is still starting (their
 * probes would not run yet).
 *
 * A task that exits before its work runs (the work would run after the
 * exit hook) runs the probes from the exit hook, before its .end; so does
 * one that exits while the walk may still come, and is then claimed.
 *
 * A queued work that has not run at unregistration (a stopped task, say)
 * is cancelled with the kernel's task_work_cancel_match, found at start
 * through a (never armed) kprobe; without it there is no walk (one
 * warning): the module could not leave safely. */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/task_work.h>
#include <linux/kprobes.h>
#include <linux/uaccess.h>
#include <linux/delay.h>
#include "stp_internal.h"

/* claims of the fork and exec hooks while the walk may still come */
#define STP_PS_FORK 1      /* the fork hook queued the task's (thread.)begin */
#define STP_PS_EXEC 2      /* the exec hook ran the task's PATH begin */
#define STP_PS_EXIT 4      /* the exit hook ran the task's begin (and end) */

struct stp_ps_claim {
	struct list_head node;
	struct task_struct *task;  /* compared only, with start_time */
	u64 start_time;
	unsigned int flags;        /* STP_PS_* */
};

/* a walk work's callback: not run yet, run, or given up by close() */
enum { STP_PS_QUEUED, STP_PS_RAN, STP_PS_CANCELLED };

/* one walked thread's probes */
struct stp_ps_work {
	struct callback_head cb;
	struct list_head node;     /* on stp_ps_works until freed (or run
	                            * after the walk) */
	struct task_struct *task;  /* referenced */
	enum stp_probe_kind kind;  /* PROC_BEGIN or THREAD_BEGIN */
	int pathless;              /* run the probes without PATH */
	struct inode *exe;         /* and those of this PATH, or NULL */
	int state;                 /* STP_PS_*, under stp_ps_lock */
	int fired;                 /* its probes have run (by the callback,
	                            * or at the task's exit) */
};

typedef struct callback_head *(*stp_ps_cancel_fn)(struct task_struct *,
		bool (*)(struct callback_head *, void *), void *);

static DEFINE_SPINLOCK(stp_ps_lock);
static LIST_HEAD(stp_ps_claims);
static LIST_HEAD(stp_ps_works);
static int stp_ps_open;            /* between open and close */
static int stp_ps_early;           /* claims are recorded (until the walk
                                    * has ended) */
static int stp_ps_hold;            /* new tasks' works wait (until the
                                    * session runs) */
static atomic_t stp_ps_pending = ATOMIC_INIT(0);
static stp_ps_cancel_fn stp_ps_cancel;
static int stp_ps_begins;          /* the walk queues .begin probes */

int stp_upstart_holding(void)
{
	return READ_ONCE(stp_ps_hold);
}

void stp_upstart_open(void)
{
	spin_lock_irq(&stp_ps_lock);
	stp_ps_open = stp_ps_early = stp_ps_hold = 1;
	spin_unlock_irq(&stp_ps_lock);
}

/* stp_ps_claim_of - the claim on @t, or NULL.  Under stp_ps_lock. */
static struct stp_ps_claim *stp_ps_claim_of(struct task_struct *t)
{
	struct stp_ps_claim *c;

	list_for_each_entry(c, &stp_ps_claims, node)
		if (c->task == t && c->start_time == t->start_time)
			return c;
	return NULL;
}

/* stp_ps_work_of - the walk's work for @t, or NULL.  Under stp_ps_lock
 * (a listed work holds its task: the pointer is not reused). */
static struct stp_ps_work *stp_ps_work_of(struct task_struct *t)
{
	struct stp_ps_work *w;

	list_for_each_entry(w, &stp_ps_works, node)
		if (w->task == t)
			return w;
	return NULL;
}

/* stp_ps_claim - leave @flag on @t's claim; 0, or -ENOMEM.  Under
 * stp_ps_lock. */
static int stp_ps_claim(struct task_struct *t, unsigned int flag)
{
	struct stp_ps_claim *c = stp_ps_claim_of(t);

	if (!c) {
		c = kmalloc(sizeof(*c), GFP_ATOMIC | __GFP_NOWARN);
		if (!c)
			return -ENOMEM;
		c->task = t;
		c->start_time = t->start_time;
		c->flags = 0;
		list_add(&c->node, &stp_ps_claims);
	}
	c->flags |= flag;
	return 0;
}

/* stp_ps_hook - stp_upstart_fork (@flag STP_PS_FORK) and
 * stp_upstart_exec (STP_PS_EXEC, @t now running @inode). */
static int stp_ps_hook(struct task_struct *t, unsigned int flag,
		       struct inode *inode)
{
	struct stp_ps_work *w;
	unsigned long flags;
	int skip = 0;

	/* after the walk, its works that have not run stay listed: a child
	 * the walk saw before its parent reached the fork hook (the child
	 * is on the thread list from copy_process on) has one */
	if (!READ_ONCE(stp_ps_early) && list_empty_careful(&stp_ps_works))
		return 0;
	spin_lock_irqsave(&stp_ps_lock, flags);
	w = stp_ps_work_of(t);
	/* the walk got there first (exec: and saw the new program) */
	if (w && (flag == STP_PS_FORK || w->exe == inode)) {
		skip = 1;
	} else if (stp_ps_early && stp_ps_claim(t, flag)) {
		skip = 1;               /* could be seen twice */
		atomic_inc(&stp_skipped);
	}
	spin_unlock_irqrestore(&stp_ps_lock, flags);
	return skip;
}

int stp_upstart_fork(struct task_struct *child)
{
	return stp_ps_hook(child, STP_PS_FORK, NULL);
}

int stp_upstart_exec(struct task_struct *p, struct inode *inode)
{
	return stp_ps_hook(p, STP_PS_EXEC, inode);
}

static void stp_ps_free(struct stp_ps_work *w)
{
	put_task_struct(w->task);
	kfree(w);
}

/* stp_ps_work_fn - a walked thread's probes, in that thread. */
static void stp_ps_work_fn(struct callback_head *cb)
{
	struct stp_ps_work *w = container_of(cb, struct stp_ps_work, cb);
	enum stp_probe_kind kind = w->kind;
	int pathless = w->pathless, state, own = 0;
	struct inode *exe = w->exe;

	int fire = 0;

	spin_lock_irq(&stp_ps_lock);
	state = w->state;
	if (state == STP_PS_QUEUED) {
		w->state = STP_PS_RAN;
		fire = !w->fired;
		w->fired = 1;
		if (!stp_ps_early) {    /* no longer a claim: ours to free */
			list_del(&w->node);
			own = 1;
		}
	} else {
		own = 1;                /* close() could not cancel it */
	}
	spin_unlock_irq(&stp_ps_lock);
	if (fire)
		stp_proc_fire(kind, pathless, exe);
	if (own)
		stp_ps_free(w);
	atomic_dec(&stp_ps_pending);
}

void stp_upstart_exit(struct task_struct *p)
{
	struct stp_ps_work *w;
	unsigned long flags;
	enum stp_probe_kind kind = STP_PROBE_PROC_BEGIN;
	int pathless = 0, fire = 0;
	struct inode *exe = NULL;
	struct stp_ps_claim *c;

	if (!READ_ONCE(stp_ps_early) && list_empty_careful(&stp_ps_works))
		return;
	spin_lock_irqsave(&stp_ps_lock, flags);
	w = stp_ps_work_of(p);
	if (w && w->state == STP_PS_QUEUED && !w->fired) {
		w->fired = fire = 1;
		kind = w->kind;
		pathless = w->pathless;
		exe = w->exe;
	} else if (!w && stp_ps_early) {
		/* not walked yet (nor new): it begins and ends here; its
		 * program is gone (exit_mm), so no PATH begin, and no PATH end
		 * (the table has not heard of it) */
		c = stp_ps_claim_of(p);
		if (stp_ps_begins && (!c || !(c->flags & STP_PS_FORK))) {
			kind = thread_group_leader(p) ? STP_PROBE_PROC_BEGIN :
							STP_PROBE_THREAD_BEGIN;
			pathless = fire = stp_proc_wanted(kind, NULL, p->tgid);
		}
		if (stp_ps_claim(p, STP_PS_EXIT))
			atomic_inc(&stp_skipped);
	}
	spin_unlock_irqrestore(&stp_ps_lock, flags);
	if (fire)
		stp_proc_fire(kind, pathless, exe);
}

static bool stp_ps_match(struct callback_head *cb, void *data)
{
	return cb == data;
}

/* stp_ps_find_cancel - task_work_cancel_match's address, or NULL: a
 * kprobe is registered (disarmed) on it only to learn it.  Process
 * context; sleeps. */
static stp_ps_cancel_fn stp_ps_find_cancel(void)
{
	struct kprobe kp = { .symbol_name = "task_work_cancel_match",
			     .flags = KPROBE_FLAG_DISABLED };
	unsigned long addr;
	u32 insn = 0;

	if (register_kprobe(&kp))
		return NULL;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
#ifdef CONFIG_X86_KERNEL_IBT
	/* the kprobe sits after an ENDBR64 (f3 0f 1e fa); a function without
	 * one (sealed: never called indirectly) would fault when called
	 * through a pointer where IBT is on */
	if (!copy_from_kernel_nofault(&insn, (void *)(addr - 4), 4) &&
	    insn == 0xfa1e0ff3U)
		addr -= 4;
	else if (cpu_feature_enabled(X86_FEATURE_IBT))
		return NULL;
#endif
	(void)insn;
	return (stp_ps_cancel_fn)addr;
}

/* stp_ps_visit - queue @t's probes, when it has some and no hook has
 * claimed them.  Under rcu_read_lock. */
static void stp_ps_visit(struct task_struct *t)
{
	int leader = thread_group_leader(t), pathless, path, has_mm;
	enum stp_probe_kind kind = leader ? STP_PROBE_PROC_BEGIN :
					    STP_PROBE_THREAD_BEGIN;
	struct stp_ps_claim *c;
	struct stp_ps_work *w;
	struct inode *exe;

	/* an exiting task is walked too: its exit hook runs the probes if
	 * it gets there first (or has: then it is claimed) */
	if ((t->flags & PF_KTHREAD) || !stp_in_target(t))
		return;
	task_lock(t);           /* t->mm stays while we read it */
	has_mm = t->mm != NULL;
	exe = has_mm ? stp_exe_inode(t->mm) : NULL;  /* NULL: mid-exec */
	task_unlock(t);
	if (!has_mm)
		return;         /* no user memory: a kernel thread, or past
		                 * exit_mm (its exit hook has come or will come
		                 * while claims are kept, and runs the probes) */
	pathless = stp_proc_wanted(kind, NULL, t->tgid);
	path = exe && stp_proc_wanted(kind, exe, t->tgid);
	if (!stp_ps_begins)
		pathless = path = 0;    /* the PATH for .end only */
	w = pathless || path ? kmalloc(sizeof(*w), GFP_ATOMIC | __GFP_NOWARN)
			     : NULL;
	spin_lock_irq(&stp_ps_lock);
	c = stp_ps_claim_of(t);
	if (c && (c->flags & (STP_PS_FORK | STP_PS_EXIT)))
		pathless = path = 0;    /* new: the hooks see to it */
	else if (c && (c->flags & STP_PS_EXEC))
		path = 0;
	else if (leader)
		stp_proc_remember(t->tgid, exe, 1);
	if ((pathless || path) && !w) {
		atomic_inc(&stp_skipped);
	} else if (pathless || path) {
		get_task_struct(t);
		w->task = t;
		w->kind = kind;
		w->pathless = pathless;
		w->exe = path ? exe : NULL;
		w->state = STP_PS_QUEUED;
		w->fired = 0;
		init_task_work(&w->cb, stp_ps_work_fn);
		list_add(&w->node, &stp_ps_works);
		atomic_inc(&stp_ps_pending);
		if (task_work_add(t, &w->cb, TWA_SIGNAL)) {
			/* exiting: it runs no probe any more */
			list_del(&w->node);
			atomic_dec(&stp_ps_pending);
			put_task_struct(t);
		} else {
			w = NULL;
		}
	}
	spin_unlock_irq(&stp_ps_lock);
	kfree(w);
}

/* stp_ps_end_early - no more claims: drop them, and the works that have
 * already run. */
static void stp_ps_end_early(void)
{
	struct stp_ps_claim *c, *cn;
	struct stp_ps_work *w, *wn;
	LIST_HEAD(claims);
	LIST_HEAD(done);

	spin_lock_irq(&stp_ps_lock);
	stp_ps_early = 0;
	list_splice_init(&stp_ps_claims, &claims);
	list_for_each_entry_safe(w, wn, &stp_ps_works, node)
		if (w->state == STP_PS_RAN)
			list_move(&w->node, &done);
	spin_unlock_irq(&stp_ps_lock);
	list_for_each_entry_safe(c, cn, &claims, node)
		kfree(c);
	list_for_each_entry_safe(w, wn, &done, node)
		stp_ps_free(w);
}

void stp_uprocess_existing(void)
{
	struct task_struct *p, *t;

	if (!READ_ONCE(stp_ps_open))
		return;
	WRITE_ONCE(stp_ps_hold, 0);     /* the session runs */
	if (stp_proc_has_begin()) {
		stp_ps_cancel = stp_ps_find_cancel();
		stp_ps_begins = !!stp_ps_cancel;
		if (!stp_ps_begins)
			stp_warn("process .begin probes will not fire for the "
				 "processes already running "
				 "(task_work_cancel_match not found)");
	}
	rcu_read_lock();
	for_each_process_thread(p, t)
		stp_ps_visit(t);
	rcu_read_unlock();
	stp_ps_end_early();
}

void stp_upstart_close(void)
{
	struct stp_ps_work *w;
	struct stp_ps_claim *c, *cn;
	int state;

	spin_lock_irq(&stp_ps_lock);
	stp_ps_open = stp_ps_early = stp_ps_hold = stp_ps_begins = 0;
	while (!list_empty(&stp_ps_works)) {
		w = list_first_entry(&stp_ps_works, struct stp_ps_work, node);
		list_del(&w->node);
		state = w->state;
		if (state == STP_PS_QUEUED)
			w->state = STP_PS_CANCELLED;
		spin_unlock_irq(&stp_ps_lock);
		if (state == STP_PS_RAN) {
			stp_ps_free(w);
		} else if (stp_ps_cancel &&
			   stp_ps_cancel(w->task, stp_ps_match, w)) {
			stp_ps_free(w);
			atomic_dec(&stp_ps_pending);
		}       /* else it is running: it frees itself */
		spin_lock_irq(&stp_ps_lock);
	}
	list_for_each_entry_safe(c, cn, &stp_ps_claims, node) {
		list_del(&c->node);
		kfree(c);
	}
	spin_unlock_irq(&stp_ps_lock);
	while (atomic_read(&stp_ps_pending) > 0)
		msleep(1);
}
