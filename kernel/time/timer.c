/*
 * kernel/time/timer.c - timer_list on per-CPU bases: a list sorted by
 * expiry, run from TIMER_SOFTIRQ against jiffies (contract in timer.h).
 *
 * A sorted list makes adding O(n) and expiry O(1); rtk's timers are few
 * (tests, drivers), so the wheel's O(1) insertion is not worth its
 * cascading here.  A timer stays on the base of the CPU that first
 * queued it (timer->base is set once), which keeps lock_timer_base()
 * trivial and del_timer_sync() one-base.
 * Expiry (run_timers, the TIMER_SOFTIRQ action):
 *	[1] base lock, interrupts off: take the first timer if expired,
 *	    unlink it, note it as base->running_timer
 *	[2] drop the lock, interrupts on: call it (under rt: in
 *	    ksoftirqd/N, preemptible, may sleep)
 *	[3] lock again, running_timer = NULL, wake wait_for_timer() and
 *	    del_timer_sync() waiters (pairs with their wait_event in
 *	    wait_for_running()); back to [1]
 * Linux counterpart: kernel/time/timer.c (struct timer_base,
 * __run_timers, try_to_del_timer_sync, del_timer_sync); the 2.6 -rt
 * patch's wait_for_timer and base->wait_for_running_timer.
 */
#include "kernel/time/timer.h"
#include "kernel/time/tick.h"
#include "kernel/time/hrtimer.h"
#include "kernel/irq/softirq.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "kernel/smp.h"
#include "lib/bug.h"

struct timer_base {
	raw_spinlock_t lock;		/* taken with interrupts off */
	/* under lock: */
	struct list_head pending;	/* timers by expires, earliest first */
	struct timer_list *running_timer; /* callback running now, or NULL */
	/* constant after init_timers: */
	wait_queue_head_t running_wq;	/* woken after each callback */
	int cpu;			/* the CPU whose tick runs it */
	bool ready;
};

static DEFINE_PER_CPU(struct timer_base, timer_bases);

/* jiffies_reached - has jiffies got to expires (wrap-safe)? */
static bool jiffies_reached(unsigned long expires)
{
	return (long)(READ_ONCE(jiffies) - expires) >= 0;
}

void timer_setup(struct timer_list *timer,
		 void (*fn)(struct timer_list *timer), unsigned int flags)
{
	INIT_LIST_HEAD(&timer->entry);
	timer->function = fn;
	timer->flags = flags;
	timer->expires = 0;
	timer->base = NULL;
}

/* lock_timer_base - the timer's base, locked; the first use picks this
 * CPU's.  Context: any.  Locking: takes base->lock with interrupts off. */
static struct timer_base *lock_timer_base(struct timer_list *timer,
					  unsigned long *flags)
{
	struct timer_base *base;

	raw_local_irq_save(*flags);
	base = READ_ONCE(timer->base);
	if (!base)
		base = this_cpu_ptr(&timer_bases);
	BUG_ON(!base->ready);
	raw_spin_lock(&base->lock);
	if (!timer->base)
		timer->base = base;
	return base;
}

static void unlock_timer_base(struct timer_base *base, unsigned long flags)
{
	raw_spin_unlock(&base->lock);
	raw_local_irq_restore(flags);
}

/* enqueue_timer - insert in expiry order (after equals: FIFO).
 * Locking: base->lock held. */
static void enqueue_timer(struct timer_base *base, struct timer_list *timer)
{
	struct list_head *pos;

	raw_spin_assert_held(&base->lock);
	list_for_each(pos, &base->pending) {
		struct timer_list *t = list_entry(pos, struct timer_list, entry);

		if ((long)(t->expires - timer->expires) > 0)
			break;
	}
	list_add_tail(&timer->entry, pos);
}

/* detach_timer - unlink if pending; returns whether it was. */
static int detach_timer(struct timer_list *timer)
{
	if (list_empty(&timer->entry))
		return 0;
	list_del_init(&timer->entry);
	return 1;
}

