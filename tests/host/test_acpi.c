/*
 * tests/host/test_acpi.c - host unit tests of the ACPI table parsers
 * (lib/acpi_tables.c).
 *
 * Each test builds a real-looking table in a buffer (the layouts of ACPI
 * 6.5 5.2.5-5.2.12 and HPET 1.0a 3.2.4; the QEMU values where there are
 * some: PM1a_CNT 0x604, PM timer 0x608, IOAPIC at 0xfec00000), runs the
 * parser and checks the decoded fields, then breaks the table in one way
 * (checksum, Length, entry length, a truncated copy) and checks the error.
 * Truncated copies live in malloc'ed buffers of exactly that size, so
 * AddressSanitizer catches any read past len.
 *
 * Length: ~800 lines of table builders and cases, one per way a table can
 * be malformed; a host test file, so it is kept whole for grep-ability.
 *
 * Longer than 600 lines on purpose: it builds one malformed table per
 * case (lengths, checksums, overlaps, truncated MADT entries) beside the
 * parser it checks; the fixtures read best next to their cases.
 */
#include <stdlib.h>
#include <string.h>
#include "lib/acpi_tables.h"
#include "lib/errno.h"
#include "tests/host/check.h"

static u8 tbl[8192]; /* the table being built */

static void put16(u8 *p, u16 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
}

static void put32(u8 *p, u32 v)
{
	put16(p, (u16)v);
	put16(p + 2, (u16)(v >> 16));
}

static void put64(u8 *p, u64 v)
{
	put32(p, (u32)v);
	put32(p + 4, (u32)(v >> 32));
}

/* Make p[0..n) sum to zero by adjusting p[at]. */
static void fix_sum(u8 *p, size_t n, size_t at)
{
	p[at] = 0;
	p[at] = (u8)-acpi_checksum(p, n);
}

/* Fill a 5.2.6 header; the caller appends the body and calls sdt_done. */
static void sdt_begin(u8 *p, const char *sig, u8 revision)
{
	memset(p, 0, sizeof(tbl));
	memcpy(p, sig, 4);
	p[8] = revision;
	memcpy(p + 10, "BOCHS ", 6);
	memcpy(p + 16, "BXPC    ", 8);
	put32(p + 24, 1);
	memcpy(p + 28, "BXPC", 4);
	put32(p + 32, 1);
}

/* Set Length and the checksum (byte 9). Returns length for convenience. */
static u32 sdt_done(u8 *p, u32 length)
{
	put32(p + 4, length);
	fix_sum(p, length, 9);
	return length;
}

static void make_rsdp(u8 *p, u8 revision, u32 rsdt, u64 xsdt)
{
	memset(p, 0, 36);
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, "BOCHS ", 6);
	p[15] = revision;
	put32(p + 16, rsdt);
	if (revision >= 2) {
		put32(p + 20, 36);
		put64(p + 24, xsdt);
	}
	fix_sum(p, 20, 8); /* first: the extended sum covers byte 8 too */
	if (revision >= 2)
		fix_sum(p, 36, 32);
}

/* A malloc'ed copy of exactly n bytes, so ASan sees reads past n. */
static u8 *exact_copy(const u8 *src, size_t n)
{
	u8 *p = malloc(n ? n : 1);

	memcpy(p, src, n);
	return p;
}

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

/* ---- MADT ---- */

static u32 madt_off;

static void madt_begin(void)
{
	sdt_begin(tbl, "APIC", 5);
	put32(tbl + 36, 0xfee00000);
	put32(tbl + 40, ACPI_MADT_PCAT_COMPAT);
	madt_off = 44;
}

static u8 *madt_entry(u8 type, u8 len)
{
	u8 *e = tbl + madt_off;

	e[0] = type;
	e[1] = len;
	madt_off += len;
	return e;
}

static void madt_lapic(u8 uid, u8 apic_id, u32 flags)
{
	u8 *e = madt_entry(0, 8);

	e[2] = uid;
	e[3] = apic_id;
	put32(e + 4, flags);
}

