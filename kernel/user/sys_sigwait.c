/*
 * kernel/user/sys_sigwait.c - the system calls that wait for a signal
 * or run on its frame: rt_sigsuspend and pause (sleep until a handler
 * has run), rt_sigtimedwait (take a blocked signal without a handler),
 * sigaltstack (the alternate stack SA_ONSTACK handlers run on) and
 * rt_sigreturn (the end of a handler: back to the frame's registers and
 * mask).
 *
 * The sleeps test current's sigpending after set_current_state, and
 * the sender sets it before its wake-up (kernel_signal, kernel/signal.c):
 *
 *	CPU0 (waiter)				CPU1 (tgkill)
 *	set_current_state(INTERRUPTIBLE)	sigpending = true
 *	  (full barrier)			  (full barrier)
 *	signal_pending()? no: schedule()	wake_up_state(INTERRUPTIBLE)
 * either CPU0 sees the flag, or CPU1 sees it sleeping and wakes it.
 * Linux counterpart: kernel/signal.c (sys_rt_sigsuspend, sys_pause,
 * do_sigtimedwait, do_sigaltstack), arch/x86/kernel/signal_64.c
 * (sys_rt_sigreturn).
 */
#include "kernel/user/syscalls.h"
#include "kernel/user/signal_deliver.h"
#include "kernel/user/uaccess.h"
#include "kernel/time/hrtimer_sleep.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "lib/errno.h"

/* sleep_until_signal - sleep interruptibly until current's sigpending is
 * set (SIGKILL, or a signal it does not block).  Context: task. */
