/*
 * tests/kernel/test_latbreak.c - the latbreak suite: the tick code arms
 * the per-CPU timer event for the earliest thing due on that CPU.
 *
 * What must be observable (kernel/time/tick.c, tick_reprogram; the
 * article, "High resolution timers": a timer fires at its own expiry,
 * not at the next tick): whenever a timer interrupt is taken, the event
 * it brings was armed no later than the earliest of the CPU's next tick
 * and its first hrtimer.  An hrtimer_start() that queued an earlier
 * deadline without re-arming the event, or a tick handler that re-armed
 * for the tick alone, shows up as "armed late": the deadline is found
 * only at the next tick, up to 1/HZ late.  latbreak checks every timer
 * interrupt while it is on (__latbreak_tick_entry); docs/latency.md uses
 * the same counts to show that a loaded rtk's late wake-ups were armed
 * on time and lost their time in delivery.
 *
 * Scenario: the runner, pinned at SCHED_FIFO TEST_PRIO, shares its CPU
 * with a SCHED_OTHER spinner, so the CPU never idles (NO_HZ idle entry
 * re-arms the event too and would hide a missed re-arming).  With
 * latbreak on, the runner sleeps SLEEPS times on an hrtimer SLEEP_NS
 * ahead (shorter than a tick at HZ=250 and 1000, so each deadline comes
 * before the next tick and needs hrtimer_start's own re-arming).
 * Expected: at least SLEEPS timer events checked, none armed late.
 * Checked to fail with hrtimer_start's tick_reprogram() removed.  The
 * test asserts no latency: "delivered late" is printed, never judged.
 *
 * Scenario 2 (2 CPUs; the window drawn at hrtimer_start in
 * kernel/time/hrtimer.c): a task S on CPU 1 queues an hrtimer already
 * due and parks between the enqueue and the re-arming
 * (hrtimer_start_rearm_window); the runner on CPU 0 waits until CPU 1
 * takes a tick or RE_ARM_NET_NS passes, then lets S go.  An interrupt
 * taken inside the window finds the event armed for the tick while the
 * timer was due: "armed late".  Expected: none on CPU 1, because the
 * window runs with interrupts off; on the old order (interrupts back on
 * before the re-arming) the tick came inside it and the case failed.
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/ktest.h"
#include "kernel/debug/latbreak.h"
#include "kernel/debug/race_window.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/hrtimer_sleep.h"
#include "kernel/time/tick.h"
#include "kernel/time/ktime.h"
#include "lib/types.h"

#define SLEEPS	      200
#define SLEEP_NS      (300LL * NSEC_PER_USEC)
#define TEST_PRIO     90
#define PARK_NET_NS   (2LL * NSEC_PER_SEC)   /* hang nets, not timings */
#define RE_ARM_NET_NS (50LL * NSEC_PER_MSEC) /* 12 ticks at HZ=250 */

/* spin_fn - keeps the runner's CPU busy (never idle), giving it up at
 * each turn when the runner wakes (_cond_resched: under none,
 * cond_resched() is no preemption point at all).
 * Context: kthread, SCHED_OTHER, bound to the runner's CPU. */
static int spin_fn(void *unused)
{
	while (!kthread_should_stop())
		_cond_resched();
	return 0;
}

