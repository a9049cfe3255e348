/* transport.c - debugfs files: per-CPU relay output (traceN) and the
 * control channel (.cmd).  Protocol: stp_transport_msgs.h. */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/relay.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/poll.h>
#include <linux/jiffies.h>
#include <linux/delay.h>
#include <linux/moduleparam.h>
#include "stp_internal.h"

#ifndef STP_RELAY_SUBBUF_SIZE
#define STP_RELAY_SUBBUF_SIZE (128 * 1024)  /* bytes per sub-buffer */
#endif
#ifndef STP_RELAY_BUFSIZE
#define STP_RELAY_BUFSIZE (1024 * 1024)     /* default bytes per CPU */
#endif
#ifndef STP_RELAY_STALL_NS
#define STP_RELAY_STALL_NS (1000ULL * NSEC_PER_MSEC) /* see wait_room */
#endif
#ifndef STP_CTL_QUEUE_SIZE
#define STP_CTL_QUEUE_SIZE (32 * 1024)      /* bytes of queued messages */
#endif

static struct dentry *stp_top_dir;   /* debugfs "systemtap" */
static struct dentry *stp_mod_dir;   /* systemtap/<module> */
static struct rchan *stp_chan;
static atomic_t stp_lost = ATOMIC_INIT(0);

/* Relay buffer bytes per CPU (module parameter, e.g. staprun m.ko
 * stp_bufsize=8388608); rounded down to whole sub-buffers, at least 2. */
static unsigned int stp_bufsize = STP_RELAY_BUFSIZE;
module_param(stp_bufsize, uint, 0444);
MODULE_PARM_DESC(stp_bufsize, "relay buffer bytes per CPU");

/* Flight recorder (staprun -F): full relay buffers overwrite their oldest
 * sub-buffer instead of dropping new output. */
static bool stp_overwrite;
module_param(stp_overwrite, bool, 0444);
MODULE_PARM_DESC(stp_overwrite, "overwrite the oldest output when full");

/* target(): set by STP_MSG_TARGET (staprun -c/-x), 0 when none. */
static atomic_t stp_target = ATOMIC_INIT(0);

/**
 * stp_target_pid - see stp_runtime.h.  Context: any; does not sleep.
 */
int stp_target_pid(void)
{
	return atomic_read(&stp_target);
}

/* stp_pid(): the process that opened the control channel last (stapio). */
static atomic_t stp_stapio = ATOMIC_INIT(0);

/**
 * stp_stapio_pid - see stp_runtime.h.  Context: any; does not sleep.
 */
int stp_stapio_pid(void)
{
	return atomic_read(&stp_stapio);
}

/* staprun -L: the control channel's close does not stop the session. */
static atomic_t stp_detached = ATOMIC_INIT(0);

/* ---- relay ---- */

static int stp_subbuf_start(struct rchan_buf *buf, void *subbuf,
			    void *prev_subbuf, size_t prev_padding)
{
	if (relay_buf_full(buf) && !stp_overwrite) {
		atomic_inc(&stp_lost);  /* the record being written is dropped */
		return 0;
	}
	return 1;
}

static struct dentry *stp_create_buf_file(const char *filename,
					  struct dentry *parent, umode_t mode,
					  struct rchan_buf *buf, int *is_global)
{
	return debugfs_create_file(filename, mode, parent, buf,
				   &relay_file_operations);
}

