/*
 * kernel/locking/rtmutex_proxy.c - proxy locking of an rt_mutex, the
 * kernel half of a PI futex (kernel/futex/pi.c; the API and its contract
 * are kernel/locking/rtmutex_proxy.h).
 *
 * A PI futex's lock is a word in user memory holding its owner's TID.
 * While it is contended, an rt_mutex stands in for it so that waiting
 * boosts the owner exactly as a kernel lock would (article, "Priority
 * inheritance for in-kernel spinlocks and semaphores"): the first waiter
 * makes the user-space owner its owner by proxy, waiters queue on it
 * under the futex's hash-bucket lock and sleep without it, and the
 * futex's unlock hands it straight to the top waiter, whose TID it has
 * just written into the user word.
 *
 * The hand-over (rt_mutex_proxy_hand_over) is rtk's choice where Linux
 * leaves the rt_mutex free for its top waiter and lets a better task
 * steal it (kernel/locking/rtmutex.c, [T3]), then repairs the user word
 * in fixup_pi_state_owner().  Here the word and the rt_mutex never
 * disagree: a stealer could not win the user word anyway, which already
 * names the woken waiter.
 *
 * Uses rtmutex.c's owner word and try_to_take_rt_mutex ([T1]..[T4]) and
 * rtmutex_pi.c's queueing with its chain walk ([B1]..[B4], [D1]..[D3]).
 * No lockdep annotation: the validator knows user locks no better than
 * Linux's does (its futex paths use the unannotated rt_mutex calls).
 * Linux counterpart: rt_mutex_init_proxy_locked, rt_mutex_proxy_unlock,
 * __rt_mutex_start_proxy_lock, rt_mutex_wait_proxy_lock,
 * rt_mutex_cleanup_proxy_lock in kernel/locking/rtmutex_api.c (v5.15+).
 */
#include "kernel/locking/rtmutex_proxy.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/locking/deadlock.h"
#include "kernel/sched/wait.h"
#include "kernel/signal.h"
#include "lib/errno.h"
#include "lib/bug.h"

void rt_mutex_init_proxy_locked(struct rt_mutex *lock,
				struct task_struct *proxy_owner)
{
	rt_mutex_init(lock);
	__atomic_store_n(&lock->owner, (uintptr_t)proxy_owner,
			 __ATOMIC_RELEASE);
}

void rt_mutex_proxy_unlock(struct rt_mutex *lock)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&lock->wait_lock, flags);
	BUG_ON(rt_mutex_has_waiters(lock));
	__atomic_store_n(&lock->owner, 0, __ATOMIC_RELEASE);
	raw_spin_unlock_irqrestore(&lock->wait_lock, flags);
}

/*
 * __rt_mutex_start_proxy_lock (rtmutex_proxy.h):
 *	[P1] take the lock for task if the rules allow ([T1]..[T4])
 *	[P2] else queue waiter and boost the owner chain ([B1]..[B4]),
 *	     looking for a cycle all the way (a user can build one with two
 *	     PI futexes, and must get -EDEADLK instead of hanging)
 *	[P3] a cycle through a lock whose owner left while the walk ran
 *	     (wait_lock dropped) is gone again: the waiter just waits
 * The caller sleeps later, in rt_mutex_wait_proxy_lock, after dropping
 * the locks it holds; holding wait_lock from before it released its own
 * lock (the futex's hash bucket) until [P2] has queued the waiter is what
 * keeps an unlock from slipping in between unseen.
 * Context: task, irqs off.  Locking: lock->wait_lock held (dropped and
 * retaken around the chain walk, with irqs on).
 */
int __rt_mutex_start_proxy_lock(struct rt_mutex *lock,
				struct rt_mutex_waiter *waiter,
				struct task_struct *task)
{
	int ret;

	raw_spin_assert_held(&lock->wait_lock);
	if (try_to_take_rt_mutex(lock, task, NULL))		/* [P1] */
		return 1;
	ret = task_blocks_on_rt_mutex(lock, waiter, task,	/* [P2] */
				      RT_DEADLOCK_DETECT);
	if (ret && !rt_mutex_owner(lock))			/* [P3] */
		ret = 0;
	return ret;
}

/*
 * rt_mutex_wait_proxy_lock (rtmutex_proxy.h):
 *	[W1] set the sleep state first, under wait_lock: a hand-over or a
 *	     signal after the checks below finds a sleeper to wake
 *	[W2] done when the unlock handed lock to us ([H3]), or when we may
 *	     take it as the top waiter of a free lock ([T2])
 *	[W3] stop on a signal or at the deadline; the waiter stays queued
 *	     for rt_mutex_cleanup_proxy_lock, which must look again: the
 *	     lock may be handed over before it runs
 *	[W4] drop wait_lock and sleep until woken or the deadline
 * Context: task, may sleep.  Locking: none held; takes lock->wait_lock
 * (not while sleeping).
 */
