/*
 * arch/x86_64/acpi.c - find the ACPI tables in physical memory, decode
 * them into `acpi` (acpi.h), power off through S5 and reset through the
 * FADT reset register.  The `acpi` shell command that prints what was
 * found is kernel/shell/cmd_acpi.c.
 *
 * The RSDP comes from the Multiboot2 ACPI tag (GRUB) or, under QEMU's
 * Multiboot1 -kernel loader, from the BIOS areas (ACPI 6.5 5.2.5.1: the
 * first KiB of the EBDA, whose segment is the word at 0x40E, and the ROM
 * at 0xE0000-0xFFFFF, on 16-byte boundaries).  Tables are read through
 * the direct map, which covers 0..4 GiB in the boot page tables and in
 * the final ones (arch/x86_64/mmu.h); a table above 4 GiB is reported and
 * skipped.  All checking is done by the pure parsers of lib/acpi_*.c;
 * this file only maps, prints one warning per problem and picks fallbacks.
 * Power: ACPI 6.5 4.8.3.2.1 (PM1 control: SLP_TYP bits 12:10, SLP_EN bit
 * 13), 7.4.2.5 (\_S5), 4.8.3.6 (RESET_REG).
 * Linux counterpart: drivers/acpi/tables.c, arch/x86/kernel/acpi/boot.c,
 * drivers/acpi/sleep.c, drivers/acpi/reboot.c; rtk leaves out AML, SSDTs
 * and every sleep state but S5.
 */
#include "arch/x86_64/acpi.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/power.h"
#include "kernel/printk.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

struct acpi_info acpi;

/* The direct map always covers 0..4 GiB (boot page tables and mmu.c). */
#define ACPI_MAP_LIMIT (4ULL << 30)
/* No real table is near this size (big server DSDTs are ~1 MiB); the
 * bound keeps a garbage Length from making us checksum MMIO space. */
#define ACPI_TABLE_MAX_LEN (16u << 20)

#define BDA_EBDA_SEGMENT 0x40E	/* BIOS data area: EBDA segment >> 4 */
#define EBDA_SCAN_LEN 1024
#define BIOS_ROM_START 0xE0000
#define BIOS_ROM_END 0x100000

#define PM1_SCI_EN (1u << 0)
#define PM1_SLP_TYP_SHIFT 10
#define PM1_SLP_TYP_MASK (7u << PM1_SLP_TYP_SHIFT)
#define PM1_SLP_EN (1u << 13)
/* Polls of PM1a_CNT waiting for SCI_EN after ACPI_ENABLE; each inw is
 * about a microsecond on PC hardware, so this waits at most ~0.1 s. */
#define SCI_EN_POLLS 100000

/* A pointer to [phys, phys + len) through the direct map, or NULL. */
static const void *acpi_map(u64 phys, u64 len)
{
	if (!phys || phys >= ACPI_MAP_LIMIT || len > ACPI_MAP_LIMIT - phys)
		return NULL;
	return phys_to_virt(phys);
}

/*
 * acpi_map_table - map the table at phys, bound its Length and validate
 * it (signature sig, or any if NULL).  Returns it and its Length, or NULL
 * with *why set.  Context: any.
 */
static const void *acpi_map_table(u64 phys, const char *sig, u32 *len,
				  const char **why)
{
	const void *p = acpi_map(phys, ACPI_SDT_HEADER_LEN);
	struct acpi_sdt_info h;
	u32 span;

	if (!p) {
		*why = phys ? "above 4 GiB, not mapped" : "null address";
		return NULL;
	}
	acpi_read_sdt_header(p, ACPI_SDT_HEADER_LEN, &h);
	if (h.length > ACPI_TABLE_MAX_LEN) {
		*why = "Length over 16 MiB";
		return NULL;
	}
	span = h.length > ACPI_SDT_HEADER_LEN ? h.length : ACPI_SDT_HEADER_LEN;
	if (!acpi_map(phys, span)) {
		*why = "runs above 4 GiB, not mapped";
		return NULL;
	}
	if (acpi_validate_sdt(p, span, sig, why))
		return NULL;
	*len = h.length;
	return p;
}

