/*
 * tests/kernel/test_acpi.c - the ACPI tables of the machine rtk booted on
 * (QEMU q35/pc, Bochs), as decoded by acpi_init() into `acpi`.
 *
 * Scenario: one CPU, the test runner's thread, after acpi_init().  The
 * decoded values are checked against the hardware itself where it can
 * answer: the boot CPU's APIC id from its LAPIC, the LAPIC base from
 * IA32_APIC_BASE, the PM timer counting, the HPET's own capability
 * register.  Then a private copy of the real MADT is broken in three
 * ways (one flipped byte, an entry of length 0 with the checksum fixed
 * up, a Length larger than the data) and the parser must say -EINVAL
 * each time, while the unbroken copy still parses to what acpi_init()
 * found.  Linux counterpart: none (ACPICA has its own table tests).
 */
#include "kernel/ktest.h"
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/power.h"
#include "lib/errno.h"
#include "lib/string.h"

/* PM timer: 3.579545 MHz, so it ticks every ~280 ns; a million port
 * reads (~1 us each) without a change means it is not running. */
#define PM_TIMER_POLLS 1000000

#define APIC_BASE_X2APIC_ENABLE (1ULL << 10) /* IA32_APIC_BASE.EXTD */
#define APIC_BASE_ADDR_MASK 0x000FFFFFFFFFF000ULL
#define XAPIC_ID_REG 0x20	 /* Intel SDM Vol. 3A Table 10-1 */
#define X2APIC_ID_MSR 0x802	 /* Intel SDM Vol. 3A Table 10-6 */

/*
 * The running CPU's APIC id from its local APIC's own ID register
 * (Intel SDM Vol. 3A 10.4.6, 10.12.5.1), not from CPUID as acpi.c's
 * fallback does: MSR 0x802 in x2APIC mode, else bits 31:24 at 0x20.
 */
static u32 lapic_id_register(void)
{
	u64 base = rdmsr(MSR_APIC_BASE);

	if (base & APIC_BASE_X2APIC_ENABLE)
		return (u32)rdmsr(X2APIC_ID_MSR);
	return mmio_read32(phys_to_virt((base & APIC_BASE_ADDR_MASK) +
					XAPIC_ID_REG)) >> 24;
}

static void test_acpi_tables_are_found_and_valid(struct ktest *t)
{
	KTEST_ASSERT(t, acpi.initialized, "acpi_init() has not run (kmain "
		     "must call it)");
	KTEST_ASSERT(t, acpi.have_rsdp, "no RSDP found");
	KTEST_EXPECT(t, acpi.n_tables >= 3, "only %d tables (FADT, MADT, "
		     "DSDT at least)", acpi.n_tables);
	for (int i = 0; i < acpi.n_tables; i++)
		KTEST_EXPECT(t, acpi.tables[i].status == NULL,
			     "table %s at %#llx: %s", acpi.tables[i].signature,
			     (unsigned long long)acpi.tables[i].phys,
			     acpi.tables[i].status);
}

static void test_madt_lists_the_boot_cpu_enabled(struct ktest *t)
{
	const struct acpi_madt_info *m = &acpi.madt;
	u32 id = lapic_id_register();
	bool found = false;

	KTEST_ASSERT(t, acpi.have_madt, "no valid MADT");
	KTEST_ASSERT(t, m->n_cpus >= 1, "MADT lists %d CPUs", m->n_cpus);
	for (int i = 0; i < m->n_cpus; i++)
		if (m->cpus[i].apic_id == id && m->cpus[i].enabled)
			found = true;
	KTEST_EXPECT(t, found, "boot CPU APIC id %u (LAPIC ID register) not among the %d "
		     "MADT CPUs (first: id %u)", id, m->n_cpus,
		     m->cpus[0].apic_id);
}

static void test_madt_lapic_base_matches_msr(struct ktest *t)
{
	u64 msr_base = rdmsr(MSR_APIC_BASE) & APIC_BASE_ADDR_MASK;

	KTEST_ASSERT(t, acpi.have_madt, "no valid MADT");
	KTEST_EXPECT_EQ(t, acpi.madt.lapic_addr, msr_base);
}

static void test_madt_has_an_ioapic(struct ktest *t)
{
	const struct acpi_madt_info *m = &acpi.madt;

	KTEST_ASSERT(t, acpi.have_madt, "no valid MADT");
	KTEST_ASSERT(t, m->n_ioapics >= 1, "no IOAPIC entry");
	KTEST_EXPECT(t, m->ioapics[0].address &&
			     !(m->ioapics[0].address & 0x3FF),
		     "IOAPIC base %#x not a 1 KiB aligned address",
		     m->ioapics[0].address);
	KTEST_EXPECT_EQ(t, m->ioapics[0].gsi_base, 0);
}

