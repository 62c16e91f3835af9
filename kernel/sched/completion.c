/*
 * kernel/sched/completion.c - completions (see kernel/sched/completion.h).
 *
 * Everything happens under x->wait.lock, as in Linux (swait): the done
 * count, the queue, and the wake-up itself.  Two races follow from that.
 *
 * An on-stack completion: its waiter may return, and its frame be
 * reused, as soon as it sees done.  A waker that dropped the lock before
 * waking touched the dead frame:
 *
 *	CPU0 (complete)			CPU1 (waiter, completion on stack)
 *	lock; done++; unlock
 *					try: done: consumed, returns
 *					the frame is reused
 *	__wake_up(&x->wait): takes and
 *	releases a lock in the dead frame
 *
 * So the wake-up is done under the lock (complete_wake_locked), and the
 * unlock is the waker's last touch of x; complete_wake_window marks the
 * point after it (tests/kernel/test_completion_races.c, test_on_stack_*).
 *
 * A waiter whose timeout expired must not take complete()'s only
 * wake-up while returning without the completion:
 *
 *	CPU0 (complete)			CPU1 (A, timeout expired)
 *					queued, state set again, try fails
 *	done++; wake the first
 *	exclusive waiter: A (B, queued
 *	behind A, is not woken)
 *					timed out: leave the queue, return 0
 *	done == 1, B asleep
 *
 * So a woken waiter is taken off the queue by its waker (as Linux's
 * swake_up_locked does), and a waiter looks at done under the lock
 * after every sleep, a timed-out one too: a waiter that was given the
 * wake-up sees done and consumes it; one that was not is still queued
 * and leaves before any complete() can choose it.  completion_timeout_
 * window marks the timed-out waiter before its last look
 * (test_complete_timed_out_waiter_does_not_eat_wakeup).
 * Linux counterpart: kernel/sched/completion.c, kernel/sched/swait.c.
 */
#include "kernel/sched/completion.h"
#include "kernel/time/hrtimer.h"
#include "kernel/debug/hooks.h"
#include "lib/bug.h"

DEFINE_RACE_WINDOW(complete_wake_window);
DEFINE_RACE_WINDOW(completion_timeout_window);

void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}

/*
 * complete_wake_locked - wake the first waiter (all of them if all),
 * taking each off the queue: a woken waiter is owed the completion and
 * must not be chosen again (Linux: swake_up_locked, swake_up_all_locked).
 * Context: any.  Locking: x->wait.lock held, irqs off.
 */
static void complete_wake_locked(struct completion *x, bool all)
{
	struct wait_queue_entry *e;

	raw_spin_assert_held(&x->wait.lock);
	while (!list_empty(&x->wait.head)) {
		e = list_first_entry(&x->wait.head, struct wait_queue_entry,
				     entry);
		list_del_init(&e->entry);
		wake_up_process(e->task);
		if (!all)
			break;
	}
}

void complete(struct completion *x)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done != COMPLETION_DONE_ALL)
		x->done++;
	complete_wake_locked(x, false);
	raw_spin_unlock_irqrestore(&x->wait.lock, flags);
	trace_race_window(&complete_wake_window);
}

void complete_all(struct completion *x)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&x->wait.lock, flags);
	x->done = COMPLETION_DONE_ALL;
	complete_wake_locked(x, true);
	raw_spin_unlock_irqrestore(&x->wait.lock, flags);
	trace_race_window(&complete_wake_window);
}

bool try_wait_for_completion(struct completion *x)
{
	unsigned long flags;
	bool ok = false;

	raw_spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done) {
		if (x->done != COMPLETION_DONE_ALL)
			x->done--;
		ok = true;
	}
	raw_spin_unlock_irqrestore(&x->wait.lock, flags);
	return ok;
}

bool completion_done(struct completion *x)
{
	return READ_ONCE(x->done) != 0;
}

/*
 * wait_for_completion_timeout - Linux's do_wait_for_common:
 *	[1] under the lock: done already, or no time: go to [4]
 *	[2] queue (again, if a waker took us off but another waiter
 *	    consumed done first), set the sleep state, unlock, sleep
 *	[3] lock; done or the time is up: leave the loop, else [2]
 *	[4] leave the queue; consume done if set (even when the time ran
 *	    out: we may have been given the wake-up), else report 0
 * Context: task, sleeps.  Locking: takes x->wait.lock.
 */
s64 wait_for_completion_timeout(struct completion *x, s64 timeout_ns)
{
	struct wait_queue_entry e = { .task = current, .exclusive = true };
	s64 left = timeout_ns;

	might_sleep();
	INIT_LIST_HEAD(&e.entry);
	raw_spin_lock_irq(&x->wait.lock);
	while (!x->done && left > 0) {				/* [1] */
		if (list_empty(&e.entry))			/* [2] */
			list_add_tail(&e.entry, &x->wait.head);
		__set_current_state(TASK_UNINTERRUPTIBLE);
		raw_spin_unlock_irq(&x->wait.lock);
		left = schedule_timeout(left);
		if (left <= 0)
			trace_race_window(&completion_timeout_window);
		raw_spin_lock_irq(&x->wait.lock);		/* [3] */
	}
	list_del_init(&e.entry);				/* [4] */
	if (!x->done) {
		raw_spin_unlock_irq(&x->wait.lock);
		return 0;
	}
	if (x->done != COMPLETION_DONE_ALL)
		x->done--;
	raw_spin_unlock_irq(&x->wait.lock);
	return left > 0 ? left : 1;
}

void wait_for_completion(struct completion *x)
{
	wait_for_completion_timeout(x, KTIME_MAX);
}
