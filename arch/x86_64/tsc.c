/*
 * arch/x86_64/tsc.c - TSC calibration against the 8254 PIT.
 *
 * PIT channel 2 is gated by port 0x61 bit 0 and its output is readable in
 * port 0x61 bit 5, so it can time an interval without interrupts: load a
 * count for 50 ms in mode 0 (interrupt on terminal count), read the TSC
 * on both sides of the output going high.  The PIT runs at 1.193182 MHz
 * on every PC.  (The HPET and ACPI PM timer references are added by the
 * time code when ACPI finds them.)  Reference: Intel 8254 data sheet;
 * Intel SDM Vol. 3B 18.17 (TSC); Linux arch/x86/kernel/tsc.c
 * pit_calibrate_tsc().
 */
#include "arch/x86_64/tsc.h"
#include "arch/x86_64/io.h"

#define PIT_HZ 1193182ULL
#define PIT_CH2 0x42
#define PIT_CMD 0x43
#define PIT_GATE 0x61
#define CAL_MS 50

void arch_slow_delay_us(unsigned long us)
{
	while (us--)
		io_wait();
}

bool tsc_invariant(void)
{
	struct cpuid_regs r;

	cpuid(0x80000000, &r);
	if (r.eax < 0x80000007)
		return false;
	cpuid(0x80000007, &r);
	return r.edx & (1u << 8);
}

/*
 * tsc_calibrate_pit - see tsc.h.
 * Context: boot CPU, interrupts off (the caller's).  Returns 0 if the PIT
 * output never rose (no PIT): the caller then needs another reference.
 */
u64 tsc_calibrate_pit(void)
{
	u32 count = (u32)(PIT_HZ * CAL_MS / 1000);
	u64 t0, t1;
	unsigned long spins = 0;
	u8 gate;

	/* Gate high, speaker off. */
	gate = inb(PIT_GATE);
	outb(PIT_GATE, (gate & ~0x02) | 0x01);
	/* Channel 2, lobyte/hibyte, mode 0, binary. */
	outb(PIT_CMD, 0xB0);
	outb(PIT_CH2, count & 0xFF);
	outb(PIT_CH2, count >> 8);
	t0 = rdtsc_ordered();
	while (!(inb(PIT_GATE) & 0x20)) {
		/* Give up after far more port reads than 50 ms can take. */
		if (++spins > 50000000UL)
			return 0;
	}
	t1 = rdtsc_ordered();
	outb(PIT_GATE, gate);
	return (t1 - t0) * 1000 / CAL_MS;
}
