/*
 * kernel/futex/requeue_pi.c - FUTEX_WAIT_REQUEUE_PI and
 * FUTEX_CMP_REQUEUE_PI: a condition variable whose mutex is a PI futex
 * (pthread_cond_wait on a PTHREAD_PRIO_INHERIT mutex, as glibc before
 * 2.25 built it).
 *
 * A condvar waiter sleeps on the condvar's word uaddr (non-PI) and must
 * come back owning the mutex uaddr2.  Woken by a plain FUTEX_WAKE, every
 * waiter would run to FUTEX_LOCK_PI at once, and all but one would sleep
 * again (the thundering herd); a high-prio waiter would also boost
 * nobody in between.  Instead, the signal or broadcast (FUTEX_CMP_REQUEUE_PI)
 * takes uaddr2 for the top waiter if it is free, and moves the others
 * onto uaddr2's rt_mutex, in the kernel, so that they boost its owner at
 * once and get the mutex from its FUTEX_UNLOCK_PI one by one, as
 * FUTEX_LOCK_PI waiters do (pi.c).  A requeued waiter is a PI waiter
 * like any other: its futex_q on uaddr2's chain points at the pi_state,
 * its rt_waiter is on the pi_mutex.
 *
 * Depends on core.c (the hash), waitwake.c (futex_wait_setup), pi.c
 * (futex_lock_pi_atomic for another task), pi_state.c and
 * kernel/locking/rtmutex_proxy.h.  PI is rt_mutex's, under every
 * preemption model: these ops behave alike under none, voluntary,
 * desktop and rt, as the PI futexes do.
 * Linux counterpart: kernel/futex/requeue.c (futex_wait_requeue_pi,
 * futex_requeue with requeue_pi set, futex_proxy_trylock_atomic,
 * requeue_pi_wake_futex).  rtk's bucket locks are raw and its waiter
 * decides under them, so the requeue_state machine Linux needs for its
 * sleeping bucket locks under RT (Q_REQUEUE_PI_IN_PROGRESS, _WAIT,
 * _IGNORE) is three plain states here (futex_internal.h).  Left out:
 * plain FUTEX_REQUEUE / FUTEX_CMP_REQUEUE, and Linux's behaviour on a
 * cycle of PI futexes found while requeueing (it leaves the waiter on
 * uaddr; rtk's waiter returns -EDEADLK, see [RQ4]).
 */
#include "kernel/futex/futex_internal.h"
#include "kernel/locking/rtmutex_proxy.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/locking/lockdep.h"
#include "kernel/sched/sched.h"
#include "kernel/signal.h"
#include "lib/errno.h"
#include "lib/bug.h"

DEFINE_RACE_WINDOW(futex_wait_requeue_pi_window);

/*
 * futex_wait_requeue_pi - FUTEX_WAIT_REQUEUE_PI(uaddr, val, deadline,
 * uaddr2):
 *	[WR1] the two keys: the same futex is -EINVAL
 *	[WR2] under uaddr's bucket lock: compare *uaddr with val (-EAGAIN)
 *	     and queue q, marked a requeue-PI waiter for uaddr2
 *	     (futex_wait_setup, [FW2]..[FW4])
 *	[WR3] sleep until the requeue moved q (q.woken), a signal, or the
 *	     deadline (futex_wait_queue, as [FW5])
 *	[WR4] under uaddr's bucket lock, the requeue's state decides:
 *	     still NONE: leave the chain, -ETIMEDOUT (or -EINTR, which the
 *	     system call restarts); LOCKED: the requeue took uaddr2 for us,
 *	     0; DONE or DEADLOCK: we are on uaddr2's chain and rt_mutex
 *	[WR5] DONE: wait for the rt_mutex as FUTEX_LOCK_PI does ([LP6],
 *	     rt_mutex_wait_proxy_lock); the unlock of uaddr2 hands it over
 *	     with our TID already in the word
 *	[WR6] under uaddr2's bucket lock: on failure leave the rt_mutex and
 *	     deboost its owner unless it was handed to us meanwhile ([LP7]),
 *	     leave the chain and drop the pi_state reference ([LP8])
 *
 * [WR4] decides by the state under the lock, not by why [WR3] stopped:
 *
 *	CPU0 (W, deadline)			CPU1 (CMP_REQUEUE_PI)
 *	[WR3] deadline passed: stop
 *						lock(hb1), lock(hb2)
 *						[RQ3] uaddr2 free: it is W's,
 *						  W dequeued, LOCKED;
 *						  unlock both; returns 1
 *	[WR4] lock(hb1): LOCKED: return 0
 *
 * Returning -ETIMEDOUT there would leave uaddr2 naming W while W's
 * caller believes it does not own it: the mutex would never be unlocked.
 * Likewise a W requeued (DONE) after its deadline waits in [WR5], which
 * times out at once, and [WR6] takes it off the rt_mutex.
 * futex_requeue_pi:test_requeue_pi_timeout_loses_to_a_requeue parks CPU0 in
 * futex_wait_requeue_pi_window and runs CPU1.
 * Returns 0 (current owns uaddr2), -EAGAIN (*uaddr != val, or a signal
 * after the requeue: Linux's -EWOULDBLOCK, the condvar has changed),
 * -ETIMEDOUT, -EINTR, -EDEADLK, -EINVAL, -EFAULT.
 * Context: task, may sleep.  Locking: none held; takes the two bucket
 * locks (one at a time), pi_mutex's wait_lock and tasks' pi_locks.
 */
