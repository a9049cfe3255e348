/* perf_counter.c - perf.EVENT.process("PATH").counter("NAME") and
 * perf.EVENT[.sample(N)|.hz(N)].process("PATH") probes
 * (STP_PROBE_PERF_PROC) and the reads of @perf("NAME").
 *
 * A counter counts its event in each process that begins running PATH
 * (exec) while the script runs: a perf event of the process's main
 * thread, created in the process itself on its way back to user space
 * from the exec (a task_work queued at sched_process_exec, whose hook is
 * uprocess.c's), counting (no sampling, no handler) in user and kernel
 * mode.  It is inherited by the threads the process creates (inherit,
 * inherit_thread), not by its children (fork): a read sums the threads.
 * A process already running PATH when the script starts gets its event
 * then, in its main thread (its threads created from then on inherit
 * it; those already there are not counted).  A process that execs again
 * loses its events (and gets new ones if it runs PATH again).  A sampled
 * .process probe is the same event with a sample period (or frequency)
 * whose overflow runs its probe (stp_perf_overflow, in the overflow's
 * context: see perf.c).
 *
 * Reading: perf_event_read_value() takes mutexes and may wait for
 * another CPU, so it runs only where sleeping is allowed.  A process
 * probe with registers (uprobe, uretprobe: the kernel calls their
 * handlers in the probed task, preemptible) reads the counters its body
 * uses (desc perf_reads) before the body runs (stp_perf_read); the body
 * sees those values (stp_perf_value).  Every other probe runs with
 * preemption or interrupts disabled: the translator refuses @perf there.
 *
 * A table of STP_PERF_PROCS processes holds the events; the events of
 * ended processes are released when a process next needs a slot, and
 * all of them at unregistration.  The table's mutex is held around
 * creations, releases and reads. */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/delay.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/mm.h>
#include <linux/task_work.h>
#include <linux/perf_event.h>
#include "stp_internal.h"

#ifndef STP_PERF_PROCS
#define STP_PERF_PROCS 256         /* processes counted at once */
#endif

/* One process's counters. */
struct stp_pc_proc {
	struct task_struct *leader;   /* referenced; NULL: a free slot */
	pid_t tgid;                   /* read without the mutex (exec hook) */
	struct perf_event *ev[STP_PERF_COUNTERS_MAX];
	int rc[STP_PERF_COUNTERS_MAX];/* no event: -ESRCH or -errno */
};

/* One counter of the script, by number. */
struct stp_pc {
	const struct stp_probe_desc *p;   /* NULL: no such number */
	struct inode *inode;              /* of p->path, held; NULL: an
	                                   * optional one that is not here */
	int rc;                           /* why not (-errno) */
};

struct stp_pc_work {
	struct callback_head cb;
	struct inode *inode;          /* the program exec'd, only compared */
};

static struct stp_pc stp_pcs[STP_PERF_COUNTERS_MAX];
static struct stp_pc_proc *stp_pc_procs;   /* [STP_PERF_PROCS] */
static DEFINE_MUTEX(stp_pc_mutex);
static atomic_t stp_pc_pending = ATOMIC_INIT(0);
static int stp_pc_on;                      /* the exec hook may queue */

/* stp_pc_create - the event of @p in @task (and its future threads):
 * counting for a counter, sampled (its probe run by stp_perf_overflow)
 * for a sampled probe; or an ERR_PTR.  Process context; sleeps. */
static struct perf_event *stp_pc_create(const struct stp_probe_desc *p,
					struct task_struct *task)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = p->perf_type;
	attr.size = sizeof(attr);
	attr.config = p->perf_config;
	attr.inherit = 1;
	attr.inherit_thread = 1;
	if (!p->sample)
		return perf_event_create_kernel_counter(&attr, -1, task, NULL,
							NULL);
	if (p->perf_freq) {
		attr.freq = 1;
		attr.sample_freq = p->sample;
	} else {
		attr.sample_period = p->sample;
	}
	return perf_event_create_kernel_counter(&attr, -1, task,
						stp_perf_overflow, (void *)p);
}

/* stp_pc_counts - does event @k exist in the processes running @inode? */
static inline bool stp_pc_counts(int k, const struct inode *inode)
{
	return stp_pcs[k].p && stp_pcs[k].inode && stp_pcs[k].inode == inode;
}

/* stp_pc_release - release slot @s's events and task.  Mutex held. */
static void stp_pc_release(struct stp_pc_proc *s)
{
	int k;

	for (k = 0; k < STP_PERF_COUNTERS_MAX; k++)
		if (s->ev[k])
			perf_event_release_kernel(s->ev[k]);
	put_task_struct(s->leader);
	memset(s, 0, sizeof(*s));
}

/* stp_pc_attach - new events for @task (a process's leader), which runs
 * @inode: the slot of its previous program is released, and those of
 * processes that ended.  Mutex held; process context, sleeps. */
