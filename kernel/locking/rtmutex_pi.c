/*
 * kernel/locking/rtmutex_pi.c - the priority-inheritance side of
 * rt_mutex (article, "Priority inheritance for in-kernel spinlocks and
 * semaphores"): queueing a waiter and boosting the owner
 * (task_blocks_on_rt_mutex), leaving the queue and deboosting
 * (remove_waiter), the transitive chain walk (rt_mutex_adjust_prio_chain)
 * and the re-walk after a priority change (rt_mutex_adjust_pi).
 * The owner word, the lock order and the stealing rule are explained in
 * kernel/locking/rtmutex.c, whose slow path calls in here; the per-link
 * decisions are the portable kernel/locking/pi_chain.c.  Depends on the
 * scheduler (rt_mutex_setprio, wake_up_process*) and
 * kernel/locking/deadlock.c for the depth report.
 * Linux counterpart: the PI half of kernel/locking/rtmutex.c (v3.x-v4.x
 * structure), split out here only for length; rtk leaves out the
 * wake_q batching and the futex proxy locking.
 *
 * pi_waiters (task->pi_lock) holds, for each lock a task owns, that
 * lock's top waiter; the task's prio is the better of its normal_prio
 * and the top of pi_waiters (rt_mutex_getprio).  The chain walk goes
 * against the lock order (task->pi_lock, then the next lock's
 * wait_lock), so it only trylocks there and backs off.
 */
#include "kernel/debug/sched_trace.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/locking/deadlock.h"
#include "lib/errno.h"
#include "lib/bug.h"

/* Linux's default: deeper chains than this are taken as a loop. */
int max_lock_depth = 1024;

int rt_mutex_getprio(struct task_struct *task)
{
	return pi_effective_prio(task->normal_prio, &task->pi_waiters);
}

/*
 * rt_mutex_adjust_prio - boost or deboost task to what its normal prio
 * and its top PI waiter say.  Locking: task->pi_lock held.
 */
void rt_mutex_adjust_prio(struct task_struct *task)
{
	int prio;

	raw_spin_assert_held(&task->pi_lock);
	prio = rt_mutex_getprio(task);
	if (task->prio != prio)
		rt_mutex_setprio(task, prio);
}

/* The lock task is blocked on, or NULL.  Locking: task->pi_lock held. */
static struct rt_mutex *task_blocked_on_lock(struct task_struct *task)
{
	return task->pi_blocked_on ? task->pi_blocked_on->lock : NULL;
}

static void rt_mutex_wake_waiter(struct rt_mutex_waiter *waiter)
{
	if (waiter->savestate)
		wake_up_process_mutex(waiter->task);
	else
		wake_up_process(waiter->task);
}

/*
 * rt_mutex_adjust_prio_chain - walk the PI chain starting at task, which
 * owns or is about to be boosted through orig_lock, and propagate the
 * priority change along it.
 *
 * task:	  the owner to look at first (a reference is held; dropped here)
 * detect:	  walk the whole chain, looking for a cycle, even where no
 *		  priority changes
 * orig_lock:	  the lock the walk started from (NULL from adjust_pi)
 * next_lock:	  the lock task was blocked on when the caller looked
 * orig_waiter:	  the waiter that started the walk (NULL on deboost)
 * top_task:	  the task that started the walk (cycle check)
 *
 * For each link of the chain:
 *	[1] take task->pi_lock; stop if task no longer blocks, or blocks
 *	    on another lock than next_lock (it got its lock and moved on)
 *	[2] stop if nothing changes further up: the waiter is not task's top
 *	    PI waiter any more, or the waiter already has task's prio
 *	    (unless detecting deadlocks: then go on without requeueing)
 *	[3] trylock lock->wait_lock (against the lock order; retry on fail)
 *	[4] deadlock: the chain came back to orig_lock or to top_task
 *	[5] requeue task's waiter in lock->wait_list at task->prio
 *	[6] drop task; no owner (the pending window): wake the new top
 *	    waiter if it changed, done
 *	[7] take the owner's pi_lock; if our waiter became the top waiter,
 *	    it replaces the old top in owner->pi_waiters (boost); if it was
 *	    the top and no longer is, the new top replaces it (deboost);
 *	    re-evaluate owner's prio
 *	[8] continue with owner and the lock it is blocked on, if any, and
 *	    if our waiter is or was the top of lock (else nothing propagates)
 * Steps [2], [5] and [7] are the portable kernel/locking/pi_chain.c,
 * which the host test tests/host/test_rtmutex_chain.c drives over
 * abstract tasks and locks.
 * The walk is bounded by max_lock_depth links: deeper is reported as a
 * probable cycle and returns -EDEADLK.
 *
 * Context: task, may not sleep; irqs on.  Locking: none held on entry;
 * takes pi_locks and wait_locks one link at a time.
 */
