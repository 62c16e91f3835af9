/*
 * arch/x86_64/acpi.h - what rtk learnt from the firmware's ACPI tables.
 *
 * acpi_init() finds the RSDP, walks the RSDT/XSDT and fills `acpi` once at
 * boot; the LAPIC, IOAPIC, SMP, timekeeping and power code read it after
 * that (read-only, no lock).  The decoding itself is the pure code of
 * lib/acpi_tables.c, acpi_madt.c and acpi_fadt.c.  Linux counterpart: include/linux/acpi.h,
 * arch/x86/include/asm/acpi.h (acpi_boot_init()).
 */
#ifndef ARCH_X86_64_ACPI_H
#define ARCH_X86_64_ACPI_H

#include "lib/acpi_tables.h"

#define ACPI_MAX_TABLES 32		   /* RSDT/XSDT entries kept, + DSDT */
#define ACPI_DEFAULT_LAPIC_ADDR 0xFEE00000 /* Intel SDM Vol. 3A 11.4.1 */

/* One table the RSDT/XSDT (or the FADT, for the DSDT) points at. */
struct acpi_table {
	char signature[5];  /* "APIC", "FACP", ...; "????" if unreadable */
	u64 phys;	    /* physical address of its header */
	u32 length;	    /* Length field, 0 if unreadable */
	u8 revision;	    /* table revision */
	char oem_id[7];	    /* OEMID */
	const char *status; /* NULL: valid; else why it is not used */
};

/*
 * Written by acpi_init() on the boot CPU before the APs start; read-only
 * afterwards, so readers need no lock.  When a table is missing or bad,
 * the have_* flag is false and the fields hold the fallback (the MADT
 * fallback is the boot CPU alone at the LAPIC base from IA32_APIC_BASE).
 */
struct acpi_info {
	bool initialized;		/* acpi_init() has run */
	bool have_rsdp;			/* an RSDP was found and is valid */
	u64 rsdp_phys;			/* where, 0 = multiboot2 tag copy */
	struct acpi_rsdp_info rsdp;	/* decoded RSDP */
	bool use_xsdt;			/* the table list came from the XSDT */
	struct acpi_table tables[ACPI_MAX_TABLES]; /* every table seen */
	int n_tables;			/* entries in tables[] */

	bool have_madt;			/* false: madt is the BSP fallback */
	struct acpi_madt_info madt;	/* CPUs, IOAPICs, overrides, NMIs */

	bool have_fadt;			/* FADT valid */
	struct acpi_fadt_info fadt;	/* PM timer, PM1, reset register */
	bool have_s5;			/* \_S5 found: S5 power off usable */
	u8 s5_slp_typa, s5_slp_typb;	/* SLP_TYP for PM1a / PM1b */

	bool have_hpet;			/* HPET table valid */
	struct acpi_hpet_info hpet;	/* HPET base and capabilities */

	/* Shortcuts for the timekeeping code. */
	u16 pm_timer_port;		/* I/O port of the PM timer, 0 = none */
	bool pm_timer_32bit;		/* counter 32 bits wide, else 24 */
	u64 hpet_addr;			/* HPET MMIO base, 0 = none */
};

extern struct acpi_info acpi;

/* arch_acpi_info - what acpi_init() found and decoded, read-only: the
 * portable kernel's one way to the tables (the `acpi` command).
 * Context: any, after acpi_init(). */
static inline const struct acpi_info *arch_acpi_info(void)
{
	return &acpi;
}

/*
 * acpi_init - find and decode the ACPI tables into `acpi`, install the
 * ACPI power-off and reset hooks.  Returns 0, or -ENOENT when there is no
 * usable RSDP (`acpi` then holds the fallbacks).  Every missing or bad
 * table is reported with one pr_warn line.
 * Context: boot CPU, once, before the APs start; may not sleep.
 */
int acpi_init(void);

/*
 * acpi_find_table - the mapped, validated table with signature sig (the
 * first one if there are several), its Length in *len; NULL if none.
 * Context: any, after acpi_init().
 */
const void *acpi_find_table(const char *sig, u32 *len);

/* acpi_poweroff - enter S5 through PM1a/PM1b control; returns only if the
 * machine did not go off.  Context: any, interrupts off. */
void acpi_poweroff(void);
/* acpi_reset - write the FADT reset register; returns only if the machine
 * did not reset.  Context: any, interrupts off. */
void acpi_reset(void);

#endif /* ARCH_X86_64_ACPI_H */
