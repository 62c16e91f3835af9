/*
 * kernel/sched/wait.c - wait queues and timed sleeps (see
 * kernel/sched/wait.h).
 *
 * Lost-wakeup freedom: the waiter queues itself and sets its state under
 * wq->lock before testing the condition; the waker sets the condition,
 * then takes wq->lock to find waiters.  A waker that ran before the
 * queueing is seen by the condition test; one that ran after finds the
 * entry and wakes the task (wake_up_process works on a task that has set
 * its state but not yet called schedule(): see core.c's diagram).
 *
 * Yield hint after a wake-up (__wake_up [3]): a PAUSE once the queue
 * lock is dropped.  On SMT hardware it lends the pipeline to the
 * sibling; under QEMU TCG with -icount (one host thread runs every vCPU
 * in turn) it is what hands the host thread to the other vCPUs: QEMU 7.2
 * lets the running vCPU go on until the next virtual-timer deadline of
 * any CPU, a PAUSE, a HLT or a kick, and does not share that slice out
 * (newer QEMU splits the budget per vCPU).  A vCPU running a
 * message-passing load (`load hackbench`: wake-ups and switches, no
 * spinning, no idle) kept the host thread for up to a tick (~975 us),
 * while the other vCPU sat frozen with an expired timer in the middle of
 * waking its SCHED_FIFO 99 cyclictest thread: 1.2 ms "irqs-off" over the
 * ten instructions of irqentry_exit_cond_resched's loop (then named
 * irqentry_exit_cond_resched), 1.8 ms in __prepare_to_wait, 4 ms "preempt-off"
 * irqentry_exit_cond_resched -> schedule, under every preemption model
 * alike (SMP=1 had no such section: rt max 65 us).  Waking is the
 * natural point: it has just made work for other CPUs, and it is where
 * a message-passing load goes around its loop.  Cost: at most one PAUSE
 * per 50 us per CPU (wake_yield_hint), outside every lock.
 * Linux counterpart: kernel/sched/wait.c, schedule_hrtimeout_range().
 */
#include "kernel/sched/wait.h"
#include "kernel/time/hrtimer.h"
#include "kernel/percpu.h"
#include "arch/x86_64/arch.h"
#include "lib/bug.h"

void init_waitqueue_head(wait_queue_head_t *wq)
{
	raw_spin_lock_init(&wq->lock);
	wq->lock.name = "wq->lock";
	INIT_LIST_HEAD(&wq->head);
}

static void __prepare_to_wait(wait_queue_head_t *wq,
			      struct wait_queue_entry *e, long state,
			      bool exclusive)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&wq->lock, flags);
	if (!e->entry.next || list_empty(&e->entry)) {
		e->task = current;
		e->exclusive = exclusive;
		if (exclusive)
			list_add_tail(&e->entry, &wq->head);
		else
			list_add(&e->entry, &wq->head);
	}
	set_current_state(state);
	raw_spin_unlock_irqrestore(&wq->lock, flags);
}

void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *e,
		     long state)
{
	__prepare_to_wait(wq, e, state, false);
}

void prepare_to_wait_exclusive(wait_queue_head_t *wq,
			       struct wait_queue_entry *e, long state)
{
	__prepare_to_wait(wq, e, state, true);
}

void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	if (!e->entry.next)
		return;
	raw_spin_lock_irqsave(&wq->lock, flags);
	if (!list_empty(&e->entry))
		list_del_init(&e->entry);
	raw_spin_unlock_irqrestore(&wq->lock, flags);
}

void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&wq->lock, flags);
	e->exclusive = false;
	list_add(&e->entry, &wq->head);
	raw_spin_unlock_irqrestore(&wq->lock, flags);
}

void remove_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *e)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&wq->lock, flags);
	list_del_init(&e->entry);
	raw_spin_unlock_irqrestore(&wq->lock, flags);
}

