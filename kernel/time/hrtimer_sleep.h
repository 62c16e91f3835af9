/*
 * kernel/time/hrtimer_sleep.h - sleep until an absolute ktime deadline
 * (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) in the kernel).
 *
 * An absolute deadline is what cyclictest needs: a relative sleep
 * computed from "now" would move the deadline by however long the task
 * was delayed before arming it, hiding exactly the latency it measures
 * (rt-tests' -r mode).  Linux counterpart: kernel/time/hrtimer.c
 * schedule_hrtimeout_range() with HRTIMER_MODE_ABS, hrtimer_nanosleep().
 */
#ifndef KERNEL_TIME_HRTIMER_SLEEP_H
#define KERNEL_TIME_HRTIMER_SLEEP_H

#include "kernel/time/ktime.h"

/*
 * schedule_hrtimeout_abs - sleep uninterruptibly until ktime_get() >=
 * expires; returns at once if that is already so.  Returns 0.
 * Context: task, sleeps.  Locking: none held by the caller.
 */
int schedule_hrtimeout_abs(ktime_t expires);

/* schedule_hrtimeout_abs_state - the same, sleeping in state; with
 * TASK_INTERRUPTIBLE a kernel_signal() ends the sleep early with -EINTR
 * (a killed user task in nanosleep).  Context: task, sleeps. */
int schedule_hrtimeout_abs_state(ktime_t expires, unsigned int state);

#endif /* KERNEL_TIME_HRTIMER_SLEEP_H */
