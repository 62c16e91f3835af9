/*
 * kernel/sched/rt_bandwidth.c - RT throttling: the SCHED_FIFO/RR class
 * gets at most sched_rt_runtime_us of every sched_rt_period_us on each
 * CPU (kernel/sched/rt_bandwidth.h has the settings).
 *
 * Per CPU, under rq->lock (rq->rt_time, rt_throttled, rt_period_timer):
 *  [1] update_curr charges the time an RT curr ran -- at the tick, at
 *      every switch, at a priority change -- to rq->rt_time
 *      (update_curr_rt), and starts the CPU's period timer if it is off;
 *  [2] once rt_time exceeds the runtime the CPU's RT class is throttled
 *      (sched_rt_runtime_exceeded): curr is rescheduled and the pick
 *      (core.c pick_next_task) passes over the RT queues, so SCHED_OTHER
 *      tasks, or the idle task, run; "sched: RT throttling activated" is
 *      printed once per boot;
 *  [3] the period timer (do_sched_rt_period_timer) takes one runtime off
 *      rt_time for every period that passed; once rt_time is below the
 *      runtime the class is unthrottled and curr rescheduled;
 *  [4] the timer stops after a period with no RT time left and no RT
 *      task queued; the next charge starts it again.
 * With the defaults a FIFO-99 loop gets 950 ms of each second and leaves
 * 50 ms to everything else on its CPU; with runtime -1 it gets it all.
 *
 * Not throttled: tasks marked PF_UNTHROTTLED, which the pick still takes
 * while their CPU is throttled (charged like any RT task): under rt the
 * irq threads and ksoftirqd -- the work the other three models do in
 * hard- and soft-irq context, which no throttle holds back -- and the
 * soft-lockup watchdog, which Linux runs in the stopper class, above RT
 * and outside throttling.  Linux PREEMPT_RT throttles its irq threads
 * with the rest of the class; rtk does not, because then a FIFO-99 loop
 * on every CPU keeps the console's irq thread (FIFO 50) off the CPU for
 * good -- below the loop in the 95%, throttled in the 5% -- and the
 * shell, SCHED_OTHER, gets the CPU every period but never its input.
 * A task boosted by priority inheritance is throttled as the RT task it
 * has become, as in Linux; a PF_UNTHROTTLED waiter then waits for the
 * next period.
 *
 * Linux counterpart: kernel/sched/rt.c (update_curr_rt,
 * sched_rt_runtime_exceeded, sched_rt_period_timer,
 * do_sched_rt_period_timer, sched_rt_handler), without RT group
 * scheduling and without RT_RUNTIME_SHARE (off by default since Linux
 * 5.10: a throttled CPU does not borrow runtime from the others).  One
 * difference of mechanism: Linux has one period timer for all CPUs
 * (def_rt_bandwidth) whose callback locks every rq in turn; rtk has one
 * per CPU, each expiring on the same grid (multiples of the period since
 * boot), so all CPUs' periods begin together as under Linux's single
 * timer, no hard irq takes another CPU's rq->lock, and no timer ever
 * moves between CPUs (hrtimer_start queues on the calling CPU).
 * Spec: Linux Documentation/scheduler/sched-rt-group.rst, "2.1 System
 * wide settings".
 */
#include "kernel/sched/rq.h"
#include "kernel/sched/rt_bandwidth.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/errno.h"

#define RUNTIME_INF ((u64)~0ULL)

/* The settings, in us (Linux's sysctl_sched_rt_period/_runtime): written
 * under settings_lock, read locklessly (a reader may see one new value
 * and one old one for a moment; a runtime above the period then only
 * throttles nothing). */
static int sysctl_sched_rt_period = SCHED_RT_PERIOD_US_DEFAULT;
static int sysctl_sched_rt_runtime = SCHED_RT_RUNTIME_US_DEFAULT;
static DEFINE_RAW_SPINLOCK(settings_lock);
static bool throttling_reported;	/* "activated", printed once */

static u64 sched_rt_period_ns(void)
{
	return (u64)READ_ONCE(sysctl_sched_rt_period) * NSEC_PER_USEC;
}

/* sched_rt_runtime_ns - Linux's global_rt_runtime(). */
static u64 sched_rt_runtime_ns(void)
{
	int us = READ_ONCE(sysctl_sched_rt_runtime);

	return us < 0 ? RUNTIME_INF : (u64)us * NSEC_PER_USEC;
}

