/*
 * kernel/sched/core.c - schedule(), the context switch and the
 * preemption entry points: the policy-independent scheduler core.
 *
 * Policies: SCHED_FIFO/RR (kernel/sched/rt.c, O(1) queues, global
 * placement) before SCHED_OTHER (kernel/sched/fair.c), before the idle
 * task.  The rest of the core lives next to this file: run-queue
 * locking and resched (rq.c), wakeups (wakeup.c), priority setters
 * (setscheduler.c), affinity and migration (affinity.c), the task list
 * (tasklist.c).
 *
 * Preemption enters here from four places, which the model decides
 * (kernel/sched/preempt_model.h): schedule() (every model),
 * _cond_resched (voluntary and up), preempt_schedule from
 * preempt_enable() and irqentry_exit_cond_resched on interrupt return
 * (desktop, rt).
 * Linux counterpart: kernel/sched/core.c (__schedule, context_switch,
 * finish_task_switch, schedule_tail, preempt_schedule,
 * preempt_schedule_irq, _cond_resched, scheduler_tick, __might_sleep)
 * and kernel/sched/core.c:do_sched_yield.  rtk leaves out sched classes
 * as ops tables (three policies, direct calls), cgroups, NUMA, uclamp,
 * core scheduling and membarrier; the mm switch is switch_mm().
 * Spec: article, "High-Level Preemption-Option Selection" (the four
 * models) and "Preemptible interrupt disable code sequences".
 */
#include "kernel/sched/rq.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/deferred.h"
#include "kernel/irqflags.h"
#include "kernel/time/ktime.h"
#include "kernel/time/tick.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "kernel/smp.h"
#include "arch/x86_64/arch.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/debug/hooks.h"
#include "kernel/locking/bkl.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/kstack.h"
#include "kernel/user/process.h"

DEFINE_RACE_WINDOW(schedule_dequeue_window);
DEFINE_RACE_WINDOW(schedule_return_window);

DEFINE_PER_CPU(struct task_struct *, current_task);
DEFINE_PER_CPU(int, sched_need_resched);
DEFINE_PER_CPU(int, rt_soft_irqs_off);	/* kernel/irqflags.h */

unsigned long might_sleep_warnings;
static int might_sleep_expecting;	/* might_sleep_expect_begin nesting */

/* The mm an exited user thread switched out of (switch_mm [2]): its
 * mm_count reference is dropped by finish_task_switch() once the switch
 * is complete.  Only the CPU's own switch path touches it (irqs off). */
static DEFINE_PER_CPU(struct mm_struct *, switch_prev_mm);

/*
 * update_curr - charge the running task for the time since it was last
 * charged (sum_exec, the RR slice, the fair vruntime, the CPU's RT
 * bandwidth: rt_bandwidth.c, which may throttle the RT class here).
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
	update_curr_rt(rq, rt_task(curr) ? delta : 0);
	if (!rt_task(curr) && !(curr->flags & PF_IDLE))
		update_curr_fair(rq, curr, delta);
}

/* pick_next_task - RT first (on a throttled CPU only its PF_UNTHROTTLED
 * tasks: rt_bandwidth.c), then SCHED_OTHER, then idle.
 * Locking: rq->lock held. */
static struct task_struct *pick_next_task(struct rq *rq)
{
	struct task_struct *p = rt_rq_throttled(rq) ? pick_rt_unthrottled(rq) :
						      pick_rt(rq);

	if (p)
		return p;
	p = pick_fair(rq);
	return p ? p : rq->idle;
}

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
	/* cleared by migrate_enqueue only: until then prev counts as queued */
	bool migrate = prev->migrate_pending;

	struct mm_struct *prev_mm = this_cpu_read(switch_prev_mm);

	this_cpu_write(switch_prev_mm, NULL);
	__atomic_store_n(&prev->on_cpu, false, __ATOMIC_RELEASE);
	/* the lock prev's __schedule took is ours now (lockdep): pairs
	 * with the release in context_switch */
	lock_acquire(&rq->lock.dep_map, 0, true, 0, _THIS_IP_);
	raw_spin_unlock_irq(&rq->lock);
	/* preemption is still off here: a last reference must not free
	 * (__mmdrop takes a spinlock_t, a sleeping lock under rt), so the
	 * desched thread does it (article, "Deferred operations") */
	if (prev_mm)
		mmdrop_delayed(prev_mm);
	if (migrate)
		migrate_enqueue(prev);
	if (dead)
		put_task_struct_atomic(prev);	/* task_exit()'s; deferred.h */
	if (READ_ONCE(rq->rt_nr_pushable))
		push_rt_tasks(rq);
}

