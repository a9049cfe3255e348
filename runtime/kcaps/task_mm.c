/* task_mm - the task and mm accessors the runtime uses: pid_task() of
 * find_vpid(), get_task_mm()/mmput(), rcu mm->exe_file, mmap_read_lock(),
 * find_vma(), task_pt_regs(), task_work_add(TWA_RESUME) (6.1 and 6.12).
 * @serves runtime/tasks
 */
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/task_work.h>

static void stp_kcap_task_mm(pid_t pid, struct callback_head *w)
{
	struct task_struct *t = pid_task(find_vpid(pid), PIDTYPE_PID);
	struct mm_struct *mm = get_task_mm(t);
	struct file *exe = rcu_dereference(mm->exe_file);

	mmap_read_lock(mm);
	(void)find_vma(mm, 0);
	mmap_read_unlock(mm);
	(void)task_pt_regs(t)->ip;
	(void)exe;
	mmput(mm);
	task_work_add(t, w, TWA_RESUME);
}