/* [1] of acpi_init: the RSDP, from the loader's copy or the BIOS areas. */
static int __init acpi_find_rsdp(void)
{
	struct acpi_rsdp_info *r = &acpi.rsdp;
	const u8 *area;
	u64 ebda;
	int off;

	if (boot_info.rsdp_copied) {
		if (acpi_parse_rsdp(boot_info.rsdp, sizeof(boot_info.rsdp), r)) {
			pr_warn("ACPI: RSDP from the boot loader is bad (%s)\n",
				r->why);
			return -EINVAL;
		}
		return 0;
	}
	if (boot_info.rsdp_phys) {
		area = acpi_map(boot_info.rsdp_phys, ACPI_RSDP_V2_LEN);
		if (area && !acpi_parse_rsdp(area, ACPI_RSDP_V2_LEN, r)) {
			acpi.rsdp_phys = boot_info.rsdp_phys;
			return 0;
		}
	}
	ebda = (u64)*(const volatile u16 *)phys_to_virt(BDA_EBDA_SEGMENT) << 4;
	/* The EBDA sits just below 640 KiB; anything else is not one. */
	if (ebda >= 0x80000 && ebda + EBDA_SCAN_LEN <= 0xA0000) {
		off = acpi_scan_rsdp(phys_to_virt(ebda), EBDA_SCAN_LEN, r);
		if (off >= 0) {
			acpi.rsdp_phys = ebda + off;
			return 0;
		}
	}
	off = acpi_scan_rsdp(phys_to_virt(BIOS_ROM_START),
			     BIOS_ROM_END - BIOS_ROM_START, r);
	if (off >= 0) {
		acpi.rsdp_phys = BIOS_ROM_START + off;
		return 0;
	}
	pr_warn("ACPI: no RSDP (no boot loader tag, none in the EBDA or "
		"0xE0000-0xFFFFF)\n");
	return -ENOENT;
}

/* Tables acpi_init() decodes: their problems are reported by the code
 * that uses them, in the same line as the fallback taken. */
static const char *const acpi_used_tables[] = { "APIC", "FACP", "DSDT",
						"HPET" };

static bool acpi_is_used_table(const char *sig)
{
	for (size_t i = 0; i < ARRAY_SIZE(acpi_used_tables); i++)
		if (!memcmp(sig, acpi_used_tables[i], 4))
			return true;
	return false;
}

/* Why there is no valid table sig: a listed bad one's status, or absent. */
static const char *acpi_table_problem(const char *sig)
{
	for (int i = 0; i < acpi.n_tables; i++)
		if (!memcmp(acpi.tables[i].signature, sig, 4) &&
		    acpi.tables[i].status)
			return acpi.tables[i].status;
	return "not present";
}

/* Record a table in acpi.tables[] (for the shell and acpi_find_table). */
static void __init acpi_note_table(u64 phys)
{
	struct acpi_table *t;
	struct acpi_sdt_info h;
	const void *p;
	u32 len;

	if (acpi.n_tables >= ACPI_MAX_TABLES) {
		pr_warn("ACPI: more than %d tables, table at %#llx ignored\n",
			ACPI_MAX_TABLES, (unsigned long long)phys);
		return;
	}
	t = &acpi.tables[acpi.n_tables++];
	t->phys = phys;
	strscpy(t->signature, "????", sizeof(t->signature));
	p = acpi_map_table(phys, NULL, &len, &t->status);
	if (acpi_map(phys, ACPI_SDT_HEADER_LEN)) {
		acpi_read_sdt_header(phys_to_virt(phys), ACPI_SDT_HEADER_LEN, &h);
		memcpy(t->signature, h.signature, sizeof(t->signature));
		memcpy(t->oem_id, h.oem_id, sizeof(t->oem_id));
		t->length = h.length;
		t->revision = h.revision;
	}
	if (!p && !acpi_is_used_table(t->signature))
		pr_warn("ACPI: table %s at %#llx not used: %s\n", t->signature,
			(unsigned long long)phys, t->status);
}

/*
 * acpi_warn_overlaps - [2b] one line for each two tables (the RSDT or
 * XSDT among them, and the DSDT) that share bytes: firmware with a wrong
 * Length.  Both stay in use if their checksums hold (each table is read
 * only below its own Length).  Context: boot, after [4].
 */
static void __init acpi_warn_overlaps(void)
{
	struct acpi_span spans[ACPI_MAX_TABLES + 1];
	const char *sig[ACPI_MAX_TABLES + 1];
	u64 root = acpi.use_xsdt ? acpi.rsdp.xsdt_phys : acpi.rsdp.rsdt_phys;
	const char *why;
	int n = 0, i = 0, j = 0;
	u32 len = 0;

	if (!acpi_map_table(root, NULL, &len, &why))
		len = 0;
	spans[n] = (struct acpi_span){ root, len };
	sig[n++] = acpi.use_xsdt ? "XSDT" : "RSDT";
	for (int k = 0; k < acpi.n_tables; k++) {
		spans[n] = (struct acpi_span){ acpi.tables[k].phys,
					       acpi.tables[k].length };
		sig[n++] = acpi.tables[k].signature;
	}
	while (acpi_next_overlap(spans, n, &i, &j))
		pr_warn("ACPI: %s at %#llx (%u bytes) overlaps %s at %#llx "
			"(%u bytes): a Length is wrong; both kept\n",
			sig[i], (unsigned long long)spans[i].phys,
			spans[i].length, sig[j],
			(unsigned long long)spans[j].phys, spans[j].length);
}

