/*
 * arch/x86_64/pic.c - the 8259A programmable interrupt controllers.
 *
 * rtk never takes interrupts through the 8259s, but firmware may leave
 * them unmasked and pointing at vectors 8-15, where a stray timer IRQ
 * would look like a double fault.  So they are re-initialised with the
 * full ICW1-ICW4 sequence onto PIC_MASTER_VECTOR / PIC_SLAVE_VECTOR and
 * every input masked.  A masked 8259 can still raise spurious IRQ 7/15
 * (vectors 0x27/0x2F); those arrive only through LINT0, which lapic.c
 * masks as well.
 * Spec: Intel 8259A data sheet (ICW1-ICW4, OCW1).  Linux counterpart:
 * arch/x86/kernel/i8259.c init_8259A(), mask_8259A().
 */
#include "arch/x86_64/pic.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/irq_vectors.h"
#include "lib/bug.h"

#define PIC1_CMD	0x20
#define PIC1_DATA	0x21
#define PIC2_CMD	0xA0
#define PIC2_DATA	0xA1

#define ICW1_INIT	0x10	/* start initialisation */
#define ICW1_ICW4	0x01	/* ICW4 follows */
#define ICW4_8086	0x01	/* 8086 mode (not MCS-80) */
#define PIC_CASCADE_IRQ	2	/* the slave hangs off master input 2 */

void __init pic_init_masked(void)
{
	BUG_ON(!arch_irqs_disabled());
	outb(PIC1_DATA, 0xFF);			/* mask while reprogramming */
	outb(PIC2_DATA, 0xFF);
	outb(PIC1_CMD, ICW1_INIT | ICW1_ICW4);	/* ICW1, edge, cascade */
	io_wait();
	outb(PIC2_CMD, ICW1_INIT | ICW1_ICW4);
	io_wait();
	outb(PIC1_DATA, PIC_MASTER_VECTOR);	/* ICW2: vector base */
	io_wait();
	outb(PIC2_DATA, PIC_SLAVE_VECTOR);
	io_wait();
	outb(PIC1_DATA, 1u << PIC_CASCADE_IRQ);	/* ICW3: slave on IR2 */
	io_wait();
	outb(PIC2_DATA, PIC_CASCADE_IRQ);	/* ICW3: slave identity */
	io_wait();
	outb(PIC1_DATA, ICW4_8086);
	io_wait();
	outb(PIC2_DATA, ICW4_8086);
	io_wait();
	outb(PIC1_DATA, 0xFF);			/* OCW1: everything masked */
	outb(PIC2_DATA, 0xFF);
}