/* schedule_tail - first code of a new task (the arch's context switch
 * starts it there). */
void schedule_tail(void *prev)
{
	finish_task_switch(prev);
	preempt_enable();
}

/*
 * switch_mm - the address-space half of a switch.
 * [1] A user thread runs on its own mm, anything else on init_mm's
 *     tables; load them unless the CPU is on them already.  Kernel
 *     threads do NOT borrow the previous mm as Linux's lazy active_mm
 *     does: a borrowed mm stays alive for as long as the borrowing CPU
 *     does not switch again -- an idle CPU can keep an exited program's
 *     page tables forever (test_user_exit_drops_mm_with_mmdrop_delayed
 *     saw one mm_struct too many with borrowing).  rtk prefers an
 *     address space that is gone when its last thread is, at the price
 *     of a CR3 load (a user TLB refill) on user -> kernel-thread switches.
 * [2] A prev that is a user thread past exit_mm (mm gone, active_mm
 *     still its old mm, counted by exit_mm) gives up that reference: it
 *     is dropped after the switch, with preemption off -- the article's
 *     mmdrop_delayed case (finish_task_switch).
 * [3] The user-mode CPU state (FPU, FS base) follows the thread; a user
 *     thread's kernel stack is where ring 3 enters.
 * Context: context_switch, irqs off, rq->lock held.
 */
static void switch_mm(struct rq *rq, struct task_struct *prev,
		      struct task_struct *next)
{
	struct mm_struct *oldmm = prev->active_mm;
	struct mm_struct *mm = next->mm ? next->mm : &init_mm;

	next->active_mm = mm;					/* [1] */
	if (mm != oldmm)
		arch_switch_mm(mm->pgd);
	if (!prev->mm && oldmm && oldmm != &init_mm) {		/* [2] */
		this_cpu_write(switch_prev_mm, oldmm);
		prev->active_mm = &init_mm;
	}
	arch_thread_switch(prev->user ? &prev->user->arch : NULL,	/* [3] */
			   next->user ? &next->user->arch : NULL);
	if (next->user)
		arch_set_kernel_stack(rq->cpu, (unsigned long)kstack_top(next->stack));
}

/* context_switch - switch from prev to next; returns as prev, later.
 * Locking: rq->lock held, irqs off; the lock is released by whichever
 * task runs next on this CPU (finish_task_switch). */
static void context_switch(struct rq *rq, struct task_struct *prev,
			   struct task_struct *next)
{
	void *last;

	rcu_note_context_switch(prev);	/* PREEMPT_RCU: queue a preempted reader */
	prev->preempt_count = this_cpu_read(__preempt_count);
	prev->soft_irqs_off = this_cpu_read(rt_soft_irqs_off);
	this_cpu_write(__preempt_count, next->preempt_count);
	this_cpu_write(rt_soft_irqs_off, next->soft_irqs_off);
	/* rq->lock is handed to next, which releases it in
	 * finish_task_switch: off prev's held locks (lockdep) */
	lock_release(&rq->lock.dep_map, _THIS_IP_);
	switch_mm(rq, prev, next);
	this_cpu_write(current_task, next);
	last = arch_context_switch(&prev->sp, next->sp, prev);
	finish_task_switch(last);
}

/*
 * schedule_check_preconditions - what __schedule needs of its caller,
 * checked as xv6's sched() does, each with what was expected: a task
 * (not an interrupt handler) that is this CPU's current task, with
 * preemption disabled once by the caller (a deeper count is a caller
 * holding a spinning lock: schedule() has reported it as "scheduling
 * while atomic", as Linux does, and goes on), and not holding this
 * CPU's run-queue lock (__schedule takes it).
 * Context: task, preemption off.
 */
