/*
 * kernel/debug/latency_timing.h - the article's timing options
 * ("Debugging Configuration Options"), each a build option
 * (`make LATENCY_TIMING=1`, or one of CRITICAL_PREEMPT_TIMING=1,
 * CRITICAL_IRQSOFF_TIMING=1, WAKEUP_TIMING=1):
 *
 *	CONFIG_CRITICAL_PREEMPT_TIMING	longest preemption-off section
 *	CONFIG_CRITICAL_IRQSOFF_TIMING	longest hardware-irqs-off section
 *	CONFIG_WAKEUP_TIMING		longest wake-up to run time of the
 *					highest-priority RT task woken
 *
 * Each record keeps where the section began and ended (the code address
 * and its caller, symbolised by the `latency` command) per CPU; `latency
 * reset` (the article's `echo 0 > /proc/sys/kernel/preempt_max_latency`)
 * starts them over.
 *
 * The hooks (kernel/debug/hooks.h) sit in preempt_disable()/
 * preempt_enable() (kernel/sched/preempt.h), in the raw_local_irq_*()
 * family (kernel/irqflags.h) and in the scheduler's wake-up and switch
 * paths; without the option they compile to nothing.
 *
 * Linux counterpart: kernel/trace/trace_irqsoff.c (preemptoff, irqsoff),
 * trace_sched_wakeup.c (wakeup_rt), trace_preemptirq.c (the hooks:
 * trace_preempt_on/off, trace_hardirqs_on/off); the 2.6-rt
 * kernel/latency.c the article describes.  rtk leaves out the function
 * trace of the worst section (LATENCY_TRACE) and interrupt entry (an
 * interrupt handler's own irqs-off time is not counted).
 */
#ifndef KERNEL_DEBUG_LATENCY_TIMING_H
#define KERNEL_DEBUG_LATENCY_TIMING_H

#include "lib/types.h"
#include "kernel/debug/hooks.h"	/* CONFIG_LATENCY_TIMING, the hooks */

enum latency_kind {
	LATENCY_PREEMPT_OFF,	/* CRITICAL_PREEMPT_TIMING */
	LATENCY_IRQS_OFF,	/* CRITICAL_IRQSOFF_TIMING */
	LATENCY_WAKEUP,		/* WAKEUP_TIMING */
	LATENCY_NR_KINDS,
};

struct latency_record {
	u64 ns;			/* the section's length (0: none yet) */
	unsigned long start_ip;	/* where it began (wake-up: the waker) */
	unsigned long start_parent;	/* ... and that function's caller */
	unsigned long end_ip;	/* where it ended (wake-up: the switch) */
	unsigned long end_parent;
	int cpu;		/* where it was measured */
	int pid;		/* task at the start (wake-up: the woken) */
	int prio;		/* wake-up: the woken task's prio */
	char comm[16];		/* that task's name */
};

/* latency_kind_enabled - was the option built in? */
bool latency_kind_enabled(enum latency_kind kind);
/* latency_kind_name - "preempt-off", "irqs-off", "wakeup". */
const char *latency_kind_name(enum latency_kind kind);

/*
 * latency_timing_init - start measuring.  Until then every hook returns
 * at once (per-CPU data written before the CPUs' copies exist would land
 * in the template).  Context: boot, after smp_init().
 */
void latency_timing_init(void);

/* latency_timing_reset - forget every maximum.  Context: any. */
void latency_timing_reset(void);

/*
 * latency_timing_read - the maximum of kind on cpu, or the worst over
 * all CPUs for cpu < 0.  Returns false when there is none since the last
 * reset (or the option is not built).  Context: any; lock-free, retries
 * while the CPU updates its record.
 */
bool latency_timing_read(enum latency_kind kind, int cpu,
			 struct latency_record *rec);

/*
 * The hooks are in kernel/debug/hooks.h (trace_preempt_off/on,
 * trace_hardirqs_off/on, trace_irq_enter, trace_sched_wakeup/switch,
 * stop_critical_timings); they call __trace_preempt_off/on,
 * __trace_hardirqs_off/on, __trace_hardirqs_entry (Linux:
 * trace_preempt_off, trace_hardirqs_off_caller), latency_wakeup_mark
 * (p was just woken: tracked if it is the most important RT task woken
 * and not yet running) and latency_wakeup_switch (next is about to run
 * on this CPU), all in latency_timing.c.  The preemption hooks fire on
 * the 0 -> 1 and 1 -> 0 transitions of the whole preempt_count (a
 * section inside an interrupt is the irqs-off record's).
 */

#endif /* KERNEL_DEBUG_LATENCY_TIMING_H */