/*
 * trigger_dyntick_cpu - timer went first on another CPU's base: if that
 * CPU idles with its tick stopped (NO_HZ), its event is programmed for
 * the old first timer; kick it so its idle loop reprograms
 * (tick_nohz_idle_enter reads the list again).  Linux: the same name.
 *
 *	CPU0 (mod_timer)                 CPU1 (idle, interrupts off)
 *	                                 tick_nohz_idle_enter:
 *	                                   stopped = true; full fence
 *	                                   lock base(CPU1)
 *	                                   next = first timer's expiry
 *	                                   unlock; program next
 *	lock base(CPU1)
 *	enqueue t, now first
 *	stopped?  yes: reschedule IPI -> arch_idle() ends at once (IPI
 *	                                 pending); idle loop: enter again,
 *	                                 next = t's expiry, reprogram
 * The base lock orders the two sections: if CPU0's comes first, CPU1
 * reads t; if CPU1's does, its stopped store (made before it took the
 * lock) is seen by CPU0, which kicks.  An IPI sent before CPU1 halts
 * stays pending and ends the halt: it cannot be lost.  Forced by
 * test_remote_timer_kicks_a_tickless_cpu (tests/kernel/test_tick_nohz.c),
 * which holds CPU1 in tick_nohz_idle_enter_window after "program next".
 * Locking: base->lock held, interrupts off.
 */
static void trigger_dyntick_cpu(struct timer_base *base,
				struct timer_list *timer)
{
	raw_spin_assert_held(&base->lock);
	if (base->cpu == raw_smp_processor_id() ||
	    list_first_entry(&base->pending, struct timer_list, entry) != timer)
		return;
	if (tick_nohz_tick_stopped_cpu(base->cpu))
		smp_send_reschedule(base->cpu);
}

int mod_timer(struct timer_list *timer, unsigned long expires)
{
	struct timer_base *base;
	unsigned long flags;
	int was_pending;

	BUG_ON(!timer->function);
	base = lock_timer_base(timer, &flags);
	was_pending = detach_timer(timer);
	timer->expires = expires;
	enqueue_timer(base, timer);
	trigger_dyntick_cpu(base, timer);
	unlock_timer_base(base, flags);
	return was_pending;
}

void add_timer(struct timer_list *timer)
{
	BUG_ON(timer_pending(timer));
	mod_timer(timer, timer->expires);
}

int del_timer(struct timer_list *timer)
{
	struct timer_base *base;
	unsigned long flags;
	int ret;

	if (!READ_ONCE(timer->base))
		return 0;	/* never queued */
	base = lock_timer_base(timer, &flags);
	ret = detach_timer(timer);
	unlock_timer_base(base, flags);
	return ret;
}

int try_to_del_timer_sync(struct timer_list *timer)
{
	struct timer_base *base;
	unsigned long flags;
	int ret = -1;

	if (!READ_ONCE(timer->base))
		return 0;
	base = lock_timer_base(timer, &flags);
	if (base->running_timer != timer)
		ret = detach_timer(timer);
	unlock_timer_base(base, flags);
	return ret;
}

/* timer_quiet - cond of the waits below, read under the base lock. */
static bool timer_quiet(struct timer_base *base, struct timer_list *timer,
			bool and_not_pending)
{
	unsigned long flags;
	bool quiet;

	raw_spin_lock_irqsave(&base->lock, flags);
	quiet = base->running_timer != timer &&
		!(and_not_pending && !list_empty(&timer->entry));
	raw_spin_unlock_irqrestore(&base->lock, flags);
	return quiet;
}

/*
 * wait_for_running - wait until timer's callback is not running (and,
 * with and_not_pending, the timer not queued either).  Sleeps on the
 * base's wait queue when the caller may sleep; in softirq context
 * (non-rt del_timer_sync from another timer) the callback runs on
 * another CPU and ends soon: spin.
 * Context: task (sleeps) or softirq.
 */
