/*
 * kernel/futex/pi.c - the PI futex operations: FUTEX_LOCK_PI,
 * FUTEX_TRYLOCK_PI and FUTEX_UNLOCK_PI, a user-space mutex with priority
 * inheritance (pthread_mutexattr_setprotocol(PTHREAD_PRIO_INHERIT)).
 *
 * The word (user memory, u32):
 *
 *	TID	WAITERS	meaning
 *	0	0	free: user space takes it with cmpxchg(0 -> TID)
 *	T	0	held by T, nobody in the kernel: T releases it with
 *			cmpxchg(T -> 0), no system call
 *	T	1	held by T, tasks wait or did: T's cmpxchg fails
 *			and T calls FUTEX_UNLOCK_PI
 *
 * Only the kernel sets FUTEX_WAITERS, under the bucket lock; once it is
 * set, user space cannot change the word (its cmpxchg's expect 0 or a
 * bare TID), so from then on every change is made under the bucket lock.
 * This is rtk's rt_mutex owner word with bit 0 (kernel/locking/rtmutex.c)
 * moved to bit 31 and a TID for the task pointer.
 *
 * While tasks wait, a futex_pi_state's rt_mutex stands in for the word
 * (pi_state.c): owned by proxy by the task whose TID the word holds, so
 * each waiter boosts that owner through the ordinary PI chain walk,
 * transitively and across any kernel rt_mutex the owner waits for.
 * The unlock writes the top waiter's TID into the word and hands the
 * rt_mutex to that waiter (rt_mutex_proxy_hand_over): the two always
 * agree, and rtk needs none of Linux's fixup_pi_state_owner().
 *
 * Depends on kernel/futex/core.c (the hash), pi_state.c, futex_uaccess.h
 * and kernel/locking/rtmutex_proxy.h.  Linux counterpart:
 * kernel/futex/pi.c (futex_lock_pi, futex_lock_pi_atomic, futex_unlock_pi,
 * wake_futex_pi).  An owner that exits hands its futexes on as an unlock
 * does (pi_exit.c).  rtk leaves out FUTEX_LOCK_PI2, requeue-PI, robust
 * lists and FUTEX_OWNER_DIED handling, and the lock stealing Linux allows
 * between the unlock and the woken waiter's return.
 */
#include "kernel/futex/futex_internal.h"
#include "kernel/locking/rtmutex_proxy.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/bug.h"

DEFINE_RACE_WINDOW(futex_lock_pi_atomic_window);
DEFINE_RACE_WINDOW(futex_lock_pi_unqueue_window);

/*
 * futex_lock_pi_atomic - step [LP2] of futex_lock_pi, under the bucket
 * lock: take the word for task if it is free, else set FUTEX_WAITERS and
 * attach to the futex's pi_state (creating it from *spare for the first
 * waiter).  task is current, or the waiter FUTEX_CMP_REQUEUE_PI moves
 * (requeue_pi.c, Linux's futex_proxy_trylock_atomic).
 * Returns 1 (taken), 0 (attached: *ps holds a reference for the caller's
 * futex_q), -EDEADLK (task owns it), -EFAULT, -ESRCH, -EINVAL.
 *
 * Each cmpxchg expects the value read before it, and a failure means
 * the word changed: read it again and decide again.  The change that
 * matters is the owner's user-space unlock, which needs no lock:
 *
 *	CPU0 (FUTEX_LOCK_PI)			CPU1 (owner T, user space)
 *	lock(hb); read the word: T
 *						unlock: cmpxchg(T -> 0): done,
 *						  no system call (no WAITERS)
 *	cmpxchg(T -> T|WAITERS) fails, sees 0
 *	again: free, no waiter: take it,
 *	  cmpxchg(0 -> me)
 *
 * Had CPU0 set the bit with a plain store, or attached to T without
 * checking, it would sleep on a lock nobody holds and nobody will
 * unlock.  The test that parks CPU0 in futex_lock_pi_atomic_window and
 * runs CPU1's cmpxchg:
 * futex_races:test_futex_lock_pi_retries_when_the_owner_unlocks_in_user_space
 *
 * FUTEX_WAITERS is set even when a waiter is already queued, because the
 * unlock that hands the futex to its last waiter leaves the bit clear
 * ([UP3]) while that waiter's futex_q, and the pi_state, are still there:
 *
 *	CPU0 (W, handed F by the unlock)	CPU1 (X, FUTEX_LOCK_PI)
 *	[H3] owns the pi_mutex; word = W
 *	  (no WAITERS: W was alone)
 *	not yet at [LP8]
 *						lock(hb); word W; top: W's q
 *						cmpxchg(W -> W|WAITERS)
 *						attach to W's pi_state; sleep
 *	[LP8] unqueue; back to user space
 *	unlock: cmpxchg(W -> 0) fails on the
 *	  bit: FUTEX_UNLOCK_PI hands F to X
 *
 * Attaching without the bit (Linux can: its unlock always leaves it set)
 * would let W's user-space unlock free the word with X asleep for ever.
 * futex_races:test_futex_lock_pi_after_a_hand_over_sets_waiters parks CPU0
 * in futex_lock_pi_unqueue_window and runs CPU1.
 * Context: task.  Locking: hb->lock held; takes pi_mutex.wait_lock and
 * the task list lock (attach).
 */