int futex_wait_requeue_pi(u32 __user *uaddr, u32 val,
			  const ktime_t *abs_timeout, u32 __user *uaddr2)
{
	struct rt_mutex_waiter rt_waiter = { 0 };
	struct futex_pi_state *ps, *to_free;
	struct futex_hash_bucket *hb, *hb2;
	struct futex_key key, key2;
	struct futex_q q;
	int ret, state;

	might_sleep();
	ret = futex_get_key(uaddr, &key);			/* [WR1] */
	if (!ret)
		ret = futex_get_key(uaddr2, &key2);
	if (ret)
		return ret;
	if (futex_match(&key, &key2))
		return -EINVAL;
	hb = futex_hash(&key);
	futex_q_init(&q, &key);
	q.rt_waiter = &rt_waiter;
	q.requeue_pi_key = key2;
	ret = futex_wait_setup(uaddr, val, &q, hb);		/* [WR2] */
	if (ret)
		return ret;

	futex_wait_queue(&q, abs_timeout);			/* [WR3] */
	trace_race_window(&futex_wait_requeue_pi_window);

	raw_spin_lock(&hb->lock);				/* [WR4] */
	state = q.requeue_state;
	if (state == Q_REQUEUE_PI_NONE) {
		__futex_unqueue(&q, hb);
		raw_spin_unlock(&hb->lock);
		return signal_pending(current) ? -EINTR : -ETIMEDOUT;
	}
	raw_spin_unlock(&hb->lock);
	if (state == Q_REQUEUE_PI_LOCKED)
		return 0;

	/* DONE or DEADLOCK: q.key is key2 and q.pi_state ours, set under
	 * both bucket locks before the state; only we change them now */
	ps = q.pi_state;
	ret = -EDEADLK;
	if (state == Q_REQUEUE_PI_DONE)				/* [WR5] */
		ret = rt_mutex_wait_proxy_lock(&ps->pi_mutex, abs_timeout,
					       &rt_waiter);
	hb2 = futex_hash(&q.key);
	raw_spin_lock(&hb2->lock);				/* [WR6] */
	if (ret && !rt_mutex_cleanup_proxy_lock(&ps->pi_mutex, &rt_waiter))
		ret = 0;
	__futex_unqueue(&q, hb2);
	to_free = put_pi_state_locked(ps);
	raw_spin_unlock(&hb2->lock);
	free_pi_state(to_free);
	return ret == -EINTR ? -EAGAIN : ret;
}

/* double_lock_hb / double_unlock_hb - both buckets, lower address first
 * (one lock when the keys share a bucket).  Context: task. */
static void double_lock_hb(struct futex_hash_bucket *hb1,
			   struct futex_hash_bucket *hb2)
{
	if (hb1 > hb2) {
		struct futex_hash_bucket *tmp = hb1;

		hb1 = hb2;
		hb2 = tmp;
	}
	raw_spin_lock(&hb1->lock);
	if (hb1 != hb2)
		raw_spin_lock_nested(&hb2->lock, SINGLE_DEPTH_NESTING);
}

