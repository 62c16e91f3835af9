/*
 * kernel/locking/rtmutex.c - rt_mutex: sleeping lock with transitive
 * priority inheritance (article, "Priority inheritance for in-kernel
 * spinlocks and semaphores"): the owner word, taking the lock (fast
 * path, stealing), the slow lock and unlock, and the API.  Depends on
 * the scheduler (schedule, wake_up_process*), hrtimers for the timed
 * lock, kernel/debug/deadlock.c for the reports and
 * kernel/locking/rtmutex_pi.c for the PI side: queueing a waiter with
 * its boost, leaving the queue with the deboost, the chain walk.
 * Linux counterpart: kernel/locking/rtmutex.c (v3.x-v4.x structure);
 * rtk leaves out the wake_q batching and ww_mutex; the proxy locking of
 * PI futexes is kernel/locking/rtmutex_proxy.c.  Longer than 400 lines
 * because the race diagrams of the owner word sit next to the code that
 * defends against them.
 *
 * The owner word (lock->owner):
 *
 *	owner		bit0	meaning
 *	NULL		0	free, nobody waits: the fast path may take it
 *	NULL		1	free, waiters queued: an unlock woke the top
 *				waiter, which has not run yet (the "pending"
 *				window of the article); only the top waiter, or
 *				a task of strictly higher prio, may take it
 *	task		0	held by task, no waiters: fast unlock works
 *	task		1	held by task, waiters queued (or about to be):
 *				every unlock goes through the slow path
 *
 * Bit 0 is set and cleared only under wait_lock, so once it is set the
 * cmpxchg fast paths (which expect NULL or current with bit 0 clear)
 * fail and every change of the word happens under wait_lock.
 *
 * Lock stealing (article: "task E will steal the lock from task C, which
 * is legal because task C has not yet run"): the unlock does not hand the
 * lock over, it leaves it free with the woken top waiter still queued.
 * try_to_take_rt_mutex() lets an arriving task of strictly better prio
 * than that waiter take it; the woken waiter then finds the lock owned
 * and blocks again, boosting the thief.  An equal or worse arrival
 * queues behind it.
 *
 * Lock order: lock->wait_lock, then task->pi_lock, then the scheduler's
 * run queue lock (inside rt_mutex_setprio).  The chain walk goes against
 * it (task->pi_lock, then the next lock's wait_lock), so it only
 * trylocks there and backs off.
 *
 * The two files share one set of invariants (the owner word, under
 * wait_lock here; pi_waiters, under pi_lock there): read this comment
 * first, then rtmutex_pi.c's, as one would read Linux's single file.
 * The steps here are [T1]..[T4] (try_to_take_rt_mutex), [S1]..[S6]
 * (rt_mutex_slowlock) and [U1]..[U3] (rt_mutex_slowunlock); the chain
 * walk's are [0]..[13] in rtmutex_pi.c (the list: rtmutex_internal.h).
 */
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/locking/deadlock.h"
#include "kernel/signal.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/ktime.h"
#include "kernel/debug/hooks.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/bug.h"

unsigned long rt_mutex_slowpath_count;

void __rt_mutex_init(struct rt_mutex *lock, const char *name,
		     const char *file, int line)
{
	lock->owner = 0;
	raw_spin_lock_init(&lock->wait_lock);
	plist_head_init(&lock->wait_list);
	lock->name = name;
	lock->file = file;
	lock->line = line;
	lockdep_init_map(&lock->dep_map, name, file, line, LD_WAIT_SLEEP);
}

/*
 * rt_mutex_set_owner - owner takes lock in the slow path; bit 0 stays set
 * while waiters are queued, so their owner's unlock takes the slow path.
 * Context: any, irqs off.  Locking: lock->wait_lock held.
 */
void rt_mutex_set_owner(struct rt_mutex *lock, struct task_struct *owner)
{
	uintptr_t val = (uintptr_t)owner;

	raw_spin_assert_held(&lock->wait_lock);
	if (rt_mutex_has_waiters(lock))
		val |= RT_MUTEX_HAS_WAITERS;
	__atomic_store_n(&lock->owner, val, __ATOMIC_RELEASE);
}

/*
 * mark_rt_mutex_waiters - set bit 0 so the owner's fast-path unlock fails
 * and comes to wait_lock ([T1] says why it must come first).  An atomic
 * or: the owner may be releasing the word by cmpxchg at the same time.
 * Context: any, irqs off.  Locking: lock->wait_lock held.
 */
