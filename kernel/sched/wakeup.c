/*
 * kernel/sched/wakeup.c - waking tasks: try_to_wake_up and its wrappers,
 * the choice of CPU for a woken task and the wakeup-preemption check.
 *
 * The race with a task going to sleep:
 *
 *	sleeper (CPU0)                     waker (CPU1)
 *	set_current_state(UNINTERRUPTIBLE)  cond = true
 *	if (!cond) schedule():              try_to_wake_up(p):
 *	  lock rq0                            lock p->pi_lock
 *	  state != RUNNING: dequeue,          lock task_rq(p)
 *	    on_rq = false                     on_rq? state = RUNNING, done
 *	  switch; on_cpu = false  ---->       else wait for !on_cpu, pick a
 *	                                      CPU, enqueue, maybe preempt
 *
 * The state test and the dequeue are under the run-queue lock, which the
 * waker also takes, so either the waker sees on_rq (and the sleeper
 * keeps running) or the sleeper is off the queue and the waker enqueues
 * it; p->pi_lock serialises wakers of the same task.  "The run-queue
 * lock" is that of the queue p is on when the lock is held
 * (__task_rq_lock re-reads p->cpu): a queued task is moved by push, pull
 * and balancing under run-queue locks only.  Waker vs sleeper that moved
 * (test_waker_locks_the_queue_the_sleeper_moved_to):
 *
 *	CPU0 (K)                  CPU1                     P
 *	                                                   INTERRUPTIBLE,
 *	                                                   preempted on CPU0
 *	wake_up_process(P):
 *	  reads P->cpu == 0
 *	                          pull_rt_tasks: P to CPU1
 *	                          P: schedule(): lock rq1,
 *	                            state != RUNNING ...
 *	  lock rq0 (not P's!),
 *	  P->on_rq: state = RUNNING
 *	                            ... dequeue P: runnable,
 *	                            on no queue, lost
 *
 * With __task_rq_lock, K finds P->cpu changed, locks rq1, waits for
 * CPU1's dequeue and then enqueues P.
 * Linux counterpart: kernel/sched/core.c (try_to_wake_up, ttwu_do_
 * activate, select_task_rq, check_preempt_curr / wakeup_preempt,
 * wake_up_process, wake_up_state).  rtk leaves out the wake list
 * (remote wakeups lock the remote queue directly) and ttwu statistics.
 * Spec: article, "Miscellaneous" (a woken RT task that cannot preempt
 * its CPU goes to the CPU running the lowest-priority task) and
 * "Deferred operations" (wake_up_process_sync, TIF_NEED_RESCHED_DELAYED);
 * TASK_RUNNING_MUTEX: article, "Preemptible critical sections".
 */
#include "kernel/sched/rq.h"
#include "kernel/debug/hooks.h"
#include "kernel/sched/deferred.h"

/* check_preempt - p was just queued on rq: does it preempt rq->curr?
 * sync: the waker is rq's current task and promised to schedule soon
 * (wake_up_process_sync): the preemption is left to that schedule() (or
 * the next tick, scheduler_tick's check). */
void check_preempt(struct rq *rq, struct task_struct *p, bool sync)
{
	struct task_struct *curr = rq->curr;
	bool preempt;

	if (rt_task(p) && rt_task_throttled(rq, p))
		return;		/* waits for the period timer (rt_bandwidth.c) */
	if (p->prio < curr->prio)
		preempt = true;
	else if (!rt_task(p) && !rt_task(curr))
		preempt = fair_wakeup_preempts(rq, p);
	else
		preempt = false;
	if (!preempt)
		return;
	/* LAB(sync-wakeup:delay) BEGIN */
	if (sync && rq->cpu == raw_smp_processor_id() && curr == current) {
		set_need_resched_delayed();	/* TIF_NEED_RESCHED_DELAYED */
		return;
	}
	/* LAB(sync-wakeup:delay) END */
	resched_curr(rq);
}

/*
 * select_fallback_rq - no CPU is better for p than another (every allowed
 * CPU runs an RT task at least as important): its last CPU if it may
 * still run there, else the first allowed online one.  A task that
 * migrate_enqueue() takes off a CPU its new mask forbids has that CPU as
 * its last one and must not go back to it
 * (test_migrated_task_waits_on_a_busy_allowed_cpu).  Only if the mask
 * names no online CPU does it keep the last one (a bound kthread waits
 * for its CPU, as in Linux).  Linux: select_fallback_rq().
 * Locking: p->pi_lock held.
 */
static int select_fallback_rq(struct task_struct *p)
{
	int cpu = task_cpu(p);
	int c;

	raw_spin_assert_held(&p->pi_lock);
	if (task_runnable_on(p, cpu))
		return cpu;
	for (c = 0; c < NR_CPUS; c++)
		if (task_runnable_on(p, c))
			return c;
	return cpu;
}

/* test-only: hold the window between the choice of CPU, made from
 * lockless reads, and the lock of that CPU's queue (try_to_wake_up) */
