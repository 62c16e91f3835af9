/*
 * tests/host/test_acpi.c - host unit tests of the ACPI table parsers
 * (lib/acpi_tables.c): the RSDP, the SDT header, the RSDT/XSDT and
 * the HPET table.  The MADT is test_acpi_madt.c, the FADT and \_S5
 * test_acpi_fadt.c; the table builders are tests/host/acpi_build.h.
 *
 * Each test builds a real-looking table in a buffer (the layouts of ACPI
 * 6.5 5.2.5-5.2.12 and HPET 1.0a 3.2.4; the QEMU values where there are
 * some: PM1a_CNT 0x604, PM timer 0x608, IOAPIC at 0xfec00000), runs the
 * parser and checks the decoded fields, then breaks the table in one way
 * (checksum, Length, entry length, a truncated copy) and checks the error.
 * Truncated copies live in malloc'ed buffers of exactly that size, so
 * AddressSanitizer catches any read past len.
 */
#include "tests/host/acpi_build.h"

/* ---- RSDP ---- */

static void test_rsdp_v1_is_decoded(void)
{
	struct acpi_rsdp_info r;

	make_rsdp(tbl, 0, 0x0ffe1234, 0);
	CHECK_EQ(acpi_parse_rsdp(tbl, 20, &r), 0);
	CHECK_EQ(r.revision, 0);
	CHECK_EQ(r.rsdt_phys, 0x0ffe1234);
	CHECK_EQ(r.xsdt_phys, 0);
	CHECK_EQ(r.length, 20);
	CHECK_STR(r.oem_id, "BOCHS ");
	CHECK(r.why == NULL, "why \"%s\" on success", r.why);
}

static void test_rsdp_v2_gives_xsdt(void)
{
	struct acpi_rsdp_info r;

	make_rsdp(tbl, 2, 0x0ffe0000, 0x10ffe0000ULL);
	CHECK_EQ(acpi_parse_rsdp(tbl, 36, &r), 0);
	CHECK_EQ(r.revision, 2);
	CHECK_EQ(r.length, 36);
	CHECK_EQ(r.xsdt_phys, 0x10ffe0000ULL);
}

static void test_rsdp_bad_checksums_are_rejected(void)
{
	struct acpi_rsdp_info r;

	make_rsdp(tbl, 0, 0x1000, 0);
	tbl[16] ^= 1;
	CHECK_EQ(acpi_parse_rsdp(tbl, 20, &r), -EINVAL);
	CHECK(r.why != NULL, "no reason given");

	/* v1 part fine, extended checksum (over 36 bytes) wrong. */
	make_rsdp(tbl, 2, 0x1000, 0x2000);
	tbl[24] ^= 0x10;
	CHECK_EQ(acpi_parse_rsdp(tbl, 36, &r), -EINVAL);
	CHECK(r.why && strstr(r.why, "extended"), "why \"%s\"", r.why);
}

static void test_rsdp_bad_signature_and_lengths(void)
{
	struct acpi_rsdp_info r;
	u8 *p;

	make_rsdp(tbl, 0, 0x1000, 0);
	tbl[0] = 'X';
	CHECK_EQ(acpi_parse_rsdp(tbl, 20, &r), -ENOENT);

	make_rsdp(tbl, 0, 0x1000, 0);
	p = exact_copy(tbl, 19);
	CHECK_EQ(acpi_parse_rsdp(p, 19, &r), -EINVAL);
	free(p);

	/* v2 copy cut after the v1 part; then a Length beyond the buffer. */
	make_rsdp(tbl, 2, 0x1000, 0x2000);
	p = exact_copy(tbl, 30);
	CHECK_EQ(acpi_parse_rsdp(p, 30, &r), -EINVAL);
	free(p);
	put32(tbl + 20, 64);
	fix_sum(tbl, 20, 8);
	CHECK_EQ(acpi_parse_rsdp(tbl, 36, &r), -EINVAL);
	put32(tbl + 20, 20);
	fix_sum(tbl, 20, 8);
	CHECK_EQ(acpi_parse_rsdp(tbl, 36, &r), -EINVAL);
}