int futex_lock_pi_atomic(u32 __user *uaddr, struct futex_hash_bucket *hb,
			 const struct futex_key *key,
			 struct futex_pi_state **spare,
			 struct futex_pi_state **ps, struct task_struct *task)
{
	u32 uval, curval, tid = futex_tid(task);
	struct futex_q *top;
	int ret;

	raw_spin_assert_held(&hb->lock);
	ret = futex_get_value_locked(&uval, uaddr);
	if (ret)
		return ret;
again:
	if ((uval & FUTEX_TID_MASK) == tid)
		return -EDEADLK;
	top = futex_top_waiter(hb, key);
	if (!top && !(uval & FUTEX_TID_MASK)) {
		ret = futex_cmpxchg_value_locked(&curval, uaddr, uval, tid);
		if (ret)
			return ret;
		if (curval != uval) {
			uval = curval;
			goto again;
		}
		return 1;
	}
	trace_race_window(&futex_lock_pi_atomic_window);
	if (!(uval & FUTEX_WAITERS)) {
		ret = futex_cmpxchg_value_locked(&curval, uaddr, uval,
						 uval | FUTEX_WAITERS);
		if (ret)
			return ret;
		if (curval != uval) {
			uval = curval;
			goto again;
		}
		uval |= FUTEX_WAITERS;
	}
	if (top) {					/* see above */
		if (!top->pi_state)
			return -EINVAL;	/* FUTEX_WAIT'ers on a PI word */
		ret = attach_to_pi_state(uval, top->pi_state);
		if (!ret)
			*ps = top->pi_state;
		return ret;
	}
	return attach_to_pi_owner(uval, key, spare, ps);
}

/*
 * futex_lock_pi - FUTEX_LOCK_PI and FUTEX_TRYLOCK_PI:
 *	[LP1] the key, and a spare pi_state allocated while we may sleep
 *	[LP2] under the bucket lock: take a free word, or set FUTEX_WAITERS
 *	     and attach to the pi_state (futex_lock_pi_atomic); a word that
 *	     faults is faulted in with the lock dropped, then [LP2] again
 *	[LP3] trylock: a held futex is -EWOULDBLOCK, the reference dropped
 *	[LP4] queue q on the chain (later waiters find the pi_state through
 *	     it); take pi_mutex's wait_lock before dropping the bucket lock,
 *	     so an unlock cannot run between the two and miss our waiter
 *	[LP5] queue the rt_mutex waiter and boost the owner chain
 *	     (__rt_mutex_start_proxy_lock, [P1]..[P3])
 *	[LP6] sleep until the unlock hands us the rt_mutex, the deadline or
 *	     a signal (rt_mutex_wait_proxy_lock, [W1]..[W4])
 *	[LP7] under the bucket lock, on failure: leave the rt_mutex's queue
 *	     and deboost its owner, unless the lock was handed to us since
 *	     [LP6] gave up (rt_mutex_cleanup_proxy_lock, [C1]..[C3])
 *	[LP8] leave the chain, drop the pi_state reference; the last one
 *	     frees it
 *
 * [LP7]'s "unless", the waiter leaving on its timeout while the owner
 * unlocks:
 *
 *	CPU0 (W, FUTEX_LOCK_PI, timeout)	CPU1 (owner T)
 *	[LP6] deadline passed: -ETIMEDOUT,
 *	  W's waiter still queued
 *						FUTEX_UNLOCK_PI: lock(hb),
 *						  W is the top waiter: word =
 *						  W's TID; hand the rt_mutex
 *						  to W ([H1]..[H3]);
 *						  unlock(hb)
 *	[LP7] lock(hb); cleanup: [C1] W owns
 *	  the rt_mutex: ret = 0
 *
 * Returning -ETIMEDOUT there would leave the word naming W while W's
 * caller believes it failed: the lock would never be released.
 * futex_races:test_futex_lock_pi_timeout_loses_to_a_hand_over parks CPU0 in
 * futex_lock_pi_unqueue_window and runs CPU1's unlock.
 * Context: task, may sleep.  Locking: none held; takes the bucket lock,
 * pi_mutex's wait_lock and (in the chain walk) tasks' pi_locks.
 */
