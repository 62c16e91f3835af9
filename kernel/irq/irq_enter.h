/*
 * kernel/irq/irq_enter.h - hard-interrupt entry and exit accounting.
 *
 * The arch entry code (arch/x86_64/irq.c) brackets every external
 * interrupt with irq_enter()/irq_exit(); the handler in between sees
 * in_irq() true.  irq_exit() is where work deferred by the handler is
 * picked up on the way out: pending softirqs (invoke_softirq(),
 * kernel/irq/softirq.c), then preemption (irqentry_exit_cond_resched(),
 * kernel/sched/core.c).
 * Linux counterpart: kernel/softirq.c irq_enter(), irq_exit(),
 * include/linux/hardirq.h nmi_enter()/nmi_exit().
 */
#ifndef KERNEL_IRQ_IRQ_ENTER_H
#define KERNEL_IRQ_IRQ_ENTER_H

/* irq_enter - enter hardirq context: HARDIRQ_OFFSET onto preempt_count.
 * Context: hardirq entry, interrupts off. */
void irq_enter(void);

/* irq_exit - leave hardirq context; when the CPU is back outside every
 * interrupt context, call irqentry_exit_cond_resched().
 * Context: hardirq exit, interrupts off, on the interrupted task's stack
 * (not the IRQ stack), so the preemption may switch tasks. */
void irq_exit(void);

/* nmi_enter/nmi_exit - NMI_OFFSET + HARDIRQ_OFFSET around an NMI. */
void nmi_enter(void);
void nmi_exit(void);

#endif /* KERNEL_IRQ_IRQ_ENTER_H */
