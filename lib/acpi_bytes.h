/*
 * lib/acpi_bytes.h - what the ACPI table parsers (lib/acpi_tables.c,
 * acpi_madt.c, acpi_fadt.c) share: explicit little-endian loads, the
 * header offsets every System Description Table starts with, and the
 * Generic Address Structure.
 *
 * Explicit loads, not casts to packed structs: the tables are often
 * misaligned and the host build runs under UBSan.  Private to the
 * parsers: the API is lib/acpi_tables.h.
 * Spec: ACPI 6.5 5.2.3.2 (GAS), 5.2.6 (the SDT header, Table 5.4).
 */
#ifndef LIB_ACPI_BYTES_H
#define LIB_ACPI_BYTES_H

#include "lib/acpi_tables.h"
#include "lib/string.h"

#define SDT_LENGTH 4
#define SDT_REVISION 8
#define SDT_OEM_ID 10
#define SDT_OEM_TABLE_ID 16
#define SDT_OEM_REVISION 24
#define GAS_LEN 12

static inline u16 rd16(const u8 *p)
{
	return (u16)(p[0] | p[1] << 8);
}

static inline u32 rd32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline u64 rd64(const u8 *p)
{
	return (u64)rd32(p) | (u64)rd32(p + 4) << 32;
}

static inline bool sum_is_zero(const u8 *p, size_t n)
{
	return acpi_checksum(p, n) == 0;
}

static inline void copy_name(char *dst, const u8 *src, size_t n)
{
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static inline void read_gas(const u8 *p, struct acpi_gas *gas)
{
	gas->space_id = p[0];
	gas->bit_width = p[1];
	gas->bit_offset = p[2];
	gas->access_size = p[3];
	gas->address = rd64(p + 4);
}

#endif /* LIB_ACPI_BYTES_H */
