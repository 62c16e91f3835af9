/*
 * kernel/locking/rtmutex_pi.c - the priority-inheritance side of
 * rt_mutex (article, "Priority inheritance for in-kernel spinlocks and
 * semaphores"): the transitive chain walk (rt_mutex_adjust_prio_chain,
 * steps [0]..[13]), and the three ways into it: queueing a waiter and
 * boosting the owner (task_blocks_on_rt_mutex, [B1]..[B4]), leaving the
 * queue and deboosting (remove_waiter, [D1]..[D3]) and the re-walk after
 * a priority change (rt_mutex_adjust_pi, [A1]..[A2]).
 * The owner word, the stealing rule and the slow lock and unlock are
 * kernel/locking/rtmutex.c, whose slow path calls in here; the numbering
 * of all the steps is listed in kernel/locking/rtmutex_internal.h; the
 * per-link decisions are the portable kernel/locking/pi_chain.c.
 * Depends on the scheduler (rt_mutex_setprio, wake_up_process*) and
 * kernel/debug/deadlock.c for the depth report.
 * Linux counterpart: the PI half of kernel/locking/rtmutex.c (v3.14-v4.x
 * structure; the walk's steps [1]..[13] are Linux's), split out here only
 * for length; rtk leaves out the wake_q batching and SCHED_DEADLINE's
 * deadline ordering of waiters (the futex proxy locking is
 * kernel/locking/rtmutex_proxy.c).  Longer than 400 lines because the
 * walk's numbered comment and its race diagrams sit next to the steps
 * they describe.
 *
 * pi_waiters (task->pi_lock) holds, for each lock a task owns, that
 * lock's top waiter; the task's prio is the better of its normal_prio
 * and the top of pi_waiters (rt_mutex_getprio).
 */
#include "kernel/debug/hooks.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/locking/deadlock.h"
#include "lib/errno.h"
#include "lib/bug.h"

/* Linux's default: deeper chains than this are taken as a loop. */
int max_lock_depth = 1024;

/* The PI walk test's window: kernel/locking/rtmutex_internal.h. */
DEFINE_RACE_WINDOW(rt_mutex_chain_walk_window);

int rt_mutex_getprio(struct task_struct *task)
{
	return pi_effective_prio(task->normal_prio, &task->pi_waiters);
}

/*
 * rt_mutex_adjust_prio - boost or deboost task to what its normal prio
 * and its top PI waiter say.
 * Context: any, irqs off.  Locking: task->pi_lock held; takes task's run
 * queue lock (in rt_mutex_setprio).
 */
void rt_mutex_adjust_prio(struct task_struct *task)
{
	int prio;

	raw_spin_assert_held(&task->pi_lock);
	prio = rt_mutex_getprio(task);
	if (task->prio != prio)
		rt_mutex_setprio(task, prio);
}

/*
 * task_blocked_on_lock - the lock task is blocked on, or NULL.  Once
 * task->pi_lock is dropped the result is only good for comparing (the
 * walk's next_lock): the lock may be gone.
 * Context: any, irqs off.  Locking: task->pi_lock held.
 */
static inline struct rt_mutex *task_blocked_on_lock(struct task_struct *task)
{
	return task->pi_blocked_on ? task->pi_blocked_on->lock : NULL;
}

/*
 * rt_mutex_wake_waiter - wake a queued waiter so it retries the lock
 * ([S4]); a spinlock_t sleeper is woken the way that keeps its saved state.
 * Context: any, irqs off.  Locking: its lock's wait_lock held.
 */
static void rt_mutex_wake_waiter(struct rt_mutex *lock,
				 struct rt_mutex_waiter *waiter)
{
	raw_spin_assert_held(&lock->wait_lock);
	if (waiter->savestate)
		wake_up_process_mutex(waiter->task);
	else
		wake_up_process(waiter->task);
}

/*
 * The steps of the PI chain walk (rt_mutex_adjust_prio_chain, below: read
 * its comment first), each named after its step.  They run once per link
 * and the pi-boost bench (kernel/workloads/bench_lock.c) measures them, so the
 * helpers that act on a lock taken in an earlier step ([3], [7], [9], [10],
 * [11]) check it with the inline raw_spin_is_locked() rather than the
 * out-of-line raw_spin_assert_held(), and the one-line ones ([0], [6],
 * [8]) check nothing of their own: the line before them in the walk
 * takes, or checks, what they need.
 */