static int rt_mutex_adjust_prio_chain(struct task_struct *task, bool detect,
				      struct rt_mutex *orig_lock,
				      struct rt_mutex *next_lock,
				      struct rt_mutex_waiter *orig_waiter,
				      struct task_struct *top_task)
{
	struct rt_mutex_waiter *waiter, *top_waiter = orig_waiter;
	struct rt_mutex_waiter *prerequeue_top_waiter;
	struct rt_mutex *lock;
	bool requeue, propagate;
	int depth = 0;
	int ret = 0;

	BUG_ON(raw_irqs_disabled());
again:
	if (++depth > max_lock_depth) {
		rt_mutex_report_depth(top_task, orig_lock, max_lock_depth);
		put_task_struct(task);
		return -EDEADLK;
	}
retry:
	requeue = true;
	raw_spin_lock_irq(&task->pi_lock);			/* [1] */
	waiter = task->pi_blocked_on;
	if (!waiter)
		goto out_unlock_pi;
	if (orig_waiter && !rt_mutex_owner(orig_lock))
		goto out_unlock_pi;	/* released meanwhile: unlock boosts */
	if (next_lock != waiter->lock)
		goto out_unlock_pi;
	switch (pi_link_action(waiter, &task->pi_waiters, task->prio,	/* [2] */
			       top_waiter, detect)) {
	case PI_LINK_STOP:
		goto out_unlock_pi;
	case PI_LINK_FOLLOW:
		requeue = false;
		break;
	case PI_LINK_REQUEUE:
		break;
	}
	lock = waiter->lock;
	if (!raw_spin_trylock(&lock->wait_lock)) {		/* [3] */
		raw_spin_unlock_irq(&task->pi_lock);
		cpu_relax();
		goto retry;
	}
	if (lock == orig_lock || rt_mutex_owner(lock) == top_task) {	/* [4] */
		raw_spin_unlock(&lock->wait_lock);
		ret = -EDEADLK;
		goto out_unlock_pi;
	}
	if (!requeue) {
		/* detecting only: follow the chain without changing it */
		raw_spin_unlock(&task->pi_lock);
		put_task_struct(task);
		if (!rt_mutex_owner(lock)) {
			raw_spin_unlock_irq(&lock->wait_lock);
			return 0;
		}
		task = get_task_struct(rt_mutex_owner(lock));
		raw_spin_lock(&task->pi_lock);
		next_lock = task_blocked_on_lock(task);
		top_waiter = rt_mutex_top_waiter(lock);
		raw_spin_unlock(&task->pi_lock);
		raw_spin_unlock_irq(&lock->wait_lock);
		if (!next_lock)
			goto out_put_task;
		goto again;
	}

	prerequeue_top_waiter = pi_requeue_waiter(&lock->wait_list,	/* [5] */
						  waiter, task->prio);

	raw_spin_unlock(&task->pi_lock);			/* [6] */
	put_task_struct(task);
	if (!rt_mutex_owner(lock)) {
		if (prerequeue_top_waiter != rt_mutex_top_waiter(lock))
			rt_mutex_wake_waiter(rt_mutex_top_waiter(lock));
		raw_spin_unlock_irq(&lock->wait_lock);
		return 0;
	}

	task = get_task_struct(rt_mutex_owner(lock));		/* [7] */
	raw_spin_lock(&task->pi_lock);
	propagate = waiter == rt_mutex_top_waiter(lock) ||
		    waiter == prerequeue_top_waiter;
	if (propagate) {
		pi_owner_update(&task->pi_waiters, &lock->wait_list,
				prerequeue_top_waiter);
		rt_mutex_adjust_prio(task);
	}
	next_lock = task_blocked_on_lock(task);			/* [8] */
	top_waiter = rt_mutex_top_waiter(lock);
	raw_spin_unlock(&task->pi_lock);
	raw_spin_unlock_irq(&lock->wait_lock);
	if (!next_lock)
		goto out_put_task;
	if (!detect && !propagate)
		goto out_put_task;
	goto again;

out_unlock_pi:
	raw_spin_unlock_irq(&task->pi_lock);
out_put_task:
	put_task_struct(task);
	return ret;
}

