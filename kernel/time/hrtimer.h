/*
 * kernel/time/hrtimer.h - high-resolution timers: a per-CPU queue of
 * absolute ktime deadlines, expired from the per-CPU timer interrupt.
 */
#ifndef KERNEL_TIME_HRTIMER_H
#define KERNEL_TIME_HRTIMER_H

#include "lib/types.h"
#include "lib/list.h"
#include "kernel/time/ktime.h"

enum hrtimer_restart {
	HRTIMER_NORESTART,	/* done */
	HRTIMER_RESTART,	/* re-queue at timer->expires (set by fn) */
};

struct hrtimer_cpu_base;
struct race_window;

struct hrtimer {
	/* protected by base->lock while queued */
	ktime_t expires;		/* absolute ktime_get() deadline, ns */
	struct list_head node;		/* in base->active, sorted */
	struct hrtimer_cpu_base *base;	/* queue it is (or was last) on */
	bool queued;			/* on base->active */
	/* set once by hrtimer_init */
	enum hrtimer_restart (*function)(struct hrtimer *timer);
};

/* hrtimer_init - set up timer to call fn (hard-irq context). */
void hrtimer_init(struct hrtimer *timer,
		  enum hrtimer_restart (*fn)(struct hrtimer *timer));

/*
 * hrtimer_start - (re)queue timer on this CPU for absolute time expires;
 * fn runs in the timer interrupt no earlier than that.  A timer already
 * queued is moved.  Context: any; never sleeps.  Locking: takes the
 * base lock(s) with interrupts off.
 */
void hrtimer_start(struct hrtimer *timer, ktime_t expires);

/*
 * hrtimer_cancel - dequeue timer; if its function runs right now on
 * another CPU, wait for it to return.  Returns 1 if it was queued, else 0.
 * Context: any except timer's own function; never sleeps.
 */
int hrtimer_cancel(struct hrtimer *timer);

/* hrtimer_active - queued or running now. */
bool hrtimer_active(const struct hrtimer *timer);

/* Test-only race windows (kernel/debug/race_window.h), used by
 * tests/kernel/test_hrtimer_cancel.c: between a callback's return and
 * the re-queue it asked for, and inside hrtimer_cancel() before it waits
 * out a callback running on another CPU; by tests/kernel/test_latbreak.c:
 * inside hrtimer_start() between the enqueue and the re-arming. */
extern struct race_window hrtimer_callback_returned;
extern struct race_window hrtimer_cancel_waiting;
extern struct race_window hrtimer_start_rearm_window;

/* For kernel/time/tick.c: run this CPU's expired timers (hardirq), and
 * the earliest deadline left (KTIME_MAX if none). */
void hrtimer_run_queues(ktime_t now);
ktime_t hrtimer_next_expiry(void);

#endif /* KERNEL_TIME_HRTIMER_H */
