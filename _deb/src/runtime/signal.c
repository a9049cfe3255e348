/* signal.c - the script's raise(): signals are sent just after the probe
 * hit, from an irq_work, never inside the probe handler itself, so that a
 * probe that hit while its CPU held a task's signal lock (or ran in NMI
 * context) cannot deadlock on it.  On x86 the irq_work runs as soon as
 * interrupts are enabled again, before the probed task returns to user
 * mode. */
#include <linux/irq_work.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched/signal.h>
#include "stp_internal.h"

#define STP_RAISE_SLOTS 32

/* A slot: 0 free, 1 being filled, 2 ready to send. */
static struct {
	atomic_t state;
	pid_t tid;
	int sig;
} stp_raise_q[STP_RAISE_SLOTS];

static void stp_raise_work_fn(struct irq_work *w)
{
	int i;

	for (i = 0; i < STP_RAISE_SLOTS; i++) {
		struct task_struct *t;
		struct pid *p;
		pid_t tid;
		int sig;

		if (atomic_read(&stp_raise_q[i].state) != 2)
			continue;
		smp_rmb();
		tid = stp_raise_q[i].tid;
		sig = stp_raise_q[i].sig;
		atomic_set(&stp_raise_q[i].state, 0);
		rcu_read_lock();
		p = find_pid_ns(tid, &init_pid_ns);
		t = p ? pid_task(p, PIDTYPE_PID) : NULL;
		if (t)
			send_sig(sig, t, 1);
		rcu_read_unlock();
	}
}

static DEFINE_IRQ_WORK(stp_raise_work, stp_raise_work_fn);

int stp_raise(int sig)
{
	int i;

	if (sig < 1 || sig > _NSIG)
		return -EINVAL;
	for (i = 0; i < STP_RAISE_SLOTS; i++) {
		if (atomic_cmpxchg(&stp_raise_q[i].state, 0, 1) != 0)
			continue;
		stp_raise_q[i].tid = task_pid_nr(current);
		stp_raise_q[i].sig = sig;
		smp_wmb();
		atomic_set(&stp_raise_q[i].state, 2);
		irq_work_queue(&stp_raise_work);
		return 0;
	}
	return -EBUSY;
}

void stp_raise_sync(void)
{
	irq_work_sync(&stp_raise_work);
}
