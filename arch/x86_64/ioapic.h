/*
 * arch/x86_64/ioapic.h - the I/O APIC(s): routing device interrupt lines
 * (global system interrupts, GSIs) to a vector on a CPU.
 */
#ifndef ARCH_X86_64_IOAPIC_H
#define ARCH_X86_64_IOAPIC_H

#include "lib/types.h"

/* ioapic_init - map every IOAPIC the MADT lists and mask all of their
 * redirection entries.  Returns the number of IOAPICs usable (0: device
 * interrupts unavailable, drivers poll).  Context: boot CPU, once. */
int ioapic_init(void);

/* ioapic_count - IOAPICs set up by ioapic_init(). */
int ioapic_count(void);

/*
 * ioapic_route_isa - deliver ISA IRQ irq (0-15) as vector to the CPU
 * with APIC ID dest, unmasked.  The MADT's interrupt source overrides
 * decide the GSI, polarity and trigger (ISA default: GSI = irq, edge,
 * active high).  Returns 0, -EINVAL for a bad irq or vector, -ENODEV
 * when no IOAPIC serves the GSI.
 * Context: any; never sleeps.  Locking: takes the IOAPIC register lock.
 */
int ioapic_route_isa(int irq, u8 vector, u32 dest);

/* ioapic_mask_isa - mask ISA IRQ irq again.  Same rules as above. */
int ioapic_mask_isa(int irq);

/* ioapic_isa_is_level - does the MADT make ISA IRQ irq level-triggered? */
bool ioapic_isa_is_level(int irq);

#endif /* ARCH_X86_64_IOAPIC_H */
