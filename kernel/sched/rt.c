/*
 * kernel/sched/rt.c - SCHED_FIFO and SCHED_RR: O(1) per-CPU queues
 * (kernel/sched/rt_runqueue.c) and global placement across CPUs.
 *
 * Global placement (article, "Miscellaneous", smp_send_reschedule_
 * allbutself): at every change of the set of runnable RT tasks the N
 * most important ones should be running on the N CPUs.
 *  - wakeup: stay on the last CPU if the task preempts what runs there,
 *    else go to the CPU running the least important task, if the task
 *    beats it (rt_find_lowest_cpu); that CPU gets a reschedule IPI;
 *  - push: after a switch, an RT task left queued but not running (it
 *    was preempted) moves to a CPU running something less important;
 *    so does a woken one whose CPU was taken after the choice
 *    (task_woken_rt);
 *  - pull: before a CPU picks something less important than a queued,
 *    not running RT task of another CPU, it takes that task (after
 *    prev was put back or dequeued, so a blocking prev does not count);
 *  - priority change (prio_changed_rt): a boosted queued task that
 *    cannot preempt its CPU is pushed.
 * rtk sends one targeted IPI (smp_send_reschedule(cpu)) where the
 * article's kernel sent smp_send_reschedule_allbutself() and let every
 * CPU look; the decision is the same, with fewer interrupts.
 * SCHED_RR: a 100 ms slice (RR_TIMESLICE_NS, Linux's value); when it
 * runs out the task goes to the tail of its priority.
 * Linux counterpart: kernel/sched/rt.c (enqueue_task_rt, pick_next_rt,
 * task_tick_rt, push_rt_tasks, pull_rt_task, prio_changed_rt,
 * select_task_rq_rt).  rtk's push_rt_tasks loops as Linux's
 * push_rt_tasks around push_rt_task.
 */
#include "kernel/sched/rq.h"
#include "kernel/sched/rt_placement.h"
#include "kernel/debug/hooks.h"

/* rt_task_migratory - may p run on more than one CPU?  Only such a
 * task can be pushed or pulled (Linux: nr_cpus_allowed > 1).
 * Locking: p->pi_lock or p's rq->lock (either stabilises the mask). */
bool rt_task_migratory(const struct task_struct *p)
{
	return (p->cpus_allowed.bits & (p->cpus_allowed.bits - 1)) != 0;
}

void enqueue_rt(struct rq *rq, struct task_struct *p, bool head)
{
	rt_prio_array_enqueue(&rq->rt, &p->run_list, p->prio, head);
	if (rt_task_migratory(p))
		rq->rt_nr_migratory++;
}

void dequeue_rt(struct rq *rq, struct task_struct *p)
{
	rt_prio_array_dequeue(&rq->rt, &p->run_list, p->prio);
	if (rt_task_migratory(p)) {
		BUG_ON(!rq->rt_nr_migratory);
		rq->rt_nr_migratory--;
	}
}

/*
 * set_cpus_allowed_rt - p's mask becomes new_mask while p may be queued
 * on rq: keep rq->rt_nr_migratory equal to the count enqueue_rt and
 * dequeue_rt keep (a task bound to one CPU, or freed from it, while it
 * is queued), and republish the pushable count.
 * Linux: set_cpus_allowed_rt (before 6.8).
 * Locking: p->pi_lock and rq->lock held, p on rq if queued.
 */
void set_cpus_allowed_rt(struct rq *rq, struct task_struct *p,
			 cpumask_t new_mask)
{
	bool queued_rt = p->on_rq && rt_task(p);

	raw_spin_assert_held(&rq->lock);
	if (queued_rt && rt_task_migratory(p)) {
		BUG_ON(!rq->rt_nr_migratory);
		rq->rt_nr_migratory--;
	}
	p->cpus_allowed = new_mask;
	if (queued_rt && rt_task_migratory(p))
		rq->rt_nr_migratory++;
	if (queued_rt)
		rq_update_cpu_prio(rq);
}

void requeue_rt(struct rq *rq, struct task_struct *p)
{
	if (p->on_rq)
		rt_prio_array_requeue(&rq->rt, &p->run_list, p->prio);
}

struct task_struct *pick_rt(struct rq *rq)
{
	struct list_head *n = rt_prio_array_first(&rq->rt);

	return n ? list_entry(n, struct task_struct, run_list) : NULL;
}

/* snapshot_prios - every CPU's published prio, read without locks: a
 * stale value costs one useless IPI or a later push/pull. */
