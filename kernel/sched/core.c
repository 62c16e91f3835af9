/*
 * kernel/sched/core.c - schedule(), wakeups, the context switch,
 * priorities and affinity: the policy-independent scheduler core.
 *
 * Each CPU has a run queue (kernel/sched/rq.h) locked by a raw spinlock
 * taken with interrupts off.  Policies: SCHED_FIFO/RR (kernel/sched/rt.c,
 * O(1) queues, global placement) before SCHED_OTHER (kernel/sched/
 * fair.c), before the idle task.
 *
 * Wakeup (try_to_wake_up), the race with a task going to sleep:
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
 * it; p->pi_lock serialises wakers of the same task.
 * Linux counterpart: kernel/sched/core.c (__schedule, try_to_wake_up,
 * context_switch, finish_task_switch, __sched_setscheduler,
 * rt_mutex_setprio, __set_cpus_allowed_ptr).  rtk leaves out sched
 * classes as ops tables (three policies, direct calls), cgroups,
 * NUMA, uclamp and the wake list.
 *
 * Length: over the 600-line soft limit. TODO(split): move wakeups
 * (try_to_wake_up, wake_up_process*) and the priority setters
 * (sched_setscheduler, set_user_nice, rt_mutex_setprio) into their own
 * files; kept together for now because they share the rq locking helpers.
 */
#include "kernel/sched/rq.h"
#include "kernel/sched/kthread.h"
#include "kernel/irqflags.h"
#include "kernel/time/ktime.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "arch/x86_64/switch.h"
#include "kernel/debug/latency_timing.h"
#include "kernel/debug/sched_trace.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/sched/deferred.h"

struct rq runqueues[NR_CPUS];
DEFINE_PER_CPU(struct task_struct *, current_task);
DEFINE_PER_CPU(int, sched_need_resched);
DEFINE_PER_CPU(int, rt_soft_irqs_off);	/* kernel/irqflags.h */

/* Every task, for ps and sched_find_task; taken with irqs off. */
static DEFINE_RAW_SPINLOCK(tasklist_lock);
static LIST_HEAD(task_list);
static int next_pid = 1;

unsigned long might_sleep_warnings;

void double_rq_lock(struct rq *a, struct rq *b)
{
	BUG_ON(!raw_irqs_disabled());
	if (a == b) {
		raw_spin_lock(&a->lock);
	} else if (a->cpu < b->cpu) {
		raw_spin_lock(&a->lock);
		raw_spin_lock(&b->lock);
	} else {
		raw_spin_lock(&b->lock);
		raw_spin_lock(&a->lock);
	}
}

void double_rq_unlock(struct rq *a, struct rq *b)
{
	raw_spin_unlock(&a->lock);
	if (a != b)
		raw_spin_unlock(&b->lock);
}

/*
 * task_rq_lock - lock the run queue p is on, and p->pi_lock.  p->cpu can
 * change until its run queue is locked, hence the retry.
 * Context: any.  Locking: returns with p->pi_lock and the rq lock held,
 * interrupts off (flags: their previous state).
 */
static struct rq *task_rq_lock(struct task_struct *p, unsigned long *flags)
{
	struct rq *rq;

	raw_spin_lock_irqsave(&p->pi_lock, *flags);
	for (;;) {
		rq = cpu_rq(READ_ONCE(p->cpu));
		raw_spin_lock(&rq->lock);
		if (rq == cpu_rq(READ_ONCE(p->cpu)))
			return rq;
		raw_spin_unlock(&rq->lock);
	}
}

