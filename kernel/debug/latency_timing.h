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
 * The hooks sit in preempt_disable()/preempt_enable()
 * (kernel/sched/preempt.h), in the raw_local_irq_*() family
 * (kernel/irqflags.h) and in the scheduler's wake-up and switch
 * paths; without the option they compile to nothing.  This header
 * includes nothing but lib/: kernel/irqflags.h includes it.
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
#include "lib/compiler.h"

#if defined(CONFIG_CRITICAL_PREEMPT_TIMING) || \
	defined(CONFIG_CRITICAL_IRQSOFF_TIMING) || defined(CONFIG_WAKEUP_TIMING)
#define CONFIG_LATENCY_TIMING 1	/* any of them: the `latency` command */
#endif

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

/* The hooks (Linux's names).  Context: any; they never sleep or lock. */
void trace_preempt_off(unsigned long ip, unsigned long parent);
void trace_preempt_on(unsigned long ip, unsigned long parent);
void trace_hardirqs_off_caller(unsigned long ip, unsigned long parent);
void trace_hardirqs_on_caller(unsigned long ip, unsigned long parent);
void trace_hardirqs_entry(void);

struct task_struct;
/* latency_wakeup_mark - p was just woken; track it if it is the most
 * important RT task woken and not yet running.  Context: any. */
void latency_wakeup_mark(struct task_struct *p, unsigned long ip);
/* latency_wakeup_switch - next is about to run on this CPU.
 * Context: the scheduler, irqs off. */
void latency_wakeup_switch(struct task_struct *next, unsigned long ip);

/*
 * Hook macros for the headers above.  The preemption hooks fire on the
 * 0 -> 1 and 1 -> 0 transitions of the whole preempt_count (a section
 * inside an interrupt is the irqs-off record's), so they expand only
 * where preempt_count() is visible.
 */
#ifdef CONFIG_CRITICAL_PREEMPT_TIMING
#define latency_preempt_off_hook()                                           \
	do {                                                                 \
		if (preempt_count() == 1)                                    \
			trace_preempt_off(_THIS_IP_, _RET_IP_);              \
	} while (0)
#define latency_preempt_on_hook()                                            \
	do {                                                                 \
		if (preempt_count() == 1)                                    \
			trace_preempt_on(_THIS_IP_, _RET_IP_);               \
	} while (0)
#else
#define latency_preempt_off_hook() do { } while (0)
#define latency_preempt_on_hook() do { } while (0)
#endif

#ifdef CONFIG_CRITICAL_IRQSOFF_TIMING
/* the flags raw_local_irq_disable() passes to latency_irqs_off_hook() */
#define latency_irq_flags() arch_local_save_flags()
/* after cli, given the flags from before it */
#define latency_irqs_off_hook(was_flags)                                     \
	do {                                                                 \
		if (!arch_irqs_disabled_flags(was_flags))                    \
			trace_hardirqs_off_caller(_THIS_IP_, _RET_IP_);      \
	} while (0)
/* before sti / a restore to flags with IF set */
#define latency_irqs_on_hook(new_flags)                                      \
	do {                                                                 \
		if (!arch_irqs_disabled_flags(new_flags))                    \
			trace_hardirqs_on_caller(_THIS_IP_, _RET_IP_);       \
	} while (0)
/* at interrupt entry: IF was on, so an open irqs-off section went by an
 * unhooked iret or sti and is stale (an interrupt handler's own time is
 * not counted) */
#define latency_irq_entry_hook() trace_hardirqs_entry()
#else
#define latency_irq_entry_hook() do { } while (0)
#define latency_irq_flags() 0UL
#define latency_irqs_off_hook(was_flags) do { (void)(was_flags); } while (0)
#define latency_irqs_on_hook(new_flags) do { (void)(new_flags); } while (0)
#endif

#ifdef CONFIG_WAKEUP_TIMING
#define latency_wakeup_hook(p) latency_wakeup_mark((p), _RET_IP_)
#define latency_switch_hook(next) latency_wakeup_switch((next), _THIS_IP_)
#else
#define latency_wakeup_hook(p) do { (void)(p); } while (0)
#define latency_switch_hook(next) do { (void)(next); } while (0)
#endif

/*
 * stop_critical_timings - close this CPU's open irqs-off section here:
 * the idle loop calls it before its bare "sti; hlt", which no hook sees
 * (Linux: the same name, in the cpuidle path).
 */
#ifdef CONFIG_CRITICAL_IRQSOFF_TIMING
#define stop_critical_timings() trace_hardirqs_on_caller(_THIS_IP_, _RET_IP_)
#else
#define stop_critical_timings() do { } while (0)
#endif

#endif /* KERNEL_DEBUG_LATENCY_TIMING_H */