static void snapshot_prios(int *prio)
{
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		prio[cpu] = cpu_rq(cpu)->online ? READ_ONCE(cpu_rq(cpu)->cpu_prio)
						: -1;
}

static cpumask_t online_rqs(void)
{
	cpumask_t m = { 0 };
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (READ_ONCE(cpu_rq(cpu)->online))
			m.bits |= 1ULL << cpu;
	return m;
}

int select_rt_cpu(struct task_struct *p)
{
	int prio[NR_CPUS], last = task_cpu(p), cpu;

	/* LAB(rt-placement:select) BEGIN */
	if (task_runnable_on(p, last) &&
	    p->prio < READ_ONCE(cpu_rq(last)->cpu_prio))
		return last;
	snapshot_prios(prio);
	cpu = rt_find_lowest_cpu(prio, NR_CPUS, online_rqs(), p->cpus_allowed,
				 p->prio, last);
	return cpu;	/* -1: no CPU to preempt; the caller keeps last */
	/* LAB(rt-placement:select) END */
}

/* next_pushable - the most important queued RT task of rq that is not
 * running and may run on cpu (-1: anywhere).  Locking: rq->lock. */
static struct task_struct *next_pushable(struct rq *rq, int cpu)
{
	int prio;
	struct task_struct *p;

	for (prio = rt_prio_array_highest(&rq->rt); prio < MAX_RT_PRIO;
	     prio++) {
		list_for_each_entry(p, &rq->rt.queue[prio], run_list) {
			if (p == rq->curr || p->on_cpu)
				continue;
			if (cpu < 0 || cpumask_test_cpu(cpu, &p->cpus_allowed))
				return p;
		}
	}
	return NULL;
}

/* test-only: hold the window where push_rt_tasks has dropped rq->lock */
DEFINE_RACE_WINDOW(push_rt_unlocked);

/*
 * push_rt_tasks - [1] take the best pushable task of rq, [2] find the
 * CPU running the least important task it beats, [3] move it there and
 * reschedule that CPU; repeat while something moves (at most one pass
 * per CPU: each move fills one CPU).  [2] decides under rq->lock alone,
 * which is dropped before both locks are taken in CPU order, so [3]
 * tests everything again: p may have run, blocked, moved, changed prio
 * or lost the target CPU from its mask meanwhile:
 *
 *	CPU0 (push_rt_tasks(rq0))          CPU2
 *	p queued, pushable: dst = CPU1
 *	unlock rq0
 *	                                   set_cpus_allowed(p, {CPU0}):
 *	                                     p on an allowed CPU: stays
 *	double_rq_lock(rq0, rq1)
 *	p may not run on CPU1: no move (moved untested, p runs where
 *	  its mask forbids)
 *
 * Test: rt_balance, test_push_rechecks_affinity_under_both_locks.
 * Context: task or irq, no rq lock held.
 */
void push_rt_tasks(struct rq *rq)
{
	int round, prio[NR_CPUS];

	for (round = 0; round < NR_CPUS && READ_ONCE(rq->rt_nr_pushable);
	     round++) {
		struct task_struct *p;
		unsigned long flags;
		cpumask_t allowed;
		struct rq *dst;
		int cpu;

		raw_local_irq_save(flags);
		raw_spin_lock(&rq->lock);
		p = next_pushable(rq, -1);			/* [1] */
		if (!p) {
			raw_spin_unlock(&rq->lock);
			raw_local_irq_restore(flags);
			return;
		}
		allowed = p->cpus_allowed;
		allowed.bits &= ~(1ULL << rq->cpu);
		snapshot_prios(prio);				/* [2] */
		cpu = rt_find_lowest_cpu(prio, NR_CPUS, online_rqs(), allowed,
					 p->prio, -1);
		raw_spin_unlock(&rq->lock);
		if (cpu < 0) {
			raw_local_irq_restore(flags);
			return;
		}
		trace_race_window(&push_rt_unlocked);
		dst = cpu_rq(cpu);
		double_rq_lock(rq, dst);			/* [3] */
		/* LAB(rt-placement:push) BEGIN */
		if (p->on_rq && p->cpu == rq->cpu && p != rq->curr &&
		    !p->on_cpu && p->prio < dst->cpu_prio &&
		    cpumask_test_cpu(cpu, &p->cpus_allowed) && dst->online) {
			move_queued_task(rq, dst, p);
			resched_curr(dst);
		}
		/* LAB(rt-placement:push) END */
		double_rq_unlock(rq, dst);
		raw_local_irq_restore(flags);
	}
}

