/*
 * kernel/sched/deferred.c - the desched thread and
 * TIF_NEED_RESCHED_DELAYED (see kernel/sched/deferred.h for the
 * concept and the Linux counterpart).
 *
 * Deferred releases:
 *   [1] the caller drops the last reference where it may not take a
 *       sleeping lock (preemption or irqs off, a raw lock held);
 *   [2] the object goes on the pending list under deferred_lock (raw,
 *       irqs off: the only lock that is legal there);
 *   [3] the desched thread is woken; it takes the whole list and
 *       releases each object in task context, preemptible, where
 *       __put_task_struct() and __mmdrop() may take spinlock_t (a
 *       sleeping lock under PREEMPT_RT);
 *   [4] it bumps the release counters and wakes deferred_flush() waiters.
 * A task whose last reference is gone is on no run queue and nobody may
 * look at it any more, so its run_list is free to link it into the
 * pending list.  The thread is SCHED_FIFO 1: it must not be starved by
 * SCHED_OTHER load (memory would pile up), yet every real RT task beats
 * it.  Objects queued before deferred_init() wait for the thread.
 */
#include "kernel/sched/deferred.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/wait.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/irqflags.h"
#include "kernel/locking/spinlock.h"	/* SPINLOCK_SLEEPS */
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "lib/list.h"
#include "lib/bug.h"

DEFINE_PER_CPU(struct task_struct *, sched_resched_delayed);
static DEFINE_PER_CPU(unsigned long, sched_resched_delayed_switches);

void set_need_resched_delayed(void)
{
	struct task_struct *curr = current;

	BUG_ON(!raw_irqs_disabled());
	this_cpu_write(sched_resched_delayed, curr);
	this_cpu_write(sched_resched_delayed_switches, curr->nr_switches);
}

/* Context: irqs off.  Is the flag set, for current, and still fresh? */
static bool __need_resched_delayed(void)
{
	struct task_struct *owner = this_cpu_read(sched_resched_delayed);

	return owner && owner == current &&
	       owner->nr_switches ==
		       this_cpu_read(sched_resched_delayed_switches);
}

bool need_resched_delayed(void)
{
	unsigned long flags;
	bool ret;

	raw_local_irq_save(flags);
	ret = __need_resched_delayed();
	raw_local_irq_restore(flags);
	return ret;
}

void __preempt_check_resched_delayed(void)
{
	unsigned long flags;
	bool promote;

	raw_local_irq_save(flags);
	/* LAB(sync-wakeup:promote) BEGIN */
	promote = __need_resched_delayed();
	this_cpu_write(sched_resched_delayed, NULL);
	/* current is this CPU's running task and irqs are off: nobody else
	 * writes this CPU's TIF_NEED_RESCHED word now except resched_curr()
	 * from another CPU, which also only sets it */
	if (promote)
		this_cpu_write(sched_need_resched, 1);
	/* LAB(sync-wakeup:promote) END */
	raw_local_irq_restore(flags);
	if (promote)
		preempt_check_resched();
}

/* deferred_lock protects the lists and the counters */
static DEFINE_RAW_SPINLOCK(deferred_lock);
static LIST_HEAD(pending_tasks);		/* via task->run_list */
static LIST_HEAD(pending_mms);			/* via mm->delayed_list */
static struct deferred_stats stats;
static struct task_struct *desched_task;	/* set once, at init */
static DECLARE_WAIT_QUEUE_HEAD(flush_wq);

static void wake_desched(void)
{
	struct task_struct *p = READ_ONCE(desched_task);

	if (p)
		wake_up_process(p);
}

