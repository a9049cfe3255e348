/* print.c - per-CPU output buffering; one relay record per flush. */
#include <linux/module.h>
#include <linux/irqflags.h>
#include "stp_internal.h"

/* Global record sequence number; see stp_transport_msgs.h. */
static atomic64_t stp_seq = ATOMIC64_INIT(0);

void stp_print_flush(struct stp_context *c)
{
	struct stp_print_buf *pb = stp_print_buf_of(c);
	unsigned long flags;

	BUILD_BUG_ON(offsetof(struct stp_print_buf, data) !=
		     offsetof(struct stp_print_buf, hdr) + sizeof(pb->hdr));
	if (!pb->len)
		return;
	pb->hdr.magic = STP_RELAY_MAGIC;
	pb->hdr.len = pb->len;
	/* seq taken and record written with interrupts off on this CPU, so
	 * each relay file is in increasing seq order. */
	if (pb->wait_budget_ns)
		stp_relay_wait_room(sizeof(pb->hdr) + pb->len,
				    &pb->wait_budget_ns);
	local_irq_save(flags);
	pb->hdr.seq = atomic64_inc_return(&stp_seq);
	stp_relay_write(&pb->hdr, sizeof(pb->hdr) + pb->len);
	local_irq_restore(flags);
	pb->len = 0;
}

void stp_print(struct stp_context *c, const char *s, size_t len)
{
	struct stp_print_buf *pb = stp_print_buf_of(c);

	while (len) {
		size_t room = STP_PRINT_BUF_SIZE - pb->len;
		size_t n;

		if (!room) {
			stp_print_flush(c);
			continue;
		}
		n = min(room, len);
		memcpy(pb->data + pb->len, s, n);
		pb->len += n;
		s += n;
		len -= n;
	}
}

void stp_print_str(struct stp_context *c, const char *s)
{
	stp_print(c, s, strlen(s));
}

void stp_printf(struct stp_context *c, const char *fmt, ...)
{
	struct stp_print_buf *pb = stp_print_buf_of(c);
	size_t room = STP_PRINT_BUF_SIZE - pb->len;
	va_list ap;
	int n;

	/* Try in place; vsnprintf needs room for its NUL. */
	va_start(ap, fmt);
	n = vsnprintf(pb->data + pb->len, room, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < room) {
		pb->len += n;
		return;
	}
	/* Did not fit: flush what was there and format into the empty
	 * buffer, truncating output longer than the whole buffer. */
	stp_print_flush(c);
	va_start(ap, fmt);
	n = vsnprintf(pb->data, STP_PRINT_BUF_SIZE, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	pb->len = min_t(size_t, n, STP_PRINT_BUF_SIZE - 1);
}

void stp_switch_file(struct stp_context *c)
{
	struct stp_print_buf *pb = stp_print_buf_of(c);
	struct stp_relay_hdr h = { .magic = STP_RELAY_MAGIC, .len = 0 };
	unsigned long flags;

	stp_print_flush(c);
	if (pb->wait_budget_ns)
		stp_relay_wait_room(sizeof(h), &pb->wait_budget_ns);
	local_irq_save(flags);
	h.seq = atomic64_inc_return(&stp_seq);
	stp_relay_write(&h, sizeof(h));
	local_irq_restore(flags);
}
