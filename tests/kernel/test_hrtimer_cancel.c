/*
 * tests/kernel/test_hrtimer_cancel.c - the hrtimer_cancel suite: a
 * cancel that meets the timer's own callback on another CPU, while the
 * callback re-arms the timer, must still leave it inactive (hrtimer.h:
 * "dequeue timer; if its function runs right now on another CPU, wait
 * for it to return").  Found by the timer torture (torture timer 30:
 * "hrtimer 4 right after its cancel: queued"); this test makes the
 * interleaving happen every time with two race windows
 * (kernel/debug/race_window.h), drawn in kernel/time/hrtimer.c at
 * hrtimer_cancel ("cancel vs. a re-arming callback").
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/debug/race_window.h"
#include "kernel/time/hrtimer.h"
#include "kernel/sched/wait.h"
#include "kernel/smp.h"

#define PARK_WAIT_NS (2LL * NSEC_PER_SEC)	/* a hang net, not a timing */
#define TEST_PRIO 90		/* above the canceller (50) */
#define REARM_NS (3600LL * NSEC_PER_SEC)	/* re-armed far ahead: it must not
					 * fire again however slow the host */

static struct hrtimer rearming;
static int fired;

/* rearming_fn - Context: hardirq.  Arms the window after the callback
 * for the task this interrupt interrupted, so only this return parks. */
static enum hrtimer_restart rearming_fn(struct hrtimer *timer)
{
	WRITE_ONCE(fired, fired + 1);
	timer->expires = ktime_get() + REARM_NS;
	race_window_arm(&hrtimer_callback_returned, current);
	return HRTIMER_RESTART;
}

/* start_here - Context: CPU 1's call-function IPI: queue it there. */
static void start_here(void *unused)
{
	hrtimer_start(&rearming, ktime_get() + 100 * NSEC_PER_USEC);
}

static bool canceller_ready, go, still_active;

/* canceller_fn - spins on its own CPU until told, so that it cancels at
 * once while the callback is parked (the window parks at most 1 s). */
static int canceller_fn(void *unused)
{
	WRITE_ONCE(canceller_ready, true);
	while (!READ_ONCE(go) && !kthread_should_stop())
		arch_cpu_relax();
	hrtimer_cancel(&rearming);
	WRITE_ONCE(still_active, hrtimer_active(&rearming));
	return 0;
}

/*
 * Scenario (3 CPUs; the test task pinned to CPU 0 at FIFO TEST_PRIO):
 *	CPU1 (hardirq)				CPU2 (canceller, FIFO 50,
 *						spinning until go)
 *	rearming_fn returns RESTART
 *	parks in hrtimer_callback_returned
 *						hrtimer_cancel: not queued,
 *						callback running: parks in
 *						hrtimer_cancel_waiting
 *	released: re-queues the timer,
 *	running = NULL
 *						released: hrtimer_cancel returns
 * Observable: after hrtimer_cancel returned, hrtimer_active() is false
 * (before the fix: true, the re-armed timer stayed queued) and the
 * callback ran exactly once.
 */
static void test_hrtimer_cancel_leaves_a_rearming_timer_inactive(struct ktest *t)
{
	struct task_struct *canceller;
	ktime_t net;

	if (num_online_cpus() < 3)
		ktest_skip(t, "needs 3 CPUs: the timer's, the canceller's and "
			      "the test's");
	me_rt(TEST_PRIO, 0);	/* watches the windows without delay */
	WRITE_ONCE(fired, 0);
	WRITE_ONCE(go, false);
	WRITE_ONCE(canceller_ready, false);
	hrtimer_init(&rearming, rearming_fn);
	canceller = start_rt(canceller_fn, NULL, SCHED_FIFO, 50, 2,
			     "hrt-cancel");
	KTEST_ASSERT(t, canceller, "no memory for the canceller");
	net = ktime_get() + PARK_WAIT_NS;
	while (!READ_ONCE(canceller_ready) && ktime_get() < net)
		msleep(1);
	KTEST_ASSERT(t, READ_ONCE(canceller_ready), "canceller never ran");
	race_window_arm(&hrtimer_cancel_waiting, canceller);
	smp_call_function_single(1, start_here, NULL, true);
	if (!race_window_wait_parked(&hrtimer_callback_returned, PARK_WAIT_NS)) {
		kthread_stop(canceller);
		put_task_struct(canceller);
		race_window_disarm(&hrtimer_cancel_waiting);
		hrtimer_cancel(&rearming);
		me_restore();
		KTEST_ASSERT(t, false, "the callback on CPU 1 never returned "
			     "into its window");
	}
	WRITE_ONCE(go, true);
	KTEST_EXPECT(t, race_window_wait_parked(&hrtimer_cancel_waiting,
						PARK_WAIT_NS),
		     "hrtimer_cancel did not wait for the running callback");
	race_window_release(&hrtimer_callback_returned);
	race_window_release(&hrtimer_cancel_waiting);
	kthread_stop(canceller);
	put_task_struct(canceller);
	KTEST_EXPECT(t, !READ_ONCE(still_active),
		     "hrtimer_cancel returned with the timer %s",
		     hrtimer_active(&rearming) ? "queued again by its callback"
					       : "active");
	KTEST_EXPECT_EQ(t, READ_ONCE(fired), 1);
	hrtimer_cancel(&rearming);	/* before the fix it is still queued */
	race_window_disarm(&hrtimer_callback_returned);
	race_window_disarm(&hrtimer_cancel_waiting);
	me_restore();
}

KTEST_SUITE(hrtimer_cancel,
	    KTEST_CASE(test_hrtimer_cancel_leaves_a_rearming_timer_inactive));