static void mark_rt_mutex_waiters(struct rt_mutex *lock)
{
	raw_spin_assert_held(&lock->wait_lock);
	__atomic_fetch_or(&lock->owner, RT_MUTEX_HAS_WAITERS, __ATOMIC_ACQ_REL);
}

/*
 * fixup_rt_mutex_waiters - a slow path that set bit 0 ([T1]) leaves
 * without queueing a waiter (a trylock that lost, [S5]'s waiter leaving
 * on a signal or timeout, the last waiter taking the lock): clear bit 0
 * again when nobody waits, so the owner's fast unlock works again.  The
 * bit is then only transiently wrong, under wait_lock, and the owner's
 * unlock copes with either value:
 *
 *	CPU0 (rt_mutex_trylock of L)		CPU1 (T owns L)
 *	lock(wait_lock)
 *	[T1] owner = T|bit; T owns L: fail
 *						rt_mutex_unlock: cmpxchg(owner,
 *						  T, 0) fails on the bit
 *						rt_mutex_slowunlock:
 *						  lock(wait_lock) spins
 *	fixup: no waiters, owner = T
 *	unlock(wait_lock)
 *						[U1] no waiters: released by
 *						  unlock_rt_mutex_safe
 *
 * Without the fix-up L keeps the bit with nobody waiting: still correct
 * ([U1] releases it, [T3] takes a free lock without waiters), but every
 * later lock and unlock of L pays for the slow path.  The two sides of
 * the picture are serialised by wait_lock, so its outcome does not
 * depend on which comes first; rtmutex_waiters_bit:
 * test_rt_mutex_waiter_leaving_clears_the_bit checks the fix-up itself
 * (a timed-out waiter leaves the owner word without the bit).
 * Context: any, irqs off.  Locking: lock->wait_lock held.
 */
void fixup_rt_mutex_waiters(struct rt_mutex *lock)
{
	raw_spin_assert_held(&lock->wait_lock);
	if (!rt_mutex_has_waiters(lock))
		__atomic_fetch_and(&lock->owner, ~RT_MUTEX_HAS_WAITERS,
				   __ATOMIC_RELEASE);
}

/*
 * try_to_take_rt_mutex - take lock for task if the rules allow:
 *	[T1] set the waiters bit, so that the owner cannot fast-unlock under
 *	     us; an owned lock cannot be taken
 *	[T2] a queued waiter may take it only as the top waiter; it leaves
 *	     the queue
 *	[T3] an arriving task (no waiter) may take it when nobody waits, or
 *	     by stealing: with a strictly better prio than the top waiter
 *	[T4] under task->pi_lock: the new owner is not blocked any more and
 *	     inherits the top remaining waiter as a PI waiter, and its prio
 *	     is recomputed from it; the owner word keeps the bit if waiters
 *	     remain
 *
 * [T4] recomputes the prio although the new owner was the best waiter:
 * it was the best by its *queued* prio, which is stale between a
 * sched_setscheduler() that lowered it and that call's walk:
 *
 *	CPU0					CPU1
 *	W, H wait for L; W queued first
 *						sched_setscheduler(W, lower):
 *						  W->prio lowered, W's waiter
 *						  still queued at the old prio
 *	L's owner unlocks: [U3] wakes W
 *	W [T2] takes L; [T4] H becomes W's
 *	  PI waiter: W must run at H's prio
 *						rt_mutex_adjust_pi(W): W is not
 *						  blocked: the walk does nothing
 *
 * Without the recomputation W would run below H while H waits for W's
 * lock, until W unlocks.  Found by the SPIN model (model/pi/README.md,
 * scenario LOWER); pi_stale_waiter:
 * test_pi_new_owner_boosted_by_waiter_queued_behind_it forces it with
 * sched_setscheduler_pi_window.
 *
 * [T1] before looking at the owner: a waiter that queues while the owner
 * releases by cmpxchg would sleep on a free lock with nobody to wake it:
 *
 *	CPU0 (slow lock, bit not set first)	CPU1 (T owns L)
 *	lock(wait_lock); owner is T
 *						rt_mutex_unlock: cmpxchg(owner,
 *						  T, 0): released, no wake-up
 *	queue the waiter ([S3]); sleep ([S4]):
 *	  L is free, nobody will wake CPU0
 *
 * With the bit set first, CPU1's cmpxchg fails and its slow unlock waits
 * for wait_lock, then wakes the waiter ([U3]); a bit left set without a
 * waiter is cleared by fixup_rt_mutex_waiters.  rtmutex_waiters_bit:
 * test_rt_mutex_fast_unlock_fails_once_the_bit_is_set parks CPU0 in
 * rt_mutex_mark_waiters_window (after [T1], before the owner check) and
 * runs CPU1's cmpxchg there.
 *
 * [T2] and [T3] together are the stealing rule.  The woken top waiter
 * against a thief (article: "task E will steal the lock from task C"):
 *
 *	CPU0					CPU1
 *	T unlocks L: [U2] deboost T
 *	[U3] owner = NULL|bit, wake W, L's
 *	  top waiter (queued, not run yet)
 *						E (prio better than W) locks L:
 *						  the fast path fails on the bit
 *						[T1] [T3] E beats W: takes L,
 *						  [T4] inherits W as PI waiter
 *	W runs: [S4] [T1] L is owned by E:
 *	  sleeps again, still queued
 *
 * W never leaves the queue without the lock, so E's unlock wakes it
 * again; an arrival that does not beat W queues behind it ([T3]).
 * rtmutex:test_rt_mutex_lock_stealing_by_higher_prio_only forces this
 * interleaving on one CPU, its main task playing T and then E (W is woken
 * but cannot run before main; main's trylock steals; then, at W's prio,
 * it is refused); tests/pi/t3-l1-pi-steal.tst forces it with the PI
 * tester, which stops W after its wake-up and before [S4]'s retry.
 * Model: model/pi/rtmutex.pml, try_to_take_rt_mutex [T1]..[T4].
 * Context: task, irqs off.  Locking: lock->wait_lock held; takes
 * task->pi_lock.
 */