int futex_lock_pi(u32 __user *uaddr, const ktime_t *abs_timeout,
		  bool trylock)
{
	struct futex_pi_state *spare, *ps = NULL, *to_free = NULL;
	struct rt_mutex_waiter rt_waiter = { 0 };
	struct futex_hash_bucket *hb;
	struct futex_key key;
	struct futex_q q;
	int ret;

	might_sleep();
	ret = futex_get_key(uaddr, &key);			/* [LP1] */
	if (ret)
		return ret;
	spare = alloc_pi_state();
	if (!spare)
		return -ENOMEM;
	hb = futex_hash(&key);
	futex_q_init(&q, &key);
retry:
	raw_spin_lock(&hb->lock);
	/* [LP2] */
	ret = futex_lock_pi_atomic(uaddr, hb, &key, &spare, &ps, current);
	if (ret) {
		raw_spin_unlock(&hb->lock);
		if (ret == 1) {
			ret = 0;
		} else if (ret == -EFAULT) {
			ret = futex_fault_in(uaddr);
			if (!ret)
				goto retry;
		}
		goto out_free;
	}
	if (trylock) {					/* [LP3] */
		to_free = put_pi_state_locked(ps);
		raw_spin_unlock(&hb->lock);
		ret = -EWOULDBLOCK;
		goto out_free;
	}

	q.pi_state = ps;					/* [LP4] */
	__futex_queue(&q, hb);
	raw_spin_lock_irq(&ps->pi_mutex.wait_lock);
	raw_spin_unlock(&hb->lock);
	ret = __rt_mutex_start_proxy_lock(&ps->pi_mutex,	/* [LP5] */
					  &rt_waiter, current);
	raw_spin_unlock_irq(&ps->pi_mutex.wait_lock);
	/* [P1] cannot take it: the pi_mutex is owned from attach_to_pi_owner
	 * until free_pi_state, and pi_state->owner would be stale if it did */
	if (WARN_ON(ret == 1))
		ret = 0;
	else if (ret == 0)					/* [LP6] */
		ret = rt_mutex_wait_proxy_lock(&ps->pi_mutex, abs_timeout,
					       &rt_waiter);
	trace_race_window(&futex_lock_pi_unqueue_window);

	raw_spin_lock(&hb->lock);				/* [LP7] */
	if (ret && !rt_mutex_cleanup_proxy_lock(&ps->pi_mutex, &rt_waiter))
		ret = 0;
	__futex_unqueue(&q, hb);				/* [LP8] */
	to_free = put_pi_state_locked(ps);
	raw_spin_unlock(&hb->lock);
out_free:
	free_pi_state(to_free);
	free_pi_state(spare);
	return ret;
}

/* pi_mutex_has_one_waiter - is exactly one task queued on lock?
 * Locking: lock->wait_lock held. */
static bool pi_mutex_has_one_waiter(struct rt_mutex *lock)
{
	raw_spin_assert_held(&lock->wait_lock);
	return list_is_singular(&lock->wait_list.node_list);
}

/*
 * pi_state_hand_over - current, pi_state's owner, gives its rt_mutex to
 * the top waiter (rt_mutex_proxy_hand_over: current loses the boost) and
 * the pi_state moves to the new owner's pi_state_list.  Returns false,
 * changing nothing, when no task waits on the rt_mutex.
 * Context: task, irqs off.  Locking: hb->lock and pi_mutex.wait_lock
 * held; takes the two owners' pi_locks, one at a time.
 */
bool pi_state_hand_over(struct futex_pi_state *pi_state)
{
	struct rt_mutex *lock = &pi_state->pi_mutex;
	struct task_struct *new_owner;

	raw_spin_assert_held(&lock->wait_lock);
	BUG_ON(pi_state->owner != current);
	if (!rt_mutex_has_waiters(lock))
		return false;
	new_owner = rt_mutex_proxy_hand_over(lock);
	raw_spin_lock(&current->pi_lock);
	list_del_init(&pi_state->list);
	raw_spin_unlock(&current->pi_lock);
	raw_spin_lock(&new_owner->pi_lock);
	list_add(&pi_state->list, &new_owner->pi_state_list);
	raw_spin_unlock(&new_owner->pi_lock);
	pi_state->owner = get_task_struct(new_owner);
	put_task_struct(current);	/* the pi_state's; not our last */
	return true;
}

