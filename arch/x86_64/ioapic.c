/*
 * arch/x86_64/ioapic.c - the I/O APICs: one 64-bit redirection entry per
 * input, read and written through an index/data register pair.
 *
 * Each IOAPIC serves the GSIs [gsi_base, gsi_base + entries).  An ISA IRQ
 * arrives at GSI = irq with edge trigger, active high, unless the MADT
 * has an interrupt source override for it (QEMU and most PCs: IRQ 0 at
 * GSI 2; the SCI, IRQ 9, level/active low).
 * Spec: Intel 82093AA I/O APIC data sheet 3.2 (IOREGSEL/IOWIN, IOAPICVER,
 * IOREDTBL); ACPI 6.5 5.2.12.5 (interrupt source override).
 * Linux counterpart: arch/x86/kernel/apic/io_apic.c (much reduced: no
 * PCI routing, no interrupt remapping, physical destination only).
 */
#include "arch/x86_64/ioapic.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/ioremap.h"
#include "arch/x86_64/irq_vectors.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/printk.h"
#include "lib/bug.h"
#include "lib/errno.h"

#define IOREGSEL	0x00
#define IOWIN		0x10
#define IOAPIC_REG_VER	0x01
#define IOAPIC_REDTBL(n) (0x10 + 2 * (n))

#define RTE_POLARITY_LOW (1u << 13)
#define RTE_TRIGGER_LEVEL (1u << 15)
#define RTE_MASKED	(1u << 16)

struct ioapic {
	volatile u8 *base;	/* mapped registers */
	u8 id;			/* IOAPIC ID (MADT) */
	u32 gsi_base;		/* first GSI */
	u32 entries;		/* redirection entries */
};

/* Filled by ioapic_init() on the boot CPU, read-only afterwards. */
static struct ioapic ioapics[ACPI_MAX_IOAPICS];
static int nr_ioapics;

/*
 * ioapic_lock - IOREGSEL then IOWIN is two accesses: two CPUs routing at
 * once must not interleave them.  A raw_spinlock_t taken with irqs off
 * (raw_spin_lock_irqsave): a spinning lock under every model, never a
 * sleeping one, since masking a line may happen in hard-irq context.
 * Usable from ioapic_init() on: arch_irq_init() runs after
 * percpu_init_bsp() and sched_init(), so raw_spin_lock's preempt_count
 * lands in the boot CPU's own copy; the latency hooks return at once
 * until latency_timing_init(); the stuck-lock check reads ktime_get(),
 * started by time_init() before that.
 */
static DEFINE_RAW_SPINLOCK(ioapic_lock);

/* ioapic_read / ioapic_write - one register through the index/data pair.
 * Locking: ioapic_lock held (the pair is not atomic). */
static u32 ioapic_read(struct ioapic *io, u32 reg)
{
	raw_spin_assert_held(&ioapic_lock);
	mmio_write32(io->base + IOREGSEL, reg);
	return mmio_read32(io->base + IOWIN);
}

static void ioapic_write(struct ioapic *io, u32 reg, u32 val)
{
	raw_spin_assert_held(&ioapic_lock);
	mmio_write32(io->base + IOREGSEL, reg);
	mmio_write32(io->base + IOWIN, val);
}

/* ioapic_write_rte - mask first, then the destination, then the low half
 * (which may unmask), so the entry is never live half-written. */
static void ioapic_write_rte(struct ioapic *io, u32 pin, u32 low, u32 high)
{
	ioapic_write(io, IOAPIC_REDTBL(pin), RTE_MASKED);
	ioapic_write(io, IOAPIC_REDTBL(pin) + 1, high);
	ioapic_write(io, IOAPIC_REDTBL(pin), low);
}

int ioapic_count(void)
{
	return nr_ioapics;
}

/*
 * ioapic_init - map every MADT IOAPIC and mask all its entries.
 * Context: boot CPU, once, irqs off (arch_irq_init), before the APs.
 * Locking: takes ioapic_lock around each IOAPIC's registers.
 */
