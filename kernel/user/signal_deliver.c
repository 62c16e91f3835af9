/*
 * kernel/user/signal_deliver.c - pending signals and their delivery at
 * the return to user mode (signal_deliver.h has the state).
 *
 * do_signal(), on the way out to ring 3 with current's sigpending set:
 *   [1] the group is exiting (SIGKILL, exit_group, a fatal signal), or
 *       another thread's execve waits for this one to go: exit here,
 *       whatever the call was;
 *   [2] dequeue the first unblocked signal (the thread's set, then the
 *       shared one); none: [6];
 *   [3] SIG_IGN, or SIG_DFL that ignores (SIGCHLD, SIGURG, SIGWINCH,
 *       SIGCONT) or would stop (no job control: ignored): next one, [2];
 *   [4] SIG_DFL otherwise: the process dies of it (a core-dumping
 *       signal too: rtk writes no core file, so the wait status has no
 *       WCOREDUMP bit);
 *   [5] a handler: the interrupted call becomes -EINTR or restarts
 *       (arch_syscall_restart), the frame goes on the user stack
 *       (arch_setup_rt_frame, the old mask in it), SA_RESETHAND puts
 *       SIG_DFL back, and the mask grows by sa_mask and, without
 *       SA_NODEFER, sig itself.  A frame that cannot be written kills
 *       with SIGSEGV (force_sigsegv).  Done: one handler per return,
 *       as Linux (the next one runs when this one's sigreturn returns);
 *   [6] no handler: restart the call whatever its restart code, and put
 *       back a mask rt_sigsuspend replaced.
 *
 * Latency: a signal to a sleeping thread is a wake-up like any other.
 * __complete_signal's kernel_signal() is wake_up_state() -- the
 * try_to_wake_up path a cyclictest timer wake-up takes, with the same
 * RT placement and preemption -- so an RT thread waiting in
 * rt_sigtimedwait or a handled sleep is running after the sender's
 * call as soon as a timer wake would have it, and the sched trace
 * (kernel/debug/) records it as an ordinary wake-up and switch.
 * Linux counterpart: kernel/signal.c (get_signal, dequeue_signal,
 * complete_signal, force_sig_info, signal_setup_done),
 * arch/x86/kernel/signal.c (arch_do_signal_or_restart, handle_signal).
 */
#include "kernel/user/signal_deliver.h"
#include "kernel/signal.h"
#include "kernel/sched/sched.h"
#include "kernel/printk.h"
#include "lib/bug.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

void __sigqueue_add(struct process *p, struct user_thread *t, int sig,
		    const struct sigqueue *q)
{
	u64 *set = t ? &t->pending : &p->shared_pending;
	struct sigqueue *slot = t ? &t->info[sig - 1] : &p->shared_info[sig - 1];

	WARN_ON(!spin_is_locked(&p->lock));
	if (*set & sigmask(sig))
		return;		/* not queued twice: the first's siginfo stays */
	*set |= sigmask(sig);
	*slot = *q;
}

void __complete_signal(struct process *p, struct user_thread *t, int sig)
{
	struct user_thread *it;

	WARN_ON(!spin_is_locked(&p->lock));
	if (t && (t->blocked & sigmask(sig)))
		return;		/* it takes it when it unblocks it */
	if (!t) {
		list_for_each_entry(it, &p->threads, node) {
			/* not one on its way out: it takes no more signals
			 * (Linux's wants_signal) */
			if (READ_ONCE(it->task->flags) & PF_EXITING)
				continue;
			if (!(it->blocked & sigmask(sig))) {
				t = it;
				break;
			}
		}
		if (!t)
			return;	/* all block it: pending on the process */
	}
	if (sig_fatal(p, sig) && !(t->real_blocked & sigmask(sig))) {
		/* fatal to the whole group: do not wait for t to get there
		 * (Linux's complete_signal does the same); not when t only
		 * unblocked it to wait for it (rt_sigtimedwait) */
		__process_group_kill(p, sig);
		return;
	}
	kernel_signal(t->task);		/* signal_wake_up: try_to_wake_up */
}

