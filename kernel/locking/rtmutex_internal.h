/*
 * kernel/locking/rtmutex_internal.h - what rtmutex.c shares with the
 * locks built on it (spinlock_rt.c, rwlock_rt.c, semaphore.c), the
 * deadlock reporter and the PI tester: the waiter, the owner-word bits,
 * the queue helpers and the slow-path entry with its sleep mode.
 * Linux counterpart: kernel/locking/rtmutex_common.h.
 */
#ifndef KERNEL_LOCKING_RTMUTEX_INTERNAL_H
#define KERNEL_LOCKING_RTMUTEX_INTERNAL_H

#include "kernel/locking/rtmutex.h"
#include "kernel/locking/pi_chain.h"	/* struct rt_mutex_waiter */
#include "kernel/sched/sched.h"
#include "kernel/debug/race_window.h"

#define RT_MUTEX_HAS_WAITERS ((uintptr_t)1)

/* How a slow-path sleeper behaves. */
enum rt_mutex_sleep {
	RT_SLEEP_UNINTERRUPTIBLE,	/* rt_mutex_lock, down */
	RT_SLEEP_INTERRUPTIBLE,		/* -EINTR on kernel_signal */
	RT_SLEEP_SAVESTATE,		/* spinlock_t: keep current->state */
};

static inline bool rt_mutex_has_waiters(const struct rt_mutex *lock)
{
	return !plist_head_empty(&lock->wait_list);
}

static inline struct rt_mutex_waiter *
rt_mutex_top_waiter(const struct rt_mutex *lock)
{
	return pi_top_waiter(&lock->wait_list);
}

static inline bool task_has_pi_waiters(const struct task_struct *p)
{
	return !plist_head_empty(&p->pi_waiters);
}

static inline struct rt_mutex_waiter *
task_top_pi_waiter(const struct task_struct *p)
{
	return pi_top_pi_waiter(&p->pi_waiters);
}

/*
 * rt_mutex_lock_common - the acquisition every lock built on rt_mutex
 * shares: sleep in mode until the lock is ours, the timeout (ns, < 0:
 * none) expires or a signal arrives (RT_SLEEP_INTERRUPTIBLE only).
 * Returns 0, -EINTR, -ETIMEDOUT or -EDEADLK.  detect_report: on a
 * deadlock (self-deadlock included), print the cycle and keep waiting
 * instead of returning -EDEADLK.  RT_SLEEP_SAVESTATE is the spinlock_t
 * and rt rwlock_t sleep.  The caller does its own might_sleep check
 * (spinlock_t's offers no preemption point).  Context: task, may sleep.
 */
int rt_mutex_lock_common(struct rt_mutex *lock, enum rt_mutex_sleep mode,
			 s64 timeout_ns, bool detect_report);

/* rt_mutex_fastlock_try / rt_mutex_fastunlock_try - the cmpxchg fast
 * paths: true when done without the slow path. */
static inline bool rt_mutex_cmpxchg(struct rt_mutex *lock, uintptr_t old,
				    uintptr_t new)
{
	return __atomic_compare_exchange_n(&lock->owner, &old, new, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* rt_mutex_slowunlock - the unlock when the waiters bit is set. */
void rt_mutex_slowunlock(struct rt_mutex *lock);
/* rt_mutex_unlock_window - test-only (kernel/debug/race_window.h): the
 * no-waiters unlock between giving up the owner word and its last touch
 * of the lock (tests/kernel/test_rtmutex_races.c). */
extern struct race_window rt_mutex_unlock_window;

/* The PI side (kernel/locking/rtmutex_pi.c) that rtmutex.c's slow paths
 * call; each definition's comment has its steps and locking.
 * rt_mutex_adjust_prio - task->prio from its normal prio and top PI
 * waiter.  Locking: task->pi_lock held. */
void rt_mutex_adjust_prio(struct task_struct *task);
/* task_blocks_on_rt_mutex - queue waiter, boost the owner chain; 0 or
 * -EDEADLK.  Locking: lock->wait_lock held, irqs off. */
int task_blocks_on_rt_mutex(struct rt_mutex *lock,
			    struct rt_mutex_waiter *waiter,
			    struct task_struct *task, bool detect);
/* remove_waiter - current leaves lock's queue, deboosting the owner
 * chain.  Locking: lock->wait_lock held, irqs off. */
void remove_waiter(struct rt_mutex *lock, struct rt_mutex_waiter *waiter);

/* rt_mutex_contended_count - slow-path acquisitions so far (tests and the
 * spinlock cost note: the fast path never increments it). */
extern unsigned long rt_mutex_slowpath_count;

#endif /* KERNEL_LOCKING_RTMUTEX_INTERNAL_H */
