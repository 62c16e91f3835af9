/*
 * kernel/workloads/torture_timer.c - timer torture (torture.h, kind timer):
 * hrtimers and timer_list timers whose callbacks re-arm them, cancelled
 * and restarted by threads the shuffler moves between CPUs.
 *
 * The rule under test (timer.h, hrtimer.h): when hrtimer_cancel() or
 * del_timer_sync() returns, the timer is inactive - not queued, its
 * callback not running - even if the callback re-arms itself, and it
 * stays so until someone starts it again.  A canceller therefore:
 *	[1] takes the timer exclusively (t->gate: -1) so nobody restarts it
 *	[2] cancels it (hrtimer_cancel, del_timer_sync, or a
 *	    try_to_del_timer_sync loop)
 *	[3] sets t->cancelled, checks active/pending and t->running
 *	[4] waits a random window: a callback that runs now, or a timer
 *	    queued again, is an error (the callback checks t->cancelled)
 *	[5] sometimes re-initialises the timer (a timer_list then picks a
 *	    base again at its next first use, which other threads race)
 *	[6] clears t->cancelled, restarts it from this CPU, releases it.
 * Other threads meanwhile mod_timer() the timer_lists concurrently
 * (t->gate > 0: shared), which Linux allows at any time; hrtimers are
 * only restarted by their canceller (Linux forbids forwarding a timer
 * that someone else queued).
 * Linux counterpart: none in mainline (rcutorture's timer users come
 * closest); the race is the one hrtimer_cancel_wait_running and
 * del_timer_sync's retry loop close.
 */
#include "kernel/workloads/torture_internal.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/timer.h"
#include "kernel/time/tick.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/vsnprintf.h"

#define TT_TIMERS 8		/* even: hrtimer, odd: timer_list */
#define TT_THREADS 4		/* two FIFO, two OTHER */
#define TT_PRIO 30
#define TT_HR_MIN_NS 10000	/* hrtimer re-arm: 10..210 us */
#define TT_HR_SPAN_NS 200000
#define TT_WINDOW_US 3000	/* [4]: up to 3 ms, > a timer_list's 1..3 jiffies */
#define TT_STOP_TRIES 1000	/* cleanup's cancel attempts per timer */
#define TT_RETRY_US 100		/* try_to_del_timer_sync retry gap */

struct timer_torture;

struct tt_timer {
	struct timer_torture *tor;
	int idx;
	bool is_hr;
	struct hrtimer hr;
	struct timer_list tl;
	int gate;		/* atomic: -1 cancelling, n > 0 starters */
	int cancelled;		/* set after a cancel returned */
	int running;		/* the callback runs now */
	bool stopping;		/* cleanup: no more re-arming */
	struct torture_random rnd;	/* the callback's (never concurrent) */
	unsigned long fired, cancels, starts;
};

struct tt_thread {
	struct timer_torture *tor;
	struct task_struct *task;
	struct torture_random rnd;
};

struct timer_torture {
	struct torture_test *tt;
	struct tt_timer timers[TT_TIMERS];
	struct tt_thread th[TT_THREADS];
	int nthreads;
};

/* tt_fired - the callbacks' common part: the check of [4] and the
 * re-arm decision (7 in 8).  Context: hardirq or timer softirq. */
static bool tt_fired(struct tt_timer *t)
{
	WRITE_ONCE(t->running, 1);
	if (READ_ONCE(t->cancelled))
		torture_error(t->tor->tt, "%s %d: callback ran after its "
			      "cancel returned", t->is_hr ? "hrtimer" :
			      "timer_list", t->idx);
	t->fired++;
	return !READ_ONCE(t->stopping) && torture_random_below(&t->rnd, 8);
}

static enum hrtimer_restart tt_hr_fn(struct hrtimer *timer)
{
	struct tt_timer *t = container_of(timer, struct tt_timer, hr);
	bool again = tt_fired(t);

