/*
 * arch/x86_64/irq_chip.c - the irq chip behind request_irq(): maps IRQ
 * lines to vectors, masks ISA lines at the IOAPIC, acknowledges at the
 * local APIC, and raises software lines with a self-IPI (contract in
 * irq_chip.h).
 *
 * Every device line has the same vector entry, irq_chip_vector_entry(),
 * which turns the vector back into the line number and calls the
 * portable flow handler; the per-CPU timer line's entry,
 * irq_chip_percpu_vector_entry(), calls the per-CPU flow.  ISA lines go to the boot CPU (physical destination, as
 * the COM1 routing did before): one CPU takes all device interrupts,
 * their threads may run anywhere.
 * Spec: Intel 82093AA I/O APIC data sheet 3.2.4 (IOREDTBL mask bit);
 * Intel SDM Vol. 3A 11.8.5 (EOI), 11.6.1 (ICR, self IPI).
 * Linux counterpart: arch/x86/kernel/apic/io_apic.c (ioapic_chip:
 * mask_ioapic_irq, unmask_ioapic_irq, ioapic_ack_level,
 * ioapic_retrigger_irq), kernel/irq/chip.c.
 */
#include "arch/x86_64/irq_chip.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/irq_vectors.h"
#include "arch/x86_64/lapic.h"
#include "kernel/irq/irqdesc.h"
#include "lib/bug.h"
#include "lib/errno.h"

/* Line n is vector 0x20 + n: ISA lines keep their vectors, software lines
 * take the first device vectors. */
#define IRQ_CHIP_VECTOR_BASE ISA_IRQ_VECTOR_BASE

/* The boot CPU's APIC ID: where every ISA line is routed.  Set once by
 * irq_chip_init(), read-only afterwards. */
static u32 isa_dest_apic_id;

/*
 * irq_chip_init - remember the boot CPU as the ISA lines' destination.
 * Context: boot CPU, once, from arch_irq_init().
 */
void __init irq_chip_init(void)
{
	isa_dest_apic_id = lapic_id();
}

int arch_irq_to_vector(unsigned int irq)
{
	BUG_ON(irq >= ARCH_NR_IRQS);
	if (irq == ARCH_TIMER_IRQ)
		return LOCAL_TIMER_VECTOR;
	return IRQ_CHIP_VECTOR_BASE + (int)irq;
}

static bool irq_is_isa(unsigned int irq)
{
	return irq < ARCH_NR_ISA_IRQS;
}

/* The chip's mask as last programmed, bit n for line n (ISA lines and
 * the test level line; lines start masked), and the test level line's
 * input.  Each CPU updates its bit and then reads the other word (and
 * the other side the reverse), both sequentially consistent: an assert
 * racing an unmask is seen by at least one of them, so it is never lost
 * (at worst it is raised twice: a spurious run of a level handler). */
static unsigned long chip_masked = ~0UL;
static int test_level_asserted;

static bool irq_has_mask(unsigned int irq)
{
	return irq_is_isa(irq) || irq == ARCH_TEST_LEVEL_IRQ;
}

/*
 * irq_chip_vector_entry - every requested line's vector handler.
 * Context: hardirq, interrupts off (arch_handle_irq, on the IRQ stack).
 */
static void irq_chip_vector_entry(struct pt_regs *regs)
{
	unsigned int irq = (unsigned int)(regs->vector - IRQ_CHIP_VECTOR_BASE);

	BUG_ON(irq >= ARCH_NR_DEVICE_IRQS);
	generic_handle_irq(irq);
}

/*
 * irq_chip_percpu_vector_entry - LOCAL_TIMER_VECTOR's handler once the
 * timer line is requested (request_percpu_irq).
 * Context: hardirq, interrupts off (arch_handle_irq, on the IRQ stack).
 */
static void irq_chip_percpu_vector_entry(struct pt_regs *regs)
{
	(void)regs;
	handle_percpu_irq(ARCH_TIMER_IRQ);
}

int arch_irq_startup(unsigned int irq)
{
	int vector, err;

	BUILD_BUG_ON(IRQ_CHIP_VECTOR_BASE + ARCH_NR_DEVICE_IRQS - 1 >
		     LAST_DEVICE_VECTOR);
	if (irq >= ARCH_NR_IRQS)
		return -EINVAL;
	if (irq_is_isa(irq) && !ioapic_count())
		return -ENODEV;
	vector = arch_irq_to_vector(irq);
	err = arch_set_irq_handler(vector, arch_irq_is_percpu(irq) ?
					   irq_chip_percpu_vector_entry :
					   irq_chip_vector_entry);
	if (err)
		return err;
	if (irq_has_mask(irq))
		__atomic_fetch_or(&chip_masked, 1UL << irq, __ATOMIC_SEQ_CST);
	if (irq_is_isa(irq)) {
		err = ioapic_mask_isa((int)irq);	/* unmasked by the caller */
		if (err)
			arch_set_irq_handler(vector, NULL);
	}
	return err;
}

void arch_irq_shutdown(unsigned int irq)
{
	BUG_ON(irq >= ARCH_NR_IRQS);
	arch_irq_mask(irq);
	arch_set_irq_handler(arch_irq_to_vector(irq), NULL);
}

void arch_irq_mask(unsigned int irq)
{
	if (irq_has_mask(irq))
		__atomic_fetch_or(&chip_masked, 1UL << irq, __ATOMIC_SEQ_CST);
	if (irq_is_isa(irq))
		WARN_ON(ioapic_mask_isa((int)irq));
}

void arch_irq_unmask(unsigned int irq)
{
	if (irq_has_mask(irq))
		__atomic_fetch_and(&chip_masked, ~(1UL << irq),
				   __ATOMIC_SEQ_CST);
	if (irq_is_isa(irq))
		WARN_ON(ioapic_route_isa((int)irq, (u8)arch_irq_to_vector(irq),
					 isa_dest_apic_id));
	if (irq == ARCH_TEST_LEVEL_IRQ &&
	    __atomic_load_n(&test_level_asserted, __ATOMIC_SEQ_CST))
		arch_irq_retrigger(irq);
}

bool arch_irq_is_masked(unsigned int irq)
{
	return irq_has_mask(irq) &&
	       (__atomic_load_n(&chip_masked, __ATOMIC_SEQ_CST) & (1UL << irq));
}

void arch_irq_test_level_set(unsigned int irq, bool asserted)
{
	BUG_ON(irq != ARCH_TEST_LEVEL_IRQ);
	__atomic_store_n(&test_level_asserted, asserted, __ATOMIC_SEQ_CST);
	if (asserted && !arch_irq_is_masked(irq))
		arch_irq_retrigger(irq);
}

void arch_irq_ack(void)
{
	BUG_ON(!arch_irqs_disabled());
	lapic_eoi();
}

bool arch_irq_is_level(unsigned int irq)
{
	return irq == ARCH_TEST_LEVEL_IRQ ||
	       (irq_is_isa(irq) && ioapic_isa_is_level((int)irq));
}

void arch_irq_retrigger(unsigned int irq)
{
	lapic_send_ipi(lapic_id(), (u8)arch_irq_to_vector(irq));
}
