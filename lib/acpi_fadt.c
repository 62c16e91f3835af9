/*
 * lib/acpi_fadt.c - the pure FADT parser and the \_S5 package of the
 * DSDT: together what a soft power-off needs (the PM1 control blocks
 * and the sleep type to write there), plus the PM timer, the reset
 * register and the boot flags (API: acpi_tables.h acpi_parse_fadt,
 * acpi_find_s5).
 *
 * A short (ACPI 1.0) FADT has only the 32-bit block addresses; a long
 * one's 64-bit X_ fields win when set.  rtk has no AML interpreter: the
 * \_S5 search decodes the one Name(_S5, Package(){...}) form firmware
 * uses.  Host-tested and fuzzed with the same source.
 * Spec: ACPI 6.5 5.2.9 (Table 5.9), Table 4.13 (SLP_TYP), 20.2
 * (AML encoding).  Linux counterpart: ACPICA's tbfadt.c, hwxfsleep.c.
 */
#include "lib/acpi_bytes.h"
#include "lib/errno.h"

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

/* The sleep types of \_S5 are 3-bit fields of PM1x_CNT (Table 4.13). */
#define SLP_TYP_MAX 7

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
