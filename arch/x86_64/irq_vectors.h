/*
 * arch/x86_64/irq_vectors.h - which IDT vector carries which interrupt.
 *
 * The local APIC prioritises by the vector's upper nibble (Intel SDM
 * Vol. 3A 11.8.3), so the IPIs and the local timer sit at the top, above
 * every device: a CPU handling a device interrupt can still be told to
 * reschedule or stop.  0..31 are the CPU's exceptions.
 *	0x20-0x2F	ISA IRQ 0-15 routed through the IOAPIC (IRQ n = 0x20+n),
 *			also the 8259's remapped range (masked, spurious only)
 *	0x30-0xDF	other device vectors
 *	0xEF		per-CPU LAPIC timer (the article's SA_NODELAY tick)
 *	0xFB-0xFD	call-function-single, call-function, reschedule IPIs
 *	0xFE		LAPIC error (LVT error)
 *	0xFF		LAPIC spurious (SVR; never EOI'd)
 * Linux counterpart: arch/x86/include/asm/irq_vectors.h (same numbers
 * for the system vectors).
 */
#ifndef ARCH_X86_64_IRQ_VECTORS_H
#define ARCH_X86_64_IRQ_VECTORS_H

#define ISA_IRQ_VECTOR_BASE		0x20
#define ISA_IRQ_VECTOR(irq)		(ISA_IRQ_VECTOR_BASE + (irq))
#define NR_ISA_IRQS			16

/* The 8259s are remapped here (master, slave) and then fully masked;
 * they overlap the ISA range, which is harmless: a masked 8259 only
 * ever sends spurious IRQ 7 / 15. */
#define PIC_MASTER_VECTOR		0x20
#define PIC_SLAVE_VECTOR		0x28

#define FIRST_DEVICE_VECTOR		0x30
#define LAST_DEVICE_VECTOR		0xDF

#define LOCAL_TIMER_VECTOR		0xEF
#define CALL_FUNCTION_SINGLE_VECTOR	0xFB
#define CALL_FUNCTION_VECTOR		0xFC
#define RESCHEDULE_VECTOR		0xFD
#define ERROR_VECTOR			0xFE
#define SPURIOUS_VECTOR			0xFF

#endif /* ARCH_X86_64_IRQ_VECTORS_H */
