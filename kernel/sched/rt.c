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
 *  - pull: before a CPU picks something less important than a queued,
 *    not running RT task of another CPU, it takes that task.
 * rtk sends one targeted IPI (smp_send_reschedule(cpu)) where the
 * article's kernel sent smp_send_reschedule_allbutself() and let every
 * CPU look; the decision is the same, with fewer interrupts.
 * SCHED_RR: a 100 ms slice (RR_TIMESLICE_NS, Linux's value); when it
 * runs out the task goes to the tail of its priority.
 * Linux counterpart: kernel/sched/rt.c (enqueue_task_rt, pick_next_rt,
 * task_tick_rt, push_rt_tasks, pull_rt_task, select_task_rq_rt).
 */
#include "kernel/sched/rq.h"
#include "kernel/sched/rt_placement.h"

void enqueue_rt(struct rq *rq, struct task_struct *p, bool head)
{
	rt_prio_array_enqueue(&rq->rt, &p->run_list, p->prio, head);
}

void dequeue_rt(struct rq *rq, struct task_struct *p)
{
	rt_prio_array_dequeue(&rq->rt, &p->run_list, p->prio);
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

	if (task_runnable_on(p, last) &&
	    p->prio < READ_ONCE(cpu_rq(last)->cpu_prio))
		return last;
	snapshot_prios(prio);
	cpu = rt_find_lowest_cpu(prio, NR_CPUS, online_rqs(), p->cpus_allowed,
				 p->prio, last);
	return cpu;	/* -1: no CPU to preempt; the caller keeps last */
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

/*
 * push_rt_tasks - [1] take the best pushable task of rq, [2] find the
 * CPU running the least important task it beats, [3] move it there and
 * reschedule that CPU; repeat while something moves (at most one pass
 * per CPU: each move fills one CPU).
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
		dst = cpu_rq(cpu);
		double_rq_lock(rq, dst);			/* [3] */
		if (p->on_rq && p->cpu == rq->cpu && p != rq->curr &&
		    !p->on_cpu && p->prio < dst->cpu_prio &&
		    cpumask_test_cpu(cpu, &p->cpus_allowed) && dst->online) {
			move_queued_task(rq, dst, p);
			resched_curr(dst);
		}
		double_rq_unlock(rq, dst);
		raw_local_irq_restore(flags);
	}
}

/*
 * pull_rt_tasks - this CPU is about to reschedule: take the most
 * important pushable RT task of another CPU if it beats everything
 * queued here.
 * Context: __schedule, irqs off, no rq lock held.
 */
void pull_rt_tasks(struct rq *rq)
{
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct rq *src = cpu_rq(cpu);
		struct task_struct *p;
		int mine;

		if (src == rq || !READ_ONCE(src->online) ||
		    !READ_ONCE(src->rt_nr_pushable))
			continue;
		double_rq_lock(rq, src);
		p = next_pushable(src, rq->cpu);
		mine = rt_prio_array_highest(&rq->rt);
		if (rq->curr->on_rq && rq->curr->prio < mine &&
		    READ_ONCE(rq->curr->state) == TASK_RUNNING)
			mine = rq->curr->prio;
		if (p && p->prio < mine) {
			move_queued_task(src, rq, p);
			resched_curr(rq);
		}
		double_rq_unlock(rq, src);
	}
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
