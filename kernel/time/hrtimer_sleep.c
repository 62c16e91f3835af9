/*
 * kernel/time/hrtimer_sleep.c - schedule_hrtimeout_abs(): an on-stack
 * hrtimer at the absolute deadline wakes the sleeper from the timer
 * interrupt (hard irq, as Linux's HRTIMER_MODE_ABS_HARD sleepers on
 * PREEMPT_RT: a sleeping RT task must not wait for a softirq thread).
 * Depends on kernel/time/hrtimer.h and the scheduler's wake-ups.
 * Linux counterpart: kernel/time/hrtimer.c (hrtimer_sleeper,
 * schedule_hrtimeout_range_clock).
 */
#include "kernel/time/hrtimer_sleep.h"
#include "kernel/time/hrtimer.h"
#include "kernel/debug/hooks.h"
#include "kernel/sched/sched.h"
#include "lib/compiler.h"
#include "lib/errno.h"
#include "kernel/signal.h"

struct abs_sleeper {
	struct hrtimer timer;
	struct task_struct *task;	/* the sleeper */
	bool fired;			/* set by the timer, read by task */
};

/* Context: hard irq (the timer interrupt). */
static enum hrtimer_restart abs_sleeper_fn(struct hrtimer *timer)
{
	struct abs_sleeper *s = container_of(timer, struct abs_sleeper, timer);

	trace_hrtimer_sleeper_expire(s->task, timer->expires);
	WRITE_ONCE(s->fired, true);	/* before the wake-up: pairs with [3] */
	wake_up_process(s->task);
	return HRTIMER_NORESTART;
}

/*
 * schedule_hrtimeout_abs - [1] arm the timer after setting the sleeping
 * state, so a timer that fires at once only makes schedule() return;
 * [2] sleep; [3] a wake-up by anyone else (a stray wake_up_process)
 * goes back to sleep until the timer has fired; [4] cancel, which also
 * waits for a handler running on another CPU, so the on-stack timer is
 * dead on return.
 */
int schedule_hrtimeout_abs_state(ktime_t expires, unsigned int state)
{
	struct abs_sleeper s;
	int ret = 0;

	might_sleep();
	if (ktime_get() >= expires)
		return 0;
	s.task = current;
	s.fired = false;
	hrtimer_init(&s.timer, abs_sleeper_fn);
	set_current_state(state);
	hrtimer_start(&s.timer, expires);			/* [1] */
	for (;;) {
		if (READ_ONCE(s.fired))				/* [3] */
			break;
		if ((state & TASK_INTERRUPTIBLE) && signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		schedule();					/* [2] */
		set_current_state(state);
	}
	__set_current_state(TASK_RUNNING);
	trace_hrtimer_sleeper_running();
	hrtimer_cancel(&s.timer);				/* [4] */
	return ret;
}

int schedule_hrtimeout_abs(ktime_t expires)
{
	return schedule_hrtimeout_abs_state(expires, TASK_UNINTERRUPTIBLE);
}