/*
 * pi_walk_too_deep - step [0]: the walk is at its depth-th link; past
 * max_lock_depth the chain is taken as a cycle the walk cannot see (it is
 * longer than it may go) and reported once per walk.
 * Context: task, irqs on (the walk checks it once).  Locking: none, [R]
 * on the link's task.
 */
static bool pi_walk_too_deep(int depth, struct task_struct *top_task,
			     struct rt_mutex *orig_lock)
{
	if (depth <= max_lock_depth)
		return false;
	rt_mutex_report_depth(top_task, orig_lock, max_lock_depth);
	return true;
}

/*
 * pi_walk_check_link - step [3], the first exit conditions: between
 * links the walk held only [R], so the chain may have changed under it.
 * Stop when task is not blocked any more, is blocked on another lock
 * than the one [12] (or the caller) noted, or orig_lock lost its owner
 * (the unlock deboosts then, [U2]); else pi_link_action() says whether
 * this link changes anything.
 *
 * The race [3] defends against, a waiter leaving during a walk:
 *
 *	CPU0 (T3 blocks on L2, walks)		CPU1 (T2: owns L2, waits for L1)
 *	[B3] boost T2; next_lock = L1
 *	[B4] unlock L2's wait_lock
 *	     (parked in rt_mutex_chain_walk_window)
 *						signal: T2 wakes in [S4]
 *						[S5] remove_waiter: [D1]
 *						  T2->pi_blocked_on = NULL
 *						rt_mutex_lock_interruptible
 *						  returns -EINTR; the waiter
 *						  on T2's stack is gone
 *	[1] lock T2->pi_lock
 *	[2] waiter = T2->pi_blocked_on: NULL
 *	[3] stop: T1, L1's owner, is not boosted for a T2 that left
 *
 * Had the walk kept the waiter it saw before dropping the locks, [4]
 * would read a dead stack frame and [11] would boost L1's owner for
 * good.  The same check catches T2 having got L1 and blocked on another
 * lock since (next_lock != waiter->lock).  rtmutex_races'
 * test_rt_mutex_walk_stops_when_the_waiter_left parks CPU0 in
 * rt_mutex_chain_walk_window and runs CPU1.
 * Context: task, irqs off.  Locking: task->pi_lock held [P], [R].
 */
static enum pi_link_action
pi_walk_check_link(struct task_struct *task, struct rt_mutex_waiter *waiter,
		   struct rt_mutex *next_lock, struct rt_mutex *orig_lock,
		   struct rt_mutex_waiter *orig_waiter,
		   struct rt_mutex_waiter *top_waiter, bool detect)
{
	BUG_ON(!raw_spin_is_locked(&task->pi_lock));
	if (!waiter)
		return PI_LINK_STOP;	/* got its lock, or left */
	if (orig_waiter && !rt_mutex_owner(orig_lock))
		return PI_LINK_STOP;	/* released meanwhile: [U2] deboosts */
	if (next_lock != waiter->lock)
		return PI_LINK_STOP;	/* blocked elsewhere now */
	return pi_link_action(waiter, &task->pi_waiters, task->prio,
			      top_waiter, detect);
}

/*
 * pi_walk_is_deadlock - step [6], the second exit conditions: the chain
 * came back to the lock the walk started from, or reached a lock
 * top_task owns: a cycle.
 * Context: task, irqs off.  Locking: [P] and lock->wait_lock [L] held.
 */
static bool pi_walk_is_deadlock(struct rt_mutex *lock,
				struct rt_mutex *orig_lock,
				struct task_struct *top_task)
{
	return lock == orig_lock || rt_mutex_owner(lock) == top_task;
}

/*
 * pi_walk_requeue_lock_waiter - step [7]: task's prio changed, so its
 * waiter moves to that place in lock->wait_list.  Returns lock's top
 * waiter from before the move (for [9] and [11]), or NULL when action is
 * not PI_LINK_REQUEUE (nothing moved).
 * Context: task, irqs off.  Locking: task->pi_lock [P] and
 * lock->wait_lock [L] held.
 */
