/* tracepoints - tracepoints as the runtime attaches to them:
 * for_each_kernel_tracepoint(), tracepoint_probe_register()/unregister()
 * on struct tracepoint, tracepoint_synchronize_unregister(), and the
 * module notifier's struct tp_module (6.1 and 6.12).
 * @serves tracepoints/register
 */
#include <linux/tracepoint.h>
#include <linux/module.h>

static void stp_kcap_tracepoints_each(struct tracepoint *tp, void *priv)
{
}

static int stp_kcap_tracepoints_mod(struct notifier_block *nb,
				    unsigned long what, void *data)
{
	struct tp_module *tm = data;

	return tm->mod->name[0] && what == MODULE_STATE_COMING;
}

static void stp_kcap_tracepoints(struct tracepoint *tp, struct notifier_block *nb)
{
	nb->notifier_call = stp_kcap_tracepoints_mod;
	for_each_kernel_tracepoint(stp_kcap_tracepoints_each, NULL);
	tracepoint_probe_register(tp, (void *)stp_kcap_tracepoints_each, NULL);
	tracepoint_probe_unregister(tp, (void *)stp_kcap_tracepoints_each, NULL);
	tracepoint_synchronize_unregister();
	register_tracepoint_module_notifier(nb);
	unregister_tracepoint_module_notifier(nb);
	(void)tp->name;
}