static void stp_pc_attach(struct task_struct *task, struct inode *inode)
{
	struct stp_pc_proc *s, *free_slot = NULL;
	int i, k, any = 0;

	for (i = 0; i < STP_PERF_PROCS; i++) {
		s = &stp_pc_procs[i];
		if (s->leader && (s->tgid == task->tgid ||
				  !atomic_read(&s->leader->signal->live)))
			stp_pc_release(s);
		if (!s->leader && !free_slot)
			free_slot = s;
	}
	for (k = 0; k < STP_PERF_COUNTERS_MAX; k++)
		any |= stp_pc_counts(k, inode);
	/* under staprun -c/-x: the target's processes only, as the
	 * process probes */
	if (!any || !atomic_read(&task->signal->live) || !stp_in_target(task))
		return;
	if (!free_slot) {             /* its @perf reads will fail */
		atomic_inc(&stp_skipped);
		return;
	}
	for (k = 0; k < STP_PERF_COUNTERS_MAX; k++) {
		struct perf_event *ev;

		free_slot->rc[k] = -ESRCH;
		if (!stp_pc_counts(k, inode))
			continue;
		ev = stp_pc_create(stp_pcs[k].p, task);
		if (IS_ERR(ev)) {
			free_slot->rc[k] = PTR_ERR(ev);
			continue;
		}
		free_slot->ev[k] = ev;
		free_slot->rc[k] = 0;
	}
	get_task_struct(task);
	free_slot->leader = task;
	WRITE_ONCE(free_slot->tgid, task->tgid);
}

/* stp_pc_attach_running - events for the processes already running a
 * counted program at the start: in their main thread (and the threads
 * they create from now on; their other threads are not counted).  At
 * most STP_PC_SCAN processes are looked at.  Process context; sleeps. */
#define STP_PC_SCAN 8192
static void stp_pc_attach_running(void)
{
	struct task_struct **ts, *t;
	int i, k, n = 0;

	ts = kvcalloc(STP_PC_SCAN, sizeof(*ts), GFP_KERNEL);
	if (!ts)
		return;
	rcu_read_lock();
	for_each_process(t) {
		if (n == STP_PC_SCAN)
			break;
		if (t->flags & PF_KTHREAD)
			continue;
		get_task_struct(t);
		ts[n++] = t;
	}
	rcu_read_unlock();
	for (i = 0; i < n; i++) {
		struct mm_struct *mm = get_task_mm(ts[i]);
		struct inode *inode = stp_exe_inode(mm);

		if (mm)
			mmput(mm);
		for (k = 0; inode && k < STP_PERF_COUNTERS_MAX; k++)
			if (stp_pc_counts(k, inode)) {
				mutex_lock(&stp_pc_mutex);
				stp_pc_attach(ts[i], inode);
				mutex_unlock(&stp_pc_mutex);
				break;
			}
		put_task_struct(ts[i]);
	}
	kvfree(ts);
}

/* stp_pc_work_fn - the exec'd process's counters, in the process. */
static void stp_pc_work_fn(struct callback_head *cb)
{
	struct stp_pc_work *w = container_of(cb, struct stp_pc_work, cb);
	struct inode *inode = w->inode;

	kfree(w);
	mutex_lock(&stp_pc_mutex);
	if (stp_pc_procs)
		stp_pc_attach(current, inode);
	mutex_unlock(&stp_pc_mutex);
	atomic_dec(&stp_pc_pending);
}

void stp_perf_counters_exec(struct inode *inode)
{
	struct stp_pc_work *w;
	int i, want = 0;

	if (!READ_ONCE(stp_pc_on))
		return;
	for (i = 0; i < STP_PERF_COUNTERS_MAX && !want; i++)
		want = stp_pc_counts(i, inode);
	for (i = 0; i < STP_PERF_PROCS && !want; i++)
		want = READ_ONCE(stp_pc_procs[i].tgid) == current->tgid;
	if (!want)
		return;
	w = kmalloc(sizeof(*w), GFP_NOWAIT | __GFP_NOWARN);
	if (!w) {
		atomic_inc(&stp_skipped);
		return;
	}
	w->inode = inode;
	init_task_work(&w->cb, stp_pc_work_fn);
	atomic_inc(&stp_pc_pending);
	if (task_work_add(current, &w->cb, TWA_RESUME)) {
		atomic_dec(&stp_pc_pending);
		kfree(w);
	}
}

const struct stp_perf_values *stp_perf_read(const struct stp_probe_desc *p,
					    struct stp_perf_values *pv)
{
	struct stp_pc_proc *s = NULL;
	u64 enabled, running;
	int i, k;

	if (!p->perf_reads)
		return NULL;
	pv->missing = p->perf_reads;
	mutex_lock(&stp_pc_mutex);
	for (i = 0; stp_pc_procs && i < STP_PERF_PROCS && !s; i++)
		if (stp_pc_procs[i].leader == current->group_leader)
			s = &stp_pc_procs[i];
	for (k = 0; k < STP_PERF_COUNTERS_MAX; k++) {
		if (!(p->perf_reads & (1u << k)))
			continue;
		if (!s || !s->ev[k]) {
			pv->rc[k] = s ? s->rc[k] : -ESRCH;
			continue;
		}
		pv->v[k] = (s64)perf_event_read_value(s->ev[k], &enabled,
						      &running);
		pv->missing &= ~(1u << k);
	}
	mutex_unlock(&stp_pc_mutex);
	return pv;
}

