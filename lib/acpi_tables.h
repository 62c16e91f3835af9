/*
 * lib/acpi_tables.h - pure parsers for the ACPI tables rtk reads.
 *
 * Every function here only reads the byte buffer it is handed: no
 * physical memory access, no printk, no allocation.  The caller (the arch
 * ACPI code in the kernel, the host unit tests and the fuzz target) maps
 * or copies a table, calls the parser and prints the `why` string of a
 * failure.  Parsers never read past `len`, check the length and checksum
 * of every table themselves, and return 0 or a negative errno:
 *   -EINVAL  malformed (bad checksum, impossible length, bad entry)
 *   -ENOENT  wrong signature, or the thing looked for is not there
 *   -E2BIG   more entries than the caller's array holds (the array is full)
 *
 * Spec references (ACPI 6.5): 5.2.3.2 Generic Address Structure, 5.2.5.3
 * RSDP Structure, 5.2.6 System Description Table Header, 5.2.7 RSDT,
 * 5.2.8 XSDT, 5.2.9 FADT (Table 5.9, flags Table 5.10, IA-PC boot
 * architecture flags Table 5.11), 5.2.12 MADT (Tables 5.43-5.58),
 * 7.4.2 \_Sx system states, 20.2 AML grammar (PkgLength 20.2.4,
 * DefPackage 20.2.5.4); IA-PC HPET specification 1.0a, 3.2.4 HPET table.
 * Linux counterpart: include/acpi/actbl*.h, drivers/acpi/tables.c,
 * arch/x86/kernel/acpi/boot.c; rtk has no AML interpreter, so \_S5 is
 * found by a byte pattern scan instead of ACPICA's namespace.
 */
#ifndef LIB_ACPI_TABLES_H
#define LIB_ACPI_TABLES_H

#include "lib/types.h"

#ifndef RTK_MAX_CPUS
#define RTK_MAX_CPUS 64
#endif

#define ACPI_SDT_HEADER_LEN 36 /* 5.2.6: every table starts with this */
#define ACPI_RSDP_V1_LEN 20    /* bytes covered by the v1 checksum */
#define ACPI_RSDP_V2_LEN 36    /* sizeof the revision 2 RSDP */

/* Generic Address Structure address spaces (5.2.3.2, Table 5.1). */
#define ACPI_GAS_SYSTEM_MEMORY 0
#define ACPI_GAS_SYSTEM_IO 1
#define ACPI_GAS_PCI_CONFIG 2

/* 5.2.3.2 Generic Address Structure, decoded. */
struct acpi_gas {
	u8 space_id;	/* ACPI_GAS_SYSTEM_MEMORY, ACPI_GAS_SYSTEM_IO, ... */
	u8 bit_width;	/* register width in bits, 0 = not given */
	u8 bit_offset;	/* first bit of the register */
	u8 access_size; /* 0 undefined, 1 byte, 2 word, 3 dword, 4 qword */
	u64 address;	/* address in space_id; 0 = register absent */
};

/* 5.2.5.3 Root System Description Pointer. */
struct acpi_rsdp_info {
	u8 revision;	 /* 0 = ACPI 1.0 (RSDT only), >= 2 = has an XSDT */
	char oem_id[7];	 /* OEMID, NUL-terminated */
	u32 length;	 /* bytes checked: 20 for v1, Length for v2 */
	u32 rsdt_phys;	 /* RsdtAddress, 32-bit physical */
	u64 xsdt_phys;	 /* XsdtAddress, 0 when revision < 2 */
	const char *why; /* reason of a failure, NULL on success */
};

/* 5.2.6 System Description Table Header, decoded for printing. */
struct acpi_sdt_info {
	char signature[5];     /* e.g. "APIC", NUL-terminated */
	u32 length;	       /* whole table, header included */
	u8 revision;	       /* table revision (FADT: 1 = ACPI 1.0) */
	char oem_id[7];	       /* OEMID, NUL-terminated */
	char oem_table_id[9];  /* OEM Table ID, NUL-terminated */
	u32 oem_revision;      /* OEM Revision */
};

