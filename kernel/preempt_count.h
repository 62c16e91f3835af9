/*
 * kernel/preempt_count.h - preempt_count: the per-CPU word that says in which
 * context the CPU runs (task, softirq, hardirq, NMI) and how deeply
 * preemption is disabled.
 *
 * Layout, as in Linux (include/linux/preempt.h):
 *
 *	bits  0- 7	PREEMPT_MASK	preempt_disable() nesting
 *	bits  8-15	SOFTIRQ_MASK	softirq (bh) nesting / in softirq
 *	bits 16-19	HARDIRQ_MASK	hardirq nesting (irq_enter/irq_exit)
 *	bit  20		NMI_MASK	in an NMI handler
 *
 * Under PREEMPT_RT most handlers run in irq threads (task context), so
 * in_irq() is true only in the few SA_NODELAY handlers (the article's
 * "Interrupt Handlers": the per-CPU timer, IPIs) and in the arch code
 * that wakes the threads.
 *
 * The count is a per-CPU variable (__preempt_count, as on Linux x86);
 * context_switch() (kernel/sched/core.c) saves it in the outgoing task
 * and loads the incoming one's, so it behaves as a per-task count.  The
 * accessors below are the only code that knows where it lives.
 * preempt_disable()/preempt_enable() (with the reschedule check) belong
 * to kernel/sched/preempt.h; this header provides only the counting.
 */
#ifndef KERNEL_PREEMPT_COUNT_H
#define KERNEL_PREEMPT_COUNT_H

#include "kernel/percpu.h"
#include "kernel/sched/preempt_model.h"

#define PREEMPT_BITS	8
#define SOFTIRQ_BITS	8
#define HARDIRQ_BITS	4
#define NMI_BITS	1

#define PREEMPT_SHIFT	0
#define SOFTIRQ_SHIFT	(PREEMPT_SHIFT + PREEMPT_BITS)
#define HARDIRQ_SHIFT	(SOFTIRQ_SHIFT + SOFTIRQ_BITS)
#define NMI_SHIFT	(HARDIRQ_SHIFT + HARDIRQ_BITS)

#define __IRQ_MASK(x)	((1UL << (x)) - 1)

#define PREEMPT_MASK	(__IRQ_MASK(PREEMPT_BITS) << PREEMPT_SHIFT)	/* 0xff */
#define SOFTIRQ_MASK	(__IRQ_MASK(SOFTIRQ_BITS) << SOFTIRQ_SHIFT)	/* 0xff00 */
#define HARDIRQ_MASK	(__IRQ_MASK(HARDIRQ_BITS) << HARDIRQ_SHIFT)	/* 0xf0000 */
#define NMI_MASK	(__IRQ_MASK(NMI_BITS) << NMI_SHIFT)		/* 0x100000 */

#define PREEMPT_OFFSET	(1UL << PREEMPT_SHIFT)
#define SOFTIRQ_OFFSET	(1UL << SOFTIRQ_SHIFT)
#define HARDIRQ_OFFSET	(1UL << HARDIRQ_SHIFT)
#define NMI_OFFSET	(1UL << NMI_SHIFT)

DECLARE_PER_CPU(int, __preempt_count);

/* preempt_count - this CPU's count.  Context: any. */
static inline int preempt_count(void)
{
	return this_cpu_read(__preempt_count);
}

/* __preempt_count_add/sub - one instruction on this CPU's count, so an
 * interrupt in the middle cannot lose an update. */
static inline void __preempt_count_add(int val)
{
	this_cpu_add(__preempt_count, val);
}

static inline void __preempt_count_sub(int val)
{
	this_cpu_add(__preempt_count, -val);
}

#define hardirq_count()	(preempt_count() & HARDIRQ_MASK)
/*
 * softirq_count - softirq nesting and bh-disable depth.  Under rt
 * (PREEMPT_SOFTIRQS) local_bh_disable() leaves preemption on and counts
 * in the task instead (kernel/irq/softirq.c, local_bh_lock): a
 * preempted bh section must not make the next task on the CPU look
 * bh-disabled.  irq_count() and in_interrupt() stay on preempt_count
 * alone: under rt a bh section and ksoftirqd/N are process context
 * (mainline PREEMPT_RT counts the task's bh depth in irq_count() too).
 */
#if PREEMPT_SOFTIRQS
int current_softirq_disable_cnt(void);
#define softirq_count()                                                      \
	((preempt_count() & SOFTIRQ_MASK) | current_softirq_disable_cnt())
#else
#define softirq_count()	(preempt_count() & SOFTIRQ_MASK)
#endif
#define irq_count()	(preempt_count() & (HARDIRQ_MASK | SOFTIRQ_MASK | NMI_MASK))

/* in_irq - running a hard interrupt handler (mainline: in_hardirq()). */
#define in_irq()	(hardirq_count() != 0)
#define in_softirq()	(softirq_count() != 0)
#define in_interrupt()	(irq_count() != 0)
#define in_nmi()	((preempt_count() & NMI_MASK) != 0)

#endif /* KERNEL_PREEMPT_COUNT_H */