bool try_to_take_rt_mutex(struct rt_mutex *lock, struct task_struct *task,
			  struct rt_mutex_waiter *waiter)
{
	raw_spin_assert_held(&lock->wait_lock);

	mark_rt_mutex_waiters(lock);				/* [T1] */
	trace_race_window(&rt_mutex_mark_waiters_window);
	if (rt_mutex_owner(lock))
		return false;
	if (waiter) {						/* [T2] */
		if (waiter != rt_mutex_top_waiter(lock))
			return false;
		pi_waiter_dequeue(&lock->wait_list, waiter);
	} else if (rt_mutex_has_waiters(lock)) {		/* [T3] */
		if (task->prio >= rt_mutex_top_waiter(lock)->prio)
			return false;
	}
	raw_spin_lock(&task->pi_lock);				/* [T4] */
	task->pi_blocked_on = NULL;
	if (rt_mutex_has_waiters(lock)) {
		pi_owner_enqueue(&task->pi_waiters, rt_mutex_top_waiter(lock));
		/* the new owner's queued prio may have been stale (see
		 * above): take the boost from the waiter it now owns */
		rt_mutex_adjust_prio(task);
	}
	raw_spin_unlock(&task->pi_lock);
	rt_mutex_set_owner(lock, task);
	return true;
}

/* The timed lock's timeout: an hrtimer that flags and wakes the sleeper
 * ([S4] reads the flag). */
struct rt_mutex_timeout {
	struct hrtimer timer;
	struct task_struct *task;
	bool expired;			/* written by the hrtimer function */
};

/* rt_mutex_timeout_fn - the timeout expired: flag it, wake the sleeper.
 * Context: hrtimer callback (kernel/time/hrtimer.h).  Locking: none. */
static enum hrtimer_restart rt_mutex_timeout_fn(struct hrtimer *timer)
{
	struct rt_mutex_timeout *to =
		container_of(timer, struct rt_mutex_timeout, timer);

	WRITE_ONCE(to->expired, true);
	wake_up_process(to->task);
	return HRTIMER_NORESTART;
}

/* Sleep state for mode; savestate keeps the caller's in saved_state. */
static long rt_mutex_sleep_state(enum rt_mutex_sleep mode)
{
	if (mode == RT_SLEEP_INTERRUPTIBLE)
		return TASK_INTERRUPTIBLE;
	if (mode == RT_SLEEP_SAVESTATE)
		return TASK_RUNNING_MUTEX;
	return TASK_UNINTERRUPTIBLE;
}