static void test_fadt_pm_timer_counts(struct ktest *t)
{
	u32 mask, first, now = 0;
	int i;

	KTEST_ASSERT(t, acpi.have_fadt, "no valid FADT");
	KTEST_ASSERT(t, acpi.pm_timer_port, "FADT gives no I/O PM timer "
		     "(address %#llx, space %u)",
		     (unsigned long long)acpi.fadt.pm_timer.address,
		     acpi.fadt.pm_timer.space_id);
	mask = acpi.pm_timer_32bit ? 0xFFFFFFFFu : 0x00FFFFFFu;
	first = inl(acpi.pm_timer_port) & mask;
	for (i = 0; i < PM_TIMER_POLLS; i++) {
		now = inl(acpi.pm_timer_port) & mask;
		if (now != first)
			break;
	}
	KTEST_EXPECT(t, now != first, "PM timer at port %#x stuck at %#x "
		     "for %d reads", acpi.pm_timer_port, first, i);
}

static void test_s5_poweroff_hook_is_installed(struct ktest *t)
{
	KTEST_ASSERT(t, acpi.have_fadt, "no valid FADT");
	KTEST_EXPECT(t, acpi.have_s5, "no \\_S5 package found in the DSDT");
	KTEST_EXPECT(t, pm_power_off == acpi_poweroff,
		     "pm_power_off is %p, not acpi_poweroff",
		     (void *)pm_power_off);
	KTEST_EXPECT(t, !acpi.fadt.has_reset_reg || pm_reset == acpi_reset,
		     "FADT has a reset register but pm_reset is %p",
		     (void *)pm_reset);
}

/* The HPET table's Event Timer Block ID repeats the low half of the
 * HPET's own General Capabilities register (HPET 1.0a 2.3.4, 3.2.4). */
static void test_hpet_table_matches_the_hardware(struct ktest *t)
{
	const struct acpi_hpet_info *h = &acpi.hpet;
	u32 gcap;

	if (!acpi_find_table("HPET", &(u32){ 0 }))
		ktest_skip(t, "this machine has no HPET table");
	KTEST_ASSERT(t, acpi.have_hpet && acpi.hpet_addr, "HPET table there "
		     "but not decoded (%s)", h->why ? h->why : "?");
	KTEST_ASSERT(t, acpi.hpet_addr < (4ULL << 30), "HPET above 4 GiB");
	gcap = mmio_read32(phys_to_virt(acpi.hpet_addr));
	KTEST_EXPECT_EQ(t, ((gcap >> 8) & 0x1F) + 1, h->n_comparators);
	KTEST_EXPECT_EQ(t, gcap >> 16, h->pci_vendor_id);
	KTEST_EXPECT_EQ(t, !!(gcap & (1u << 13)), h->counter_64bit);
}

static u8 madt_copy[8192];
static struct acpi_madt_info parsed;

static void fix_checksum(u8 *p, u32 len)
{
	p[9] = 0;
	p[9] = (u8)-acpi_checksum(p, len);
}

static void test_corrupted_madt_copy_is_rejected(struct ktest *t)
{
	u32 len = 0;
	const void *real = acpi_find_table("APIC", &len);
	int err;

	KTEST_ASSERT(t, real, "no valid MADT");
	if (len > sizeof(madt_copy))
		ktest_skip(t, "MADT larger than the test's 8 KiB copy");
	memcpy(madt_copy, real, len);

	err = acpi_parse_madt(madt_copy, len, &parsed);
	KTEST_ASSERT(t, err == 0 || err == -E2BIG, "intact copy: %d (%s)",
		     err, parsed.why);
	KTEST_EXPECT_EQ(t, parsed.n_cpus, acpi.madt.n_cpus);
	KTEST_EXPECT_EQ(t, parsed.n_ioapics, acpi.madt.n_ioapics);

	madt_copy[len / 2] ^= 0x20; /* one flipped bit: checksum */
	KTEST_EXPECT_EQ(t, acpi_parse_madt(madt_copy, len, &parsed), -EINVAL);
	madt_copy[len / 2] ^= 0x20;

	KTEST_ASSERT(t, len > 46, "MADT has no entries (length %u)", len);
	madt_copy[45] = 0; /* first entry's length, checksum made right */
	fix_checksum(madt_copy, len);
	KTEST_EXPECT_EQ(t, acpi_parse_madt(madt_copy, len, &parsed), -EINVAL);
	KTEST_EXPECT(t, parsed.truncated, "entry of length 0 not reported");
	memcpy(madt_copy, real, len);

	/* Length one byte beyond what the caller has. */
	madt_copy[4] = (u8)(len + 1);
	madt_copy[5] = (u8)((len + 1) >> 8);
	fix_checksum(madt_copy, len);
	KTEST_EXPECT_EQ(t, acpi_parse_madt(madt_copy, len, &parsed), -EINVAL);
}

KTEST_SUITE(acpi, KTEST_CASE(test_acpi_tables_are_found_and_valid),
	    KTEST_CASE(test_madt_lists_the_boot_cpu_enabled),
	    KTEST_CASE(test_madt_lapic_base_matches_msr),
	    KTEST_CASE(test_madt_has_an_ioapic),
	    KTEST_CASE(test_fadt_pm_timer_counts),
	    KTEST_CASE(test_s5_poweroff_hook_is_installed),
	    KTEST_CASE(test_hpet_table_matches_the_hardware),
	    KTEST_CASE(test_corrupted_madt_copy_is_rejected));
