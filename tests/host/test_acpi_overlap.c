/*
 * tests/host/test_acpi_overlap.c - host unit tests of where ACPI tables
 * lie (acpi_spans_overlap, acpi_next_overlap in lib/acpi_tables.c)
 * and of roots whose Length runs past what is mapped.
 *
 * Firmware quirks seen on real PCs: a table whose Length runs into the
 * table after it (or into the RSDT that lists it), a root whose Length
 * runs past the memory it was mapped with, zero-length tables.  The
 * kernel (arch/x86_64/acpi.c acpi_warn_overlaps) prints one line per
 * overlapping pair and keeps both tables when their checksums hold; a
 * root or table that fails its own checks is reported and skipped.  The
 * arena test lays out "physical memory" the way SeaBIOS does (RSDT, FACP,
 * DSDT one after another) with one Length wrong, and checks the pairs
 * found, that every table still parses, and that the root cut short is
 * refused with a reason instead of read past its end.
 */
#include <stdlib.h>
#include <string.h>
#include "lib/acpi_tables.h"
#include "lib/errno.h"
#include "tests/host/check.h"

static void put32(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

/* A header at p with Length length and a right checksum over it. */
static void make_sdt(u8 *p, const char *sig, u32 length)
{
	memset(p, 0, ACPI_SDT_HEADER_LEN);
	memcpy(p, sig, 4);
	p[8] = 1;
	memcpy(p + 10, "BOCHS ", 6);
	put32(p + 4, length);
	p[9] = 0;
	p[9] = (u8)-acpi_checksum(p, length);
}

static bool overlap(u64 a, u32 alen, u64 b, u32 blen)
{
	struct acpi_span x = { a, alen }, y = { b, blen };

	return acpi_spans_overlap(&x, &y);
}

static void test_spans_sharing_a_byte_overlap(void)
{
	CHECK(overlap(0x1000, 0x100, 0x10ff, 0x10), "last byte shared");
	CHECK(overlap(0x1000, 0x100, 0x1010, 0x10), "y inside x");
	CHECK(overlap(0x1010, 0x10, 0x1000, 0x100), "x inside y");
	CHECK(overlap(0x1000, 0x24, 0x1000, 0x24), "the same table twice");
	CHECK(!overlap(0x1000, 0x100, 0x1100, 0x10), "adjacent, no overlap");
	CHECK(!overlap(0x1100, 0x10, 0x1000, 0x100), "adjacent, other order");
	CHECK(!overlap(0x1000, 0, 0x1000, 0x100), "zero length: unknown");
}

static void test_span_reaching_past_2_pow_64_does_not_wrap(void)
{
	/* 0xffff_ffff_ffff_f000 + 4 GiB wraps to low memory if unclipped */
	CHECK(!overlap(0xfffffffffffff000ULL, 0xffffffffu, 0x1000, 0x100),
	      "a span near 2^64 'overlapped' a table at 0x1000");
	CHECK(overlap(0xfffffffffffff000ULL, 0xffffffffu,
		      0xffffffffffffff00ULL, 0x10), "clipped span lost its tail");
}

static void test_next_overlap_lists_every_pair_once(void)
{
	const struct acpi_span s[] = {
		{ 0x0000, 0x40 },	/* 0: RSDT */
		{ 0x0100, 0x80 },	/* 1: FACP */
		{ 0x0140, 0x40 },	/* 2: inside FACP */
		{ 0x0170, 0x20 },	/* 3: inside FACP, overlaps 2 */
		{ 0x1000, 0x10 },	/* 4: alone */
	};
	int want[][2] = { { 1, 2 }, { 1, 3 }, { 2, 3 } };
	int i = 0, j = 0, k = 0;

	while (acpi_next_overlap(s, 5, &i, &j)) {
		CHECK(k < 3, "more than 3 pairs: (%d, %d)", i, j);
		if (k >= 3)
			break;
		CHECK(i == want[k][0] && j == want[k][1],
		      "pair %d: expected (%d, %d), saw (%d, %d)", k,
		      want[k][0], want[k][1], i, j);
		k++;
	}
	CHECK_EQ(k, 3);
	i = j = 0;
	CHECK(!acpi_next_overlap(s, 1, &i, &j), "one span overlaps itself");
	CHECK(!acpi_next_overlap(s, 0, &i, &j), "no spans, a pair found");
}

/*
 * The arena: RSDT at 0 (two entries), FACP at 0x100 whose Length runs
 * 0x40 bytes into the DSDT at 0x200 (checksum fixed over the longer
 * Length, as firmware that computed it so would).  Expected: exactly the
 * pair (FACP, DSDT); both tables still validate; the RSDT parses.
 */
static void test_table_running_into_the_next_is_found_and_both_kept(void)
{
	static u8 mem[0x400];
	struct acpi_span s[3];
	const char *why;
	u64 e[4];
	int n, i = 0, j = 0;

	memset(mem, 0, sizeof(mem));
	make_sdt(mem + 0x200, "DSDT", 0x80);
	put32(mem + 36, 0x100);
	put32(mem + 40, 0x200);
	make_sdt(mem, "RSDT", 44);
	make_sdt(mem + 0x100, "FACP", 0x140); /* 0x100..0x23f */
	CHECK_EQ(acpi_parse_root(mem, 44, false, e, 4, &n, &why), 0);
	CHECK_EQ(n, 2);
	s[0] = (struct acpi_span){ 0, 44 };
	s[1] = (struct acpi_span){ e[0], 0x140 };
	s[2] = (struct acpi_span){ e[1], 0x80 };
	CHECK(acpi_next_overlap(s, 3, &i, &j), "FACP over DSDT not found");
	CHECK(i == 1 && j == 2, "expected (1, 2), saw (%d, %d)", i, j);
	CHECK(!acpi_next_overlap(s, 3, &i, &j), "a second pair (%d, %d)", i,
	      j);
	CHECK_EQ(acpi_validate_sdt(mem + 0x100, 0x140, "FACP", &why), 0);
	CHECK_EQ(acpi_validate_sdt(mem + 0x200, 0x80, "DSDT", &why), 0);
}

/* A root whose Length runs past the bytes mapped for it (the caller maps
 * Length, capped; a firmware Length past the map must not be read), and
 * one with Length 0: refused with a reason, never read past len. */
static void test_root_running_past_its_map_is_refused(void)
{
	u8 root[48];
	const char *why = NULL;
	u64 e[4];
	u8 *cut;
	int n;

	memset(root, 0, sizeof(root));
	put32(root + 36, 0x100);
	make_sdt(root, "RSDT", 48);	/* Length 48 ... */
	cut = malloc(40);		/* ... but 40 bytes there */
	memcpy(cut, root, 40);
	CHECK_EQ(acpi_parse_root(cut, 40, false, e, 4, &n, &why), -EINVAL);
	CHECK_EQ(n, 0);
	CHECK(why && strstr(why, "truncated"), "why \"%s\"", why);
	free(cut);
	make_sdt(root, "XSDT", 36);
	put32(root + 4, 0);		/* zero-length XSDT */
	CHECK_EQ(acpi_parse_root(root, 48, true, e, 4, &n, &why), -EINVAL);
	CHECK(why && strstr(why, "smaller"), "why \"%s\"", why);
}

int main(void)
{
	return check_run("acpi_overlap", (struct check_case[]){
		CHECK_CASE(test_spans_sharing_a_byte_overlap),
		CHECK_CASE(test_span_reaching_past_2_pow_64_does_not_wrap),
		CHECK_CASE(test_next_overlap_lists_every_pair_once),
		CHECK_CASE(test_table_running_into_the_next_is_found_and_both_kept),
		CHECK_CASE(test_root_running_past_its_map_is_refused),
		{ 0 } });
}
