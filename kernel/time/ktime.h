/*
 * kernel/time/ktime.h - monotonic kernel time in nanoseconds.
 */
#ifndef KERNEL_TIME_KTIME_H
#define KERNEL_TIME_KTIME_H

#include "lib/types.h"

typedef s64 ktime_t;	/* nanoseconds since boot */

#define NSEC_PER_USEC 1000LL
#define NSEC_PER_MSEC 1000000LL
#define NSEC_PER_SEC 1000000000LL

/* KTIME_MAX - "never"; the value every conversion below saturates at.
 * KTIME_SEC_MAX - the largest whole second below it.
 * Linux counterpart: include/linux/ktime.h, include/linux/time64.h. */
#define KTIME_MAX ((ktime_t)0x7FFFFFFFFFFFFFFFLL)
#define KTIME_SEC_MAX (KTIME_MAX / NSEC_PER_SEC)

/*
 * ktime_set - secs seconds plus nsecs nanoseconds as a ktime, KTIME_MAX
 * when that does not fit (a timespec with tv_sec = LONG_MAX means "sleep
 * forever", not an overflowed, negative, already-passed deadline).
 * The caller has checked secs >= 0 and 0 <= nsecs < NSEC_PER_SEC.
 * Linux counterpart: ktime_set (include/linux/ktime.h), used by
 * timespec64_to_ktime.
 * Context: any.  Locking: none.
 */
static inline ktime_t ktime_set(s64 secs, s64 nsecs)
{
	if (secs >= KTIME_SEC_MAX)
		return KTIME_MAX;
	return secs * NSEC_PER_SEC + nsecs;
}

/*
 * ktime_add_safe - lhs + rhs for two non-negative ktimes, KTIME_MAX on
 * overflow (a relative timeout added to ktime_get()).
 * Linux counterpart: ktime_add_safe (kernel/time/hrtimer.c).
 * Context: any.  Locking: none.
 */
static inline ktime_t ktime_add_safe(ktime_t lhs, ktime_t rhs)
{
	if (rhs > 0 && lhs > KTIME_MAX - rhs)
		return KTIME_MAX;
	return lhs + rhs;
}

/* ktime_get - nanoseconds since boot, monotonic on and across CPUs.
 * Context: any.  0 until time_init() has calibrated the clock. */
ktime_t ktime_get(void);

static inline u64 ktime_get_ns(void)
{
	return (u64)ktime_get();
}

/* ktime_init - start ktime at hz clock cycles per second (boot CPU). */
void ktime_init(u64 hz);
u64 ktime_clock_hz(void);
/* ktime_cycles_to_ns - a cycle count (a difference) in nanoseconds. */
u64 ktime_cycles_to_ns(u64 cycles);

/* Busy-wait delays.  Context: any; they never sleep. */
void ndelay(unsigned long ns);
void udelay(unsigned long us);
void mdelay(unsigned long ms);

#endif /* KERNEL_TIME_KTIME_H */
