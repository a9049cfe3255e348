/* stp_transport_msgs.h - the wire formats between a probe module and
 * stapio.  Shared by the kernel runtime and the user-space loader, so it
 * uses only the fixed-width types of <linux/types.h> (available to both).
 *
 * Files, under debugfs:
 *   /sys/kernel/debug/systemtap/<module>/.cmd     control channel
 *   /sys/kernel/debug/systemtap/<module>/traceN   relay output of CPU N
 *
 * Control channel (.cmd, opened O_RDWR by exactly one stapio):
 *   Every message is a struct stp_msg_hdr followed by hdr.len payload
 *   bytes.  A write() carries exactly one whole message.  A read()
 *   returns as many whole messages as fit in the caller's buffer (at least
 *   one: a buffer smaller than the next message gets -EMSGSIZE), blocks
 *   while there is none unless O_NONBLOCK (-EAGAIN), and supports poll().
 *   Messages queued from probe context, and relay output, wake a
 *   blocked reader or poller within STP_CMD_POLL_MS milliseconds (one
 *   wake for all that comes meanwhile); after such a wake .cmd polls
 *   readable once even with no message queued: read the relay files.
 *
 *   stapio -> module
 *     STP_MSG_START     no payload.  Register probes, run begin probes.
 *                       Answered by STP_MSG_START (struct stp_msg_status).
 *     STP_MSG_EXIT      no payload.  Unregister probes, run end probes.
 *                       Answered by STP_MSG_EXIT (struct stp_msg_exit).
 *                       Valid in any state; also the answer to
 *                       STP_MSG_REQUEST_EXIT.
 *     STP_MSG_TARGET    struct stp_msg_target: the pid target() returns
 *                       (staprun -c/-x); sent before START.
 *     STP_MSG_DETACH    no payload: keep running when .cmd is closed
 *                       (staprun -L); a later open (-A) undoes it.
 *   module -> stapio
 *     STP_MSG_START     struct stp_msg_status: 0 = running, else -errno;
 *                       and the number of probes registered.
 *     STP_MSG_EXIT      struct stp_msg_exit: end probes have run and every
 *                       byte of output is in the relay files.
 *     STP_MSG_REQUEST_EXIT  no payload: the script called exit() or hit
 *                       MAXERRORS/MAXSKIPPED; stapio should send EXIT.
 *     STP_MSG_WARNING   text (no NUL), complete line(s) for stderr,
 *     STP_MSG_ERROR     e.g. "WARNING: ...\n" / "ERROR: ... near ...\n".
 *     STP_MSG_WAKES     no payload, queued at each open of .cmd: this
 *                       module wakes its reader as said above, so that
 *                       it may poll .cmd with no timeout (a module that
 *                       does not send it is polled every STP_CMD_POLL_MS).
 *     STP_MSG_SYSTEM    text (no NUL): a command the script's system()
 *                       asks stapio to run with /bin/sh -c, in the
 *                       background, as stapio's user, stdin /dev/null,
 *                       stdout and stderr stapio's own.
 *
 * Relay files (traceN): a stream of records, each a struct stp_relay_hdr
 * followed by hdr.len bytes of script output.  Records are written whole
 * but a read() may end inside one: readers reassemble records across
 * read() boundaries.  hdr.seq is a global sequence number (starting at 1,
 * incremented per record across all CPUs); output in seq order is the
 * order in which probe hits finished.  Within one traceN file seq
 * increases.  A gap in seq means a record is still in flight on another
 * CPU (briefly) or was lost because that CPU's buffer was full.  A record
 * with len 0 (the script's switch_file()) asks stapio to write the records
 * after it in seq order to the next output file (with -o).
 */
#ifndef STP_TRANSPORT_MSGS_H
#define STP_TRANSPORT_MSGS_H

#include <linux/types.h>

#define STP_DEBUGFS_DIR   "systemtap"
#define STP_CMD_FILE      ".cmd"
#define STP_RELAY_BASE    "trace"
#define STP_CMD_POLL_MS   20

enum stp_msg_type {
	STP_MSG_START = 1,
	STP_MSG_EXIT = 2,
	STP_MSG_REQUEST_EXIT = 3,
	STP_MSG_WARNING = 4,
	STP_MSG_ERROR = 5,
	STP_MSG_TARGET = 6,
	STP_MSG_DETACH = 7,
	STP_MSG_SYSTEM = 8,
	STP_MSG_PROGRESS = 9,
	STP_MSG_WAKES = 10,
};

/* Largest payload of one control message. */
#define STP_MSG_MAX_PAYLOAD 1024

struct stp_msg_hdr {
	__u32 type;                /* enum stp_msg_type */
	__u32 len;                 /* payload bytes following */
};

struct stp_msg_status {
	__s32 status;              /* 0 or -errno */
	__u32 probes;              /* probes of the module (START reply) */
};

struct stp_msg_target {
	__s32 pid;                 /* target(): the -c command or -x PID */
};

struct stp_msg_exit {
	__s32 status;              /* 0 */
	__u32 errors;              /* probe hits that ended with an error */
	__u32 skipped;             /* probe hits skipped (busy, lock timeout) */
	__u32 lost;                /* output records dropped (relay full) */
	__u32 suppressed;          /* --suppress-handler-errors: hits that
	                            * ended with an error (then errors is 0) */
};

/* Progress of a long registration (module -> stapio, during START's
 * write): sent once it has taken STP_PROGRESS_AFTER_MS, then every
 * quarter second, and a last time with done == total. */
struct stp_msg_progress {
	__u32 done;                /* probes registered (or tried) so far */
	__u32 total;               /* probes to register */
	__u32 ms;                  /* since the registration began */
};

#define STP_RELAY_MAGIC 0x53545052u  /* "STPR" */

struct stp_relay_hdr {
	__u32 magic;               /* STP_RELAY_MAGIC */
	__u32 len;                 /* bytes of output following */
	__u64 seq;                 /* global record sequence number */
};

#endif
