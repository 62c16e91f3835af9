/*
 * kernel/time/hrtimer.c - the per-CPU hrtimer queue.
 *
 * Each CPU has one queue, a list sorted by expiry (insertion walks it:
 * rtk has few timers at once; Linux uses a timerqueue rbtree).  A timer
 * is queued on the CPU that starts it and fires there, from
 * tick_timer_interrupt(), which programs the CPU's one-shot timer for
 * min(next tick, first timer).  The callback runs in hard-irq context
 * with the queue unlocked, so it may re-arm its own timer
 * (HRTIMER_RESTART) or start others.
 * Races: a cancel on CPU1 of a timer whose callback runs on CPU0 waits
 * until base->running is no longer that timer (Linux:
 * hrtimer_cancel_wait_running).
 * Linux counterpart: kernel/time/hrtimer.c (one clock base, no softirq
 * expiry, no migration to an idle CPU).
 */
#include "kernel/time/hrtimer.h"
#include "kernel/time/tick.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/percpu.h"
#include "kernel/preempt_count.h"
#include "kernel/debug/hooks.h"
#include "lib/bug.h"

DEFINE_RACE_WINDOW(hrtimer_callback_returned);
DEFINE_RACE_WINDOW(hrtimer_cancel_waiting);
DEFINE_RACE_WINDOW(hrtimer_start_rearm_window);

/*
 * struct hrtimer_cpu_base - one CPU's queue.  lock is a raw_spinlock_t:
 * the queue is run from the tick's hard interrupt under every model.
 * Nothing raw_spin_lock calls (preempt_count, the latency hooks and
 * LATENCY_TRACE's __fentry__, the stuck-lock check's ktime_get) starts
 * or cancels an hrtimer, so taking it cannot recurse into a base lock.
 */
struct hrtimer_cpu_base {
	raw_spinlock_t lock;
	/* protected by lock */
	struct list_head active;	/* queued timers, earliest first */
	struct hrtimer *running;	/* callback executing now, or NULL */
	bool initialised;		/* active is a valid list head */
};

/*
 * The static initialiser is in the per-CPU template, which
 * percpu_alloc_cpu() copies byte for byte: every CPU's copy starts as an
 * unlocked lock with owner_cpu -1 and a name (the lock holds no pointer
 * to itself).  active does (a list head points at itself), so it is
 * initialised lazily on first use, under the lock.
 */
static DEFINE_PER_CPU(struct hrtimer_cpu_base, hrtimer_bases) = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(hrtimer_bases.lock),
};

/* base_lock_irqsave - take base->lock with irqs off and make sure the
 * queue head is valid.  Context: any; never sleeps.  Locking: takes
 * base->lock (base_unlock_irqrestore drops it). */
static unsigned long base_lock_irqsave(struct hrtimer_cpu_base *base)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&base->lock, flags);
	if (!base->initialised) {
		INIT_LIST_HEAD(&base->active);
		base->initialised = true;
	}
	return flags;
}

static void base_unlock_irqrestore(struct hrtimer_cpu_base *base,
				   unsigned long flags)
{
	raw_spin_unlock_irqrestore(&base->lock, flags);
}

void hrtimer_init(struct hrtimer *timer,
		  enum hrtimer_restart (*fn)(struct hrtimer *timer))
{
	timer->expires = 0;
	INIT_LIST_HEAD(&timer->node);
	timer->base = NULL;
	timer->queued = false;
	timer->function = fn;
}

/* enqueue - sorted insert, after timers with the same expiry (FIFO).
 * Returns true if timer is now the first.  Locking: base->lock held. */
static bool enqueue(struct hrtimer_cpu_base *base, struct hrtimer *timer)
{
	struct hrtimer *pos;

	raw_spin_assert_held(&base->lock);
	list_for_each_entry(pos, &base->active, node) {
		if (pos->expires > timer->expires) {
			list_add_tail(&timer->node, &pos->node);
			goto out;
		}
	}
	list_add_tail(&timer->node, &base->active);
out:
	timer->base = base;
	timer->queued = true;
	return base->active.next == &timer->node;
}