static void test_timer_events_armed_for_the_earliest_deadline(struct ktest *t)
{
	struct latbreak_events sum = {0}, ev;
	struct task_struct *spinner;
	int cpu, i, ret;

	cpu = pin_here();
	me_rt(TEST_PRIO, cpu);
	spinner = start_rt(spin_fn, NULL, SCHED_OTHER, 0, cpu, "lb-spin");
	KTEST_ASSERT(t, spinner, "could not start the spinner");
	ret = latbreak_on();
	if (ret == 0) {
		for (i = 0; i < SLEEPS; i++)
			schedule_hrtimeout_abs(ktime_get() + SLEEP_NS);
		latbreak_off();
	}
	kthread_stop(spinner);
	put_task_struct(spinner);
	me_restore();
	KTEST_ASSERT(t, ret == 0, "latbreak_on returned %d, expected 0", ret);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (latbreak_event_counts(cpu, &ev))
			continue;
		KTEST_EXPECT(
			t, ev.armed_late == 0,
			"CPU %d: %llu of %llu timer events were armed after "
			"their CPU's earliest deadline, expected 0",
			cpu, (unsigned long long)ev.armed_late,
			(unsigned long long)ev.events);
		sum.events += ev.events;
		sum.fired_early += ev.fired_early;
		sum.delivered_late += ev.delivered_late;
	}
	KTEST_EXPECT(t, sum.events >= SLEEPS,
		     "%llu timer events checked over %d sleeps, expected at "
		     "least one per sleep",
		     (unsigned long long)sum.events, SLEEPS);
	pr_info("    # latbreak: %llu timer events, %llu taken early, %llu "
		">= 1 ms after due (not judged)\n",
		(unsigned long long)sum.events,
		(unsigned long long)sum.fired_early,
		(unsigned long long)sum.delivered_late);
}

static struct hrtimer due_now;
static bool due_now_fired;

/* due_now_fn - Context: hardirq on S's CPU. */
static enum hrtimer_restart due_now_fn(struct hrtimer *timer)
{
	WRITE_ONCE(due_now_fired, true);
	return HRTIMER_NORESTART;
}

/* starter_fn - S: queue due_now (already due) on its own CPU, parking
 * in hrtimer_start's window, then wait for it to fire.  Context:
 * kthread, SCHED_FIFO, bound. */
static int starter_fn(void *unused)
{
	ktime_t end;

	hrtimer_start(&due_now, ktime_get());
	end = ktime_get() + PARK_NET_NS;
	while (!READ_ONCE(due_now_fired) && ktime_get() < end)
		arch_cpu_relax();
	return 0;
}

static void test_start_rearms_before_an_interrupt_can_come(struct ktest *t)
{
	struct latbreak_events ev = {0};
	struct task_struct *s;
	bool parked;
	u64 ticks;
	ktime_t end;
	int ret;

	if (nr_cpu_ids < 2)
		ktest_skip(t, "needs a second CPU to watch the first");
	me_rt(TEST_PRIO, 0);
	hrtimer_init(&due_now, due_now_fn);
	WRITE_ONCE(due_now_fired, false);
	ret = latbreak_on();
	KTEST_ASSERT(t, ret == 0, "latbreak_on returned %d, expected 0", ret);
	s = create_fifo(starter_fn, NULL, TEST_PRIO - 10, one_cpu(1),
			"lb-start");
	KTEST_ASSERT(t, s, "could not create S");
	parked = race_window_run_until_parked(&hrtimer_start_rearm_window, s,
					      PARK_NET_NS);
	ticks = tick_count(1);
	end = ktime_get() + RE_ARM_NET_NS;
	while (parked && tick_count(1) == ticks && ktime_get() < end)
		arch_cpu_relax();
	if (parked)
		race_window_release(&hrtimer_start_rearm_window);
	kthread_stop(s);
	put_task_struct(s);
	latbreak_off();
	hrtimer_cancel(&due_now);
	me_restore();
	KTEST_ASSERT(t, parked, "S did not park in hrtimer_start's window");
	latbreak_event_counts(1, &ev);
	KTEST_EXPECT(t, ev.armed_late == 0,
		     "CPU 1: %llu of %llu timer events were armed after the "
		     "earliest deadline (a tick inside hrtimer_start's "
		     "window: %s), expected 0",
		     (unsigned long long)ev.armed_late,
		     (unsigned long long)ev.events,
		     tick_count(1) != ticks ? "yes" : "no");
	KTEST_EXPECT(t, READ_ONCE(due_now_fired),
		     "the timer queued by S never fired");
}

KTEST_SUITE(latbreak,
	    KTEST_CASE(test_timer_events_armed_for_the_earliest_deadline),
	    KTEST_CASE(test_start_rearms_before_an_interrupt_can_come));
