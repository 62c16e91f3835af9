/*
 * tests/kernel/test_rtmutex_aa.c - the rtmutex_aa suite: a plain
 * rt_mutex_lock() of a lock its caller already holds ("AA").
 *
 * Scenario (every model: rt_mutex is the same lock under all four):
 *   S  a kthread: rt_mutex_lock(L); complete(locked); rt_mutex_lock(L).
 * Observable, as Linux's rt_mutex_handle_deadlock() does it:
 *   - the second call is reported once as a self-deadlock;
 *   - S then sleeps for good, in TASK_UNINTERRUPTIBLE (state D in ps),
 *     still the owner of L, blocked on nothing (no waiter was queued:
 *     before the fix the slow path reported an empty waiter and oopsed);
 *   - the kernel goes on: this test ends and the next suites run.
 * S is never stopped (it cannot return from the lock), so L and S stay
 * for the rest of the run; both are named "aa-*" for `ps` and `locks`.
 * The wait for S's sleep is bounded and polls its state, never a guessed
 * sleep.  The interruptible variants return -EDEADLK instead (the
 * rtmutex suite's misuse case).
 */
#include "kernel/ktest.h"
#include "kernel/locking/lockdep.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/locking/deadlock.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/time/ktime.h"

#define WAIT_NS (3 * NSEC_PER_SEC)

static DEFINE_RT_MUTEX(aa_lock);
static struct completion aa_locked;

static int aa_fn(void *unused)
{
	(void)unused;
	rt_mutex_lock(&aa_lock);
	complete(&aa_locked);
	rt_mutex_lock(&aa_lock);	/* never returns */
	return 0;
}

static bool sleeps_for_good(struct task_struct *p)
{
	return READ_ONCE(p->state) == TASK_UNINTERRUPTIBLE &&
	       !READ_ONCE(p->on_rq);
}

static void test_rt_mutex_self_deadlock_sleeps_reported_once(struct ktest *t)
{
	unsigned long aa = rt_lock_reports[RT_REPORT_SELF_DEADLOCK];
	struct task_struct *p;
	ktime_t end;

	init_completion(&aa_locked);
	lockdep_expect_begin();	/* the validator reports the AA too */
	p = kthread_create(aa_fn, NULL, "aa-sleeper");
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	wake_up_process(p);
	wait_for_completion(&aa_locked);
	end = ktime_get() + WAIT_NS;
	while (!sleeps_for_good(p) && ktime_get() < end)
		schedule();
	KTEST_EXPECT(t, sleeps_for_good(p),
		     "aa-sleeper state %#lx on_rq %d, expected D off the queue",
		     (unsigned long)READ_ONCE(p->state), READ_ONCE(p->on_rq));
	KTEST_EXPECT_EQ(t, rt_lock_reports[RT_REPORT_SELF_DEADLOCK], aa + 1);
	KTEST_EXPECT(t, rt_mutex_owner(&aa_lock) == p,
		     "the lock changed hands in a self-deadlock");
	KTEST_EXPECT(t, READ_ONCE(p->pi_blocked_on) == NULL,
		     "aa-sleeper is queued as a waiter on its own lock");
	lockdep_expect_end();
}

KTEST_SUITE(rtmutex_aa,
	    KTEST_CASE(test_rt_mutex_self_deadlock_sleeps_reported_once));
