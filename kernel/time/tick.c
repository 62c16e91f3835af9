/*
 * kernel/time/tick.c - each CPU's tick at HZ, driven by its one-shot
 * timer (arch_timer_set_oneshot), shared with the hrtimer queue; and
 * NO_HZ idle: an idle CPU stops its tick.
 *
 * tick_timer_interrupt() is the whole per-CPU timer interrupt, the
 * handler of the machine's per-CPU timer line (ARCH_TIMER_IRQ), which
 * tick_init() requests with request_percpu_irq().  It runs in hard-irq
 * context under every preemption model: the article's per-CPU timer
 * interrupt keeps SA_NODELAY, so it must stay short and do only
 * bookkeeping:
 *	[1] if this CPU's tick is due: count it; bring jiffies up to the
 *	    tick periods ktime has crossed (any CPU's tick may: ticks
 *	    missed while interrupts were off, or while every CPU idled
 *	    tickless, are caught up, not lost); scheduler_tick()
 *	[2] expire this CPU's due hrtimers
 *	[3] program the next event at min(next tick, first hrtimer)
 *
 * NO_HZ idle (build option NO_HZ=1, tick.h; boot parameter nohz=on|off).
 * An idle CPU needs no tick: nothing runs whose time to account or
 * slice, and its RCU quiescent state is reported on the way into idle.
 * What it still needs is an event for its first hrtimer and its first
 * timer_list timer, so on the way into the halt (interrupts off) the
 * idle loop calls tick_nohz_idle_enter():
 *	[4] report the idle quiescent state (rcu_idle_enter)
 *	[5] mark the tick stopped (before reading the timer list: see
 *	    trigger_dyntick_cpu in timer.c), bring jiffies up to date,
 *	    find this CPU's first timer_list expiry as a time
 *	    (get_next_timer_interrupt)
 *	[6] if that is not beyond the next tick, keep the tick; else move
 *	    next_tick there (at most TICK_NOHZ_MAX_NS ahead); [3]'s rule
 *	    then programs min(timer, hrtimer)
 * When the CPU leaves idle to run a task (the scheduler switching away
 * from the idle task, also at irq-exit preemption), tick_nohz_idle_exit
 * [7] brings jiffies up to date and, if the tick was stopped, puts
 * next_tick back on the next tick boundary and reprograms if that is
 * sooner than the programmed event.
 * An event that fires while the tick is stopped ([1] with stopped set)
 * runs as a tick and restarts it; the idle loop stops it again.
 * Who else relied on an idle CPU's tick, and what replaces it: RCU's
 * grace-period kthread kicks a tickless CPU that owes a quiescent
 * state (rcu.c); a remote mod_timer that goes first on a tickless CPU
 * kicks it (timer.c, trigger_dyntick_cpu); a busy CPU's tick kicks a
 * tickless one to pull SCHED_OTHER work (fair.c, nohz_balance_kick);
 * scheduler_tick's "idle with a task queued" check becomes the idle
 * loop's own check before it halts (idle.c).
 * Linux counterpart: kernel/time/tick-sched.c (tick_sched_timer,
 * tick_do_update_jiffies64, tick_nohz_idle_enter / _stop_tick /
 * _idle_exit / _restart), tick-common.c (periodic tick emulated in
 * one-shot mode), kernel/time/timer.c (jiffies).  Left out: NO_HZ_FULL
 * (a tickless single busy task), the idle-time statistics, the
 * tick_do_timer_cpu duty (jiffies are lock-free max() updates here).
 * The rate is the build option HZ (tick.h).
 */
#include "kernel/time/tick.h"
#include "kernel/time/hrtimer.h"
#include "kernel/time/timer.h"
#include "kernel/irq/manage.h"
#include "kernel/rcu/rcupdate.h"
#include "kernel/sched/sched.h"	/* scheduler_tick */
#include "kernel/cmdline.h"
#include "kernel/debug/hooks.h"
#include "kernel/percpu.h"
#include "kernel/preempt_count.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

struct tick_cpu {
	ktime_t next_tick;	/* next tick, or the stopped tick's event */
	ktime_t programmed;	/* event programmed now (KTIME_MAX: none) */
	u64 ticks;		/* ticks handled */
	u64 idle_stops;		/* times NO_HZ idle stopped the tick */
	bool running;		/* tick_init_cpu() has run */
	bool stopped;		/* NO_HZ idle: no periodic tick for now */
};

/* Touched only by its own CPU with interrupts off (ticks, idle_stops and
 * stopped read remotely). */
static DEFINE_PER_CPU(struct tick_cpu, tick_cpus);

