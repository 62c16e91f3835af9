/*
 * kernel/time/timer.h - timer_list: a function called once, at or after
 * a given jiffies value, from TIMER_SOFTIRQ of the CPU that queued it.
 *
 *	timer_setup(&t, fn, 0);
 *	mod_timer(&t, jiffies + HZ / 10);	fn(&t) in about 100 ms
 *	del_timer_sync(&t);			not queued, fn not running
 *
 * Where fn runs follows the softirqs (kernel/irq/irq_model.h): softirq
 * context on the way out of an interrupt (must not sleep), or under rt
 * in ksoftirqd/N, process context, preemptible, allowed to block
 * (article, "Preemptible interrupt handlers": "software timers ... run
 * in process context and are fully preemptible").
 * Linux counterpart: include/linux/timer.h, kernel/time/timer.c; the
 * 2.6 -rt patch's wait_for_timer().
 */
#ifndef KERNEL_TIME_TIMER_H
#define KERNEL_TIME_TIMER_H

#include "lib/types.h"
#include "lib/list.h"
#include "lib/compiler.h"

struct timer_base;

struct timer_list {
	struct list_head entry;		/* in base->pending; empty: idle */
	unsigned long expires;		/* jiffies */
	void (*function)(struct timer_list *timer);
	unsigned int flags;		/* timer_setup's flags (none used) */
	struct timer_base *base;	/* set by the first add, then fixed */
};

#define from_timer(var, timer_ptr, field)                                    \
	container_of(timer_ptr, typeof(*(var)), field)

/* timer_setup - make timer idle with callback fn.  Context: any. */
void timer_setup(struct timer_list *timer,
		 void (*fn)(struct timer_list *timer), unsigned int flags);

/* timer_pending - is timer queued (not yet expired)? */
static inline bool timer_pending(const struct timer_list *timer)
{
	return READ_ONCE(timer->entry.next) != &timer->entry &&
	       READ_ONCE(timer->entry.next) != NULL;
}

/* add_timer - queue an idle timer for timer->expires.  Context: any. */
void add_timer(struct timer_list *timer);

/* mod_timer - (re)queue timer for expires; returns 1 if it was pending,
 * 0 if not.  Context: any.  Locking: takes the timer's base lock. */
int mod_timer(struct timer_list *timer, unsigned long expires);

/* del_timer - dequeue timer; returns 1 if it was pending.  The callback
 * may still be running on return.  Context: any. */
int del_timer(struct timer_list *timer);

/* try_to_del_timer_sync - del_timer unless the callback is running
 * right now: then -1 and nothing changed. */
int try_to_del_timer_sync(struct timer_list *timer);

/* del_timer_sync - dequeue timer and wait for a running callback to
 * return; returns 1 if it was pending.  A callback that re-queues itself
 * is stopped too.  Context: task (sleeps) or softirq under non-rt
 * (spins); never from the timer's own callback. */
int del_timer_sync(struct timer_list *timer);

/*
 * wait_for_timer - the article's "Miscellaneous": wait for timer to
 * expire, i.e. until it is neither pending nor running its callback.
 * Needed because under rt callbacks run preemptible and may block, so
 * "it fired" and "it finished" are far apart.  A timer that re-queues
 * itself from its callback never satisfies this; use del_timer_sync().
 * Context: task, sleeps.
 */
void wait_for_timer(struct timer_list *timer);

/* get_next_timer_interrupt - when this CPU's first pending timer is
 * due, for NO_HZ idle: basem (the ktime of jiffy basej) if it is due by
 * basej, else basem + (expires - basej) * TICK_NSEC; KTIME_MAX if this
 * CPU has no timer.  Context: interrupts off. */
s64 get_next_timer_interrupt(unsigned long basej, s64 basem);

/* run_local_timers - from the tick: raise TIMER_SOFTIRQ if this CPU has
 * an expired timer.  Context: hardirq, interrupts off. */
void run_local_timers(void);

/* init_timers - every online CPU's timer base; open TIMER_SOFTIRQ.
 * Context: boot, once, after smp_init(). */
void init_timers(void);

#endif /* KERNEL_TIME_TIMER_H */