static int stp_remove_buf_file(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

static const struct rchan_callbacks stp_relay_cb = {
	.subbuf_start = stp_subbuf_start,
	.create_buf_file = stp_create_buf_file,
	.remove_buf_file = stp_remove_buf_file,
};

void stp_relay_write(const void *data, size_t len)
{
	if (likely(stp_chan)) {
		relay_write(stp_chan, data, len);
		stp_reader_kick();
	}
}

void stp_relay_wait_room(size_t len, u64 *budget_ns)
{
	struct rchan_buf *buf;
	size_t consumed;
	u64 stalled = 0;

	if (!stp_chan || !*budget_ns)
		return;
	buf = *per_cpu_ptr(stp_chan->buf, smp_processor_id());
	if (!buf)
		return;
	/* A record that needs the next sub-buffer while none is free (the
	 * current one counts as not yet produced) waits for stapio, on
	 * another CPU, to consume one: as long as it makes progress, up to
	 * *budget_ns in all, or STP_RELAY_STALL_NS without progress. */
	consumed = READ_ONCE(buf->subbufs_consumed);
	while (buf->offset + len > stp_chan->subbuf_size &&
	       READ_ONCE(buf->subbufs_produced) - consumed + 1 >=
	       stp_chan->n_subbufs) {
		if (*budget_ns < 20000 || stalled >= STP_RELAY_STALL_NS) {
			*budget_ns = 0;   /* give up for the rest of this hit */
			return;
		}
		udelay(20);
		*budget_ns -= 20000;
		stalled += 20000;
		if (READ_ONCE(buf->subbufs_consumed) != consumed) {
			consumed = READ_ONCE(buf->subbufs_consumed);
			stalled = 0;
		}
	}
}

unsigned int stp_relay_lost(void)
{
	return atomic_read(&stp_lost);
}

/* ---- control channel: a byte queue of whole messages ---- */

#define STP_CTL_RESERVE 1024

static DEFINE_RAW_SPINLOCK(stp_ctl_lock);
static char stp_ctl_queue[STP_CTL_QUEUE_SIZE];
static size_t stp_ctl_len;           /* bytes queued */
static atomic_t stp_ctl_opened = ATOMIC_INIT(0);

int stp_ctl_send(u32 type, const void *payload, size_t len)
{
	struct stp_msg_hdr h = { .type = type, .len = len };
	unsigned long flags;
	int tries, rc = -ENOSPC;

	if (len > STP_MSG_MAX_PAYLOAD)
		len = h.len = STP_MSG_MAX_PAYLOAD;
	/* trylock, bounded: a probe that interrupted (or was reached from)
	 * a holder on this CPU must not deadlock; it drops the message. */
	local_irq_save(flags);
	for (tries = 0; !raw_spin_trylock(&stp_ctl_lock); tries++) {
		if (tries > 100000) {
			local_irq_restore(flags);
			return -EBUSY;
		}
		cpu_relax();
	}
	/* Text and commands may not use the last STP_CTL_RESERVE bytes:
	 * the replies and REQUEST_EXIT that stapio waits for must always
	 * fit. */
	if (stp_ctl_len + sizeof(h) + len +
	    (type == STP_MSG_WARNING || type == STP_MSG_ERROR ||
	     type == STP_MSG_SYSTEM || type == STP_MSG_PROGRESS ?
	     STP_CTL_RESERVE : 0) <= sizeof(stp_ctl_queue)) {
		memcpy(stp_ctl_queue + stp_ctl_len, &h, sizeof(h));
		memcpy(stp_ctl_queue + stp_ctl_len + sizeof(h), payload, len);
		stp_ctl_len += sizeof(h) + len;
		rc = 0;
	}
	raw_spin_unlock_irqrestore(&stp_ctl_lock, flags);
	if (!rc)
		stp_reader_kick();
	return rc;
}

void stp_ctl_send_text(u32 type, const char *fmt, ...)
{
	char buf[320];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf)) {     /* truncated: keep the newline */
		n = sizeof(buf) - 1;
		buf[n - 1] = '\n';
	}
	stp_ctl_send(type, buf, n);
}

/* stp_system - see stp_runtime.h. */
int stp_system(const char *cmd)
{
	return stp_ctl_send(STP_MSG_SYSTEM, cmd, strlen(cmd));
}

/**
 * stp_warn - see stp_runtime.h.  The text is prefixed "WARNING: " and
 * ended with a newline; it is truncated to about 300 bytes.
 * Context: any; does not sleep.
 */
