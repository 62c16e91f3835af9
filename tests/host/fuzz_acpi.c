/*
 * tests/host/fuzz_acpi.c - libFuzzer target for the ACPI table parsers
 * (lib/acpi_tables.c, acpi_madt.c, acpi_fadt.c), built by `make fuzz` with clang
 * -fsanitize=fuzzer,address,undefined.
 *
 * Input: one selector byte, then the table bytes.
 *   selector bits 3:0  which parser (FUZZ_* below, modulo FUZZ_NR)
 *   selector bit 4     "fix up": before parsing, set the table's Length
 *                      field to the input size and correct its checksum
 *                      (both RSDP checksums), so the fuzzer reaches the
 *                      body decoders instead of stopping at the checksum.
 * The table is copied into a malloc'ed buffer of exactly its size, so
 * ASan reports any read past len.  After each parse the target checks the
 * invariants acpi_tables.h promises (counts within the arrays, offsets in
 * range, a why string on failure) and aborts when one is broken.
 * Seeds: tests/host/fuzz_acpi_corpus/ (one real-looking table per parser,
 * the selector byte first).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/acpi_tables.h"
#include "lib/errno.h"

enum {
	FUZZ_RSDP,
	FUZZ_SCAN_RSDP,
	FUZZ_SDT_HEADER,
	FUZZ_RSDT,
	FUZZ_XSDT,
	FUZZ_MADT,
	FUZZ_FADT,
	FUZZ_S5,
	FUZZ_HPET,
	FUZZ_NR
};

#define FUZZ_FIXUP 0x10

/* Stop with a crash libFuzzer records, naming the broken promise. */
#define PROMISE(cond)                                                        \
	do {                                                                 \
		if (!(cond))                                                 \
			__builtin_trap();                                    \
	} while (0)

static void fix_sum(u8 *p, size_t n, size_t at)
{
	p[at] = 0;
	p[at] = (u8)-acpi_checksum(p, n);
}

static void fixup(u8 *p, size_t len, int which)
{
	if (which == FUZZ_RSDP) {
		if (len >= 20)
			fix_sum(p, 20, 8);
		if (len >= 36) {
			size_t n = len < 0xFFFF ? len : 0xFFFF;

			p[20] = (u8)n;
			p[21] = (u8)(n >> 8);
			p[22] = p[23] = 0;
			fix_sum(p, 20, 8);
			fix_sum(p, n, 32);
		}
		return;
	}
	if (len < ACPI_SDT_HEADER_LEN)
		return;
	p[4] = (u8)len;
	p[5] = (u8)(len >> 8);
	p[6] = (u8)(len >> 16);
	p[7] = (u8)(len >> 24);
	fix_sum(p, len, 9);
}

static void fuzz_madt(const u8 *p, size_t len)
{
	static struct acpi_madt_info m;
	int err = acpi_parse_madt(p, len, &m);

	PROMISE(err == 0 || err == -EINVAL || err == -ENOENT || err == -E2BIG);
	PROMISE(err == 0 || m.why);
	PROMISE(m.n_cpus >= 0 && m.n_cpus <= RTK_MAX_CPUS);
	PROMISE(m.n_cpus <= m.n_cpus_found);
	PROMISE(m.n_ioapics <= ACPI_MAX_IOAPICS);
	PROMISE(m.n_overrides <= ACPI_MAX_OVERRIDES);
	PROMISE(m.n_nmi_sources <= ACPI_MAX_NMI_SOURCES);
	PROMISE(m.n_lapic_nmis <= ACPI_MAX_LAPIC_NMIS);
	for (int i = 0; i < m.n_cpus; i++)
		PROMISE(m.cpus[i].enabled || m.cpus[i].online_capable);
	PROMISE(err != -E2BIG || m.n_cpus_found > m.n_cpus ||
		m.n_overrides_found > m.n_overrides ||
		m.n_ioapics_found > m.n_ioapics ||
		m.n_nmi_sources_found > m.n_nmi_sources ||
		m.n_lapic_nmis_found > m.n_lapic_nmis);
}

static void fuzz_one(int which, const u8 *p, size_t len)
{
	struct acpi_rsdp_info r;
	struct acpi_sdt_info h;
	struct acpi_fadt_info f;
	struct acpi_hpet_info hp;
	const char *why = NULL;
	u64 e[16];
	int err, n = -1;
	u8 a = 0, b = 0;

	switch (which) {
	case FUZZ_RSDP:
		err = acpi_parse_rsdp(p, len, &r);
		PROMISE(err ? r.why != NULL : r.why == NULL);
		PROMISE(err || r.length <= len);
		break;
	case FUZZ_SCAN_RSDP:
		err = acpi_scan_rsdp(p, len, &r);
		PROMISE(err == -ENOENT ||
			(err >= 0 && err % 16 == 0 && (size_t)err + 20 <= len));
		break;
	case FUZZ_SDT_HEADER:
		err = acpi_read_sdt_header(p, len, &h);
		PROMISE(err == 0 || len < ACPI_SDT_HEADER_LEN);
		err = acpi_validate_sdt(p, len, NULL, &why);
		PROMISE(err ? why != NULL : h.length <= len);
		break;
	case FUZZ_RSDT:
	case FUZZ_XSDT:
		err = acpi_parse_root(p, len, which == FUZZ_XSDT, e, 16, &n,
				      &why);
		PROMISE(n >= 0 && n <= 16);
		PROMISE(err == 0 || why != NULL);
		break;
	case FUZZ_MADT:
		fuzz_madt(p, len);
		break;
	case FUZZ_FADT:
		err = acpi_parse_fadt(p, len, &f);
		PROMISE(err == 0 || f.why != NULL);
		PROMISE(!f.has_reset_reg || f.reset_reg.address);
		break;
	case FUZZ_S5:
		err = acpi_find_s5(p, len, &a, &b, &why);
		PROMISE(err ? why != NULL : (a <= 7 && b <= 7));
		break;
	case FUZZ_HPET:
		err = acpi_parse_hpet(p, len, &hp);
		PROMISE(err ? hp.why != NULL : hp.address != 0);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int which;
	size_t len;
	u8 *p;

	if (size < 1)
		return 0;
	which = (data[0] & 0x0F) % FUZZ_NR;
	len = size - 1;
	p = malloc(len ? len : 1);
	if (!p)
		return 0;
	memcpy(p, data + 1, len);
	if (data[0] & FUZZ_FIXUP)
		fixup(p, len, which);
	fuzz_one(which, p, len);
	free(p);
	return 0;
}
