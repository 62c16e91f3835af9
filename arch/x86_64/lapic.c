/*
 * arch/x86_64/lapic.c - the local APIC in xAPIC (MMIO) or x2APIC (MSR)
 * mode: enabling, EOI, IPIs, and the spurious and error interrupts.
 *
 * Register access goes through lapic_read/lapic_write, which take the
 * xAPIC offset; x2APIC mode turns offset o into MSR 0x800 + o/16 (SDM
 * Vol. 3A 11.12.1.2).  Two differences the callers see: the ICR is one
 * 64-bit MSR with a 32-bit destination in x2APIC mode (two MMIO words
 * with an 8-bit destination, and a delivery-status bit to wait on, in
 * xAPIC mode), and the APIC ID is 32 bits instead of bits 24-31.
 * Spurious interrupts (SVR vector) take no EOI and are only counted
 * (11.9); LVT errors are counted and the first ESR value printed
 * (11.5.3).
 * Linux counterpart: arch/x86/kernel/apic/apic.c (setup_local_APIC,
 * spurious_interrupt, error_interrupt), x2apic_phys.c, ipi.c.
 * rtk leaves out logical/cluster destinations, the APIC being disabled by
 * firmware, and 82489DX-era quirks.
 */
#include "arch/x86_64/lapic.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/ioremap.h"
#include "arch/x86_64/irq.h"
#include "arch/x86_64/irq_vectors.h"
#include "kernel/cmdline.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/bug.h"
#include "kernel/irqflags.h"

#define APIC_BASE_BSP		(1ULL << 8)
#define APIC_BASE_EXTD		(1ULL << 10)	/* x2APIC mode */
#define APIC_BASE_ENABLE	(1ULL << 11)
#define APIC_BASE_ADDR_MASK	0x000FFFFFFFFFF000ULL

#define CPUID1_ECX_X2APIC	(1u << 21)

#define APIC_SVR_ENABLE		(1u << 8)

/* Written by lapic_init on the boot CPU before any AP starts. */
static bool x2apic_mode;
static volatile u8 *xapic_base;

static u64 spurious_count;
static u64 error_count;
static bool nox2apic;

static int __init parse_nox2apic(const char *val)
{
	(void)val;
	nox2apic = true;
	return 0;
}
CMDLINE_PARAM("nox2apic", parse_nox2apic);

bool lapic_x2apic_mode(void)
{
	return x2apic_mode;
}

u32 lapic_read(u32 reg)
{
	if (x2apic_mode)
		return (u32)rdmsr(x2apic_msr(reg));
	return mmio_read32(xapic_base + reg);
}

void lapic_write(u32 reg, u32 val)
{
	if (x2apic_mode)
		wrmsr(x2apic_msr(reg), val);
	else
		mmio_write32(xapic_base + reg, val);
}

u32 lapic_id(void)
{
	if (x2apic_mode)
		return (u32)rdmsr(x2apic_msr(APIC_ID));
	return xapic_id(mmio_read32(xapic_base + APIC_ID));
}

void lapic_eoi(void)
{
	lapic_write(APIC_EOI, 0);
}

bool lapic_vector_in_service(u8 vector)
{
	return lapic_read(APIC_ISR + 0x10 * (vector / 32)) &
	       (1u << (vector % 32));
}

/*
 * xapic_wait_icr_idle - wait until the previous IPI left the ICR.  The
 * bound (about a second of port-0x80 reads) only turns a wedged APIC
 * into a warning; real and emulated APICs clear the bit in microseconds.
 */
static void xapic_wait_icr_idle(void)
{
	for (unsigned long spins = 0; spins < 1000000; spins++) {
		if (!(mmio_read32(xapic_base + APIC_ICR) & APIC_ICR_BUSY))
			return;
		io_wait();
	}
	pr_warn("lapic: ICR delivery status stuck busy\n");
}

