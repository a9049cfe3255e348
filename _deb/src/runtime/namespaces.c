/* namespaces.c - the target namespaces of the namespace-aware tapset
 * functions (ns_pid(), ns_uid(), ...): with stap --target-namespaces=PID
 * (staprun -N PID, the module parameter _stp_namespaces_pid) the pid and
 * user namespaces of process PID, taken when the module is loaded and
 * held until it is removed; without it none (the tapset then uses
 * stapio's). */
#include <linux/cred.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched/task.h>
#include <linux/user_namespace.h>
#include "stp_internal.h"

static int _stp_namespaces_pid;
module_param(_stp_namespaces_pid, int, 0444);
MODULE_PARM_DESC(_stp_namespaces_pid,
		 "the process whose namespaces the ns_*() functions use");

static struct pid_namespace *stp_target_pidns;
static struct user_namespace *stp_target_userns;

/**
 * stp_namespaces_init - take the namespaces of process _stp_namespaces_pid
 * (nothing when it is 0).  Returns 0, or -ESRCH when there is no such
 * live process.  Module load; may sleep.
 */
int stp_namespaces_init(void)
{
	struct pid *pid;
	struct task_struct *t = NULL;
	struct pid_namespace *ns;
	const struct cred *cred;

	if (_stp_namespaces_pid <= 0)
		return 0;
	pid = find_get_pid(_stp_namespaces_pid);
	if (pid) {
		t = get_pid_task(pid, PIDTYPE_PID);
		put_pid(pid);
	}
	if (!t)
		goto none;
	ns = task_active_pid_ns(t);   /* NULL once it has exited */
	if (ns)
		stp_target_pidns = get_pid_ns(ns);
	cred = get_task_cred(t);
	stp_target_userns = get_user_ns(cred->user_ns);
	put_cred(cred);
	put_task_struct(t);
	if (stp_target_pidns)
		return 0;
	put_user_ns(stp_target_userns);
	stp_target_userns = NULL;
none:
	pr_err("systemtap: --target-namespaces: no process %d\n",
	       _stp_namespaces_pid);
	return -ESRCH;
}

/**
 * stp_namespaces_exit - drop what stp_namespaces_init() took.  Module
 * unload; may sleep.
 */
void stp_namespaces_exit(void)
{
	if (stp_target_pidns)
		put_pid_ns(stp_target_pidns);
	if (stp_target_userns)
		put_user_ns(stp_target_userns);
	stp_target_pidns = NULL;
	stp_target_userns = NULL;
}

/**
 * stp_target_pid_ns - see stp_runtime.h.  Context: any.
 */
struct pid_namespace *stp_target_pid_ns(void)
{
	return stp_target_pidns;
}

/**
 * stp_target_user_ns - see stp_runtime.h.  Context: any.
 */
struct user_namespace *stp_target_user_ns(void)
{
	return stp_target_userns;
}
