/*
 * lib/acpi_madt.c - the pure MADT parser: CPUs (xAPIC and x2APIC
 * entries), I/O APICs, interrupt source overrides, NMI wiring and the
 * local APIC address (API: acpi_tables.h acpi_parse_madt).
 *
 * Every entry is checked against its type's minimum length and the
 * table's end before a field is read; an entry that cannot be used is
 * skipped with a warning in out->why, never read past.  Host-tested and
 * fuzzed with the same source (tests/host/test_acpi*.c, fuzz_acpi.c).
 * Spec: ACPI 6.5 5.2.12 (Tables 5.43-5.57).  Linux counterpart:
 * arch/x86/kernel/acpi/boot.c (acpi_parse_lapic, acpi_parse_x2apic,
 * acpi_parse_int_src_ovr ...).
 */
#include "lib/acpi_bytes.h"
#include "lib/errno.h"

#define MADT_LAPIC_ADDR_FIELD 36
#define MADT_FLAGS 40
#define MADT_ENTRIES 44

enum madt_type {
	MADT_LAPIC = 0,
	MADT_IOAPIC = 1,
	MADT_OVERRIDE = 2,
	MADT_NMI_SOURCE = 3,
	MADT_LAPIC_NMI = 4,
	MADT_LAPIC_ADDR_OVERRIDE = 5,
	MADT_X2APIC = 9,
	MADT_X2APIC_NMI = 10,
};

/* Minimum entry length per type (Tables 5.45-5.57); 0: type not used. */
static const u8 madt_min_len[] = {
	[MADT_LAPIC] = 8,      [MADT_IOAPIC] = 12,    [MADT_OVERRIDE] = 10,
	[MADT_NMI_SOURCE] = 8, [MADT_LAPIC_NMI] = 6,  [MADT_LAPIC_ADDR_OVERRIDE] = 12,
	[MADT_X2APIC] = 16,    [MADT_X2APIC_NMI] = 12,
};

static bool madt_has_apic_id(const struct acpi_madt_info *m, u32 apic_id)
{
	for (int i = 0; i < m->n_cpus; i++)
		if (m->cpus[i].apic_id == apic_id)
			return true;
	return false;
}

/*
 * Types 0 and 9: keep CPUs that are enabled or online capable.  An xAPIC
 * id of 0xFF is the broadcast id, never a CPU; a CPU listed twice (a type
 * 0 and a type 9 entry for one id) is kept once.
 */
static void madt_add_cpu(struct acpi_madt_info *m, u32 apic_id, u32 uid,
			 u32 flags, bool x2apic)
{
	struct acpi_madt_cpu *c;

	if (!(flags & (ACPI_MADT_ENABLED | ACPI_MADT_ONLINE_CAPABLE))) {
		m->n_cpus_disabled++;
		return;
	}
	if ((!x2apic && apic_id == 0xFF) || madt_has_apic_id(m, apic_id)) {
		m->n_skipped++;
		m->why = "CPU entry with APIC id 0xFF or listed twice skipped";
		return;
	}
	m->n_cpus_found++;
	if (m->n_cpus >= RTK_MAX_CPUS)
		return;
	c = &m->cpus[m->n_cpus++];
	c->apic_id = apic_id;
	c->uid = uid;
	c->enabled = flags & ACPI_MADT_ENABLED;
	c->online_capable = !c->enabled && (flags & ACPI_MADT_ONLINE_CAPABLE);
	c->x2apic = x2apic;
}

/* Resolve "conforms to the bus" for ISA: edge triggered, active high. */
static void madt_add_override(struct acpi_madt_info *m, const u8 *e)
{
	struct acpi_madt_override *o;
	u16 flags = rd16(e + 8);

	if (m->n_overrides_found++ >= ACPI_MAX_OVERRIDES)
		return;
	o = &m->overrides[m->n_overrides++];
	o->bus = e[2];
	o->source_irq = e[3];
	o->gsi = rd32(e + 4);
	o->flags = flags;
	o->active_low = (flags & ACPI_MPS_POLARITY_MASK) ==
			ACPI_MPS_POLARITY_LOW;
	o->level_triggered = (flags & ACPI_MPS_TRIGGER_MASK) ==
			     ACPI_MPS_TRIGGER_LEVEL;
}

static void madt_add_lapic_nmi(struct acpi_madt_info *m, u32 uid, u16 flags,
			       u8 lint, bool x2apic)
{
	struct acpi_madt_lapic_nmi *n;

	if (m->n_lapic_nmis_found++ >= ACPI_MAX_LAPIC_NMIS)
		return;
	n = &m->lapic_nmis[m->n_lapic_nmis++];
	n->uid = uid;
	n->flags = flags;
	n->lint = lint;
	n->x2apic = x2apic;
}