static void wait_for_running(struct timer_list *timer, bool and_not_pending)
{
	struct timer_base *base = READ_ONCE(timer->base);

	if (!base)
		return;
	if (in_interrupt() || raw_irqs_disabled()) {
		while (!timer_quiet(base, timer, and_not_pending))
			arch_cpu_relax();
		return;
	}
	wait_event(base->running_wq, timer_quiet(base, timer, and_not_pending));
}

int del_timer_sync(struct timer_list *timer)
{
	int ret;

	BUG_ON(in_irq());
	while ((ret = try_to_del_timer_sync(timer)) < 0)
		wait_for_running(timer, false);
	return ret;
}

void wait_for_timer(struct timer_list *timer)
{
	might_sleep();
	wait_for_running(timer, true);
}

/*
 * run_timers - the TIMER_SOFTIRQ action: steps [1]-[3] for this CPU.
 * Context: softirq (non-rt) or ksoftirqd/N (rt), interrupts on.
 */
static void run_timers(void)
{
	struct timer_base *base = this_cpu_ptr(&timer_bases);
	struct timer_list *timer;

	raw_spin_lock_irq(&base->lock);
	while (!list_empty(&base->pending)) {				/* [1] */
		timer = list_first_entry(&base->pending, struct timer_list,
					 entry);
		if (!jiffies_reached(timer->expires))
			break;
		list_del_init(&timer->entry);
		base->running_timer = timer;
		raw_spin_unlock_irq(&base->lock);
		timer->function(timer);					/* [2] */
		raw_spin_lock_irq(&base->lock);				/* [3] */
		base->running_timer = NULL;
		raw_spin_unlock_irq(&base->lock);
		wake_up_all(&base->running_wq);
		raw_spin_lock_irq(&base->lock);
	}
	raw_spin_unlock_irq(&base->lock);
}

void run_local_timers(void)
{
	struct timer_base *base = this_cpu_ptr(&timer_bases);
	struct timer_list *first;
	bool due = false;

	BUG_ON(!raw_irqs_disabled());
	if (!base->ready)
		return;
	raw_spin_lock(&base->lock);
	if (!list_empty(&base->pending)) {
		first = list_first_entry(&base->pending, struct timer_list,
					 entry);
		due = jiffies_reached(first->expires);
	}
	raw_spin_unlock(&base->lock);
	if (due)
		raise_softirq_irqoff(TIMER_SOFTIRQ);
}

/*
 * get_next_timer_interrupt - see timer.h.  The list is sorted, so the
 * first entry is the answer.  A timer another CPU queues here later, in
 * front of it, kicks this CPU (mod_timer, trigger_dyntick_cpu), whose
 * idle loop then asks again.
 * Context: interrupts off.  Locking: takes base->lock.
 */
s64 get_next_timer_interrupt(unsigned long basej, s64 basem)
{
	struct timer_base *base = this_cpu_ptr(&timer_bases);
	s64 next = KTIME_MAX;

	BUG_ON(!raw_irqs_disabled());
	if (!base->ready)
		return next;
	raw_spin_lock(&base->lock);
	if (!list_empty(&base->pending)) {
		struct timer_list *first = list_first_entry(
			&base->pending, struct timer_list, entry);
		long delta = (long)(first->expires - basej);

		next = basem + (delta > 0 ? delta * (s64)TICK_NSEC : 0);
	}
	raw_spin_unlock(&base->lock);
	return next;
}

void __init init_timers(void)
{
	int cpu;

	open_softirq(TIMER_SOFTIRQ, run_timers);
	for_each_online_cpu(cpu) {
		struct timer_base *base = &per_cpu(timer_bases, cpu);

		raw_spin_lock_init(&base->lock);
		INIT_LIST_HEAD(&base->pending);
		init_waitqueue_head(&base->running_wq);
		base->running_timer = NULL;
		base->cpu = cpu;
		__atomic_store_n(&base->ready, true, __ATOMIC_RELEASE);
	}
}
