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
 * Linux counterpart: kernel/sched/wait.c, schedule_hrtimeout_range().
 */
#include "kernel/sched/wait.h"
#include "kernel/time/hrtimer.h"
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

void __wake_up(wait_queue_head_t *wq, int nr)
{
	struct wait_queue_entry *e;
	unsigned long flags;

	raw_spin_lock_irqsave(&wq->lock, flags);
	list_for_each_entry(e, &wq->head, entry) {
		if (wake_up_process(e->task) && e->exclusive && nr &&
		    --nr == 0)
			break;
	}
	raw_spin_unlock_irqrestore(&wq->lock, flags);
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
