/*
 * lib/time64.c - calendar dates as seconds since the Unix epoch (see
 * time64.h).  The day count uses the proleptic Gregorian calendar with
 * the year starting on 1 March, so that the leap day is the last day of
 * the year and each month's first day is a linear function of its
 * number: March..February have 31 30 31 30 31 31 30 31 30 31 31 28(29)
 * days, and (153 * m + 2) / 5 is the day of the year month m (0 = March)
 * begins on.  A 400-year era has 146097 days; 1970-03-01 is day 719468
 * of the calendar that begins at 0000-03-01.
 */
#include "lib/time64.h"
#include "lib/errno.h"

static bool is_leap(int year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

static int month_days(int year, int mon)
{
	static const u8 days[12] = { 31, 28, 31, 30, 31, 30,
				     31, 31, 30, 31, 30, 31 };

	return days[mon - 1] + (mon == 2 && is_leap(year));
}

int rtc_valid_tm(const struct rtc_time *tm)
{
	if (tm->year < 1970 || tm->mon < 1 || tm->mon > 12 || tm->mday < 1 ||
	    tm->mday > month_days(tm->year, tm->mon))
		return -EINVAL;
	if (tm->hour < 0 || tm->hour > 23 || tm->min < 0 || tm->min > 59 ||
	    tm->sec < 0 || tm->sec > 59)
		return -EINVAL;
	return 0;
}

s64 mktime64(const struct rtc_time *tm)
{
	/* [1] the year that begins on 1 March: January and February count
	 * with the year before */
	s64 y = tm->year - (tm->mon <= 2);
	s64 era = y / 400, yoe = y - era * 400;
	/* [2] the day within that year, March = month 0 */
	s64 mp = (tm->mon + 9) % 12;
	s64 doy = (153 * mp + 2) / 5 + tm->mday - 1;
	/* [3] the day within the era: 365 a year, a leap day every fourth
	 * year but every hundredth */
	s64 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	s64 days = era * 146097 + doe - 719468;

	return days * 86400 + tm->hour * 3600 + tm->min * 60 + tm->sec;
}
