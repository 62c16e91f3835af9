/*
 * user/lib/clock.h - time in nanoseconds for user programs: read a
 * clock, sleep to an absolute deadline (the realtime loop's call, as
 * rt-tests' cyclictest makes it), sleep for a while.
 */
#ifndef USER_LIB_CLOCK_H
#define USER_LIB_CLOCK_H

#include "user/lib/sys.h"
#include "lib/errno.h"

static inline s64 timespec_to_ns(const struct timespec *ts)
{
	return ts->tv_sec * NSEC_PER_SEC + ts->tv_nsec;
}

static inline struct timespec ns_to_timespec(s64 ns)
{
	struct timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	return ts;
}

/* clock_now_ns - clk's time in ns (CLOCK_MONOTONIC: since boot) */
static inline s64 clock_now_ns(int clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return timespec_to_ns(&ts);
}

/* clock_sleep_until_ns - sleep until clk reads deadline; an interrupted
 * sleep is restarted (the deadline is absolute, so nothing drifts).
 * Returns 0 or the call's negative errno. */
static inline int clock_sleep_until_ns(int clk, s64 deadline)
{
	struct timespec ts = ns_to_timespec(deadline);
	int ret;

	do
		ret = clock_nanosleep(clk, TIMER_ABSTIME, &ts, NULL);
	while (ret == -EINTR);
	return ret;
}

/* sleep_ns - sleep at least ns on CLOCK_MONOTONIC */
static inline int sleep_ns(s64 ns)
{
	return clock_sleep_until_ns(CLOCK_MONOTONIC,
				    clock_now_ns(CLOCK_MONOTONIC) + ns);
}

#endif /* USER_LIB_CLOCK_H */
