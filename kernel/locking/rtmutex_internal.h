/*
 * kernel/locking/rtmutex_internal.h - what rtmutex.c shares with the
 * locks built on its slow path (spinlock_rt.c, rt_rw.c; semaphore.c uses
 * only rtmutex.h), rcu_preempt.c's boost, the deadlock reporter, the PI
 * tester and the tests: the waiter, the owner-word bits, the queue
 * helpers and the slow-path entry with its sleep mode.
 * Linux counterpart: kernel/locking/rtmutex_common.h.
 *
 * The numbered steps of the rt_mutex code, one numbering per algorithm
 * so that a step name means one thing everywhere.  The SPIN model of the
 * protocol (model/pi/, its README.md) names these steps in its blocks:
 *
 *	steps		function (file)				entered with
 *	[0]..[13]	rt_mutex_adjust_prio_chain (rtmutex_pi.c)	nothing
 *			  the PI chain walk; [1]..[13] are Linux's; its
 *			  comment has the [R]/[P]/[L] legend and the
 *			  locks held at each step
 *	[B1]..[B4]	task_blocks_on_rt_mutex (rtmutex_pi.c)	wait_lock
 *	[D1]..[D3]	remove_waiter (rtmutex_pi.c)		wait_lock
 *	[A1]..[A2]	rt_mutex_adjust_pi (rtmutex_pi.c)	nothing
 *	[T1]..[T4]	try_to_take_rt_mutex (rtmutex.c)	wait_lock
 *	[S1]..[S6]	rt_mutex_slowlock (rtmutex.c)		nothing
 *	[U1]..[U3]	rt_mutex_slowunlock (rtmutex.c)		nothing
 *	[P1]..[P3]	__rt_mutex_start_proxy_lock (rtmutex_proxy.c)	wait_lock
 *	[W1]..[W4]	rt_mutex_wait_proxy_lock (rtmutex_proxy.c)	nothing
 *	[C1]..[C3]	rt_mutex_cleanup_proxy_lock (rtmutex_proxy.c)	nothing
 *	[H1]..[H3]	rt_mutex_proxy_hand_over (rtmutex_proxy.c)	wait_lock
 *
 * The race diagrams (CPU0/CPU1 columns) sit at the code that defends:
 * the waiters bit against the fast unlock at try_to_take_rt_mutex ([T1])
 * and fixup_rt_mutex_waiters, the unlock against a fast-path locker at
 * unlock_rt_mutex_safe ([U1]), the woken top waiter against a thief at
 * try_to_take_rt_mutex ([T3]), a walk requeueing in the pending
 * window at pi_walk_end_at_free_lock ([9]) and a waiter leaving during a
 * walk at pi_walk_check_link ([3]).
 */
#ifndef KERNEL_LOCKING_RTMUTEX_INTERNAL_H
#define KERNEL_LOCKING_RTMUTEX_INTERNAL_H

#include "kernel/locking/rtmutex.h"
#include "kernel/locking/pi_chain.h"	/* struct rt_mutex_waiter */
#include "kernel/sched/sched.h"
#include "kernel/debug/hooks.h"

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

/*
 * rt_mutex_cmpxchg - the owner word from old to new in one step, true if
 * it held old.  The fast paths (rt_mutex_fastlock: 0 -> current;
 * rt_mutex_unlock: current -> 0; rcu_preempt's proxy lock) and
 * unlock_rt_mutex_safe ([U1]) change the word only through it, and only
 * while bit 0 is clear: once a slow path has set it, every change is
 * made under wait_lock.  Context: any.  Locking: none.
 */
static inline bool rt_mutex_cmpxchg(struct rt_mutex *lock, uintptr_t old,
				    uintptr_t new)
{
	return __atomic_compare_exchange_n(&lock->owner, &old, new, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/* The owner word and the queue, for the proxy locking of PI futexes
 * (kernel/locking/rtmutex_proxy.c); each definition in rtmutex.c has its
 * comment.  try_to_take_rt_mutex - steps [T1]..[T4]; rt_mutex_set_owner -
 * owner takes lock, bit 0 kept while waiters are queued;
 * fixup_rt_mutex_waiters - clear bit 0 nobody needs.  Context: irqs off.
 * Locking: lock->wait_lock held. */
bool try_to_take_rt_mutex(struct rt_mutex *lock, struct task_struct *task,
			  struct rt_mutex_waiter *waiter);
void rt_mutex_set_owner(struct rt_mutex *lock, struct task_struct *owner);
void fixup_rt_mutex_waiters(struct rt_mutex *lock);

/* rt_mutex_slowunlock - the unlock when the waiters bit is set, steps
 * [U1]..[U3].  Context: task.  Locking: takes wait_lock; the caller owns
 * lock. */
void rt_mutex_slowunlock(struct rt_mutex *lock);
/* rt_mutex_unlock_window - test-only (kernel/debug/race_window.h): the
 * no-waiters unlock between giving up the owner word and its last touch
 * of the lock, [U1] (tests/kernel/test_rtmutex_races.c). */
extern struct race_window rt_mutex_unlock_window;
/* rt_mutex_mark_waiters_window - test-only: try_to_take_rt_mutex between
 * [T1] (waiters bit set, wait_lock held) and its look at the owner
 * (tests/kernel/test_rtmutex_waiters_bit.c). */
extern struct race_window rt_mutex_mark_waiters_window;
/* rt_mutex_chain_walk_window - test-only: the chain walk's entry, no
 * lock held, before its step [0]; rtmutex_races parks a walk there while
 * the next link's waiter leaves (pi_walk_check_link's diagram). */
extern struct race_window rt_mutex_chain_walk_window;

/* The PI side (kernel/locking/rtmutex_pi.c) that rtmutex.c's slow paths
 * call; each definition's comment has its steps and locking.
 * rt_mutex_adjust_prio - task->prio from its normal prio and top PI
 * waiter.  Context: irqs off.  Locking: task->pi_lock held. */
void rt_mutex_adjust_prio(struct task_struct *task);
/* task_blocks_on_rt_mutex - queue waiter, boost the owner chain, steps
 * [B1]..[B4]; 0 or -EDEADLK.  Context: task, irqs off.  Locking:
 * lock->wait_lock held (dropped and retaken around the walk). */
int task_blocks_on_rt_mutex(struct rt_mutex *lock,
			    struct rt_mutex_waiter *waiter,
			    struct task_struct *task, bool detect);
/* remove_waiter - current leaves lock's queue, deboosting the owner
 * chain, steps [D1]..[D3].  Context: task, irqs off.  Locking:
 * lock->wait_lock held (dropped and retaken around the walk). */
void remove_waiter(struct rt_mutex *lock, struct rt_mutex_waiter *waiter);

/* rt_mutex_slowpath_count - acquisitions that went past [S1] into the
 * sleeping slow path so far (tests: the fast path never increments it). */
extern unsigned long rt_mutex_slowpath_count;

#endif /* KERNEL_LOCKING_RTMUTEX_INTERNAL_H */
