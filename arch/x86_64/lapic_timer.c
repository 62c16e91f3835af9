/*
 * arch/x86_64/lapic_timer.c - the LAPIC timer, one per CPU, programmed
 * one-shot for the next event (the tick or the earliest hrtimer).
 *
 * Two modes (SDM Vol. 3A 11.5.4):
 *	TSC-deadline	CPUID.1:ECX[24]: write the absolute TSC value to
 *			IA32_TSC_DEADLINE; no calibration needed, no drift
 *	one-shot	count down TMICT at the bus clock / 16: the rate is
 *			measured against the TSC at boot (all CPUs share
 *			the bus clock, so once is enough)
 * `notscdeadline` forces one-shot mode (to test it on a CPU that has
 * both).  The interrupt (LOCAL_TIMER_VECTOR) is the per-CPU line
 * ARCH_TIMER_IRQ (irq_chip.h), which kernel/time/tick.c requests with
 * request_percpu_irq: the article's per-CPU timer interrupt that stays
 * SA_NODELAY, in hard-irq context.
 * Linux counterpart: arch/x86/kernel/apic/apic.c (lapic_next_event,
 * lapic_next_deadline, calibrate_APIC_clock), kernel/time/clockevents.c.
 */
#include "arch/x86_64/lapic_timer.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/idt.h"
#include "arch/x86_64/irq_vectors.h"
#include "arch/x86_64/lapic.h"
#include "kernel/cmdline.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/time/ktime.h"
#include "lib/bug.h"

#define CPUID1_ECX_TSC_DEADLINE	(1u << 24)
#define APIC_TDCR_DIV16		0x3
#define CAL_MS			10	/* +-1 count of error in 10^5 or so */
#define CAL_TRIES		3	/* keep the least disturbed window */

static bool use_tsc_deadline;	/* written once on the boot CPU */
static u64 timer_hz;		/* one-shot counts per second */
static bool notscdeadline;

static int __init parse_notscdeadline(const char *val)
{
	(void)val;
	notscdeadline = true;
	return 0;
}
CMDLINE_PARAM("notscdeadline", parse_notscdeadline);

bool lapic_timer_tsc_deadline(void)
{
	return use_tsc_deadline;
}

u64 lapic_timer_hz(void)
{
	return timer_hz;
}

/* ns_to_units - ns at hz units per second, split to avoid overflow. */
static u64 ns_to_units(u64 ns, u64 hz)
{
	return ns / NSEC_PER_SEC * hz + ns % NSEC_PER_SEC * hz / NSEC_PER_SEC;
}

/*
 * arch_timer_set_oneshot - see arch.h: one interrupt on this CPU at
 * ktime deadline_ns (at once if that has passed).
 * Context: interrupts off (the caller's per-CPU tick state is stable).
 */
void arch_timer_set_oneshot(u64 deadline_ns)
{
	s64 delta = (s64)deadline_ns - ktime_get();
	u64 count;

	BUG_ON(!arch_irqs_disabled());
	if (delta < 1)
		delta = 1;
	if (use_tsc_deadline) {
		u64 cycles = ns_to_units((u64)delta, ktime_clock_hz());

		wrmsr(MSR_TSC_DEADLINE, rdtsc() + (cycles ? cycles : 1));
		return;
	}
	count = ns_to_units((u64)delta, timer_hz);
	if (count < 1)
		count = 1;
	if (count > 0xFFFFFFFFULL)
		count = 0xFFFFFFFFULL;	/* early: the tick code re-arms */
	lapic_write(APIC_TMICT, (u32)count);
}

/*
 * arch_timer_init_cpu - see arch.h: this CPU's LVT timer in the chosen
 * mode, unmasked, not yet armed.  Context: each CPU, interrupts off.
 */
void arch_timer_init_cpu(void)
{
	BUG_ON(!arch_irqs_disabled());
	if (use_tsc_deadline) {
		lapic_write(APIC_LVTT, APIC_LVT_TIMER_TSCDEADLINE |
					       LOCAL_TIMER_VECTOR);
		/* The LVT write must land before the first deadline write
		 * (SDM 11.5.4.1). */
		__asm__ volatile("mfence" ::: "memory");
		wrmsr(MSR_TSC_DEADLINE, 0);
	} else {
		lapic_write(APIC_TDCR, APIC_TDCR_DIV16);
		lapic_write(APIC_LVTT, APIC_LVT_TIMER_ONESHOT |
					       LOCAL_TIMER_VECTOR);
		lapic_write(APIC_TMICT, 0);
	}
}