/* next_period - the first period boundary after now: the grid every
 * CPU's timer keeps to (see the file header). */
static ktime_t next_period(ktime_t now, u64 period)
{
	return (ktime_t)(((u64)now / period + 1) * period);
}

/*
 * start_rt_period_timer - [1]: arm this CPU's period timer if it is off.
 * Only the CPU that owns rq arms it, so the timer stays on its CPU; a
 * charge made from another CPU (sched_setscheduler of a task running
 * here) leaves it to this CPU's next tick, which charges and arms.
 * Linux: start_rt_bandwidth (do_start_rt_bandwidth).
 * Locking: rq->lock held; takes this CPU's hrtimer base lock.
 */
static void start_rt_period_timer(struct rq *rq)
{
	raw_spin_assert_held(&rq->lock);
	if (rq->rt_period_active || rq->cpu != raw_smp_processor_id())
		return;
	rq->rt_period_active = true;
	hrtimer_start(&rq->rt_period_timer,
		      next_period(ktime_get(), sched_rt_period_ns()));
}

/*
 * sched_rt_runtime_exceeded - [2]: is rq's RT class throttled now,
 * having just been charged?  Throttles it when rt_time went past the
 * runtime.  A runtime of 0 throttles nothing, as in Linux (there "a
 * group with no runtime assigned": its rt_time is just reset).
 * rtk's printk writes the consoles synchronously and wakes no task, so
 * the report may be printed under rq->lock (Linux: printk_deferred_once).
 * Locking: rq->lock held.
 */
static bool sched_rt_runtime_exceeded(struct rq *rq, u64 runtime)
{
	raw_spin_assert_held(&rq->lock);
	if (rq->rt_throttled)
		return true;
	if (runtime >= sched_rt_period_ns() || rq->rt_time <= runtime)
		return false;
	if (!runtime) {
		rq->rt_time = 0;
		return false;
	}
	WRITE_ONCE(rq->rt_throttled, true);
	WRITE_ONCE(rq->rt_nr_throttled, rq->rt_nr_throttled + 1);
	if (!__atomic_exchange_n(&throttling_reported, true, __ATOMIC_RELAXED))
		pr_warn("sched: RT throttling activated\n");
	return true;
}

/*
 * update_curr_rt - [1] and [2] for delta ns that rq->curr, an RT task
 * (by its effective prio: a PI-boosted SCHED_OTHER task counts), ran;
 * update_curr calls it for every curr, delta 0 for one that is not RT,
 * so that a CPU throttled by a charge made from another CPU, or left
 * with RT time, arms its timer at its own next tick or switch.
 * A throttled CPU reschedules its curr unless curr is PF_UNTHROTTLED.
 * Context: update_curr.  Locking: rq->lock held.
 */
void update_curr_rt(struct rq *rq, u64 delta)
{
	u64 runtime = sched_rt_runtime_ns();

	raw_spin_assert_held(&rq->lock);
	if (runtime == RUNTIME_INF)
		return;
	if (delta) {
		rq->rt_time += delta;
		if (sched_rt_runtime_exceeded(rq, runtime) &&
		    !(rq->curr->flags & PF_UNTHROTTLED))
			resched_curr(rq);
	}
	if (rq->rt_time || rq->rt_throttled)
		start_rt_period_timer(rq);
}

/*
 * pick_rt_unthrottled - the pick on a throttled rq: the most important
 * queued PF_UNTHROTTLED task, or NULL.  A walk of the queued RT tasks
 * rather than O(1): it runs only while throttled, over a CPU's few.
 * Locking: rq->lock held.
 */
struct task_struct *pick_rt_unthrottled(struct rq *rq)
{
	int prio;
	struct task_struct *p;

	raw_spin_assert_held(&rq->lock);
	for (prio = rt_prio_array_highest(&rq->rt); prio < MAX_RT_PRIO;
	     prio++)
		list_for_each_entry(p, &rq->rt.queue[prio], run_list)
			if (p->flags & PF_UNTHROTTLED)
				return p;
	return NULL;
}

/*
 * unthrottle - rq's RT class may run again: reschedule curr if an RT
 * task waits (Linux: sched_rt_rq_enqueue).  Locking: rq->lock held.
 */
