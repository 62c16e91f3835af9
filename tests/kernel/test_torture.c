/*
 * tests/kernel/test_torture.c - the torture suite: each torture kind
 * (kernel/workloads/torture.h) runs torture.duration seconds (default
 * TORTURE_TEST_SECONDS, so `make test` stays fast; a long run:
 * `make kernel-test SELFTEST=torture APPEND="torture.duration=60"`) and
 * must end with no error; the interface's own rules (unknown kinds, one
 * run at a time, an early stop) are checked first.
 *
 * Scenario of every run test: the kind's threads (FIFO and OTHER, all
 * CPUs, shuffled) run for the duration; the test's thread only starts
 * the run and waits for it (torture_wait), so what must be observable
 * is the summary: ops > 0 (the threads ran) and errors == 0 (no
 * invariant broke; the ERROR lines above the verdict say which did).
 */
#include "kernel/ktest.h"
#include "kernel/workloads/torture.h"
#include "kernel/sched/rt_bandwidth.h"
#include "kernel/cmdline.h"
#include "lib/errno.h"
#include "lib/string.h"

#define TORTURE_TEST_SECONDS 2

static unsigned int duration_s = TORTURE_TEST_SECONDS;

static int __init parse_torture_duration(const char *val)
{
	unsigned long v;
	int ret = val ? kstrtoul(val, 0, &v) : -EINVAL;

	if (!ret && (v < 1 || v > TORTURE_MAX_SECONDS))
		ret = -ERANGE;
	if (!ret)
		duration_s = v;
	return ret;
}
CMDLINE_PARAM("torture.duration", parse_torture_duration);

/* run_kind - one run of kind for torture.duration; every error fails. */
static void run_kind(struct ktest *t, const char *kind)
{
	struct torture_summary sum = { 0 };
	int ret;

	KTEST_ASSERT_EQ(t, torture_start(kind, duration_s), 0);
	ret = torture_wait(&sum);
	KTEST_EXPECT(t, sum.kind && !strcmp(sum.kind, kind),
		     "summary of kind %s, expected %s",
		     sum.kind ? sum.kind : "(null)", kind);
	KTEST_EXPECT(t, sum.ops > 0, "%s did no operation in %u s", kind,
		     sum.seconds);
	KTEST_EXPECT(t, ret == 0 && sum.errors == 0,
		     "%s: %lu errors (torture_wait %d), see the torture: "
		     "ERROR lines", kind, sum.errors, ret);
}

static void test_torture_rejects_unknown_kinds_and_durations(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, torture_start("bogus", 1), -EINVAL);
	KTEST_EXPECT_EQ(t, torture_start("lock:bogus", 1), -EINVAL);
	KTEST_EXPECT_EQ(t, torture_start("lock", 0), -EINVAL);
	KTEST_EXPECT_EQ(t, torture_start("lock", TORTURE_MAX_SECONDS + 1), -EINVAL);
	KTEST_EXPECT_EQ(t, torture_wait(NULL), -ENOENT);
}

/* One run at a time; torture_stop ends a long run at once and the run
 * still reports (its summary's seconds are far below the asked-for).
 * RT throttling is off while it runs and as before once it is over. */
static void test_torture_one_run_at_a_time_and_stop_ends_it(struct ktest *t)
{
	struct torture_summary sum = { 0 };
	int period0, runtime0, period, runtime;

	sched_rt_bandwidth_get(&period0, &runtime0);
	KTEST_ASSERT_EQ(t, torture_start("lock:rt_mutex", 3600), 0);
	KTEST_EXPECT_EQ(t, torture_start("rcu", 1), -EBUSY);
	sched_rt_bandwidth_get(&period, &runtime);
	KTEST_EXPECT_EQ(t, runtime, SCHED_RT_RUNTIME_INF_US);
	torture_stop();
	KTEST_EXPECT_EQ(t, torture_wait(&sum), 0);
	sched_rt_bandwidth_get(&period, &runtime);
	KTEST_EXPECT(t, period == period0 && runtime == runtime0, "RT "
		     "bandwidth after the run %d/%d, before %d/%d", period,
		     runtime, period0, runtime0);
	KTEST_EXPECT(t, sum.seconds < 3600, "stopped run reports %u s",
		     sum.seconds);
	KTEST_EXPECT_EQ(t, torture_wait(NULL), -ENOENT);
}

static void test_torture_lock_every_type_holds_its_invariants(struct ktest *t)
{
	run_kind(t, "lock");
}

static void test_torture_rcu_readers_never_see_freed_objects(struct ktest *t)
{
	run_kind(t, "rcu");
}

static void test_torture_sched_wakeups_and_rt_placement(struct ktest *t)
{
	run_kind(t, "sched");
}

static void test_torture_timer_cancel_leaves_timers_inactive(struct ktest *t)
{
	run_kind(t, "timer");
}

/* every kind at once, as `torture all S` and the soak run them: the
 * kinds' threads share the CPUs, the lock types' threads migrate among
 * the RT placement threads, and the end stops some 100 threads */
static void test_torture_all_kinds_together(struct ktest *t)
{
	run_kind(t, "all");
}

KTEST_SUITE(torture,
	    KTEST_CASE(test_torture_rejects_unknown_kinds_and_durations),
	    KTEST_CASE(test_torture_one_run_at_a_time_and_stop_ends_it),
	    KTEST_CASE(test_torture_lock_every_type_holds_its_invariants),
	    KTEST_CASE(test_torture_rcu_readers_never_see_freed_objects),
	    KTEST_CASE(test_torture_sched_wakeups_and_rt_placement),
	    KTEST_CASE(test_torture_timer_cancel_leaves_timers_inactive),
	    KTEST_CASE(test_torture_all_kinds_together));