/*
 * struct cal_read - one read of the current count, bracketed by TSC
 * reads: the count belongs to the middle of [tsc_before, tsc_after].
 */
struct cal_read {
	u64 tsc_before;
	u32 count;
	u64 tsc_after;
};

static void __init cal_read(struct cal_read *r)
{
	r->tsc_before = rdtsc_ordered();
	r->count = lapic_read(APIC_TMCCT);
	r->tsc_after = rdtsc_ordered();
}

/*
 * calibrate_lapic_timer - count rate at divide-by-16 against the TSC,
 * with the timer masked (no interrupt): [1] start the count down once;
 * [2] CAL_TRIES times, read the count, let CAL_MS of TSC time pass,
 * read it again; [3] keep the try whose two reads took the least TSC
 * time and divide its counts by the TSC time between the reads'
 * midpoints.
 * Why the brackets: an APIC register read may take long and vary.  Under
 * QEMU TCG it is an MMIO exit taken under the emulator's global lock
 * (tens of µs, and the vCPU thread may be preempted on the host in the
 * middle); the old single read at the end of a TSC window charged that
 * delay to the window and measured 62.7-63.1 MHz (127 in one campaign)
 * for QEMU's exact 62.5 MHz (1 GHz / 16): every one-shot event then
 * fired up to 1% late (9 µs per 1 ms tick), 100% at 127.  On hardware the
 * read takes well under a µs and the brackets change nothing, so this is
 * no emulator accommodation: it is the right way to time a read.
 */
static u64 __init calibrate_lapic_timer(void)
{
	u64 best_spread = ~0ULL, rate = 0;
	int try;

	lapic_write(APIC_TDCR, APIC_TDCR_DIV16);			/* [1] */
	lapic_write(APIC_LVTT, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	lapic_write(APIC_TMICT, 0xFFFFFFFFu);
	for (try = 0; try < CAL_TRIES; try++) {			/* [2] */
		struct cal_read a, b;
		u64 spread, cycles, end;

		cal_read(&a);
		end = a.tsc_after + ktime_clock_hz() * CAL_MS / 1000;
		while (rdtsc_ordered() < end)
			arch_cpu_relax();
		cal_read(&b);
		spread = (a.tsc_after - a.tsc_before) +
			 (b.tsc_after - b.tsc_before);
		/* midpoints: (b.before + b.after - a.before - a.after) / 2 */
		cycles = (b.tsc_before + b.tsc_after - a.tsc_before -
			  a.tsc_after) / 2;
		if (spread >= best_spread || !cycles || b.count >= a.count)
			continue;
		best_spread = spread;					/* [3] */
		/* counts <= 2^32, clock_hz < 2^33: no overflow for CAL_MS <= 100 */
		rate = (u64)(a.count - b.count) * ktime_clock_hz() / cycles;
	}
	lapic_write(APIC_TMICT, 0);
	return rate;
}

void __init lapic_timer_init(void)
{
	struct cpuid_regs r;

	BUG_ON(!ktime_clock_hz());
	cpuid(1, &r);
	timer_hz = calibrate_lapic_timer();
	use_tsc_deadline = (r.ecx & CPUID1_ECX_TSC_DEADLINE) && !notscdeadline;
	if (!use_tsc_deadline && !timer_hz)
		panic("lapic-timer: the LAPIC timer does not count");
	pr_info("lapic-timer: %s mode (TSC-deadline %s), one-shot rate %llu.%03llu MHz\n",
		use_tsc_deadline ? "TSC-deadline" : "one-shot",
		(r.ecx & CPUID1_ECX_TSC_DEADLINE) ? "available" : "absent",
		(unsigned long long)(timer_hz / 1000000),
		(unsigned long long)(timer_hz / 1000 % 1000));
}
