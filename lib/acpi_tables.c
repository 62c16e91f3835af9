/*
 * lib/acpi_tables.c - pure parsers for the RSDP, the RSDT/XSDT and the
 * HPET table, the SDT header checks every parser starts with, and the
 * check that tables do not overlap (API: acpi_tables.h).  The MADT is
 * lib/acpi_madt.c, the FADT and \_S5 lib/acpi_fadt.c.
 *
 * Each parser first checks signature, Length and checksum with
 * acpi_validate_sdt(); from then on it reads only below the table's own
 * Length, which is <= len.  Built for the kernel and, with the same
 * source, for the host unit tests and the libFuzzer target (every
 * C file of lib/ is in HOST_SRCS).
 *
 * Spec: ACPI 6.5 sections 5.2.5.3, 5.2.6-5.2.8; IA-PC HPET 1.0a 3.2.4.
 * Linux counterpart: drivers/acpi/tables.c (acpi_parse_entries_array),
 * ACPICA's tbxfroot.c; rtk keeps only the fields it uses.
 */
#include "lib/acpi_bytes.h"
#include "lib/errno.h"

/* Offsets inside the RSDP (ACPI 6.5 Table 5.3) and the HPET table
 * (IA-PC HPET 1.0a 3.2.4). */
#define RSDP_CHECKSUM_V1_END 20
#define RSDP_OEM_ID 9
#define RSDP_REVISION 15
#define RSDP_RSDT 16
#define RSDP_LENGTH 20
#define RSDP_XSDT 24
#define HPET_BLOCK_ID 36
#define HPET_BASE_GAS 40
#define HPET_NUMBER 52
#define HPET_MIN_TICK 53
#define HPET_PAGE_PROT 55
#define HPET_LEN 56

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

