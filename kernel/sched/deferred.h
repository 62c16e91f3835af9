/*
 * kernel/sched/deferred.h - deferred operations (article, "Deferred
 * operations"): work that must not run where it is asked for -- a
 * release that takes sleeping locks, asked for with preemption or
 * interrupts off; a reschedule that would only make the woken task block
 * on the waker's lock -- is put off until it may be done safely.
 *
 *   put_task_struct_delayed()   the final put runs in the desched thread
 *   put_task_struct_atomic()    the dead task's last put in the switch:
 *                               delayed under rt only
 *   mmdrop_delayed()            (kernel/mm/mm_struct.h) the same for mm_struct
 *   wake_up_process_sync()      (kernel/sched/sched.h) a wakeup that would
 *                               preempt the waker sets
 *                               TIF_NEED_RESCHED_DELAYED instead of
 *                               TIF_NEED_RESCHED; the flag turns into a
 *                               real reschedule at the waker's next
 *                               spin_unlock*(), preempt_check_resched_delayed()
 *                               or schedule(), or at the next tick
 *                               (scheduler_tick's "more important task
 *                               queued here" check bounds the delay).
 *
 * Linux counterpart: PREEMPT_RT patch 2.6.1x kernel/sched.c (desched_thread,
 * put_task_struct_delayed, mmdrop_delayed, TIF_NEED_RESCHED_DELAYED,
 * preempt_check_resched_delayed).  Mainline dropped all of these: the
 * final put_task_struct() goes through RCU (delayed_put_task_struct), and
 * the "do not preempt the waker just yet" idea came back as lazy
 * preemption (PREEMPT_LAZY, TIF_NEED_RESCHED_LAZY, v6.13), which defers
 * preemption of SCHED_OTHER tasks to the next tick or return to user.
 * rtk has no user space, so "return to user" has no counterpart here.
 */
#ifndef KERNEL_SCHED_DEFERRED_H
#define KERNEL_SCHED_DEFERRED_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "kernel/percpu.h"

struct task_struct;

/*
 * TIF_NEED_RESCHED_DELAYED, kept per CPU like TIF_NEED_RESCHED
 * (kernel/sched/preempt.h): the task it was set for, and that task's
 * nr_switches at the time.  If the task has been switched out since
 * (nr_switches moved) it was rescheduled anyway and the flag is stale.
 */
DECLARE_PER_CPU(struct task_struct *, sched_resched_delayed);

/* set_need_resched_delayed - a sync wakeup on this CPU would preempt
 * current: remember it instead of rescheduling.  Context: irqs off
 * (check_preempt() in kernel/sched/core.c, under this CPU's rq->lock). */
void set_need_resched_delayed(void);

/* need_resched_delayed - is a delayed reschedule pending for current? */
bool need_resched_delayed(void);

/* __preempt_check_resched_delayed - turn a pending delayed reschedule
 * into TIF_NEED_RESCHED and take the preemption point.  Context: task,
 * any; only preempts when preemptible (count 0, irqs on). */
void __preempt_check_resched_delayed(void);

/* preempt_check_resched_delayed - the article's name; called by every
 * spin_unlock*() (kernel/locking/spinlock.h) and by anyone who ends a
 * section in which a woken task could not have made progress. */
static __always_inline void preempt_check_resched_delayed(void)
{
	if (unlikely(this_cpu_read(sched_resched_delayed) != NULL))
		__preempt_check_resched_delayed();
}

/* put_task_struct_delayed - drop a reference to p; if it was the last,
 * hand the release to the desched thread instead of freeing here.
 * Context: any (preemption or irqs off too) except under a run-queue
 * lock or the desched thread's pi_lock (it wakes that thread). */
void put_task_struct_delayed(struct task_struct *p);

/*
 * put_task_struct_atomic - drop a reference where preemption is off but
 * no run-queue lock is held: the scheduler's reference to a dead task in
 * finish_task_switch().  The last put frees the stack and the struct
 * (kfree: the slab's per-CPU caches sit under a spinlock_t, a sleeping
 * lock under rt).  rt: put_task_struct_delayed(); the other models:
 * put_task_struct() at once (spinlock_t spins there).
 * Context: task, preemption may be off, irqs on; no rq->lock.
 */
void put_task_struct_atomic(struct task_struct *p);

struct mm_struct;
/* deferred_queue_mm - kernel/mm/mm_struct.c's mmdrop_delayed() queues an
 * mm whose last reference is gone.  Context: as put_task_struct_delayed. */
void deferred_queue_mm(struct mm_struct *mm);

/* deferred_flush - wait until everything queued before the call has been
 * released.  Context: task, sleeps. */
void deferred_flush(void);

/* What the desched thread has done, for tests and the shell. */
struct deferred_stats {
	unsigned long tasks_queued, tasks_released;
	unsigned long mms_queued, mms_released;
	unsigned long released_atomic;	/* releases run non-preemptible: 0 */
	struct task_struct *last_release_task;	/* who ran the last one */
};
void deferred_get_stats(struct deferred_stats *s);

/* deferred_init - start the desched thread.  Context: boot, after
 * sched_init() and smp_init(). */
void deferred_init(void);

#endif /* KERNEL_SCHED_DEFERRED_H */
