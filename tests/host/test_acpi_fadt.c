/*
 * tests/host/test_acpi_fadt.c - host unit tests of the FADT parser and
 * the \_S5 search (lib/acpi_fadt.c): ACPI 1.0 and 6.x FADTs (legacy
 * ports against the X_ fields), short and hardware-reduced ones, \_S5
 * in QEMU-like AML and in the other integer encodings, missing or
 * malformed packages, and every truncation.  Tables are built with
 * tests/host/acpi_build.h.
 */
#include "tests/host/acpi_build.h"

static u32 make_fadt_v1(void)
{
	sdt_begin(tbl, "FACP", 1);
	put32(tbl + 40, 0x0ffe0040); /* DSDT */
	put16(tbl + 46, 9);	     /* SCI */
	put32(tbl + 48, 0xb2);	     /* SMI_CMD */
	tbl[52] = 0xf1;		     /* ACPI_ENABLE */
	put32(tbl + 64, 0x604);	     /* PM1a_CNT_BLK */
	put32(tbl + 76, 0x608);	     /* PM_TMR_BLK */
	tbl[89] = 2;
	tbl[91] = 4;
	tbl[108] = 0x32;
	put32(tbl + 112, ACPI_FADT_TMR_VAL_EXT | ACPI_FADT_RESET_REG_SUP);
	return sdt_done(tbl, 116);
}

static void test_fadt_v1_uses_legacy_ports(void)
{
	struct acpi_fadt_info f;

	CHECK_EQ(acpi_parse_fadt(tbl, make_fadt_v1(), &f), 0);
	CHECK(f.why == NULL, "why \"%s\"", f.why);
	CHECK_EQ(f.pm_timer.space_id, ACPI_GAS_SYSTEM_IO);
	CHECK_EQ(f.pm_timer.address, 0x608);
	CHECK_EQ(f.pm_timer.bit_width, 32);
	CHECK(f.pm_timer_32bit, "TMR_VAL_EXT lost");
	CHECK_EQ(f.pm1a_cnt.address, 0x604);
	CHECK_EQ(f.pm1b_cnt.address, 0);
	CHECK_EQ(f.dsdt_phys, 0x0ffe0040);
	CHECK_EQ(f.sci_irq, 9);
	CHECK_EQ(f.smi_cmd, 0xb2);
	CHECK_EQ(f.acpi_enable, 0xf1);
	CHECK_EQ(f.century, 0x32);
	/* RESET_REG_SUP set but a 116-byte table has no RESET_REG. */
	CHECK(!f.has_reset_reg, "reset register read past a v1 FADT");
	CHECK(f.has_8042 && !f.has_boot_arch, "8042 must be assumed");
}

static void test_fadt_v6_prefers_extended_fields(void)
{
	struct acpi_fadt_info f;
	u32 len;

	make_fadt_v1();
	tbl[8] = 6;
	put16(tbl + 109, ACPI_BOOT_8042 | ACPI_BOOT_NO_VGA);
	put_gas(tbl + 116, ACPI_GAS_SYSTEM_IO, 8, 0xcf9);
	tbl[128] = 0x06;
	put64(tbl + 140, 0x1ffe0000ULL);
	put_gas(tbl + 172, ACPI_GAS_SYSTEM_IO, 16, 0xb004);
	put_gas(tbl + 184, ACPI_GAS_SYSTEM_IO, 16, 0xb008);
	put_gas(tbl + 208, ACPI_GAS_SYSTEM_IO, 32, 0xb00c);
	len = sdt_done(tbl, 276);
	CHECK_EQ(acpi_parse_fadt(tbl, len, &f), 0);
	CHECK_EQ(f.revision, 6);
	CHECK(f.has_reset_reg, "reset register not found");
	CHECK_EQ(f.reset_reg.address, 0xcf9);
	CHECK_EQ(f.reset_value, 6);
	CHECK_EQ(f.dsdt_phys, 0x1ffe0000ULL);
	CHECK_EQ(f.pm1a_cnt.address, 0xb004);
	CHECK_EQ(f.pm1b_cnt.address, 0xb008);
	CHECK_EQ(f.pm_timer.address, 0xb00c);
	CHECK(f.has_boot_arch && f.has_8042 && f.vga_not_present,
	      "boot arch flags %#x", f.boot_arch);

	/* Reset register present but RESET_REG_SUP clear: not usable. */
	put32(tbl + 112, 0);
	sdt_done(tbl, 276);
	CHECK_EQ(acpi_parse_fadt(tbl, len, &f), 0);
	CHECK(!f.has_reset_reg, "RESET_REG used without RESET_REG_SUP");
}

static void test_fadt_short_or_hw_reduced(void)
{
	struct acpi_fadt_info f;

	make_fadt_v1();
	sdt_done(tbl, 100);
	CHECK_EQ(acpi_parse_fadt(tbl, 116, &f), -EINVAL);
	CHECK(f.why && strstr(f.why, "116"), "why \"%s\"", f.why);

	make_fadt_v1();
	put32(tbl + 112, ACPI_FADT_HW_REDUCED);
	sdt_done(tbl, 116);
	CHECK_EQ(acpi_parse_fadt(tbl, 116, &f), 0);
	CHECK(f.hw_reduced && !f.pm_timer.address && !f.pm1a_cnt.address,
	      "hardware-reduced FADT must have no fixed registers");

	make_fadt_v1();
	put32(tbl + 76, 0);
	sdt_done(tbl, 116);
	CHECK_EQ(acpi_parse_fadt(tbl, 116, &f), 0);
	CHECK(f.why && strstr(f.why, "PM timer"), "why \"%s\"", f.why);
}