static void test_rsdp_scan_skips_bad_and_misaligned(void)
{
	struct acpi_rsdp_info r;
	static u8 area[1024];

	memset(area, 0, sizeof(area));
	make_rsdp(area + 0x20, 0, 0xdead, 0);
	area[0x20 + 16] ^= 0xFF; /* signature but bad checksum */
	make_rsdp(area + 0x108, 0, 0xbad, 0); /* not 16-byte aligned */
	CHECK_EQ(acpi_scan_rsdp(area, sizeof(area), &r), -ENOENT);
	make_rsdp(area + 0x200, 2, 0x0ffe0000, 0x0ffe1000);
	CHECK_EQ(acpi_scan_rsdp(area, sizeof(area), &r), 0x200);
	CHECK_EQ(r.xsdt_phys, 0x0ffe1000);
	/* A v2 RSDP cut by the end of the area is not accepted. */
	CHECK_EQ(acpi_scan_rsdp(area, 0x200 + 30, &r), -ENOENT);
}

/* ---- SDT header, RSDT/XSDT ---- */

static void test_sdt_validation_catches_each_fault(void)
{
	struct acpi_sdt_info h;
	const char *why;
	u32 len;
	u8 *p;

	sdt_begin(tbl, "SSDT", 2);
	len = sdt_done(tbl, 60);
	CHECK_EQ(acpi_validate_sdt(tbl, len, "SSDT", &why), 0);
	CHECK(why == NULL, "why \"%s\" on success", why);
	CHECK_EQ(acpi_validate_sdt(tbl, len, NULL, &why), 0);
	CHECK_EQ(acpi_validate_sdt(tbl, len, "APIC", &why), -ENOENT);
	CHECK_EQ(acpi_read_sdt_header(tbl, len, &h), 0);
	CHECK_STR(h.signature, "SSDT");
	CHECK_STR(h.oem_table_id, "BXPC    ");
	CHECK_EQ(h.length, 60);

	tbl[50] ^= 4; /* bad checksum */
	CHECK_EQ(acpi_validate_sdt(tbl, len, "SSDT", &why), -EINVAL);
	CHECK(why && strstr(why, "checksum"), "why \"%s\"", why);
	tbl[50] ^= 4;

	p = exact_copy(tbl, 59); /* truncated */
	CHECK_EQ(acpi_validate_sdt(p, 59, "SSDT", &why), -EINVAL);
	CHECK(why && strstr(why, "truncated"), "why \"%s\"", why);
	free(p);

	p = exact_copy(tbl, 20); /* shorter than a header */
	CHECK_EQ(acpi_validate_sdt(p, 20, NULL, &why), -EINVAL);
	CHECK_EQ(acpi_read_sdt_header(p, 20, &h), -EINVAL);
	free(p);

	sdt_done(tbl, 20); /* Length smaller than the header */
	CHECK_EQ(acpi_validate_sdt(tbl, 60, "SSDT", &why), -EINVAL);
	CHECK(why && strstr(why, "smaller"), "why \"%s\"", why);
}

static void test_rsdt_and_xsdt_entries(void)
{
	u64 e[4] = { 0 };
	const char *why;
	int n;

	sdt_begin(tbl, "RSDT", 1);
	put32(tbl + 36, 0x0ffe1000);
	put32(tbl + 40, 0x0ffe2000);
	put32(tbl + 44, 0x0ffe3000);
	sdt_done(tbl, 48);
	CHECK_EQ(acpi_parse_root(tbl, 48, false, e, 4, &n, &why), 0);
	CHECK_EQ(n, 3);
	CHECK_EQ(e[2], 0x0ffe3000);

	sdt_begin(tbl, "XSDT", 1);
	put64(tbl + 36, 0x10ffe1000ULL); /* misaligned 8-byte entries */
	put64(tbl + 44, 0x0ffe2000);
	sdt_done(tbl, 52);
	CHECK_EQ(acpi_parse_root(tbl, 52, true, e, 4, &n, &why), 0);
	CHECK_EQ(n, 2);
	CHECK_EQ(e[0], 0x10ffe1000ULL);
	/* An RSDT parse of an XSDT is a signature mismatch. */
	CHECK_EQ(acpi_parse_root(tbl, 52, false, e, 4, &n, &why), -ENOENT);

	sdt_done(tbl, 48); /* XSDT with half an entry */
	CHECK_EQ(acpi_parse_root(tbl, 52, true, e, 4, &n, &why), -EINVAL);
	CHECK_EQ(n, 0);
	CHECK(why && strstr(why, "8 * n"), "why \"%s\"", why);
}

