/*
 * kernel/locking/pi_chain.h - the pure bookkeeping of priority
 * inheritance, shared by rtmutex.c and the host unit test
 * (tests/host/test_rtmutex_chain.c): the rt_mutex waiter, the two
 * priority-sorted queues it sits on, and the decisions of one link of the
 * chain walk.  Nothing here locks, sleeps or knows struct task_struct or
 * struct rt_mutex: the caller holds the locks rtmutex.c names and passes
 * the queues (lock->wait_list, owner->pi_waiters) and priorities.
 *
 * The two queues (lower prio value = more important, FIFO among equals,
 * as lib/plist.h sorts):
 *	lock->wait_list		every waiter of the lock, at waiter->prio
 *	owner->pi_waiters	for each lock the owner holds, that lock's
 *				top waiter only
 * and the rule the chain walk keeps true link by link:
 *	owner->prio = min(owner->normal_prio, top of owner->pi_waiters)
 *
 * Linux counterpart: rt_mutex_enqueue, rt_mutex_dequeue,
 * rt_mutex_enqueue_pi, rt_mutex_dequeue_pi, rt_mutex_getprio and the
 * decisions of steps [3], [7] and [11] of rt_mutex_adjust_prio_chain()
 * in kernel/locking/rtmutex.c (v4.x); rtk's walk keeps Linux's step
 * numbers (kernel/locking/rtmutex_pi.c).
 */
#ifndef KERNEL_LOCKING_PI_CHAIN_H
#define KERNEL_LOCKING_PI_CHAIN_H

#include "lib/types.h"
#include "lib/plist.h"

struct task_struct;
struct rt_mutex;

/*
 * One blocked task, on its stack for the time it waits.
 */
struct rt_mutex_waiter {
	/* under lock->wait_lock */
	struct plist_node list_entry;	/* in lock->wait_list */
	/* under the owner's pi_lock */
	struct plist_node pi_list_entry;	/* in owner->pi_waiters */
	/* set at block time */
	struct task_struct *task;	/* the blocked task */
	struct rt_mutex *lock;		/* what it waits for */
	int prio;			/* task->prio when last queued */
	bool savestate;			/* spinlock_t sleep (TASK_RUNNING_MUTEX) */
};

/* pi_waiter_enqueue / pi_waiter_dequeue - waiter into / out of its
 * lock's wait_list at waiter->prio.  Locking: lock->wait_lock. */
void pi_waiter_enqueue(struct plist_head *wait_list,
		       struct rt_mutex_waiter *waiter);
void pi_waiter_dequeue(struct plist_head *wait_list,
		       struct rt_mutex_waiter *waiter);

/* pi_top_waiter - the most important waiter of wait_list, NULL if none. */
struct rt_mutex_waiter *pi_top_waiter(const struct plist_head *wait_list);

/* pi_top_pi_waiter - the most important entry of an owner's pi_waiters,
 * NULL if none.  Locking: the owner's pi_lock. */
struct rt_mutex_waiter *pi_top_pi_waiter(const struct plist_head *pi_waiters);

/* pi_owner_enqueue / pi_owner_dequeue - a lock's top waiter into / out of
 * its owner's pi_waiters.  Locking: the owner's pi_lock. */
void pi_owner_enqueue(struct plist_head *pi_waiters,
		      struct rt_mutex_waiter *waiter);
void pi_owner_dequeue(struct plist_head *pi_waiters,
		      struct rt_mutex_waiter *waiter);

/* pi_effective_prio - what an owner with this normal prio and these PI
 * waiters runs at: the better of the two.  Locking: the owner's pi_lock. */
int pi_effective_prio(int normal_prio, const struct plist_head *pi_waiters);

/*
 * pi_requeue_waiter - chain-walk step [7]: waiter's task now runs at
 * prio; move the waiter to that place in its lock's wait_list.  Returns
 * the lock's top waiter from before the move (for pi_owner_update).
 * Locking: lock->wait_lock and the waiter's task's pi_lock.
 */
struct rt_mutex_waiter *pi_requeue_waiter(struct plist_head *wait_list,
					  struct rt_mutex_waiter *waiter,
					  int prio);

/*
 * pi_owner_update - a lock's queue changed (a waiter arrived, left or was
 * requeued): old_top, the lock's top waiter before the change (NULL if
 * it had none), leaves the owner's pi_waiters and the lock's top waiter
 * now (if any) enters it at its current prio.  The caller then
 * re-evaluates the owner's prio (pi_effective_prio).  Used by the walk's
 * step [11], task_blocks_on_rt_mutex's [B3] and remove_waiter's [D2].
 * Locking: lock->wait_lock and the owner's pi_lock.
 */
void pi_owner_update(struct plist_head *owner_pi_waiters,
		     const struct plist_head *wait_list,
		     struct rt_mutex_waiter *old_top);

/* What the chain walk does with one link (step [3] of rtmutex_pi.c). */
enum pi_link_action {
	PI_LINK_STOP,		/* nothing changes further up: done */
	PI_LINK_REQUEUE,	/* requeue the waiter and propagate */
	PI_LINK_FOLLOW,		/* deadlock detection only: go on to the
				 * next owner without changing anything */
};

/*
 * pi_link_action - the task of this link is blocked through waiter (NULL:
 * not blocked any more) and runs at task_prio with task_pi_waiters.
 * top_waiter is the waiter the walk came through (NULL at the first link
 * of a deboost or a setscheduler walk): if it is no longer the task's top
 * PI waiter, or the waiter is already queued at task_prio, nothing
 * propagates -- unless detect asks to follow the chain anyway.
 * Locking: the task's pi_lock.
 */
enum pi_link_action pi_link_action(const struct rt_mutex_waiter *waiter,
				   const struct plist_head *task_pi_waiters,
				   int task_prio,
				   const struct rt_mutex_waiter *top_waiter,
				   bool detect);

#endif /* KERNEL_LOCKING_PI_CHAIN_H */
