/*
 * kernel/user/entry.c - the return to user mode, the one place every
 * way out of the kernel to ring 3 passes (after a system call, an
 * interrupt or exception from ring 3, and a thread's first entry).
 *
 * It is a preemption point under every model: user code holds no kernel
 * lock and has no preempt count, so a reschedule is always allowed here
 * -- even under PREEMPT_NONE, where the kernel itself is never preempted,
 * a user task is (the tick's TIF_NEED_RESCHED acts on the return from
 * the timer interrupt).  The deferred reschedule of the article's
 * wake_up_process_sync (TIF_NEED_RESCHED_DELAYED, kernel/sched/deferred.h)
 * waits "until the process is ready to return to user space" at the
 * latest: here (article, "Deferred operations").  And signals act
 * here (do_signal, signal_deliver.c): a kill (shell `kill`, exit_group
 * of a sibling, a fatal signal) exits the thread instead of returning,
 * a handled signal rewrites the frame the thread returns with.
 * Linux counterpart: kernel/entry/common.c exit_to_user_mode_loop()
 * (_TIF_NEED_RESCHED, _TIF_NEED_RESCHED_LAZY, _TIF_SIGPENDING).
 */
#include "kernel/user/signal_deliver.h"
#include "kernel/user/uapi.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/deferred.h"
#include "kernel/signal.h"
#include "kernel/irqflags.h"
#include "lib/bug.h"

/* How many times the return to user rescheduled, per cause (tests). */
unsigned long user_resched_count, user_resched_delayed_count;

/*
 * exit_to_user_mode_prepare - see arch/x86_64/user_mode.h.
 * [1] a pending signal (or kill): do_signal with irqs on -- it may end
 *     the process, or send regs to a handler -- and look again;
 * [2] a delayed reschedule for current becomes a real one;
 * [3] a reschedule is due: take it (irqs on around schedule()), and look
 *     again: a wakeup may have come meanwhile.
 * Context: task, irqs off on entry and exit, preempt count 0.
 */
void exit_to_user_mode_prepare(struct pt_regs *regs)
{
	BUG_ON(!raw_irqs_disabled());
	BUG_ON(preempt_count());
	for (;;) {
		if (current->user && signal_pending(current)) {	/* [1] */
			BUG_ON(!regs);
			raw_local_irq_enable();
			do_signal(regs);
			raw_local_irq_disable();
			continue;
		}
		if (need_resched_delayed()) {			/* [2] */
			__atomic_fetch_add(&user_resched_delayed_count, 1,
					   __ATOMIC_RELAXED);
			raw_local_irq_enable();
			preempt_check_resched_delayed();
			raw_local_irq_disable();
			if (!need_resched())
				continue;
		}
		if (!need_resched())				/* [3] */
			break;
		__atomic_fetch_add(&user_resched_count, 1, __ATOMIC_RELAXED);
		raw_local_irq_enable();
		schedule();
		raw_local_irq_disable();
	}
}
