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
 * leaves the state the caller set.  The _irq/_irqsave forms are
 * spinlock.h's (they take the lock only and leave irqs on).
 * Compiled only under PREEMPT_RT: the whole file is inside
 * #if CONFIG_PREEMPT_RT, since elsewhere spinlock_t is the raw lock and
 * nothing calls these.  Callers: spinlock.h's spin_lock(spinlock_t *) &
 * co., or, with DEBUG_RT_LOCKING_MODE=1, kernel/debug/rtlock_mode.c.
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

/*
 * rt_spin_unlock - Context: task; the holder may have migrated since the
 * lock (nothing pins it under rt).  Locking: releases lock, which the
 * caller holds (rt_mutex_unlock reports it otherwise) and wakes the top
 * waiter.
 */
void rt_spin_unlock(spinlock_t *lock)
{
	rt_mutex_unlock(&lock->lock);
}

/* rt_spin_trylock - 1 if taken.  Context: any (never sleeps, so
 * preemption or irqs may be off).  Locking: may take lock. */
int rt_spin_trylock(spinlock_t *lock)
{
	return rt_mutex_trylock(&lock->lock);
}
#endif