static void schedule_check_preconditions(void)
{
	struct rq *rq = this_rq();

	if (unlikely(in_irq() || in_nmi()))
		panic("__schedule: called in interrupt context (preempt_count "
		      "%#x); expected a task", preempt_count());
	if (unlikely(!(preempt_count() & PREEMPT_MASK)))
		panic("__schedule: preemption enabled (preempt_count %#x); "
		      "expected the caller's preempt_disable()", preempt_count());
	if (unlikely(READ_ONCE(rq->curr) != current))
		panic("__schedule: CPU%d's rq->curr is %s/%d, expected the "
		      "caller %s/%d", rq->cpu, rq->curr->name, rq->curr->pid,
		      current->name, current->pid);
	if (unlikely(raw_spin_is_held_here(&rq->lock)))
		panic("__schedule: CPU%d's rq->lock already held here; expected "
		      "it free (a caller that locked its run queue)", rq->cpu);
}

/*
 * block_task - [2] of __schedule: prev set a sleeping state and was not
 * preempted, so it leaves the queue.  (Linux 6.12: block_task /
 * try_to_block_task.)  The race window is the test-only seam between
 * the state test and the dequeue.
 * Context: __schedule, irqs off.  Locking: rq->lock held.
 */
static void block_task(struct rq *rq, struct task_struct *prev)
{
	raw_spin_assert_held(&rq->lock);
	trace_race_window(&schedule_dequeue_window);
	deactivate_task(rq, prev);
}

/*
 * __schedule - the scheduler proper.
 * [1] irqs off, lock this CPU's queue; [2] a prev that set a sleeping
 * state (and is not being preempted) leaves the queue; [3] charge prev,
 * let its policy requeue it; [4] pick the most important task; [5]
 * switch to it.  Between [2] and [3]: pull RT tasks waiting on other
 * CPUs that are more important than what this CPU would run next
 * (pull_rt_task, which may drop and retake rq->lock; the resched flag is
 * cleared only after it, so the resched_curr rule in rq.c holds).
 * preempt: called by preemption (the state of prev is left alone: it
 * was preempted, not sleeping).
 * Context: task, preempt_count == 1 (the caller's preempt_disable).
 */
