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

/* ioapic_lock - IOREGSEL then IOWIN is two accesses: two CPUs routing at
 * once must not interleave them.  A test-and-set lock with interrupts
 * off; TODO(locking): a raw_spinlock_t once kernel/locking has one. */
static int ioapic_lock;

static unsigned long ioapic_lock_irqsave(void)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	while (__atomic_exchange_n(&ioapic_lock, 1, __ATOMIC_ACQUIRE))
		arch_cpu_relax();
	return flags;
}

static void ioapic_unlock_irqrestore(unsigned long flags)
{
	__atomic_store_n(&ioapic_lock, 0, __ATOMIC_RELEASE);
	raw_local_irq_restore(flags);
}

static u32 ioapic_read(struct ioapic *io, u32 reg)
{
	mmio_write32(io->base + IOREGSEL, reg);
	return mmio_read32(io->base + IOWIN);
}

static void ioapic_write(struct ioapic *io, u32 reg, u32 val)
{
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

int __init ioapic_init(void)
{
	const struct acpi_madt_info *m = &acpi.madt;

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
		io->entries = ((ioapic_read(io, IOAPIC_REG_VER) >> 16) & 0xFF) + 1;
		for (u32 pin = 0; pin < io->entries; pin++)
			ioapic_write_rte(io, pin, RTE_MASKED, 0);
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
	flags = ioapic_lock_irqsave();
	ioapic_write_rte(io, pin, low, (dest & 0xFF) << 24);
	ioapic_unlock_irqrestore(flags);
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