/*
 * rt_mutex_slowlock - the contended path of rt_mutex_lock_common():
 *	[S1] under wait_lock, try once more ([T1]..[T4]); a free lock is
 *	     taken here
 *	[S2] spinlock_t: park the caller's task state in saved_state (the
 *	     article's TASK_RUNNING_MUTEX; sched's wakeups keep it updated)
 *	[S3] queue the waiter and boost the chain ([B1]..[B4]); on -EDEADLK
 *	     either report and keep waiting (plain lock) or report and fail
 *	[S4] loop: take the lock as top waiter ([T1]..[T4]), else stop on a
 *	     signal or the timeout, else drop wait_lock and sleep.  The lock
 *	     is tried first, so a waiter woken by the unlock takes the lock
 *	     even if its timeout fired too, and the wakeup is never lost
 *	[S5] on failure leave the queue, deboosting the owner chain
 *	     ([D1]..[D3]); clear a waiters bit nobody needs any more
 *	[S6] restore the parked task state
 * Model: model/pi/rtmutex.pml, rt_mutex_slowlock [S1]..[S5].
 * Context: task, irqs on, may sleep.  Locking: takes wait_lock (held
 * from [S1] to [S6] except while sleeping and during chain walks).
 */
static int rt_mutex_slowlock(struct rt_mutex *lock, enum rt_mutex_sleep mode,
			     s64 timeout_ns, bool detect_report)
{
	struct rt_mutex_waiter waiter = { .savestate = mode == RT_SLEEP_SAVESTATE };
	struct rt_mutex_timeout to = { .task = current, .expired = false };
	long state = rt_mutex_sleep_state(mode);
	int ret = 0;

	BUG_ON(raw_irqs_disabled());
	raw_spin_lock_irq(&lock->wait_lock);
	if (try_to_take_rt_mutex(lock, current, NULL)) {	/* [S1] */
		raw_spin_unlock_irq(&lock->wait_lock);
		return 0;
	}
	__atomic_fetch_add(&rt_mutex_slowpath_count, 1, __ATOMIC_RELAXED);

	/* LAB(spinlock-rt:park) BEGIN */
	if (mode == RT_SLEEP_SAVESTATE) {			/* [S2] */
		/* under pi_lock: a wakeup sees either the old state or
		 * TASK_RUNNING_MUTEX with the old one in saved_state */
		raw_spin_lock(&current->pi_lock);
		current->saved_state = current->state;
		set_current_state(state);
		raw_spin_unlock(&current->pi_lock);
	} else {
		set_current_state(state);
	}
	/* LAB(spinlock-rt:park) END */
	if (timeout_ns >= 0) {
		hrtimer_init(&to.timer, rt_mutex_timeout_fn);
		hrtimer_start(&to.timer, ktime_get() + timeout_ns);
	}

	ret = task_blocks_on_rt_mutex(lock, &waiter, current,	/* [S3] */
				      RT_DEADLOCK_DETECT);
	if (ret == -EDEADLK) {
		rt_mutex_report_deadlock(&waiter);
		if (detect_report)
			ret = 0;
	}
	if (!ret)
		trace_rt_mutex_block(lock);	/* queued, chain walked */

	while (!ret) {						/* [S4] */
		if (try_to_take_rt_mutex(lock, current, &waiter))
			break;
		if (mode == RT_SLEEP_INTERRUPTIBLE && signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		if (READ_ONCE(to.expired)) {
			ret = -ETIMEDOUT;
			break;
		}
		raw_spin_unlock_irq(&lock->wait_lock);
		schedule();
		trace_rt_mutex_wakeup(lock);	/* before the retry */
		raw_spin_lock_irq(&lock->wait_lock);
		set_current_state(state);
	}
	__set_current_state(TASK_RUNNING);

	if (ret)						/* [S5] */
		remove_waiter(lock, &waiter);
	fixup_rt_mutex_waiters(lock);

	/* LAB(spinlock-rt:restore) BEGIN */
	if (mode == RT_SLEEP_SAVESTATE) {			/* [S6] */
		raw_spin_lock(&current->pi_lock);
		current->state = current->saved_state;
		current->saved_state = TASK_RUNNING;
		raw_spin_unlock(&current->pi_lock);
	}
	/* LAB(spinlock-rt:restore) END */
	raw_spin_unlock_irq(&lock->wait_lock);
	if (timeout_ns >= 0)
		hrtimer_cancel(&to.timer);
	return ret;
}

DEFINE_RACE_WINDOW(rt_mutex_unlock_window);
DEFINE_RACE_WINDOW(rt_mutex_mark_waiters_window);

/*
 * unlock_rt_mutex_safe - release a lock nobody waits for (Linux's
 * function of the same name).  The owner word may only become free after
 * the unlocker's last touch of the lock: once it is free, a fast-path
 * locker on another CPU may take it, release it and free the object
 * that holds it, all without wait_lock.  Storing 0 under wait_lock and
 * then dropping wait_lock wrote into freed memory:
 *
 *	CPU0 (unlocker, slow path)		CPU1 (the object's next user)
 *	lock(wait_lock); no waiters
 *	owner = 0
 *						cmpxchg(owner, 0, me): taken
 *						cmpxchg(owner, me, 0): released
 *						kfree(object holding the lock)
 *	unlock(wait_lock): writes freed memory
 *
 * So: clear the waiters bit (owner = current), drop wait_lock, and only
 * then give the word up with a cmpxchg.  A locker arriving in between
 * finds the lock owned, takes the slow path and sets the waiters bit;
 * the cmpxchg fails and the caller retries with a waiter to wake:
 *
 *	CPU0					CPU1
 *	owner = current; unlock(wait_lock)
 *						cmpxchg(owner, 0, me) fails
 *						slow path: bit 0 set, queued
 *	cmpxchg(owner, current, 0) fails
 *	lock(wait_lock): a waiter, wake it
 *
 * tests/kernel/test_rtmutex_races.c parks CPU0 in rt_mutex_unlock_window
 * and runs CPU1: the first picture is
 * test_rt_mutex_unlock_no_waiters_object_freed, the second
 * test_rt_mutex_unlock_no_waiters_retries_for_new_waiter.
 * Returns true when the lock was released, false when a waiter arrived
 * (wait_lock is then dropped: the caller takes it again).
 * Model: model/pi/rtmutex.pml, [U1] (mutant UNLOCK_CLEAR_EARLY).
 * Context: task, irqs off.  Locking: called with wait_lock held, drops
 * it (irqs back to flags).
 */
static bool unlock_rt_mutex_safe(struct rt_mutex *lock, unsigned long flags)
{
	raw_spin_assert_held(&lock->wait_lock);
	__atomic_store_n(&lock->owner, (uintptr_t)current, __ATOMIC_RELEASE);
	raw_spin_unlock_irqrestore(&lock->wait_lock, flags);
	trace_race_window(&rt_mutex_unlock_window);
	return rt_mutex_cmpxchg(lock, (uintptr_t)current, 0);
}

/*
 * rt_mutex_slowunlock - release with waiters queued:
 *	[U1] a waiter may have left since the bit was set: no waiters, plain
 *	     release by unlock_rt_mutex_safe(), again if a waiter came
 *	     meanwhile
 *	[U2] under current->pi_lock: take the top waiter out of current's
 *	     pi_waiters and deboost current at once (article: "it will
 *	     immediately lose its temporarily boosted priority")
 *	[U3] leave the lock free with the bit set, the waiter still queued
 *	     (stealing window, [T3]), and wake it after dropping wait_lock
 * Model: model/pi/rtmutex.pml, rt_mutex_slowunlock [U1]..[U3].
 * Context: task.  Locking: takes wait_lock; current owns lock.
 */
void rt_mutex_slowunlock(struct rt_mutex *lock)
{
	struct rt_mutex_waiter *waiter;
	struct task_struct *wakee;
	unsigned long flags;
	bool savestate;

	BUG_ON(rt_mutex_owner(lock) != current);
	raw_spin_lock_irqsave(&lock->wait_lock, flags);
	while (!rt_mutex_has_waiters(lock)) {			/* [U1] */
		if (unlock_rt_mutex_safe(lock, flags))
			return;
		raw_spin_lock_irqsave(&lock->wait_lock, flags);
	}
	waiter = rt_mutex_top_waiter(lock);			/* [U2] */
	raw_spin_lock(&current->pi_lock);
	pi_owner_dequeue(&current->pi_waiters, waiter);
	rt_mutex_adjust_prio(current);
	raw_spin_unlock(&current->pi_lock);

	__atomic_store_n(&lock->owner, RT_MUTEX_HAS_WAITERS,	/* [U3] */
			 __ATOMIC_RELEASE);
	wakee = get_task_struct(waiter->task);
	savestate = waiter->savestate;
	/* no preemption between deboost and wakeup: the wakee must get the
	 * CPU we might lose, not a task in between */
	preempt_disable();
	raw_spin_unlock_irqrestore(&lock->wait_lock, flags);
	if (savestate)
		wake_up_process_mutex(wakee);
	else
		wake_up_process(wakee);
	put_task_struct(wakee);
	preempt_enable();
}

static inline bool rt_mutex_fastlock(struct rt_mutex *lock)
{
	return rt_mutex_cmpxchg(lock, 0, (uintptr_t)current);
}

/*
 * rt_mutex_deadlock_sleep - a plain rt_mutex_lock() of a lock its caller
 * holds can never succeed: after the report the task sleeps for good
 * (state D in ps), holding what it holds, and the rest of the system
 * goes on.  Linux: rt_mutex_handle_deadlock().  It must not go into the
 * slow path: the waiter would never be queued (task_blocks_on_rt_mutex
 * refuses a self-deadlock first), so there is nothing to wait on.
 * Context: task, may sleep.
 */
static __noreturn void rt_mutex_deadlock_sleep(void)
{
	might_sleep();
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
	}
}