s64 stp_perf_value(struct stp_context *c, int k, const char *name,
		   const char *loc)
{
	const struct stp_perf_values *pv = c->perf_values;

	if (k < 0 || k >= STP_PERF_COUNTERS_MAX || !pv) {
		stp_error(c, "@perf read outside a process probe", loc);
		return 0;
	}
	if (!(pv->missing & (1u << k)))
		return pv->v[k];
	if (pv->rc[k] == -ESRCH && stp_pcs[k].rc)
		snprintf(c->error_buf, sizeof(c->error_buf),
			 "perf counter '%s' is not available here (rc %d)",
			 name, stp_pcs[k].rc);
	else if (pv->rc[k] == -ESRCH)
		snprintf(c->error_buf, sizeof(c->error_buf),
			 "perf counter '%s' does not count process %d (it "
			 "counts those running %s)", name,
			 task_tgid_nr(current),
			 stp_pcs[k].p ? stp_pcs[k].p->path : "?");
	else
		snprintf(c->error_buf, sizeof(c->error_buf),
			 "perf counter '%s' could not be created in process "
			 "%d (rc %d)", name, task_tgid_nr(current), pv->rc[k]);
	stp_error(c, c->error_buf, loc);
	return 0;
}

/* stp_pc_check - can this kernel count @p's event?  A counter in the
 * current task, released at once; 0 or -errno (reported unless @p is
 * optional).  Sleeps. */
static int stp_pc_check(const struct stp_probe_desc *p)
{
	struct perf_event *ev = stp_pc_create(p, current);
	int rc;

	if (!IS_ERR(ev)) {
		perf_event_release_kernel(ev);
		return 0;
	}
	rc = PTR_ERR(ev);
	if (p->optional)
		return rc;
	stp_ctl_send_text(STP_MSG_ERROR,
		"ERROR: %s%s%sprobe %s: this kernel cannot count perf event "
		"type %u config %llu (rc %d%s) near %s\n",
		p->symbol ? "perf counter '" : "", p->symbol ? p->symbol : "",
		p->symbol ? "', " : "", p->pp, p->perf_type,
		(unsigned long long)p->perf_config, rc,
		rc == -ENOENT || rc == -EOPNOTSUPP ?
		": no such perf event on this machine (no hardware PMU?)" : "",
		p->loc ? p->loc : "?");
	return rc;
}

int stp_perf_counters_register(void)
{
	int i, rc = 0, n = 0;

	for (i = 0; i < stp_module.nprobes && !rc; i++) {
		const struct stp_probe_desc *p = &stp_module.probes[i];
		struct stp_pc *pc;
		struct inode *inode;

		if (p->kind != STP_PROBE_PERF_PROC)
			continue;
		if (p->perf_counter < 0 ||
		    p->perf_counter >= STP_PERF_COUNTERS_MAX) {
			rc = -EINVAL;
			break;
		}
		pc = &stp_pcs[p->perf_counter];
		pc->p = p;
		inode = stp_path_inode(p->path);
		if (!IS_ERR(inode))
			pc->inode = inode;
		rc = IS_ERR(inode) ? PTR_ERR(inode) : stp_pc_check(p);
		if (rc && p->optional) {        /* "?": reads say why */
			if (pc->inode)
				iput(pc->inode);
			pc->inode = NULL;
			pc->rc = rc;
			rc = 0;
			continue;
		}
		if (IS_ERR(inode))
			stp_ctl_send_text(STP_MSG_ERROR,
				"ERROR: probe %s registration failed (rc %d: "
				"%s) near %s\n", p->pp, rc, p->path,
				p->loc ? p->loc : "?");
		n += !rc;
	}
	if (!rc && n) {
		stp_pc_procs = kcalloc(STP_PERF_PROCS, sizeof(*stp_pc_procs),
				       GFP_KERNEL);
		rc = stp_pc_procs ? 0 : -ENOMEM;
	}
	if (rc) {
		stp_perf_counters_unregister();
		return rc;
	}
	WRITE_ONCE(stp_pc_on, n > 0);
	if (n)
		stp_pc_attach_running();
	return 0;
}

void stp_perf_counters_unregister(void)
{
	int i;

	WRITE_ONCE(stp_pc_on, 0);
	/* processes exec'd just before run their work on their way to user
	 * space (or out) */
	while (atomic_read(&stp_pc_pending) > 0)
		msleep(1);
	mutex_lock(&stp_pc_mutex);
	for (i = 0; stp_pc_procs && i < STP_PERF_PROCS; i++)
		if (stp_pc_procs[i].leader)
			stp_pc_release(&stp_pc_procs[i]);
	kfree(stp_pc_procs);
	stp_pc_procs = NULL;
	for (i = 0; i < STP_PERF_COUNTERS_MAX; i++) {
		if (stp_pcs[i].inode)
			iput(stp_pcs[i].inode);
		stp_pcs[i].inode = NULL;
		stp_pcs[i].p = NULL;
		stp_pcs[i].rc = 0;
	}
	mutex_unlock(&stp_pc_mutex);
}
