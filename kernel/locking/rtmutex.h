/*
 * kernel/locking/rtmutex.h - rt_mutex: the sleeping lock with priority
 * inheritance that every PREEMPT_RT sleeping lock is built on (article,
 * "Priority inheritance for in-kernel spinlocks and semaphores" and
 * "Summary of PREEMPT_RT primitives": spinlock_t, rwlock_t, struct
 * semaphore and struct rw_semaphore all sit on an rt_mutex under rt).
 *
 * An uncontended lock and unlock are one cmpxchg on the owner word and
 * touch no other lock; contention goes to the slow path under the raw
 * wait_lock (kernel/locking/rtmutex.c has the owner-word table and the
 * algorithm).  The lock is not recursive: taking it twice is a
 * self-deadlock (kernel/locking/deadlock.h reports it).
 * Linux counterpart: include/linux/rtmutex.h.  rtk's rt_mutex_timed_lock
 * takes a relative timeout in ns instead of an hrtimer_sleeper.
 */
#ifndef KERNEL_LOCKING_RTMUTEX_H
#define KERNEL_LOCKING_RTMUTEX_H

#include "lib/types.h"
#include "lib/plist.h"
#include "kernel/locking/raw_spinlock.h"

struct task_struct;

struct rt_mutex {
	/* owner: task pointer | RT_MUTEX_HAS_WAITERS; cmpxchg'd by the fast
	 * paths, every other write under wait_lock */
	uintptr_t owner;
	raw_spinlock_t wait_lock;	/* protects wait_list, owner bit 0 */
	struct plist_head wait_list;	/* rt_mutex_waiter.list_entry */
	/* for reports (deadlock.c, the `locks` command); set at init */
	const char *name;		/* "L0", "&dev->lock" */
	const char *file;		/* where it was initialised */
	int line;
	struct lockdep_map dep_map;	/* validator class (lockdep.h) */
};

#define __RT_MUTEX_INITIALIZER(mutexname)                                    \
	{ .owner = 0,                                                        \
	  .wait_lock = __RAW_SPIN_LOCK_UNLOCKED(mutexname.wait_lock),        \
	  .wait_list = PLIST_HEAD_INIT(mutexname.wait_list),                 \
	  .name = #mutexname, .file = __FILE__, .line = __LINE__,            \
	  .dep_map = LOCKDEP_MAP_INIT(#mutexname, LD_WAIT_SLEEP) }

#define DEFINE_RT_MUTEX(mutexname)                                           \
	struct rt_mutex mutexname = __RT_MUTEX_INITIALIZER(mutexname)

void __rt_mutex_init(struct rt_mutex *lock, const char *name,
		     const char *file, int line);
#define rt_mutex_init(lock) __rt_mutex_init(lock, #lock, __FILE__, __LINE__)

/* rt_mutex_destroy - the lock will not be used again; reports (and
 * counts, deadlock.h) a lock that is still held or has waiters. */
void rt_mutex_destroy(struct rt_mutex *lock);

/* rt_mutex_lock - sleep until the lock is ours, boosting its owner chain.
 * On a detected deadlock it reports the cycle and stays blocked (the
 * caller has no way to fail; another party of the cycle leaving through
 * a signal or a timeout lets it go on).  Context: task, may sleep. */
void rt_mutex_lock(struct rt_mutex *lock);

/* rt_mutex_lock_interruptible - 0, -EINTR when kernel_signal() hits the
 * waiter (kernel/signal.h), -EDEADLK on a detected deadlock (the cycle
 * is printed).  Context: task, may sleep. */
int rt_mutex_lock_interruptible(struct rt_mutex *lock);

/* rt_mutex_timed_lock - as _interruptible, and -ETIMEDOUT after
 * timeout_ns; timeout_ns < 0 waits for ever.  Context: task, may sleep. */
int rt_mutex_timed_lock(struct rt_mutex *lock, s64 timeout_ns);

/* rt_mutex_trylock - 1 if taken, 0 if not; never sleeps.  A task may
 * take a free lock with waiters only if it beats the top waiter (the
 * stealing rule).  Context: any task context, irqs may be off. */
int rt_mutex_trylock(struct rt_mutex *lock);

/* rt_mutex_unlock - release; the top waiter is woken and the unlocker
 * drops back to the priority its remaining locks give it.  Unlocking a
 * lock one does not own is reported and ignored.  Context: task. */
void rt_mutex_unlock(struct rt_mutex *lock);

/* rt_mutex_owner - the owner, or NULL (also while a woken top waiter has
 * not taken it yet). */
static inline struct task_struct *rt_mutex_owner(const struct rt_mutex *lock)
{
	return (struct task_struct *)(__atomic_load_n(&lock->owner,
						      __ATOMIC_ACQUIRE) &
				      ~(uintptr_t)1);
}

static inline bool rt_mutex_is_locked(const struct rt_mutex *lock)
{
	return rt_mutex_owner(lock) != NULL;
}

/* rt_mutex_getprio - the prio task should run at: the better of its
 * normal_prio and its top PI waiter's.  Locking: task->pi_lock held. */
int rt_mutex_getprio(struct task_struct *task);

/* rt_mutex_adjust_pi - task's normal prio changed (sched_setscheduler,
 * set_user_nice): if it is blocked, re-sort it in its lock and walk the
 * chain so every owner behind it gets the new boost (or loses it).
 * Context: task, no locks held. */
void rt_mutex_adjust_pi(struct task_struct *task);

/* max_lock_depth - chain-walk bound (Linux's sysctl, same default). */
extern int max_lock_depth;

#endif /* KERNEL_LOCKING_RTMUTEX_H */
