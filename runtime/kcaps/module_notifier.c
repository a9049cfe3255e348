/* module_notifier - register_module_notifier() tells of modules COMING
 * and GOING with their struct module (->name) (6.1 and 6.12).
 * @serves kprobes/modules
 */
#include <linux/module.h>

static int stp_kcap_module_notifier_fn(struct notifier_block *nb,
				       unsigned long what, void *data)
{
	struct module *m = data;

	return m->name[0] && (what == MODULE_STATE_COMING ||
			      what == MODULE_STATE_GOING);
}

static void stp_kcap_module_notifier(struct notifier_block *nb)
{
	nb->notifier_call = stp_kcap_module_notifier_fn;
	register_module_notifier(nb);
	unregister_module_notifier(nb);
}
