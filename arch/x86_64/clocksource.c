/*
 * arch/x86_64/clocksource.c - arch_time_init(): calibrate the TSC, rtk's
 * only clock source, against the best reference the machine has.
 *
 * Order of preference: the HPET main counter (ACPI "HPET" table; at
 * least 10 MHz, 32 or 64 bits), the ACPI PM timer (FADT PM_TMR_BLK,
 * 3.579545 MHz, 24 or 32 bits), the PIT channel 2 (tsc.c).  Calibration
 * counts TSC cycles across CAL_MS of the reference, with interrupts off.
 * The HPET is read through the direct map: it lies below 4 GiB and the
 * firmware's MTRRs mark that range uncached (mmu.c); time_init runs
 * before mm_init, so there is no page allocator for ioremap yet.
 * Spec: IA-PC HPET specification 1.0a, 2.3.4 (GCAP_ID), 2.3.5 (GEN_CONF),
 * 2.3.7 (main counter); ACPI 6.5 4.8.3.3 (PM timer); Intel SDM Vol. 3B
 * 18.17 (TSC, invariant TSC).
 * Linux counterpart: arch/x86/kernel/tsc.c (pit_hpet_ptimer_calibrate_cpu,
 * tsc_read_refs), drivers/clocksource/acpi_pm.c, arch/x86/kernel/hpet.c.
 */
#include "arch/x86_64/clocksource.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/io.h"
#include "arch/x86_64/tsc.h"
#include "kernel/printk.h"
#include "lib/bug.h"

#define CAL_MS 50	/* long enough for 0.1% with a 3.58 MHz reference */

#define HPET_GCAP_ID	0x000
#define HPET_GEN_CONF	0x010
#define HPET_COUNTER	0x0F0
#define HPET_ENABLE_CNF	(1u << 0)
#define HPET_COUNT_SIZE_CAP (1u << 13)	/* main counter is 64 bits */
#define FEMTO_PER_SEC	1000000000000000ULL

#define PM_TIMER_HZ	3579545ULL

static volatile u8 *hpet_base;
static u16 pm_port;
static struct refclock ref;

const struct refclock *refclock_get(void)
{
	return &ref;
}

static u64 hpet_read(void)
{
	if (ref.mask == ~0ULL)
		return mmio_read64(hpet_base + HPET_COUNTER);
	return mmio_read32(hpet_base + HPET_COUNTER);
}

static u64 pm_timer_read(void)
{
	return inl(pm_port) & ref.mask;
}

static bool __init hpet_setup(void)
{
	u64 cap, period;

	if (!acpi.hpet_addr || acpi.hpet_addr >= (4ULL << 30))
		return false;
	hpet_base = phys_to_virt(acpi.hpet_addr);
	cap = mmio_read64(hpet_base + HPET_GCAP_ID);
	period = cap >> 32;		/* femtoseconds per tick */
	/* The spec bounds the period to 100 ns; 0 or more is no HPET. */
	if (!period || period > 100000000ULL)
		return false;
	ref.name = "HPET";
	ref.hz = FEMTO_PER_SEC / period;
	ref.mask = (cap & HPET_COUNT_SIZE_CAP) ? ~0ULL : 0xFFFFFFFFULL;
	ref.read = hpet_read;
	mmio_write32(hpet_base + HPET_GEN_CONF,
		     mmio_read32(hpet_base + HPET_GEN_CONF) | HPET_ENABLE_CNF);
	return true;
}

static bool __init pm_timer_setup(void)
{
	if (!acpi.pm_timer_port)
		return false;
	pm_port = acpi.pm_timer_port;
	ref.name = "ACPI PM timer";
	ref.hz = PM_TIMER_HZ;
	ref.mask = acpi.pm_timer_32bit ? 0xFFFFFFFFULL : 0xFFFFFFULL;
	ref.read = pm_timer_read;
	return true;
}

/*
 * read_ref_bracketed - the reference read between two TSC reads, the
 * narrowest of a few tries; *tsc is the midpoint (Linux: tsc_read_refs).
 * Under TCG the emulator can be descheduled between a reference read
 * and the next TSC read; unbracketed, that stall went into the rate.
 */
static u64 __init read_ref_bracketed(u64 *tsc)
{
	u64 a, b, v, val = 0, best = ~0ULL;

	for (int i = 0; i < 8; i++) {
		a = rdtsc_ordered();
		v = ref.read();
		b = rdtsc_ordered();
		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			val = v;
		}
	}
	return val;
}

/*
 * calibrate_against_ref - TSC Hz measured over CAL_MS of ref, or 0 when
 * the reference does not advance (a broken or absent device).
 */
static u64 __init calibrate_against_ref(void)
{
	u64 want = ref.hz * CAL_MS / 1000, r0, r1, t0, t1, elapsed;
	unsigned long spins = 0;

	r0 = read_ref_bracketed(&t0);
	do {
		r1 = ref.read();
		elapsed = (r1 - r0) & ref.mask;
		/* Far more reads than CAL_MS can take on any machine. */
		if (++spins > 100000000UL)
			return 0;
	} while (elapsed < want);
	r1 = read_ref_bracketed(&t1);
	elapsed = (r1 - r0) & ref.mask;
	return (t1 - t0) * ref.hz / elapsed;
}

/*
 * arch_time_init - see arch.h.
 * Context: boot CPU, once, interrupts off, after acpi_init().
 */
u64 __init arch_time_init(void)
{
	u64 hz = 0;

	BUG_ON(!arch_irqs_disabled());
	if (hpet_setup())
		hz = calibrate_against_ref();
	if (!hz && pm_timer_setup())
		hz = calibrate_against_ref();
	if (!hz) {
		ref.name = "PIT";
		ref.hz = 1193182;
		ref.mask = 0xFFFF;
		ref.read = NULL;
		hz = tsc_calibrate_pit();
	}
	if (hz)
		pr_info("time: TSC %llu.%03llu MHz, calibrated against the %s (%llu Hz), %s\n",
			(unsigned long long)(hz / 1000000),
			(unsigned long long)(hz / 1000 % 1000), ref.name,
			(unsigned long long)ref.hz,
			tsc_invariant() ? "invariant" : "not invariant");
	return hz;
}
