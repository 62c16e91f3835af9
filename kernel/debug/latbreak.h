/*
 * kernel/debug/latbreak.h - one cyclictest wake-up broken into stages:
 * where the microseconds between a sleeper's hrtimer deadline and the
 * sleeper reading the clock go.
 *
 * Each hook below stamps the cycle counter (arch_cycles()) at one point
 * of the wake-up path, in a per-CPU record of the last hrtimer sleeper
 * woken on that CPU; cyclictest (kernel/debug/cyclictest.c) closes the
 * record after its clock read and adds each stage to a per-CPU, per-
 * stage histogram.  The shell's `latbreak` (kernel/shell/cmd_latbreak.c)
 * switches it on and prints the table; docs/latency.md shows it in use.
 *
 *	deadline	the sleeper's hrtimer expiry, the event programmed
 *	[0] delivery	-> the interrupt's entry (irq_enter, the first
 *			   call of the machine's arch_handle_irq)
 *	[1] entry	-> the tick handler (irq_enter, the EOI)
 *	[2] tick	-> the sleeper's hrtimer callback (scheduler_tick,
 *			   RCU, timer_list check, the hrtimer queue)
 *	[3] wake	-> wake_up_process() returned
 *	[4] queue	-> the handler starts programming the next event
 *			   (the rest of the hrtimer queue)
 *	[5] program	-> the tick handler returned (the next expiry
 *			   looked up, the one-shot timer written)
 *	[6] softirq	-> irq_exit()'s preemption point (softirqs run
 *			   there first)
 *	[7] switch	-> the sleeper runs again in schedule_hrtimeout_abs
 *			   (the reschedule decision and the context switch;
 *			   under none: whatever runs until the next
 *			   preemption point)
 *	[8] clock	-> cyclictest read the clock (hrtimer_cancel, return)
 *	[9] total	deadline -> clock read: cyclictest's own sample
 *
 * Every hook is a no-op (one load and a branch) while latbreak is off.
 * Linux counterpart: none as one tool; the timerlat tracer
 * (kernel/trace/trace_osnoise.c) splits IRQ and thread latency, and the
 * irq/sched tracepoints give the rest.
 */
#ifndef KERNEL_DEBUG_LATBREAK_H
#define KERNEL_DEBUG_LATBREAK_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "kernel/time/ktime.h"

enum latbreak_stage {
	LB_DELIVERY,
	LB_ENTRY,
	LB_TICK,
	LB_WAKE,
	LB_QUEUE,
	LB_HANDLER,
	LB_SOFTIRQ,
	LB_SWITCH,
	LB_CLOCK,
	LB_TOTAL,
	LB_NR_STAGES
};

extern bool latbreak_enabled;	/* read by every hook; see latbreak_on */

struct task_struct;

void __latbreak_irq_vector(void);
void __latbreak_tick_entry(ktime_t now);
void __latbreak_event_armed(ktime_t armed, ktime_t next_tick, ktime_t now);
void __latbreak_expiry(struct task_struct *task, ktime_t expires);
void __latbreak_woken(void);
void __latbreak_reprogram(void);
void __latbreak_tick_exit(void);
void __latbreak_irq_exit(void);
void __latbreak_sleeper_running(void);
void __latbreak_sample(ktime_t deadline, ktime_t now);

/* latbreak_irq_vector - any interrupt's entry (irq_enter).
 * Context: hardirq, interrupts off. */
static inline void latbreak_irq_vector(void)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_irq_vector();
}

/* latbreak_tick_entry - the tick handler's entry, now its ktime_get().
 * Context: hardirq (tick_timer_interrupt). */
static inline void latbreak_tick_entry(ktime_t now)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_tick_entry(now);
}

/*
 * latbreak_event_armed - the timer event that brings this interrupt was
 * armed for `armed` (what the tick code last wrote, KTIME_MAX if none);
 * next_tick is the tick's next event (while stopped, its wake-up event),
 * as tick_reprogram() uses it.  Checks the arming against what was due,
 * the earliest of next_tick and this CPU's first hrtimer:
 * - armed later than that: a kernel bug (a deadline the hardware was
 *   never told about, found late by the next event);
 * - taken before `armed`: an earlier arming's interrupt still pending,
 *   or a timer running fast;
 * - armed on time but taken 1 ms or more after due: the time was lost
 *   in delivery (the machine, or under QEMU the emulator and its host).
 * Context: hardirq (tick_timer_interrupt), before the event is handled.
 */
static inline void latbreak_event_armed(ktime_t armed, ktime_t next_tick,
					ktime_t now)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_event_armed(armed, next_tick, now);
}

/* latbreak_expiry - an hrtimer sleeper's callback starts: opens this
 * CPU's record for task's wake-up at expires.  Context: hardirq. */
static inline void latbreak_expiry(struct task_struct *task, ktime_t expires)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_expiry(task, expires);
}

/* latbreak_woken - the callback's wake_up_process() returned.
 * Context: hardirq. */
static inline void latbreak_woken(void)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_woken();
}

/* latbreak_reprogram - the tick handler starts programming the next
 * event.  Context: hardirq. */
static inline void latbreak_reprogram(void)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_reprogram();
}

/* latbreak_tick_exit - the tick handler is about to return.
 * Context: hardirq. */
static inline void latbreak_tick_exit(void)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_tick_exit();
}

/* latbreak_irq_exit - irq_exit() reached its preemption point.
 * Context: hardirq exit, interrupts off. */
static inline void latbreak_irq_exit(void)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_irq_exit();
}

/* latbreak_sleeper_running - an hrtimer sleeper runs again after its
 * timer fired.  Context: task. */
static inline void latbreak_sleeper_running(void)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_sleeper_running();
}

/* latbreak_sample - cyclictest read the clock (now) after sleeping to
 * deadline: close the record and add its stages to the histograms.
 * Context: task, bound to its CPU (cyclictest -a/-S). */
static inline void latbreak_sample(ktime_t deadline, ktime_t now)
{
	if (unlikely(READ_ONCE(latbreak_enabled)))
		__latbreak_sample(deadline, now);
}

/* latbreak_on - zero the histograms and start recording; -ENOMEM.
 * latbreak_off - stop.  Context: task, no cyclictest running (the
 * shell's cyclictest stops its threads before it returns).  Sleeps. */
int latbreak_on(void);
void latbreak_off(void);

/* latbreak_event_counts - CPU cpu's timer-event checks since
 * latbreak_on (latbreak_event_armed): 0, or -ENODATA if latbreak was
 * never on or cpu is out of range.  Context: any; a racy snapshot. */
struct latbreak_events {
	u64 events;		/* timer interrupts with an armed event */
	u64 armed_late;		/* armed after the earliest due event */
	u64 fired_early;	/* taken before the armed time */
	u64 delivered_late;	/* armed on time, taken >= 1 ms after due */
};
int latbreak_event_counts(int cpu, struct latbreak_events *ev);

/* latbreak_print - the table: one row per stage, min / avg / P50 / P99
 * / max in µs over every CPU, with the sample and drop counts.
 * Context: task. */
void latbreak_print(void (*emit)(void *ctx, const char *line), void *ctx);

#endif /* KERNEL_DEBUG_LATBREAK_H */
