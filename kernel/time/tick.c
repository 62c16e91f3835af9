/*
 * kernel/time/tick.c - each CPU's tick at HZ, driven by its one-shot
 * timer (arch_timer_set_oneshot), shared with the hrtimer queue.
 *
 * tick_timer_interrupt() is the whole per-CPU timer interrupt, the
 * handler of the machine's per-CPU timer line (ARCH_TIMER_IRQ), which
 * tick_init() requests with request_percpu_irq().  It runs in hard-irq
 * context under every preemption model: the article's per-CPU timer
 * interrupt keeps SA_NODELAY, so it must stay short and do only
 * bookkeeping:
 *	[1] if this CPU's tick is due: count it; on the boot CPU advance
 *	    jiffies by every period that passed (ticks missed while
 *	    interrupts were off are caught up, not lost); scheduler_tick()
 *	[2] expire this CPU's due hrtimers
 *	[3] program the next event at min(next tick, first hrtimer)
 * Linux counterpart: kernel/time/tick-sched.c (tick_sched_timer,
 * tick_do_update_jiffies64), tick-common.c (periodic tick emulated in
 * one-shot mode), kernel/time/timer.c (jiffies).  No NO_HZ (docs/latency.md
 * says why); the rate is the build option HZ (tick.h).
 */
#include "kernel/time/tick.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/timer.h"
#include "kernel/debug/latbreak.h"
#include "kernel/irq/manage.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"	/* scheduler_tick */
#include "kernel/percpu.h"
#include "kernel/preempt_count.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/bug.h"

#define TICK_DO_TIMER_CPU 0	/* the CPU that advances jiffies */

struct tick_cpu {
	ktime_t next_tick;	/* when this CPU's next tick is due */
	u64 ticks;		/* ticks handled */
	bool running;		/* tick_init_cpu() has run */
};

/* Touched only by its own CPU with interrupts off (ticks read remotely). */
static DEFINE_PER_CPU(struct tick_cpu, tick_cpus);

u64 jiffies;

u64 tick_count(int cpu)
{
	return READ_ONCE(per_cpu(tick_cpus, cpu).ticks);
}

ktime_t tick_next(int cpu)
{
	return READ_ONCE(per_cpu(tick_cpus, cpu).next_tick);
}

void tick_reprogram(void)
{
	struct tick_cpu *tc;
	unsigned long flags;
	ktime_t next;

	raw_local_irq_save(flags);
	tc = this_cpu_ptr(&tick_cpus);
	if (tc->running) {
		next = hrtimer_next_expiry();
		if (tc->next_tick < next)
			next = tc->next_tick;
		arch_timer_set_oneshot((u64)next);
	}
	raw_local_irq_restore(flags);
}

/*
 * tick_timer_interrupt - the per-CPU timer event: timekeeping
 * (jiffies), scheduler_tick(), hrtimer expiry, then the next event
 * programmed.  dev_id is this CPU's struct tick_cpu (request_percpu_irq
 * hands each CPU its own copy of tick_cpus).
 * Context: hardirq (SA_NODELAY: never threaded), interrupts off: its
 * flow, handle_percpu_irq, asserts that in arch_irq_ack() just before
 * the call, so the handler checks only that it runs as an interrupt
 * (asserting interrupts off here too cost every tick a second EFLAGS
 * read: +176 cycles per tick under -icount).
 */
static irqreturn_t tick_timer_interrupt(int irq, void *dev_id)
{
	struct tick_cpu *tc = dev_id;
	ktime_t now = ktime_get();

	BUG_ON(!in_irq());
	latbreak_tick_entry(now);
	if (unlikely(!tc->running))
		return IRQ_NONE;
	if (now >= tc->next_tick) {					/* [1] */
		u64 periods = (u64)(now - tc->next_tick) / TICK_NSEC + 1;

		tc->next_tick += (ktime_t)(periods * TICK_NSEC);
		WRITE_ONCE(tc->ticks, tc->ticks + 1);
		if (raw_smp_processor_id() == TICK_DO_TIMER_CPU)
			__atomic_fetch_add(&jiffies, periods, __ATOMIC_RELAXED);
		scheduler_tick();
		rcu_sched_clock_irq();	/* quiescent state outside a read section */
		run_local_timers();	/* TIMER_SOFTIRQ if one expired */
	}
	hrtimer_run_queues(now);					/* [2] */
	latbreak_reprogram();
	tick_reprogram();						/* [3] */
	latbreak_tick_exit();
	return IRQ_HANDLED;
}

/*
 * tick_grid_next - the first tick boundary after now: every CPU ticks on
 * the same grid, multiples of TICK_NSEC since ktime 0, as Linux's
 * per-CPU tick hrtimers all start from tick_init_jiffy_update()'s
 * boundary (tick_setup_sched_timer(), unless skew_tick=1).  A CPU
 * started later (an AP) joins the boot CPU's phase instead of ticking
 * at its own.  Linux's default, so correct on hardware; under QEMU 7.2
 * -icount it matters: a vCPU whose tick fell just before the busy
 * vCPU0's took itself off QEMU's one host thread with every tick's
 * timer write and starved behind vCPU0 for 50 ms to 2 s
 * (docs/latency.md, "Under -icount: what bounds the worst case";
 * tests/kernel/test_tick_grid.c).  Context: any.
 */
static ktime_t tick_grid_next(ktime_t now)
{
	return (ktime_t)(((u64)now / TICK_NSEC + 1) * TICK_NSEC);
}

/*
 * tick_init_cpu - see tick.h.
 * Context: the CPU itself, interrupts off.
 */
void tick_init_cpu(void)
{
	struct tick_cpu *tc = this_cpu_ptr(&tick_cpus);

	BUG_ON(!raw_irqs_disabled());
	arch_timer_init_cpu();
	tc->next_tick = tick_grid_next(ktime_get());
	tc->running = true;
	tick_reprogram();
}

/*
 * tick_init - see tick.h: the timer line requested like any other
 * interrupt (SA_NODELAY, per CPU), then the boot CPU's tick started.
 * Context: boot CPU, once, task, interrupts on; sleeps.
 */
void __init tick_init(void)
{
	unsigned long flags;
	int err;

	might_sleep();
	BUG_ON(raw_smp_processor_id() != TICK_DO_TIMER_CPU);
	err = request_percpu_irq(ARCH_TIMER_IRQ, tick_timer_interrupt, "timer",
				 &tick_cpus);
	if (err)
		panic("tick: request_percpu_irq(%d): %d", ARCH_TIMER_IRQ, err);
	raw_local_irq_save(flags);
	tick_init_cpu();
	raw_local_irq_restore(flags);
	pr_info("tick: HZ=%d per-CPU tick on one-shot timer events\n", HZ);
}
