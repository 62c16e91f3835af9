/*
 * lib/acpi_tables.c - pure parsers for RSDP, RSDT/XSDT, MADT,
 * FADT, HPET and the \_S5 package of the DSDT (API: acpi_tables.h).
 *
 * Everything reads one byte buffer with explicit little-endian loads (no
 * casts to packed structs: the tables are often misaligned and the host
 * build runs under UBSan).  Each parser first checks signature, Length and
 * checksum with acpi_validate_sdt(); from then on it reads only below the
 * table's own Length, which is <= len.  Built for the kernel and, with the
 * same source, for the host unit tests and the libFuzzer target.
 * At ~800 lines it is over the 600-line soft limit on purpose: the
 * Makefile builds exactly this file into the host tests and the fuzzer,
 * so every parser lives here, one "----" section per table.
 *
 * Spec: ACPI 6.5 sections 5.2.5.3, 5.2.6-5.2.9, 5.2.12, 20.2 (AML
 * encoding); IA-PC HPET 1.0a 3.2.4.  Linux counterpart:
 * drivers/acpi/tables.c (acpi_parse_entries_array), arch/x86/kernel/
 * acpi/boot.c (acpi_parse_lapic etc.), ACPICA's tbxfroot.c / hwxfsleep.c;
 * rtk has no AML interpreter and keeps only the fields it uses.
 */
#include "lib/acpi_tables.h"
#include "lib/errno.h"
#include "lib/string.h"

/* Offsets inside the tables (ACPI 6.5 Tables 5.3, 5.9, 5.43; HPET 3.2.4). */
#define RSDP_CHECKSUM_V1_END 20
#define RSDP_OEM_ID 9
#define RSDP_REVISION 15
#define RSDP_RSDT 16
#define RSDP_LENGTH 20
#define RSDP_XSDT 24

#define SDT_LENGTH 4
#define SDT_REVISION 8
#define SDT_OEM_ID 10
#define SDT_OEM_TABLE_ID 16
#define SDT_OEM_REVISION 24

#define MADT_LAPIC_ADDR_FIELD 36
#define MADT_FLAGS 40
#define MADT_ENTRIES 44

#define FADT_DSDT 40
#define FADT_SCI_INT 46
#define FADT_SMI_CMD 48
#define FADT_ACPI_ENABLE 52
#define FADT_PM1A_CNT_BLK 64
#define FADT_PM1B_CNT_BLK 68
#define FADT_PM_TMR_BLK 76
#define FADT_PM1_CNT_LEN 89
#define FADT_PM_TMR_LEN 91
#define FADT_CENTURY 108
#define FADT_IAPC_BOOT_ARCH 109
#define FADT_FLAGS 112
#define FADT_V1_LEN 116 /* the ACPI 1.0 FADT ends after Flags */
#define FADT_RESET_REG 116
#define FADT_RESET_VALUE 128
#define FADT_X_DSDT 140
#define FADT_X_PM1A_CNT_BLK 172
#define FADT_X_PM1B_CNT_BLK 184
#define FADT_X_PM_TMR_BLK 208
#define GAS_LEN 12

#define HPET_BLOCK_ID 36
#define HPET_BASE_GAS 40
#define HPET_NUMBER 52
#define HPET_MIN_TICK 53
#define HPET_PAGE_PROT 55
#define HPET_LEN 56

static u16 rd16(const u8 *p)
{
	return (u16)(p[0] | p[1] << 8);
}

static u32 rd32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static u64 rd64(const u8 *p)
{
	return (u64)rd32(p) | (u64)rd32(p + 4) << 32;
}

/*
 * acpi_checksum - the byte sum mod 256 of buf[0..len); every ACPI checksum
 * field is chosen so that it is 0 over the structure.  Context: any; pure.
 */
u8 acpi_checksum(const void *buf, size_t len)
{
	const u8 *p = buf;
	u8 sum = 0;

	while (len--)
		sum += *p++;
	return sum;
}

static bool sum_is_zero(const u8 *p, size_t n)
{
	return acpi_checksum(p, n) == 0;
}

