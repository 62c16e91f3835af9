/*
 * kernel/locking/rtmutex_proxy.h - proxy locking of an rt_mutex: taking,
 * waiting for and handing over an rt_mutex on behalf of a lock that lives
 * elsewhere, the PI futex's word in user memory (kernel/futex/pi.c).
 *
 * While a PI futex is contended the kernel keeps an rt_mutex that stands
 * in for it: the user-space owner is made its owner by proxy
 * (rt_mutex_init_proxy_locked), a waiter queues on it in one step under
 * the futex's hash-bucket lock (__rt_mutex_start_proxy_lock) and sleeps
 * later without that lock (rt_mutex_wait_proxy_lock), so the owner is
 * boosted through the ordinary PI chain walk, transitively, across any
 * kernel rt_mutex it waits for too.  rtmutex_proxy.c has the steps.
 * Linux counterpart: the proxy functions of kernel/locking/rtmutex_api.c
 * (v5.15+; rtmutex.c before), and rt_mutex_futex_unlock's hand-over.
 */
#ifndef KERNEL_LOCKING_RTMUTEX_PROXY_H
#define KERNEL_LOCKING_RTMUTEX_PROXY_H

#include "lib/types.h"
#include "kernel/time/ktime.h"

struct rt_mutex;
struct rt_mutex_waiter;
struct task_struct;

/* rt_mutex_init_proxy_locked - initialise lock as owned by proxy_owner,
 * which does not know it (it holds the user-space lock the rt_mutex
 * stands for).  Context: task.  Locking: lock not yet visible to others. */
void rt_mutex_init_proxy_locked(struct rt_mutex *lock,
				struct task_struct *proxy_owner);

/* rt_mutex_proxy_unlock - forget lock's proxy owner; nobody waits and
 * nobody can find lock any more (the futex's pi_state is being freed).
 * Context: task.  Locking: none; takes lock->wait_lock. */
void rt_mutex_proxy_unlock(struct rt_mutex *lock);

/* __rt_mutex_start_proxy_lock - take lock for task, or queue waiter and
 * boost the owner chain.  1: taken, 0: queued, -EDEADLK: queued, but the
 * chain closes a cycle (rt_mutex_cleanup_proxy_lock dequeues it).
 * Context: task, irqs off.  Locking: lock->wait_lock held (dropped and
 * retaken around the chain walk). */
int __rt_mutex_start_proxy_lock(struct rt_mutex *lock,
				struct rt_mutex_waiter *waiter,
				struct task_struct *task);

/* rt_mutex_wait_proxy_lock - sleep until a queued waiter of current owns
 * lock (0), a kernel_signal arrives (-EINTR) or ktime_get() reaches
 * *deadline (-ETIMEDOUT; deadline NULL: no timeout).  The waiter stays
 * queued on failure.  Context: task, may sleep.  Locking: none held. */
int rt_mutex_wait_proxy_lock(struct rt_mutex *lock, const ktime_t *deadline,
			     struct rt_mutex_waiter *waiter);

/* rt_mutex_cleanup_proxy_lock - after a failed start or wait: dequeue
 * current's waiter, deboosting the owner chain (true: cleaned up), unless
 * current got lock meanwhile (false: it owns lock, the failure is void;
 * Linux's return convention).  Context: task, may not sleep.  Locking:
 * the caller's outer lock (the futex bucket's) may be held; takes
 * lock->wait_lock. */
bool rt_mutex_cleanup_proxy_lock(struct rt_mutex *lock,
				 struct rt_mutex_waiter *waiter);

/* rt_mutex_proxy_hand_over - current, lock's owner, gives lock straight to
 * its top waiter (the PI futex's unlock: the new owner's TID is already in
 * the user word) and loses the boost that waiter gave it.  Returns the
 * new owner.  Context: task, irqs off.  Locking: lock->wait_lock held;
 * lock has waiters. */
struct task_struct *rt_mutex_proxy_hand_over(struct rt_mutex *lock);

#endif /* KERNEL_LOCKING_RTMUTEX_PROXY_H */