void stp_warn(const char *fmt, ...)
{
	char buf[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	stp_ctl_send_text(STP_MSG_WARNING, "WARNING: %s\n", buf);
}

/**
 * stp_request_exit - see stp_runtime.h.  Sets a flag and kicks the
 * reader: the control channel's reader turns it into
 * STP_MSG_REQUEST_EXIT within STP_CMD_POLL_MS.  Context: any; does not
 * sleep.
 */
void stp_request_exit(void)
{
	if (atomic_cmpxchg(&stp_exit_requested, 0, 1) == 0) {
		stp_gate_publish();
		stp_reader_kick();
	}
}

/* abort(): set once, never cleared; the end probes are skipped. */
static atomic_t stp_abort_requested = ATOMIC_INIT(0);

/**
 * stp_request_abort - see stp_runtime.h.  Context: any.
 */
void stp_request_abort(void)
{
	atomic_set(&stp_abort_requested, 1);
	stp_request_exit();
}

/**
 * stp_abort_requested_p - 1 after stp_request_abort().  Context: any.
 */
int stp_abort_requested_p(void)
{
	return atomic_read(&stp_abort_requested);
}

/* Turn a pending exit request into a message (reader side). */
static void stp_ctl_check_exit(void)
{
	if (atomic_read(&stp_session_state) == STP_STATE_RUNNING &&
	    atomic_cmpxchg(&stp_exit_requested, 1, 2) == 1 &&
	    stp_ctl_send(STP_MSG_REQUEST_EXIT, NULL, 0) != 0)
		atomic_set(&stp_exit_requested, 1);  /* retry next time */
}

static int stp_ctl_pending(void)
{
	stp_ctl_check_exit();
	return READ_ONCE(stp_ctl_len) != 0;
}

/* Move as many whole messages as fit in @max bytes into @dst. */
static ssize_t stp_ctl_dequeue(char *dst, size_t max)
{
	unsigned long flags;
	size_t n = 0;
	bool too_big;

	raw_spin_lock_irqsave(&stp_ctl_lock, flags);
	while (n < stp_ctl_len) {
		struct stp_msg_hdr h;
		size_t sz;

		memcpy(&h, stp_ctl_queue + n, sizeof(h));
		sz = sizeof(h) + h.len;
		if (n + sz > max)
			break;
		n += sz;
	}
	if (n) {
		memcpy(dst, stp_ctl_queue, n);
		memmove(stp_ctl_queue, stp_ctl_queue + n, stp_ctl_len - n);
		stp_ctl_len -= n;
	}
	/* decided under the lock: a message queued just after the unlock
	 * must not look like one too big for @max */
	too_big = !n && stp_ctl_len;
	raw_spin_unlock_irqrestore(&stp_ctl_lock, flags);
	if (too_big)
		return -EMSGSIZE;
	return n;
}

static ssize_t stp_ctl_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	size_t max = min_t(size_t, count, STP_CTL_QUEUE_SIZE);
	char *tmp;
	ssize_t n;

	tmp = kmalloc(max, GFP_KERNEL);
	if (!tmp)
		return -ENOMEM;
	for (;;) {
		stp_ctl_check_exit();
		n = stp_ctl_dequeue(tmp, max);
		if (n)
			break;
		if (file->f_flags & O_NONBLOCK) {
			n = -EAGAIN;
			break;
		}
		/* (probe context wakes us through stp_reader_kick) */
		if (wait_event_interruptible(stp_reader_wq,
					     stp_ctl_pending())) {
			n = -ERESTARTSYS;
			break;
		}
	}
	if (n > 0 && copy_to_user(ubuf, tmp, n))
		n = -EFAULT;
	kfree(tmp);
	return n;
}

static ssize_t stp_ctl_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct stp_msg_hdr h;
	struct stp_msg_status st;
	struct stp_msg_target t;

	if (count < sizeof(h) || copy_from_user(&h, ubuf, sizeof(h)))
		return -EINVAL;
	switch (h.type) {
	case STP_MSG_START:
		st.status = stp_session_start();
		st.probes = stp_module.nprobes;
		stp_ctl_send(STP_MSG_START, &st, sizeof(st));
		break;
	case STP_MSG_TARGET:
		if (count < sizeof(h) + sizeof(t) ||
		    copy_from_user(&t, ubuf + sizeof(h), sizeof(t)))
			return -EINVAL;
		atomic_set(&stp_target, t.pid);
		return count;
	case STP_MSG_DETACH:
		atomic_set(&stp_detached, 1);
		return count;
	case STP_MSG_EXIT:
		stp_session_stop(1);
		break;
	default:
		return -EINVAL;
	}
	wake_up_interruptible(&stp_reader_wq);
	return count;
}