/* __must_leave - current must exit at its return to user mode: its group
 * is exiting, or another thread's execve waits for it to go (exec.c
 * de_thread; do_group_exit then ends this thread alone).  Locking: p->lock
 * held. */
static bool __must_leave(struct process *p)
{
	WARN_ON(!spin_is_locked(&p->lock));
	return p->group_exit || (p->exec_task && p->exec_task != current);
}

void __recalc_sigpending(struct process *p, struct user_thread *t)
{
	WARN_ON(!spin_is_locked(&p->lock));
	BUG_ON(t != current->user);
	if (__must_leave(p) || ((t->pending | p->shared_pending) & ~t->blocked))
		WRITE_ONCE(current->sigpending, true);
	else
		flush_signals(current);
}

void __set_current_blocked(struct process *p, struct user_thread *t, u64 mask)
{
	u64 newly;

	WARN_ON(!spin_is_locked(&p->lock));
	mask &= ~SIG_KERNEL_ONLY;
	newly = mask & ~t->blocked & p->shared_pending;
	t->blocked = mask;
	/* a shared signal t was chosen for and now blocks needs another
	 * taker (Linux's retarget_shared_pending) */
	for (int sig = 1; newly; sig++, newly >>= 1)
		if (newly & 1)
			__complete_signal(p, NULL, sig);
	__recalc_sigpending(p, t);
}

int __dequeue_signal(struct process *p, struct user_thread *t, u64 mask,
		     struct siginfo *info)
{
	u64 *set = &t->pending;
	struct sigqueue *slots = t->info;
	u64 ready = *set & mask;
	int sig;

	WARN_ON(!spin_is_locked(&p->lock));
	if (!ready) {
		set = &p->shared_pending;
		slots = p->shared_info;
		ready = *set & mask;
	}
	if (!ready)
		return 0;
	if (ready & SIG_SYNCHRONOUS)
		ready &= SIG_SYNCHRONOUS;
	sig = __builtin_ctzll(ready) + 1;
	*set &= ~sigmask(sig);
	memset(info, 0, sizeof(*info));
	info->si_signo = sig;
	info->si_code = slots[sig - 1].code;
	if (info->si_code > 0 && info->si_code != SI_KERNEL) {
		info->si_addr = slots[sig - 1].addr;	/* a fault's */
	} else {
		info->si_pid = slots[sig - 1].pid;	/* kill's, tkill's */
		info->si_uid = 0;			/* rtk: everyone is root */
	}
	return sig;
}

/* force_sig_locked - sig to current's thread t, which may neither block
 * nor ignore it: either makes it SIG_DFL (and unblocked), as Linux's
 * force_sig_info_to_task.  Returns whether the process will die of it.
 * Locking: p->lock. */
static bool force_sig_locked(struct process *p, struct user_thread *t, int sig,
			     const struct sigqueue *q)
{
	struct kernel_sigaction *ka = &p->action[sig - 1];
	bool fatal;

	WARN_ON(!spin_is_locked(&p->lock));
	if ((t->blocked & sigmask(sig)) || ka->sa_handler == SIG_IGN) {
		ka->sa_handler = SIG_DFL;
		t->blocked &= ~sigmask(sig);
	}
	fatal = sig_fatal(p, sig);
	__sigqueue_add(p, t, sig, q);
	__complete_signal(p, t, sig);
	return fatal;
}

void force_sig_fault(int sig, int code, unsigned long addr, const char *what)
{
	struct process *p = current_process();
	struct user_thread *t = current->user;
	struct sigqueue q = { .code = code, .pid = 0, .addr = addr };
	bool fatal;

	might_sleep();
	BUG_ON(!p || !valid_signal(sig));
	spin_lock(&p->lock);
	fatal = force_sig_locked(p, t, sig, &q);
	spin_unlock(&p->lock);
	if (fatal)
		pr_err("%s[%d]: %s: killed (signal %d)\n", current->name,
		       p->tgid, what, sig);
}

/* force_sigsegv - the frame for sig could not be written: SIGSEGV, and
 * if sig was SIGSEGV, its handler is gone first so it kills (Linux's
 * force_sigsegv).  Context: current's user thread, task. */