/* [2] of acpi_init: the XSDT (falling back to the RSDT) and its tables. */
static int __init acpi_read_root(void)
{
	u64 entries[ACPI_MAX_TABLES];
	const char *why = NULL;
	const void *root;
	int n = 0, err;
	u32 len;

	if (acpi.rsdp.revision >= 2 && acpi.rsdp.xsdt_phys) {
		root = acpi_map_table(acpi.rsdp.xsdt_phys, "XSDT", &len, &why);
		err = root ? acpi_parse_root(root, len, true, entries,
					     ACPI_MAX_TABLES, &n, &why)
			   : -EINVAL;
		if (err == 0 || err == -E2BIG) {
			acpi.use_xsdt = true;
			goto found;
		}
		pr_warn("ACPI: XSDT at %#llx bad (%s), using the RSDT\n",
			(unsigned long long)acpi.rsdp.xsdt_phys, why);
	}
	root = acpi_map_table(acpi.rsdp.rsdt_phys, "RSDT", &len, &why);
	err = root ? acpi_parse_root(root, len, false, entries,
				     ACPI_MAX_TABLES, &n, &why)
		   : -EINVAL;
	if (err && err != -E2BIG) {
		pr_warn("ACPI: RSDT at %#llx bad (%s): no ACPI tables\n",
			(unsigned long long)acpi.rsdp.rsdt_phys, why);
		return err;
	}
found:
	if (err == -E2BIG)
		pr_warn("ACPI: %s: %s, the first %d used\n",
			acpi.use_xsdt ? "XSDT" : "RSDT", why, n);
	for (int i = 0; i < n; i++) {
		if (entries[i])
			acpi_note_table(entries[i]);
	}
	return 0;
}

const void *acpi_find_table(const char *sig, u32 *len)
{
	const char *why;

	for (int i = 0; i < acpi.n_tables; i++) {
		const struct acpi_table *t = &acpi.tables[i];

		if (!t->status && !memcmp(t->signature, sig, 4))
			return acpi_map_table(t->phys, sig, len, &why);
	}
	return NULL;
}

/* The boot CPU's APIC id: x2APIC id from CPUID leaf 0xB when there is
 * one, else the 8-bit id in leaf 1 EBX[31:24] (Intel SDM Vol. 3A 10.4.6,
 * 10.12.8.1). */
static u32 __init boot_cpu_apic_id(void)
{
	struct cpuid_regs r;

	cpuid(0, &r);
	if (r.eax >= 0xB) {
		cpuid_count(0xB, 0, &r);
		if (r.ebx)
			return r.edx;
	}
	cpuid(1, &r);
	return r.ebx >> 24;
}

/* [3] of acpi_init: the MADT, or the boot CPU alone. */
static void __init acpi_read_madt(void)
{
	struct acpi_madt_info *m = &acpi.madt;
	u32 len = 0;
	const void *p = acpi_find_table("APIC", &len);
	int err;

	if (p) {
		err = acpi_parse_madt(p, len, m);
		if (err == 0 || err == -E2BIG) {
			acpi.have_madt = true;
			if (m->why)
				pr_warn("ACPI: MADT: %s\n", m->why);
			return;
		}
		pr_warn("ACPI: MADT bad (%s): booting on the boot CPU alone\n",
			m->why);
	} else {
		pr_warn("ACPI: MADT %s: booting on the boot CPU alone\n",
			acpi_table_problem("APIC"));
	}
	memset(m, 0, sizeof(*m));
	m->lapic_addr = rdmsr(MSR_APIC_BASE) & 0x000FFFFFFFFFF000ULL;
	m->cpus[0].apic_id = boot_cpu_apic_id();
	m->cpus[0].enabled = true;
	m->n_cpus = m->n_cpus_found = 1;
	m->pcat_compat = true; /* a PC without MADT has the 8259s */
}