static struct rt_mutex_waiter *
pi_walk_requeue_lock_waiter(struct rt_mutex *lock,
			    struct rt_mutex_waiter *waiter,
			    struct task_struct *task,
			    enum pi_link_action action)
{
	BUG_ON(!raw_spin_is_locked(&lock->wait_lock));	/* [P]: [3] checks */
	if (action != PI_LINK_REQUEUE)
		return NULL;
	return pi_requeue_waiter(&lock->wait_list, waiter, task->prio);
}

/*
 * pi_walk_release_task - step [8]: done with task: drop [P] and [R].
 * Context: task, irqs off.  Locking: [P] and [L] held; drops [P] and
 * the reference [R].
 */
static void pi_walk_release_task(struct task_struct *task)
{
	raw_spin_unlock(&task->pi_lock);
	put_task_struct(task);
}

/*
 * pi_walk_end_at_free_lock - step [9], the third exit conditions: lock
 * has no owner, the end of the chain.  An unlock woke lock's top waiter
 * and left the lock free ([U3]); if [7] has just put another waiter in
 * front, that one is the only waiter allowed to take the lock ([T2]), so
 * it must be woken too: the one woken by the unlock will find it is not
 * the top waiter and sleep again.
 *
 *	CPU0					CPU1
 *	T unlocks L: [U3] owner = NULL|bit,
 *	  wakes W1, L's top waiter
 *						a walk through W2 (W2's prio
 *						  raised: [A2], or a boost
 *						  of the lock W2 owns):
 *						[7] W2 requeued before W1
 *	W1 runs: [S4] [T2] not the top
 *	  waiter any more: sleeps again
 *						[9] no owner: wake W2
 *						W2 runs: [S4] [T2] takes L
 *
 * Without the wake-up L stays free with both waiters asleep.  The PI
 * tester script tests/pi/t3-l1-pi-walk-pending.tst forces this
 * interleaving (W1 stops after its wake-up, W2 is raised by
 * sched_setscheduler; it times out waiting for W2's wake-up without it).
 * Context: task, irqs off.  Locking: lock->wait_lock [L] held; dropped
 * with irqs enabled.
 */
static void pi_walk_end_at_free_lock(struct rt_mutex *lock,
				     struct rt_mutex_waiter *prerequeue_top)
{
	struct rt_mutex_waiter *top = rt_mutex_top_waiter(lock);

	BUG_ON(!raw_spin_is_locked(&lock->wait_lock));
	if (prerequeue_top && prerequeue_top != top)
		rt_mutex_wake_waiter(lock, top);
	raw_spin_unlock_irq(&lock->wait_lock);
}

/*
 * pi_walk_next_task - step [10]: the next link's task is lock's owner;
 * take [R] and [P] on it.  The owner cannot go away before [R]: it
 * would have to unlock lock first, and that takes [L].
 * Context: task, irqs off.  Locking: lock->wait_lock [L] held; takes the
 * owner's pi_lock.
 */
static struct task_struct *pi_walk_next_task(struct rt_mutex *lock)
{
	struct task_struct *owner;

	BUG_ON(!raw_spin_is_locked(&lock->wait_lock));
	owner = get_task_struct(rt_mutex_owner(lock));
	raw_spin_lock(&owner->pi_lock);
	return owner;
}

/*
 * pi_walk_requeue_pi_waiter - step [11]: if [7] moved waiter and it is
 * now, or was before, lock's top waiter, task (lock's owner) sees a
 * different top waiter for lock: the new top replaces the old one in
 * task->pi_waiters and task's prio follows (a boost when waiter came to
 * the front, a deboost when it fell behind).  Returns true when the
 * owner's view changed, the condition for going on at [13].
 * Context: task, irqs off.  Locking: task->pi_lock [P] and
 * lock->wait_lock [L] held; takes task's run queue lock.
 */
static bool pi_walk_requeue_pi_waiter(struct task_struct *task,
				      struct rt_mutex *lock,
				      struct rt_mutex_waiter *waiter,
				      struct rt_mutex_waiter *prerequeue_top)
{
	BUG_ON(!raw_spin_is_locked(&task->pi_lock));	/* [L]: [9] needs */
	if (!prerequeue_top)
		return false;	/* [7] moved nothing (PI_LINK_FOLLOW) */
	if (waiter != rt_mutex_top_waiter(lock) && waiter != prerequeue_top)
		return false;	/* behind the top before and after */
	/* LAB(pi-walk:transitive) BEGIN */
	pi_owner_update(&task->pi_waiters, &lock->wait_list, prerequeue_top);
	rt_mutex_adjust_prio(task);
	return true;
	/* LAB(pi-walk:transitive) END */
}

