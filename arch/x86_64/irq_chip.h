/*
 * arch/x86_64/irq_chip.h - the machine half of request_irq(): IRQ line
 * numbers, their vectors, and mask/unmask/ack/retrigger on the hardware
 * that delivers them (IOAPIC for ISA lines, local APIC EOI for all).
 *
 * IRQ line n is delivered on vector 0x20 + n:
 *	0-15	ISA IRQs through the IOAPIC (ioapic_route_isa), maskable
 *	16-31	software lines on vectors 0x30-0x3F: nothing but a self-IPI
 *		(arch_irq_retrigger) raises them, the tests' "device"; the
 *		local APIC cannot mask a vector, so mask/unmask are no-ops
 *		and the portable layer's disable depth does the masking,
 *		except on line 31 (ARCH_TEST_LEVEL_IRQ, below): a level
 *		input modelled in software, with a mask.
 *	32	ARCH_TIMER_IRQ, the per-CPU line: each CPU's LAPIC timer
 *		on LOCAL_TIMER_VECTOR (request_percpu_irq; its vector entry
 *		calls handle_percpu_irq, kernel/irq/irqdesc.h).  Each CPU
 *		arms its own timer (arch_timer_init_cpu); mask/unmask do
 *		nothing.
 * kernel/irq/manage.c is the only caller; this header is pulled in by
 * arch/x86_64/arch.h.
 * Linux counterpart: struct irq_chip (irq_mask, irq_unmask, irq_ack,
 * irq_eoi, irq_retrigger), arch/x86/kernel/apic/io_apic.c ioapic_chip.
 */
#ifndef ARCH_X86_64_IRQ_CHIP_H
#define ARCH_X86_64_IRQ_CHIP_H

#include "lib/types.h"

#define ARCH_NR_DEVICE_IRQS	32	/* ISA and software lines: 0x20 + n */
#define ARCH_NR_ISA_IRQS	16	/* lines below this are ISA lines */
#define ARCH_TIMER_IRQ		32	/* per-CPU: the local (LAPIC) timer */
#define ARCH_NR_IRQS		33

/* irq_chip_init - record the boot CPU as the ISA lines' destination.
 * Context: boot CPU, once, from arch_irq_init(). */
void irq_chip_init(void);

/* arch_irq_is_percpu - is irq a per-CPU line (one source per CPU, the
 * same line number everywhere: ARCH_TIMER_IRQ)?  Context: any. */
static inline bool arch_irq_is_percpu(unsigned int irq)
{
	return irq == ARCH_TIMER_IRQ;
}

/*
 * ARCH_TEST_LEVEL_IRQ - the last software line behaves as a level-
 * triggered device input, for tests of the level flow (threaded lines
 * masked until their thread ends): arch_irq_is_level() is true, the mask
 * is honoured, and arch_irq_test_level_set() asserts or deasserts the
 * input.  An asserted, unmasked line interrupts (a self-IPI) when it is
 * asserted and when it is unmasked; unlike a real level input it does
 * not fire again at EOI.  Context: any.
 */
#define ARCH_TEST_LEVEL_IRQ	(ARCH_NR_DEVICE_IRQS - 1)
void arch_irq_test_level_set(unsigned int irq, bool asserted);

#endif /* ARCH_X86_64_IRQ_CHIP_H */
