/*
 * kernel/time/ktime.c - ktime_get() and the delay loops on top of the
 * machine's cycle counter (arch_clock_cycles(), the TSC on x86_64).
 *
 * Cycles become nanoseconds in two halves (whole seconds, then the
 * remainder), which is exact and cannot overflow for any uptime.  Linux counterpart: kernel/time/timekeeping.c,
 * clocksource.c (much reduced: one clocksource, no NTP).
 */
#include "kernel/time/ktime.h"
#include "kernel/printk.h"
#include "arch/x86_64/arch.h"

static u64 clock_hz;		/* calibrated cycles per second */
static u64 clock_base;		/* cycle count at time_init() */

/*
 * ktime_init - start the clock at hz cycles per second.
 * Context: boot CPU, once.
 */
void __init ktime_init(u64 hz)
{
	clock_base = arch_clock_cycles();
	clock_hz = hz;
}

u64 ktime_clock_hz(void)
{
	return clock_hz;
}

u64 ktime_cycles_to_ns(u64 cycles)
{
	u64 sec, rem;

	if (!clock_hz)
		return 0;
	sec = cycles / clock_hz;
	rem = cycles % clock_hz;
	return sec * NSEC_PER_SEC + rem * NSEC_PER_SEC / clock_hz;
}

ktime_t ktime_get(void)
{
	u64 now;

	if (!clock_hz)
		return 0;
	now = arch_clock_cycles();
	/* A CPU whose counter lags the boot CPU's a little (unsynchronised
	 * TSCs) must not see time before boot. */
	if (now < clock_base)
		return 0;
	return (ktime_t)ktime_cycles_to_ns(now - clock_base);
}

void ndelay(unsigned long ns)
{
	ktime_t end = ktime_get() + (ktime_t)ns;

	if (!clock_hz) {
		/* Not calibrated yet: about 1 us per port-0x80 access. */
		arch_slow_delay_us((ns + 999) / 1000);
		return;
	}
	while (ktime_get() < end)
		arch_cpu_relax();
}

void udelay(unsigned long us)
{
	ndelay(us * 1000);
}

void mdelay(unsigned long ms)
{
	while (ms--)
		udelay(1000);
}