/* dequeue - Locking: timer->base->lock held. */
static void dequeue(struct hrtimer *timer)
{
	raw_spin_assert_held(&timer->base->lock);
	list_del_init(&timer->node);
	timer->queued = false;
}

/*
 * remove_timer - take timer off whatever queue holds it.  The timer can
 * only move between queues under its old base's lock, so re-check after
 * locking.  Returns 1 if it was queued, 0 if not, and -1 without
 * touching it if busy_fails and its callback runs on another CPU right
 * now (Linux: hrtimer_try_to_cancel).
 */
static int remove_timer(struct hrtimer *timer, bool busy_fails)
{
	struct hrtimer_cpu_base *base;
	unsigned long flags;
	int was = 0;

	for (;;) {
		base = READ_ONCE(timer->base);
		if (!base)
			return 0;
		flags = base_lock_irqsave(base);
		if (timer->base == base)
			break;
		base_unlock_irqrestore(base, flags);
	}
	if (busy_fails && base->running == timer &&
	    base != this_cpu_ptr(&hrtimer_bases)) {
		was = -1;
	} else if (timer->queued) {
		dequeue(timer);
		was = 1;
	}
	base_unlock_irqrestore(base, flags);
	return was;
}

/*
 * lock_start_base - lock the base hrtimer_start queues timer on: its
 * current base while its callback runs there, else this CPU's.  A timer
 * whose callback runs on another CPU must stay on that base, or
 * hrtimer_cancel looks for running on the wrong one:
 *
 *	CPU0 (hrtimer_run_queues)		CPU1
 *	running = t; t->function(t) ...
 *						hrtimer_start(t): t moves to
 *						base1, queued
 *						hrtimer_cancel(t): dequeues on
 *						base1, base1->running != t,
 *						returns; frees t
 *	... t->function still uses t		(use-after-free)
 *
 * Linux: switch_hrtimer_base() keeps a timer whose callback runs on its
 * base (hrtimer_callback_running).  Forced by tests/kernel/
 * test_hrtimer_cancel.c (..._waits_for_a_callback_restarted_elsewhere).
 * Context: interrupts off.  Locking: returns with the base's lock held
 * (flags in *inner for base_unlock_irqrestore).
 */
static struct hrtimer_cpu_base *lock_start_base(struct hrtimer *timer,
						unsigned long *inner)
{
	struct hrtimer_cpu_base *here = this_cpu_ptr(&hrtimer_bases);
	struct hrtimer_cpu_base *base;

	BUG_ON(!irqs_disabled());
	for (;;) {
		base = READ_ONCE(timer->base);
		if (!base || base == here)
			break;
		*inner = base_lock_irqsave(base);
		if (timer->base == base) {
			if (base->running == timer)
				return base;	/* stays; see diagram */
			if (timer->queued)
				dequeue(timer);
			base_unlock_irqrestore(base, *inner);
			break;
		}
		base_unlock_irqrestore(base, *inner);
	}
	*inner = base_lock_irqsave(here);
	return here;
}

/*
 * hrtimer_start - see hrtimer.h.  A new earliest deadline moves this
 * CPU's one-shot event forward (inside the timer interrupt this is
 * redone on its way out; harmless), and that must happen on the CPU
 * whose queue took the timer, so interrupts stay off until it is done.
 * Re-armed after they came back on, a preemptible caller could move:
 *
 *	CPU0 (T, unbound, preemptible)		CPU1
 *	enqueue(t) on CPU0's base, unlock;
 *	interrupts on; preempted, T moves	T runs on: tick_reprogram()
 *	CPU0 busy: its event stays at the	arms CPU1's event for CPU1's
 *	next tick, so t fires up to 1/HZ late	queue, which t is not in
 *
 * The same window without a move: an interrupt, or a higher-priority
 * task it wakes, taken between the enqueue and the re-arming finds the
 * event still armed for the tick, and t waits for it.  Forced by
 * tests/kernel/test_latbreak.c (hrtimer_start_rearm_window: the CPU's
 * tick came inside the window, "armed late" on the old order).
 * (Linux: hrtimer_start_range_ns() re-arms under the base lock.)
 * Context: any but t's own callback on another CPU; never sleeps.
 * Locking: takes this CPU's base lock.
 */
