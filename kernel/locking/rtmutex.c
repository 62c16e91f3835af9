/*
 * kernel/locking/rtmutex.c - rt_mutex: sleeping lock with transitive
 * priority inheritance (article, "Priority inheritance for in-kernel
 * spinlocks and semaphores").  Depends on the scheduler (schedule,
 * wake_up_process*, rt_mutex_setprio), hrtimers for the timed lock and
 * kernel/locking/deadlock.c for the reports.
 * Linux counterpart: kernel/locking/rtmutex.c (v3.x-v4.x structure);
 * rtk leaves out the wake_q batching, the rt_mutex proxy locking of
 * futexes and ww_mutex.
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
 * Length: over the 600-line soft limit on purpose. The fast path, slow
 * path, chain walk and deboost share one set of invariants (the owner
 * word and pi_waiters, both under wait_lock/pi_lock) and are read together,
 * as in Linux's rtmutex.c; splitting them would scatter those rules.
 */
#include "kernel/debug/sched_trace.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/locking/deadlock.h"
#include "kernel/locking/rttester.h"
#include "kernel/signal.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/ktime.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/bug.h"

/* Linux's default: deeper chains than this are taken as a loop. */
int max_lock_depth = 1024;
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
}

static void rt_mutex_set_owner(struct rt_mutex *lock, struct task_struct *owner)
{
	uintptr_t val = (uintptr_t)owner;

	if (rt_mutex_has_waiters(lock))
		val |= RT_MUTEX_HAS_WAITERS;
	__atomic_store_n(&lock->owner, val, __ATOMIC_RELEASE);
}

/* Set bit 0 so a concurrent fast-path unlock fails.  Locking: wait_lock. */
static void mark_rt_mutex_waiters(struct rt_mutex *lock)
{
	__atomic_fetch_or(&lock->owner, RT_MUTEX_HAS_WAITERS, __ATOMIC_ACQ_REL);
}

/* A waiter left: clear bit 0 again when nobody waits.  Locking: wait_lock. */
static void fixup_rt_mutex_waiters(struct rt_mutex *lock)
{
	if (!rt_mutex_has_waiters(lock))
		__atomic_fetch_and(&lock->owner, ~RT_MUTEX_HAS_WAITERS,
				   __ATOMIC_RELEASE);
}

int rt_mutex_getprio(struct task_struct *task)
{
	return pi_effective_prio(task->normal_prio, &task->pi_waiters);
}

/*
 * rt_mutex_adjust_prio - boost or deboost task to what its normal prio
 * and its top PI waiter say.  Locking: task->pi_lock held.
 */
static void rt_mutex_adjust_prio(struct task_struct *task)
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
 * try_to_take_rt_mutex - take lock for task if the rules allow:
 *	[1] set the waiters bit, so that the owner cannot fast-unlock under
 *	    us; an owned lock cannot be taken
 *	[2] a queued waiter may take it only as the top waiter; it leaves the
 *	    queue
 *	[3] an arriving task (no waiter) may take it when nobody waits, or
 *	    by stealing: with a strictly better prio than the top waiter
 *	[4] the new owner inherits the top remaining waiter as a PI waiter
 * Context: task.  Locking: lock->wait_lock held.
 */
static bool try_to_take_rt_mutex(struct rt_mutex *lock,
				 struct task_struct *task,
				 struct rt_mutex_waiter *waiter)
{
	raw_spin_assert_held(&lock->wait_lock);

	mark_rt_mutex_waiters(lock);				/* [1] */
	if (rt_mutex_owner(lock))
		return false;
	if (waiter) {						/* [2] */
		if (waiter != rt_mutex_top_waiter(lock))
			return false;
		pi_waiter_dequeue(&lock->wait_list, waiter);
	} else if (rt_mutex_has_waiters(lock)) {		/* [3] */
		if (task->prio >= rt_mutex_top_waiter(lock)->prio)
			return false;
	}
	raw_spin_lock(&task->pi_lock);				/* [4] */
	task->pi_blocked_on = NULL;
	if (rt_mutex_has_waiters(lock))
		pi_owner_enqueue(&task->pi_waiters, rt_mutex_top_waiter(lock));
	raw_spin_unlock(&task->pi_lock);
	rt_mutex_set_owner(lock, task);
	return true;
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
static int task_blocks_on_rt_mutex(struct rt_mutex *lock,
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
static void remove_waiter(struct rt_mutex *lock, struct rt_mutex_waiter *waiter)
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

/* The timed lock's timeout: an hrtimer that flags and wakes the sleeper. */
struct rt_mutex_timeout {
	struct hrtimer timer;
	struct task_struct *task;
	bool expired;			/* written by the hrtimer function */
};

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
 *	[1] under wait_lock, try once more; a free lock is taken here
 *	[2] spinlock_t: park the caller's task state in saved_state (the
 *	    article's TASK_RUNNING_MUTEX; sched's wakeups keep it updated)
 *	[3] queue the waiter and boost the chain; on -EDEADLK either report
 *	    and keep waiting (plain lock) or report and fail
 *	[4] loop: take the lock as top waiter, else stop on a signal or the
 *	    timeout, else drop wait_lock and sleep.  The lock is tried first,
 *	    so a waiter woken by the unlock takes the lock even if its
 *	    timeout fired too, and the wakeup is never lost
 *	[5] on failure leave the queue, deboosting the owner chain
 *	[6] restore the parked task state
 * Context: task, irqs on, may sleep.  Locking: takes wait_lock.
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
	if (try_to_take_rt_mutex(lock, current, NULL)) {	/* [1] */
		raw_spin_unlock_irq(&lock->wait_lock);
		return 0;
	}
	__atomic_fetch_add(&rt_mutex_slowpath_count, 1, __ATOMIC_RELAXED);