	if (again)
		timer->expires = ktime_get() + TT_HR_MIN_NS +
				 torture_random_below(&t->rnd, TT_HR_SPAN_NS);
	WRITE_ONCE(t->running, 0);
	return again ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

static void tt_tl_fn(struct timer_list *timer)
{
	struct tt_timer *t = from_timer(t, timer, tl);

	if (tt_fired(t))
		mod_timer(timer, jiffies + 1 + torture_random_below(&t->rnd, 3));
	WRITE_ONCE(t->running, 0);
}

static void tt_start(struct tt_timer *t, struct torture_random *rnd)
{
	if (t->is_hr)
		hrtimer_start(&t->hr, ktime_get() + TT_HR_MIN_NS +
					      torture_random_below(rnd, TT_HR_SPAN_NS));
	else
		mod_timer(&t->tl, jiffies + 1 + torture_random_below(rnd, 3));
	t->starts++;
}

static bool tt_active(struct tt_timer *t)
{
	return t->is_hr ? hrtimer_active(&t->hr) : timer_pending(&t->tl);
}

/* tt_cancel - [2]: the cancel that must leave t inactive. */
static void tt_cancel(struct tt_timer *t, struct torture_random *rnd)
{
	if (t->is_hr) {
		hrtimer_cancel(&t->hr);
	} else if (torture_random_below(rnd, 2)) {
		del_timer_sync(&t->tl);
	} else {
		/* sleep, not just yield: under rt the callback runs in
		 * ksoftirqd at FIFO 1, below a FIFO canceller on its CPU */
		while (try_to_del_timer_sync(&t->tl) < 0)
			torture_sleep_us(TT_RETRY_US);
	}
	t->cancels++;
}

/* tt_check - [3] and after [4]: inactive, not running. */
static void tt_check(struct tt_timer *t, const char *when)
{
	if (tt_active(t) || READ_ONCE(t->running))
		torture_error(t->tor->tt, "%s %d %s its cancel: %s%s",
			      t->is_hr ? "hrtimer" : "timer_list", t->idx, when,
			      tt_active(t) ? "queued " : "",
			      READ_ONCE(t->running) ? "callback running" : "");
}

/*
 * canceller_fn - steps [1]-[6] on a random timer, or a concurrent
 * mod_timer of a timer_list someone else may be cancelling.
 * Context: kthread, FIFO or OTHER, shuffled between CPUs.
 */
static int canceller_fn(void *arg)
{
	struct tt_thread *th = arg;
	struct timer_torture *tor = th->tor;

	while (!torture_must_stop()) {
		struct tt_timer *t =
			&tor->timers[torture_random_below(&th->rnd, TT_TIMERS)];
		int gate = 0;

		if (__atomic_compare_exchange_n(&t->gate, &gate, -1, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {	/* [1] */
			tt_cancel(t, &th->rnd);				/* [2] */
			WRITE_ONCE(t->cancelled, 1);			/* [3] */
			tt_check(t, "right after");
			torture_sleep_us(torture_random_below(&th->rnd,	/* [4] */
							      TT_WINDOW_US));
			tt_check(t, "a while after");
			if (torture_random_below(&th->rnd, 8) == 0) {	/* [5] */
				if (t->is_hr)
					hrtimer_init(&t->hr, tt_hr_fn);
				else
					timer_setup(&t->tl, tt_tl_fn, 0);
			}
			__atomic_store_n(&t->cancelled, 0, __ATOMIC_SEQ_CST);
			tt_start(t, &th->rnd);				/* [6] */
			__atomic_store_n(&t->gate, 0, __ATOMIC_RELEASE);
		} else if (!t->is_hr && gate >= 0 &&
			   __atomic_compare_exchange_n(&t->gate, &gate,
						       gate + 1, false,
						       __ATOMIC_ACQUIRE,
						       __ATOMIC_RELAXED)) {
			mod_timer(&t->tl, jiffies + 1 +
						  torture_random_below(&th->rnd, 3));
			__atomic_sub_fetch(&t->gate, 1, __ATOMIC_RELEASE);
		}
		torture_sleep_us(torture_random_below(&th->rnd, 500));
	}
	return 0;
}

static int timer_torture_init(struct torture_test *tt)
{
	struct timer_torture *tor = kzalloc(sizeof(*tor), GFP_KERNEL);
	struct torture_random rnd;
	int i, ret;

	if (!tor)
		return -ENOMEM;
	tt->priv = tor;
	tor->tt = tt;
	torture_random_init(&rnd, tt, 0);
	for (i = 0; i < TT_TIMERS; i++) {
		struct tt_timer *t = &tor->timers[i];

		t->tor = tor;
		t->idx = i;
		t->is_hr = i % 2 == 0;
		torture_random_init(&t->rnd, tt, 100 + i);
		hrtimer_init(&t->hr, tt_hr_fn);
		timer_setup(&t->tl, tt_tl_fn, 0);
		tt_start(t, &rnd);
	}
	for (i = 0; i < TT_THREADS; i++) {
		struct tt_thread *th = &tor->th[i];
		bool fifo = i % 2 == 0;

		th->tor = tor;
		torture_random_init(&th->rnd, tt, i + 1);
		ret = torture_kthread(tt, canceller_fn, th,
				      fifo ? SCHED_FIFO : SCHED_OTHER,
				      fifo ? TT_PRIO : 0, true, &th->task,
				      "ttimer/%d", i);
		if (ret)
			return ret;
		tor->nthreads++;
	}
	return 0;
}

/* timer_torture_cleanup - stop the re-arming, cancel every timer until
 * it is inactive (a cancel that leaves it queued is counted, and the
 * memory must not be freed under a queued timer), then free. */
static void timer_torture_cleanup(struct torture_test *tt)
{
	struct timer_torture *tor = tt->priv;
	int i, tries;

	if (!tor)
		return;
	for (i = 0; i < TT_TIMERS; i++) {
		struct tt_timer *t = &tor->timers[i];

		WRITE_ONCE(t->stopping, true);
		for (tries = 0; tries < TT_STOP_TRIES; tries++) {
			if (t->is_hr)
				hrtimer_cancel(&t->hr);
			else
				del_timer_sync(&t->tl);
			if (!tt_active(t) && !READ_ONCE(t->running))
				break;
			torture_sleep_us(100);
		}
		if (tries)
			torture_error(tt, "%s %d: still active after the "
				      "final cancel (%d retries)",
				      t->is_hr ? "hrtimer" : "timer_list", i,
				      tries);
		if (tries == TT_STOP_TRIES) {
			pr_err("torture: timer %d never stopped: leaking its "
			       "memory\n", i);
			tt->priv = NULL;
			return;
		}
	}
	kfree(tor);
	tt->priv = NULL;
}

static unsigned long timer_torture_stats(struct torture_test *tt, char *buf,
					 size_t len)
{
	struct timer_torture *tor = tt->priv;
	unsigned long fired[2] = { 0 }, cancels[2] = { 0 }, starts = 0;
	int i;

	if (!tor)
		return 0;
	for (i = 0; i < TT_TIMERS; i++) {
		const struct tt_timer *t = &tor->timers[i];

		fired[t->is_hr] += READ_ONCE(t->fired);
		cancels[t->is_hr] += READ_ONCE(t->cancels);
		starts += READ_ONCE(t->starts);
	}
	scnprintf(buf, len, "hrtimer fired %lu cancels %lu timer_list fired "
		  "%lu cancels %lu starts %lu", fired[1], cancels[1], fired[0],
		  cancels[0], starts);
	return fired[0] + fired[1] + cancels[0] + cancels[1];
}

const struct torture_ops timer_torture_ops = {
	.init = timer_torture_init,
	.cleanup = timer_torture_cleanup,
	.stats = timer_torture_stats,
};