/* [4] of acpi_init: the FADT, the DSDT's \_S5, and the HPET. */
static void __init acpi_read_fadt_hpet(void)
{
	struct acpi_fadt_info *f = &acpi.fadt;
	const char *why = NULL;
	const void *p;
	u32 len;

	p = acpi_find_table("FACP", &len);
	if (!p || acpi_parse_fadt(p, len, f)) {
		pr_warn("ACPI: FADT %s: no PM timer, ACPI power off or reset\n",
			p ? f->why : acpi_table_problem("FACP"));
		memset(f, 0, sizeof(*f));
	} else {
		acpi.have_fadt = true;
		if (f->why)
			pr_warn("ACPI: %s\n", f->why);
		if (f->pm_timer.space_id == ACPI_GAS_SYSTEM_IO &&
		    f->pm_timer.address && f->pm_timer.address <= 0xFFFF) {
			acpi.pm_timer_port = (u16)f->pm_timer.address;
			acpi.pm_timer_32bit = f->pm_timer_32bit;
		}
		acpi_note_table(f->dsdt_phys);
		p = acpi_find_table("DSDT", &len);
		if (p && !acpi_find_s5(p, len, &acpi.s5_slp_typa,
				       &acpi.s5_slp_typb, &why))
			acpi.have_s5 = true;
		else
			pr_warn("ACPI: DSDT %s: no S5 power off\n",
				p ? why : acpi_table_problem("DSDT"));
	}

	p = acpi_find_table("HPET", &len);
	if (p && !acpi_parse_hpet(p, len, &acpi.hpet)) {
		acpi.have_hpet = true;
		acpi.hpet_addr = acpi.hpet.address;
	} else {
		pr_warn("ACPI: HPET table %s: the HPET is not used\n",
			p ? acpi.hpet.why : acpi_table_problem("HPET"));
		memset(&acpi.hpet, 0, sizeof(acpi.hpet));
	}
}

/* A register given by a GAS: I/O port or memory below 4 GiB, 8/16/32 bits
 * (bit_width 0 means "byte" for RESET_REG, 5.2.9).  False if unusable. */
static bool gas_usable(const struct acpi_gas *g)
{
	if (!g->address || g->bit_width > 32)
		return false;
	if (g->space_id == ACPI_GAS_SYSTEM_IO)
		return g->address <= 0xFFFF;
	return g->space_id == ACPI_GAS_SYSTEM_MEMORY &&
	       acpi_map(g->address, 4);
}

static u32 gas_read(const struct acpi_gas *g)
{
	if (g->space_id == ACPI_GAS_SYSTEM_IO) {
		if (g->bit_width == 32)
			return inl((u16)g->address);
		if (g->bit_width == 16)
			return inw((u16)g->address);
		return inb((u16)g->address);
	}
	if (g->bit_width == 32)
		return mmio_read32(phys_to_virt(g->address));
	if (g->bit_width == 16)
		return *(volatile u16 *)phys_to_virt(g->address);
	return *(volatile u8 *)phys_to_virt(g->address);
}

static void gas_write(const struct acpi_gas *g, u32 val)
{
	if (g->space_id == ACPI_GAS_SYSTEM_IO) {
		if (g->bit_width == 32)
			outl((u16)g->address, val);
		else if (g->bit_width == 16)
			outw((u16)g->address, (u16)val);
		else
			outb((u16)g->address, (u8)val);
		return;
	}
	if (g->bit_width == 32)
		mmio_write32(phys_to_virt(g->address), val);
	else if (g->bit_width == 16)
		*(volatile u16 *)phys_to_virt(g->address) = (u16)val;
	else
		*(volatile u8 *)phys_to_virt(g->address) = (u8)val;
}

/* Write SLP_TYP into one PM1 control register, keeping its other bits. */
static void pm1_set_sleep_type(const struct acpi_gas *cnt, u8 typ, u32 en)
{
	u32 v = gas_read(cnt) & ~(PM1_SLP_TYP_MASK | PM1_SLP_EN);

	gas_write(cnt, v | (u32)typ << PM1_SLP_TYP_SHIFT | en);
}

/*
 * acpi_poweroff - S5 as ACPICA's acpi_hw_legacy_sleep() does it:
 * [1] put the hardware in ACPI mode (SCI_EN) if the firmware left it in
 *     legacy mode, by writing ACPI_ENABLE to SMI_CMD;
 * [2] write SLP_TYPa/b to PM1a/PM1b control, then [3] the same with
 *     SLP_EN: the write with SLP_EN is what powers the machine off.
 * Context: any, interrupts off (pm_power_off, arch_poweroff()).
 */
