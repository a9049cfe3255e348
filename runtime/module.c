/* module.c - module entry points and the session state machine:
 * LOADED -START-> STARTING -> RUNNING -EXIT-> STOPPING -> STOPPED. */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include "stp_internal.h"

union stp_gate stp_gate = {
	.state = ATOMIC_INIT(STP_STATE_LOADED),
	.exit_requested = ATOMIC_INIT(0),
};
atomic_t stp_errors = ATOMIC_INIT(0);
atomic_t stp_skipped = ATOMIC_INIT(0);
atomic_t stp_skipped_reentrant = ATOMIC_INIT(0);
atomic_t stp_skipped_lock = ATOMIC_INIT(0);
atomic_t stp_error_exit = ATOMIC_INIT(0);

static DEFINE_MUTEX(stp_session_mutex);

/* stp_set_state - move the session to @state (enum stp_state) and tell
 * every CPU's copy of the gate.  Context: stp_session_mutex held. */
static void stp_set_state(int state)
{
	atomic_set(&stp_session_state, state);
	stp_gate_publish();
}

int stp_session_start(void)
{
	int rc = 0;

	mutex_lock(&stp_session_mutex);
	if (atomic_read(&stp_session_state) != STP_STATE_LOADED) {
		rc = -EALREADY;
		goto out;
	}
	stp_set_state(STP_STATE_STARTING);
	rc = stp_probes_register();
	if (rc) {
		stp_set_state(STP_STATE_STOPPED);
		goto out;
	}
	stp_run_kind(STP_PROBE_BEGIN, STP_STATE_STARTING);
	stp_set_state(STP_STATE_RUNNING);
	stp_uprocess_existing();        /* .begin of what already runs */
out:
	mutex_unlock(&stp_session_mutex);
	return rc;
}

void stp_session_stop(int run_end)
{
	int was;

	mutex_lock(&stp_session_mutex);
	was = atomic_read(&stp_session_state);
	if (was == STP_STATE_STARTING || was == STP_STATE_RUNNING) {
		stp_set_state(STP_STATE_STOPPING);
		smp_mb();
		stp_probes_unregister();
		if (run_end && !stp_abort_requested_p()) {
			/* end probes, skipped once errors end the run; then,
			 * if they did, the error probes */
			stp_run_kind(STP_PROBE_END, STP_STATE_STOPPING);
			if (atomic_read(&stp_error_exit))
				stp_run_kind(STP_PROBE_ERROR,
					     STP_STATE_STOPPING);
		}
		if (run_end)
			stp_timing_report();     /* -t */
	}
	stp_set_state(STP_STATE_STOPPED);
	if (run_end) {
		struct stp_msg_exit ex = {
			.status = 0,
			.errors = atomic_read(&stp_errors),
			.skipped = atomic_read(&stp_skipped),
			.lost = stp_relay_lost(),
		};

		if (ex.errors || ex.skipped)
			stp_ctl_send_text(STP_MSG_WARNING,
				"WARNING: Number of errors: %u, skipped probes: %u\n",
				ex.errors, ex.skipped);
#ifdef STP_SUPPRESS_HANDLER_ERRORS
		/* they ended no run: not the run's failure */
		ex.suppressed = ex.errors;
		ex.errors = 0;
#endif
		stp_timing_warn_skipped();       /* -t */
		if (ex.lost)
			stp_ctl_send_text(STP_MSG_WARNING,
				"WARNING: There were %u transport failures (output lost).\n",
				ex.lost);
		stp_ctl_send(STP_MSG_EXIT, &ex, sizeof(ex));
	}
	mutex_unlock(&stp_session_mutex);
}

/* stp_maps_free / stp_maps_alloc - the script's arrays and statistics
 * (see stp_module.maps).  Process context; may sleep. */
static void stp_maps_free(void)
{
	int i;

	for (i = 0; i < stp_module.nmaps; i++)
		stp_map_free(stp_module.maps[i]);
}

static int stp_maps_alloc(void)
{
	int i, rc;

	for (i = 0; i < stp_module.nmaps; i++) {
		rc = stp_map_alloc(stp_module.maps[i]);
		if (rc) {
			stp_maps_free();
			return rc;
		}
	}
	return 0;
}

static int __init stp_init(void)
{
	int rc;

	rc = stp_namespaces_init();
	if (rc)
		return rc;
	rc = stp_contexts_alloc();
	if (rc) {
		stp_namespaces_exit();
		return rc;
	}
	rc = stp_maps_alloc();
	if (rc) {
		stp_contexts_free();
		stp_namespaces_exit();
		return rc;
	}
	stp_locks_init();
	if (stp_module.init_globals)
		stp_module.init_globals();
	stp_usyms_init();                       /* ustack.c */
	rc = stp_transport_init();
	if (rc) {
		stp_usyms_exit();
		stp_maps_free();
		stp_contexts_free();
		stp_namespaces_exit();
		return rc;
	}
	return 0;
}

static void __exit stp_exit(void)
{
	stp_session_stop(0);
	stp_raise_sync();
	stp_transport_exit();
	stp_usyms_exit();
	stp_maps_free();
	stp_contexts_free();
	stp_namespaces_exit();
}

module_init(stp_init);
module_exit(stp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("SystemTap-compatible probe module");