/*
 * task_woken_rt - should the wake-up that just queued p on rq push it?
 * Yes when p is an RT task that may run elsewhere and did not preempt
 * rq's RT task: the CPU was chosen from lockless reads (select_rt_cpu)
 * and a more important task took it before the queue was locked (the
 * race is drawn in tests/kernel/test_rt_wake_push.c).  Without the push
 * p waits until rq or the CPU it belongs on schedules.  Linux:
 * task_woken_rt (kernel/sched/rt.c), which adds the deadline class.
 * Context: try_to_wake_up.  Locking: rq->lock held.
 */
bool task_woken_rt(struct rq *rq, struct task_struct *p)
{
	struct task_struct *curr = rq->curr;

	raw_spin_assert_held(&rq->lock);
	return rt_task(p) && p != curr && !p->on_cpu && rt_task(curr) &&
	       !per_cpu(sched_need_resched, rq->cpu) && rt_task_migratory(p) &&
	       curr->prio <= p->prio;
}

/* test-only: hold the window where pull_rt_task has dropped rq->lock */
DEFINE_RACE_WINDOW(pull_rt_unlocked);

/*
 * double_lock_balance - lock busiest as well as this_rq, whose lock is
 * held; in CPU order, so this_rq->lock may be dropped and retaken.  What
 * another CPU may do meanwhile to prev, still this CPU's curr:
 *
 *	CPU1 (__schedule of P)             CPU0
 *	lock rq1; P stays queued
 *	pull_rt_task: unlock rq1           set_cpus_allowed(P, {CPU0}):
 *	                                     P runs on CPU1: resched_curr
 *	                                     (flag only; P cannot be moved)
 *	lock rq0, rq1
 *	test P's affinity (after the pull): off CPU1 -> migrate_pending;
 *	  tested before the pull, P would run on with the flag cleared
 *
 * Test: rt_balance, test_affinity_change_while_pull_unlocked.
 * Linux: double_lock_balance (kernel/sched/sched.h); there an affinity
 * change queues the stopper task, which the pick sees.
 * Locking: this_rq->lock held, irqs off.
 */
static void double_lock_balance(struct rq *this_rq, struct rq *busiest)
{
	raw_spin_assert_held(&this_rq->lock);
	if (busiest->cpu > this_rq->cpu) {
		raw_spin_lock_nested(&busiest->lock, SINGLE_DEPTH_NESTING);
		return;
	}
	raw_spin_unlock(&this_rq->lock);
	trace_race_window(&pull_rt_unlocked);
	double_rq_lock(this_rq, busiest);
}

/*
 * double_unlock_balance - drop busiest, keep this_rq->lock.  After
 * double_rq_lock this_rq->lock may be held as the nested (second) lock
 * of the pair; held alone again it must count as a first lock, or the
 * validator sees the next double_lock_balance of the loop take a second
 * nested rq->lock (Linux: lock_set_subclass in double_unlock_balance).
 * Context: __schedule, irqs off.  Locking: both held; busiest dropped.
 */
static void double_unlock_balance(struct rq *this_rq, struct rq *busiest)
{
	raw_spin_assert_held(&this_rq->lock);
	raw_spin_unlock(&busiest->lock);
	lock_release(&this_rq->lock.dep_map, _THIS_IP_);
	lock_acquire(&this_rq->lock.dep_map, 0, false, 0, _THIS_IP_);
}

/*
 * pull_rt_task - this CPU is about to pick its next task, prev already
 * put back or dequeued: take a pushable RT task of another CPU that is
 * more important than anything this CPU would otherwise run.
 * Linux: balance_rt -> pull_rt_task; rtk calls it from __schedule
 * between the dequeue of prev and the pick, the point Linux reaches
 * through put_prev_task_balance.  "What this CPU would run" is the best
 * queued RT task; prev counts only while it is still queued (it was
 * preempted).  Counting a blocking prev was bug 1 of issue 12:
 *
 *	CPU0                             CPU1
 *	A (FIFO 99) spins                H (FIFO 90) rt_mutex_lock(L):
 *	O (OTHER, holds L) queued         boost O to 90 (queued on CPU0)
 *	                                  schedule(): H blocks
 *	                                  pull: "best here = H's 90",
 *	                                   O (90) not better: no pull
 *	O waits for A                    idle, while O could run here
 *
 * Test: rt_balance, test_pi_boosted_owner_pulled_to_idle_cpu (and
 * test_rt_blocker_pulls_equal/lower_prio_task without PI).
 * [1] skip CPUs with nothing pushable (lockless hint, rechecked);
 * [2] lock both queues (this one may be dropped meanwhile); [3] take the
 * best task of src allowed here when rt_pull_wanted() says so; repeat
 * for every CPU (a later pull must beat the earlier one).  A throttled
 * CPU pulls nothing (kernel/sched/rt_bandwidth.c): the task would wait
 * there for the period timer, and it stays pushable where it is.
 * Context: __schedule, irqs off.  Locking: rq->lock held; dropped and
 * retaken, so the caller picks only after this returns, and tests only
 * afterwards what another CPU changes under rq->lock with nothing but
 * a resched flag to show for it (prev's affinity: set_cpus_allowed [3]);
 * the flag itself is cleared after this, so it is not lost.
 */