/*
 * wake_futex_pi - step [UP3] of futex_unlock_pi: current owns the word
 * and pi_state's rt_mutex, and tasks wait.  The top waiter's TID goes
 * into the word first (it may fault; nothing has changed yet), with
 * FUTEX_WAITERS when others still wait, so that the new owner's unlock
 * comes here again; then the rt_mutex is handed over and current loses
 * the boost.  0, -EFAULT, -EAGAIN (the word changed: read it again),
 * -EINVAL (the word and the pi_state disagree: user space wrote a
 * contended word).  The owner's exit hands its futexes on the same way
 * (pi_exit.c).
 * Context: task.  Locking: hb->lock held; takes pi_mutex.wait_lock and
 * the two tasks' pi_locks (pi_state_hand_over).
 */
int wake_futex_pi(u32 __user *uaddr, u32 uval,
		  struct futex_pi_state *pi_state)
{
	struct rt_mutex *lock = &pi_state->pi_mutex;
	u32 newval, curval;
	int ret;

	raw_spin_lock_irq(&lock->wait_lock);
	if (pi_state->owner != current) {
		ret = -EINVAL;
		goto out_unlock;
	}
	/* every queued futex_q's waiter is on the rt_mutex: [LP4] queues
	 * both under the locks this unlock holds, [LP7] removes both */
	BUG_ON(!rt_mutex_has_waiters(lock));
	newval = futex_tid(rt_mutex_top_waiter(lock)->task);
	if (!pi_mutex_has_one_waiter(lock))
		newval |= FUTEX_WAITERS;
	ret = futex_cmpxchg_value_locked(&curval, uaddr, uval, newval);
	if (ret)
		goto out_unlock;
	if (curval != uval) {
		ret = -EAGAIN;
		goto out_unlock;
	}
	pi_state_hand_over(pi_state);
out_unlock:
	raw_spin_unlock_irq(&lock->wait_lock);
	return ret;
}

/*
 * futex_unlock_pi - FUTEX_UNLOCK_PI:
 *	[UP1] under the bucket lock, read the word; the caller must be the
 *	     owner it names (-EPERM)
 *	[UP2] no task queued in the kernel: release the word (FUTEX_WAITERS
 *	     may be left over from waiters that timed out)
 *	[UP3] else hand the futex to the top waiter (wake_futex_pi)
 * A fault or a word changed under us starts again from [UP1].
 * Context: task, may sleep (faulting the word in).  Locking: none held;
 * takes the bucket lock.
 */
int futex_unlock_pi(u32 __user *uaddr)
{
	struct futex_hash_bucket *hb;
	struct futex_key key;
	struct futex_q *top;
	u32 uval, curval;
	int ret;

	might_sleep();
	ret = futex_get_key(uaddr, &key);
	if (ret)
		return ret;
	hb = futex_hash(&key);
retry:
	raw_spin_lock(&hb->lock);
	ret = futex_get_value_locked(&uval, uaddr);		/* [UP1] */
	if (ret)
		goto out_fault;
	if ((uval & FUTEX_TID_MASK) != futex_tid(current)) {
		ret = -EPERM;
		goto out_unlock;
	}
	top = futex_top_waiter(hb, &key);
	if (!top) {						/* [UP2] */
		ret = futex_cmpxchg_value_locked(&curval, uaddr, uval, 0);
		if (ret)
			goto out_fault;
		ret = curval == uval ? 0 : -EAGAIN;
	} else if (!top->pi_state) {
		ret = -EINVAL;	/* FUTEX_WAIT'ers on a PI word */
	} else {						/* [UP3] */
		ret = wake_futex_pi(uaddr, uval, top->pi_state);
		if (ret == -EFAULT)
			goto out_fault;
	}
	if (ret == -EAGAIN) {
		raw_spin_unlock(&hb->lock);
		goto retry;
	}
out_unlock:
	raw_spin_unlock(&hb->lock);
	return ret;

out_fault:
	raw_spin_unlock(&hb->lock);
	ret = futex_fault_in(uaddr);
	if (!ret)
		goto retry;
	return ret;
}