/*
 * The PI chain walk.
 *
 * A change at the start of a chain of blocked tasks (a waiter arrives,
 * leaves, or its task's prio changes) must reach every owner further on:
 *
 *	top_task -waits on-> orig_lock -owned by-> task -waits on-> next_lock
 *	  -owned by-> owner2 -waits on-> ... -owned by-> a running task
 *
 * The walk goes one link at a time and holds at most two spinlocks at a
 * time, so it stays preemptible between links and never holds a lock for
 * a whole chain; the price is that anything it saw may have changed when
 * it takes the locks of the next link, so every link re-checks what the
 * previous one noted ([3], [6], [9]) before trusting it.
 *
 * What protects what (the legend of the table below):
 *	[R]	a reference on task (get_task_struct): task is not freed
 *	[P]	task->pi_lock: task->pi_blocked_on, task->pi_waiters,
 *		task->prio; the waiter's prio while it is requeued
 *	[L]	lock->wait_lock: lock->wait_list, and every change of
 *		lock->owner once its bit 0 is set (kernel/locking/rtmutex.c)
 *	irqs are off whenever [P] or [L] is held.
 * task and lock are the walk's cursor: task is the task of the current
 * link, lock the lock it is blocked on.  The lock order is [L], then [P]
 * (try_to_take_rt_mutex, task_blocks_on_rt_mutex); step [5] goes
 * against it, so it only trylocks and backs off.
 *
 * Arguments (what holds them still):
 *	task		[R]	the first task; the walk drops the reference
 *	detect			follow the whole chain looking for a cycle
 *				even where no prio changes (RT_DEADLOCK_DETECT)
 *	orig_lock		what top_task blocks on (NULL from
 *				rt_mutex_adjust_pi); a cycle comes back to it
 *	next_lock		what task blocked on when the caller last held
 *				[P]; only compared, never dereferenced
 *	orig_waiter		top_task's waiter on orig_lock, NULL on a
 *				deboost ([D3]) or a re-walk ([A2])
 *	top_task		the task that started the walk (current)
 *
 *	step	what						held
 *	[0]	more than max_lock_depth links: report, take	[R]
 *		it as a cycle, -EDEADLK
 *	[1]	lock task->pi_lock				[R] takes [P]
 *	[2]	waiter = task->pi_blocked_on			[R][P]
 *	[3]	exit conditions 1: stop if task no longer	[R][P]
 *		blocks, blocks on another lock than next_lock, or
 *		orig_lock was released meanwhile; else pi_link_action():
 *		STOP (nothing changes further on), REQUEUE, or FOLLOW
 *		(detect only: go on without changing anything)
 *	[4]	lock = waiter->lock				[R][P]
 *	[5]	trylock lock->wait_lock; if busy, drop [P],	[R][P] tries [L]
 *		relax, back to [1]
 *	[6]	exit conditions 2: a deadlock if the chain	[R][P][L]
 *		came back to orig_lock or to a lock top_task owns
 *	[7]	REQUEUE: move waiter in lock->wait_list to	[R][P][L]
 *		task->prio, noting lock's top waiter before the move
 *	[8]	unlock task->pi_lock, put task: drops [P][R]	[L]
 *	[9]	exit conditions 3: lock has no owner (the	[L]
 *		pending window after an unlock): if [7] changed lock's top
 *		waiter, wake the new one; the walk ends
 *	[10]	task = lock's owner: get it, lock its pi_lock	[L] takes [R][P]
 *	[11]	REQUEUE, waiter was or is lock's top waiter:	[R][P][L]
 *		lock's new top replaces the old one in task->pi_waiters,
 *		task's prio is re-evaluated (boost or deboost)
 *	[12]	exit conditions 4, noted for after [13]: the	[R][P][L]
 *		lock task blocks on (next_lock), lock's top waiter
 *	[13]	unlock both; go back to [0] if task blocks	[R]
 *		and [11] changed it (or detect), else put task: done
 *
 * [3], [7] and [11] decide with the portable kernel/locking/pi_chain.c;
 * tests/host/test_rtmutex_chain.c runs the same steps, without the
 * locks, on the host.  [0] is Linux's unnumbered loop check.
 *
 * Model: model/pi/rtmutex_pi.pml, rt_mutex_adjust_prio_chain, steps [0]..[13].
 * Context: task, may not sleep; irqs on.  Locking: none held on entry;
 * takes [P] and [L] one link at a time.
 */
