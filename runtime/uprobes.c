/* uprobes.c - user-space probes: STP_PROBE_UPROBE entries of the probe
 * table, registered through the kernel's uprobe consumer API.
 *
 * A probe names a program by its absolute path in this machine and an
 * instruction by its offset in that file.  At module start the path is
 * resolved to an inode (kern_path), which is held until the probe is
 * unregistered; the kernel then plants the breakpoint in every present
 * and future mapping of that file, so the program need not be running.
 * An entry probe runs its body from the consumer's handler, a .return
 * probe from ret_handler (the kernel's uretprobe hijacks the return
 * address), both in the probed task's context with its user registers:
 * the same claim/busy/error path as kprobes (stp_run_probe).  Both may
 * sleep: the perf counters a body reads (@perf) are read there first
 * (perf_counter.c).  A nonzero
 * ref_ctr_offset is an SDT semaphore the kernel increments in every
 * process mapping the file while the probe is registered.
 *
 * A .return probe that reads values of the function's entry ($PARAM,
 * @entry: the descriptor's entry_handler) runs that handler from the
 * consumer's entry handler into one of STP_UPROBE_ENTRY_SLOTS slots of
 * the probe, keyed by task and stack pointer (the return address's
 * slot), and ret_handler finds it by the same key: frames skipped by
 * longjmp leave slots no return matches, taken back when the task
 * enters the probe again at or above them.  No free slot: the hit is
 * skipped (counted).
 *
 * Unregistration waits for running handlers of the consumers
 * (uprobe_unregister() for each on 6.1; uprobe_unregister_nosync() for
 * each and one uprobe_unregister_sync() on 6.12), so nothing of ours runs
 * after stp_uprobes_unregister() returns.  The kernel's API differs
 * between kernels (stp_kcaps.h): the alternatives stand side by side in
 * "the kernel's uprobe API" below; a kernel with none of them gets
 * registration failing with -ENOSYS (pass 4 refuses such scripts first). */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/fs.h>
#include <linux/namei.h>
#include <linux/uprobes.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/file.h>
#include "stp_internal.h"

#ifndef STP_UPROBE_ENTRY_SLOTS
#define STP_UPROBE_ENTRY_SLOTS 128  /* per .return probe with entry values */
#endif

/* One saved entry of a .return probe. */
struct stp_up_slot {
	struct task_struct *task;    /* NULL: free */
	unsigned long sp;            /* user sp at the entry */
	int busy;                    /* being filled or consumed */
	u64 data[];                  /* entry_size bytes */
};

/* Run-time state of one uprobe. */
struct stp_up_rt {
	struct uprobe_consumer uc;   /* first: container_of from the handlers */
	const struct stp_probe_desc *p;
	struct inode *inode;         /* held (igrab) while registered */
	unsigned long offset;        /* p->offset, or process(PID)'s symbol's */
	struct mm_struct *mm;        /* process(PID): its mm at registration,
	                              * only compared (the breakpoint filter);
	                              * NULL: any */
	int registered;
#ifdef STP_HAVE_UPROBE_HANDLE
	struct uprobe *handle;       /* uprobe_register()'s, while registered */
#endif
	spinlock_t lock;             /* slots */
	size_t slot_size;
	char *slots;                 /* [STP_UPROBE_ENTRY_SLOTS], or NULL */
};

/* stp_up_mine - does the hit in the current task count for @r: any
 * process, or process(PID)'s only; under -c/-x only the target's process
 * hierarchy (stp_in_target).  Context: any. */
static inline int stp_up_mine(const struct stp_up_rt *r)
{
	return (!r->p->pid || task_tgid_nr(current) == r->p->pid) &&
	       stp_in_target(current);
}

static struct stp_up_slot *stp_up_slot(struct stp_up_rt *r, int i)
{
	return (struct stp_up_slot *)(r->slots + i * r->slot_size);
}

/* stp_up_entry - a .return probe's entry: save its entry values. */
static int stp_up_entry(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct stp_up_rt *r = container_of(uc, struct stp_up_rt, uc);
	struct stp_up_slot *s, *got = NULL;
	struct stp_perf_values pv;
	unsigned long flags;
	int i;

	if (!stp_up_mine(r) || !stp_uid_ok())
		return 0;

	spin_lock_irqsave(&r->lock, flags);
	for (i = 0; i < STP_UPROBE_ENTRY_SLOTS; i++) {
		s = stp_up_slot(r, i);
		/* a frame of this task at or below this one is gone */
		if (s->task == current && !s->busy && s->sp <= regs->sp)
			s->task = NULL;
		if (!s->task && !got)
			got = s;
	}
	if (got) {
		got->task = current;
		got->sp = regs->sp;
		got->busy = 1;
	}
	spin_unlock_irqrestore(&r->lock, flags);
	if (!got) {
		atomic_inc(&stp_skipped);
		return 0;
	}
	*(int *)got->data = 0;
	stp_run_handler(r->p, regs, STP_STATE_RUNNING, r->p->entry_handler,
			got->data, stp_perf_read(r->p, &pv));
	spin_lock_irqsave(&r->lock, flags);
	got->busy = 0;
	spin_unlock_irqrestore(&r->lock, flags);
	return 0;
}

