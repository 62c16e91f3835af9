/*
 * kernel/irq/softirq.c - softirq vectors: raise, run on irq exit or in
 * ksoftirqd/N, local_bh_disable/enable (contract in softirq.h).
 *
 * Running the pending vectors (__do_softirq, non-rt):
 *	[1] interrupts off: take this CPU's pending bits and clear them
 *	[2] interrupts on, SOFTIRQ_OFFSET in preempt_count (in_softirq()
 *	    true, an interrupt arriving now does not recurse into us): run
 *	    each pending vector's action in number order
 *	[3] interrupts off: more raised meanwhile?  Go round again, at most
 *	    MAX_SOFTIRQ_RESTART times; the rest waits for the next irq exit
 *	    (at most one tick) so a softirq storm cannot hold the CPU
 * Under rt ksoftirqd/N does [1] and [2] in process context: no
 * SOFTIRQ_OFFSET (in_interrupt() false, the actions may sleep), bound to
 * CPU N so "this CPU's pending bits" stays meaningful while preemptible.
 * Which of the two runs the vectors is decided in one function,
 * softirq_handle_pending(), at every point where they could run (a raise,
 * irq exit, local_bh_enable, raise_softirq with interrupts on).
 * Linux counterpart: kernel/softirq.c (__do_softirq, invoke_softirq,
 * raise_softirq, __local_bh_enable_ip, run_ksoftirqd); rtk has no
 * per-vector threads (the later -rt softirq-timer/N) and no RCU vector.
 */
#include "kernel/irq/softirq.h"
#include "kernel/irq/irq_model.h"
#include "kernel/irq/tasklet.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/panic.h"
#include "kernel/percpu.h"
#include "kernel/printk.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"
#include "lib/bug.h"

/* From Linux kernel/softirq.c: rounds before the rest is left for later. */
#define MAX_SOFTIRQ_RESTART 10

static void (*softirq_actions[NR_SOFTIRQS])(void);	/* set at boot */

/* Written by its own CPU with interrupts off; ksoftirqd/N reads it. */
static DEFINE_PER_CPU(u32, softirq_pending);
static DEFINE_PER_CPU(struct task_struct *, ksoftirqd_tasks);

void open_softirq(int nr, void (*action)(void))
{
	BUG_ON(nr < 0 || nr >= NR_SOFTIRQS);
	softirq_actions[nr] = action;
}

u32 local_softirq_pending(void)
{
	return this_cpu_read(softirq_pending);
}

/* ksoftirqd_task - see softirq.h (NULL unless softirq_init made one). */
struct task_struct *ksoftirqd_task(int cpu)
{
	return per_cpu(ksoftirqd_tasks, cpu);
}

static void wakeup_softirqd(void)
{
	struct task_struct *p = this_cpu_read(ksoftirqd_tasks);

	if (p)
		wake_up_process(p);
}

/* take_pending - step [1].  Context: interrupts off. */
static u32 take_pending(void)
{
	u32 pending = this_cpu_read(softirq_pending);

	BUG_ON(!raw_irqs_disabled());
	this_cpu_write(softirq_pending, 0);
	return pending;
}

/* run_actions - step [2]: every vector in pending, in number order.
 * Context: interrupts on; softirq context (non-rt) or ksoftirqd (rt). */
static void run_actions(u32 pending)
{
	for (int nr = 0; pending; nr++, pending >>= 1) {
		if (!(pending & 1))
			continue;
		if (WARN_ON(!softirq_actions[nr]))
			continue;
		softirq_actions[nr]();
	}
}

/*
 * __do_softirq - steps [1]-[3] (non-rt).
 * Context: interrupts off, not in interrupt context; returns with
 * interrupts off.
 */
