/*
 * arch/x86_64/tsc.h - the TSC as rtk's clock, and its calibration.
 */
#ifndef ARCH_X86_64_TSC_H
#define ARCH_X86_64_TSC_H

#include "lib/types.h"
#include "arch/x86_64/cpu.h"

/* arch_cycles - the cycle counter as it is now, unordered (it may be
 * read before earlier instructions finish): the cheapest stamp, for the
 * function tracer.  Context: any, even NMI. */
static inline u64 arch_cycles(void)
{
	return rdtsc();
}

/* arch_clock_cycles - the clock counter kernel/time reads, ordered after
 * earlier loads. */
static inline u64 arch_clock_cycles(void)
{
	return rdtsc_ordered();
}

/* tsc_calibrate_pit - TSC frequency in Hz measured against PIT channel 2
 * over 50 ms.  Context: boot, interrupts off. */
u64 tsc_calibrate_pit(void);

/* tsc_invariant - CPUID 0x80000007 EDX[8]: the TSC runs at a constant
 * rate in every P-/C-state. */
bool tsc_invariant(void);

#endif /* ARCH_X86_64_TSC_H */