static int rt_mutex_adjust_prio_chain(struct task_struct *task, bool detect,
				      struct rt_mutex *orig_lock,
				      struct rt_mutex *next_lock,
				      struct rt_mutex_waiter *orig_waiter,
				      struct task_struct *top_task)
{
	struct rt_mutex_waiter *waiter, *top_waiter = orig_waiter;
	struct rt_mutex_waiter *prerequeue_top;
	enum pi_link_action action;
	struct rt_mutex *lock;
	bool propagate;
	int depth = 0;
	int ret = 0;

	BUG_ON(raw_irqs_disabled());
	trace_race_window(&rt_mutex_chain_walk_window);
again:
	if (pi_walk_too_deep(++depth, top_task, orig_lock)) {	/* [0] */
		ret = -EDEADLK;
		goto out_put_task;
	}
retry:
	raw_spin_lock_irq(&task->pi_lock);			/* [1] */
	waiter = task->pi_blocked_on;				/* [2] */
	action = pi_walk_check_link(task, waiter, next_lock,	/* [3] */
				    orig_lock, orig_waiter, top_waiter,
				    detect);
	if (action == PI_LINK_STOP)
		goto out_unlock_pi;
	lock = waiter->lock;					/* [4] */
	if (!raw_spin_trylock(&lock->wait_lock)) {		/* [5] */
		raw_spin_unlock_irq(&task->pi_lock);
		cpu_relax();
		goto retry;
	}
	if (pi_walk_is_deadlock(lock, orig_lock, top_task)) {	/* [6] */
		raw_spin_unlock(&lock->wait_lock);
		ret = -EDEADLK;
		goto out_unlock_pi;
	}
	prerequeue_top =					/* [7] */
		pi_walk_requeue_lock_waiter(lock, waiter, task, action);
	pi_walk_release_task(task);				/* [8] */
	if (!rt_mutex_owner(lock)) {				/* [9] */
		pi_walk_end_at_free_lock(lock, prerequeue_top);
		return 0;
	}
	task = pi_walk_next_task(lock);				/* [10] */
	propagate = pi_walk_requeue_pi_waiter(task, lock,	/* [11] */
					      waiter, prerequeue_top);
	next_lock = task_blocked_on_lock(task);			/* [12] */
	top_waiter = rt_mutex_top_waiter(lock);
	raw_spin_unlock(&task->pi_lock);			/* [13] */
	raw_spin_unlock_irq(&lock->wait_lock);
	if (next_lock && (detect || propagate))
		goto again;
	goto out_put_task;

out_unlock_pi:
	raw_spin_unlock_irq(&task->pi_lock);
out_put_task:
	put_task_struct(task);
	return ret;
}

/*
 * task_blocks_on_rt_mutex - queue waiter for task on lock and boost the
 * owner chain:
 *	[B1] taking a lock one holds is a self-deadlock
 *	[B2] under task->pi_lock: queue the waiter by prio (FIFO among
 *	     equals), mark task blocked on it
 *	[B3] under the owner's pi_lock: if waiter became the top waiter, it
 *	     replaces the old one in the owner's pi_waiters and the owner is
 *	     re-prioritised; note the lock the owner blocks on
 *	[B4] if the owner is itself blocked and was boosted (always when
 *	     detecting deadlocks), drop wait_lock and walk the chain from the
 *	     owner, steps [0]..[13]
 * Returns 0 or -EDEADLK (the waiter is still queued then).
 * Model: model/pi/rtmutex_pi.pml, [B1]..[B4].
 * Context: task, irqs off.  Locking: lock->wait_lock held; dropped and
 * retaken around the chain walk; takes task's and the owner's pi_lock.
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

	raw_spin_assert_held(&lock->wait_lock);
	trace_contention_begin(task, owner, lock);
	if (owner == task)					/* [B1] */
		return -EDEADLK;

	waiter->task = task;					/* [B2] */
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

	raw_spin_lock(&owner->pi_lock);				/* [B3] */
	/* LAB(pi-walk:boost) BEGIN */
	if (waiter == rt_mutex_top_waiter(lock)) {
		pi_owner_update(&owner->pi_waiters, &lock->wait_list,
				top_waiter);
		rt_mutex_adjust_prio(owner);
		if (owner->pi_blocked_on)
			chain_walk = true;
	} else if (detect) {
		chain_walk = true;
	}
	/* LAB(pi-walk:boost) END */
	next_lock = task_blocked_on_lock(owner);
	raw_spin_unlock(&owner->pi_lock);
	if (!chain_walk || !next_lock)
		return 0;

	get_task_struct(owner);					/* [B4] */
	raw_spin_unlock_irq(&lock->wait_lock);
	res = rt_mutex_adjust_prio_chain(owner, detect, lock, next_lock,
					 waiter, task);
	raw_spin_lock_irq(&lock->wait_lock);
	return res;
}

