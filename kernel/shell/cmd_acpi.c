/*
 * kernel/shell/cmd_acpi.c - `acpi`: the ACPI tables the machine found,
 * then the MADT (CPUs, IOAPICs, overrides, NMI sources), FADT, S5 and
 * HPET summaries, from the decoded tables of arch/x86_64/acpi.c.
 * Linux counterpart: none as a command (/sys/firmware/acpi/tables, the
 * boot log of arch/x86/kernel/acpi/boot.c).
 */
#include "kernel/shell/shell.h"
#include "kernel/printk.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"

static const char *mps_polarity(u16 flags)
{
	return (flags & ACPI_MPS_POLARITY_MASK) == ACPI_MPS_POLARITY_LOW
		       ? "low" : "high";
}

static const char *mps_trigger(u16 flags)
{
	return (flags & ACPI_MPS_TRIGGER_MASK) == ACPI_MPS_TRIGGER_LEVEL
		       ? "level" : "edge";
}

static void print_madt(const struct acpi_info *a)
{
	const struct acpi_madt_info *m = &a->madt;

	console_printf("MADT%s: local APIC %#llx%s\n",
		       a->have_madt ? "" : " (fallback: none found)",
		       (unsigned long long)m->lapic_addr,
		       m->pcat_compat ? ", 8259 PICs present" : "");
	for (int i = 0; i < m->n_cpus; i++)
		console_printf("  cpu    uid %-3u apic id %-4u %s%s\n",
			       m->cpus[i].uid, m->cpus[i].apic_id,
			       m->cpus[i].enabled ? "enabled" : "online-capable",
			       m->cpus[i].x2apic ? " (x2APIC entry)" : "");
	for (int i = 0; i < m->n_ioapics; i++)
		console_printf("  ioapic id %-3u at %#x, GSI base %u\n",
			       m->ioapics[i].id, m->ioapics[i].address,
			       m->ioapics[i].gsi_base);
	for (int i = 0; i < m->n_overrides; i++)
		console_printf("  override IRQ %-2u -> GSI %-3u %s, active %s\n",
			       m->overrides[i].source_irq, m->overrides[i].gsi,
			       m->overrides[i].level_triggered ? "level" : "edge",
			       m->overrides[i].active_low ? "low" : "high");
	for (int i = 0; i < m->n_nmi_sources; i++)
		console_printf("  NMI source GSI %u %s %s\n",
			       m->nmi_sources[i].gsi,
			       mps_trigger(m->nmi_sources[i].flags),
			       mps_polarity(m->nmi_sources[i].flags));
	for (int i = 0; i < m->n_lapic_nmis; i++) {
		const struct acpi_madt_lapic_nmi *n = &m->lapic_nmis[i];

		if (n->uid == ACPI_UID_ALL_CPUS)
			console_printf("  local NMI LINT%u, every CPU\n", n->lint);
		else
			console_printf("  local NMI LINT%u, CPU uid %u\n",
				       n->lint, n->uid);
	}
	if (m->n_cpus_found > m->n_cpus || m->n_cpus_disabled)
		console_printf("  (%d CPUs beyond %d ignored, %d disabled)\n",
			       m->n_cpus_found - m->n_cpus, RTK_MAX_CPUS,
			       m->n_cpus_disabled);
}

/* cmd_acpi - `acpi`: the table list, then the MADT, FADT and HPET
 * summaries.  Context: task (the shell). */
static int cmd_acpi(int argc, char **argv)
{
	const struct acpi_info *a = arch_acpi_info();
	const struct acpi_fadt_info *f = &a->fadt;

	if (shell_no_args(argc, argv))
		return -EINVAL;
	if (!a->have_rsdp) {
		console_printf("no ACPI tables found\n");
	} else {
		console_printf("RSDP rev %u OEM %s at %#llx, %s:\n",
			       a->rsdp.revision, a->rsdp.oem_id,
			       (unsigned long long)a->rsdp_phys,
			       a->use_xsdt ? "XSDT" : "RSDT");
		for (int i = 0; i < a->n_tables; i++) {
			const struct acpi_table *t = &a->tables[i];

			console_printf("  %-4s %#010llx %6u rev %-2u %-6s %s\n",
				       t->signature, (unsigned long long)t->phys,
				       t->length, t->revision, t->oem_id,
				       t->status ? t->status : "ok");
		}
	}
	print_madt(a);
	if (a->have_fadt)
		console_printf("FADT rev %u: SCI IRQ %u, PM timer %#llx (%u-bit), "
			       "PM1a %#llx, PM1b %#llx, reset %s %#llx <- %#x\n",
			       f->revision, f->sci_irq,
			       (unsigned long long)f->pm_timer.address,
			       f->pm_timer_32bit ? 32 : 24,
			       (unsigned long long)f->pm1a_cnt.address,
			       (unsigned long long)f->pm1b_cnt.address,
			       f->has_reset_reg ? "reg" : "none",
			       (unsigned long long)f->reset_reg.address,
			       f->reset_value);
	if (a->have_s5)
		console_printf("S5: SLP_TYPa %u, SLP_TYPb %u\n",
			       a->s5_slp_typa, a->s5_slp_typb);
	if (a->have_hpet)
		console_printf("HPET: %#llx, %u comparators, %s counter\n",
			       (unsigned long long)a->hpet.address,
			       a->hpet.n_comparators,
			       a->hpet.counter_64bit ? "64-bit" : "32-bit");
	return 0;
}
SHELL_COMMAND(acpi, "ACPI tables found, CPUs and IOAPICs of the MADT", cmd_acpi);
