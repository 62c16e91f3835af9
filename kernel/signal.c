/*
 * kernel/signal.c - kernel_signal()/flush_signals(), see kernel/signal.h.
 *
 * Ordering: the flag is stored before the wakeup, and the sleeper tests
 * it after set_current_state() (pairs with the loop in
 * rt_mutex_slowlock, kernel/locking/rtmutex.c), so either the sleeper
 * sees the flag or the wakeup sees its TASK_INTERRUPTIBLE state.
 * Linux counterpart: kernel/signal.c signal_wake_up().
 */
#include "kernel/signal.h"
#include "kernel/sched/sched.h"

void kernel_signal(struct task_struct *p)
{
	WRITE_ONCE(p->sigpending, true);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	wake_up_state(p, TASK_INTERRUPTIBLE);
}

void flush_signals(struct task_struct *p)
{
	WRITE_ONCE(p->sigpending, false);
}