/*
 * MPS INTI flags of MADT override and NMI entries (Table 5.50).
 * "Conforms" means the bus default: edge, active high on ISA.
 */
#define ACPI_MPS_POLARITY_MASK 0x3
#define ACPI_MPS_POLARITY_CONFORMS 0x0
#define ACPI_MPS_POLARITY_HIGH 0x1
#define ACPI_MPS_POLARITY_LOW 0x3
#define ACPI_MPS_TRIGGER_MASK 0xC
#define ACPI_MPS_TRIGGER_CONFORMS 0x0
#define ACPI_MPS_TRIGGER_EDGE 0x4
#define ACPI_MPS_TRIGGER_LEVEL 0xC

#define ACPI_MADT_PCAT_COMPAT (1u << 0) /* MADT flags: dual 8259s present */
#define ACPI_MADT_ENABLED (1u << 0)	/* LAPIC flags: usable now */
#define ACPI_MADT_ONLINE_CAPABLE (1u << 1) /* LAPIC flags: may be enabled */
#define ACPI_UID_ALL_CPUS 0xFFFFFFFFu /* NMI entry uid meaning "every CPU" */

#define ACPI_MAX_IOAPICS 8
#define ACPI_MAX_OVERRIDES 24	  /* 16 ISA IRQs plus room for PCI ones */
#define ACPI_MAX_NMI_SOURCES 4
#define ACPI_MAX_LAPIC_NMIS RTK_MAX_CPUS /* firmware may give one per CPU */

/* MADT type 0 (Table 5.45) or type 9 (Table 5.56) entry. */
struct acpi_madt_cpu {
	u32 apic_id;	     /* local APIC ID, or x2APIC ID for type 9 */
	u32 uid;	     /* ACPI processor UID (matches the DSDT) */
	bool enabled;	     /* flags bit 0: the CPU is usable now */
	bool online_capable; /* flags bit 1: disabled but hot-addable */
	bool x2apic;	     /* came from a type 9 (x2APIC) entry */
};

/* MADT type 1 (Table 5.47). */
struct acpi_madt_ioapic {
	u8 id;	      /* I/O APIC ID */
	u32 address;  /* physical MMIO base, usually 0xfec00000 */
	u32 gsi_base; /* first global system interrupt of its inputs */
};

/* MADT type 2 (Table 5.48): ISA IRQ `source_irq` arrives at `gsi`. */
struct acpi_madt_override {
	u8 bus;		      /* 0 = ISA, the only bus the spec names */
	u8 source_irq;	      /* bus-relative IRQ (ISA IRQ number) */
	u32 gsi;	      /* global system interrupt it is wired to */
	u16 flags;	      /* raw MPS INTI flags, ACPI_MPS_* */
	bool active_low;      /* polarity, "conforms" resolved to ISA high */
	bool level_triggered; /* trigger, "conforms" resolved to ISA edge */
};

/* MADT type 3 (Table 5.51): a GSI that is an NMI. */
struct acpi_madt_nmi_source {
	u16 flags; /* raw MPS INTI flags */
	u32 gsi;   /* global system interrupt that carries the NMI */
};

/* MADT type 4 (Table 5.52) or type 0xA (Table 5.57). */
struct acpi_madt_lapic_nmi {
	u32 uid;    /* processor UID, ACPI_UID_ALL_CPUS for every CPU */
	u16 flags;  /* raw MPS INTI flags */
	u8 lint;    /* local APIC LINT# input (0 or 1) */
	bool x2apic; /* came from a type 0xA entry */
};

/*
 * Everything rtk takes from the MADT.  About 2.5 KiB: keep it static, not
 * on a kernel stack.  n_* count stored entries, *_found count every
 * usable entry seen, so *_found > n_* means some were dropped.
 */
