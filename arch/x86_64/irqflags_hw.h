/*
 * arch/x86_64/irqflags_hw.h - the "raw" interrupt-flag primitives.
 *
 * These really clear and restore RFLAGS.IF on the local CPU, under every
 * preemption model.  The article's Summary ("Interrupt Handlers") reserves
 * them for SA_NODELAY handlers, the scheduler and synchronisation
 * primitives; under PREEMPT_RT the non-raw local_irq_*() family only
 * disables preemption (kernel/irqflags.h).
 * Linux counterpart: arch/x86/include/asm/irqflags.h (arch_local_irq_*),
 * include/linux/irqflags.h (raw_local_irq_*).
 */
#ifndef ARCH_X86_64_IRQFLAGS_HW_H
#define ARCH_X86_64_IRQFLAGS_HW_H

#include "arch/x86_64/cpu.h"

/* ARCH_IRQ_ENABLED - the bit of a saved flags value that says "interrupts
 * were enabled": what the portable kernel tests and stores instead of the
 * machine's flag name (kernel/irqflags.h). */
#define ARCH_IRQ_ENABLED X86_EFLAGS_IF

static inline unsigned long arch_local_save_flags(void)
{
	return read_rflags();
}

static inline void arch_local_irq_disable(void)
{
	__asm__ volatile("cli" ::: "memory");
}

static inline void arch_local_irq_enable(void)
{
	__asm__ volatile("sti" ::: "memory");
}

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = arch_local_save_flags();

	arch_local_irq_disable();
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	if (flags & X86_EFLAGS_IF)
		arch_local_irq_enable();
	else
		arch_local_irq_disable();
}

static inline bool arch_irqs_disabled_flags(unsigned long flags)
{
	return !(flags & X86_EFLAGS_IF);
}

static inline bool arch_irqs_disabled(void)
{
	return arch_irqs_disabled_flags(arch_local_save_flags());
}

#endif /* ARCH_X86_64_IRQFLAGS_HW_H */
