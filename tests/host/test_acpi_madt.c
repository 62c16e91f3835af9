/*
 * tests/host/test_acpi_madt.c - host unit tests of the MADT parser
 * (lib/acpi_madt.c): a QEMU-like table decoded, then each way an entry
 * or the table can be wrong (zero or short entry lengths, an entry past
 * the end, too many CPUs, bad headers) and every truncation.  Tables are
 * built with tests/host/acpi_build.h.
 */
#include "tests/host/acpi_build.h"

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

/* The MADT cut to every shorter length fails cleanly (ASan checks it
 * never reads past the cut). */
static void test_madt_every_truncation_fails_cleanly(void)
{
	int bad = 0;
	u32 len;

	madt_begin();
	madt_lapic(0, 0, ACPI_MADT_ENABLED);
	madt_override(0, 2, 0);
	len = sdt_done(tbl, madt_off);
	for (u32 l = 0; l < len; l++) {
		u8 *p = exact_copy(tbl, l);

		bad += acpi_parse_madt(p, l, &madt) != -EINVAL;
		free(p);
	}
	CHECK_EQ(bad, 0);
}

int main(void)
{
	return check_run("acpi_madt", (struct check_case[]){
		CHECK_CASE(test_madt_qemu_like_table_is_decoded),
		CHECK_CASE(test_madt_lapic_address_override),
		CHECK_CASE(test_madt_zero_length_entry_is_einval),
		CHECK_CASE(test_madt_entry_past_end_is_einval),
		CHECK_CASE(test_madt_short_entry_is_skipped_with_warning),
		CHECK_CASE(test_madt_too_many_cpus_is_e2big),
		CHECK_CASE(test_madt_bad_tables_are_rejected),
		CHECK_CASE(test_madt_every_truncation_fails_cleanly),
		{ 0 } });
}