static void double_unlock_hb(struct futex_hash_bucket *hb1,
			     struct futex_hash_bucket *hb2)
{
	raw_spin_unlock(&hb1->lock);
	if (hb1 != hb2)
		raw_spin_unlock(&hb2->lock);
}

/* is_requeue_pi_waiter_for - q waits in FUTEX_WAIT_REQUEUE_PI for
 * key2's futex, not yet requeued.  Locking: q's bucket lock held. */
static bool is_requeue_pi_waiter_for(const struct futex_q *q,
				     const struct futex_key *key2)
{
	return q->rt_waiter && !q->pi_state &&
	       futex_match(&q->requeue_pi_key, key2);
}

/*
 * requeue_pi_wake_locked - [RQ3]: q's task owns uaddr2 now (its TID is in
 * the word): take q off uaddr's chain and wake it; its [WR4] returns 0.
 * Context: task.  Locking: both bucket locks held.
 */
static void requeue_pi_wake_locked(struct futex_q *q,
				   struct futex_hash_bucket *hb1)
{
	raw_spin_assert_held(&hb1->lock);
	__futex_unqueue(q, hb1);
	q->requeue_state = Q_REQUEUE_PI_LOCKED;
	WRITE_ONCE(q->woken, true);
	/* q's task cannot leave before we drop hb1: its [WR4] takes it */
	wake_up_process(q->task);
}

/*
 * requeue_pi_one - [RQ4] for one waiter: queue its rt_waiter on ps's
 * pi_mutex on its behalf (boosting the owner chain, [P1]..[P3]) and move
 * q to uaddr2's chain with a pi_state reference, where FUTEX_UNLOCK_PI
 * and later FUTEX_LOCK_PI's find it.  Returns 0, or -EDEADLK: the
 * waiter owns uaddr2 itself (q is left alone, on uaddr), or queueing it
 * closed a cycle of PI futexes (q is moved, and its task woken to leave
 * the rt_mutex itself at [WR6]: rtk's remove_waiter works on current).
 * Context: task, irqs on.  Locking: both bucket locks held; takes
 * pi_mutex's wait_lock and the chain's pi_locks.
 */
static int requeue_pi_one(struct futex_q *q, struct futex_pi_state *ps,
			  struct futex_hash_bucket *hb1,
			  struct futex_hash_bucket *hb2,
			  const struct futex_key *key2)
{
	int ret;

	raw_spin_assert_held(&hb1->lock);
	raw_spin_assert_held(&hb2->lock);
	raw_spin_lock_irq(&ps->pi_mutex.wait_lock);
	if (rt_mutex_owner(&ps->pi_mutex) == q->task) {
		/* it sleeps on the condvar holding the mutex: [B1] would
		 * refuse to queue it; leave it waiting on uaddr */
		raw_spin_unlock_irq(&ps->pi_mutex.wait_lock);
		return -EDEADLK;
	}
	get_pi_state(ps);
	q->pi_state = ps;
	ret = __rt_mutex_start_proxy_lock(&ps->pi_mutex, q->rt_waiter, q->task);
	raw_spin_unlock_irq(&ps->pi_mutex.wait_lock);
	/* the pi_mutex is owned by proxy while ps lives, as at [LP5] */
	if (WARN_ON(ret == 1))
		ret = 0;
	__futex_unqueue(q, hb1);
	q->key = *key2;
	__futex_queue(q, hb2);
	q->requeue_state = ret ? Q_REQUEUE_PI_DEADLOCK : Q_REQUEUE_PI_DONE;
	WRITE_ONCE(q->woken, true);	/* ends its [WR3] when it next looks */
	if (ret)
		wake_up_process(q->task);
	return ret;
}