/* One entry of known-good length; the byte layouts are Tables 5.45-5.57. */
static void madt_entry(struct acpi_madt_info *m, const u8 *e)
{
	switch (e[0]) {
	case MADT_LAPIC:
		madt_add_cpu(m, e[3], e[2], rd32(e + 4), false);
		break;
	case MADT_X2APIC:
		madt_add_cpu(m, rd32(e + 4), rd32(e + 12), rd32(e + 8), true);
		break;
	case MADT_IOAPIC:
		if (m->n_ioapics_found++ < ACPI_MAX_IOAPICS) {
			struct acpi_madt_ioapic *io = &m->ioapics[m->n_ioapics++];

			io->id = e[2];
			io->address = rd32(e + 4);
			io->gsi_base = rd32(e + 8);
		}
		break;
	case MADT_OVERRIDE:
		madt_add_override(m, e);
		break;
	case MADT_NMI_SOURCE:
		if (m->n_nmi_sources_found++ < ACPI_MAX_NMI_SOURCES) {
			struct acpi_madt_nmi_source *s =
				&m->nmi_sources[m->n_nmi_sources++];

			s->flags = rd16(e + 2);
			s->gsi = rd32(e + 4);
		}
		break;
	case MADT_LAPIC_NMI:
		madt_add_lapic_nmi(m, e[2] == 0xFF ? ACPI_UID_ALL_CPUS : e[2],
				   rd16(e + 3), e[5], false);
		break;
	case MADT_X2APIC_NMI:
		madt_add_lapic_nmi(m, rd32(e + 4), rd16(e + 2), e[8], true);
		break;
	case MADT_LAPIC_ADDR_OVERRIDE:
		m->lapic_addr = rd64(e + 4);
		m->lapic_addr_override = true;
		break;
	}
}

/*
 * acpi_parse_madt - decode the MADT into *out.
 * Returns 0 (out->why may hold a warning: an entry was skipped), -ENOENT
 * (not an MADT), -EINVAL (bad table, or an entry of length < 2 or past the
 * end: out->truncated, the entries before it are kept), or -E2BIG (an
 * array of *out filled up; everything else is complete).
 * Context: any; pure.
 *
 * [1] validate header, Length, checksum; the fixed part must fit;
 * [2] walk the entries: each has type and length in its first two bytes,
 *     and must lie wholly inside Length;
 * [3] an entry shorter than its type needs is skipped and counted;
 * [4] report overflow of any array as -E2BIG.
 */
int acpi_parse_madt(const void *buf, size_t len, struct acpi_madt_info *out)
{
	const u8 *p = buf;
	u32 length, off;
	int err;

	memset(out, 0, sizeof(*out));
	err = acpi_validate_sdt(buf, len, "APIC", &out->why); /* [1] */
	if (err)
		return err;
	length = rd32(p + SDT_LENGTH);
	if (length < MADT_ENTRIES) {
		out->why = "MADT shorter than its fixed fields";
		return -EINVAL;
	}
	out->lapic_addr = rd32(p + MADT_LAPIC_ADDR_FIELD);
	out->flags = rd32(p + MADT_FLAGS);
	out->pcat_compat = out->flags & ACPI_MADT_PCAT_COMPAT;

	for (off = MADT_ENTRIES; off < length;) { /* [2] */
		const u8 *e = p + off;
		u8 type, elen;

		if (length - off < 2 || e[1] < 2 || e[1] > length - off) {
			out->truncated = true;
			out->why = length - off < 2 || e[1] >= 2
					   ? "MADT entry runs past the table end"
					   : "MADT entry with length < 2";
			return -EINVAL;
		}
		type = e[0];
		elen = e[1];
		off += elen;
		if (type >= sizeof(madt_min_len) || !madt_min_len[type])
			continue; /* a type rtk does not use */
		if (elen < madt_min_len[type]) { /* [3] */
			out->n_skipped++;
			out->why = "MADT entry too short for its type skipped";
			continue;
		}
		madt_entry(out, e);
	}

	if (out->n_cpus_found > out->n_cpus) { /* [4] */
		out->why = "more CPUs than RTK_MAX_CPUS; extra ones ignored";
		return -E2BIG;
	}
	if (out->n_ioapics_found > out->n_ioapics ||
	    out->n_overrides_found > out->n_overrides ||
	    out->n_nmi_sources_found > out->n_nmi_sources ||
	    out->n_lapic_nmis_found > out->n_lapic_nmis) {
		out->why = "more MADT entries of one type than rtk keeps";
		return -E2BIG;
	}
	return 0;
}