static void __do_softirq(void)
{
	int restart = MAX_SOFTIRQ_RESTART;
	u32 pending;

	BUG_ON(!raw_irqs_disabled() || in_interrupt());
	__preempt_count_add(SOFTIRQ_OFFSET);
	while ((pending = take_pending()) && restart--) {		/* [1] */
		raw_local_irq_enable();					/* [2] */
		run_actions(pending);
		raw_local_irq_disable();				/* [3] */
	}
	/* [3] out of rounds: put back what was taken but not run */
	if (pending)
		this_cpu_write(softirq_pending,
			       this_cpu_read(softirq_pending) | pending);
	__preempt_count_sub(SOFTIRQ_OFFSET);
}

/*
 * softirq_handle_pending - the model's one softirq decision
 * (SOFTIRQ_THREADED = PREEMPT_SOFTIRQS, kernel/irq/irq_model.h), taken at
 * every point where this CPU's pending vectors could run:
 *	rt	ksoftirqd/N runs them, in process context and preemptible:
 *		wake it if a vector is pending (already awake: no-op; before
 *		softirq_init there is no thread yet, the vectors wait for it)
 *	others	run them here and now (__do_softirq) when this point may:
 *		may_run_here (not a bare raise with interrupts off) and not
 *		nested in interrupt or softirq context or under
 *		local_bh_disable (in_interrupt()); otherwise the next such
 *		point runs them
 * Context: any, interrupts off.
 */
static void softirq_handle_pending(bool may_run_here)
{
	BUG_ON(!raw_irqs_disabled());
	if (!local_softirq_pending())
		return;
	if (SOFTIRQ_THREADED)
		wakeup_softirqd();
	else if (may_run_here && !in_interrupt())
		__do_softirq();
}

void raise_softirq_irqoff(unsigned int nr)
{
	BUG_ON(nr >= NR_SOFTIRQS);
	BUG_ON(!raw_irqs_disabled());
	this_cpu_write(softirq_pending, this_cpu_read(softirq_pending) | 1u << nr);
	softirq_handle_pending(false);
}

/* invoke_softirq - see softirq.h.  Context: hardirq exit, interrupts off. */
void invoke_softirq(void)
{
	softirq_handle_pending(true);
}

/* do_softirq - the pending vectors, from a task-context point (raise
 * with interrupts on, local_bh_enable).  Context: any. */
static void do_softirq(void)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	softirq_handle_pending(true);
	raw_local_irq_restore(flags);
}

void raise_softirq(unsigned int nr)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	raise_softirq_irqoff(nr);
	raw_local_irq_restore(flags);
	if (!raw_irqs_disabled_flags(flags))
		do_softirq();
}

/* local_bh_disable_count - none/voluntary/desktop local_bh_disable
 * (softirq.h).  Context: task or softirq. */
void local_bh_disable_count(void)
{
	__preempt_count_add(SOFTIRQ_DISABLE_OFFSET);
	barrier();
}

/*
 * local_bh_enable_count - drop one bh-disable level; at the outermost,
 * run what was raised meanwhile, then the preemption point the count
 * was hiding (none/voluntary/desktop local_bh_enable).
 * Context: task or softirq, interrupts on.
 */
void local_bh_enable_count(void)
{
	BUG_ON(softirq_count() < SOFTIRQ_DISABLE_OFFSET);
	barrier();
	__preempt_count_sub(SOFTIRQ_DISABLE_OFFSET);
	if (!in_interrupt() && local_softirq_pending())
		do_softirq();
	preempt_check_resched();
}