static struct stp_up_rt *stp_ups;
static int stp_nups;

/* _stp_uid - set by staprun for a module built --privilege=stapusr (its
 * modinfo stap_privilege): the uid of the user who started it, whose
 * processes alone its process probes fire for; -1 (the default): every
 * process.  Read in probe context. */
int _stp_uid = -1;
module_param(_stp_uid, int, 0444);

/* stp_uid_ok - may a process probe fire for current?  Its real and
 * effective uid must both be _stp_uid (a setuid program the user runs
 * is not the user's).  Any context; does not sleep. */
int stp_uid_ok(void)
{
	if (_stp_uid < 0)
		return 1;
	return from_kuid(&init_user_ns, current_uid()) == (uid_t)_stp_uid &&
	       from_kuid(&init_user_ns, current_euid()) == (uid_t)_stp_uid;
}

/* stp_in_target - is @t the -c/-x target process or a descendant of it
 * (following real_parent), or is there no target?  With staprun -c or -x
 * SystemTap limits every process probe to the target's process hierarchy
 * (stapprobes(3stap)).  A process reparented away from the hierarchy
 * (its parent exited) is no longer in it.  Any context; no sleep. */
int stp_in_target(struct task_struct *t)
{
	pid_t target = stp_target_pid();
	int depth, in = 0;

	if (!target)
		return 1;
	rcu_read_lock();
	for (depth = 0; t && t->pid > 0 && depth < 4096; depth++) {
		struct task_struct *parent = rcu_dereference(t->real_parent);

		if (t->tgid == target) {
			in = 1;
			break;
		}
		if (parent == t)
			break;
		t = parent;
	}
	rcu_read_unlock();
	return in;
}

/* stp_up_filter - process(PID): plant the breakpoint only in that
 * process's memory (other processes running the program never trap).
 * Called by the kernel with the uprobe's consumer lock; no sleep. */
#ifdef STP_HAVE_UPROBE_FILTER_CTX
static bool stp_up_filter(struct uprobe_consumer *uc,
			  enum uprobe_filter_ctx ctx, struct mm_struct *mm)
#else
static bool stp_up_filter(struct uprobe_consumer *uc, struct mm_struct *mm)
#endif
{
	struct stp_up_rt *r = container_of(uc, struct stp_up_rt, uc);

	return !r->mm || mm == r->mm;
}

static int stp_up_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct stp_up_rt *r = container_of(uc, struct stp_up_rt, uc);
	struct stp_perf_values pv;

	if (!stp_up_mine(r))    /* not process(PID)'s: drop it there */
		return r->mm ? UPROBE_HANDLER_REMOVE : 0;
	if (stp_uid_ok())
		stp_run_handler(r->p, regs, STP_STATE_RUNNING, r->p->handler,
				NULL, stp_perf_read(r->p, &pv));
	return 0;       /* keep the breakpoint in this mm */
}

static int stp_up_ret_handler(struct uprobe_consumer *uc, unsigned long func,
			      struct pt_regs *regs)
{
	struct stp_up_rt *r = container_of(uc, struct stp_up_rt, uc);
	struct stp_up_slot *s = NULL;
	struct stp_perf_values pv;
	unsigned long flags;
	int i;

	if (!stp_up_mine(r) || !stp_uid_ok())
		return 0;
	if (!r->slots) {
		stp_run_handler(r->p, regs, STP_STATE_RUNNING, r->p->handler,
				NULL, stp_perf_read(r->p, &pv));
		return 0;
	}
	/* the return popped the return address the entry's sp pointed at */
	spin_lock_irqsave(&r->lock, flags);
	for (i = 0; i < STP_UPROBE_ENTRY_SLOTS; i++) {
		struct stp_up_slot *t = stp_up_slot(r, i);

		if (t->task == current && !t->busy &&
		    t->sp == regs->sp - sizeof(long)) {
			s = t;
			s->busy = 1;
			break;
		}
	}
	spin_unlock_irqrestore(&r->lock, flags);
	if (!s)         /* its entry was skipped or came before the start */
		return 0;
	if (*(int *)s->data == 1)
		stp_run_handler(r->p, regs, STP_STATE_RUNNING, r->p->handler,
				s->data, stp_perf_read(r->p, &pv));
	spin_lock_irqsave(&r->lock, flags);
	s->task = NULL;
	s->busy = 0;
	spin_unlock_irqrestore(&r->lock, flags);
	return 0;
}

