/*
 * kernel/sched/rq.c - run-queue operations shared by every part of the
 * scheduler: locking one or two queues, locking the queue a task is on,
 * enqueue/dequeue across the policies, publishing a CPU's priority for
 * RT placement, and TIF_NEED_RESCHED + the reschedule IPI.
 *
 * Each CPU has a run queue (kernel/sched/rq.h) locked by a raw spinlock
 * taken with interrupts off.  Lock order: p->pi_lock, then run-queue
 * locks in CPU order (double_rq_lock).
 * Linux counterpart: kernel/sched/core.c (task_rq_lock, __task_rq_lock,
 * double_rq_lock in sched.h, activate_task, deactivate_task,
 * resched_curr, resched_cpu, scheduler_ipi).  rtk leaves out rq_flags /
 * pinning, rq clocks (ktime_get_ns is read directly) and the wake list.
 * Spec: article, "Miscellaneous" (smp_send_reschedule_allbutself).
 */
#include "kernel/sched/rq.h"
#include "kernel/smp.h"
#include "kernel/panic.h"
#include "kernel/debug/hooks.h"

struct rq runqueues[NR_CPUS];
DEFINE_RACE_WINDOW(task_rq_lock_window);
DEFINE_RACE_WINDOW(task_rq_lock_retry_window);

void double_rq_lock(struct rq *a, struct rq *b)
{
	BUG_ON(!raw_irqs_disabled());
	if (a == b) {
		raw_spin_lock(&a->lock);
	} else if (a->cpu < b->cpu) {
		raw_spin_lock(&a->lock);
		raw_spin_lock_nested(&b->lock, SINGLE_DEPTH_NESTING);
	} else {
		raw_spin_lock(&b->lock);
		raw_spin_lock_nested(&a->lock, SINGLE_DEPTH_NESTING);
	}
}

void double_rq_unlock(struct rq *a, struct rq *b)
{
	raw_spin_unlock(&a->lock);
	if (a != b)
		raw_spin_unlock(&b->lock);
}

/*
 * __task_rq_lock - lock the run queue p is on.  p->cpu can change until
 * its run queue is locked, hence the retry.
 * Context: any, irqs off.  Locking: p->pi_lock held (so p cannot be
 * woken or moved by set_cpus_allowed meanwhile); returns with the rq
 * lock held.
 */
struct rq *__task_rq_lock(struct task_struct *p)
{
	struct rq *rq;

	raw_spin_assert_held(&p->pi_lock);
	for (;;) {
		rq = cpu_rq(READ_ONCE(p->cpu));
		trace_race_window(&task_rq_lock_window);
		raw_spin_lock(&rq->lock);
		if (rq == cpu_rq(READ_ONCE(p->cpu)))
			return rq;
		raw_spin_unlock(&rq->lock);
		trace_race_window(&task_rq_lock_retry_window);
	}
}

/*
 * task_rq_lock - lock p->pi_lock and the run queue p is on.
 * Context: any.  Locking: returns with p->pi_lock and the rq lock held,
 * interrupts off (flags: their previous state); task_rq_unlock undoes it.
 */
struct rq *task_rq_lock(struct task_struct *p, unsigned long *flags)
{
	raw_spin_lock_irqsave(&p->pi_lock, *flags);
	return __task_rq_lock(p);
}