u64 jiffies;
static ktime_t jiffies_epoch;	/* ktime of jiffy 0 (tick_init) */
/* NO_HZ idle on: the build's default (CONFIG_NO_HZ), nohz= overrides */
static bool tick_nohz_active = CONFIG_NO_HZ;
DEFINE_RACE_WINDOW(tick_nohz_idle_enter_window);

u64 tick_count(int cpu)
{
	return READ_ONCE(per_cpu(tick_cpus, cpu).ticks);
}

ktime_t tick_next_event(int cpu)
{
	return READ_ONCE(per_cpu(tick_cpus, cpu).programmed);
}

s64 tick_grid_offset(int cpu)
{
	ktime_t next = READ_ONCE(per_cpu(tick_cpus, cpu).next_tick);

	return (s64)((u64)(next - jiffies_epoch) % TICK_NSEC);
}

bool tick_nohz_enabled(void)
{
	return tick_nohz_active;
}

u64 tick_nohz_idle_stops(int cpu)
{
	return READ_ONCE(per_cpu(tick_cpus, cpu).idle_stops);
}

bool tick_nohz_tick_stopped_cpu(int cpu)
{
	return READ_ONCE(per_cpu(tick_cpus, cpu).stopped);
}

/*
 * tick_boundary - the first tick boundary (jiffies_epoch + k * TICK_NSEC)
 * after now.  Every CPU's tick starts and restarts on this one grid, as
 * Linux's per-CPU tick hrtimers all start from the same boundary
 * (tick_setup_sched_timer(), unless skew_tick=1): an AP joins the boot
 * CPU's phase instead of ticking at its own.  Linux's default, so right
 * on hardware; under QEMU 7.2 -icount it matters: a vCPU whose tick
 * fell just before the busy vCPU0's took itself off QEMU's one host
 * thread with every tick's timer write and starved behind vCPU0 for
 * 50 ms to 2 s (docs/latency.md, "Under -icount: what bounds the worst
 * case"; tests/kernel/test_tick_grid.c).
 */
static ktime_t tick_boundary(ktime_t now)
{
	return jiffies_epoch +
	       ((now - jiffies_epoch) / TICK_NSEC + 1) * TICK_NSEC;
}

/*
 * tick_do_update_jiffies - raise jiffies to the tick periods crossed by
 * now.  Any CPU may, with the same result: a compare-exchange that only
 * moves jiffies up, so two CPUs racing over one boundary count it once
 * (Linux: tick_do_update_jiffies64 under jiffies_lock, by the one
 * tick_do_timer_cpu).
 * Context: interrupts off.
 */