static void madt_override(u8 irq, u32 gsi, u16 flags)
{
	u8 *e = madt_entry(2, 10);

	e[3] = irq;
	put32(e + 4, gsi);
	put16(e + 8, flags);
}

static struct acpi_madt_info madt; /* 2.5 KiB: static, as in the kernel */

static void test_madt_qemu_like_table_is_decoded(void)
{
	u8 *e;
	u32 len;

	madt_begin();
	madt_lapic(0, 0, ACPI_MADT_ENABLED);
	madt_lapic(1, 1, ACPI_MADT_ENABLED);
	madt_lapic(2, 2, 0);			     /* disabled */
	madt_lapic(3, 3, ACPI_MADT_ONLINE_CAPABLE); /* hot-pluggable */
	e = madt_entry(1, 12);
	e[2] = 0;
	put32(e + 4, 0xfec00000);
	put32(e + 8, 0);
	madt_override(0, 2, 0);
	madt_override(9, 9, ACPI_MPS_POLARITY_HIGH | ACPI_MPS_TRIGGER_LEVEL);
	madt_override(10, 10, ACPI_MPS_POLARITY_LOW | ACPI_MPS_TRIGGER_LEVEL);
	e = madt_entry(3, 8);
	put16(e + 2, 5);
	put32(e + 4, 23);
	e = madt_entry(4, 6);
	e[2] = 0xFF;
	put16(e + 3, 5);
	e[5] = 1;
	e = madt_entry(9, 16);
	put32(e + 4, 300);
	put32(e + 8, ACPI_MADT_ENABLED);
	put32(e + 12, 300);
	e = madt_entry(10, 12);
	put16(e + 2, 0);
	put32(e + 4, 300);
	e[8] = 1;
	madt_entry(0x7F, 4); /* unknown type: ignored */
	len = sdt_done(tbl, madt_off);

	CHECK_EQ(acpi_parse_madt(tbl, len, &madt), 0);
	CHECK(madt.why == NULL, "why \"%s\"", madt.why);
	CHECK_EQ(madt.lapic_addr, 0xfee00000);
	CHECK(madt.pcat_compat, "PCAT_COMPAT lost");
	CHECK_EQ(madt.n_cpus, 4);
	CHECK_EQ(madt.n_cpus_disabled, 1);
	CHECK(madt.cpus[1].enabled && madt.cpus[1].apic_id == 1, "cpu 1");
	CHECK(!madt.cpus[2].enabled && madt.cpus[2].online_capable,
	      "cpu with apic id 3: enabled %d online_capable %d",
	      madt.cpus[2].enabled, madt.cpus[2].online_capable);
	CHECK(madt.cpus[3].x2apic && madt.cpus[3].apic_id == 300,
	      "x2apic cpu: x2apic %d id %u", madt.cpus[3].x2apic,
	      madt.cpus[3].apic_id);
	CHECK_EQ(madt.n_ioapics, 1);
	CHECK_EQ(madt.ioapics[0].address, 0xfec00000);
	CHECK_EQ(madt.n_overrides, 3);
	CHECK_EQ(madt.overrides[0].gsi, 2);
	CHECK(!madt.overrides[0].active_low &&
	      !madt.overrides[0].level_triggered, "IRQ0 should be edge/high");
	CHECK(!madt.overrides[1].active_low && madt.overrides[1].level_triggered,
	      "IRQ9 should be level/high");
	CHECK(madt.overrides[2].active_low, "IRQ10 should be active low");
	CHECK_EQ(madt.n_nmi_sources, 1);
	CHECK_EQ(madt.nmi_sources[0].gsi, 23);
	CHECK_EQ(madt.n_lapic_nmis, 2);
	CHECK_EQ(madt.lapic_nmis[0].uid, ACPI_UID_ALL_CPUS);
	CHECK_EQ(madt.lapic_nmis[0].lint, 1);
	CHECK(madt.lapic_nmis[1].x2apic && madt.lapic_nmis[1].uid == 300,
	      "x2apic NMI entry");
}