static void force_sigsegv(struct pt_regs *regs, int sig)
{
	struct process *p = current_process();
	char what[64];

	if (sig == SIGSEGV) {
		spin_lock(&p->lock);
		p->action[SIGSEGV - 1].sa_handler = SIG_DFL;
		spin_unlock(&p->lock);
	}
	snprintf(what, sizeof(what), "no frame for signal %d (stack %#lx)",
		 sig, arch_user_sp(regs));
	force_sig_fault(SIGSEGV, SI_KERNEL, 0, what);
}

/* on_sig_stack - is sp on t's alternate stack (which grows down from
 * sas_ss_sp + sas_ss_size)? */
static bool on_sig_stack(const struct user_thread *t, unsigned long sp)
{
	return sp > t->sas_ss_sp && sp - t->sas_ss_sp <= t->sas_ss_size;
}

/* handle_signal - [5] for sig, whose action was ka when dequeued. */
static void handle_signal(struct pt_regs *regs, int sig,
			  const struct kernel_sigaction *ka,
			  const struct siginfo *info)
{
	struct process *p = current_process();
	struct user_thread *t = current->user;
	unsigned long sp = arch_user_sp(regs), stack_top = 0;
	struct sigaltstack_uapi uc_stack = {
		.ss_sp = t->sas_ss_sp,
		.ss_size = t->sas_ss_size,
		.ss_flags = !t->sas_ss_size ? SS_DISABLE :
			    on_sig_stack(t, sp) ? SS_ONSTACK : 0,
	};
	u64 oldmask = t->restore_sigmask ? t->saved_sigmask : t->blocked;
	u64 mask;

	arch_syscall_restart(regs, true, ka->sa_flags & SA_RESTART);
	if ((ka->sa_flags & SA_ONSTACK) && uc_stack.ss_flags == 0)
		stack_top = t->sas_ss_sp + t->sas_ss_size;
	if (arch_setup_rt_frame(regs, &t->arch, sig, ka, info, oldmask,
				stack_top, &uc_stack)) {
		force_sigsegv(regs, sig);
		return;
	}
	spin_lock(&p->lock);
	t->restore_sigmask = false;	/* the frame's uc_sigmask has it now */
	mask = t->blocked | ka->sa_mask;
	if (!(ka->sa_flags & SA_NODEFER))
		mask |= sigmask(sig);
	__set_current_blocked(p, t, mask);
	spin_unlock(&p->lock);
}

void do_signal(struct pt_regs *regs)
{
	struct process *p = current_process();
	struct user_thread *t = current->user;
	struct kernel_sigaction ka;
	struct siginfo info;
	int sig;

	might_sleep();
	BUG_ON(!p);
	spin_lock(&p->lock);
	for (;;) {
		if (__must_leave(p)) {					/* [1] */
			spin_unlock(&p->lock);
			do_group_exit(W_EXITCODE(0, SIGKILL));	/* status: the
						 * group exit's, chosen first */
		}
		sig = __dequeue_signal(p, t, ~t->blocked, &info);	/* [2] */
		if (!sig)
			break;
		ka = p->action[sig - 1];
		if (sig_ignored(p, sig))				/* [3] */
			continue;
		if (ka.sa_handler == SIG_DFL) {				/* [4] */
			__process_group_kill(p, sig);
			continue;	/* [1] exits */
		}
		if (ka.sa_flags & SA_RESETHAND)				/* [5] */
			p->action[sig - 1].sa_handler = SIG_DFL;
		spin_unlock(&p->lock);
		handle_signal(regs, sig, &ka, &info);
		spin_lock(&p->lock);
		__recalc_sigpending(p, t);
		spin_unlock(&p->lock);
		return;
	}
	__recalc_sigpending(p, t);
	spin_unlock(&p->lock);
	arch_syscall_restart(regs, false, false);			/* [6] */
	if (t->restore_sigmask) {
		t->restore_sigmask = false;
		spin_lock(&p->lock);
		__set_current_blocked(p, t, t->saved_sigmask);
		spin_unlock(&p->lock);
	}
}