DEFINE_RACE_WINDOW(ttwu_cpu_selected);

/* select_task_rq - the CPU a waking p should go to.  Locking: p->pi_lock
 * held (p->cpus_allowed is stable). */
int select_task_rq(struct task_struct *p)
{
	int cpu = rt_task(p) ? select_rt_cpu(p) : select_fair_cpu(p);

	raw_spin_assert_held(&p->pi_lock);
	if (cpu < 0 || !task_runnable_on(p, cpu))
		cpu = select_fallback_rq(p);
	trace_race_window(&ttwu_cpu_selected);
	return cpu;
}

/*
 * ttwu_state_match - does a wake-up of the states in mask apply to p?
 * 1: p's state matches, wake it.  0: it does not; but if the state p
 * parked in saved_state while it takes a spinlock_t matches, the wake-up
 * is recorded there (saved_state = TASK_RUNNING, which the lock code
 * restores once it has the lock) and counts as done for the waker
 * (*success).  saved_state is looked at whatever p->state is now:
 * TASK_RUNNING_MUTEX while p waits for the lock, and TASK_RUNNING once
 * the lock's own wake-up has come but p has not run yet:
 *
 *	W (CPU0)                         O (CPU1, or CPU0 with W not run yet)
 *	set_current_state(INTERRUPTIBLE)
 *	if (!cond): spin_lock(L):
 *	  saved = INTERRUPTIBLE,
 *	  state = RUNNING_MUTEX, sleeps
 *	                                 spin_unlock(L):
 *	                                   wake_up_process_mutex(W):
 *	                                   state = RUNNING, queued, not run
 *	                                 cond = 1; wake_up_process(W):
 *	                                   state RUNNING: no match, but
 *	                                   saved matches: saved = RUNNING
 *	                                   (a test of state == RUNNING_MUTEX
 *	                                   alone dropped it here)
 *	takes L, state = saved (RUNNING)
 *	spin_unlock(L); schedule() returns
 *
 * Forced by tests/kernel/test_wakeup_races.c (test_wakeup_while_lock_
 * wakeup_pending_not_lost).  Outside a lock sleep saved_state is
 * TASK_RUNNING and never matches.  Linux: ttwu_state_match().
 * Locking: p->pi_lock held (the lock code saves and restores under it).
 */
static int ttwu_state_match(struct task_struct *p, unsigned int mask,
			    int *success)
{
	raw_spin_assert_held(&p->pi_lock);
	if (READ_ONCE(p->state) & mask) {
		*success = 1;
		return 1;
	}
	if (p->saved_state & mask) {
		p->saved_state = TASK_RUNNING;
		*success = 1;
	}
	return 0;
}

/*
 * try_to_wake_up - wake p if its state is in mask (see the diagram in the
 * file header; a task blocked on a spinlock_t: ttwu_state_match).
 * A task that still counts as queued - on_rq, or off every queue only
 * while it migrates (migrate_pending, kernel/sched/affinity.c: "migrate
 * vs wake-up") - just gets TASK_RUNNING: whoever queued it, or
 * migrate_enqueue(), keeps it queued; only a task off every queue is
 * enqueued here.
 * Context: any.  Locking: takes p->pi_lock and run-queue locks, irqs off.
 */
static int try_to_wake_up(struct task_struct *p, unsigned int mask, bool sync)
{
	unsigned long flags;
	struct rq *rq;
	int cpu, woken = 0;
	bool push = false;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	if (!ttwu_state_match(p, mask, &woken))
		goto out;
	/* still on its queue: it has not finished going to sleep.  The
	 * queue it is on now, not the one p->cpu named a moment ago: push,
	 * pull and balancing move a queued task without p->pi_lock */
	rq = __task_rq_lock(p);
	if (p->on_rq || p->migrate_pending) {
		WRITE_ONCE(p->state, TASK_RUNNING);
		raw_spin_unlock(&rq->lock);
		goto out;
	}
	raw_spin_unlock(&rq->lock);
	/* its stack may still be in use by the switch away from it */
	while (__atomic_load_n(&p->on_cpu, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
	cpu = select_task_rq(p);
	rq = cpu_rq(cpu);
	raw_spin_lock(&rq->lock);
	if (!WARN_ON(p->on_rq)) {	/* nobody else enqueues it */
		set_task_cpu(p, cpu);
		WRITE_ONCE(p->state, TASK_RUNNING);
		activate_task(rq, p, false);
		trace_sched_wakeup(p, cpu);
		check_preempt(rq, p, sync);
		push = task_woken_rt(rq, p);	/* its CPU was taken */
	}
	raw_spin_unlock(&rq->lock);
out:
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	if (push)
		push_rt_tasks(rq);
	return woken;
}

int wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL, false);
}

int wake_up_state(struct task_struct *p, unsigned int state)
{
	return try_to_wake_up(p, state, false);
}

int wake_up_process_sync(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL, true);
}

int wake_up_process_mutex(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_RUNNING_MUTEX, false);
}