void task_rq_unlock(struct rq *rq, struct task_struct *p,
		    unsigned long flags)
{
	raw_spin_unlock(&rq->lock);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

/*
 * rq_update_cpu_prio - publish what this CPU runs for the placement of
 * other CPUs' wakeups: the better of curr and the best queued RT task;
 * and how many queued RT tasks another CPU could take (rt_nr_pushable:
 * not running, allowed elsewhere).  Other CPUs read the count without
 * the lock and lock this queue only when it is not 0.  Counting a task
 * bound here (a per-CPU kthread queued behind curr) made a herd:
 *
 *	CPU0                    CPU1 .. CPU63 (idle, each schedules)
 *	init runs; ksoftirqd/0  pull_rt_task: rq0 "1 pushable":
 *	queued (bound to CPU0)    lock rq0, nothing allowed here, unlock
 *	lock rq0: behind up     ... again at the next schedule
 *	to 63 tickets
 *
 * 63 vCPUs on two host CPUs hand the ticket lock to a vCPU the host is
 * not running: rq0's lock waited 5 s (make test-machines madt-66-cpus,
 * "raw spinlock rq->lock stuck ... at pull_rt_task").  Test:
 * rt_pushable, test_rt_task_pinned_to_its_cpu_is_not_pushable.
 * Locking: rq->lock held.
 */
void rq_update_cpu_prio(struct rq *rq)
{
	/* a queued RT task is as good as running here once curr is
	 * preempted; an idle CPU with nothing queued reports IDLE_PRIO */
	int prio = rq->curr ? rq->curr->prio : IDLE_PRIO;
	int rt = rt_prio_array_highest(&rq->rt);
	unsigned int pushable = rq->rt_nr_migratory;

	raw_spin_assert_held(&rq->lock);
	if (rq->curr && rq->curr->on_rq && rt_task(rq->curr) &&
	    rt_task_migratory(rq->curr) && pushable)
		pushable--;	/* the running one cannot be pushed */
	WRITE_ONCE(rq->cpu_prio, rt < prio ? rt : prio);
	WRITE_ONCE(rq->rt_nr_pushable, pushable);
}

/*
 * resched_curr - make rq's CPU reschedule: set its TIF_NEED_RESCHED and,
 * if it is another CPU, send the reschedule IPI (smp_send_reschedule;
 * its handler, scheduler_ipi, only has to return: the interrupt-exit
 * path or the idle loop sees the flag).
 *
 * TIF_NEED_RESCHED is one word per CPU (sched_need_resched), not a
 * per-task flag as in Linux's thread_info.  It is equivalent here,
 * because a set flag always means "rq->curr of this CPU": [a] it is set
 * only here, under rq->lock, for rq->curr, or by the running task for
 * itself with irqs off (__preempt_check_resched_delayed); [b] __schedule
 * clears it under rq->lock before it picks, and rq->curr changes only
 * there, with the lock held across the switch until the next task's
 * finish_task_switch.  So no set can land between the clear and the
 * switch, and no task leaves a CPU with its flag set: a task cannot
 * carry (or lose) a reschedule request across a migration.  Linux's x86
 * preempt_count folding (PREEMPT_NEED_RESCHED) is per CPU for the same
 * reason.
 * Locking: rq->lock held.
 */
void resched_curr(struct rq *rq)
{
	raw_spin_assert_held(&rq->lock);
	/* Already set: no second IPI.  Safe because a set flag is always
	 * acted on at the target's next preemption point -- the interrupt
	 * return or preempt_enable at count 0 (desktop, rt), schedule()'s
	 * need_resched loop (every model; without it a request that landed
	 * during schedule()'s tail was dropped), the return to user, the
	 * idle loop's check with irqs off before it halts -- and the IPI
	 * only brings the target to one of them sooner; the first request's
	 * IPI did that already, or the target set the flag itself.  Linux's
	 * resched_curr skips the same way (test_tsk_need_resched). */
	if (per_cpu(sched_need_resched, rq->cpu))
		return;
	per_cpu(sched_need_resched, rq->cpu) = 1;
	if (rq->cpu != raw_smp_processor_id())
		smp_send_reschedule(rq->cpu);
}

void resched_cpu(int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags;

	raw_spin_lock_irqsave(&rq->lock, flags);
	resched_curr(rq);
	raw_spin_unlock_irqrestore(&rq->lock, flags);
}

/* scheduler_ipi - see sched.h; the reschedule IPI's handler (kernel/smp.c
 * generic_smp_reschedule_interrupt calls it).
 * Nothing to do: TIF_NEED_RESCHED is already set; the interrupt return
 * (desktop/rt) or the idle loop acts on it.  Context: hard irq. */
void scheduler_ipi(void)
{
}

void activate_task(struct rq *rq, struct task_struct *p, bool head)
{
	raw_spin_assert_held(&rq->lock);
	BUG_ON(p->on_rq);
	if (rt_task(p))
		enqueue_rt(rq, p, head);
	else
		enqueue_fair(rq, p, true);
	p->on_rq = true;
	rq_update_cpu_prio(rq);
}

void deactivate_task(struct rq *rq, struct task_struct *p)
{
	raw_spin_assert_held(&rq->lock);
	BUG_ON(!p->on_rq);
	if (rt_task(p))
		dequeue_rt(rq, p);
	else
		dequeue_fair(rq, p);
	p->on_rq = false;
	rq_update_cpu_prio(rq);
}

/* rq_init - an empty queue for cpu.  Context: boot. */
static void __init rq_init(struct rq *rq, int cpu)
{
	raw_spin_lock_init(&rq->lock);
	rq->lock.name = "rq->lock";
	rq->lock.irqs_off_only = true;	/* scheduler_tick takes it */
	rq->cpu = cpu;
	rt_prio_array_init(&rq->rt);
	INIT_LIST_HEAD(&rq->fair);
	rq->cpu_prio = IDLE_PRIO;
	rt_bandwidth_init(rq);
}

void __init sched_init(void)
{
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		rq_init(cpu_rq(cpu), cpu);
	sched_init_boot_task();
}
