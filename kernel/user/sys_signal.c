/*
 * kernel/user/sys_signal.c - signals as Linux programs set them up, with
 * delivery to a handler left to issue 30: rt_sigaction keeps a
 * per-process handler table, rt_sigprocmask a per-thread mask,
 * rt_sigpending answers from a per-thread and a per-process pending set,
 * and kill, tgkill and tkill decide what a signal does.
 *
 * What a sent signal does (send_signal), as Linux decides it:
 *   [1] SIGKILL ends the process;
 *   [2] an ignored signal (SIG_IGN, or SIG_DFL whose default is to
 *       ignore: SIGCHLD, SIGCONT, SIGURG, SIGWINCH) is dropped;
 *   [3] SIG_DFL whose default is to terminate (or to dump core, which
 *       rtk does not write) ends the process, unless every candidate
 *       thread blocks it: then it stays pending;
 *   [4] anything else -- a handler, a blocked signal, a stop signal --
 *       is marked pending (on the thread for tgkill/tkill, on the
 *       process for kill).  rtk runs no handler yet and has no job
 *       control, so a handled signal is recorded and not fatal, which
 *       is what glibc-linked programs that install SIGINT/SIGTERM
 *       handlers need from part 1 (issue 29 item 6).
 * A pending signal that terminates by default ends the process when a
 * thread unblocks it (rt_sigprocmask), as its delivery would.
 * Linux counterpart: kernel/signal.c (do_sigaction, sigprocmask,
 * do_sigpending, kill_pid_info, do_tkill, sig_kernel_ignore/stop).
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/process.h"
#include "kernel/user/uaccess.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

#define SIG_KERNEL_ONLY (sigmask(SIGKILL) | sigmask(SIGSTOP))
#define SIG_KERNEL_IGNORE                                                    \
	(sigmask(SIGCHLD) | sigmask(SIGCONT) | sigmask(SIGURG) |             \
	 sigmask(SIGWINCH))
#define SIG_KERNEL_STOP                                                      \
	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) |            \
	 sigmask(SIGTTOU))

static bool valid_signal(int sig)
{
	return sig >= 1 && sig <= _NSIG;
}

/* sig_ignored - would sig be dropped on arrival?  Locking: p->lock. */
static bool sig_ignored(const struct process *p, int sig)
{
	unsigned long h = p->action[sig - 1].sa_handler;

	return h == SIG_IGN || (h == SIG_DFL && (sigmask(sig) & SIG_KERNEL_IGNORE));
}

/* sig_fatal - does sig end the process by default?  Locking: p->lock. */
static bool sig_fatal(const struct process *p, int sig)
{
	return p->action[sig - 1].sa_handler == SIG_DFL &&
	       !(sigmask(sig) & (SIG_KERNEL_IGNORE | SIG_KERNEL_STOP));
}

/* all_block - do all of p's threads block sig?  Locking: p->lock. */
static bool all_block(struct process *p, int sig)
{
	struct user_thread *t;

	list_for_each_entry(t, &p->threads, node)
		if (!(t->blocked & sigmask(sig)))
			return false;
	return true;
}

/*
 * send_signal - the steps of the header for sig (valid, not 0) sent to
 * process p, or to its thread t when t is not NULL.
 * Context: task.  Locking: takes p->lock.
 */
static void send_signal(struct process *p, struct user_thread *t, int sig)
{
	might_sleep();
	spin_lock(&p->lock);
	if (sig == SIGKILL) {						/* [1] */
		__process_group_kill(p, SIGKILL);
	} else if (sig_ignored(p, sig)) {				/* [2] */
		;
	} else if (sig_fatal(p, sig) &&					/* [3] */
		   (t ? !(t->blocked & sigmask(sig)) : !all_block(p, sig))) {
		__process_group_kill(p, sig);
	} else if (t) {							/* [4] */
		t->pending |= sigmask(sig);
	} else {
		p->shared_pending |= sigmask(sig);
	}
	spin_unlock(&p->lock);
}

/*
 * kill_process - the kernel's own send: sig (1.._NSIG) to process p, as a
 * kill(2) would send it -- the parent's SIGCHLD at a child's exit
 * (process_tree.c), SIGPIPE for a write to a pipe with no reader
 * (kernel/fs/pipe.c).  0, or -EINVAL for a bad sig.
 * Context: task.  Locking: takes p->lock (so not under it).
 */
int kill_process(struct process *p, int sig)
{
	might_sleep();
	if (!valid_signal(sig))
		return -EINVAL;
	send_signal(p, NULL, sig);
	return 0;
}

/* sys_kill - sig to the process that has thread pid; signal 0 only
 * asks whether task pid exists (a kernel thread too).  pid <= 0 (process
 * groups, every process) is -EINVAL: rtk has no process groups yet. */
long sys_kill(int pid, int sig)
{
	struct task_struct *task;
	struct process *p;

	if (pid <= 0 || sig < 0 || sig > _NSIG)
		return -EINVAL;
	p = process_get_by_pid(pid);
	if (!p && !sig) {
		task = sched_find_task(pid);
		if (!task)
			return -ESRCH;
		put_task_struct(task);
		return 0;
	}
	if (!p)
		return -ESRCH;
	if (sig)
		send_signal(p, NULL, sig);
	process_put(p);
	return 0;
}

