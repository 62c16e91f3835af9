/*
 * kernel/sched/completion.c - completions (see kernel/sched/completion.h).
 * Waiters queue exclusively, so complete() wakes exactly one; the done
 * count is consumed under the queue lock by the waiter that returns.
 * Linux counterpart: kernel/sched/completion.c.
 */
#include "kernel/sched/completion.h"
#include "kernel/time/hrtimer.h"
#include "kernel/debug/race_window.h"

DEFINE_RACE_WINDOW(complete_wake_window);
DEFINE_RACE_WINDOW(completion_timeout_window);

void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}

void complete(struct completion *x)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&x->wait.lock, flags);
	if (x->done != COMPLETION_DONE_ALL)
		x->done++;
	raw_spin_unlock_irqrestore(&x->wait.lock, flags);
	race_window(&complete_wake_window);
	__wake_up(&x->wait, 1);
}

void complete_all(struct completion *x)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&x->wait.lock, flags);
	x->done = COMPLETION_DONE_ALL;
	raw_spin_unlock_irqrestore(&x->wait.lock, flags);
	race_window(&complete_wake_window);
	__wake_up(&x->wait, 0);
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

s64 wait_for_completion_timeout(struct completion *x, s64 timeout_ns)
{
	struct wait_queue_entry e = { .task = NULL };
	s64 left = timeout_ns;

	might_sleep();
	for (;;) {
		prepare_to_wait_exclusive(&x->wait, &e, TASK_UNINTERRUPTIBLE);
		if (try_wait_for_completion(x)) {
			left = left > 0 ? left : 1;
			break;
		}
		if (left <= 0) {
			race_window(&completion_timeout_window);
			left = 0;
			break;
		}
		left = schedule_timeout(left);
	}
	finish_wait(&x->wait, &e);
	return left;
}

void wait_for_completion(struct completion *x)
{
	wait_for_completion_timeout(x, KTIME_MAX);
}