void acpi_poweroff(void)
{
	const struct acpi_fadt_info *f = &acpi.fadt;
	bool has_b = gas_usable(&f->pm1b_cnt);

	BUG_ON(!arch_irqs_disabled_flags(arch_local_save_flags()));
	if (!acpi.have_s5 || !gas_usable(&f->pm1a_cnt))
		return;
	if (!(gas_read(&f->pm1a_cnt) & PM1_SCI_EN) && f->smi_cmd &&
	    f->smi_cmd <= 0xFFFF && f->acpi_enable) { /* [1] */
		outb((u16)f->smi_cmd, f->acpi_enable);
		for (int i = 0; i < SCI_EN_POLLS; i++)
			if (gas_read(&f->pm1a_cnt) & PM1_SCI_EN)
				break;
	}
	pm1_set_sleep_type(&f->pm1a_cnt, acpi.s5_slp_typa, 0); /* [2] */
	if (has_b)
		pm1_set_sleep_type(&f->pm1b_cnt, acpi.s5_slp_typb, 0);
	pm1_set_sleep_type(&f->pm1a_cnt, acpi.s5_slp_typa, PM1_SLP_EN); /* [3] */
	if (has_b)
		pm1_set_sleep_type(&f->pm1b_cnt, acpi.s5_slp_typb, PM1_SLP_EN);
}

/*
 * acpi_reset - write RESET_VALUE to RESET_REG (an 8-bit register, 5.2.9).
 * Context: any, interrupts off (pm_reset, arch_reboot()).
 */
void acpi_reset(void)
{
	struct acpi_gas reg = acpi.fadt.reset_reg;

	BUG_ON(!arch_irqs_disabled_flags(arch_local_save_flags()));
	reg.bit_width = 8;
	if (acpi.fadt.has_reset_reg && gas_usable(&reg))
		gas_write(&reg, acpi.fadt.reset_value);
}

/* [5] of acpi_init: install the power hooks of arch/x86_64/power.c. */
static void __init acpi_install_power_hooks(void)
{
	struct acpi_gas reset = acpi.fadt.reset_reg;

	if (acpi.have_s5 && gas_usable(&acpi.fadt.pm1a_cnt))
		pm_power_off = acpi_poweroff;
	else if (acpi.have_fadt && acpi.have_s5)
		pr_warn("ACPI: PM1a control register unusable: no S5\n");
	reset.bit_width = 8;
	if (acpi.fadt.has_reset_reg && gas_usable(&reset))
		pm_reset = acpi_reset;
	else if (acpi.fadt.has_reset_reg)
		pr_warn("ACPI: reset register in address space %u unsupported\n",
			reset.space_id);
}

/*
 * acpi_init - see acpi.h.
 * [1] RSDP; [2] XSDT/RSDT and the tables listed; [3] MADT or BSP-only
 * fallback; [4] FADT, \_S5 in the DSDT, HPET; [2b] overlapping tables
 * (after [4], so that the DSDT is among them); [5] power hooks.
 */
int __init acpi_init(void)
{
	struct acpi_madt_info *m = &acpi.madt;
	int err;

	BUG_ON(acpi.initialized);
	acpi.initialized = true;
	err = acpi_find_rsdp(); /* [1] */
	if (!err) {
		acpi.have_rsdp = true;
		err = acpi_read_root(); /* [2] */
	}
	acpi_read_madt(); /* [3] */
	acpi_read_fadt_hpet(); /* [4] */
	if (!err)
		acpi_warn_overlaps(); /* [2b] */
	acpi_install_power_hooks(); /* [5] */
	if (acpi.have_rsdp)
		pr_info("ACPI: RSDP rev %u (%s) %s, %s with %d tables\n",
			acpi.rsdp.revision, acpi.rsdp.oem_id,
			acpi.rsdp_phys ? "in BIOS memory" : "from the loader",
			acpi.use_xsdt ? "XSDT" : "RSDT", acpi.n_tables);
	pr_info("ACPI: %d CPU%s, %d IOAPIC%s, %d overrides; PM timer %#x, "
		"HPET %#llx, S5 %s, reset %s\n",
		m->n_cpus, m->n_cpus == 1 ? "" : "s", m->n_ioapics,
		m->n_ioapics == 1 ? "" : "s", m->n_overrides,
		acpi.pm_timer_port, (unsigned long long)acpi.hpet_addr,
		pm_power_off == acpi_poweroff ? "yes" : "no",
		pm_reset == acpi_reset ? "yes" : "no");
	return err ? -ENOENT : 0;
}
