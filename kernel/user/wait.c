/*
 * kernel/user/wait.c - wait4(2): reap a forked child that has ended.
 *
 * sys_wait4(pid, status, options, rusage):
 *   [1] options: WNOHANG, WUNTRACED, WCONTINUED, __WNOTHREAD, __WCLONE,
 *       __WALL, others -EINVAL (Linux's check); pid INT_MIN -ESRCH;
 *   [2] under process_tree_lock, the caller's process's children that
 *       pid names (pid > 0: that one; -1: any; 0 and < -1, a process
 *       group, are "any" too: rtk has no process groups) and that the
 *       options admit (a child whose exit signal is not SIGCHLD is a
 *       "clone" child: only __WCLONE or __WALL see it, as in Linux);
 *       none: -ECHILD;
 *   [3] a zombie among them: unlinked (reaped) under the lock, its
 *       status and pid taken, its last reference dropped after;
 *   [4] none yet: WNOHANG answers 0; otherwise sleep until a child's
 *       exit moves child_events (process_tree.c draws the race), or a
 *       signal ends the sleep (-EINTR), and go to [2];
 *   [5] the status (Linux's encoding: exit code << 8, or the signal
 *       number; never the 0x80 core bit, rtk writes no core) and a
 *       zeroed rusage to user memory: a bad pointer is -EFAULT with the
 *       child reaped all the same, as Linux's kernel_wait4 does.
 * WUNTRACED and WCONTINUED report nothing: rtk has no stopped children.
 * waitid(2) is not implemented (-ENOSYS).
 * Any thread of the process may reap any child of it (Linux's default
 * without __WNOTHREAD, which rtk accepts and ignores: a process's
 * children are its own, not a thread's).
 * Linux counterpart: kernel/exit.c (kernel_wait4, do_wait,
 * eligible_child, wait_task_zombie).
 */
#include "kernel/user/process_tree.h"
#include "kernel/user/process.h"
#include "kernel/user/syscalls.h"
#include "kernel/user/uaccess.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "kernel/signal.h"
#include "lib/bug.h"
#include "lib/errno.h"

#define WAIT4_OPTIONS (WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | \
		       __WCLONE | __WALL)

/* struct rusage on x86_64: two struct timevals and 14 longs */
#define RUSAGE_SIZE 144

/* eligible_child - does wait4(pid, options) consider c?
 * Locking: process_tree_lock held. */
static bool eligible_child(const struct process *c, int pid,
			   unsigned int options)
{
	WARN_ON(!spin_is_locked(&process_tree_lock));
	if (pid > 0 && c->tgid != pid)
		return false;
	if (options & __WALL)
		return true;
	return (c->exit_signal != SIGCHLD) == !!(options & __WCLONE);
}

/*
 * reap_one - [2] and [3]: 0 with *found set to a reaped zombie (the
 * caller's reference), -ECHILD with no eligible child, -EAGAIN when
 * there are some and none has ended (*seen: child_events then).
 * Context: task.  Locking: takes process_tree_lock.
 */
static int reap_one(struct process *self, int pid, unsigned int options,
		    struct process **found, unsigned long *seen)
{
	struct process *c;
	int ret = -ECHILD;

	spin_lock(&process_tree_lock);
	*seen = self->child_events;
	list_for_each_entry(c, &self->children, sibling) {
		if (!eligible_child(c, pid, options))
			continue;
		ret = -EAGAIN;
		if (c->zombie) {
			list_del_init(&c->sibling);
			c->parent = NULL;
			*found = c;		/* the tree's reference */
			ret = 0;
			break;
		}
	}
	spin_unlock(&process_tree_lock);
	return ret;
}

/* wait_child_event - [4]'s sleep: 0 once child_events moved past seen,
 * -EINTR for a signal.  Context: task, sleeps. */
static int wait_child_event(struct process *self, unsigned long seen)
{
	struct wait_queue_entry we = { .task = NULL };
	int ret = 0;

	might_sleep();
	for (;;) {
		prepare_to_wait(&self->wait_chldexit, &we, TASK_INTERRUPTIBLE);
		if (READ_ONCE(self->child_events) != seen)
			break;
		if (signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		schedule();
	}
	finish_wait(&self->wait_chldexit, &we);
	return ret;
}

long sys_wait4(int pid, int __user *stat_addr, int options,
	       void __user *rusage)
{
	static const char zero_rusage[RUSAGE_SIZE];
	struct process *self = current_process(), *child = NULL;
	unsigned int opts = (unsigned int)options;
	unsigned long seen;
	int status, ret;

	might_sleep();
	if (opts & ~WAIT4_OPTIONS)					/* [1] */
		return -EINVAL;
	if (pid == (int)0x80000000u)	/* -pid overflows: Linux too */
		return -ESRCH;
	for (;;) {
		ret = reap_one(self, pid, opts, &child, &seen);	/* [2] [3] */
		if (ret != -EAGAIN)
			break;
		if (opts & WNOHANG)					/* [4] */
			return 0;
		ret = wait_child_event(self, seen);
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	status = READ_ONCE(child->exit_status);
	ret = child->tgid;
	process_put(child);
	if (stat_addr && copy_to_user(stat_addr, &status, sizeof(status)))
		return -EFAULT;						/* [5] */
	if (rusage && copy_to_user(rusage, zero_rusage, RUSAGE_SIZE))
		return -EFAULT;
	return ret;
}