static void copy_name(char *dst, const u8 *src, size_t n)
{
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void read_gas(const u8 *p, struct acpi_gas *gas)
{
	gas->space_id = p[0];
	gas->bit_width = p[1];
	gas->bit_offset = p[2];
	gas->access_size = p[3];
	gas->address = rd64(p + 4);
}

/* The sleep types of \_S5 are 3-bit fields of PM1x_CNT (Table 4.13). */
#define SLP_TYP_MAX 7

/*
 * acpi_parse_rsdp - check and decode an RSDP that starts at buf[0].
 * Context: any; pure.
 */
int acpi_parse_rsdp(const void *buf, size_t len, struct acpi_rsdp_info *out)
{
	const u8 *p = buf;
	u32 full;

	memset(out, 0, sizeof(*out));
	if (len < ACPI_RSDP_V1_LEN) {
		out->why = "RSDP shorter than 20 bytes";
		return -EINVAL;
	}
	if (memcmp(p, "RSD PTR ", 8)) {
		out->why = "no \"RSD PTR \" signature";
		return -ENOENT;
	}
	if (!sum_is_zero(p, RSDP_CHECKSUM_V1_END)) {
		out->why = "RSDP checksum (first 20 bytes) is wrong";
		return -EINVAL;
	}
	out->revision = p[RSDP_REVISION];
	copy_name(out->oem_id, p + RSDP_OEM_ID, 6);
	out->rsdt_phys = rd32(p + RSDP_RSDT);
	out->length = ACPI_RSDP_V1_LEN;
	if (out->revision < 2)
		return 0;

	/* Revision 2+: Length and the extended checksum cover XsdtAddress. */
	if (len < ACPI_RSDP_V2_LEN) {
		out->why = "RSDP revision >= 2 but buffer shorter than 36 bytes";
		return -EINVAL;
	}
	full = rd32(p + RSDP_LENGTH);
	if (full < ACPI_RSDP_V2_LEN || full > len) {
		out->why = "RSDP Length field is impossible";
		return -EINVAL;
	}
	if (!sum_is_zero(p, full)) {
		out->why = "RSDP extended checksum is wrong";
		return -EINVAL;
	}
	out->length = full;
	out->xsdt_phys = rd64(p + RSDP_XSDT);
	return 0;
}

/*
 * acpi_scan_rsdp - find the first valid RSDP at a 16-byte boundary
 * (ACPI 6.5 5.2.5.1: the BIOS puts it on one) in a copy or mapping of the
 * EBDA or the BIOS ROM area.  A signature with a bad checksum is skipped:
 * the string "RSD PTR " may occur in ROM code or data by chance.
 * Context: any; pure.
 */
int acpi_scan_rsdp(const void *buf, size_t len, struct acpi_rsdp_info *out)
{
	const u8 *p = buf;
	size_t off;

	for (off = 0; off + ACPI_RSDP_V1_LEN <= len; off += 16) {
		if (memcmp(p + off, "RSD PTR ", 8))
			continue;
		if (acpi_parse_rsdp(p + off, len - off, out) == 0)
			return (int)off;
	}
	memset(out, 0, sizeof(*out));
	out->why = "no valid RSDP in the area scanned";
	return -ENOENT;
}

/*
 * acpi_read_sdt_header - decode the 36-byte header, for printing and to
 * learn Length before mapping the rest.  Checks nothing else.
 * Context: any; pure.
 */
int acpi_read_sdt_header(const void *buf, size_t len,
			 struct acpi_sdt_info *out)
{
	const u8 *p = buf;

	memset(out, 0, sizeof(*out));
	if (len < ACPI_SDT_HEADER_LEN)
		return -EINVAL;
	copy_name(out->signature, p, 4);
	out->length = rd32(p + SDT_LENGTH);
	out->revision = p[SDT_REVISION];
	copy_name(out->oem_id, p + SDT_OEM_ID, 6);
	copy_name(out->oem_table_id, p + SDT_OEM_TABLE_ID, 8);
	out->oem_revision = rd32(p + SDT_OEM_REVISION);
	return 0;
}

/*
 * acpi_validate_sdt - signature (sig4, or any when NULL), 36 <= Length <=
 * len, and the checksum over Length bytes.  Returns 0, -ENOENT for another
 * signature, -EINVAL for the rest; *why (if why) says which.
 * Context: any; pure.
 */
int acpi_validate_sdt(const void *buf, size_t len, const char *sig4,
		      const char **why)
{
	const char *reason = NULL;
	const u8 *p = buf;
	int err = -EINVAL;
	u32 length;

	if (len < ACPI_SDT_HEADER_LEN) {
		reason = "shorter than the 36-byte table header";
		goto out;
	}
	if (sig4 && memcmp(p, sig4, 4)) {
		reason = "wrong signature";
		err = -ENOENT;
		goto out;
	}
	length = rd32(p + SDT_LENGTH);
	if (length < ACPI_SDT_HEADER_LEN) {
		reason = "Length field smaller than the table header";
		goto out;
	}
	if (length > len) {
		reason = "truncated: Length field runs past the data";
		goto out;
	}
	if (!sum_is_zero(p, length)) {
		reason = "checksum is wrong";
		goto out;
	}
	err = 0;
out:
	if (why)
		*why = reason;
	return err;
}

/*
 * acpi_parse_root - the physical addresses an RSDT (4-byte entries) or an
 * XSDT (8-byte entries) lists.  Entries are copied as found, zeros
 * included.  -E2BIG: more than max, the first max are in entries[].
 * Context: any; pure.
 */
int acpi_parse_root(const void *buf, size_t len, bool is_xsdt, u64 *entries,
		    int max, int *n, const char **why)
{
	size_t esize = is_xsdt ? 8 : 4;
	const char *ignored;
	const u8 *p = buf;
	size_t count, i;
	u32 length;
	int err;

	if (!why)
		why = &ignored;
	*n = 0;
	err = acpi_validate_sdt(buf, len, is_xsdt ? "XSDT" : "RSDT", why);
	if (err)
		return err;
	length = rd32(p + SDT_LENGTH);
	if ((length - ACPI_SDT_HEADER_LEN) % esize) {
		*why = is_xsdt ? "XSDT length is not header + 8 * n"
			       : "RSDT length is not header + 4 * n";
		return -EINVAL;
	}
	count = (length - ACPI_SDT_HEADER_LEN) / esize;
	for (i = 0; i < count && (int)i < max; i++) {
		const u8 *e = p + ACPI_SDT_HEADER_LEN + i * esize;

		entries[i] = is_xsdt ? rd64(e) : rd32(e);
	}
	*n = (int)i;
	if (count > i) {
		*why = "more tables than rtk keeps";
		return -E2BIG;
	}
	return 0;
}

/* ---- table placement ------------------------------------------------ */

/*
 * acpi_spans_overlap - do x and y share a byte?  A span reaching past
 * 2^64 is clipped there (a Length near 4 GiB on a high table must not
 * wrap around to address 0 and "overlap" everything).  Firmware that
 * lays one table over another (a FACP whose Length runs into the DSDT
 * behind it, a table inside the RSDT) has a bad Length somewhere; each
 * checksum may still be right, so the caller warns and keeps both.
 * Context: any; pure.
 */
bool acpi_spans_overlap(const struct acpi_span *x, const struct acpi_span *y)
{
	u64 x_end, y_end;

	if (!x->length || !y->length)
		return false;
	x_end = x->phys + x->length - 1; /* last byte */
	if (x_end < x->phys)
		x_end = ~0ULL;
	y_end = y->phys + y->length - 1;
	if (y_end < y->phys)
		y_end = ~0ULL;
	return x->phys <= y_end && y->phys <= x_end;
}

/* acpi_next_overlap - see acpi_tables.h; pairs in order (0,1), (0,2) ..
 * (1,2) ..  Context: any; pure. */
bool acpi_next_overlap(const struct acpi_span *spans, int n, int *i, int *j)
{
	int a = *i, b = *j + 1;

	for (; a < n; a++, b = a + 1) {
		for (; b < n; b++) {
			if (acpi_spans_overlap(&spans[a], &spans[b])) {
				*i = a;
				*j = b;
				return true;
			}
		}
	}
	return false;
}

/* ---- MADT (5.2.12) ---------------------------------------------------- */

enum madt_type {
	MADT_LAPIC = 0,
	MADT_IOAPIC = 1,
	MADT_OVERRIDE = 2,
	MADT_NMI_SOURCE = 3,
	MADT_LAPIC_NMI = 4,
	MADT_LAPIC_ADDR_OVERRIDE = 5,
	MADT_X2APIC = 9,
	MADT_X2APIC_NMI = 10,
};

/* Minimum entry length per type (Tables 5.45-5.57); 0: type not used. */
static const u8 madt_min_len[] = {
	[MADT_LAPIC] = 8,      [MADT_IOAPIC] = 12,    [MADT_OVERRIDE] = 10,
	[MADT_NMI_SOURCE] = 8, [MADT_LAPIC_NMI] = 6,  [MADT_LAPIC_ADDR_OVERRIDE] = 12,
	[MADT_X2APIC] = 16,    [MADT_X2APIC_NMI] = 12,
};

static bool madt_has_apic_id(const struct acpi_madt_info *m, u32 apic_id)
{
	for (int i = 0; i < m->n_cpus; i++)
		if (m->cpus[i].apic_id == apic_id)
			return true;
	return false;
}

/*
 * Types 0 and 9: keep CPUs that are enabled or online capable.  An xAPIC
 * id of 0xFF is the broadcast id, never a CPU; a CPU listed twice (a type
 * 0 and a type 9 entry for one id) is kept once.
 */
static void madt_add_cpu(struct acpi_madt_info *m, u32 apic_id, u32 uid,
			 u32 flags, bool x2apic)
{
	struct acpi_madt_cpu *c;

	if (!(flags & (ACPI_MADT_ENABLED | ACPI_MADT_ONLINE_CAPABLE))) {
		m->n_cpus_disabled++;
		return;
	}
	if ((!x2apic && apic_id == 0xFF) || madt_has_apic_id(m, apic_id)) {
		m->n_skipped++;
		m->why = "CPU entry with APIC id 0xFF or listed twice skipped";
		return;
	}
	m->n_cpus_found++;
	if (m->n_cpus >= RTK_MAX_CPUS)
		return;
	c = &m->cpus[m->n_cpus++];
	c->apic_id = apic_id;
	c->uid = uid;
	c->enabled = flags & ACPI_MADT_ENABLED;
	c->online_capable = !c->enabled && (flags & ACPI_MADT_ONLINE_CAPABLE);
	c->x2apic = x2apic;
}

/* Resolve "conforms to the bus" for ISA: edge triggered, active high. */
static void madt_add_override(struct acpi_madt_info *m, const u8 *e)
{
	struct acpi_madt_override *o;
	u16 flags = rd16(e + 8);

	if (m->n_overrides_found++ >= ACPI_MAX_OVERRIDES)
		return;
	o = &m->overrides[m->n_overrides++];
	o->bus = e[2];
	o->source_irq = e[3];
	o->gsi = rd32(e + 4);
	o->flags = flags;
	o->active_low = (flags & ACPI_MPS_POLARITY_MASK) ==
			ACPI_MPS_POLARITY_LOW;
	o->level_triggered = (flags & ACPI_MPS_TRIGGER_MASK) ==
			     ACPI_MPS_TRIGGER_LEVEL;
}

static void madt_add_lapic_nmi(struct acpi_madt_info *m, u32 uid, u16 flags,
			       u8 lint, bool x2apic)
{
	struct acpi_madt_lapic_nmi *n;

	if (m->n_lapic_nmis_found++ >= ACPI_MAX_LAPIC_NMIS)
		return;
	n = &m->lapic_nmis[m->n_lapic_nmis++];
	n->uid = uid;
	n->flags = flags;
	n->lint = lint;
	n->x2apic = x2apic;
}

/* One entry of known-good length; the byte layouts are Tables 5.45-5.57. */
static void madt_entry(struct acpi_madt_info *m, const u8 *e)
{
	switch (e[0]) {
	case MADT_LAPIC:
		madt_add_cpu(m, e[3], e[2], rd32(e + 4), false);
		break;
	case MADT_X2APIC:
		madt_add_cpu(m, rd32(e + 4), rd32(e + 12), rd32(e + 8), true);
		break;
	case MADT_IOAPIC:
		if (m->n_ioapics_found++ < ACPI_MAX_IOAPICS) {
			struct acpi_madt_ioapic *io = &m->ioapics[m->n_ioapics++];

			io->id = e[2];
			io->address = rd32(e + 4);
			io->gsi_base = rd32(e + 8);
		}
		break;
	case MADT_OVERRIDE:
		madt_add_override(m, e);
		break;
	case MADT_NMI_SOURCE:
		if (m->n_nmi_sources_found++ < ACPI_MAX_NMI_SOURCES) {
			struct acpi_madt_nmi_source *s =
				&m->nmi_sources[m->n_nmi_sources++];

			s->flags = rd16(e + 2);
			s->gsi = rd32(e + 4);
		}
		break;
	case MADT_LAPIC_NMI:
		madt_add_lapic_nmi(m, e[2] == 0xFF ? ACPI_UID_ALL_CPUS : e[2],
				   rd16(e + 3), e[5], false);
		break;
	case MADT_X2APIC_NMI:
		madt_add_lapic_nmi(m, rd32(e + 4), rd16(e + 2), e[8], true);
		break;
	case MADT_LAPIC_ADDR_OVERRIDE:
		m->lapic_addr = rd64(e + 4);
		m->lapic_addr_override = true;
		break;
	}
}

/*
 * acpi_parse_madt - decode the MADT into *out.
 * Returns 0 (out->why may hold a warning: an entry was skipped), -ENOENT
 * (not an MADT), -EINVAL (bad table, or an entry of length < 2 or past the
 * end: out->truncated, the entries before it are kept), or -E2BIG (an
 * array of *out filled up; everything else is complete).
 * Context: any; pure.
 *
 * [1] validate header, Length, checksum; the fixed part must fit;
 * [2] walk the entries: each has type and length in its first two bytes,
 *     and must lie wholly inside Length;
 * [3] an entry shorter than its type needs is skipped and counted;
 * [4] report overflow of any array as -E2BIG.
 */
int acpi_parse_madt(const void *buf, size_t len, struct acpi_madt_info *out)
{
	const u8 *p = buf;
	u32 length, off;
	int err;

	memset(out, 0, sizeof(*out));
	err = acpi_validate_sdt(buf, len, "APIC", &out->why); /* [1] */
	if (err)
		return err;
	length = rd32(p + SDT_LENGTH);
	if (length < MADT_ENTRIES) {
		out->why = "MADT shorter than its fixed fields";
		return -EINVAL;
	}
	out->lapic_addr = rd32(p + MADT_LAPIC_ADDR_FIELD);
	out->flags = rd32(p + MADT_FLAGS);
	out->pcat_compat = out->flags & ACPI_MADT_PCAT_COMPAT;

	for (off = MADT_ENTRIES; off < length;) { /* [2] */
		const u8 *e = p + off;
		u8 type, elen;

		if (length - off < 2 || e[1] < 2 || e[1] > length - off) {
			out->truncated = true;
			out->why = length - off < 2 || e[1] >= 2
					   ? "MADT entry runs past the table end"
					   : "MADT entry with length < 2";
			return -EINVAL;
		}
		type = e[0];
		elen = e[1];
		off += elen;
		if (type >= sizeof(madt_min_len) || !madt_min_len[type])
			continue; /* a type rtk does not use */
		if (elen < madt_min_len[type]) { /* [3] */
			out->n_skipped++;
			out->why = "MADT entry too short for its type skipped";
			continue;
		}
		madt_entry(out, e);
	}

	if (out->n_cpus_found > out->n_cpus) { /* [4] */
		out->why = "more CPUs than RTK_MAX_CPUS; extra ones ignored";
		return -E2BIG;
	}
	if (out->n_ioapics_found > out->n_ioapics ||
	    out->n_overrides_found > out->n_overrides ||
	    out->n_nmi_sources_found > out->n_nmi_sources ||
	    out->n_lapic_nmis_found > out->n_lapic_nmis) {
		out->why = "more MADT entries of one type than rtk keeps";
		return -E2BIG;
	}
	return 0;
}

/* ---- FADT (5.2.9) ------------------------------------------------------ */

/*
 * A fixed-hardware register: the 64-bit X_ GAS when the table is long
 * enough and it is non-zero, else the ACPI 1.0 32-bit I/O port field.
 */
static void fadt_reg(const u8 *p, u32 length, u32 x_off, u32 legacy_off,
		     u8 legacy_bytes, struct acpi_gas *gas)
{
	memset(gas, 0, sizeof(*gas));
	if (length >= x_off + GAS_LEN) {
		read_gas(p + x_off, gas);
		if (gas->address)
			return;
	}
	memset(gas, 0, sizeof(*gas));
	gas->address = rd32(p + legacy_off);
	if (gas->address) {
		gas->space_id = ACPI_GAS_SYSTEM_IO;
		gas->bit_width = (u8)(legacy_bytes * 8);
	}
}

/*
 * acpi_parse_fadt - decode the FADT ("FACP").  Needs at least the 116
 * bytes of the ACPI 1.0 layout; later fields exist only when Length says
 * so.  Returns 0 (out->why may warn: no PM timer, no PM1a control),
 * -ENOENT or -EINVAL.
 * Context: any; pure.
 */
int acpi_parse_fadt(const void *buf, size_t len, struct acpi_fadt_info *out)
{
	const u8 *p = buf;
	u32 length;
	int err;

	memset(out, 0, sizeof(*out));
	err = acpi_validate_sdt(buf, len, "FACP", &out->why);
	if (err)
		return err;
	length = rd32(p + SDT_LENGTH);
	if (length < FADT_V1_LEN) {
		out->why = "FADT shorter than the 116-byte ACPI 1.0 layout";
		return -EINVAL;
	}
	out->revision = p[SDT_REVISION];
	out->length = length;
	out->flags = rd32(p + FADT_FLAGS);
	out->hw_reduced = out->flags & ACPI_FADT_HW_REDUCED;
	out->sci_irq = rd16(p + FADT_SCI_INT);
	out->smi_cmd = rd32(p + FADT_SMI_CMD);
	out->acpi_enable = p[FADT_ACPI_ENABLE];
	out->dsdt_phys = rd32(p + FADT_DSDT);
	if (length >= FADT_X_DSDT + 8 && rd64(p + FADT_X_DSDT))
		out->dsdt_phys = rd64(p + FADT_X_DSDT);

	if (!out->hw_reduced) {
		fadt_reg(p, length, FADT_X_PM_TMR_BLK, FADT_PM_TMR_BLK,
			 p[FADT_PM_TMR_LEN], &out->pm_timer);
		fadt_reg(p, length, FADT_X_PM1A_CNT_BLK, FADT_PM1A_CNT_BLK,
			 p[FADT_PM1_CNT_LEN], &out->pm1a_cnt);
		fadt_reg(p, length, FADT_X_PM1B_CNT_BLK, FADT_PM1B_CNT_BLK,
			 p[FADT_PM1_CNT_LEN], &out->pm1b_cnt);
		out->pm_timer_32bit = out->flags & ACPI_FADT_TMR_VAL_EXT;
	}

	if (length >= FADT_RESET_VALUE + 1 &&
	    (out->flags & ACPI_FADT_RESET_REG_SUP)) {
		read_gas(p + FADT_RESET_REG, &out->reset_reg);
		out->reset_value = p[FADT_RESET_VALUE];
		out->has_reset_reg = out->reset_reg.address != 0;
	}

	out->century = p[FADT_CENTURY];
	/* IAPC_BOOT_ARCH was reserved in ACPI 1.0 (FADT revision 1, 2). */
	out->has_boot_arch = out->revision >= 3;
	if (out->has_boot_arch)
		out->boot_arch = rd16(p + FADT_IAPC_BOOT_ARCH);
	out->has_8042 = !out->has_boot_arch ||
			(out->boot_arch & ACPI_BOOT_8042);
	out->vga_not_present = out->boot_arch & ACPI_BOOT_NO_VGA;
	out->cmos_rtc_not_present = out->boot_arch & ACPI_BOOT_NO_CMOS_RTC;

	if (!out->hw_reduced && !out->pm1a_cnt.address)
		out->why = "FADT has no PM1a control block (no S5 power off)";
	else if (!out->hw_reduced && !out->pm_timer.address)
		out->why = "FADT has no PM timer";
	return 0;
}

/* ---- \_S5 in the DSDT (AML, 20.2) -------------------------------------- */

#define AML_ZERO_OP 0x00
#define AML_ONE_OP 0x01
#define AML_NAME_OP 0x08
#define AML_BYTE_PREFIX 0x0A
#define AML_WORD_PREFIX 0x0B
#define AML_DWORD_PREFIX 0x0C
#define AML_QWORD_PREFIX 0x0E
#define AML_PACKAGE_OP 0x12
#define AML_ROOT_CHAR 0x5C
#define AML_ONES_OP 0xFF

/*
 * One integer package element at p[*pos] (ComputationalData 20.2.3):
 * ZeroOp, OneOp, OnesOp, or a Byte/Word/DWord/QWord prefix and constant.
 * Returns false when it is something else or runs past end.
 */
static bool aml_integer(const u8 *p, u32 *pos, u32 end, u64 *val)
{
	u32 i = *pos, n;

	if (i >= end)
		return false;
	switch (p[i]) {
	case AML_ZERO_OP:
	case AML_ONE_OP:
		*val = p[i];
		*pos = i + 1;
		return true;
	case AML_ONES_OP:
		*val = ~0ULL;
		*pos = i + 1;
		return true;
	case AML_BYTE_PREFIX:
		n = 1;
		break;
	case AML_WORD_PREFIX:
		n = 2;
		break;
	case AML_DWORD_PREFIX:
		n = 4;
		break;
	case AML_QWORD_PREFIX:
		n = 8;
		break;
	default:
		return false;
	}
	if (end - i - 1 < n)
		return false;
	*val = 0;
	for (u32 k = 0; k < n; k++)
		*val |= (u64)p[i + 1 + k] << (8 * k);
	*pos = i + 1 + n;
	return true;
}

/*
 * Decode `Name(_S5, Package(n) { typa, typb, ... })` whose NameSeg "_S5_"
 * is at p[seg].  The package must lie inside end (its PkgLength is
 * checked too).  Returns 0, -ENOENT (not a Name of a Package: "_S5_" was
 * part of other code) or -EINVAL (a broken package).
 */
static int s5_package(const u8 *p, u32 seg, u32 end, u8 *a, u8 *b,
		      const char **why)
{
	u32 pos = seg + 4, pkg_start, pkg_len, extra, nelem;
	u64 va, vb;
	bool named;

	/* NameOp, optionally followed by the root prefix '\'. */
	named = (seg >= 1 && p[seg - 1] == AML_NAME_OP) ||
		(seg >= 2 && p[seg - 1] == AML_ROOT_CHAR &&
		 p[seg - 2] == AML_NAME_OP);
	if (!named || pos >= end || p[pos] != AML_PACKAGE_OP)
		return -ENOENT;
	pkg_start = ++pos;
	/* PkgLength (20.2.4): bits 7:6 of the lead byte = extra bytes. */
	if (pos >= end)
		goto out_truncated;
	extra = p[pos] >> 6;
	if (end - pos < extra + 1)
		goto out_truncated;
	if (extra)
		pkg_len = p[pos] & 0x0F;
	else
		pkg_len = p[pos] & 0x3F;
	for (u32 k = 0; k < extra; k++)
		pkg_len |= (u32)p[pos + 1 + k] << (4 + 8 * k);
	pos += extra + 1;
	if (pkg_len < extra + 2 || pkg_len > end - pkg_start)
		goto out_truncated;
	end = pkg_start + pkg_len; /* elements must stay in the package */
	nelem = p[pos++];
	if (nelem == 0) {
		*why = "\\_S5 package is empty";
		return -EINVAL;
	}
	if (!aml_integer(p, &pos, end, &va))
		goto out_bad_element;
	if (nelem == 1) {
		/* Old firmware: one integer, SLP_TYPa in bits 7:0, b in 15:8. */
		vb = (va >> 8) & 0xFF;
		va &= 0xFF;
	} else if (!aml_integer(p, &pos, end, &vb)) {
		goto out_bad_element;
	}
	if (va > SLP_TYP_MAX || vb > SLP_TYP_MAX) {
		*why = "\\_S5 sleep type does not fit SLP_TYP's 3 bits";
		return -EINVAL;
	}
	*a = (u8)va;
	*b = (u8)vb;
	return 0;

out_truncated:
	*why = "\\_S5 package runs past its end or the table's";
	return -EINVAL;
out_bad_element:
	*why = "\\_S5 package element is not an integer constant";
	return -EINVAL;
}

/*
 * acpi_find_s5 - the SLP_TYPa/SLP_TYPb values of the S5 (soft off) state
 * from a DSDT or SSDT, by scanning its AML for the \_S5 name.  The first
 * well-formed \_S5 wins; a malformed one makes the result -EINVAL unless
 * a good one follows.  Context: any; pure.
 */
int acpi_find_s5(const void *dsdt, size_t len, u8 *slp_typa, u8 *slp_typb,
		 const char **why)
{
	const char *reason = "no \\_S5 object in the AML";
	const u8 *p = dsdt;
	const char *ignored;
	int ret = -ENOENT, err;
	u32 length, i;

	if (!why)
		why = &ignored;
	err = acpi_validate_sdt(dsdt, len, NULL, why);
	if (err)
		return err;
	if (memcmp(p, "DSDT", 4) && memcmp(p, "SSDT", 4)) {
		*why = "not a DSDT or SSDT";
		return -ENOENT;
	}
	length = rd32(p + SDT_LENGTH);
	for (i = ACPI_SDT_HEADER_LEN; i + 4 <= length; i++) {
		const char *bad = NULL;

		if (memcmp(p + i, "_S5_", 4))
			continue;
		err = s5_package(p, i, length, slp_typa, slp_typb, &bad);
		if (!err) {
			*why = NULL;
			return 0;
		}
		if (err == -EINVAL) {
			ret = -EINVAL;
			reason = bad;
		}
	}
	*why = reason;
	return ret;
}

/* ---- HPET (IA-PC HPET 1.0a, 3.2.4) -------------------------------------- */

/*
 * acpi_parse_hpet - decode the HPET table.  The base must be a non-zero
 * address in system memory (the spec allows nothing else for the timer
 * block).  Returns 0, -ENOENT or -EINVAL.  Context: any; pure.
 */
int acpi_parse_hpet(const void *buf, size_t len, struct acpi_hpet_info *out)
{
	const u8 *p = buf;
	struct acpi_gas gas;
	u32 id;
	int err;

	memset(out, 0, sizeof(*out));
	err = acpi_validate_sdt(buf, len, "HPET", &out->why);
	if (err)
		return err;
	if (rd32(p + SDT_LENGTH) < HPET_LEN) {
		out->why = "HPET table shorter than 56 bytes";
		return -EINVAL;
	}
	read_gas(p + HPET_BASE_GAS, &gas);
	if (gas.space_id != ACPI_GAS_SYSTEM_MEMORY || !gas.address) {
		out->why = "HPET base is not a system memory address";
		return -EINVAL;
	}
	id = rd32(p + HPET_BLOCK_ID);
	out->address = gas.address;
	out->hpet_number = p[HPET_NUMBER];
	out->min_tick = rd16(p + HPET_MIN_TICK);
	out->page_protection = p[HPET_PAGE_PROT];
	out->pci_vendor_id = (u16)(id >> 16);
	out->n_comparators = (u8)(((id >> 8) & 0x1F) + 1);
	out->counter_64bit = id & (1u << 13);
	out->legacy_replacement = id & (1u << 15);
	return 0;
}