static void sleep_until_signal(void)
{
	might_sleep();
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (signal_pending(current))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * sys_rt_sigsuspend - replace the mask with *unewset and sleep until a
 * signal is taken; -ERESTARTNOHAND becomes -EINTR when a handler runs
 * (signal_deliver.c), and the old mask comes back with the frame's
 * sigreturn (restore_sigmask), so the program sees its own mask again.
 * Context: task, sleeps.  Locking: takes proc->lock.
 */
long sys_rt_sigsuspend(const u64 __user *unewset, size_t sigsetsize)
{
	struct process *p = current_process();
	struct user_thread *t = current->user;
	u64 new;

	might_sleep();
	if (sigsetsize != sizeof(u64))
		return -EINVAL;
	if (copy_from_user(&new, unewset, sizeof(new)))
		return -EFAULT;
	spin_lock(&p->lock);
	t->saved_sigmask = t->blocked;
	t->restore_sigmask = true;
	__set_current_blocked(p, t, new);
	spin_unlock(&p->lock);
	sleep_until_signal();
	return -ERESTARTNOHAND;
}

/* sys_pause - sleep until a signal is taken: -EINTR after its handler.
 * Context: task, sleeps. */
long sys_pause(void)
{
	sleep_until_signal();
	return -ERESTARTNOHAND;
}

/*
 * sys_rt_sigtimedwait - take a signal of *uthese, waiting up to *uts
 * (NULL: for ever; 0: not at all): its number, with its siginfo in
 * *uinfo; -EAGAIN when the time ran out, -EINTR when another signal
 * (one to deliver) came first.
 * [1] one is pending already: take it;
 * [2] else, as Linux, unblock the set while asleep, so that a send of
 *     one of them wakes this thread (__complete_signal picks a thread
 *     that does not block it; real_blocked tells it that a SIG_DFL one
 *     is awaited here, not fatal), and sleep;
 * [3] take one if it came, then the mask back (in this order: a pending
 *     one of the set, blocked again, would be retargeted first).
 * Context: task, sleeps.  Locking: takes proc->lock.
 */
long sys_rt_sigtimedwait(const u64 __user *uthese, struct siginfo __user *uinfo,
			 const struct __kernel_timespec __user *uts,
			 size_t sigsetsize)
{
	struct process *p = current_process();
	struct user_thread *t = current->user;
	ktime_t timeout = KTIME_MAX, deadline;
	struct siginfo info;
	u64 these, saved;
	long ret;
	int sig;

	might_sleep();
	if (sigsetsize != sizeof(u64))
		return -EINVAL;
	if (copy_from_user(&these, uthese, sizeof(these)))
		return -EFAULT;
	these &= ~SIG_KERNEL_ONLY;
	if (uts) {
		ret = get_timespec64_ktime(&timeout, uts);
		if (ret)
			return ret;
	}
	deadline = ktime_add_safe(ktime_get(), timeout);
	spin_lock(&p->lock);
	sig = __dequeue_signal(p, t, these, &info);			/* [1] */
	if (!sig && timeout) {						/* [2] */
		saved = t->blocked;
		t->real_blocked = saved;	/* a SIG_DFL one is no kill */
		__set_current_blocked(p, t, t->blocked & ~these);
		spin_unlock(&p->lock);
		if (timeout == KTIME_MAX)
			sleep_until_signal();
		else
			schedule_hrtimeout_abs_state(deadline,
						     TASK_INTERRUPTIBLE);
		spin_lock(&p->lock);					/* [3] */
		sig = __dequeue_signal(p, t, these, &info);
		t->real_blocked = 0;
		__set_current_blocked(p, t, saved);
	}
	__recalc_sigpending(p, t);
	spin_unlock(&p->lock);
	if (!sig)
		return timeout && ktime_get() < deadline ? -EINTR : -EAGAIN;
	if (uinfo && copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return sig;
}

/*
 * sys_sigaltstack - set (uss) and read (uoss) the calling thread's
 * alternate signal stack.  -EPERM while running on it, -EINVAL for
 * flags other than 0, SS_ONSTACK (the same as 0) and SS_DISABLE,
 * -ENOMEM below MINSIGSTKSZ.  Linux's SS_AUTODISARM is refused.
 * Context: task.  Locking: none (current's own fields).
 */
long sys_sigaltstack(struct pt_regs *regs,
		     const struct sigaltstack_uapi __user *uss,
		     struct sigaltstack_uapi __user *uoss)
{
	struct user_thread *t = current->user;
	unsigned long sp = arch_user_sp(regs);
	bool on = sp > t->sas_ss_sp && sp - t->sas_ss_sp <= t->sas_ss_size;
	struct sigaltstack_uapi old = {
		.ss_sp = t->sas_ss_sp,
		.ss_size = t->sas_ss_size,
		.ss_flags = !t->sas_ss_size ? SS_DISABLE : on ? SS_ONSTACK : 0,
	};
	struct sigaltstack_uapi new;

	might_sleep();
	if (uss) {
		if (copy_from_user(&new, uss, sizeof(new)))
			return -EFAULT;
		if (on)
			return -EPERM;
		if (new.ss_flags != 0 && new.ss_flags != SS_ONSTACK &&
		    new.ss_flags != SS_DISABLE)
			return -EINVAL;
		if (new.ss_flags == SS_DISABLE) {
			new.ss_sp = 0;
			new.ss_size = 0;
		} else if (new.ss_size < MINSIGSTKSZ) {
			return -ENOMEM;
		}
		t->sas_ss_sp = new.ss_sp;
		t->sas_ss_size = new.ss_size;
	}
	if (uoss && copy_to_user(uoss, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/*
 * sys_rt_sigreturn - a handler returned into its restorer: the frame's
 * registers and FPU state (arch_rt_sigreturn checks them) and its mask.
 * Returns the restored RAX, so the dispatcher's store leaves it as it
 * was.  A frame that cannot be read or is unsafe kills with SIGSEGV
 * (a SIGSEGV handler may catch it), as Linux's badframe.
 * Context: task.  Locking: takes proc->lock.
 */
long sys_rt_sigreturn(struct pt_regs *regs)
{
	struct process *p = current_process();
	struct user_thread *t = current->user;
	u64 mask;

	might_sleep();
	if (arch_rt_sigreturn(regs, &mask)) {
		force_sig_fault(SIGSEGV, SI_KERNEL, 0, "bad rt_sigreturn frame");
		return 0;
	}
	spin_lock(&p->lock);
	__set_current_blocked(p, t, mask);
	spin_unlock(&p->lock);
	return (long)arch_syscall_return_value(regs);
}
