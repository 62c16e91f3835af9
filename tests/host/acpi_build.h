/*
 * tests/host/acpi_build.h - the ACPI host tests' table builders
 * (test_acpi.c, test_acpi_madt.c, test_acpi_fadt.c): a buffer to build
 * one table in, little-endian stores, the SDT header and its checksum,
 * an RSDP, a Generic Address Structure, and exact-size copies for
 * AddressSanitizer.  The values are QEMU's where it has some (OEM
 * "BOCHS ", "BXPC").
 */
#ifndef TESTS_HOST_ACPI_BUILD_H
#define TESTS_HOST_ACPI_BUILD_H

#include <stdlib.h>
#include <string.h>
#include "lib/acpi_tables.h"
#include "lib/errno.h"
#include "tests/host/check.h"

static u8 tbl[8192]; /* the table being built */

static inline void put16(u8 *p, u16 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
}

static inline void put32(u8 *p, u32 v)
{
	put16(p, (u16)v);
	put16(p + 2, (u16)(v >> 16));
}

static inline void put64(u8 *p, u64 v)
{
	put32(p, (u32)v);
	put32(p + 4, (u32)(v >> 32));
}

/* Make p[0..n) sum to zero by adjusting p[at]. */
static inline void fix_sum(u8 *p, size_t n, size_t at)
{
	p[at] = 0;
	p[at] = (u8)-acpi_checksum(p, n);
}

/* Fill a 5.2.6 header; the caller appends the body and calls sdt_done. */
static inline void sdt_begin(u8 *p, const char *sig, u8 revision)
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
static inline u32 sdt_done(u8 *p, u32 length)
{
	put32(p + 4, length);
	fix_sum(p, length, 9);
	return length;
}

static inline void make_rsdp(u8 *p, u8 revision, u32 rsdt, u64 xsdt)
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

static inline void put_gas(u8 *p, u8 space, u8 width, u64 addr)
{
	p[0] = space;
	p[1] = width;
	p[3] = width / 8 == 4 ? 3 : 2;
	put64(p + 4, addr);
}

#endif /* TESTS_HOST_ACPI_BUILD_H */
