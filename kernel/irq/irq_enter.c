/*
 * kernel/irq/irq_enter.c - irq_enter/irq_exit and the preempt_count word
 * they update (see kernel/preempt_count.h for its layout, irq_enter.h
 * for the contract).
 * Linux counterpart: kernel/softirq.c (irq_enter, __irq_exit_rcu),
 * kernel/sched/core.c (the per-CPU __preempt_count on x86).
 */
#include "kernel/irq/irq_enter.h"
#include "kernel/irq/softirq.h"
#include "kernel/sched/sched.h"	/* irqentry_exit_cond_resched */
#include "kernel/preempt_count.h"
#include "lib/bug.h"
#include "kernel/debug/hooks.h"
#include "kernel/irqflags.h"

DEFINE_PER_CPU(int, __preempt_count);

/*
 * irq_enter - see irq_enter.h.
 * Context: hardirq entry, interrupts off.
 */
void irq_enter(void)
{
	BUG_ON(!raw_irqs_disabled());
	trace_irq_enter();
	__preempt_count_add(HARDIRQ_OFFSET);
	/* More than HARDIRQ_MASK can count means a handler re-enabled
	 * interrupts and recursed: the field would carry into NMI. */
	BUG_ON(hardirq_count() == 0);
}

/*
 * irq_exit - see irq_enter.h.
 * Context: hardirq exit, interrupts off.
 */
void irq_exit(void)
{
	BUG_ON(!raw_irqs_disabled());
	BUG_ON(!in_irq());
	__preempt_count_sub(HARDIRQ_OFFSET);
	if (!in_interrupt() && local_softirq_pending())
		invoke_softirq();	/* softirqs before the preemption */
	if (!in_interrupt()) {
		trace_irq_exit();
		irqentry_exit_cond_resched();
	}
}

void nmi_enter(void)
{
	__preempt_count_add(NMI_OFFSET + HARDIRQ_OFFSET);
}

void nmi_exit(void)
{
	BUG_ON(!in_nmi());
	__preempt_count_sub(NMI_OFFSET + HARDIRQ_OFFSET);
}