int rt_mutex_wait_proxy_lock(struct rt_mutex *lock, const ktime_t *deadline,
			     struct rt_mutex_waiter *waiter)
{
	s64 left = -1;
	int ret = 0;

	might_sleep();
	raw_spin_lock_irq(&lock->wait_lock);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);		/* [W1] */
		if (rt_mutex_owner(lock) == current ||		/* [W2] */
		    try_to_take_rt_mutex(lock, current, waiter))
			break;
		if (signal_pending(current)) {			/* [W3] */
			ret = -EINTR;
			break;
		}
		if (deadline) {
			left = *deadline - ktime_get();
			if (left <= 0) {
				ret = -ETIMEDOUT;
				break;
			}
		}
		raw_spin_unlock_irq(&lock->wait_lock);		/* [W4] */
		schedule_timeout(left);
		raw_spin_lock_irq(&lock->wait_lock);
	}
	__set_current_state(TASK_RUNNING);
	raw_spin_unlock_irq(&lock->wait_lock);
	return ret;
}

/*
 * rt_mutex_cleanup_proxy_lock (rtmutex_proxy.h):
 *	[C1] the unlock handed lock to us after [W3] gave up: we own it
 *	[C2] we may take it as the top waiter of a free lock: take it
 *	[C3] else leave the queue, deboosting the owner chain ([D1]..[D3]),
 *	     and clear a waiters bit nobody needs
 * Returns true when [C3] ran.
 * Context: task, irqs on (the deboost walk needs them), may not sleep.
 * Locking: the futex's bucket lock may be held; takes lock->wait_lock.
 */
bool rt_mutex_cleanup_proxy_lock(struct rt_mutex *lock,
				 struct rt_mutex_waiter *waiter)
{
	bool cleaned = false;

	BUG_ON(raw_irqs_disabled());
	raw_spin_lock_irq(&lock->wait_lock);
	if (rt_mutex_owner(lock) == current)			/* [C1] */
		goto out_unlock;
	if (try_to_take_rt_mutex(lock, current, waiter))	/* [C2] */
		goto out_unlock;
	remove_waiter(lock, waiter);				/* [C3] */
	fixup_rt_mutex_waiters(lock);
	cleaned = true;
out_unlock:
	raw_spin_unlock_irq(&lock->wait_lock);
	return cleaned;
}

/*
 * rt_mutex_proxy_hand_over (rtmutex_proxy.h):
 *	[H1] under current->pi_lock: the top waiter leaves current's
 *	     pi_waiters and current drops the boost it gave (article: "it
 *	     will immediately lose its temporarily boosted priority")
 *	[H2] the waiter leaves the queue; under the new owner's pi_lock it
 *	     is not blocked any more, inherits the next top waiter as its PI
 *	     waiter and is re-prioritised from it (as [T4])
 *	[H3] the owner word names the new owner (bit 0 kept while waiters
 *	     remain); wake it: its [W2] finds lock owned
 * Context: task, irqs off.  Locking: lock->wait_lock held; takes
 * current's, then the new owner's pi_lock, one at a time.
 */
struct task_struct *rt_mutex_proxy_hand_over(struct rt_mutex *lock)
{
	struct rt_mutex_waiter *waiter;
	struct task_struct *new_owner;

	raw_spin_assert_held(&lock->wait_lock);
	BUG_ON(rt_mutex_owner(lock) != current || !rt_mutex_has_waiters(lock));
	waiter = rt_mutex_top_waiter(lock);
	new_owner = waiter->task;

	raw_spin_lock(&current->pi_lock);			/* [H1] */
	pi_owner_dequeue(&current->pi_waiters, waiter);
	rt_mutex_adjust_prio(current);
	raw_spin_unlock(&current->pi_lock);

	pi_waiter_dequeue(&lock->wait_list, waiter);		/* [H2] */
	raw_spin_lock(&new_owner->pi_lock);
	new_owner->pi_blocked_on = NULL;
	if (rt_mutex_has_waiters(lock))
		pi_owner_enqueue(&new_owner->pi_waiters,
				 rt_mutex_top_waiter(lock));
	rt_mutex_adjust_prio(new_owner);
	raw_spin_unlock(&new_owner->pi_lock);

	rt_mutex_set_owner(lock, new_owner);			/* [H3] */
	wake_up_process(new_owner);
	return new_owner;
}
