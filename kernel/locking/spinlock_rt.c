/*
 * kernel/locking/spinlock_rt.c - spinlock_t under PREEMPT_RT: a sleeping
 * lock on an rt_mutex (article, "Summary of PREEMPT_RT primitives",
 * spinlock_t: "An underlying rt_mutex is used to implement spinlock_t").
 *
 * The fast path is the rt_mutex cmpxchg; a contended lock sleeps in
 * TASK_RUNNING_MUTEX with the caller's state parked in saved_state
 * (rt_mutex_lock_common, RT_SLEEP_SAVESTATE), so
 *	spin_lock(&mylock1); current->state = TASK_UNINTERRUPTIBLE;
 *	spin_lock(&mylock2);	// may sleep, state is kept
 * leaves the state the caller set.  irqsave forms only save the flags.
 * Built under every model; only the rt spinlock.h calls it.
 * Linux counterpart: kernel/locking/spinlock_rt.c (rt_spin_lock,
 * rt_spin_unlock, rt_spin_trylock).
 */
#include "kernel/locking/spinlock.h"
#include "kernel/locking/rtmutex_internal.h"

#if defined(CONFIG_PREEMPT_RT)
void rt_spin_lock_init_named(spinlock_t *lock, const char *name,
			     const char *file, int line)
{
	__rt_mutex_init(&lock->lock, name, file, line);
}

/*
 * rt_spin_lock - Context: task, preemption and irqs on (the might_sleep
 * warning fires otherwise, and the lock is still taken: a contended
 * acquisition then schedules while atomic, which schedule() reports).
 * Locking: takes lock.
 */
void rt_spin_lock(spinlock_t *lock)
{
	__might_sleep(__FILE__, __LINE__);
	rt_mutex_lock_common(&lock->lock, RT_SLEEP_SAVESTATE, -1, true);
}

void rt_spin_unlock(spinlock_t *lock)
{
	rt_mutex_unlock(&lock->lock);
}

int rt_spin_trylock(spinlock_t *lock)
{
	return rt_mutex_trylock(&lock->lock);
}
#endif
