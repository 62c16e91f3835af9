/*
 * kernel/user/exit.c - the end of user threads and processes: exit,
 * exit_group, a kill, a fault in ring 3.
 *
 * do_exit():
 *   [0] PF_EXITING, first (Linux: exit_signals() at the top of do_exit):
 *       from here on the thread is on its way out for everyone who asks,
 *       including the waiter [3] wakes (see the race below); set under
 *       the thread's pi_lock, so that a PI futex waiter either attached
 *       before (and the thread's exit_pi_state_list, right after, hands
 *       that futex on) or sees PF_EXITING and gets -ESRCH
 *       (kernel/futex/pi_state.c attach_to_pi_owner; Linux: the
 *       futex_state in futex_exit_release); then the thread's
 *       RLIMIT_NPROC charge goes back (rlimit.c);
 *   [1] CLONE_CHILD_CLEARTID: write 0 to the thread's TID word (and wake
 *       a joiner once futexes exist: a FUTEX_WAKE there);
 *   [2] exit_mm: the task keeps the mm as its active_mm (its CPU still
 *       runs on those tables until the final switch, which drops that
 *       reference with mmdrop_delayed: core.c switch_mm) and drops
 *       its mm_users reference: the last thread's mmput unmaps and frees
 *       every user page (exit_mmap); then the fd table's reference
 *       (exit_files: the last one closes every fd) and the fs_struct's;
 *   [3] unlist the thread; the last one sets the status (unless a group
 *       exit chose it), hands its children on and becomes a zombie for
 *       its parent's wait4 with SIGCHLD sent (exit_notify,
 *       process_tree.c), and completes `exited` for a kernel waiter;
 *       the last but an execve's caller completes its exec_wait
 *       (exec.c);
 *   [4] the thread's process reference, then the kthread's exit
 *       (task_exit: the final switch; the scheduler frees the task).
 *
 * Why [0] comes first: [3] wakes the waiter while this thread still
 * holds its old mm as active_mm ([2]) and its process reference ([4]).
 * With PF_EXITING set only by task_exit, a waiter that counts "threads
 * still exiting" before it measures memory saw none:
 *
 *	CPU0 (process_wait, then count)	CPU1 (the last thread)
 *					[3] complete_all(&proc->exited)
 *	process_wait() returns
 *	no task PF_EXITING or TASK_DEAD:
 *	  settled; deferred_flush: nothing
 *	mm_count_live(): one mm too many
 *					[4] task_exit: PF_EXITING, final
 *					  switch: mmdrop_delayed(mm)
 *
 * (test_user's page-leak cases failed 1 run in 6 so.)  Forced by
 * user:test_user_last_thread_counts_as_exiting_after_the_wake_up, which
 * parks the thread in user_exit_woken_window.
 * Linux counterpart: kernel/exit.c (do_exit, exit_mm, do_group_exit,
 * zap_other_threads), kernel/fork.c (mm_release: clear_child_tid).
 */
#include "kernel/user/process.h"
#include "kernel/user/rlimit.h"
#include "kernel/user/process_tree.h"
#include "kernel/futex/futex.h"
#include "kernel/user/uaccess.h"
#include "kernel/user/uapi.h"
#include "kernel/user/syscalls.h"
#include "kernel/fs/fs_struct.h"
#include "kernel/fs/fdtable.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "kernel/irqflags.h"
#include "kernel/printk.h"
#include "kernel/debug/hooks.h"
#include "lib/bug.h"

DEFINE_RACE_WINDOW(user_exit_woken_window);

/* exit_mm - [2].  Context: the exiting user thread. */
static void exit_mm(struct task_struct *p)
{
	struct mm_struct *mm = p->mm;
	unsigned long flags;

	mmgrab(mm);			/* active_mm's, dropped after the switch */
	raw_local_irq_save(flags);	/* the switch reads mm/user: all at once */
	p->mm = NULL;
	p->active_mm = mm;
	p->user = NULL;			/* no FPU save into the freed struct */
	raw_local_irq_restore(flags);
	mmput(mm);
}

void do_exit(int status)
{
	struct task_struct *p = current;
	struct user_thread *t = p->user;
	struct process *proc;
	bool last;

	might_sleep();
	BUG_ON(!t);
	proc = t->proc;
	raw_spin_lock_irq(&p->pi_lock);					/* [0] */
	p->flags |= PF_EXITING;
	raw_spin_unlock_irq(&p->pi_lock);
	exit_pi_state_list();
	/* the charge goes back before [1] wakes a joiner, so a joiner's
	 * next clone is not refused for a thread it saw exit; the kernel
	 * stack is freed later (free_dead_stacks), inside the reserve */
	process_uncharge_thread(proc);
	if (t->clear_child_tid) {					/* [1] */
		put_user_u32(0, t->clear_child_tid);
		futex_wake_tid(t->clear_child_tid);
	}
	exit_mm(p);							/* [2] */
	exit_files(p);		/* the last thread's closes every fd */
	exit_fs(p);
	spin_lock(&proc->lock);						/* [3] */
	list_del(&t->node);
	last = --proc->nr_threads == 0;
	if (last && !proc->group_exit)
		proc->exit_status = status;
	if (proc->exec_task && proc->nr_threads == 1)
		complete(&proc->exec_wait);	/* pairs with exec.c de_thread */
	spin_unlock(&proc->lock);
	kfree(t);
	if (last) {
		exit_notify(proc);	/* children handed on; a zombie now */
		complete_all(&proc->exited);
	}
	trace_race_window(&user_exit_woken_window);	/* test-only: [3]-[4] */
	process_put(proc);						/* [4] */
	task_exit(status);
}

void do_group_exit(int status)
{
	struct process *proc = current_process();
	struct user_thread *t;

	BUG_ON(!proc);
	spin_lock(&proc->lock);
	if (proc->exec_task && proc->exec_task != current) {
		/* killed by another thread's execve (exec.c de_thread): this
		 * thread goes alone, the process lives on, as Linux's
		 * do_group_exit with group_exec_task set */
		spin_unlock(&proc->lock);
		do_exit(status);
	}
	if (!proc->group_exit) {
		proc->group_exit = true;
		proc->exit_status = status;
	}
	/* a listed thread's task is alive: it unlists itself under this
	 * lock before it can exit (do_exit [3]) */
	list_for_each_entry(t, &proc->threads, node)
		if (t->task != current)
			kernel_signal(t->task);
	spin_unlock(&proc->lock);
	do_exit(status);
}
