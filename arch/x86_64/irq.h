/*
 * arch/x86_64/irq.h - the external-interrupt entry path (vectors 32-255)
 * and the per-CPU interrupt stack.
 */
#ifndef ARCH_X86_64_IRQ_H
#define ARCH_X86_64_IRQ_H

#include "lib/types.h"
#include "arch/x86_64/ptrace.h"

#define IRQ_STACK_SIZE (16 * 1024)

/* irq_stack_init_cpu - give this CPU its 16 KiB interrupt stack (called
 * from lapic_init_cpu(), so every CPU taking interrupts has one).
 * Context: the CPU itself, boot or bring-up, interrupts off. */
void irq_stack_init_cpu(void);

/* irq_stack_contains - is addr on this CPU's interrupt stack?  Lets the
 * backtrace follow the one jump from the IRQ stack to the task stack. */
bool irq_stack_contains(unsigned long addr);

#endif /* ARCH_X86_64_IRQ_H */