static void task_rq_unlock(struct rq *rq, struct task_struct *p,
			   unsigned long flags)
{
	raw_spin_unlock(&rq->lock);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

bool task_runnable_on(const struct task_struct *p, int cpu)
{
	return cpumask_test_cpu(cpu, &p->cpus_allowed) && cpu_rq(cpu)->online;
}

/* rq_update_cpu_prio - publish what this CPU runs for the placement of
 * other CPUs' wakeups: the better of curr and the best queued RT task.
 * Locking: rq->lock held. */
void rq_update_cpu_prio(struct rq *rq)
{
	/* a queued RT task is as good as running here once curr is
	 * preempted; an idle CPU with nothing queued reports IDLE_PRIO */
	int prio = rq->curr ? rq->curr->prio : IDLE_PRIO;
	int rt = rt_prio_array_highest(&rq->rt);

	unsigned int rt_queued = rq->rt.nr_queued;

	if (rq->curr && rq->curr->on_rq && rt_task(rq->curr) && rt_queued)
		rt_queued--;	/* the running one cannot be pushed */
	WRITE_ONCE(rq->cpu_prio, rt < prio ? rt : prio);
	WRITE_ONCE(rq->rt_nr_pushable, rt_queued);
}

/*
 * resched_curr - make rq's CPU reschedule: set its TIF_NEED_RESCHED and,
 * if it is another CPU, send the reschedule IPI (smp_send_reschedule;
 * its handler, scheduler_ipi, only has to return: the interrupt-exit
 * path or the idle loop sees the flag).
 * Locking: rq->lock held.
 */
void resched_curr(struct rq *rq)
{
	raw_spin_assert_held(&rq->lock);
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

/* scheduler_ipi - the reschedule IPI's handler (kernel/smp.c calls it).
 * Nothing to do: TIF_NEED_RESCHED is already set; the interrupt return
 * (desktop/rt) or the idle loop acts on it.  Context: hard irq. */
void scheduler_ipi(void)
{
}

/*
 * update_curr - charge the running task for the time since it was last
 * charged (sum_exec, the RR slice, the fair vruntime).
 * Locking: rq->lock held.
 */
void update_curr(struct rq *rq)
{
	struct task_struct *curr = rq->curr;
	u64 now = ktime_get_ns();
	u64 delta;

	if (!curr || now <= curr->exec_start_ns)
		return;
	delta = now - curr->exec_start_ns;
	curr->exec_start_ns = now;
	curr->sum_exec_ns += delta;
	if (curr->policy == SCHED_RR)
		curr->rr_slice_ns -= (s64)delta;
	if (!rt_task(curr) && !(curr->flags & PF_IDLE))
		update_curr_fair(rq, curr, delta);
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

void move_queued_task(struct rq *src, struct rq *dst, struct task_struct *p)
{
	raw_spin_assert_held(&src->lock);
	raw_spin_assert_held(&dst->lock);
	BUG_ON(p->on_cpu || src->curr == p);
	deactivate_task(src, p);
	if (!rt_task(p))
		fair_migrate_vruntime(src, dst, p);
	WRITE_ONCE(p->cpu, dst->cpu);
	activate_task(dst, p, false);
}

/* check_preempt - p was just queued on rq: does it preempt rq->curr?
 * sync: the waker is rq's current task and promised to schedule soon
 * (wake_up_process_sync): the preemption is left to that schedule() (or
 * the next tick, scheduler_tick's check). */
static void check_preempt(struct rq *rq, struct task_struct *p, bool sync)
{
	struct task_struct *curr = rq->curr;
	bool preempt;

	if (p->prio < curr->prio)
		preempt = true;
	else if (!rt_task(p) && !rt_task(curr))
		preempt = fair_wakeup_preempts(rq, p);
	else
		preempt = false;
	if (!preempt)
		return;
	if (sync && rq->cpu == raw_smp_processor_id() && curr == current) {
		set_need_resched_delayed();	/* TIF_NEED_RESCHED_DELAYED */
		return;
	}
	resched_curr(rq);
}

/* select_task_rq - the CPU a waking p should go to.  Locking: p->pi_lock
 * held (p->cpus_allowed is stable). */
static int select_task_rq(struct task_struct *p)
{
	int cpu = rt_task(p) ? select_rt_cpu(p) : select_fair_cpu(p);

	if (cpu < 0 || !task_runnable_on(p, cpu)) {
		/* affinity names no online CPU: keep the last one (a bound
		 * kthread waits for its CPU, as in Linux) */
		cpu = task_cpu(p);
	}
	return cpu;
}

/*
 * try_to_wake_up - wake p if its state is in mask (see the diagram in the
 * file header).  A task sleeping on a sleeping lock (TASK_RUNNING_MUTEX)
 * is not woken by an ordinary wakeup of its saved state; the wakeup is
 * recorded in saved_state instead so it is not lost.
 * Context: any.  Locking: takes p->pi_lock and run-queue locks, irqs off.
 */
static int try_to_wake_up(struct task_struct *p, unsigned int mask, bool sync)
{
	unsigned long flags;
	struct rq *rq;
	int cpu, woken = 0;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	if (!(READ_ONCE(p->state) & mask)) {
		if (READ_ONCE(p->state) == TASK_RUNNING_MUTEX &&
		    (p->saved_state & mask)) {
			p->saved_state = TASK_RUNNING;
			woken = 1;
		}
		goto out;
	}
	/* still on its queue: it has not finished going to sleep */
	rq = cpu_rq(READ_ONCE(p->cpu));
	raw_spin_lock(&rq->lock);
	if (p->on_rq) {
		WRITE_ONCE(p->state, TASK_RUNNING);
		raw_spin_unlock(&rq->lock);
		woken = 1;
		goto out;
	}
	raw_spin_unlock(&rq->lock);
	/* its stack may still be in use by the switch away from it */
	while (__atomic_load_n(&p->on_cpu, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
	cpu = select_task_rq(p);
	rq = cpu_rq(cpu);
	raw_spin_lock(&rq->lock);
	if (!p->on_rq) {
		if (p->cpu != cpu && !rt_task(p))
			fair_migrate_vruntime(cpu_rq(p->cpu), rq, p);
		WRITE_ONCE(p->cpu, cpu);
		WRITE_ONCE(p->state, TASK_RUNNING);
		activate_task(rq, p, false);
		latency_wakeup_hook(p);		/* WAKEUP_TIMING */
		sched_trace_wakeup(p, cpu);
		check_preempt(rq, p, sync);
		woken = 1;
	}
	raw_spin_unlock(&rq->lock);
out:
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
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

/* pick_next_task - RT first, then SCHED_OTHER, then idle.
 * Locking: rq->lock held. */
static struct task_struct *pick_next_task(struct rq *rq)
{
	struct task_struct *p = pick_rt(rq);

	if (p)
		return p;
	p = pick_fair(rq);
	return p ? p : rq->idle;
}

static void migrate_enqueue(struct task_struct *p);

/*
 * finish_task_switch - the second half of a switch, run by the task
 * switched to, on its own stack: prev's registers are saved now, so it
 * may run elsewhere (on_cpu = false, pairs with the waker's acquire
 * spin); release the run-queue lock prev's schedule() took; drop the
 * scheduler's reference to a dead prev; push RT tasks this CPU no longer
 * runs to CPUs running something less important.
 * Context: task, irqs off, rq->lock held; returns with irqs on.
 */
static void finish_task_switch(struct task_struct *prev)
{
	struct rq *rq = this_rq();
	bool dead = READ_ONCE(prev->state) == TASK_DEAD;

	bool migrate = prev->migrate_pending;

	prev->migrate_pending = false;
	__atomic_store_n(&prev->on_cpu, false, __ATOMIC_RELEASE);
	raw_spin_unlock_irq(&rq->lock);
	if (migrate)
		migrate_enqueue(prev);
	if (dead)
		put_task_struct(prev);	/* the reference of task_exit() */
	if (READ_ONCE(rq->rt_nr_pushable))
		push_rt_tasks(rq);
}

/* schedule_tail - first code of a new task (arch/x86_64/switch.asm). */
void schedule_tail(void *prev)
{
	finish_task_switch(prev);
	preempt_enable();
}

/* context_switch - switch from prev to next; returns as prev, later.
 * Locking: rq->lock held, irqs off; the lock is released by whichever
 * task runs next on this CPU (finish_task_switch). */
static void context_switch(struct rq *rq, struct task_struct *prev,
			   struct task_struct *next)
{
	void *last;

	prev->preempt_count = this_cpu_read(__preempt_count);
	prev->soft_irqs_off = this_cpu_read(rt_soft_irqs_off);
	this_cpu_write(__preempt_count, next->preempt_count);
	this_cpu_write(rt_soft_irqs_off, next->soft_irqs_off);
	this_cpu_write(current_task, next);
	last = arch_context_switch(&prev->sp, next->sp, prev);
	finish_task_switch(last);
}

/*
 * __schedule - the scheduler proper.
 * [1] irqs off, lock this CPU's queue; [2] a prev that set a sleeping
 * state (and is not being preempted) leaves the queue; [3] charge prev,
 * let its policy requeue it; [4] pick the most important task; [5]
 * switch to it.  Before [1]: pull RT tasks waiting on other CPUs that
 * are more important than what this CPU would run.
 * preempt: called by preemption (the state of prev is left alone: it
 * was preempted, not sleeping).
 * Context: task, preempt_count == 1 (the caller's preempt_disable).
 */
static void __schedule(bool preempt)
{
	struct task_struct *prev, *next;
	struct rq *rq;

	raw_local_irq_disable();			/* [1] */
	rq = this_rq();
	if (READ_ONCE(rq->curr->state) != TASK_RUNNING || !rt_task(rq->curr))
		pull_rt_tasks(rq);
	raw_spin_lock(&rq->lock);
	prev = rq->curr;
	if (!preempt && READ_ONCE(prev->state) != TASK_RUNNING &&
	    prev->on_rq)
		deactivate_task(rq, prev);		/* [2] */
	else if (prev->on_rq && !cpumask_test_cpu(rq->cpu, &prev->cpus_allowed)) {
		deactivate_task(rq, prev);	/* set_cpus_allowed [3] */
		prev->migrate_pending = true;
	}
	this_cpu_write(sched_need_resched, 0);
	update_curr(rq);				/* [3] */
	if (prev->on_rq && !rt_task(prev))
		put_prev_fair(rq, prev);
	next = pick_next_task(rq);			/* [4] */
	if (next == prev) {
		raw_spin_unlock_irq(&rq->lock);
		return;
	}
	rq->curr = next;				/* [5] */
	next->on_cpu = true;
	next->exec_start_ns = ktime_get_ns();
	next->nr_switches++;
	rq->nr_switches++;
	rq_update_cpu_prio(rq);
	latency_switch_hook(next);			/* WAKEUP_TIMING */
	sched_trace_switch(prev, next);
	context_switch(rq, prev, next);
}

void schedule(void)
{
	struct task_struct *p = current;

	if (unlikely(in_atomic() || raw_irqs_disabled())) {
		pr_err("BUG: scheduling while atomic: %s/%d, preempt_count "
		       "%#x, irqs %s\n", p->name, p->pid, preempt_count(),
		       raw_irqs_disabled() ? "off" : "on");
		dump_stack();
	}
	preempt_disable();
	__schedule(false);
	preempt_enable_no_resched();
}

/* __schedule_dead - the last switch of an exiting task (task_exit),
 * state TASK_DEAD, preemption off.  Never returns. */
void __schedule_dead(void)
{
	__schedule(false);
	BUG();
}

/* preempt_schedule - from preempt_enable() (desktop and rt only). */
void preempt_schedule(void)
{
	if (preempt_count() || raw_irqs_disabled())
		return;
	do {
		preempt_disable();
		__schedule(true);
		preempt_enable_no_resched();
	} while (need_resched());
}

/*
 * irq_exit_hook - preemption on return from interrupt (desktop and rt):
 * the interrupted task is preempted when it was preemptible (count 0,
 * interrupts were on).  Interrupts are enabled across the switch, as in
 * Linux's preempt_schedule_irq(), and off again on return to the
 * interrupt exit path.
 * Context: hard-irq exit, irqs off, preempt_count = the interrupted one.
 */
void irq_exit_hook(void)
{
	if (!PREEMPT_ON_IRQ_RETURN || !need_resched() || preempt_count() ||
	    !current_or_null() || rt_soft_irqs_off_now())
		return;
	do {
		preempt_disable();
		raw_local_irq_enable();
		__schedule(true);
		raw_local_irq_disable();
		preempt_enable_no_resched();
	} while (need_resched());
}

int _cond_resched(void)
{
	if (!need_resched() || preempt_count() || raw_irqs_disabled())
		return 0;
	preempt_disable();
	__schedule(true);
	preempt_enable_no_resched();
	return 1;
}

void sched_yield(void)
{
	struct rq *rq;

	raw_local_irq_disable();
	rq = this_rq();
	raw_spin_lock(&rq->lock);
	update_curr(rq);
	if (rt_task(current))
		requeue_rt(rq, current);
	else
		current->vruntime = max(current->vruntime, rq->min_vruntime) +
				    1;	/* behind its equals */
	raw_spin_unlock_irq(&rq->lock);
	schedule();
}

void __might_sleep(const char *file, int line)
{
	struct task_struct *p = current_or_null();

	if (!in_atomic() && !irqs_disabled())
		return;
	might_sleep_warnings++;
	pr_err("BUG: sleeping function called from invalid context at "
	       "%s:%d\n", file, line);
	pr_err("in_atomic(): %d, irqs_disabled(): %d, task: %s/%d\n",
	       in_atomic(), irqs_disabled(), p ? p->name : "-",
	       p ? p->pid : -1);
	dump_stack();
}

/* scheduler_tick - from the per-CPU tick (kernel/time/tick.c). */
void scheduler_tick(void)
{
	struct rq *rq;

	if (!current_or_null())
		return;
	rq = this_rq();
	raw_spin_lock(&rq->lock);
	rq->ticks++;
	update_curr(rq);
	if (rt_task(rq->curr))
		task_tick_rt(rq, rq->curr);
	else if (!(rq->curr->flags & PF_IDLE))
		task_tick_fair(rq, rq->curr);
	/* a more important task queued here (a sync wakeup left pending,
	 * or a push that raced): reschedule now */
	if (rt_prio_array_highest(&rq->rt) < rq->curr->prio ||
	    (rq->curr->flags & PF_IDLE && rq->nr_fair))
		resched_curr(rq);
	raw_spin_unlock(&rq->lock);
	/* Periodic SCHED_OTHER balancing, staggered by CPU.  32 ticks: a
	 * few times a second at any tick rate rtk uses, like Linux's
	 * base balance interval of a few ms scaled by domain size. */
	if ((rq->ticks + (unsigned long)rq->cpu) % 32 == 0)
		load_balance_fair(rq);
}

static void __setscheduler_prio(struct task_struct *p)
{
	if (task_has_rt_policy(p))
		p->normal_prio = MAX_RT_PRIO - 1 - p->rt_priority;
	else
		p->normal_prio = p->static_prio;
}

/*
 * change_prio_locked - requeue p for a new effective prio, and fix up
 * preemption: p running and now less important than a queued task, or
 * p queued and now more important than curr.
 * Locking: p->pi_lock and task_rq(p)->lock held.
 */
static void change_prio_locked(struct rq *rq, struct task_struct *p, int prio)
{
	bool queued = p->on_rq, running = rq->curr == p;
	int old = p->prio;

	if (queued)
		deactivate_task(rq, p);
	p->prio = prio;
	if (queued)
		activate_task(rq, p, running && prio > old ? false : running);
	if (running)
		rq_update_cpu_prio(rq);
	if (running && prio > old)
		resched_curr(rq);
	else if (queued && !running && prio < rq->curr->prio)
		resched_curr(rq);
}

int sched_setscheduler(struct task_struct *p, int policy,
		       const struct sched_param *param)
{
	unsigned long flags;
	struct rq *rq;
	int prio;

	if (policy != SCHED_FIFO && policy != SCHED_RR &&
	    policy != SCHED_OTHER)
		return -EINVAL;
	if (!param || param->sched_priority < 0 ||
	    param->sched_priority > MAX_USER_RT_PRIO - 1)
		return -EINVAL;
	if ((policy == SCHED_OTHER) != (param->sched_priority == 0))
		return -EINVAL;
	if (p->flags & PF_IDLE)
		return -EPERM;
	rq = task_rq_lock(p, &flags);
	update_curr(rq);
	p->policy = policy;
	p->rt_priority = param->sched_priority;
	p->rr_slice_ns = RR_TIMESLICE_NS;
	__setscheduler_prio(p);
	/* the better of the new normal prio and the top PI waiter's */
	prio = rt_mutex_getprio(p);
	change_prio_locked(rq, p, prio);
	task_rq_unlock(rq, p, flags);
	push_rt_tasks(rq);
	rt_mutex_adjust_pi(p);	/* blocked: carry the change along the chain */
	return 0;
}

void set_user_nice(struct task_struct *p, long nice)
{
	unsigned long flags;
	struct rq *rq;

	nice = nice < -20 ? -20 : nice > 19 ? 19 : nice;
	rq = task_rq_lock(p, &flags);
	p->static_prio = NICE_TO_PRIO((int)nice);
	__setscheduler_prio(p);
	if (p->prio != rt_mutex_getprio(p))
		change_prio_locked(rq, p, rt_mutex_getprio(p));
	task_rq_unlock(rq, p, flags);
	rt_mutex_adjust_pi(p);
}

void rt_mutex_setprio(struct task_struct *p, int prio)
{
	unsigned long flags;
	struct rq *rq;

	/* the locking code holds p->pi_lock: take only the rq lock */
	raw_spin_assert_held(&p->pi_lock);
	raw_local_irq_save(flags);
	for (;;) {
		rq = cpu_rq(READ_ONCE(p->cpu));
		raw_spin_lock(&rq->lock);
		if (rq == cpu_rq(READ_ONCE(p->cpu)))
			break;
		raw_spin_unlock(&rq->lock);
	}
	update_curr(rq);
	if (p->prio != prio)
		sched_trace_prio(p, prio);
	change_prio_locked(rq, p, prio);
	raw_spin_unlock(&rq->lock);
	raw_local_irq_restore(flags);
}

/*
 * set_cpus_allowed - see kernel/sched/sched.h.
 * [1] a sleeping task just wakes up on an allowed CPU; [2] a queued,
 * not running one moves now; [3] a running one is rescheduled: __schedule
 * takes it off the forbidden CPU's queue (migrate_pending) and
 * finish_task_switch, once its registers are saved, enqueues it on an
 * allowed CPU.
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
	p->cpus_allowed = new_mask;
	if (cpumask_test_cpu(rq->cpu, &new_mask)) {
		task_rq_unlock(rq, p, flags);
		return 0;
	}
	if (!p->on_rq) {
		WRITE_ONCE(p->cpu, dest);			/* [1] */
		task_rq_unlock(rq, p, flags);
		return 0;
	}
	if (rq->curr != p && !p->on_cpu) {			/* [2] */
		drq = cpu_rq(dest);
		raw_spin_unlock(&rq->lock);
		double_rq_lock(rq, drq);
		if (p->on_rq && p->cpu == rq->cpu && rq->curr != p) {
			move_queued_task(rq, drq, p);
			check_preempt(drq, p, false);
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

/* migrate_enqueue - put p, taken off a CPU its affinity forbids, on an
 * allowed one.  Context: task or irqs off; p runnable, not queued,
 * not on a CPU. */
static void migrate_enqueue(struct task_struct *p)
{
	unsigned long flags;
	struct rq *rq;
	int cpu;

	raw_spin_lock_irqsave(&p->pi_lock, flags);
	cpu = select_task_rq(p);
	rq = cpu_rq(cpu);
	raw_spin_lock(&rq->lock);
	if (!rt_task(p))
		fair_migrate_vruntime(cpu_rq(p->cpu), rq, p);
	WRITE_ONCE(p->cpu, cpu);
	activate_task(rq, p, false);
	check_preempt(rq, p, false);
	raw_spin_unlock(&rq->lock);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

/* sched_task_init - fill a new task's scheduling fields: SCHED_OTHER,
 * nice 0, all CPUs, last CPU = the creator's.  Adds it to the list. */
void sched_task_init(struct task_struct *p, const char *name)
{
	unsigned long flags;

	strscpy(p->name, name, sizeof(p->name));
	p->refcount = 1;
	p->state = TASK_UNINTERRUPTIBLE;
	p->saved_state = TASK_RUNNING;
	p->policy = SCHED_OTHER;
	p->static_prio = DEFAULT_PRIO;
	p->normal_prio = p->prio = DEFAULT_PRIO;
	p->cpus_allowed.bits = ~0ULL;
	p->cpu = current_or_null() ? raw_smp_processor_id() : 0;
	INIT_LIST_HEAD(&p->run_list);
	p->rr_slice_ns = RR_TIMESLICE_NS;
	/* what every switch runs with: __schedule's caller's
	 * preempt_disable + the rq lock; schedule_tail drops both */
	p->preempt_count = 2;
	raw_spin_lock_init(&p->pi_lock);
	plist_head_init(&p->pi_waiters);
	raw_spin_lock_irqsave(&tasklist_lock, flags);
	p->pid = next_pid++;
	list_add_tail(&p->tasks, &task_list);
	raw_spin_unlock_irqrestore(&tasklist_lock, flags);
}

void sched_task_unlist(struct task_struct *p)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tasklist_lock, flags);
	list_del(&p->tasks);
	raw_spin_unlock_irqrestore(&tasklist_lock, flags);
}

void sched_for_each_task(void (*fn)(struct task_struct *p, void *arg),
			 void *arg)
{
	struct task_struct *p;
	unsigned long flags;

	raw_spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(p, &task_list, tasks)
		fn(p, arg);
	raw_spin_unlock_irqrestore(&tasklist_lock, flags);
}

const char *sched_policy_name(int policy)
{
	switch (policy) {
	case SCHED_OTHER:
		return "OTHER";
	case SCHED_FIFO:
		return "FIFO";
	case SCHED_RR:
		return "RR";
	case SCHED_IDLE_TASK:
		return "IDLE";
	}
	return "?";
}

struct task_struct *sched_find_task(int pid)
{
	struct task_struct *p, *found = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(p, &task_list, tasks)
		if (p->pid == pid) {
			found = get_task_struct(p);
			break;
		}
	raw_spin_unlock_irqrestore(&tasklist_lock, flags);
	return found;
}

unsigned long sched_nr_switches(int cpu)
{
	return READ_ONCE(cpu_rq(cpu)->nr_switches);
}

/* rq_init - an empty queue for cpu.  Context: boot. */
static void __init rq_init(struct rq *rq, int cpu)
{
	raw_spin_lock_init(&rq->lock);
	rq->lock.name = "rq->lock";
	rq->cpu = cpu;
	rt_prio_array_init(&rq->rt);
	INIT_LIST_HEAD(&rq->fair);
	rq->cpu_prio = IDLE_PRIO;
}

void __init sched_init(void)
{
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		rq_init(cpu_rq(cpu), cpu);
	sched_init_boot_task();
}