static void test_root_with_too_many_entries_is_e2big(void)
{
	u64 e[2] = { 0 };
	const char *why;
	int n;

	sdt_begin(tbl, "RSDT", 1);
	for (int i = 0; i < 5; i++)
		put32(tbl + 36 + 4 * i, 0x1000 * (i + 1));
	sdt_done(tbl, 56);
	CHECK_EQ(acpi_parse_root(tbl, 56, false, e, 2, &n, &why), -E2BIG);
	CHECK_EQ(n, 2);
	CHECK_EQ(e[1], 0x2000);
}

/* ---- HPET ---- */

static u32 make_hpet(void)
{
	sdt_begin(tbl, "HPET", 1);
	put32(tbl + 36, 0x8086a201); /* QEMU: 3 comparators, 64-bit, legacy */
	put_gas(tbl + 40, ACPI_GAS_SYSTEM_MEMORY, 64, 0xfed00000);
	tbl[52] = 0;
	put16(tbl + 53, 0x80);
	return sdt_done(tbl, 56);
}

static void test_hpet_is_decoded_and_checked(void)
{
	struct acpi_hpet_info h;
	u32 len = make_hpet();

	CHECK_EQ(acpi_parse_hpet(tbl, len, &h), 0);
	CHECK_EQ(h.address, 0xfed00000);
	CHECK_EQ(h.n_comparators, 3);
	CHECK_EQ(h.pci_vendor_id, 0x8086);
	CHECK(h.counter_64bit && h.legacy_replacement, "capability bits");
	CHECK_EQ(h.min_tick, 0x80);

	tbl[40] = ACPI_GAS_SYSTEM_IO;
	sdt_done(tbl, len);
	CHECK_EQ(acpi_parse_hpet(tbl, len, &h), -EINVAL);
	make_hpet();
	sdt_done(tbl, 52);
	CHECK_EQ(acpi_parse_hpet(tbl, 56, &h), -EINVAL);
}

/*
 * Every good table cut to every shorter length: the parser must fail
 * cleanly (ASan checks it never reads past the cut).  The MADT, FADT and
 * \_S5 cuts are in their own files.
 */
static void test_every_truncation_fails_cleanly(void)
{
	struct acpi_hpet_info h;
	u64 e[4];
	int n, bad = 0;
	u32 len;
	const char *why;

	len = make_hpet();
	for (u32 l = 0; l < len; l++) {
		u8 *p = exact_copy(tbl, l);

		bad += acpi_parse_hpet(p, l, &h) != -EINVAL;
		free(p);
	}
	sdt_begin(tbl, "XSDT", 1);
	put64(tbl + 36, 0x1000);
	len = sdt_done(tbl, 44);
	for (u32 l = 0; l < len; l++) {
		u8 *p = exact_copy(tbl, l);

		bad += acpi_parse_root(p, l, true, e, 4, &n, &why) != -EINVAL;
		free(p);
	}
	make_rsdp(tbl, 2, 0x1000, 0x2000);
	for (u32 l = 0; l < 36; l++) {
		struct acpi_rsdp_info r;
		u8 *p = exact_copy(tbl, l);

		bad += acpi_parse_rsdp(p, l, &r) != -EINVAL;
		free(p);
	}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	return check_run("acpi", (struct check_case[]){
		CHECK_CASE(test_rsdp_v1_is_decoded),
		CHECK_CASE(test_rsdp_v2_gives_xsdt),
		CHECK_CASE(test_rsdp_bad_checksums_are_rejected),
		CHECK_CASE(test_rsdp_bad_signature_and_lengths),
		CHECK_CASE(test_rsdp_scan_skips_bad_and_misaligned),
		CHECK_CASE(test_sdt_validation_catches_each_fault),
		CHECK_CASE(test_rsdt_and_xsdt_entries),
		CHECK_CASE(test_root_with_too_many_entries_is_e2big),
		CHECK_CASE(test_hpet_is_decoded_and_checked),
		CHECK_CASE(test_every_truncation_fails_cleanly),
		{ 0 } });
}