/*
 * ---- rt: local_bh_disable as a per-CPU sleeping lock
 *
 * The article's era (2.6.2x-rt, PREEMPT_SOFTIRQS) moved the vectors into
 * threads but kept local_bh_disable() a preempt_count add, as rtk did
 * until now: a bh section was never preemptible, and spin_lock_bh() on a
 * sleeping spinlock_t took it with preemption off (might_sleep BUG; a
 * contended one scheduled while atomic).  Mainline PREEMPT_RT (the 3.0-rt
 * softirq local lock, since 5.12 kernel/softirq.c "softirq: Add RT
 * variant": struct softirq_ctrl) makes it a per-CPU local_lock_t, a
 * sleeping lock with PI, plus a per-task nesting count
 * (current->softirq_disable_cnt) and migrate_disable() while held;
 * whoever runs vectors holds the same lock, and local_bh_enable runs
 * pending vectors itself when it may.  rtk does the lock and the count
 * (local_bh_lock / local_bh_unlock):
 *	[1] nested (the task's count is not 0): count only
 *	[2] atomic caller (preemption or irqs off: nothing else runs on
 *	    this CPU until it ends, and it may not sleep): count only
 *	[3] outermost: rt_mutex_lock this CPU's bh_lock (may sleep, boosts
 *	    its holder: ksoftirqd/N running vectors, or another task's bh
 *	    section on this CPU), remember which CPU, count
 *	[4] local_bh_unlock at the outermost: release that CPU's lock and
 *	    wake its ksoftirqd if vectors are pending; vectors never run
 *	    here (the brief's choice: only ksoftirqd/N runs them)
 * ksoftirqd/N takes [3] around each batch of vectors.  Left out: rtk
 * has no migrate_disable() (see kernel/locking/spinlock.h), so a section
 * that sleeps may wake on another CPU; it still holds the lock of the
 * CPU it started on (released by [4] from wherever it runs, the way
 * kernel/percpu_locked.h names a CPU's copy) and excludes that CPU's
 * vectors, but this_cpu data read after the sleep may be another CPU's.
 *
 * The race the lock defends against (forced by test_softirq_bh.c
 * test_ksoftirqd_blocked_on_bh_lock_boosts_the_section):
 *
 *	CPU0: T (SCHED_OTHER)     CPU0: F (FIFO 10)   CPU0: ksoftirqd/0 (FIFO 1)
 *	local_bh_disable [3]:
 *	  bh_lock[0] is T's
 *	spin_lock_bh(l); msleep
 *	  or preempted by F -->   runs (section is
 *	                          preemptible)
 *	                          tasklet_schedule:
 *	                          TASKLET pending,
 *	                          wake ksoftirqd/0
 *	                          sleeps       -->    local_bh_disable [3]:
 *	                                              bh_lock[0] is T's:
 *	                                              block, boost T to FIFO 1
 *	T runs at FIFO 1, above every SCHED_OTHER task
 *	local_bh_enable [4]: bh_lock[0] to ksoftirqd/0, T back to SCHED_OTHER
 *	                                              take_pending, run vectors
 * Without the lock (a bare count) ksoftirqd/0 would run the tasklet in
 * the middle of T's section, which the tasklet's data assumes cannot
 * happen on this CPU.
 */
static DEFINE_PER_CPU(struct rt_mutex, bh_lock);
static bool bh_locks_ready;	/* softirq_init initialised every copy */

/* current_softirq_disable_cnt - the task's bh depth under rt, for
 * softirq_count() (kernel/preempt_count.h).  Context: any. */
int current_softirq_disable_cnt(void)
{
	struct task_struct *p = current_or_null();

	return p ? READ_ONCE(p->softirq_disable_cnt) : 0;
}

struct task_struct *local_bh_lock_owner(int cpu)
{
	if (!SOFTIRQ_THREADED || !READ_ONCE(bh_locks_ready))
		return NULL;
	return rt_mutex_owner(&per_cpu(bh_lock, cpu));
}

/*
 * local_bh_lock - rt local_bh_disable, steps [1]-[3] above.
 * Context: task; may sleep when preemptible.
 * Locking: takes this CPU's bh_lock at the outermost level.
 */
