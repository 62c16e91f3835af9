/*
 * tests/host/test_time64.c - lib/time64.c against dates whose epoch
 * seconds are known (Python's calendar.timegm gave them): the epoch, a
 * leap day, the first day after a century's February, a far year; and
 * rtc_valid_tm refusing what a clock chip with a flat battery gives.
 */
#include "tests/host/check.h"
#include "lib/time64.h"
#include "lib/errno.h"

static s64 at(int y, int mo, int d, int h, int mi, int s)
{
	struct rtc_time tm = { y, mo, d, h, mi, s };

	CHECK_EQ(rtc_valid_tm(&tm), 0);
	return mktime64(&tm);
}

static void test_known_dates(void)
{
	CHECK_EQ(at(1970, 1, 1, 0, 0, 0), 0);
	CHECK_EQ(at(2000, 1, 1, 0, 0, 0), 946684800LL);
	CHECK_EQ(at(2000, 3, 1, 0, 0, 0), 951868800LL);
	CHECK_EQ(at(2024, 2, 29, 12, 34, 56), 1709210096LL);
	CHECK_EQ(at(2026, 12, 7, 9, 0, 0), 1796634000LL);
	CHECK_EQ(at(2099, 12, 31, 23, 59, 59), 4102444799LL);
}

static void test_invalid_dates_are_refused(void)
{
	static const struct rtc_time bad[] = {
		{ 1969, 12, 31, 0, 0, 0 }, { 2023, 2, 29, 0, 0, 0 },
		{ 2100, 2, 29, 0, 0, 0 },  { 2024, 13, 1, 0, 0, 0 },
		{ 2024, 0, 1, 0, 0, 0 },   { 2024, 4, 31, 0, 0, 0 },
		{ 2024, 1, 1, 24, 0, 0 },  { 2024, 1, 1, 0, 60, 0 },
		{ 2024, 1, 1, 0, 0, 60 },  { 2024, 1, 0, 0, 0, 0 },
	};

	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ(rtc_valid_tm(&bad[i]), -EINVAL);
}

int main(void)
{
	return check_run("time64", (struct check_case[]){
		CHECK_CASE(test_known_dates),
		CHECK_CASE(test_invalid_dates_are_refused),
		{ 0 } });
}