/*
 * remove_waiter - current leaves lock's queue without the lock (signal,
 * timeout, deadlock):
 *	[D1] under current->pi_lock: dequeue the waiter, current is no
 *	     longer blocked (the walk's [3] sees this)
 *	[D2] if it was the top waiter of an owned lock: under the owner's
 *	     pi_lock the next top waiter replaces it in the owner's
 *	     pi_waiters and the owner is deboosted
 *	[D3] if the owner is itself blocked, drop wait_lock and walk the
 *	     chain from the owner, steps [0]..[13] (no orig_waiter: a deboost)
 * Model: model/pi/rtmutex_pi.pml, [D1]..[D3].
 * Context: task, irqs off.  Locking: lock->wait_lock held; dropped and
 * retaken around the chain walk; takes current's and the owner's pi_lock.
 */
void remove_waiter(struct rt_mutex *lock, struct rt_mutex_waiter *waiter)
{
	struct task_struct *owner;
	struct rt_mutex *next_lock;
	bool is_top_waiter;

	raw_spin_assert_held(&lock->wait_lock);
	owner = rt_mutex_owner(lock);
	is_top_waiter = waiter == rt_mutex_top_waiter(lock);
	raw_spin_lock(&current->pi_lock);			/* [D1] */
	pi_waiter_dequeue(&lock->wait_list, waiter);
	current->pi_blocked_on = NULL;
	raw_spin_unlock(&current->pi_lock);

	if (!owner || !is_top_waiter)
		return;

	raw_spin_lock(&owner->pi_lock);				/* [D2] */
	/* LAB(pi-walk:deboost) BEGIN */
	pi_owner_update(&owner->pi_waiters, &lock->wait_list, waiter);
	rt_mutex_adjust_prio(owner);
	/* LAB(pi-walk:deboost) END */
	next_lock = task_blocked_on_lock(owner);
	raw_spin_unlock(&owner->pi_lock);
	if (!next_lock)
		return;

	get_task_struct(owner);					/* [D3] */
	raw_spin_unlock_irq(&lock->wait_lock);
	rt_mutex_adjust_prio_chain(owner, false, lock, next_lock, NULL,
				   current);
	raw_spin_lock_irq(&lock->wait_lock);
}

/*
 * rt_mutex_adjust_pi (rtmutex.h):
 *	[A1] under task->pi_lock: nothing to do unless task is blocked and
 *	     its waiter is queued at another prio than task's new one
 *	[A2] walk the chain from task itself, steps [0]..[13] (no orig_lock
 *	     and no orig_waiter: [3] finds the prio difference at once)
 * Model: model/pi/rtmutex_pi.pml, sched_setscheduler, [A1]..[A2].
 * Context: task, irqs on (sched_setscheduler, set_user_nice, after their
 * run queue lock is dropped).  Locking: none held; takes task->pi_lock.
 */
void rt_mutex_adjust_pi(struct task_struct *task)
{
	struct rt_mutex_waiter *waiter;
	struct rt_mutex *next_lock;
	unsigned long flags;

	BUG_ON(raw_spin_is_held_here(&task->pi_lock));
	raw_spin_lock_irqsave(&task->pi_lock, flags);		/* [A1] */
	waiter = task->pi_blocked_on;
	if (!waiter || waiter->prio == task->prio) {
		raw_spin_unlock_irqrestore(&task->pi_lock, flags);
		return;
	}
	next_lock = waiter->lock;
	raw_spin_unlock_irqrestore(&task->pi_lock, flags);

	get_task_struct(task);					/* [A2] */
	rt_mutex_adjust_prio_chain(task, false, NULL, next_lock, NULL, task);
}