void pull_rt_task(struct rq *this_rq)
{
	int cpu;

	BUG_ON(!raw_irqs_disabled());
	raw_spin_assert_held(&this_rq->lock);
	if (rt_rq_throttled(this_rq))
		return;		/* a pulled task could not run here either */
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct rq *src = cpu_rq(cpu);
		struct task_struct *p;

		if (src == this_rq || !READ_ONCE(src->online) ||	/* [1] */
		    !READ_ONCE(src->rt_nr_pushable))
			continue;
		if (rt_prio_array_highest(&this_rq->rt) == 0)
			return;			/* nothing can beat prio 0 */
		double_lock_balance(this_rq, src);			/* [2] */
		/* LAB(rt-placement:pull) BEGIN */
		p = next_pushable(src, this_rq->cpu);			/* [3] */
		if (p && this_rq->online &&
		    rt_pull_wanted(p->prio, rt_prio_array_highest(&this_rq->rt)))
			move_queued_task(src, this_rq, p);
		/* LAB(rt-placement:pull) END */
		double_unlock_balance(this_rq, src);
	}
}

/*
 * prio_changed_rt - p's effective prio went from oldprio to p->prio (PI
 * boost or deboost, sched_setscheduler), p requeued on rq: fix up
 * preemption here and say whether p must be pushed elsewhere.
 * [1] p runs and became less important: reschedule, so that a queued
 * task now better than p runs, and __schedule's pull_rt_task takes one
 * of another CPU (Linux: rt_queue_pull_task); [2] p queued and now more important
 * than curr: reschedule; [3] p queued, not running, boosted, and still
 * not beating curr: it must be pushed (rt_push_after_boost), or it waits
 * although another CPU runs something less important:
 *
 *	CPU0                             CPU1
 *	A (FIFO 99) spins                idle (T and H asleep)
 *	O (OTHER, holds L) queued
 *	A: sched_setscheduler(H, 90):
 *	  H blocked on L: boost O to 90
 *	  O queued behind A              nobody schedules here: O waits
 *	  -> push O to CPU1               for A unless it is pushed
 *
 * Test: rt_balance, test_setprio_pushes_boosted_queued_owner.  Linux
 * pushes here only when p becomes RT (switched_to_rt); rtk pushes at
 * every boost of a queued task.
 * Returns true when the caller must call push_rt_tasks(rq) once it has
 * dropped rq->lock.
 * Context: any, irqs off.  Locking: p->pi_lock and rq->lock held.
 */
bool prio_changed_rt(struct rq *rq, struct task_struct *p, int oldprio)
{
	bool running = rq->curr == p;

	raw_spin_assert_held(&rq->lock);
	if (running) {
		rq_update_cpu_prio(rq);
		if (p->prio > oldprio)				/* [1] */
			resched_curr(rq);
		return false;
	}
	if (!p->on_rq)
		return false;
	if (p->prio < rq->curr->prio) {				/* [2] */
		resched_curr(rq);
		return false;
	}
	return rt_task(p) &&					/* [3] */
	       rt_push_after_boost(oldprio, p->prio, rq->curr->prio);
}

/* task_tick_rt - SCHED_RR slice accounting.  Locking: rq->lock. */
void task_tick_rt(struct rq *rq, struct task_struct *curr)
{
	if (curr->policy != SCHED_RR || curr->rr_slice_ns > 0)
		return;
	curr->rr_slice_ns = RR_TIMESLICE_NS;
	/* only rotate when an equal is waiting, as Linux does */
	if (curr->run_list.next != curr->run_list.prev) {
		rt_prio_array_requeue(&rq->rt, &curr->run_list, curr->prio);
		resched_curr(rq);
	}
}