/* do_tkill - sig to thread pid, of process tgid unless tgid is 0. */
static long do_tkill(int tgid, int pid, int sig)
{
	struct user_thread *t, *found = NULL;
	struct process *p;

	if (pid <= 0 || sig < 0 || sig > _NSIG)
		return -EINVAL;
	p = process_get_by_pid(pid);
	if (!p)
		return -ESRCH;
	if (tgid && p->tgid != tgid) {
		process_put(p);
		return -ESRCH;
	}
	spin_lock(&p->lock);
	list_for_each_entry(t, &p->threads, node)
		if (t->task->pid == pid)
			found = t;
	spin_unlock(&p->lock);
	/* found stays valid: it leaves the list only at its exit, and its
	 * process holds it until then; a thread that exited meanwhile is
	 * signalled harmlessly through the process's reference */
	if (!found) {
		process_put(p);
		return -ESRCH;
	}
	if (sig)
		send_signal(p, found, sig);
	process_put(p);
	return 0;
}

long sys_tgkill(int tgid, int pid, int sig)
{
	if (tgid <= 0)
		return -EINVAL;
	return do_tkill(tgid, pid, sig);
}

long sys_tkill(int pid, int sig)
{
	return do_tkill(0, pid, sig);
}

/*
 * sys_rt_sigaction - read and set the action for sig.  SIGKILL's and
 * SIGSTOP's cannot be set, and no handler's mask blocks them; setting
 * an action that ignores sig drops it from every pending set (Linux's
 * do_sigaction).  sigsetsize must be 8 (one u64), as on x86_64 Linux.
 * Context: task, may fault in user memory.  Locking: takes proc->lock.
 */
long sys_rt_sigaction(int sig, const struct kernel_sigaction __user *act,
		      struct kernel_sigaction __user *oact, size_t sigsetsize)
{
	struct process *p = current_process();
	struct kernel_sigaction new, old;
	struct user_thread *t;

	might_sleep();
	if (sigsetsize != sizeof(u64) || !valid_signal(sig))
		return -EINVAL;
	if (act && (sigmask(sig) & SIG_KERNEL_ONLY))
		return -EINVAL;
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	new.sa_mask &= ~SIG_KERNEL_ONLY;
	spin_lock(&p->lock);
	old = p->action[sig - 1];
	if (act) {
		p->action[sig - 1] = new;
		if (sig_ignored(p, sig)) {
			p->shared_pending &= ~sigmask(sig);
			list_for_each_entry(t, &p->threads, node)
				t->pending &= ~sigmask(sig);
		}
	}
	spin_unlock(&p->lock);
	if (oact && copy_to_user(oact, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* first_fatal_unblocked - the lowest pending signal t no longer blocks
 * that ends the process by default, or 0.  Locking: p->lock. */
static int first_fatal_unblocked(struct process *p, struct user_thread *t)
{
	u64 ready = (t->pending | p->shared_pending) & ~t->blocked;

	for (int sig = 1; ready; sig++, ready >>= 1)
		if ((ready & 1) && sig_fatal(p, sig))
			return sig;
	return 0;
}

/*
 * sys_rt_sigprocmask - change the calling thread's mask (SIG_BLOCK,
 * SIG_UNBLOCK, SIG_SETMASK; SIGKILL and SIGSTOP are never blocked) and
 * return the old one.  Unblocking a pending signal that terminates by
 * default ends the process here, before the call returns.
 * Context: task, may fault in user memory.  Locking: takes proc->lock.
 */
long sys_rt_sigprocmask(int how, const u64 __user *nset, u64 __user *oset,
			size_t sigsetsize)
{
	struct process *p = current_process();
	struct user_thread *t = current->user;
	u64 new = 0, old;
	int fatal = 0;

	might_sleep();
	if (sigsetsize != sizeof(u64))
		return -EINVAL;
	if (nset) {
		if (how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
			return -EINVAL;
		if (copy_from_user(&new, nset, sizeof(new)))
			return -EFAULT;
		new &= ~SIG_KERNEL_ONLY;
	}
	spin_lock(&p->lock);
	old = t->blocked;
	if (nset) {
		if (how == SIG_BLOCK)
			t->blocked |= new;
		else if (how == SIG_UNBLOCK)
			t->blocked &= ~new;
		else
			t->blocked = new;
		fatal = first_fatal_unblocked(p, t);
		if (fatal)
			__process_group_kill(p, fatal);
	}
	spin_unlock(&p->lock);
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* sys_rt_sigpending - the signals pending for the calling thread (its
 * own and its process's) that it blocks; sigsetsize at most 8. */
long sys_rt_sigpending(u64 __user *uset, size_t sigsetsize)
{
	struct process *p = current_process();
	struct user_thread *t = current->user;
	u64 pending;

	if (sigsetsize > sizeof(u64))
		return -EINVAL;
	spin_lock(&p->lock);
	pending = (t->pending | p->shared_pending) & t->blocked;
	spin_unlock(&p->lock);
	return copy_to_user(uset, &pending, sigsetsize) ? -EFAULT : 0;
}
