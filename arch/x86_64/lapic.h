/*
 * arch/x86_64/lapic.h - the local APIC: this CPU's interrupt controller,
 * its IPIs and its timer (the timer is arch/x86_64/lapic_timer.c).
 *
 * Two register interfaces, chosen once on the boot CPU by lapic_init():
 * x2APIC (MSRs 0x800+, 32-bit IDs) whenever CPUID.1:ECX[21] offers it and
 * `nox2apic` is not given, else xAPIC (4 KiB MMIO page at the MADT's
 * address, mapped uncached).
 * Spec: Intel SDM Vol. 3A chapter 11 (11.4 xAPIC, 11.6 ICR, 11.9 spurious,
 * 11.5.3 error handling, 11.12 x2APIC).
 * Linux counterpart: arch/x86/kernel/apic/apic.c, x2apic_phys.c, ipi.c.
 *
 * AP bring-up (the smp code) calls, on each AP, in this order:
 *	lapic_init_cpu();	this CPU's APIC enabled, spurious/error set up
 *	tick_init_cpu();	this CPU's tick (kernel/time/tick.h)
 * then enables interrupts.
 */
#ifndef ARCH_X86_64_LAPIC_H
#define ARCH_X86_64_LAPIC_H

#include "lib/types.h"

/* lapic_init - choose xAPIC or x2APIC, map the xAPIC page, install the
 * spurious and error handlers, then lapic_init_cpu() for the boot CPU.
 * Context: boot CPU, once, interrupts off, after acpi_init and mm_init. */
void lapic_init(void);

/* lapic_init_cpu - enable this CPU's APIC: mode, SVR (SPURIOUS_VECTOR),
 * TPR 0, LVT error (ERROR_VECTOR), LINT0 masked, LINT1 NMI, timer masked.
 * Context: each CPU once (the BSP from lapic_init, each AP from its
 * bring-up), interrupts off. */
void lapic_init_cpu(void);

/* lapic_id - this CPU's APIC ID (8 bits in xAPIC, 32 in x2APIC mode).
 * Context: any. */
u32 lapic_id(void);

/* lapic_eoi - end of interrupt for the in-service vector.
 * Context: hardirq, by the handler of any LAPIC-delivered vector except
 * SPURIOUS_VECTOR. */
void lapic_eoi(void);

/* lapic_vector_in_service - is vector's bit set in this CPU's ISR (a
 * LAPIC-delivered interrupt whose EOI is still owed; a software `int`
 * sets none)?  Context: any, on the CPU that asks. */
bool lapic_vector_in_service(u8 vector);

/* IPIs (physical destination).  In xAPIC mode each waits (bounded) for
 * the previous ICR delivery to finish.  Context: any, interrupts off or
 * on (each ICR write is done with interrupts off). */
void lapic_send_ipi(u32 apic_id, u8 vector);
void lapic_send_ipi_allbutself(u8 vector);
void lapic_send_nmi(u32 apic_id);
/* lapic_send_init - INIT (assert; and de-assert in xAPIC mode, as the
 * MP protocol asks of older CPUs).  The caller does the 10 ms wait. */
void lapic_send_init(u32 apic_id);
/* lapic_send_sipi - STARTUP IPI: the AP starts at real-mode page*4096. */
void lapic_send_sipi(u32 apic_id, u8 page);

/* lapic_x2apic_mode - is the x2APIC (MSR) interface in use? */
bool lapic_x2apic_mode(void);

/* lapic_spurious_count / lapic_error_count - since boot, all CPUs. */
u64 lapic_spurious_count(void);
u64 lapic_error_count(void);

/* Raw register access for lapic_timer.c.  reg is the xAPIC MMIO offset
 * (APIC_*); in x2APIC mode it becomes MSR 0x800 + reg / 16. */
u32 lapic_read(u32 reg);
void lapic_write(u32 reg, u32 val);

#define APIC_ID		0x020
#define APIC_LVR	0x030
#define APIC_TPR	0x080
#define APIC_EOI	0x0B0
#define APIC_ISR	0x100	/* 8 x 32 bits, 0x10 apart */
#define APIC_SVR	0x0F0
#define APIC_ESR	0x280
#define APIC_ICR	0x300	/* low half; x2APIC: one 64-bit MSR */
#define APIC_ICR2	0x310	/* xAPIC: destination in bits 24-31 */
#define APIC_LVTT	0x320
#define APIC_LVT0	0x350
#define APIC_LVT1	0x360
#define APIC_LVTERR	0x370
#define APIC_TMICT	0x380
#define APIC_TMCCT	0x390
#define APIC_TDCR	0x3E0

#define APIC_LVT_MASKED		(1u << 16)
#define APIC_LVT_TIMER_ONESHOT	(0u << 17)
#define APIC_LVT_TIMER_PERIODIC	(1u << 17)
#define APIC_LVT_TIMER_TSCDEADLINE (2u << 17)
#define APIC_DM_NMI		(4u << 8)

/* ICR[31:0] (SDM Vol. 3A Figure 11-12). */
#define APIC_ICR_BUSY		(1u << 12)	/* xAPIC delivery status */
#define APIC_ICR_LEVEL_ASSERT	(1u << 14)
#define APIC_ICR_TRIGGER_LEVEL	(1u << 15)
#define APIC_DM_FIXED		(0u << 8)
#define APIC_DM_INIT		(5u << 8)
#define APIC_DM_STARTUP		(6u << 8)
#define APIC_DEST_ALLBUT	(3u << 18)

#define X2APIC_MSR_BASE		0x800
#define XAPIC_MAX_DEST		0xFF	/* ICR2 holds 8 bits */

/*
 * The two register interfaces, as pure encodings (host-tested in
 * tests/host/test_lapic_encoding.c; lapic.c does the access):
 *  - x2apic_msr: xAPIC MMIO offset reg -> its MSR, 0x800 + reg / 16
 *    (SDM Vol. 3A 11.12.1.2, Table 11-6);
 *  - x2apic_icr: the one 64-bit ICR MSR write, the 32-bit destination
 *    in bits 63:32 (11.12.9);
 *  - xapic_icr2: the xAPIC ICR high word, an 8-bit destination in bits
 *    31:24 (11.6.1); a wider one does not fit (the caller warns);
 *  - xapic_id: the xAPIC ID register's bits 31:24 (11.4.6).
 */
static inline u32 x2apic_msr(u32 reg)
{
	return X2APIC_MSR_BASE + (reg >> 4);
}

static inline u64 x2apic_icr(u32 low, u32 dest)
{
	return ((u64)dest << 32) | low;
}

static inline u32 xapic_icr2(u32 dest)
{
	return (dest & XAPIC_MAX_DEST) << 24;
}

static inline u32 xapic_id(u32 id_reg)
{
	return id_reg >> 24;
}

#endif /* ARCH_X86_64_LAPIC_H */
