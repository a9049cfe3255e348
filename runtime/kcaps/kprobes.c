/* kprobes - kprobes and kretprobes as the runtime registers them:
 * register_kprobes()/unregister_kprobes(), pre_handler(kp, regs),
 * kretprobe handler(ri, regs) with per-instance data and get_kretprobe(ri)
 * (6.1 and 6.12).
 * @serves kprobes/register
 */
#include <linux/kprobes.h>

static int stp_kcap_kprobes_pre(struct kprobe *kp, struct pt_regs *regs)
{
	return 0;
}

static int stp_kcap_kprobes_ret(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	return get_kretprobe(ri) != NULL && ri->data[0];
}

static void stp_kcap_kprobes(struct kprobe **kps, struct kretprobe **krps)
{
	kps[0]->pre_handler = stp_kcap_kprobes_pre;
	krps[0]->handler = stp_kcap_kprobes_ret;
	krps[0]->entry_handler = stp_kcap_kprobes_ret;
	krps[0]->data_size = 8;
	register_kprobes(kps, 1);
	unregister_kprobes(kps, 1);
	register_kretprobes(krps, 1);
	unregister_kretprobes(krps, 1);
}