struct inode *stp_path_inode(const char *path)
{
	struct path p;
	struct inode *inode;
	int rc = kern_path(path, LOOKUP_FOLLOW, &p);

	if (rc)
		return ERR_PTR(rc);
	inode = d_inode(p.dentry);
	inode = inode && S_ISREG(inode->i_mode) ? igrab(inode) : NULL;
	path_put(&p);
	return inode ? inode : ERR_PTR(-EINVAL);
}

/* stp_up_pid_mm - the mm of process @pid now (only to be compared), or
 * NULL when there is no such process.  Process context; may sleep. */
static struct mm_struct *stp_up_pid_mm(pid_t pid)
{
	struct task_struct *t;
	struct mm_struct *mm = NULL;

	rcu_read_lock();
	t = pid_task(find_vpid(pid), PIDTYPE_PID);
	if (t)
		get_task_struct(t);
	rcu_read_unlock();
	if (t) {
		mm = get_task_mm(t);
		put_task_struct(t);
		if (mm)
			mmput(mm);      /* kept as a value to compare */
	}
	return mm;
}

/* stp_up_pid_inode - process(PID).function("NAME") built for another
 * machine: the inode (igrab) of process PID's executable now, and
 * r->offset that of its function NAME; an ERR_PTR (-ESRCH: no such
 * process) after a message naming what failed.  Process context;
 * sleeps. */
static struct inode *stp_up_pid_inode(struct stp_up_rt *r)
{
	struct task_struct *t;
	struct file *exe = NULL;
	struct inode *inode;
	int rc;

	rcu_read_lock();
	t = pid_task(find_vpid(r->p->pid), PIDTYPE_PID);
	if (t)
		get_task_struct(t);
	rcu_read_unlock();
	if (t) {
		struct mm_struct *mm = get_task_mm(t);

		put_task_struct(t);
		if (mm) {
			rcu_read_lock();
#ifdef STP_HAVE_GET_FILE_RCU_PTRPTR
			exe = get_file_rcu(&mm->exe_file);
#else
			exe = rcu_dereference(mm->exe_file);
			if (exe && !get_file_rcu(exe))
				exe = NULL;
#endif
			rcu_read_unlock();
			mmput(mm);
		}
	}
	if (!exe) {
		stp_ctl_send_text(STP_MSG_ERROR, "ERROR: probe %s: no process "
				  "%d (or it runs no program) near %s\n", r->p->pp,
				  r->p->pid, r->p->loc ? r->p->loc : "?");
		return ERR_PTR(-ESRCH);
	}
	rc = stp_elf_func_offset(exe, r->p->symbol, &r->offset);
	inode = rc ? ERR_PTR(rc) : igrab(file_inode(exe));
	if (!inode)
		inode = ERR_PTR(-ENOENT);
	if (rc)
		stp_ctl_send_text(STP_MSG_ERROR, "ERROR: probe %s: the program "
				  "of process %d has no function %s (rc %d) near "
				  "%s\n", r->p->pp, r->p->pid, r->p->symbol, rc,
				  r->p->loc ? r->p->loc : "?");
	fput(exe);
	return inode;
}

/* ---- the kernel's uprobe API ----
 * stp_up_kregister - set @r's consumer and register it at @inode and
 * r->offset; 0 or -errno.  stp_up_kunregister - unregister it; on return
 * its handlers may still run until stp_up_ksync().  stp_up_ksync - wait
 * for the handlers of every consumer unregistered so far.  Process
 * context; they sleep. */
#ifdef STP_CAN_UPROBES
static int stp_up_kregister(struct stp_up_rt *r, struct inode *inode)
{
	if (r->p->is_return && r->p->entry_handler)
		r->uc.handler = stp_up_entry;
	if (r->p->is_return)
		r->uc.ret_handler = stp_up_ret_handler;
	else
		r->uc.handler = stp_up_handler;
	if (r->p->pid)
		r->uc.filter = stp_up_filter;
#ifdef STP_HAVE_UPROBE_HANDLE
	r->handle = uprobe_register(inode, r->offset, r->p->ref_ctr_offset,
				    &r->uc);
	if (IS_ERR(r->handle)) {
		int rc = PTR_ERR(r->handle);

		r->handle = NULL;
		return rc;
	}
	return 0;
#else
	return uprobe_register_refctr(inode, r->offset, r->p->ref_ctr_offset,
				      &r->uc);
#endif
}

