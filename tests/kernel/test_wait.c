/*
 * tests/kernel/test_wait.c - wait queues, completions and timed sleeps:
 * timeouts expire no earlier than asked and report 0, a wakeup before
 * the timeout reports the time left, complete_all releases every waiter
 * now and later, msleep sleeps at least its time.
 */
#include "kernel/ktest.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/wait.h"
#include "kernel/time/ktime.h"

#define MS NSEC_PER_MSEC

/* Nobody completes: the wait times out after >= 20 ms and says 0. */
static void test_completion_timeout_expires_not_early(struct ktest *t)
{
	struct completion c;
	ktime_t t0 = ktime_get();
	s64 left;

	init_completion(&c);
	left = wait_for_completion_timeout(&c, 20 * MS);
	KTEST_EXPECT_EQ(t, left, 0);
	KTEST_EXPECT(t, ktime_get() - t0 >= 20 * MS, "slept >= 20 ms, saw %lld ns",
		     (long long)(ktime_get() - t0));
}

static DECLARE_WAIT_QUEUE_HEAD(flag_wq);
static volatile int flag;

static int set_flag_thread(void *arg)
{
	flag = 1;
	wake_up(&flag_wq);
	return 0;
}

/*
 * Scenario: the test waits up to 5 s for flag; a thread sets it and
 * calls wake_up: the wait returns early with time left > 0.
 */
static void test_wait_event_timeout_returns_time_left_on_wakeup(struct ktest *t)
{
	struct task_struct *p;
	s64 left;

	flag = 0;
	p = kthread_create(set_flag_thread, NULL, "setflag");
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	wake_up_process(p);
	left = wait_event_timeout(flag_wq, flag == 1, 5000 * MS);
	KTEST_EXPECT(t, left > 0, "time left > 0, saw %lld", (long long)left);
	KTEST_EXPECT_EQ(t, flag, 1);
}

/* A condition already true returns at once with time left. */
static void test_wait_event_timeout_true_condition_does_not_sleep(struct ktest *t)
{
	/* voluntary switches only: the runner may be preempted at any
	 * point (an irq thread, a tick on a busy CPU), which is not a
	 * sleep (CI once saw nr_switches move by one here, rt SMP=4) */
	unsigned long sw = current->nvcsw;
	s64 left = wait_event_timeout(flag_wq, 1, 10 * MS);

	KTEST_EXPECT(t, left > 0, "time left > 0, saw %lld", (long long)left);
	KTEST_EXPECT_EQ(t, current->nvcsw, sw);
}

static struct completion all_done;
static struct completion waiter_back;

static int all_waiter(void *arg)
{
	wait_for_completion(&all_done);
	complete(&waiter_back);
	return 0;
}

/* Scenario: two threads wait; complete_all releases both, and a later
 * wait (the test's own) returns at once. */
static void test_complete_all_releases_everyone(struct ktest *t)
{
	struct task_struct *a, *b;

	init_completion(&all_done);
	init_completion(&waiter_back);
	a = kthread_run(all_waiter, NULL, "cw1");
	b = kthread_run(all_waiter, NULL, "cw2");
	KTEST_ASSERT(t, a && b, "kthread_run failed");
	complete_all(&all_done);
	KTEST_EXPECT(t, wait_for_completion_timeout(&waiter_back, 5000 * MS) > 0,
		     "first waiter released");
	KTEST_EXPECT(t, wait_for_completion_timeout(&waiter_back, 5000 * MS) > 0,
		     "second waiter released");
	KTEST_EXPECT(t, wait_for_completion_timeout(&all_done, 1 * MS) > 0,
		     "a late waiter passes a complete_all");
	KTEST_EXPECT(t, completion_done(&all_done), "done stays set");
}

/* msleep(15) takes at least 15 ms. */
static void test_msleep_sleeps_at_least_its_time(struct ktest *t)
{
	ktime_t t0 = ktime_get();

	msleep(15);
	KTEST_EXPECT(t, ktime_get() - t0 >= 15 * MS, "slept %lld ns",
		     (long long)(ktime_get() - t0));
}

KTEST_SUITE(wait,
	    KTEST_CASE(test_completion_timeout_expires_not_early),
	    KTEST_CASE(test_wait_event_timeout_returns_time_left_on_wakeup),
	    KTEST_CASE(test_wait_event_timeout_true_condition_does_not_sleep),
	    KTEST_CASE(test_complete_all_releases_everyone),
	    KTEST_CASE(test_msleep_sleeps_at_least_its_time));