/*
 * lapic_icr_write - send one IPI: low is ICR[31:0] (vector, delivery
 * mode, level, shorthand), dest the physical APIC ID.
 *
 * In xAPIC mode it waits for the ICR to be idle before the write, not
 * after it, as Linux's __default_send_IPI_dest_field does: the next
 * sender finds out whether this IPI left, and nobody else needs to.
 * Only the AP start-up sequence waits after each write
 * (lapic_send_init, lapic_send_sipi), as Linux's smpboot does.  Each
 * ICR read is an MMIO exit under an emulator: waiting on both sides
 * cost every reschedule IPI a second read, 9,360 extra reads a second
 * under `load cpu 2; load hackbench 2` (docs/latency.md, "The loaded
 * average, looked at from the host"), and bought nothing on hardware.
 * Context: any.  Locking: interrupts off around the write, so an
 * interrupt handler on this CPU sending its own IPI cannot slip between
 * the two xAPIC halves.
 */
static void lapic_icr_write(u32 low, u32 dest)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	if (x2apic_mode) {
		/* WRMSR to x2APIC registers is not serialising: make earlier
		 * stores visible before the IPI (SDM Vol. 3A 11.12.3). */
		__asm__ volatile("mfence; lfence" ::: "memory");
		wrmsr(x2apic_msr(APIC_ICR), x2apic_icr(low, dest));
	} else {
		/* an APIC ID above 255 exists only in x2APIC mode */
		WARN_ON_ONCE(dest > XAPIC_MAX_DEST);
		xapic_wait_icr_idle();
		mmio_write32(xapic_base + APIC_ICR2, xapic_icr2(dest));
		mmio_write32(xapic_base + APIC_ICR, low);
	}
	raw_local_irq_restore(flags);
}

/* lapic_icr_wait_sent - the start-up sequence's wait for the INIT or
 * STARTUP just written to leave the ICR (x2APIC has no busy bit). */
static void lapic_icr_wait_sent(void)
{
	if (!x2apic_mode)
		xapic_wait_icr_idle();
}

void lapic_send_ipi(u32 apic_id, u8 vector)
{
	lapic_icr_write(APIC_DM_FIXED | APIC_ICR_LEVEL_ASSERT | vector, apic_id);
}

void lapic_send_ipi_allbutself(u8 vector)
{
	lapic_icr_write(APIC_DEST_ALLBUT | APIC_DM_FIXED |
				APIC_ICR_LEVEL_ASSERT | vector, 0);
}

void lapic_send_nmi(u32 apic_id)
{
	lapic_icr_write(APIC_DM_NMI | APIC_ICR_LEVEL_ASSERT, apic_id);
}

void lapic_send_init(u32 apic_id)
{
	lapic_icr_write(APIC_DM_INIT | APIC_ICR_TRIGGER_LEVEL |
				APIC_ICR_LEVEL_ASSERT, apic_id);
	lapic_icr_wait_sent();
	/* The de-assert form is reserved in x2APIC mode (SDM 11.12.9). */
	if (!x2apic_mode) {
		lapic_icr_write(APIC_DM_INIT | APIC_ICR_TRIGGER_LEVEL, apic_id);
		lapic_icr_wait_sent();
	}
}

void lapic_send_sipi(u32 apic_id, u8 page)
{
	lapic_icr_write(APIC_DM_STARTUP | page, apic_id);
	lapic_icr_wait_sent();
}

u64 lapic_spurious_count(void)
{
	return __atomic_load_n(&spurious_count, __ATOMIC_RELAXED);
}

u64 lapic_error_count(void)
{
	return __atomic_load_n(&error_count, __ATOMIC_RELAXED);
}

/*
 * spurious_interrupt - the APIC withdrew an interrupt it had signalled
 * (SDM 11.9): nothing is in service, so no EOI.
 * Context: hardirq.
 */
static void spurious_interrupt(struct pt_regs *regs)
{
	(void)regs;
	__atomic_fetch_add(&spurious_count, 1, __ATOMIC_RELAXED);
}

