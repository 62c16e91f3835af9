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

#define PARK_WAIT_NS (2LL * NSEC_PER_SEC)	/* a hang net, not a timing */
#define REARM_NS NSEC_PER_SEC	/* the re-armed expiry: far ahead */

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

static int starter_fn(void *unused)
{
	hrtimer_start(&rearming, ktime_get() + 100 * NSEC_PER_USEC);
	return 0;
}

static bool still_active;

static int canceller_fn(void *unused)
{
	hrtimer_cancel(&rearming);
	WRITE_ONCE(still_active, hrtimer_active(&rearming));
	return 0;
}

/*
 * Scenario (3 CPUs; the test task pinned to CPU 0):
 *	CPU1 (hardirq)				CPU2 (canceller, FIFO 50)
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
	struct task_struct *starter, *canceller;

	if (num_online_cpus() < 3)
		ktest_skip(t, "needs 3 CPUs: the timer's, the canceller's and "
			      "the test's");
	me_rt(0, 0);
	WRITE_ONCE(fired, 0);
	hrtimer_init(&rearming, rearming_fn);
	starter = start_rt(starter_fn, NULL, SCHED_OTHER, 0, 1, "hrt-start");
	KTEST_ASSERT(t, starter, "no memory for the starter");
	put_task_struct(starter);
	KTEST_ASSERT(t, race_window_wait_parked(&hrtimer_callback_returned,
						PARK_WAIT_NS),
		     "the callback on CPU 1 never returned into its window");
	canceller = kthread_create(canceller_fn, NULL, "hrt-cancel");
	if (!canceller) {
		race_window_release(&hrtimer_callback_returned);
		KTEST_ASSERT(t, false, "no memory for the canceller");
	}
	kthread_bind(canceller, 2);
	sched_setscheduler(canceller, SCHED_FIFO,
			   &(struct sched_param){ .sched_priority = 50 });
	get_task_struct(canceller);
	race_window_arm(&hrtimer_cancel_waiting, canceller);
	wake_up_process(canceller);
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
