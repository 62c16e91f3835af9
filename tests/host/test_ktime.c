/*
 * tests/host/test_ktime.c - the saturating ktime helpers of
 * kernel/time/ktime.h that every user timespec goes through (futex,
 * nanosleep, clock_nanosleep; issue 28): ktime_set saturates at KTIME_MAX
 * from KTIME_SEC_MAX seconds on, ktime_add_safe at KTIME_MAX on overflow,
 * and both are exact below that.
 */
#include <limits.h>
#include "tests/host/check.h"
#include "kernel/time/ktime.h"

static void test_ktime_set_is_exact_below_the_limit(void)
{
	CHECK_EQ(ktime_set(0, 0), 0);
	CHECK_EQ(ktime_set(0, 999999999), 999999999);
	CHECK_EQ(ktime_set(1, 5), 1000000005LL);
	CHECK_EQ(ktime_set(KTIME_SEC_MAX - 1, 999999999),
		 (KTIME_SEC_MAX - 1) * NSEC_PER_SEC + 999999999);
}

static void test_ktime_set_saturates_at_ktime_max(void)
{
	/* KTIME_SEC_MAX s + 999999999 ns no longer fits: Linux's >= too */
	CHECK_EQ(ktime_set(KTIME_SEC_MAX, 0), KTIME_MAX);
	CHECK_EQ(ktime_set(KTIME_SEC_MAX, 999999999), KTIME_MAX);
	CHECK_EQ(ktime_set(KTIME_SEC_MAX + 1, 0), KTIME_MAX);
	CHECK_EQ(ktime_set(LLONG_MAX, 0), KTIME_MAX);
	CHECK_EQ(ktime_set(LLONG_MAX, 999999999), KTIME_MAX);
}

static void test_ktime_add_safe_saturates_on_overflow(void)
{
	CHECK_EQ(ktime_add_safe(5, 0), 5);
	CHECK_EQ(ktime_add_safe(0, 7), 7);
	CHECK_EQ(ktime_add_safe(1000, 2000), 3000);
	CHECK_EQ(ktime_add_safe(KTIME_MAX - 1, 1), KTIME_MAX);
	CHECK_EQ(ktime_add_safe(KTIME_MAX - 1, 2), KTIME_MAX);
	CHECK_EQ(ktime_add_safe(KTIME_MAX, 1), KTIME_MAX);
	CHECK_EQ(ktime_add_safe(1, KTIME_MAX), KTIME_MAX);
	CHECK_EQ(ktime_add_safe(KTIME_MAX, KTIME_MAX), KTIME_MAX);
	/* the futex case: now + a LONG_MAX-second timeout */
	CHECK_EQ(ktime_add_safe(123456789, ktime_set(LLONG_MAX, 0)), KTIME_MAX);
}

int main(void)
{
	return check_run("ktime", (struct check_case[]){
		CHECK_CASE(test_ktime_set_is_exact_below_the_limit),
		CHECK_CASE(test_ktime_set_saturates_at_ktime_max),
		CHECK_CASE(test_ktime_add_safe_saturates_on_overflow),
		{ 0 } });
}