/*
 * error_interrupt - the LVT error vector: ESR says what went wrong
 * (bit 5 send illegal vector, 6 receive illegal vector, 7 illegal
 * register).  Writing ESR latches the current errors into it (11.5.3).
 * Context: hardirq.
 */
static void error_interrupt(struct pt_regs *regs)
{
	u32 esr;

	(void)regs;
	lapic_write(APIC_ESR, 0);
	esr = lapic_read(APIC_ESR);
	if (__atomic_fetch_add(&error_count, 1, __ATOMIC_RELAXED) == 0)
		pr_err("lapic: APIC error on APIC %u, ESR %#x (further errors counted only)\n",
		       lapic_id(), esr);
	lapic_eoi();
}

/*
 * lapic_init_cpu - see lapic.h.
 * Context: each CPU once, interrupts off.
 */
void lapic_init_cpu(void)
{
	u64 base = rdmsr(MSR_APIC_BASE);

	BUG_ON(!arch_irqs_disabled());
	/* xAPIC -> x2APIC goes through enabled xAPIC first (SDM 11.12.5). */
	base |= APIC_BASE_ENABLE;
	wrmsr(MSR_APIC_BASE, base);
	if (x2apic_mode)
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_EXTD);

	lapic_write(APIC_TPR, 0);		/* accept every priority */
	lapic_write(APIC_LVTT, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	/* The 8259 (ExtINT through LINT0) is masked, the IOAPIC delivers
	 * devices; LINT1 is the NMI pin on PCs (the MADT's LAPIC NMI entry
	 * says LINT1 on every board rtk has met). */
	lapic_write(APIC_LVT0, APIC_LVT_MASKED);
	lapic_write(APIC_LVT1, APIC_DM_NMI);
	lapic_write(APIC_LVTERR, ERROR_VECTOR);
	lapic_write(APIC_ESR, 0);		/* clear old errors: write twice */
	lapic_write(APIC_ESR, 0);
	lapic_write(APIC_SVR, APIC_SVR_ENABLE | SPURIOUS_VECTOR);
	lapic_eoi();				/* drop anything left in service */
	irq_stack_init_cpu();	/* interrupts come next: give them a stack */
}

/*
 * lapic_init - see lapic.h.
 * Context: boot CPU, once, interrupts off.
 */
void __init lapic_init(void)
{
	struct cpuid_regs r;
	u64 phys;

	BUG_ON(!arch_irqs_disabled());
	cpuid(1, &r);
	x2apic_mode = (r.ecx & CPUID1_ECX_X2APIC) && !nox2apic;
	/* Firmware may have handed over in x2APIC mode already; leaving it
	 * needs a full APIC disable, so stay in it. */
	if (!x2apic_mode && (rdmsr(MSR_APIC_BASE) & APIC_BASE_EXTD)) {
		pr_warn("lapic: firmware left x2APIC on, nox2apic ignored\n");
		x2apic_mode = true;
	}
	if (!x2apic_mode) {
		phys = acpi.madt.lapic_addr;
		if (!phys)
			phys = rdmsr(MSR_APIC_BASE) & APIC_BASE_ADDR_MASK;
		xapic_base = ioremap_nocache(phys, PAGE_SIZE);
		if (!xapic_base)
			panic("lapic: cannot map the xAPIC at %#llx",
			      (unsigned long long)phys);
	}
	if (arch_set_irq_handler(SPURIOUS_VECTOR, spurious_interrupt) ||
	    arch_set_irq_handler(ERROR_VECTOR, error_interrupt))
		panic("lapic: spurious/error vectors already taken");
	lapic_init_cpu();
	pr_info("lapic: %s mode, BSP APIC ID %u, version %#x\n",
		x2apic_mode ? "x2APIC" : "xAPIC", lapic_id(),
		lapic_read(APIC_LVR) & 0xFF);
}