void hrtimer_start(struct hrtimer *timer, ktime_t expires)
{
	struct hrtimer_cpu_base *base;
	unsigned long flags, inner;
	bool first;

	BUG_ON(!timer->function);
	raw_local_irq_save(flags);	/* stay on this CPU */
	base = lock_start_base(timer, &inner);
	if (timer->queued)
		dequeue(timer);
	timer->expires = expires;
	first = enqueue(base, timer);
	if (base != this_cpu_ptr(&hrtimer_bases))
		first = false;	/* its CPU re-arms leaving run_queues */
	base_unlock_irqrestore(base, inner);	/* interrupts stay off */
	trace_race_window(&hrtimer_start_rearm_window);
	if (first)
		tick_reprogram();
	raw_local_irq_restore(flags);
}

/*
 * hrtimer_cancel - see hrtimer.h.  A callback running on another CPU
 * may re-queue the timer when it returns (HRTIMER_RESTART), so a removal
 * that finds it running does nothing, waits the callback out and tries
 * again: only a removal made while no callback runs is final.
 *
 *	CPU0 (hrtimer_run_queues)		CPU1 (hrtimer_cancel)
 *	dequeue(t); running = t
 *	t->function(t) returns RESTART
 *						remove_timer: not queued
 *						wait while running == t
 *	enqueue(t); running = NULL
 *						return: t queued again (bug)
 * With the retry CPU1's first removal returns -1 (running), and the
 * second, after running == NULL, dequeues the re-armed timer.  Forced by
 * tests/kernel/test_hrtimer_cancel.c (race windows
 * hrtimer_callback_returned, hrtimer_cancel_waiting); found by the timer
 * torture (kernel/workloads/torture_timer.c).
 * Context: any except timer's own function; never sleeps (spins).
 * Locking: takes the timer's base lock.
 */
int hrtimer_cancel(struct hrtimer *timer)
{
	struct hrtimer_cpu_base *base;
	int was;

	while ((was = remove_timer(timer, true)) < 0) {
		/* [pairs with run_queues' running store] */
		base = READ_ONCE(timer->base);
		trace_race_window(&hrtimer_cancel_waiting);
		while (__atomic_load_n(&base->running, __ATOMIC_ACQUIRE) == timer)
			arch_cpu_relax();
	}
	return was;
}

bool hrtimer_active(const struct hrtimer *timer)
{
	struct hrtimer_cpu_base *base = READ_ONCE(timer->base);

	return READ_ONCE(timer->queued) ||
	       (base && READ_ONCE(base->running) == timer);
}

/*
 * hrtimer_run_queues - call every timer of this CPU due at now.
 * Context: hardirq (the tick), interrupts off.
 * Locking: takes this CPU's base lock, drops it around each callback.
 */
void hrtimer_run_queues(ktime_t now)
{
	struct hrtimer_cpu_base *base = this_cpu_ptr(&hrtimer_bases);
	unsigned long flags;

	BUG_ON(!in_irq());
	flags = base_lock_irqsave(base);
	while (!list_empty(&base->active)) {
		struct hrtimer *t = list_first_entry(&base->active,
						     struct hrtimer, node);
		enum hrtimer_restart r;

		if (t->expires > now)
			break;
		dequeue(t);
		__atomic_store_n(&base->running, t, __ATOMIC_RELEASE);
		base_unlock_irqrestore(base, flags);
		r = t->function(t);
		trace_race_window(&hrtimer_callback_returned);
		flags = base_lock_irqsave(base);
		if (r == HRTIMER_RESTART && !t->queued && t->base == base)
			enqueue(base, t);
		__atomic_store_n(&base->running, NULL, __ATOMIC_RELEASE);
	}
	base_unlock_irqrestore(base, flags);
}

ktime_t hrtimer_next_expiry(void)
{
	struct hrtimer_cpu_base *base = this_cpu_ptr(&hrtimer_bases);
	unsigned long flags = base_lock_irqsave(base);
	ktime_t next = KTIME_MAX;

	if (!list_empty(&base->active))
		next = list_first_entry(&base->active, struct hrtimer,
					node)->expires;
	base_unlock_irqrestore(base, flags);
	return next;
}
