/*
 * kernel/locking/lock_break.c - spin_needbreak() and cond_resched_lock()
 * (lock_break.h; article, "Priority inheritance", the preemption points
 * of the JBD journaling layer).  The model switch is spin_needbreak()'s
 * body and preempt_lock_offset(), nothing else.
 * Linux counterpart: kernel/sched/core.c __cond_resched_lock().
 */
#include "kernel/locking/lock_break.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"

/* preempt_lock_offset - preempt_count() of a task holding lock and
 * nothing else: under rt the lock is a sleeping lock and leaves the
 * count alone, unless `rtlock mode raw` took it (kernel/locking/
 * rtlock_mode.h: preemption off, as under the other models). */
static int preempt_lock_offset(spinlock_t *lock)
{
#if defined(CONFIG_PREEMPT_RT) && defined(CONFIG_DEBUG_RT_LOCKING_MODE)
	return lock->raw_mode ? 1 : 0;
#else
	(void)lock;
	return SPINLOCK_SLEEPS ? 0 : 1;
#endif
}

bool spin_needbreak(spinlock_t *lock)
{
#if defined(CONFIG_PREEMPT_RT)
	return rt_mutex_has_waiters(&lock->lock);
#elif PREEMPT_ON_ENABLE
	return raw_spin_is_contended(&lock->rlock);
#else
	(void)lock;
	return false;
#endif
}

/*
 * cond_resched_lock - [1] the caller holds lock taken with spin_lock()
 * and nothing else atomic; [2] nothing to do unless a task waits for
 * the lock or this CPU must reschedule; [3] drop the lock: under rt the
 * unlock hands it to the top waiter and deboosts us, under desktop
 * preempt_enable() may already schedule; [4] schedule if still pending
 * (none/voluntary: this is the only place that does), else relax so a
 * spinning waiter on another CPU sees its ticket come up; [5] retake:
 * the ticket lock queues us behind the waiter (FIFO), the rt_mutex
 * makes us wait unless we outrank the new owner-to-be (lock stealing,
 * article "Priority inheritance").
 *
 *	holder (CPU0)                   waiter (CPU1)
 *	spin_lock(L)
 *	loop step i                     spin_lock(L): spins / sleeps
 *	cond_resched_lock(L)
 *	  spin_needbreak(L) true
 *	  spin_unlock(L)        ----->  gets L, works, spin_unlock(L)
 *	  spin_lock(L): waits   <-----
 *	loop step i + 1 (state re-validated: the waiter may have changed it)
 *
 * test_lock_break.c's test_cond_resched_lock_lets_waiter_in_mid_loop
 * forces this interleaving.
 */
int cond_resched_lock(spinlock_t *lock)
{
	WARN_ON_ONCE(!spin_is_locked(lock));			/* [1] */
	WARN_ON_ONCE(preempt_count() != preempt_lock_offset(lock) ||
		     raw_irqs_disabled());

	if (!spin_needbreak(lock) && !need_resched())		/* [2] */
		return 0;
	spin_unlock(lock);					/* [3] */
	if (!_cond_resched())					/* [4] */
		arch_cpu_relax();
	spin_lock(lock);					/* [5] */
	return 1;
}
