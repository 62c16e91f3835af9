/*
 * kernel/futex/waitwake.c - FUTEX_WAIT and FUTEX_WAKE: sleep while the
 * word holds the value the caller saw, and wake sleepers after changing
 * it.  This is all a condition variable, a semaphore or a non-PI mutex
 * in user space needs from the kernel.
 *
 * The one rule: the waiter compares the word and queues itself under the
 * bucket lock, and the waker takes the same lock to look for waiters, so
 * a wake-up can never fall between the comparison and the sleep (the
 * diagram is at futex_wait).
 * Depends on kernel/futex/core.c (the hash), futex_uaccess.h, the
 * scheduler's schedule_timeout and kernel_signal.
 * Linux counterpart: kernel/futex/waitwake.c (futex_wait, futex_wake,
 * futex_wait_setup, futex_wait_queue).  rtk leaves out bitsets, the
 * wake_q batching (it wakes under the bucket lock, which is raw) and
 * restarting a signalled wait (the caller sees -EINTR).
 */
#include "kernel/futex/futex_internal.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "kernel/signal.h"
#include "lib/errno.h"
#include "lib/bug.h"

DEFINE_RACE_WINDOW(futex_wait_timeout_window);

/*
 * futex_wake - wake up to nr_wake tasks waiting on uaddr whose bitset
 * meets `bitset` (FUTEX_WAKE passes FUTEX_BITSET_MATCH_ANY), best prio
 * first; -EINVAL for bitset 0, as Linux; returns how many (at least one if any waits: nr_wake 0 or
 * negative wakes one, as Linux's loop does), or -EINVAL if the futex is
 * a PI futex (its waiters are FUTEX_LOCK_PI's, woken only by
 * FUTEX_UNLOCK_PI) or a FUTEX_WAIT_REQUEUE_PI waiter's (only
 * FUTEX_CMP_REQUEUE_PI moves those: Linux's answer too).  The woken
 * futex_q leaves the chain here, under the lock, so its task finds
 * q->woken set and returns 0 even if its timeout fired meanwhile.
 * Context: task.  Locking: takes the bucket lock.
 */
int futex_wake(u32 __user *uaddr, int nr_wake, u32 bitset)
{
	struct futex_hash_bucket *hb;
	struct futex_q *q, *next;
	struct futex_key key;
	int ret, woken = 0;

	might_sleep();
	if (!bitset)
		return -EINVAL;
	ret = futex_get_key(uaddr, &key);
	if (ret)
		return ret;
	hb = futex_hash(&key);
	raw_spin_lock(&hb->lock);
	plist_for_each_entry_safe(q, next, &hb->chain, list) {
		if (!futex_match(&q->key, &key))
			continue;
		if (q->pi_state || q->rt_waiter) {	/* requeue_pi.c */
			ret = -EINVAL;
			break;
		}
		if (!(q->bitset & bitset))
			continue;
		__futex_unqueue(q, hb);
		WRITE_ONCE(q->woken, true);
		/* the task cannot leave futex_wait before we drop hb->lock:
		 * its [FW6] takes it first */
		wake_up_process(q->task);
		if (++woken >= nr_wake)
			break;
	}
	raw_spin_unlock(&hb->lock);
	return ret ? ret : woken;
}

/*
 * futex_wait_setup - [FW2]..[FW4] of futex_wait: with hb->lock held,
 * compare the word with val and, if equal, queue q and set the sleep
 * state.  0 (queued, hb->lock dropped), -EAGAIN, or -EFAULT.  Also
 * [WR2] of FUTEX_WAIT_REQUEUE_PI (requeue_pi.c).
 * A word that cannot be read without a fault is faulted in with the
 * lock dropped, and the comparison is made again.
 * Context: task, may sleep (futex_fault_in).  Locking: takes and drops
 * hb->lock.
 */
int futex_wait_setup(u32 __user *uaddr, u32 val, struct futex_q *q,
		     struct futex_hash_bucket *hb)
{
	u32 uval;
	int ret;

retry:
	raw_spin_lock(&hb->lock);
	ret = futex_get_value_locked(&uval, uaddr);		/* [FW2] */
	if (ret) {
		raw_spin_unlock(&hb->lock);
		ret = futex_fault_in(uaddr);
		if (ret)
			return ret;
		goto retry;
	}
	if (uval != val) {					/* [FW3] */
		raw_spin_unlock(&hb->lock);
		return -EAGAIN;
	}
	__futex_queue(q, hb);					/* [FW4] */
	set_current_state(TASK_INTERRUPTIBLE);
	raw_spin_unlock(&hb->lock);
	return 0;
}

