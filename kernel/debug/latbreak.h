/*
 * kernel/debug/latbreak.h - one cyclictest wake-up broken into stages:
 * where the microseconds between a sleeper's hrtimer deadline and the
 * sleeper reading the clock go.
 *
 * Each hook below stamps the cycle counter (arch_cycles()) at one point
 * of the wake-up path, in a per-CPU record of the last hrtimer sleeper
 * woken on that CPU; cyclictest (kernel/workloads/cyclictest.c) closes the
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
 *	[3] wake	-> the sleeper is queued (try_to_wake_up's
 *			   sched_wakeup; empty if it was still running or
 *			   queued)
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
 * The hooks are trace_irq_enter, trace_tick_entry,
 * trace_hrtimer_sleeper_expire, trace_sched_wakeup, trace_tick_reprogram,
 * trace_irq_handler_exit, trace_irq_exit and
 * trace_hrtimer_sleeper_running (kernel/debug/hooks.h); each is a no-op
 * (one load and a branch) while latbreak is off.
 * Linux counterpart: none as one tool; the timerlat tracer
 * (kernel/trace/trace_osnoise.c) splits IRQ and thread latency, and the
 * irq/sched tracepoints give the rest.
 */
#ifndef KERNEL_DEBUG_LATBREAK_H
#define KERNEL_DEBUG_LATBREAK_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "kernel/time/ktime.h"
#include "kernel/debug/hooks.h"	/* latbreak_enabled, the hooks */

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

/*
 * The hooks' work (their callers: kernel/debug/hooks.h).
 * __latbreak_tick_entry checks the timer event that brings the tick
 * interrupt: it was armed for `armed` (what the tick code last wrote,
 * KTIME_MAX if none); next_tick is the tick's next event (while stopped,
 * its wake-up event), as tick_reprogram() uses it.  Against what was
 * due, the earliest of next_tick and this CPU's first hrtimer:
 * - armed later than that: a kernel bug (a deadline the hardware was
 *   never told about, found late by the next event);
 * - taken before `armed`: an earlier arming's interrupt still pending,
 *   or a timer running fast;
 * - armed on time but taken 1 ms or more after due: the time was lost
 *   in delivery (the machine, or under QEMU the emulator and its host).
 * All: Context: hardirq, interrupts off, but __latbreak_sleeper_running
 * (task).
 */
void __latbreak_sample(ktime_t deadline, ktime_t now);

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
 * latbreak_on (__latbreak_tick_entry): 0, or -ENODATA if latbreak was
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
