/*
 * kernel/time/realtime.h - CLOCK_REALTIME: the wall clock, seconds since
 * the Unix epoch, as the monotonic clock (ktime_get) plus an offset that
 * is set once at boot from the CMOS clock (drivers/rtc_cmos.c
 * rtc_clock_init) and never changes after: rtk has no clock_settime,
 * settimeofday or NTP adjustment, so a CLOCK_REALTIME deadline is a
 * fixed distance from its CLOCK_MONOTONIC one.
 * Linux counterpart: ktime_get_real and the timekeeper's offs_real
 * (kernel/time/timekeeping.c), which clock_settime and NTP move.
 */
#ifndef KERNEL_TIME_REALTIME_H
#define KERNEL_TIME_REALTIME_H

#include "kernel/time/ktime.h"

/* realtime_init - the wall clock reads epoch_secs now.  Context: boot,
 * before user programs run (the offset is read without a lock). */
void realtime_init(s64 epoch_secs);

/* ktime_get_real - nanoseconds since the epoch.  Context: any. */
ktime_t ktime_get_real(void);

/* ktime_real_to_mono - the ktime_get() time at which the wall clock
 * reads real (saturated at KTIME_MAX, and at 0 for a time before boot).
 * Context: any. */
ktime_t ktime_real_to_mono(ktime_t real);

#endif /* KERNEL_TIME_REALTIME_H */