void put_task_struct_delayed(struct task_struct *p)
{
	unsigned long flags;

	if (__atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;					/* [1] */
	raw_spin_lock_irqsave(&deferred_lock, flags);	/* [2] */
	list_add_tail(&p->run_list, &pending_tasks);
	stats.tasks_queued++;
	raw_spin_unlock_irqrestore(&deferred_lock, flags);
	wake_desched();					/* [3] */
}

/* put_task_struct_atomic - see deferred.h.  The model decides through
 * one fact, SPINLOCK_SLEEPS (kernel/locking/spinlock.h): the last put
 * ends in kfree(), under a spinlock_t, which preemption-off code may take
 * only where spinlock_t spins. */
void put_task_struct_atomic(struct task_struct *p)
{
	BUG_ON(raw_irqs_disabled());	/* kstack_free needs irqs on */
	if (SPINLOCK_SLEEPS)
		put_task_struct_delayed(p);
	else
		put_task_struct(p);
}

void deferred_queue_mm(struct mm_struct *mm)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&deferred_lock, flags);	/* [2] */
	list_add_tail(&mm->delayed_list, &pending_mms);
	stats.mms_queued++;
	raw_spin_unlock_irqrestore(&deferred_lock, flags);
	wake_desched();					/* [3] */
}

/* Context: the desched thread.  Note how it ran ([4]). */
static void account_release(unsigned long *counter)
{
	bool atomic_ctx = !preemptible();
	unsigned long flags;

	raw_spin_lock_irqsave(&deferred_lock, flags);
	(*counter)++;
	if (atomic_ctx)
		stats.released_atomic++;
	stats.last_release_task = current;
	raw_spin_unlock_irqrestore(&deferred_lock, flags);
}

/* desched_drain - [3] and [4]: release everything pending.  Returns
 * whether there was anything.  Context: desched thread, preemptible. */
static bool desched_drain(void)
{
	LIST_HEAD(tasks);
	LIST_HEAD(mms);
	struct task_struct *p, *pn;
	struct mm_struct *mm, *mn;
	unsigned long flags;

	raw_spin_lock_irqsave(&deferred_lock, flags);
	list_splice_init(&pending_tasks, &tasks);
	list_splice_init(&pending_mms, &mms);
	raw_spin_unlock_irqrestore(&deferred_lock, flags);
	if (list_empty(&tasks) && list_empty(&mms))
		return false;
	/* Count each release after it is done: deferred_flush() on another
	 * CPU may see the counter at any moment and return, and its caller
	 * then expects the object gone (mm_count_live() in the test). */
	list_for_each_entry_safe(p, pn, &tasks, run_list) {
		list_del(&p->run_list);
		__put_task_struct(p);
		account_release(&stats.tasks_released);
	}
	list_for_each_entry_safe(mm, mn, &mms, delayed_list) {
		list_del(&mm->delayed_list);
		__mmdrop(mm);
		account_release(&stats.mms_released);
	}
	wake_up_all(&flush_wq);				/* [4] */
	return true;
}

static bool desched_idle(void)
{
	unsigned long flags;
	bool idle;

	raw_spin_lock_irqsave(&deferred_lock, flags);
	idle = list_empty(&pending_tasks) && list_empty(&pending_mms);
	raw_spin_unlock_irqrestore(&deferred_lock, flags);
	return idle;
}

static int desched_thread(void *unused)
{
	(void)unused;
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (desched_idle()) {
			if (kthread_should_stop())
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		desched_drain();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

void deferred_get_stats(struct deferred_stats *s)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&deferred_lock, flags);
	*s = stats;
	raw_spin_unlock_irqrestore(&deferred_lock, flags);
}

/* deferred_flush - waits for the release counters to reach what was
 * queued at the call; later queueings do not hold it up. */
void deferred_flush(void)
{
	struct deferred_stats want, now;

	might_sleep();
	deferred_get_stats(&want);
	wake_desched();
	wait_event(flush_wq, (deferred_get_stats(&now),
			      now.tasks_released >= want.tasks_queued &&
			      now.mms_released >= want.mms_queued));
}

void __init deferred_init(void)
{
	struct sched_param sp = { .sched_priority = 1 };
	struct task_struct *p;

	p = kthread_create(desched_thread, NULL, "desched");
	if (!p)
		panic("deferred_init: cannot create desched");
	sched_setscheduler(p, SCHED_FIFO, &sp);
	WRITE_ONCE(desched_task, p);
	wake_up_process(p);
}