/*
 * rt_mutex_lock_common - every sleeping acquisition (rtmutex_internal.h):
 * the cmpxchg fast path, else the self-deadlock report, else the slow
 * path.  A self-deadlock fails at once with -EDEADLK unless
 * detect_report (plain rt_mutex_lock, rt_spin_lock), in which case the
 * caller stays blocked for good, as on any deadlock.
 * Context: task, may sleep (the callers' might_sleep checks it; the fast
 * path adds no check of its own, rt_mutex_slowlock checks irqs are on).
 * Locking: none held; the slow path takes lock->wait_lock.
 */
int rt_mutex_lock_common(struct rt_mutex *lock, enum rt_mutex_sleep mode,
			 s64 timeout_ns, bool detect_report)
{
	int ret;

	/* validated before it can wait; unannotated again if it fails */
	lock_acquire(&lock->dep_map, 0, false, 0, _RET_IP_);
	if (likely(rt_mutex_fastlock(lock)))
		return 0;
	if (rt_mutex_owner(lock) == current) {
		rt_mutex_report_self_deadlock(lock);
		if (!detect_report) {
			lock_release(&lock->dep_map, _RET_IP_);
			return -EDEADLK;
		}
		rt_mutex_deadlock_sleep();
	}
	ret = rt_mutex_slowlock(lock, mode, timeout_ns, detect_report);
	if (ret)
		lock_release(&lock->dep_map, _RET_IP_);
	return ret;
}