static u32 make_dsdt(const u8 *aml, u32 n)
{
	sdt_begin(tbl, "DSDT", 1);
	memcpy(tbl + 36, aml, n);
	return sdt_done(tbl, 36 + n);
}

static void test_s5_found_in_qemu_like_aml(void)
{
	/* A method body that mentions _S5_ (not a Name), then
	 * Name(\_S5, Package(4) { 5, 5, Zero, Zero }). */
	static const u8 aml[] = { 0x14, 0x08, 'F', 'O', 'O', '_', 0x00,
				  '_', 'S', '5', '_', 0x08, 0x5C, '_', 'S',
				  '5', '_', 0x12, 0x08, 0x04, 0x0A, 0x05,
				  0x0A, 0x05, 0x00, 0x00 };
	u8 a = 0xEE, b = 0xEE;
	const char *why;
	u32 len = make_dsdt(aml, sizeof(aml));

	CHECK_EQ(acpi_find_s5(tbl, len, &a, &b, &why), 0);
	CHECK_EQ(a, 5);
	CHECK_EQ(b, 5);
}

static void test_s5_other_encodings(void)
{
	/* Two-byte PkgLength, ZeroOp and OneOp elements. */
	static const u8 two[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x45, 0x01,
				  0x02, 0x00, 0x01 };
	/* One element: typa in bits 7:0, typb in bits 15:8. */
	static const u8 one[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x05, 0x01,
				  0x0B, 0x07, 0x03 };
	u8 a, b;
	const char *why;
	u8 big[0x60] = { 0 };
	u32 len;

	memcpy(big, two, sizeof(two));
	len = make_dsdt(big, sizeof(big));
	CHECK_EQ(acpi_find_s5(tbl, len, &a, &b, &why), 0);
	CHECK(a == 0 && b == 1, "a %u b %u", a, b);

	len = make_dsdt(one, sizeof(one));
	CHECK_EQ(acpi_find_s5(tbl, len, &a, &b, &why), 0);
	CHECK(a == 7 && b == 3, "a %u b %u", a, b);
}

static void test_s5_missing_or_malformed(void)
{
	static const u8 none[] = { 0x08, '_', 'S', '4', '_', 0x12, 0x04, 0x02,
				   0x00, 0x00 };
	/* PkgLength says 0x20 bytes, the table ends first. */
	static const u8 cut[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x20, 0x02,
				  0x0A, 0x05 };
	static const u8 wide[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x05, 0x02,
				   0x0A, 0x09, 0x00 };
	static const u8 str[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x05, 0x02,
				  0x0D, 'x', 0x00 };
	u8 a, b;
	const char *why;
	u32 len;

	len = make_dsdt(none, sizeof(none));
	CHECK_EQ(acpi_find_s5(tbl, len, &a, &b, &why), -ENOENT);
	len = make_dsdt(cut, sizeof(cut));
	CHECK_EQ(acpi_find_s5(tbl, len, &a, &b, &why), -EINVAL);
	CHECK(why && strstr(why, "past"), "why \"%s\"", why);
	len = make_dsdt(wide, sizeof(wide));
	CHECK_EQ(acpi_find_s5(tbl, len, &a, &b, &why), -EINVAL);
	len = make_dsdt(str, sizeof(str));
	CHECK_EQ(acpi_find_s5(tbl, len, &a, &b, &why), -EINVAL);
	/* "_S5_" as the very last bytes of the table. */
	len = make_dsdt((const u8 *)"\x08_S5_", 5);
	CHECK_EQ(acpi_find_s5(tbl, len, &a, &b, &why), -ENOENT);
	memcpy(tbl, "FACP", 4);
	sdt_done(tbl, len);
	CHECK_EQ(acpi_find_s5(tbl, len, &a, &b, &why), -ENOENT);
}

/* The FADT and a DSDT with \_S5 cut to every shorter length fail
 * cleanly (ASan checks they are never read past the cut). */
static void test_fadt_and_s5_every_truncation_fails_cleanly(void)
{
	struct acpi_fadt_info f;
	int bad = 0;
	u32 len;
	u8 a, b;
	const char *why;

	len = make_fadt_v1();
	for (u32 l = 0; l < len; l++) {
		u8 *p = exact_copy(tbl, l);

		bad += acpi_parse_fadt(p, l, &f) != -EINVAL;
		free(p);
	}
	len = make_dsdt((const u8 *)"\x08_S5_\x12\x04\x02\x00\x01", 9);
	for (u32 l = 0; l < len; l++) {
		u8 *p = exact_copy(tbl, l);

		bad += acpi_find_s5(p, l, &a, &b, &why) != -EINVAL;
		free(p);
	}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	return check_run("acpi_fadt", (struct check_case[]){
		CHECK_CASE(test_fadt_v1_uses_legacy_ports),
		CHECK_CASE(test_fadt_v6_prefers_extended_fields),
		CHECK_CASE(test_fadt_short_or_hw_reduced),
		CHECK_CASE(test_s5_found_in_qemu_like_aml),
		CHECK_CASE(test_s5_other_encodings),
		CHECK_CASE(test_s5_missing_or_malformed),
		CHECK_CASE(test_fadt_and_s5_every_truncation_fails_cleanly),
		{ 0 } });
}