static void stp_up_kunregister(struct stp_up_rt *r)
{
#ifdef STP_HAVE_UPROBE_HANDLE
	uprobe_unregister_nosync(r->handle, &r->uc);
	r->handle = NULL;
#else
	uprobe_unregister(r->inode, r->offset, &r->uc);   /* waits, too */
#endif
}

static void stp_up_ksync(void)
{
#ifdef STP_HAVE_UPROBE_HANDLE
	uprobe_unregister_sync();
#endif
}
#else   /* a uprobe API this runtime does not know */
static int stp_up_kregister(struct stp_up_rt *r, struct inode *inode)
{
	return -ENOSYS;
}

static void stp_up_kunregister(struct stp_up_rt *r)
{
}

static void stp_up_ksync(void)
{
}
#endif

static void stp_up_report(const struct stp_up_rt *r, int rc)
{
	stp_ctl_send_text(STP_MSG_ERROR,
		"ERROR: probe %s registration failed (rc %d%s%s) near %s\n",
		r->p->pp, rc, rc == -ENOENT ? ": no such file " : "",
		rc == -ENOENT ? r->p->path : "", r->p->loc ? r->p->loc : "?");
}

int stp_uprobes_register(void)
{
	int i, n = 0, rc, failed = 0;
	const struct stp_up_rt *first = NULL;
	int first_rc = 0;

	for (i = 0; i < stp_module.nprobes; i++)
		n += stp_module.probes[i].kind == STP_PROBE_UPROBE;
	if (!n)
		return 0;
	stp_ups = kvcalloc(n, sizeof(*stp_ups), GFP_KERNEL);
	if (!stp_ups)
		return -ENOMEM;
	for (i = 0; i < stp_module.nprobes; i++)
		if (stp_module.probes[i].kind == STP_PROBE_UPROBE)
			stp_ups[stp_nups++].p = &stp_module.probes[i];
	for (i = 0; i < stp_nups; i++) {
		struct stp_up_rt *r = &stp_ups[i];
		struct inode *inode;

		r->offset = r->p->offset;
		inode = r->p->path ? stp_path_inode(r->p->path) :
				      r->p->pid ? stp_up_pid_inode(r) :
						   ERR_PTR(-EINVAL);

		rc = IS_ERR(inode) ? PTR_ERR(inode) : 0;
		if (!rc) {
			r->inode = inode;
			spin_lock_init(&r->lock);
			if (r->p->is_return && r->p->entry_handler) {
				r->slot_size = ALIGN(sizeof(struct stp_up_slot) +
						     r->p->entry_size, 8);
				r->slots = kcalloc(STP_UPROBE_ENTRY_SLOTS,
						   r->slot_size, GFP_KERNEL);
				if (!r->slots)
					rc = -ENOMEM;
			}
			if (r->p->pid)
				r->mm = stp_up_pid_mm(r->p->pid);
			if (!rc)
				rc = stp_up_kregister(r, inode);
		}
		cond_resched();
		if (rc == 0) {
			r->registered = 1;
			continue;
		}
		if (r->inode) {
			iput(r->inode);
			r->inode = NULL;
		}
		kfree(r->slots);
		r->slots = NULL;
		if (r->p->optional)
			continue;
		if (r->p->wildcard) {   /* one warning for all, below */
			if (!first) {
				first = r;
				first_rc = rc;
			}
			failed++;
			continue;
		}
		stp_up_report(r, rc);
		stp_uprobes_unregister();
		return rc;
	}
	if (failed)
		stp_ctl_send_text(STP_MSG_WARNING,
			"WARNING: %d of %d user-space probes of wildcards could "
			"not be registered (first: %s rc %d)\n", failed,
			stp_nups, first->p->pp, first_rc);
	return 0;
}

struct inode *stp_uprobes_inode(const char *path)
{
	int i;

	for (i = 0; i < stp_nups; i++)
		if (stp_ups[i].inode && stp_ups[i].p->path &&
		    !strcmp(stp_ups[i].p->path, path))
			return stp_ups[i].inode;
	return NULL;
}

void stp_uprobes_unregister(void)
{
	int i;

	int registered = 0;

	if (!stp_ups)
		return;
	for (i = 0; i < stp_nups; i++) {
		struct stp_up_rt *r = &stp_ups[i];

		if (r->registered) {
			stp_up_kunregister(r);
			r->registered = 0;
			registered++;
			cond_resched();
		}
	}
	if (registered)
		stp_up_ksync();         /* no handler of ours runs now */
	for (i = 0; i < stp_nups; i++) {
		struct stp_up_rt *r = &stp_ups[i];

		if (r->inode) {
			iput(r->inode);
			r->inode = NULL;
		}
		kfree(r->slots);
		r->slots = NULL;
	}
	kvfree(stp_ups);
	stp_ups = NULL;
	stp_nups = 0;
}
