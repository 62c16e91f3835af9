/*
 * kernel/user/sys_signal.c - the system calls that set up and send
 * signals: rt_sigaction (the per-process handler table), rt_sigprocmask
 * (the per-thread mask), rt_sigpending, and kill, tgkill and tkill with
 * kill_process, the kernel's own send (SIGCHLD, SIGPIPE).  The waits
 * (rt_sigsuspend, rt_sigtimedwait, pause), sigaltstack and rt_sigreturn
 * are sys_sigwait.c's; delivery is signal_deliver.c's.
 *
 * What a sent signal does (send_signal), as Linux decides it:
 *   [1] SIGKILL ends the process, waking every thread from any
 *       interruptible sleep;
 *   [2] an ignored signal (SIG_IGN, or SIG_DFL whose default is to
 *       ignore: SIGCHLD, SIGCONT, SIGURG, SIGWINCH, and the stop
 *       signals, rtk having no job control) is dropped;
 *   [3] otherwise it is pending (on the thread for tgkill/tkill, on the
 *       process for kill) with its siginfo, and the thread that takes
 *       it is woken (__complete_signal): one that does not block it;
 *       if it kills by default, the process dies at once.  A blocked
 *       signal waits until a thread unblocks it.
 * Linux counterpart: kernel/signal.c (do_sigaction, sigprocmask,
 * do_sigpending, kill_pid_info, do_tkill, __send_signal).  rtk has no
 * process groups (kill with pid <= 0 is -EINVAL) and no permission
 * check (every process is root's).
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/signal_deliver.h"
#include "kernel/user/uaccess.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"

/*
 * send_signal - the steps of the header for sig (valid, not 0) sent to
 * process p, or to its thread t when t is not NULL, with si_code code
 * from the calling process (or the kernel: code SI_KERNEL, pid 0).
 * Context: task.  Locking: takes p->lock.
 */
static void send_signal(struct process *p, struct user_thread *t, int sig,
			int code)
{
	struct process *sender = current_process();
	struct sigqueue q = {
		.code = code,
		.pid = code == SI_KERNEL || !sender ? 0 : sender->tgid,
	};

	might_sleep();
	spin_lock(&p->lock);
	if (sig == SIGKILL) {						/* [1] */
		__process_group_kill(p, SIGKILL);
	} else if (sig_ignored(p, sig)) {				/* [2] */
		;
	} else {							/* [3] */
		__sigqueue_add(p, t, sig, &q);
		__complete_signal(p, t, sig);
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
	send_signal(p, NULL, sig, SI_KERNEL);
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
		send_signal(p, NULL, sig, SI_USER);
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
		send_signal(p, found, sig, SI_TKILL);
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

/*
 * sys_rt_sigprocmask - change the calling thread's mask (SIG_BLOCK,
 * SIG_UNBLOCK, SIG_SETMASK; SIGKILL and SIGSTOP are never blocked) and
 * return the old one.  A pending signal it unblocks is delivered on
 * the way back to user mode.
 * Context: task, may fault in user memory.  Locking: takes proc->lock.
 */
long sys_rt_sigprocmask(int how, const u64 __user *nset, u64 __user *oset,
			size_t sigsetsize)
{
	struct process *p = current_process();
	struct user_thread *t = current->user;
	u64 new = 0, old;

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
			new |= old;
		else if (how == SIG_UNBLOCK)
			new = old & ~new;
		__set_current_blocked(p, t, new);
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
