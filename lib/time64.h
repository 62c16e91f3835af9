/*
 * lib/time64.h - a calendar date and time (UTC) as seconds since the
 * Unix epoch, 1970-01-01 00:00:00, and the checks a date read from a
 * clock chip must pass first.  Pure: host-tested (tests/host/test_time64.c).
 * Linux counterpart: mktime64 (kernel/time/time.c), rtc_valid_tm
 * (drivers/rtc/lib.c).
 */
#ifndef LIB_TIME64_H
#define LIB_TIME64_H

#include "lib/types.h"

/* struct rtc_time - a broken-down UTC time as a clock chip gives it:
 * the full year, mon 1..12, mday 1..31, hour 0..23, min and sec 0..59. */
struct rtc_time {
	int year, mon, mday, hour, min, sec;
};

/* rtc_valid_tm - 0 when tm is a real date from 1970 on (the day exists
 * in its month and year), -EINVAL otherwise.  Context: any. */
int rtc_valid_tm(const struct rtc_time *tm);

/* mktime64 - the seconds from the epoch to tm, which must be valid
 * (rtc_valid_tm).  Context: any. */
s64 mktime64(const struct rtc_time *tm);

#endif /* LIB_TIME64_H */