static void test_madt_lapic_address_override(void)
{
	u8 *e;
	u32 len;

	madt_begin();
	madt_lapic(0, 0, ACPI_MADT_ENABLED);
	e = madt_entry(5, 12);
	put64(e + 4, 0x1fee00000ULL);
	len = sdt_done(tbl, madt_off);
	CHECK_EQ(acpi_parse_madt(tbl, len, &madt), 0);
	CHECK_EQ(madt.lapic_addr, 0x1fee00000ULL);
	CHECK(madt.lapic_addr_override, "override flag not set");
}

static void test_madt_zero_length_entry_is_einval(void)
{
	u32 len;

	madt_begin();
	madt_lapic(0, 0, ACPI_MADT_ENABLED);
	madt_entry(0, 0);
	madt_off += 8; /* bytes that would follow */
	len = sdt_done(tbl, madt_off);
	CHECK_EQ(acpi_parse_madt(tbl, len, &madt), -EINVAL);
	CHECK(madt.truncated, "truncated not set");
	CHECK_EQ(madt.n_cpus, 1); /* entries before the break are kept */
	CHECK(madt.why && strstr(madt.why, "length"), "why \"%s\"", madt.why);
}

static void test_madt_entry_past_end_is_einval(void)
{
	u32 len;

	madt_begin();
	madt_lapic(0, 0, ACPI_MADT_ENABLED);
	madt_entry(1, 12);
	len = sdt_done(tbl, madt_off - 4); /* last entry sticks out */
	CHECK_EQ(acpi_parse_madt(tbl, len, &madt), -EINVAL);
	CHECK(madt.truncated, "truncated not set");
	CHECK(madt.why && strstr(madt.why, "past"), "why \"%s\"", madt.why);

	/* One stray byte after the last entry: no room for type+length. */
	madt_begin();
	madt_lapic(0, 0, ACPI_MADT_ENABLED);
	len = sdt_done(tbl, madt_off + 1);
	CHECK_EQ(acpi_parse_madt(tbl, len, &madt), -EINVAL);
}

static void test_madt_short_entry_is_skipped_with_warning(void)
{
	u32 len;

	madt_begin();
	madt_entry(1, 8); /* an IOAPIC entry needs 12 bytes */
	madt_lapic(0, 0, ACPI_MADT_ENABLED);
	madt_lapic(1, 0xFF, ACPI_MADT_ENABLED); /* broadcast id, not a CPU */
	madt_lapic(2, 0, ACPI_MADT_ENABLED);	/* duplicate id 0 */
	len = sdt_done(tbl, madt_off);
	CHECK_EQ(acpi_parse_madt(tbl, len, &madt), 0);
	CHECK_EQ(madt.n_ioapics, 0);
	CHECK_EQ(madt.n_skipped, 3);
	CHECK_EQ(madt.n_cpus, 1);
	CHECK(madt.why != NULL, "no warning for a skipped entry");
}

static void test_madt_too_many_cpus_is_e2big(void)
{
	u32 len;
	int i;

	madt_begin();
	for (i = 0; i < RTK_MAX_CPUS + 6; i++)
		madt_lapic((u8)i, (u8)i, ACPI_MADT_ENABLED);
	len = sdt_done(tbl, madt_off);
	CHECK_EQ(acpi_parse_madt(tbl, len, &madt), -E2BIG);
	CHECK_EQ(madt.n_cpus, RTK_MAX_CPUS);
	CHECK_EQ(madt.n_cpus_found, RTK_MAX_CPUS + 6);
	CHECK_EQ(madt.cpus[RTK_MAX_CPUS - 1].apic_id, RTK_MAX_CPUS - 1);

	madt_begin();
	for (i = 0; i < ACPI_MAX_OVERRIDES + 1; i++)
		madt_override((u8)i, (u32)i, 0);
	len = sdt_done(tbl, madt_off);
	CHECK_EQ(acpi_parse_madt(tbl, len, &madt), -E2BIG);
	CHECK_EQ(madt.n_overrides, ACPI_MAX_OVERRIDES);
}