static void unthrottle(struct rq *rq)
{
	raw_spin_assert_held(&rq->lock);
	WRITE_ONCE(rq->rt_throttled, false);
	if (!rt_prio_array_empty(&rq->rt))
		resched_curr(rq);
}

/*
 * do_sched_rt_period_timer - [3] and [4] for overrun periods that ended.
 * Returns true when the timer may stop (no RT time left, no RT task
 * queued, not throttled: Linux's "idle").
 * Locking: rq->lock held.
 */
static bool do_sched_rt_period_timer(struct rq *rq, u64 overrun)
{
	u64 runtime = sched_rt_runtime_ns();

	raw_spin_assert_held(&rq->lock);
	rq->rt_nr_periods++;
	if (rq->rt_time) {
		if (runtime == RUNTIME_INF)
			rq->rt_time = 0;
		else
			rq->rt_time -= min(rq->rt_time, overrun * runtime);
		if (rq->rt_throttled &&
		    (runtime == RUNTIME_INF || rq->rt_time < runtime))
			unthrottle(rq);
	} else if (rq->rt_throttled) {
		unthrottle(rq);		/* reset by a runtime change */
	}
	return !rq->rt_time && !rq->rt_throttled &&
	       rt_prio_array_empty(&rq->rt);
}

/*
 * sched_rt_period_timer - the period timer's callback: count the periods
 * that ended (Linux: hrtimer_forward_now's overrun), replenish, and stay
 * armed on the grid unless the CPU has gone RT-idle.
 * Context: hard irq (the tick's hrtimer expiry), on rq's CPU.
 * Locking: takes rq->lock (the hrtimer base lock is not held here).
 */
static enum hrtimer_restart sched_rt_period_timer(struct hrtimer *timer)
{
	struct rq *rq = container_of(timer, struct rq, rt_period_timer);
	u64 period = sched_rt_period_ns();
	ktime_t now = ktime_get();
	u64 overrun = (u64)(now - timer->expires) / period + 1;
	enum hrtimer_restart ret = HRTIMER_RESTART;

	BUG_ON(!raw_irqs_disabled() || rq->cpu != raw_smp_processor_id());
	raw_spin_lock(&rq->lock);
	if (do_sched_rt_period_timer(rq, overrun)) {
		rq->rt_period_active = false;
		ret = HRTIMER_NORESTART;
	}
	timer->expires = next_period(now, period);
	raw_spin_unlock(&rq->lock);
	return ret;
}

/* rt_bandwidth_init - rq's RT bandwidth state at boot: not throttled, no
 * time charged, the timer off.  Context: boot (sched_init). */
void __init rt_bandwidth_init(struct rq *rq)
{
	hrtimer_init(&rq->rt_period_timer, sched_rt_period_timer);
}

int sched_rt_bandwidth_set(int period_us, int runtime_us)
{
	unsigned long flags;
	int cpu;

	if (period_us < 1 || runtime_us < SCHED_RT_RUNTIME_INF_US ||
	    (runtime_us != SCHED_RT_RUNTIME_INF_US && runtime_us > period_us))
		return -EINVAL;
	raw_spin_lock_irqsave(&settings_lock, flags);
	WRITE_ONCE(sysctl_sched_rt_period, period_us);
	WRITE_ONCE(sysctl_sched_rt_runtime, runtime_us);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct rq *rq = cpu_rq(cpu);
		u64 runtime = sched_rt_runtime_ns();

		raw_spin_lock(&rq->lock);
		if (runtime == RUNTIME_INF)
			rq->rt_time = 0;
		if (rq->rt_throttled && rq->rt_time < runtime)
			unthrottle(rq);
		raw_spin_unlock(&rq->lock);
	}
	raw_spin_unlock_irqrestore(&settings_lock, flags);
	return 0;
}

void sched_rt_bandwidth_get(int *period_us, int *runtime_us)
{
	*period_us = READ_ONCE(sysctl_sched_rt_period);
	*runtime_us = READ_ONCE(sysctl_sched_rt_runtime);
}

unsigned long sched_rt_nr_throttled(int cpu)
{
	return READ_ONCE(cpu_rq(cpu)->rt_nr_throttled);
}

bool sched_rt_throttled(int cpu)
{
	return READ_ONCE(cpu_rq(cpu)->rt_throttled);
}
