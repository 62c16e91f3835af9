/*
 * arch/x86_64/lapic_timer.h - the per-CPU LAPIC timer as a one-shot
 * event device (arch_timer_set_oneshot in arch.h is its portable face).
 */
#ifndef ARCH_X86_64_LAPIC_TIMER_H
#define ARCH_X86_64_LAPIC_TIMER_H

#include "lib/types.h"

/* lapic_timer_init - pick TSC-deadline or one-shot mode, calibrate the
 * count rate against the TSC (the vector's handler comes with
 * request_percpu_irq(ARCH_TIMER_IRQ), kernel/time/tick.c).
 * Context: boot CPU, once, after lapic_init() and arch_time_init(). */
void lapic_timer_init(void);

/* lapic_timer_tsc_deadline - is TSC-deadline mode in use? */
bool lapic_timer_tsc_deadline(void);
/* lapic_timer_hz - timer counts per second in one-shot mode. */
u64 lapic_timer_hz(void);

#endif /* ARCH_X86_64_LAPIC_TIMER_H */