struct acpi_madt_info {
	u64 lapic_addr;		  /* local APIC base, after any type 5 override */
	bool lapic_addr_override; /* a type 5 entry replaced the 32-bit field */
	u32 flags;		  /* raw MADT flags */
	bool pcat_compat;	  /* PCAT_COMPAT: 8259 PICs present, mask them */

	struct acpi_madt_cpu cpus[RTK_MAX_CPUS]; /* enabled/online-capable */
	int n_cpus;		 /* entries in cpus[] */
	int n_cpus_found;	 /* usable CPUs seen, may exceed RTK_MAX_CPUS */
	int n_cpus_disabled;	 /* entries neither enabled nor online capable */

	struct acpi_madt_ioapic ioapics[ACPI_MAX_IOAPICS]; /* type 1 */
	int n_ioapics;		 /* entries in ioapics[] */
	int n_ioapics_found;	 /* type 1 entries seen */

	struct acpi_madt_override overrides[ACPI_MAX_OVERRIDES]; /* type 2 */
	int n_overrides;	 /* entries in overrides[] */
	int n_overrides_found;	 /* type 2 entries seen */

	struct acpi_madt_nmi_source nmi_sources[ACPI_MAX_NMI_SOURCES]; /* 3 */
	int n_nmi_sources;	 /* entries in nmi_sources[] */
	int n_nmi_sources_found; /* type 3 entries seen */

	struct acpi_madt_lapic_nmi lapic_nmis[ACPI_MAX_LAPIC_NMIS]; /* 4, 0xA */
	int n_lapic_nmis;	 /* entries in lapic_nmis[] */
	int n_lapic_nmis_found;	 /* type 4 and 0xA entries seen */

	int n_skipped;		 /* entries too short for their type, skipped */
	bool truncated;		 /* the entry walk hit a broken entry */
	const char *why;	 /* failure reason, or warning when 0 returned */
};

/* FADT Flags (Table 5.10) that rtk looks at. */
#define ACPI_FADT_TMR_VAL_EXT (1u << 8)	 /* PM timer is 32 bits, not 24 */
#define ACPI_FADT_RESET_REG_SUP (1u << 10) /* RESET_REG is usable */
#define ACPI_FADT_HW_REDUCED (1u << 20)	 /* no fixed hardware (no PM1) */

/* IA-PC boot architecture flags (Table 5.11). */
#define ACPI_BOOT_LEGACY_DEVICES (1u << 0)
#define ACPI_BOOT_8042 (1u << 1)
#define ACPI_BOOT_NO_VGA (1u << 2)
#define ACPI_BOOT_NO_MSI (1u << 3)
#define ACPI_BOOT_NO_ASPM (1u << 4)
#define ACPI_BOOT_NO_CMOS_RTC (1u << 5)

/*
 * What rtk takes from the FADT.  A register whose address is 0 is absent;
 * fields past the table's length (old, short FADTs) read as absent.
 */
struct acpi_fadt_info {
	u8 revision;		/* 1 = ACPI 1.0 (116 bytes), 3 = 2.0, 6 = 6.x */
	u32 length;		/* table length, decides which fields exist */
	u32 flags;		/* raw Flags (Table 5.10) */
	bool hw_reduced;	/* HW_REDUCED_ACPI: no PM timer, no PM1 */
	u16 sci_irq;		/* SCI_INT, as an ISA IRQ / GSI */
	u32 smi_cmd;		/* SMI_CMD port, 0: ACPI mode is fixed */
	u8 acpi_enable;		/* ACPI_ENABLE: write to smi_cmd to set SCI_EN */
	u64 dsdt_phys;		/* X_DSDT when non-zero, else DSDT */

	struct acpi_gas pm_timer; /* X_PM_TMR_BLK, else PM_TMR_BLK (I/O) */
	bool pm_timer_32bit;	  /* TMR_VAL_EXT: counter is 32, not 24 bits */

