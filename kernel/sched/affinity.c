/*
 * kernel/sched/affinity.c - CPU affinity and moving tasks between run
 * queues: set_cpus_allowed, the migration of a running task off a CPU
 * its new mask forbids (migrate_enqueue, from finish_task_switch), and
 * move_queued_task used by RT push/pull and fair load balancing.
 *
 * A running task cannot be moved by another CPU (its registers live on
 * that CPU until it switches away); __schedule takes it off the queue
 * and marks migrate_pending, and the next task's finish_task_switch
 * enqueues it on an allowed CPU once prev->on_cpu is clear.
 * Linux counterpart: kernel/sched/core.c (__set_cpus_allowed_ptr,
 * move_queued_task, migration_cpu_stop).  rtk leaves out the stopper
 * thread (the switch path does the move), cpusets and
 * migrate_disable().
 * Spec: article, "Miscellaneous" (affinity is honoured by RT placement
 * and SCHED_OTHER balancing).
 */
#include "kernel/sched/rq.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "kernel/debug/hooks.h"

DEFINE_RACE_WINDOW(migrate_enqueue_window);
DEFINE_RACE_WINDOW(set_cpus_allowed_relock_window);

bool task_runnable_on(const struct task_struct *p, int cpu)
{
	return cpumask_test_cpu(cpu, &p->cpus_allowed) && cpu_rq(cpu)->online;
}

/*
 * set_task_cpu - p, on no run queue, will be queued on cpu next: its
 * vruntime moves from its last CPU's scale to cpu's (keeping its lag
 * behind min_vruntime), then p->cpu changes.  Every change of p->cpu
 * goes through here, so p->vruntime is always on task_cpu(p)'s scale.
 * An RT task's vruntime moves too: a PI-boosted SCHED_OTHER task goes
 * back to fair on the CPU it was pushed or pulled to.  What skipping it
 * did (set_cpus_allowed of a sleeper rewrote p->cpu alone):
 *
 *	CPU0 (H, OTHER, busy)           CPU1 (min_vruntime 60 s ahead)
 *	                                S (OTHER) sleeps, vruntime ~60 s
 *	set_cpus_allowed(S, {CPU0}):
 *	  S->cpu = 0, vruntime left
 *	wake_up_process(S): "same CPU",
 *	  queued 60 s behind H: runs
 *	  after 60 s of H's CPU time
 *
 * (the torture's woken tpong/1 that never ran again.)  Test:
 * fair_migrate, test_sleeper_moved_by_affinity_keeps_its_lag.
 * Linux: set_task_cpu() -> migrate_task_rq_fair().
 * Locking: p->pi_lock or both run-queue locks (p cannot be queued by
 * anyone else); cpu's run-queue lock held.
 */
void set_task_cpu(struct task_struct *p, int cpu)
{
	int old = task_cpu(p);

	BUG_ON(p->on_rq);
	if (old != cpu) {
		fair_migrate_vruntime(cpu_rq(old), cpu_rq(cpu), p);
		WRITE_ONCE(p->nr_migrations, p->nr_migrations + 1);
	}
	WRITE_ONCE(p->cpu, cpu);
}

void move_queued_task(struct rq *src, struct rq *dst, struct task_struct *p)
{
	raw_spin_assert_held(&src->lock);
	raw_spin_assert_held(&dst->lock);
	BUG_ON(p->on_cpu || src->curr == p);
	deactivate_task(src, p);
	set_task_cpu(p, dst->cpu);
	activate_task(dst, p, false);
}

/*
 * set_cpus_allowed - see kernel/sched/sched.h.
 * [1] a sleeping task (or one migrate_enqueue will place) keeps its
 * last CPU and goes to an allowed one when it is queued next
 * (select_task_rq; moving p->cpu here moved it without its vruntime,
 * see set_task_cpu); [2] a queued,
 * not running one moves now; [3] a running one is rescheduled: __schedule
 * takes it off the forbidden CPU's queue (migrate_pending) and
 * finish_task_switch, once its registers are saved, enqueues it on an
 * allowed CPU.  [2] drops the queue's lock to take both queues' in
 * order, and p may start running meanwhile ("relock vs pick",
 * test_set_cpus_allowed_moves_a_task_that_started_running):
 *
 *	CPU1 (set_cpus_allowed(p, CPU1))    CPU0
 *	p queued, not running: [2]
 *	unlock rq0
 *	                                    schedule(): picks p, runs it
 *	double_rq_lock(rq0, rq1)
 *	rq0->curr == p: not movable; it
 *	is running now, so [3]: resched
 *	(returning without it left p on
 *	CPU0 until it happened to switch)
 *
 * p->pi_lock, held throughout, keeps wakers and other affinity changes
 * out; push, pull and balancing only move queued tasks to CPUs the new
 * mask allows (they read it under the queue locks).
 */
