/*
 * tests/kernel/rtmutex_helpers.h - what the rt_mutex race tests share:
 * waiting until a task sleeps blocked on a lock.
 */
#ifndef TESTS_KERNEL_RTMUTEX_HELPERS_H
#define TESTS_KERNEL_RTMUTEX_HELPERS_H

#include "kernel/locking/rtmutex_internal.h"
#include "tests/kernel/sched_helpers.h"

/* wait_sleeping_on - until p sleeps blocked on lock (its walk is over
 * then: the walk runs before schedule()); false after SAFETY_NS.
 * Context: task; schedules while it waits, so a task of better prio on
 * this CPU runs meanwhile. */
static inline bool wait_sleeping_on(struct task_struct *p,
				    struct rt_mutex *lock)
{
	ktime_t end = ktime_get() + SAFETY_NS;

	while (ktime_get() < end) {
		struct rt_mutex_waiter *w = READ_ONCE(p->pi_blocked_on);

		if (w && w->lock == lock &&
		    READ_ONCE(p->state) != TASK_RUNNING &&
		    !READ_ONCE(p->on_cpu) && !READ_ONCE(p->on_rq))
			return true;
		schedule();
	}
	return false;
}

#endif /* TESTS_KERNEL_RTMUTEX_HELPERS_H */
