/*
 * kernel/user/signal_deliver.h - the pending sets and their delivery,
 * shared by the system calls that send, wait for and mask signals
 * (sys_signal.c, sys_sigwait.c) and the return to user mode (entry.c).
 *
 * The state (kernel/user/process.h): per process the handler table
 * (action[]) and the shared pending set (kill), per thread the mask
 * (blocked) and its own pending set (tgkill, faults), each pending
 * signal with one struct sigqueue for its siginfo.  task->sigpending
 * (kernel/signal.h) is Linux's TIF_SIGPENDING for a user thread: set
 * when it has a pending signal it does not block (or its group is
 * exiting), so an interruptible sleep ends and the return to user
 * takes the signal; only the thread itself clears it
 * (__recalc_sigpending).  All of it under proc->lock.
 * Linux counterpart: include/linux/sched/signal.h, kernel/signal.c.
 */
#ifndef KERNEL_USER_SIGNAL_DELIVER_H
#define KERNEL_USER_SIGNAL_DELIVER_H

#include "kernel/user/process.h"

/* never blocked, caught or ignored */
#define SIG_KERNEL_ONLY (sigmask(SIGKILL) | sigmask(SIGSTOP))
/* SIG_DFL ignores them */
#define SIG_KERNEL_IGNORE                                                    \
	(sigmask(SIGCHLD) | sigmask(SIGCONT) | sigmask(SIGURG) |             \
	 sigmask(SIGWINCH))
/* SIG_DFL would stop the process: rtk has no job control and ignores
 * them (a stopped process would need SIGCONT and a parent's wait) */
#define SIG_KERNEL_STOP                                                      \
	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) |            \
	 sigmask(SIGTTOU))
/* sent by a fault: dequeued before the others (Linux's SYNCHRONOUS_MASK) */
#define SIG_SYNCHRONOUS                                                      \
	(sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGILL) |              \
	 sigmask(SIGTRAP) | sigmask(SIGFPE) | sigmask(SIGSYS))

static inline bool valid_signal(int sig)
{
	return sig >= 1 && sig <= _NSIG;
}

/* sig_ignored - would sig be dropped on arrival?  Locking: p->lock. */
static inline bool sig_ignored(const struct process *p, int sig)
{
	unsigned long h = p->action[sig - 1].sa_handler;

	return h == SIG_IGN ||
	       (h == SIG_DFL &&
		(sigmask(sig) & (SIG_KERNEL_IGNORE | SIG_KERNEL_STOP)));
}

/* sig_fatal - does sig end the process by default?  Locking: p->lock. */
static inline bool sig_fatal(const struct process *p, int sig)
{
	return p->action[sig - 1].sa_handler == SIG_DFL &&
	       !(sigmask(sig) & (SIG_KERNEL_IGNORE | SIG_KERNEL_STOP));
}

/* __sigqueue_add - sig pending on t (NULL: on p, shared), with q as its
 * siginfo unless it is pending already.  Locking: p->lock. */
void __sigqueue_add(struct process *p, struct user_thread *t, int sig,
		    const struct sigqueue *q);

/* __complete_signal - find the thread that takes pending sig (t, or the
 * first of p's that does not block it) and wake it (signal_wake_up);
 * a signal that kills by default kills the group at once.
 * Context: any task.  Locking: p->lock. */
void __complete_signal(struct process *p, struct user_thread *t, int sig);

/* __recalc_sigpending - current's sigpending from its sets (t is
 * current's).  Locking: p->lock. */
void __recalc_sigpending(struct process *p, struct user_thread *t);

/* __set_current_blocked - current's mask = mask minus SIGKILL/SIGSTOP;
 * shared signals it now blocks go to another thread.
 * Locking: p->lock. */
void __set_current_blocked(struct process *p, struct user_thread *t, u64 mask);

/* __dequeue_signal - take the first pending signal in mask (t's own,
 * then p's shared; fault signals first, then the lowest number) and
 * fill *info; 0 if none.  Locking: p->lock. */
int __dequeue_signal(struct process *p, struct user_thread *t, u64 mask,
		     struct siginfo *info);

/* do_signal - the return to user found current's sigpending set: take
 * one signal, its default action (may not return), its handler's frame
 * into regs, or the restart of an interrupted call.
 * Context: current's user thread, task, irqs on. */
void do_signal(struct pt_regs *regs);

#endif /* KERNEL_USER_SIGNAL_DELIVER_H */