/*
 * futex_wait_queue - [FW5] of futex_wait, [WR3] of FUTEX_WAIT_REQUEUE_PI
 * (requeue_pi.c): sleep, queued, until a waker sets q->woken, a signal
 * comes or ktime_get() reaches *abs_timeout (NULL: none); returns
 * running.  The caller's bucket-lock step decides what happened.
 * Context: task, in the sleep state futex_wait_setup set; may sleep.
 * Locking: none held.
 */
void futex_wait_queue(struct futex_q *q, const ktime_t *abs_timeout)
{
	s64 left = -1;

	might_sleep();
	for (;;) {
		if (READ_ONCE(q->woken) || signal_pending(current))
			break;
		if (abs_timeout) {
			left = *abs_timeout - ktime_get();
			if (left <= 0)
				break;
		}
		schedule_timeout(left);
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * futex_wait - sleep on uaddr while it holds val, until a wake whose
 * bitset meets ours (FUTEX_WAIT: FUTEX_BITSET_MATCH_ANY; 0 is -EINVAL):
 *	[FW1] the key and its bucket
 *	[FW2] under the bucket lock, read the word (fault it in outside the
 *	     lock and start again if it is not present)
 *	[FW3] it differs from val: the waker changed it already, -EAGAIN
 *	[FW4] queue q on the chain and set the sleep state, still under the
 *	     lock; drop it
 *	[FW5] sleep until FUTEX_WAKE sets q->woken, a signal, or the deadline
 *	[FW6] under the lock: woken is the answer (0) if FUTEX_WAKE took q
 *	     off the chain, whatever else happened; else leave the chain,
 *	     -ETIMEDOUT or -EINTR
 *
 * [FW2]..[FW4] under one hold of the lock is what keeps a wake-up from
 * being lost.  Were the word read before taking it:
 *
 *	CPU0 (FUTEX_WAIT, val 0)		CPU1 (the waker)
 *	read *uaddr: 0
 *						*uaddr = 1
 *						FUTEX_WAKE: lock, chain empty,
 *						  unlock: wakes nobody
 *	lock; queue q; unlock; sleep:
 *	  nobody will wake CPU0
 *
 * With the read under the lock, CPU1's FUTEX_WAKE either comes first and
 * CPU0 then reads 1 ([FW3]), or comes after [FW4] and finds q.  The word
 * itself changes without the lock (user space stores it), which is why
 * the comparison, not the store, must be inside.
 * No test forces this interleaving: with the lock held from [FW2] to
 * [FW4], CPU1's FUTEX_WAKE cannot run inside the window, which is the
 * point; futex:test_futex_wake_count_and_order_across_cpus runs waits
 * and wakes against each other on every CPU.
 *
 * [FW6] decides by q->woken under the lock, not by why [FW5] stopped: a
 * wake-up that lands after the timeout is counted by FUTEX_WAKE's return,
 * so the waiter must take it:
 *
 *	CPU0 (FUTEX_WAIT, deadline)		CPU1 (FUTEX_WAKE, 1)
 *	[FW5] deadline passed: stop
 *						lock; q queued: dequeue,
 *						  woken = true; unlock;
 *						  returns 1
 *	[FW6] lock; woken: return 0
 *
 * Returning -ETIMEDOUT there loses a wake-up the waker was told it made
 * (a semaphore's post, a condition's signal).  futex_races:
 * test_futex_wait_timeout_loses_to_a_wake parks CPU0 in
 * futex_wait_timeout_window and runs CPU1.
 * Context: task, may sleep.  Locking: none held; takes the bucket lock.
 */
int futex_wait(u32 __user *uaddr, u32 val, const ktime_t *abs_timeout,
	       u32 bitset)
{
	struct futex_hash_bucket *hb;
	struct futex_key key;
	struct futex_q q;
	int ret;

	might_sleep();
	if (!bitset)
		return -EINVAL;
	ret = futex_get_key(uaddr, &key);			/* [FW1] */
	if (ret)
		return ret;
	hb = futex_hash(&key);
	futex_q_init(&q, &key);
	q.bitset = bitset;
	ret = futex_wait_setup(uaddr, val, &q, hb);	/* [FW2]..[FW4] */
	if (ret)
		return ret;

	futex_wait_queue(&q, abs_timeout);			/* [FW5] */
	trace_race_window(&futex_wait_timeout_window);

	raw_spin_lock(&hb->lock);				/* [FW6] */
	if (q.woken) {
		ret = 0;
	} else {
		__futex_unqueue(&q, hb);
		ret = signal_pending(current) ? -EINTR : -ETIMEDOUT;
	}
	raw_spin_unlock(&hb->lock);
	return ret;
}