static void test_madt_bad_tables_are_rejected(void)
{
	u32 len;
	u8 *p;

	madt_begin();
	madt_lapic(0, 0, ACPI_MADT_ENABLED);
	len = sdt_done(tbl, madt_off);
	tbl[45] ^= 0x40; /* flip one bit: checksum */
	CHECK_EQ(acpi_parse_madt(tbl, len, &madt), -EINVAL);
	tbl[45] ^= 0x40;
	CHECK_EQ(acpi_parse_madt(tbl, len, &madt), 0);

	sdt_done(tbl, 40); /* no room for the flags field */
	CHECK_EQ(acpi_parse_madt(tbl, 40, &madt), -EINVAL);

	madt_begin();
	madt_lapic(0, 0, ACPI_MADT_ENABLED);
	len = sdt_done(tbl, madt_off);
	p = exact_copy(tbl, len - 1);
	CHECK_EQ(acpi_parse_madt(p, len - 1, &madt), -EINVAL);
	free(p);
	memcpy(tbl, "FACP", 4);
	CHECK_EQ(acpi_parse_madt(tbl, len, &madt), -ENOENT);
}

/* ---- FADT ---- */

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

static void put_gas(u8 *p, u8 space, u8 width, u64 addr)
{
	p[0] = space;
	p[1] = width;
	p[3] = width / 8 == 4 ? 3 : 2;
	put64(p + 4, addr);
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

/* ---- \_S5 ---- */

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
 * cleanly (ASan checks it never reads past the cut).
 */
static void test_every_truncation_fails_cleanly(void)
{
	struct acpi_fadt_info f;
	struct acpi_hpet_info h;
	u64 e[4];
	int n, bad = 0;
	u32 len;
	u8 a, b;
	const char *why;

	madt_begin();
	madt_lapic(0, 0, ACPI_MADT_ENABLED);
	madt_override(0, 2, 0);
	len = sdt_done(tbl, madt_off);
	for (u32 l = 0; l < len; l++) {
		u8 *p = exact_copy(tbl, l);

		bad += acpi_parse_madt(p, l, &madt) != -EINVAL;
		free(p);
	}
	len = make_fadt_v1();
	for (u32 l = 0; l < len; l++) {
		u8 *p = exact_copy(tbl, l);

		bad += acpi_parse_fadt(p, l, &f) != -EINVAL;
		free(p);
	}
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
	len = make_dsdt((const u8 *)"\x08_S5_\x12\x04\x02\x00\x01", 9);
	for (u32 l = 0; l < len; l++) {
		u8 *p = exact_copy(tbl, l);

		bad += acpi_find_s5(p, l, &a, &b, &why) != -EINVAL;
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
		CHECK_CASE(test_madt_qemu_like_table_is_decoded),
		CHECK_CASE(test_madt_lapic_address_override),
		CHECK_CASE(test_madt_zero_length_entry_is_einval),
		CHECK_CASE(test_madt_entry_past_end_is_einval),
		CHECK_CASE(test_madt_short_entry_is_skipped_with_warning),
		CHECK_CASE(test_madt_too_many_cpus_is_e2big),
		CHECK_CASE(test_madt_bad_tables_are_rejected),
		CHECK_CASE(test_fadt_v1_uses_legacy_ports),
		CHECK_CASE(test_fadt_v6_prefers_extended_fields),
		CHECK_CASE(test_fadt_short_or_hw_reduced),
		CHECK_CASE(test_s5_found_in_qemu_like_aml),
		CHECK_CASE(test_s5_other_encodings),
		CHECK_CASE(test_s5_missing_or_malformed),
		CHECK_CASE(test_hpet_is_decoded_and_checked),
		CHECK_CASE(test_every_truncation_fails_cleanly),
		{ 0 } });
}