int set_cpus_allowed(struct task_struct *p, cpumask_t new_mask)
{
	unsigned long flags;
	struct rq *rq, *drq;
	int cpu, dest = -1;

	might_sleep();
	for_each_online_cpu(cpu)
		if (cpumask_test_cpu(cpu, &new_mask)) {
			dest = cpu;
			break;
		}
	if (dest < 0)
		return -EINVAL;
	rq = task_rq_lock(p, &flags);
	set_cpus_allowed_rt(rq, p, new_mask);
	if (cpumask_test_cpu(rq->cpu, &new_mask)) {
		task_rq_unlock(rq, p, flags);
		return 0;
	}
	if (!p->on_rq) {
		task_rq_unlock(rq, p, flags);			/* [1] */
		return 0;
	}
	if (rq->curr != p && !p->on_cpu) {			/* [2] */
		drq = cpu_rq(dest);
		raw_spin_unlock(&rq->lock);
		trace_race_window(&set_cpus_allowed_relock_window);
		double_rq_lock(rq, drq);
		if (p->on_rq && p->cpu == rq->cpu && rq->curr != p) {
			move_queued_task(rq, drq, p);
			check_preempt(drq, p, false);
		} else if (rq->curr == p) {
			resched_curr(rq);	/* it started running: [3] */
		}
		double_rq_unlock(rq, drq);
		raw_spin_unlock_irqrestore(&p->pi_lock, flags);
		return 0;
	}
	resched_curr(rq);					/* [3] */
	task_rq_unlock(rq, p, flags);
	if (p == current)
		schedule();
	return 0;
}

/*
 * migrate_enqueue - put p, taken off a CPU its affinity forbids by
 * __schedule (migrate_pending), on an allowed one.
 *
 * Only one party may enqueue a task.  From __schedule's dequeue until
 * this function clears migrate_pending, p counts as queued (Linux's
 * TASK_ON_RQ_MIGRATING): a waker that finds it so only sets
 * TASK_RUNNING (try_to_wake_up), and p is enqueued here, in the state it
 * has by then.  p may have been preempted in a sleeping state (after
 * set_current_state, before schedule): such a task is still runnable, is
 * queued like any preempted task and goes to sleep in its own schedule().
 * A task that really sleeps was dequeued by __schedule without
 * migrate_pending; its next wake-up picks an allowed CPU.
 *
 * migrate vs wake-up (tests/kernel/test_wakeup_races.c, test_preempted_
 * sleeper_migrated_and_woken_is_queued_once):
 *
 *	CPU0 (P set INTERRUPTIBLE,            CPU1
 *	      preempted before schedule())
 *	__schedule(preempt): CPU0 not in P's
 *	  mask: dequeue P, migrate_pending
 *	finish_task_switch: P->on_cpu = false,
 *	  unlock rq0
 *	                                      wake_up_process(P): state
 *	                                      matches, P off the queue but
 *	                                      migrate_pending: state =
 *	                                      RUNNING only (enqueueing it
 *	                                      here as well was the bug)
 *	migrate_enqueue(P), under pi_lock:
 *	  enqueue on CPU1, clear
 *	  migrate_pending (was: BUG_ON(p->on_rq)
 *	  in activate_task, or P on two queues)
 *
 * Context: task or irqs off; p not queued, not on a CPU.  Locking: takes
 * p->pi_lock, then the destination run queue's lock.
 */
void migrate_enqueue(struct task_struct *p)
{
	unsigned long flags;
	struct rq *rq;
	int cpu;

	trace_race_window(&migrate_enqueue_window);
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	BUG_ON(!p->migrate_pending || p->on_rq || p->on_cpu);
	cpu = select_task_rq(p);
	rq = cpu_rq(cpu);
	raw_spin_lock(&rq->lock);
	set_task_cpu(p, cpu);
	activate_task(rq, p, false);
	p->migrate_pending = false;
	check_preempt(rq, p, false);
	raw_spin_unlock(&rq->lock);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}
