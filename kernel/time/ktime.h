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