void local_bh_lock(void)
{
	struct task_struct *p = current;
	int cpu;

	BUG_ON(in_irq());
	if (p->softirq_disable_cnt || in_atomic() || irqs_disabled() ||
	    !READ_ONCE(bh_locks_ready)) {				/* [1] [2] */
		if (!p->softirq_disable_cnt)
			p->softirq_lock_cpu = -1;
		WRITE_ONCE(p->softirq_disable_cnt,
			   p->softirq_disable_cnt + SOFTIRQ_DISABLE_OFFSET);
		barrier();
		return;
	}
	cpu = raw_smp_processor_id();					/* [3] */
	rt_mutex_lock(&per_cpu(bh_lock, cpu));
	p->softirq_lock_cpu = cpu;
	WRITE_ONCE(p->softirq_disable_cnt, SOFTIRQ_DISABLE_OFFSET);
	barrier();
}

/*
 * local_bh_unlock - rt local_bh_enable, step [4] above (pairs with
 * local_bh_lock).
 * Context: task.  Locking: releases the bh_lock the outermost
 * local_bh_lock took.
 */
void local_bh_unlock(void)
{
	struct task_struct *p = current;
	int cpu = p->softirq_lock_cpu;

	BUG_ON(p->softirq_disable_cnt < (int)SOFTIRQ_DISABLE_OFFSET);
	barrier();
	WRITE_ONCE(p->softirq_disable_cnt,
		   p->softirq_disable_cnt - SOFTIRQ_DISABLE_OFFSET);
	if (p->softirq_disable_cnt || cpu < 0)
		return;
	rt_mutex_unlock(&per_cpu(bh_lock, cpu));			/* [4] */
	if (READ_ONCE(per_cpu(softirq_pending, cpu)) &&
	    per_cpu(ksoftirqd_tasks, cpu))
		wake_up_process(per_cpu(ksoftirqd_tasks, cpu));
}

/*
 * ksoftirqd - the thread ksoftirqd/N (rt): sleep until a vector is
 * pending on this CPU, run [1] and [2] preemptible, repeat.
 * Context: kthread bound to CPU N, SCHED_FIFO SOFTIRQ_THREAD_PRIO.
 */
static int ksoftirqd(void *data)
{
	u32 pending;

	(void)data;
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		if (!local_softirq_pending()) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		local_bh_disable();	/* this CPU's bh lock: waits for a
					 * bh section here to end (boosting
					 * it), see local_bh_lock */
		raw_local_irq_disable();
		pending = take_pending();				/* [1] */
		raw_local_irq_enable();
		BUG_ON(in_interrupt());
		run_actions(pending);					/* [2] */
		local_bh_enable();
		cond_resched();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

void __init softirq_init(void)
{
	struct sched_param param = { .sched_priority = SOFTIRQ_THREAD_PRIO };
	struct task_struct *p;
	int cpu;

	tasklet_init_softirqs();
	if (!SOFTIRQ_THREADED)
		goto out;
	/* each CPU's copy of bh_lock is a memcpy of the template: its wait
	 * list must point at itself (as kernel/percpu_locked.h explains) */
	for_each_online_cpu(cpu)
		rt_mutex_init(&per_cpu(bh_lock, cpu));
	WRITE_ONCE(bh_locks_ready, true);
	for_each_online_cpu(cpu) {
		p = kthread_create(ksoftirqd, NULL, "ksoftirqd/%d", cpu);
		if (!p)
			panic("softirq: no memory for ksoftirqd/%d", cpu);
		kthread_bind(p, cpu);
		/* softirqs run at irq exit under the other models, beyond
		 * any RT throttle: kernel/sched/rt_bandwidth.c */
		p->flags |= PF_UNTHROTTLED;
		WARN_ON(sched_setscheduler(p, SCHED_FIFO, &param));
		per_cpu(ksoftirqd_tasks, cpu) = p;
		wake_up_process(p);
	}
out:
	/* sched.ap_startup_race: the wake-ups above were the racing side
	 * of kernel/sched/idle.c's ap_startup_window (none without
	 * ksoftirqd): let the AP go on */
	race_window_release(&ap_startup_window);
}