	if (mode == RT_SLEEP_SAVESTATE) {			/* [2] */
		/* under pi_lock: a wakeup sees either the old state or
		 * TASK_RUNNING_MUTEX with the old one in saved_state */
		raw_spin_lock(&current->pi_lock);
		current->saved_state = current->state;
		set_current_state(state);
		raw_spin_unlock(&current->pi_lock);
	} else {
		set_current_state(state);
	}
	if (timeout_ns >= 0) {
		hrtimer_init(&to.timer, rt_mutex_timeout_fn);
		hrtimer_start(&to.timer, ktime_get() + timeout_ns);
	}

	ret = task_blocks_on_rt_mutex(lock, &waiter, current,	/* [3] */
				      RT_DEADLOCK_DETECT);
	if (ret == -EDEADLK) {
		rt_mutex_report_deadlock(&waiter);
		if (detect_report)
			ret = 0;
	}

	while (!ret) {						/* [4] */
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
		/* the PI tester may stop its threads here, after the wake-up
		 * and before the retry (kernel/locking/rttester.h) */
		if (unlikely(READ_ONCE(rttester_active)))
			rttester_schedule(lock);
		else
			schedule();
		raw_spin_lock_irq(&lock->wait_lock);
		set_current_state(state);
	}
	__set_current_state(TASK_RUNNING);

	if (ret)						/* [5] */
		remove_waiter(lock, &waiter);
	fixup_rt_mutex_waiters(lock);

	if (mode == RT_SLEEP_SAVESTATE) {			/* [6] */
		raw_spin_lock(&current->pi_lock);
		current->state = current->saved_state;
		current->saved_state = TASK_RUNNING;
		raw_spin_unlock(&current->pi_lock);
	}
	raw_spin_unlock_irq(&lock->wait_lock);
	if (timeout_ns >= 0)
		hrtimer_cancel(&to.timer);
	return ret;
}

/*
 * rt_mutex_slowunlock - release with waiters queued:
 *	[1] a waiter may have left since the bit was set: no waiters, plain
 *	    release
 *	[2] take the top waiter out of current's pi_waiters and deboost
 *	    current at once (article: "it will immediately lose its
 *	    temporarily boosted priority")
 *	[3] leave the lock free with the bit set, the waiter still queued
 *	    (stealing window), and wake it after dropping wait_lock
 * Context: task.  Locking: takes wait_lock.
 */
void rt_mutex_slowunlock(struct rt_mutex *lock)
{
	struct rt_mutex_waiter *waiter;
	struct task_struct *wakee;
	unsigned long flags;
	bool savestate;

	raw_spin_lock_irqsave(&lock->wait_lock, flags);
	if (!rt_mutex_has_waiters(lock)) {			/* [1] */
		__atomic_store_n(&lock->owner, 0, __ATOMIC_RELEASE);
		raw_spin_unlock_irqrestore(&lock->wait_lock, flags);
		return;
	}
	waiter = rt_mutex_top_waiter(lock);			/* [2] */
	raw_spin_lock(&current->pi_lock);
	pi_owner_dequeue(&current->pi_waiters, waiter);
	rt_mutex_adjust_prio(current);
	raw_spin_unlock(&current->pi_lock);

	__atomic_store_n(&lock->owner, RT_MUTEX_HAS_WAITERS,	/* [3] */
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
 * rt_mutex_lock_common - every sleeping acquisition (rtmutex_internal.h):
 * the cmpxchg fast path, else the self-deadlock report, else the slow
 * path.  A self-deadlock fails at once with -EDEADLK unless
 * detect_report, in which case the slow path reports it again as a
 * one-task cycle and the caller stays blocked, as on any deadlock.
 * Context: task, may sleep (the callers' might_sleep checks it).
 */
int rt_mutex_lock_common(struct rt_mutex *lock, enum rt_mutex_sleep mode,
			 s64 timeout_ns, bool detect_report)
{
	if (likely(rt_mutex_fastlock(lock)))
		return 0;
	if (rt_mutex_owner(lock) == current) {
		rt_mutex_report_self_deadlock(lock);
		if (!detect_report)
			return -EDEADLK;
	}
	return rt_mutex_slowlock(lock, mode, timeout_ns, detect_report);
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
		return 1;
	if (rt_mutex_owner(lock))
		return 0;
	/* free but with waiters: the stealing rule decides */
	raw_spin_lock_irqsave(&lock->wait_lock, flags);
	taken = try_to_take_rt_mutex(lock, current, NULL);
	fixup_rt_mutex_waiters(lock);
	raw_spin_unlock_irqrestore(&lock->wait_lock, flags);
	return taken;
}

void rt_mutex_unlock(struct rt_mutex *lock)
{
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
