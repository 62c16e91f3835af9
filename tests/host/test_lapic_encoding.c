/*
 * tests/host/test_lapic_encoding.c - host unit tests of the local APIC's
 * register encodings (arch/x86_64/lapic.h: x2apic_msr, x2apic_icr,
 * xapic_icr2, xapic_id).
 *
 * Why a host test: QEMU 7.2's TCG has no x2APIC (it drops +x2apic), so
 * under `make test` the x2APIC path never runs; Bochs runs it (make
 * test-machines BOCHS=1, bochs-x2apic) but only outside CI.  These
 * cases pin the encodings against the SDM's own tables: the MSR of each
 * register rtk uses (Vol. 3A Table 11-6: "Local APIC Register Address
 * Map Supported by x2APIC"), the 64-bit ICR of each IPI rtk sends with
 * a destination above 255 (11.12.9), and the xAPIC halves (11.6.1).
 */
#include "arch/x86_64/lapic.h"
#include "tests/host/check.h"

/* SDM Vol. 3A Table 11-6: MMIO offset -> x2APIC MSR. */
static void test_x2apic_msr_of_each_register_rtk_uses(void)
{
	static const struct {
		u32 reg, msr;
	} map[] = {
		{ APIC_ID, 0x802 },	{ APIC_LVR, 0x803 },
		{ APIC_TPR, 0x808 },	{ APIC_EOI, 0x80B },
		{ APIC_SVR, 0x80F },	{ APIC_ISR, 0x810 },
		{ APIC_ISR + 0x70, 0x817 }, /* ISR bits 224-255 */
		{ APIC_ESR, 0x828 },	{ APIC_ICR, 0x830 },
		{ APIC_LVTT, 0x832 },	{ APIC_LVT0, 0x835 },
		{ APIC_LVT1, 0x836 },	{ APIC_LVTERR, 0x837 },
		{ APIC_TMICT, 0x838 },	{ APIC_TMCCT, 0x839 },
		{ APIC_TDCR, 0x83E },
	};

	for (unsigned i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		CHECK(x2apic_msr(map[i].reg) == map[i].msr,
		      "register %#x: MSR %#x, expected %#x", map[i].reg,
		      x2apic_msr(map[i].reg), map[i].msr);
}

/* The IPIs of smpboot.c and ipi.c to APIC ID 0x12345 (x2APIC only). */
static void test_x2apic_icr_puts_a_32_bit_destination_high(void)
{
	u32 init = APIC_DM_INIT | APIC_ICR_TRIGGER_LEVEL |
		   APIC_ICR_LEVEL_ASSERT;

	CHECK_EQ(init, 0xC500);
	CHECK_EQ(x2apic_icr(init, 0x12345), 0x000123450000C500ULL);
	CHECK_EQ(x2apic_icr(APIC_DM_STARTUP | 0x08, 0x12345),
		 0x0001234500000608ULL);
	CHECK_EQ(x2apic_icr(APIC_DM_FIXED | APIC_ICR_LEVEL_ASSERT | 0xFD,
			    0xFFFFFFFF), 0xFFFFFFFF000040FDULL);
	CHECK_EQ(x2apic_icr(APIC_DM_NMI | APIC_ICR_LEVEL_ASSERT, 1),
		 0x0000000100004400ULL);
	/* all-but-self: destination field ignored, written as 0 */
	CHECK_EQ(x2apic_icr(APIC_DEST_ALLBUT | APIC_DM_FIXED |
				    APIC_ICR_LEVEL_ASSERT | 0xF0, 0),
		 0x00000000000C40F0ULL);
}

static void test_xapic_halves_and_id(void)
{
	CHECK_EQ(xapic_icr2(0), 0);
	CHECK_EQ(xapic_icr2(0x12), 0x12000000);
	CHECK_EQ(xapic_icr2(0xFF), 0xFF000000);
	/* wider than 8 bits: kept to 8, never spilling into reserved bits
	 * (lapic_icr_write warns first) */
	CHECK_EQ(xapic_icr2(0x1FF), 0xFF000000);
	CHECK_EQ(xapic_id(0x05000000), 5);
	CHECK_EQ(xapic_id(0xFF00ABCD), 0xFF);
}

int main(void)
{
	return check_run("lapic_encoding", (struct check_case[]){
		CHECK_CASE(test_x2apic_msr_of_each_register_rtk_uses),
		CHECK_CASE(test_x2apic_icr_puts_a_32_bit_destination_high),
		CHECK_CASE(test_xapic_halves_and_id),
		{ 0 } });
}