/*
 * wake_yield_hint - the PAUSE of the file header, at most once per
 * WAKE_YIELD_NS on each CPU: that bounds how long a busy vCPU keeps a
 * round-robin host thread, and more often only costs: under plain
 * (multi-threaded) TCG every PAUSE leaves the translated code for QEMU's
 * vCPU loop and its global lock (a PAUSE per wake-up doubled cyclictest's
 * average there).  Racy on purpose (a preempted caller may stamp another
 * CPU's slot): it is a hint.  Context: any.
 */
#define WAKE_YIELD_NS (50 * NSEC_PER_USEC)
static DEFINE_PER_CPU(ktime_t, wake_yield_at);

static void wake_yield_hint(void)
{
	ktime_t now = ktime_get();

	if (now - this_cpu_read(wake_yield_at) < WAKE_YIELD_NS)
		return;
	this_cpu_write(wake_yield_at, now);
	arch_cpu_relax();
}

/*
 * __wake_up_locked - wake every non-exclusive waiter and up to the nr-th
 * exclusive one (the queues are short: one entry per task sleeping on
 * this condition; each wake_up_process is O(1) plus its run-queue lock).
 * For a waker whose object may be gone once its lock is dropped (an
 * on-stack semaphore or completion): the wake-up must be its last touch
 * but one, the unlock (Linux: __wake_up_locked, swake_up_locked).
 * Context: any.  Locking: wq->lock held, irqs off.
 */
void __wake_up_locked(wait_queue_head_t *wq, int nr)
{
	struct wait_queue_entry *e;

	raw_spin_assert_held(&wq->lock);
	list_for_each_entry(e, &wq->head, entry) {
		int woke = e->func ? e->func(e) : wake_up_process(e->task);

		if (woke && e->exclusive && nr && --nr == 0)
			break;
	}
}

/*
 * __wake_up - [1] under wq->lock (irqs off), [2] __wake_up_locked, [3]
 * drop the lock and give the yield hint (see the file header).
 * Context: any.  Locking: takes wq->lock, then p->pi_lock and rq locks.
 */
void __wake_up(wait_queue_head_t *wq, int nr)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&wq->lock, flags);		/* [1] */
	__wake_up_locked(wq, nr);				/* [2] */
	raw_spin_unlock_irqrestore(&wq->lock, flags);		/* [3] */
	wake_yield_hint();
}

struct sleep_timer {
	struct hrtimer timer;
	struct task_struct *task;
};

/* Runs in the tick's hard-irq context: mark and wake the sleeper. */
static enum hrtimer_restart sleep_timer_fn(struct hrtimer *timer)
{
	struct sleep_timer *t = container_of(timer, struct sleep_timer, timer);

	WRITE_ONCE(t->task->timed_out, true);
	wake_up_process(t->task);
	return HRTIMER_NORESTART;
}

/*
 * schedule_timeout - [1] arm a one-shot hrtimer at now + ns that wakes
 * current, [2] schedule() in the state the caller set, [3] cancel the
 * timer (waits if it is firing on another CPU, so the on-stack timer
 * is never used after return) and return the time left.
 * Context: task, sleeps.
 */
s64 schedule_timeout(s64 ns)
{
	struct sleep_timer t;
	ktime_t expires, now;

	might_sleep();
	if (ns < 0 || ns >= KTIME_MAX / 2) {
		schedule();
		return ns;
	}
	expires = ktime_get() + ns;
	t.task = current;
	current->timed_out = false;
	hrtimer_init(&t.timer, sleep_timer_fn);
	hrtimer_start(&t.timer, expires);			/* [1] */
	schedule();						/* [2] */
	hrtimer_cancel(&t.timer);				/* [3] */
	now = ktime_get();
	return now >= expires ? 0 : expires - now;
}

s64 schedule_timeout_uninterruptible(s64 ns)
{
	set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(ns);
}

void msleep(unsigned int ms)
{
	s64 left = (s64)ms * NSEC_PER_MSEC;

	while (left > 0)
		left = schedule_timeout_uninterruptible(left);
}