/* Readable when a message waits, and once after each wake of
 * stp_reader_kick (relay output may wait then: stapio reads the relay
 * files whenever it wakes). */
static __poll_t stp_ctl_poll(struct file *file, poll_table *wait)
{
	bool woken;

	poll_wait(file, &stp_reader_wq, wait);
	woken = stp_reader_woken();
	return (stp_ctl_pending() || woken ? EPOLLIN | EPOLLRDNORM : 0) |
		EPOLLOUT | EPOLLWRNORM;
}

static int stp_ctl_open(struct inode *inode, struct file *file)
{
	if (atomic_cmpxchg(&stp_ctl_opened, 0, 1) != 0)
		return -EBUSY;
	atomic_set(&stp_detached, 0);   /* attached (again): we own it */
	atomic_set(&stp_stapio, task_tgid_nr(current));
	/* this module wakes its reader: no need to poll on a timer */
	stp_ctl_send(STP_MSG_WAKES, NULL, 0);
	/* a stream: no f_pos lock, so that stapio can read replies in one
	 * thread while another is inside a long START/EXIT write() */
	return stream_open(inode, file);
}

static int stp_ctl_release(struct inode *inode, struct file *file)
{
	/* stapio went away: stop probing (without end probes) so that the
	 * module can be removed.  A no-op after a normal EXIT; not done
	 * after DETACH (staprun -L), the module runs on without a reader. */
	if (!atomic_read(&stp_detached))
		stp_session_stop(0);
	atomic_set(&stp_ctl_opened, 0);
	return 0;
}

static const struct file_operations stp_ctl_fops = {
	.owner = THIS_MODULE,
	.open = stp_ctl_open,
	.release = stp_ctl_release,
	.read = stp_ctl_read,
	.write = stp_ctl_write,
	.poll = stp_ctl_poll,
	.llseek = STP_NO_LLSEEK,
};

int stp_transport_init(void)
{
	struct dentry *d;

	stp_top_dir = debugfs_lookup(STP_DEBUGFS_DIR, NULL);
	if (!stp_top_dir) {
		stp_top_dir = debugfs_create_dir(STP_DEBUGFS_DIR, NULL);
		if (IS_ERR(stp_top_dir)) {
			/* lost a race with another module creating it? */
			stp_top_dir = debugfs_lookup(STP_DEBUGFS_DIR, NULL);
			if (!stp_top_dir)
				return -ENOENT;
		} else {
			dget(stp_top_dir);  /* same reference as lookup */
		}
	}
	stp_mod_dir = debugfs_create_dir(THIS_MODULE->name, stp_top_dir);
	if (IS_ERR(stp_mod_dir)) {
		int rc = PTR_ERR(stp_mod_dir);

		stp_mod_dir = NULL;
		stp_transport_exit();
		return rc;
	}
	d = debugfs_create_file(STP_CMD_FILE, 0600, stp_mod_dir, NULL,
				&stp_ctl_fops);
	if (IS_ERR(d)) {
		stp_transport_exit();
		return PTR_ERR(d);
	}
	stp_chan = relay_open(STP_RELAY_BASE, stp_mod_dir,
			      STP_RELAY_SUBBUF_SIZE,
			      max_t(size_t, 2, stp_bufsize / STP_RELAY_SUBBUF_SIZE),
			      &stp_relay_cb, NULL);
	if (!stp_chan) {
		stp_transport_exit();
		return -ENOMEM;
	}
	return 0;
}

void stp_transport_exit(void)
{
	stp_reader_wake_stop();
	if (stp_chan) {
		struct rchan *chan = stp_chan;

		stp_chan = NULL;
		relay_close(chan);
	}
	if (stp_mod_dir) {
		debugfs_remove(stp_mod_dir);
		stp_mod_dir = NULL;
	}
	if (stp_top_dir) {
		/* remove the shared directory when we were its last user */
		if (simple_empty(stp_top_dir))
			debugfs_remove(stp_top_dir);
		dput(stp_top_dir);
		stp_top_dir = NULL;
	}
}