int __init ioapic_init(void)
{
	const struct acpi_madt_info *m = &acpi.madt;
	unsigned long flags;

	BUG_ON(!arch_irqs_disabled());
	if (!acpi.have_madt || !m->n_ioapics) {
		pr_warn("ioapic: none in the MADT, device interrupts off (polling)\n");
		return 0;
	}
	for (int i = 0; i < m->n_ioapics; i++) {
		struct ioapic *io = &ioapics[nr_ioapics];

		io->base = ioremap_nocache(m->ioapics[i].address, PAGE_SIZE);
		if (!io->base)
			continue;
		io->id = m->ioapics[i].id;
		io->gsi_base = m->ioapics[i].gsi_base;
		/* uncontended (APs not started); taken for ioapic_read's
		 * assertion and so that the early use is exercised */
		raw_spin_lock_irqsave(&ioapic_lock, flags);
		io->entries = ((ioapic_read(io, IOAPIC_REG_VER) >> 16) & 0xFF) + 1;
		for (u32 pin = 0; pin < io->entries; pin++)
			ioapic_write_rte(io, pin, RTE_MASKED, 0);
		raw_spin_unlock_irqrestore(&ioapic_lock, flags);
		pr_info("ioapic: IOAPIC %u at %#x, GSI %u-%u, all masked\n",
			io->id, m->ioapics[i].address, io->gsi_base,
			io->gsi_base + io->entries - 1);
		nr_ioapics++;
	}
	return nr_ioapics;
}

/* isa_irq_to_gsi - apply the MADT override for ISA irq, if any. */
static u32 isa_irq_to_gsi(int irq, bool *active_low, bool *level)
{
	const struct acpi_madt_info *m = &acpi.madt;

	*active_low = false;
	*level = false;
	for (int i = 0; i < m->n_overrides; i++) {
		const struct acpi_madt_override *o = &m->overrides[i];

		if (o->bus == 0 && o->source_irq == irq) {
			*active_low = o->active_low;
			*level = o->level_triggered;
			return o->gsi;
		}
	}
	return (u32)irq;
}

static struct ioapic *gsi_to_ioapic(u32 gsi, u32 *pin)
{
	for (int i = 0; i < nr_ioapics; i++) {
		struct ioapic *io = &ioapics[i];

		if (gsi >= io->gsi_base && gsi < io->gsi_base + io->entries) {
			*pin = gsi - io->gsi_base;
			return io;
		}
	}
	return NULL;
}

/*
 * ioapic_set_isa - program ISA irq's entry: vector to dest, or masked.
 * Context: any, hard-irq too (the lock is raw, irqs off); never sleeps.
 * Locking: takes ioapic_lock.
 */
static int ioapic_set_isa(int irq, u8 vector, u32 dest, bool masked)
{
	bool active_low, level;
	struct ioapic *io;
	unsigned long flags;
	u32 gsi, pin, low;

	if (irq < 0 || irq >= NR_ISA_IRQS)
		return -EINVAL;
	if (!masked && vector < FIRST_EXTERNAL_VECTOR)
		return -EINVAL;
	gsi = isa_irq_to_gsi(irq, &active_low, &level);
	io = gsi_to_ioapic(gsi, &pin);
	if (!io)
		return -ENODEV;
	/* Fixed delivery, physical destination (xAPIC: 8-bit APIC ID in
	 * bits 56-63; larger x2APIC IDs would need interrupt remapping). */
	low = vector | (active_low ? RTE_POLARITY_LOW : 0) |
	      (level ? RTE_TRIGGER_LEVEL : 0) | (masked ? RTE_MASKED : 0);
	raw_spin_lock_irqsave(&ioapic_lock, flags);
	ioapic_write_rte(io, pin, low, (dest & 0xFF) << 24);
	raw_spin_unlock_irqrestore(&ioapic_lock, flags);
	return 0;
}

int ioapic_route_isa(int irq, u8 vector, u32 dest)
{
	if (dest > 0xFF)
		return -EINVAL;
	return ioapic_set_isa(irq, vector, dest, false);
}

bool ioapic_isa_is_level(int irq)
{
	bool active_low, level;

	isa_irq_to_gsi(irq, &active_low, &level);
	return level;
}

int ioapic_mask_isa(int irq)
{
	return ioapic_set_isa(irq, 0, 0, true);
}