void rt_mutex_lock(struct rt_mutex *lock)
{
	might_sleep();
	rt_mutex_lock_common(lock, RT_SLEEP_UNINTERRUPTIBLE, -1, true);
}

int rt_mutex_lock_interruptible(struct rt_mutex *lock)
{
	might_sleep();
	return rt_mutex_lock_common(lock, RT_SLEEP_INTERRUPTIBLE, -1, false);
}

int rt_mutex_timed_lock(struct rt_mutex *lock, s64 timeout_ns)
{
	might_sleep();
	return rt_mutex_lock_common(lock, RT_SLEEP_INTERRUPTIBLE, timeout_ns,
				    false);
}

int rt_mutex_trylock(struct rt_mutex *lock)
{
	unsigned long flags;
	bool taken;

	if (likely(rt_mutex_fastlock(lock)))
		goto out_taken;
	if (rt_mutex_owner(lock))
		return 0;
	/* free but with waiters: the stealing rule decides */
	raw_spin_lock_irqsave(&lock->wait_lock, flags);
	taken = try_to_take_rt_mutex(lock, current, NULL);
	fixup_rt_mutex_waiters(lock);
	raw_spin_unlock_irqrestore(&lock->wait_lock, flags);
	if (!taken)
		return 0;
out_taken:
	lock_acquire(&lock->dep_map, 0, true, 0, _RET_IP_);
	return 1;
}

void rt_mutex_unlock(struct rt_mutex *lock)
{
	lock_release(&lock->dep_map, _RET_IP_);
	if (likely(rt_mutex_cmpxchg(lock, (uintptr_t)current, 0)))
		return;
	if (rt_mutex_owner(lock) != current) {
		rt_mutex_report_bad_unlock(lock);
		return;
	}
	rt_mutex_slowunlock(lock);
}

void rt_mutex_destroy(struct rt_mutex *lock)
{
	if (rt_mutex_is_locked(lock) || rt_mutex_has_waiters(lock))
		rt_mutex_report_destroy_held(lock);
}