/*
 * task_blocks_on_rt_mutex - queue waiter for task on lock and boost the
 * owner chain:
 *	[1] taking a lock one holds is a self-deadlock
 *	[2] queue the waiter by prio (FIFO among equals), mark task blocked
 *	[3] if it became the top waiter, it replaces the old one in the
 *	    owner's pi_waiters and the owner is re-prioritised
 *	[4] if the owner is itself blocked, walk the chain (always when
 *	    detecting deadlocks)
 * Returns 0 or -EDEADLK (the waiter is still queued then).
 * Context: task.  Locking: lock->wait_lock held with irqs off; dropped and
 * retaken around the chain walk.
 */
int task_blocks_on_rt_mutex(struct rt_mutex *lock,
			    struct rt_mutex_waiter *waiter,
			    struct task_struct *task, bool detect)
{
	struct task_struct *owner = rt_mutex_owner(lock);
	struct rt_mutex_waiter *top_waiter = NULL;
	struct rt_mutex *next_lock;
	bool chain_walk = false;
	int res;

	sched_trace_contend(task, owner, lock);

	raw_spin_assert_held(&lock->wait_lock);
	if (owner == task)					/* [1] */
		return -EDEADLK;

	waiter->task = task;					/* [2] */
	waiter->lock = lock;
	raw_spin_lock(&task->pi_lock);
	waiter->prio = task->prio;
	if (rt_mutex_has_waiters(lock))
		top_waiter = rt_mutex_top_waiter(lock);
	pi_waiter_enqueue(&lock->wait_list, waiter);
	task->pi_blocked_on = waiter;
	raw_spin_unlock(&task->pi_lock);

	if (!owner)
		return 0;

	raw_spin_lock(&owner->pi_lock);				/* [3] */
	if (waiter == rt_mutex_top_waiter(lock)) {
		pi_owner_update(&owner->pi_waiters, &lock->wait_list,
				top_waiter);
		rt_mutex_adjust_prio(owner);
		if (owner->pi_blocked_on)
			chain_walk = true;
	} else if (detect) {
		chain_walk = true;
	}
	next_lock = task_blocked_on_lock(owner);
	raw_spin_unlock(&owner->pi_lock);
	if (!chain_walk || !next_lock)
		return 0;

	get_task_struct(owner);					/* [4] */
	raw_spin_unlock_irq(&lock->wait_lock);
	res = rt_mutex_adjust_prio_chain(owner, detect, lock, next_lock,
					 waiter, task);
	raw_spin_lock_irq(&lock->wait_lock);
	return res;
}

/*
 * remove_waiter - current leaves lock's queue without the lock (signal,
 * timeout, deadlock): if it was the top waiter, the owner drops to its
 * next top waiter and the chain behind the owner is deboosted.
 * Context: task.  Locking: lock->wait_lock held, irqs off; dropped and
 * retaken around the chain walk.
 */
void remove_waiter(struct rt_mutex *lock, struct rt_mutex_waiter *waiter)
{
	bool is_top_waiter = (waiter == rt_mutex_top_waiter(lock));
	struct task_struct *owner = rt_mutex_owner(lock);
	struct rt_mutex *next_lock;

	raw_spin_assert_held(&lock->wait_lock);
	raw_spin_lock(&current->pi_lock);
	pi_waiter_dequeue(&lock->wait_list, waiter);
	current->pi_blocked_on = NULL;
	raw_spin_unlock(&current->pi_lock);

	if (!owner || !is_top_waiter)
		return;

	raw_spin_lock(&owner->pi_lock);
	pi_owner_update(&owner->pi_waiters, &lock->wait_list, waiter);
	rt_mutex_adjust_prio(owner);
	next_lock = task_blocked_on_lock(owner);
	raw_spin_unlock(&owner->pi_lock);
	if (!next_lock)
		return;

	get_task_struct(owner);
	raw_spin_unlock_irq(&lock->wait_lock);
	rt_mutex_adjust_prio_chain(owner, false, lock, next_lock, NULL, current);
	raw_spin_lock_irq(&lock->wait_lock);
}

void rt_mutex_adjust_pi(struct task_struct *task)
{
	struct rt_mutex_waiter *waiter;
	struct rt_mutex *next_lock;
	unsigned long flags;

	raw_spin_lock_irqsave(&task->pi_lock, flags);
	waiter = task->pi_blocked_on;
	if (!waiter || waiter->prio == task->prio) {
		raw_spin_unlock_irqrestore(&task->pi_lock, flags);
		return;
	}
	next_lock = waiter->lock;
	raw_spin_unlock_irqrestore(&task->pi_lock, flags);

	get_task_struct(task);
	rt_mutex_adjust_prio_chain(task, false, NULL, next_lock, NULL, task);
}
