/* reader_wake.c - waking stapio when output or a control message waits
 * for it, from any context (NMI included), at most once per
 * STP_CMD_POLL_MS: a run that prints nothing wakes nobody, and stapio
 * sleeps in poll() with no timeout (it learns that it may from the
 * STP_MSG_WAKES message, stp_transport_msgs.h).
 *
 * The first kick after a wake sets "armed" and queues an irq_work (the
 * one thing an NMI may start); the irq_work arms a timer STP_CMD_POLL_MS
 * ahead, so that a burst of output is read as one batch, as stapio's
 * polling read it before; the timer clears "armed", marks the control
 * channel readable and wakes its waiters.  A kick while armed costs a
 * barrier and one read of a word written 50 times a second at most. */
#include <linux/module.h>
#include <linux/irq_work.h>
#include <linux/timer.h>
#include <linux/jiffies.h>
#include <linux/wait.h>
#include "stp_internal.h"

DECLARE_WAIT_QUEUE_HEAD(stp_reader_wq);

static atomic_t stp_wake_armed = ATOMIC_INIT(0);  /* a wake is on its way */
static atomic_t stp_wake_ready = ATOMIC_INIT(0);  /* .cmd polls readable */
static bool stp_wake_stopped;                     /* the module is going */

static void stp_wake_timer_fn(struct timer_list *t)
{
	atomic_set(&stp_wake_armed, 0);
	/* cleared before the reader looks: what is written after the
	 * reader's look kicks again (pairs with stp_reader_kick's
	 * barrier) */
	smp_mb();
	atomic_set(&stp_wake_ready, 1);
	wake_up_interruptible(&stp_reader_wq);
}
static DEFINE_TIMER(stp_wake_timer, stp_wake_timer_fn);

static void stp_wake_work_fn(struct irq_work *w)
{
	if (!READ_ONCE(stp_wake_stopped))
		mod_timer(&stp_wake_timer,
			  jiffies + msecs_to_jiffies(STP_CMD_POLL_MS));
}
static DEFINE_IRQ_WORK(stp_wake_work, stp_wake_work_fn);

/**
 * stp_reader_kick - see stp_internal.h.  Context: any, NMI included;
 * does not sleep or take a lock.
 */
void stp_reader_kick(void)
{
	/* what the caller wrote before the look at armed: a timer that
	 * cleared it after this look has the output in view */
	smp_mb();
	if (atomic_read(&stp_wake_armed) ||
	    atomic_xchg(&stp_wake_armed, 1))
		return;
	if (!READ_ONCE(stp_wake_stopped))
		irq_work_queue(&stp_wake_work);
}

/**
 * stp_reader_woken - see stp_internal.h.  Context: process (the control
 * channel's poll); does not sleep.
 */
bool stp_reader_woken(void)
{
	return atomic_read(&stp_wake_ready) &&
	       atomic_xchg(&stp_wake_ready, 0);
}

/**
 * stp_reader_wake_stop - see stp_internal.h.  Process context; may sleep
 * (waits for a running irq_work and timer).
 */
void stp_reader_wake_stop(void)
{
	WRITE_ONCE(stp_wake_stopped, true);
	irq_work_sync(&stp_wake_work);
	timer_delete_sync(&stp_wake_timer);
}