static void tick_do_update_jiffies(ktime_t now)
{
	u64 want = (u64)(now - jiffies_epoch) / TICK_NSEC;
	u64 old = __atomic_load_n(&jiffies, __ATOMIC_RELAXED);

	while (old < want &&
	       !__atomic_compare_exchange_n(&jiffies, &old, want, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

void tick_reprogram(void)
{
	struct tick_cpu *tc;
	unsigned long flags;
	ktime_t next;

	raw_local_irq_save(flags);
	trace_tick_reprogram();
	tc = this_cpu_ptr(&tick_cpus);
	if (tc->running) {
		next = hrtimer_next_expiry();
		if (tc->next_tick < next)
			next = tc->next_tick;
		/* unchanged: one timer-register write saved (each costs an
		 * emulator exit under QEMU, a bus access on real hardware) */
		if (next != tc->programmed) {
			tc->programmed = next;
			arch_timer_set_oneshot((u64)next);
		}
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
	if (unlikely(!tc->running))
		return IRQ_NONE;
	trace_tick_entry(tc->programmed, tc->next_tick, now);
	tc->programmed = KTIME_MAX;	/* the event fired */
	if (now >= tc->next_tick) {					/* [1] */
		if (tc->stopped) {	/* a stopped tick's event: restart */
			WRITE_ONCE(tc->stopped, false);
			tc->next_tick = tick_boundary(now);
		} else {
			u64 periods = (u64)(now - tc->next_tick) / TICK_NSEC + 1;

			tc->next_tick += (ktime_t)(periods * TICK_NSEC);
		}
		WRITE_ONCE(tc->ticks, tc->ticks + 1);
		tick_do_update_jiffies(now);
		scheduler_tick();
		rcu_sched_clock_irq();	/* quiescent state outside a read section */
		run_local_timers();	/* TIMER_SOFTIRQ if one expired */
	}
	hrtimer_run_queues(now);					/* [2] */
	tick_reprogram();						/* [3] */
	return IRQ_HANDLED;
}

/*
 * tick_nohz_idle_enter - see tick.h; steps [4]-[6] of the file header.
 * Context: the idle task, interrupts off, about to halt.
 */
void tick_nohz_idle_enter(void)
{
	struct tick_cpu *tc = this_cpu_ptr(&tick_cpus);
	unsigned long basej;
	ktime_t now, basem, next;
	bool was_stopped;

	BUG_ON(!raw_irqs_disabled());
	if (!tick_nohz_active || !tc->running)
		return;
	rcu_idle_enter();						/* [4] */
	was_stopped = tc->stopped;
	/* stopped before the timer list is read: pairs with the base lock
	 * and the check in trigger_dyntick_cpu (timer.c draws the race) */
	WRITE_ONCE(tc->stopped, true);					/* [5] */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	now = ktime_get();
	tick_do_update_jiffies(now);
	basej = (unsigned long)READ_ONCE(jiffies);
	basem = jiffies_epoch + (ktime_t)basej * TICK_NSEC;
	next = get_next_timer_interrupt(basej, basem);
	if (next > now + TICK_NOHZ_MAX_NS)
		next = now + TICK_NOHZ_MAX_NS;
	if (!was_stopped && next <= tc->next_tick) {			/* [6] */
		WRITE_ONCE(tc->stopped, false);	/* the tick comes first */
		return;
	}
	if (!was_stopped)
		WRITE_ONCE(tc->idle_stops, tc->idle_stops + 1);
	tc->next_tick = next;
	tick_reprogram();
	/* the event is programmed from the list as read: a timer queued
	 * from now on must kick (trigger_dyntick_cpu's diagram, timer.c) */
	trace_race_window(&tick_nohz_idle_enter_window);
}

/*
 * tick_nohz_idle_exit - see tick.h; step [7].
 * Context: this CPU, interrupts off (the scheduler, rq->lock held).
 */
void tick_nohz_idle_exit(void)
{
	struct tick_cpu *tc = this_cpu_ptr(&tick_cpus);
	ktime_t now;

	BUG_ON(!raw_irqs_disabled());
	if (!tick_nohz_active)
		return;
	/* also with the tick kept: jiffies are right for the task that
	 * runs now even if the host delays this CPU's next tick */
	now = ktime_get();
	tick_do_update_jiffies(now);
	if (!tc->stopped)
		return;
	WRITE_ONCE(tc->stopped, false);
	tc->next_tick = tick_boundary(now);
	if (tc->next_tick < tc->programmed)
		tick_reprogram();
}

/* nohz=on|off: NO_HZ idle on or off for this boot (Linux's nohz=); the
 * build's default is NO_HZ (tick.h).  A NO_HZ=0 build has it off and
 * refuses nohz=on, as Linux without CONFIG_NO_HZ_COMMON has no nohz=.
 * A bad value keeps the default (kernel/cmdline.c says so). */
static int __init parse_nohz(const char *val)
{
	if (val && !strcmp(val, "off")) {
		tick_nohz_active = false;
		return 0;
	}
	if (val && !strcmp(val, "on") && CONFIG_NO_HZ) {
		tick_nohz_active = true;
		return 0;
	}
	if (val && !strcmp(val, "on"))
		pr_warn("nohz: nohz=on needs a NO_HZ=1 build; tick stays periodic\n");
	else
		pr_warn("nohz: '%s' is neither on nor off; NO_HZ idle stays %s\n",
			val ? val : "(no value)",
			tick_nohz_active ? "on" : "off");
	return -EINVAL;
}
CMDLINE_PARAM("nohz", parse_nohz);

/*
 * tick_init_cpu - see tick.h.
 * Context: the CPU itself, interrupts off.
 */
void tick_init_cpu(void)
{
	struct tick_cpu *tc = this_cpu_ptr(&tick_cpus);

	BUG_ON(!raw_irqs_disabled());
	arch_timer_init_cpu();
	tc->programmed = KTIME_MAX;
	tc->next_tick = tick_boundary(ktime_get());
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
	BUG_ON(raw_smp_processor_id() != 0);
	jiffies_epoch = ktime_get();
	err = request_percpu_irq(ARCH_TIMER_IRQ, tick_timer_interrupt, "timer",
				 &tick_cpus);
	if (err)
		panic("tick: request_percpu_irq(%d): %d", ARCH_TIMER_IRQ, err);
	raw_local_irq_save(flags);
	tick_init_cpu();
	raw_local_irq_restore(flags);
	pr_info("tick: HZ=%d per-CPU tick on one-shot timer events, NO_HZ idle %s\n",
		HZ, tick_nohz_active ? "on" : "off");
}