	struct acpi_gas pm1a_cnt; /* X_PM1a_CNT_BLK, else PM1a_CNT_BLK */
	struct acpi_gas pm1b_cnt; /* X_PM1b_CNT_BLK, else PM1b_CNT_BLK */

	bool has_reset_reg;	  /* RESET_REG_SUP and a non-zero RESET_REG */
	struct acpi_gas reset_reg; /* RESET_REG, valid if has_reset_reg */
	u8 reset_value;		  /* RESET_VALUE to write there */

	u8 century;		/* CMOS index of the century byte, 0 = none */
	bool has_boot_arch;	/* IAPC_BOOT_ARCH exists (revision >= 3) */
	u16 boot_arch;		/* raw IAPC_BOOT_ARCH, 0 when absent */
	bool has_8042;		/* 8042 keyboard controller (assumed if absent) */
	bool vga_not_present;	/* do not probe VGA */
	bool cmos_rtc_not_present; /* no CMOS RTC at ports 0x70/0x71 */
	const char *why;	/* failure reason, or warning when 0 returned */
};

/* IA-PC HPET specification 1.0a, 3.2.4: the ACPI HPET table. */
struct acpi_hpet_info {
	u64 address;		/* MMIO base of the timer block */
	u8 hpet_number;		/* sequence number of this HPET */
	u16 min_tick;		/* minimum periodic tick, in counter ticks */
	u8 page_protection;	/* OEM page protection attribute */
	u16 pci_vendor_id;	/* Event Timer Block ID bits 31:16 */
	u8 n_comparators;	/* comparators (timers), from bits 12:8 + 1 */
	bool counter_64bit;	/* COUNT_SIZE_CAP: main counter is 64 bits */
	bool legacy_replacement; /* LEG_RT_CAP: can replace PIT/RTC IRQs */
	const char *why;	/* failure reason, NULL on success */
};

/* Where a table lies in physical memory: header address and Length. */
struct acpi_span {
	u64 phys;	/* first byte */
	u32 length;	/* bytes; 0: unknown, overlaps nothing */
};

/* Checksums and headers (5.2.5.3, 5.2.6). */
u8 acpi_checksum(const void *buf, size_t len);
int acpi_parse_rsdp(const void *buf, size_t len, struct acpi_rsdp_info *out);
/* acpi_scan_rsdp returns the byte offset (>= 0) of the first valid RSDP
 * at a 16-byte boundary of buf, or -ENOENT. */
int acpi_scan_rsdp(const void *buf, size_t len, struct acpi_rsdp_info *out);
int acpi_read_sdt_header(const void *buf, size_t len,
			 struct acpi_sdt_info *out);
int acpi_validate_sdt(const void *buf, size_t len, const char *sig4,
		      const char **why);

/* Tables. */
/* acpi_parse_root: -E2BIG leaves the first `max` entries in entries[]. */
int acpi_parse_root(const void *buf, size_t len, bool is_xsdt, u64 *entries,
		    int max, int *n, const char **why);
int acpi_parse_madt(const void *buf, size_t len, struct acpi_madt_info *out);
int acpi_parse_fadt(const void *buf, size_t len, struct acpi_fadt_info *out);
/* acpi_find_s5: dsdt is a whole DSDT or SSDT; -ENOENT when no \_S5. */
int acpi_find_s5(const void *dsdt, size_t len, u8 *slp_typa, u8 *slp_typb,
		 const char **why);
int acpi_parse_hpet(const void *buf, size_t len, struct acpi_hpet_info *out);

/* Table placement.  acpi_next_overlap: the next pair (*i < *j) of spans
 * sharing a byte, after the pair given (start with *i = *j = 0); false
 * when there is none left. */
bool acpi_spans_overlap(const struct acpi_span *x, const struct acpi_span *y);
bool acpi_next_overlap(const struct acpi_span *spans, int n, int *i, int *j);

#endif /* LIB_ACPI_TABLES_H */
