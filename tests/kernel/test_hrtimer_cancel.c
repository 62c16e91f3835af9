/*
 * tests/kernel/test_hrtimer_cancel.c - the hrtimer_cancel suite: a
 * cancel that meets the timer's own callback on another CPU, while the
 * callback re-arms the timer, must still leave it inactive (hrtimer.h:
 * "dequeue timer; if its function runs right now on another CPU, wait
 * for it to return").  Found by the timer torture (torture timer 30:
 * "hrtimer 4 right after its cancel: queued"); this test makes the
 * interleaving happen every time with two race windows
 * (kernel/debug/race_window.h), drawn in kernel/time/hrtimer.c at
 * hrtimer_cancel ("cancel vs. a re-arming callback").  The second case
 * restarts a timer whose callback runs on another CPU and cancels it at
 * once: the cancel must wait for that callback (issue 28 item 8, drawn
 * at hrtimer_start).
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

static struct hrtimer parked_timer;
static bool parked_entered, parked_done, cancel_returned, done_at_return;

/*
 * parked_fn - Context: hardirq on CPU 0.  Stays in the callback until
 * CPU 1's hrtimer_cancel either returned (the bug) or is parked in
 * hrtimer_cancel_waiting, i.e. waits for this callback; lets it go on
 * only after recording that the callback is done.  The ktime bound is a
 * hang net for a broken kernel, not a timing.
 */
static enum hrtimer_restart parked_fn(struct hrtimer *timer)
{
	ktime_t net = ktime_get() + PARK_WAIT_NS;

	WRITE_ONCE(parked_entered, true);
	while (!READ_ONCE(cancel_returned) &&
	       !READ_ONCE(hrtimer_cancel_waiting.parked) && ktime_get() < net)
		arch_cpu_relax();
	WRITE_ONCE(parked_done, true);
	race_window_release(&hrtimer_cancel_waiting);
	return HRTIMER_NORESTART;
}

/* start_parked_here - Context: CPU 0's call-function IPI. */
static void start_parked_here(void *unused)
{
	hrtimer_start(&parked_timer, ktime_get() + 100 * NSEC_PER_USEC);
}

/*
 * Scenario (2 CPUs; the test task pinned to CPU 1 at FIFO TEST_PRIO):
 *	CPU0 (hardirq)				CPU1 (the test)
 *	parked_fn runs: base0->running = t,
 *	spins until CPU1's cancel waits
 *	or returned
 *						hrtimer_start(t): not queued
 *						hrtimer_cancel(t)
 *	sees cancel parked in			must wait: running on CPU0
 *	hrtimer_cancel_waiting: done = 1,
 *	returns
 *						returns, callback done
 * Before the fix hrtimer_start moved t to CPU1's base, and the cancel
 * found it queued there, dequeued it and returned at once, while the
 * callback still ran on CPU0 (for an on-stack timer: a use-after-free).
 * Observable: when hrtimer_cancel returns the callback has returned.
 */
static void test_hrtimer_cancel_waits_for_a_callback_restarted_elsewhere(struct ktest *t)
{
	ktime_t net;
	int was;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the callback's and the test's");
	me_rt(TEST_PRIO, 1);
	WRITE_ONCE(parked_entered, false);
	WRITE_ONCE(parked_done, false);
	WRITE_ONCE(cancel_returned, false);
	hrtimer_init(&parked_timer, parked_fn);
	smp_call_function_single(0, start_parked_here, NULL, true);
	net = ktime_get() + PARK_WAIT_NS;
	while (!READ_ONCE(parked_entered) && ktime_get() < net)
		arch_cpu_relax();
	KTEST_ASSERT(t, READ_ONCE(parked_entered),
		     "the callback on CPU 0 never ran");
	race_window_arm(&hrtimer_cancel_waiting, current);
	hrtimer_start(&parked_timer, ktime_get() + REARM_NS);
	was = hrtimer_cancel(&parked_timer);
	WRITE_ONCE(done_at_return, READ_ONCE(parked_done));
	WRITE_ONCE(cancel_returned, true);
	net = ktime_get() + PARK_WAIT_NS;
	while (!READ_ONCE(parked_done) && ktime_get() < net)
		arch_cpu_relax();
	while (hrtimer_active(&parked_timer) && ktime_get() < net)
		arch_cpu_relax();	/* CPU 0 leaves hrtimer_run_queues */
	race_window_disarm(&hrtimer_cancel_waiting);
	KTEST_EXPECT(t, READ_ONCE(done_at_return),
		     "hrtimer_cancel returned while the callback still ran "
		     "on CPU 0");
	KTEST_EXPECT_EQ(t, was, 1);	/* the restart was queued */
	KTEST_EXPECT(t, !hrtimer_active(&parked_timer),
		     "the timer is still active after its cancel");
	me_restore();
}

KTEST_SUITE(hrtimer_cancel,
	    KTEST_CASE(test_hrtimer_cancel_leaves_a_rearming_timer_inactive),
	    KTEST_CASE(test_hrtimer_cancel_waits_for_a_callback_restarted_elsewhere));