/*
 * futex_requeue_pi - FUTEX_CMP_REQUEUE_PI(uaddr, nr_wake, nr_requeue,
 * uaddr2, cmpval):
 *	[RQ1] nr_wake must be 1 and nr_requeue not negative, the keys
 *	     differ (-EINVAL); a spare pi_state while we may sleep
 *	[RQ2] under both bucket locks: *uaddr must still be cmpval
 *	     (-EAGAIN: a new waiter or signal came first, user space
 *	     retries); the top waiter on uaddr must be a requeue-PI waiter
 *	     for uaddr2 (-EINVAL: mismatched ops)
 *	[RQ3] take uaddr2 for it if it is free (futex_lock_pi_atomic for
 *	     its task, Linux's futex_proxy_trylock_atomic) and wake it; if
 *	     not, it is attached to uaddr2's pi_state (FUTEX_WAITERS set)
 *	     and requeued at [RQ4] like the others
 *	[RQ4] the next waiters on uaddr, up to nr_wake + nr_requeue in
 *	     all, move to uaddr2's rt_mutex (requeue_pi_one); after a taken
 *	     uaddr2, the first of them attaches a pi_state owned by the
 *	     woken waiter.  A cycle of PI futexes stops the loop (-EDEADLK)
 *	[RQ5] a word that faults is faulted in with the locks dropped and
 *	     [RQ2] done again, while nothing has been moved
 * The woken waiter cannot return, nor unlock uaddr2, before we drop
 * uaddr's bucket lock (its [WR4]), so uaddr2 keeps its TID through [RQ4].
 * Returns the number woken plus requeued, or a negative errno (-EINVAL
 * or -EDEADLK even after some were moved, as Linux).
 * Context: task, may sleep.  Locking: none held; takes both bucket
 * locks, pi_mutex's wait_lock, tasks' pi_locks.
 */
int futex_requeue_pi(u32 __user *uaddr, u32 __user *uaddr2, int nr_wake,
		     int nr_requeue, u32 cmpval)
{
	struct futex_pi_state *spare, *ps = NULL, *to_free = NULL;
	struct futex_hash_bucket *hb1, *hb2;
	struct futex_key key1, key2;
	struct futex_q *q, *next;
	u32 __user *fault_addr;
	int ret, moved = 0;
	u32 uval;

	might_sleep();
	if (nr_wake != 1 || nr_requeue < 0)			/* [RQ1] */
		return -EINVAL;
	ret = futex_get_key(uaddr, &key1);
	if (!ret)
		ret = futex_get_key(uaddr2, &key2);
	if (ret)
		return ret;
	if (futex_match(&key1, &key2))
		return -EINVAL;
	spare = alloc_pi_state();
	if (!spare)
		return -ENOMEM;
	hb1 = futex_hash(&key1);
	hb2 = futex_hash(&key2);
retry:
	double_lock_hb(hb1, hb2);
	fault_addr = uaddr;
	ret = futex_get_value_locked(&uval, uaddr);		/* [RQ2] */
	if (ret)
		goto out_fault;
	if (uval != cmpval) {
		ret = -EAGAIN;
		goto out_unlock;
	}
	fault_addr = uaddr2;
	plist_for_each_entry_safe(q, next, &hb1->chain, list) {
		if (moved > nr_requeue)		/* nr_wake (1) + nr_requeue */
			break;
		if (!futex_match(&q->key, &key1))
			continue;
		if (!is_requeue_pi_waiter_for(q, &key2)) {
			ret = -EINVAL;
			break;
		}
		if (!ps) {					/* [RQ3] */
			ret = futex_lock_pi_atomic(uaddr2, hb2, &key2, &spare,
						   &ps, q->task);
			if (ret == -EFAULT && !moved)
				goto out_fault;
			if (ret < 0)
				break;
			if (ret == 1) {
				requeue_pi_wake_locked(q, hb1);
				moved++;
				ret = 0;
				continue;
			}
		}
		ret = requeue_pi_one(q, ps, hb1, hb2, &key2);	/* [RQ4] */
		moved++;
		if (ret)
			break;
	}
	/* [RQ3]'s attach gave us a reference for the loop; each requeued
	 * waiter holds its own (requeue_pi_one) */
	if (ps)
		to_free = put_pi_state_locked(ps);
out_unlock:
	double_unlock_hb(hb1, hb2);
	free_pi_state(to_free);
	free_pi_state(spare);
	return ret ? ret : moved;

out_fault:							/* [RQ5] */
	double_unlock_hb(hb1, hb2);
	ret = futex_fault_in(fault_addr);
	if (!ret)
		goto retry;
	free_pi_state(spare);
	return ret;
}