static void __schedule(bool preempt)
{
	struct task_struct *prev, *next;
	struct rq *rq;

	schedule_check_preconditions();
	raw_local_irq_disable();			/* [1] */
	rq = this_rq();
	raw_spin_lock(&rq->lock);
	prev = rq->curr;
	if (!preempt && READ_ONCE(prev->state) != TASK_RUNNING &&
	    prev->on_rq)
		block_task(rq, prev);			/* [2] */
	/* prev is queued or off: pull; may drop rq->lock, so a change of
	 * prev's affinity meanwhile is seen by the test below (rt.c) */
	pull_rt_task(rq);
	if (prev->on_rq && !cpumask_test_cpu(rq->cpu, &prev->cpus_allowed)) {
		/* set_cpus_allowed [3]; prev is runnable (maybe preempted in
		 * a sleeping state): migrate_enqueue alone enqueues it, see
		 * "migrate vs wake-up" in kernel/sched/affinity.c */
		deactivate_task(rq, prev);
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
	if (prev->flags & PF_IDLE)
		tick_nohz_idle_exit();		/* NO_HZ idle: tick back on */
	rq->curr = next;				/* [5] */
	next->on_cpu = true;
	next->exec_start_ns = ktime_get_ns();
	next->nr_switches++;
	rq->nr_switches++;
	/* Linux's rule: a switch away from a task that set a sleeping
	 * state and was not preempted is voluntary */
	if (!preempt && READ_ONCE(prev->state) != TASK_RUNNING)
		prev->nvcsw++;
	else
		prev->nivcsw++;
	rq_update_cpu_prio(rq);
	trace_sched_switch(prev, next);
	context_switch(rq, prev, next);
}

/*
 * schedule - give up the CPU: [1] with preemption off (and the BKL
 * dropped), __schedule picks the next task; [2] back here, the BKL is
 * retaken and preemption enabled without a check; [3] then again while
 * TIF_NEED_RESCHED is set.  [3] is for a request that lands after
 * __schedule cleared the flag and before [2]'s enable -- a remote
 * wake-up whose IPI returned at preempt_count 1 without a switch:
 *
 *	CPU0				CPU1 (T, in schedule)
 *					__schedule: flag cleared, picks T,
 *					  rq->lock dropped
 *	wake W (higher, on CPU1):
 *	flag set, IPI			IPI: preempt_count 1, no switch
 *					[2] preempt_enable_no_resched
 *					without [3]: T runs on with the flag
 *					set, W waits (to the next tick under
 *					desktop and rt, until T blocks under
 *					none)
 * Linux's schedule() has the same loop (2.6's "goto need_resched").
 * tests/kernel/test_sched_preempt.c parks T in schedule_return_window.
 * Context: task, preemption and irqs on (the BUG report otherwise).
 */
void schedule(void)
{
	struct task_struct *p = current;

	if (unlikely(in_atomic() || raw_irqs_disabled())) {
		pr_err("BUG: scheduling while atomic: %s/%d, preempt_count "
		       "%#x, irqs %s\n", p->name, p->pid, preempt_count(),
		       raw_irqs_disabled() ? "off" : "on");
		dump_stack();
	}
	do {
		preempt_disable();				/* [1] */
		release_kernel_lock(p);	/* a sleeping holder drops the BKL */
		__schedule(false);
		trace_race_window(&schedule_return_window);
		reacquire_kernel_lock(p);	/* [2] ... and has it again */
		preempt_enable_no_resched();
	} while (need_resched());				/* [3] */
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
 * irqentry_exit_cond_resched - see sched.h; preemption on return from
 * interrupt (desktop and rt; PREEMPT_ON_IRQ_RETURN,
 * kernel/sched/preempt_model.h): the interrupted task is preempted when
 * it was preemptible (count 0, interrupts were on).  Interrupts are
 * enabled across the switch, as in Linux's preempt_schedule_irq() (which
 * Linux's irqentry_exit_cond_resched() calls), and off again on return
 * to the interrupt exit path.
 * Context: hard-irq exit, irqs off, preempt_count = the interrupted one.
 */
void irqentry_exit_cond_resched(void)
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
		fair_yield(rq, current);
	raw_spin_unlock_irq(&rq->lock);
	schedule();
}

void __might_sleep(const char *file, int line)
{
	struct task_struct *p = current_or_null();

	if (!in_atomic() && !irqs_disabled())
		return;
	might_sleep_warnings++;
	pr_err("%ssleeping function called from invalid context at %s:%d\n",
	       READ_ONCE(might_sleep_expecting) ? "might_sleep-expected: " :
						  "BUG: ", file, line);
	pr_err("in_atomic(): %d, irqs_disabled(): %d, task: %s/%d\n",
	       in_atomic(), irqs_disabled(), p ? p->name : "-",
	       p ? p->pid : -1);
	dump_stack();
	if (p)
		lockdep_print_held_locks(p);	/* which lock made it atomic */
}

void might_sleep_expect_begin(void)
{
	__atomic_add_fetch(&might_sleep_expecting, 1, __ATOMIC_SEQ_CST);
}

void might_sleep_expect_end(void)
{
	BUG_ON(__atomic_sub_fetch(&might_sleep_expecting, 1,
				  __ATOMIC_SEQ_CST) < 0);
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
	 * or a push that raced): reschedule now; not while throttled, when
	 * the queued RT tasks wait for the period timer's resched */
	if ((!rt_rq_throttled(rq) && !rt_prio_array_empty(&rq->rt) &&
	     rt_prio_array_highest(&rq->rt) < rq->curr->prio) ||
	    (rq->curr->flags & PF_IDLE && rq->nr_fair))
		resched_curr(rq);
	raw_spin_unlock(&rq->lock);
	/* Periodic SCHED_OTHER balancing, staggered by CPU.  32 ticks: a
	 * few times a second at any tick rate rtk uses, like Linux's
	 * base balance interval of a few ms scaled by domain size. */
	if ((rq->ticks + (unsigned long)rq->cpu) % 32 == 0) {
		__atomic_fetch_add(&rq->nr_tick_balances, 1, __ATOMIC_RELAXED);
		load_balance_fair(rq);
		nohz_balance_kick(rq);	/* a tickless idle CPU pulls */
	}
}

unsigned long sched_nr_switches(int cpu)
{
	return READ_ONCE(cpu_rq(cpu)->nr_switches);
}

u64 sched_cpu_idle_ns(int cpu)
{
	return READ_ONCE(cpu_rq(cpu)->idle->sum_exec_ns);
}
