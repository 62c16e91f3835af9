/*
 * kernel/time/tick.h - the per-CPU periodic tick, emulated with one-shot
 * timer events, and jiffies.
 */
#ifndef KERNEL_TIME_TICK_H
#define KERNEL_TIME_TICK_H

#include "lib/types.h"
#include "kernel/time/ktime.h"

#ifndef CONFIG_HZ
#define CONFIG_HZ 1000
#endif
/* make HZ=N: 100..1000 and a divisor of 10^9, so TICK_NSEC is exact
 * and a tick is never shorter than the 1 ms the tests' timer_list
 * windows are written for. */
#if CONFIG_HZ < 100 || CONFIG_HZ > 1000 || 1000000000 % CONFIG_HZ
#error "HZ must be 100..1000 and divide 10^9 (make HZ=100|250|500|1000)"
#endif
#define HZ CONFIG_HZ
#define TICK_NSEC (NSEC_PER_SEC / HZ)

/* jiffies - ticks since tick_init(), advanced by the boot CPU's tick
 * (missed ticks counted too).  Read with READ_ONCE. */
extern u64 jiffies;

/* tick_init - request the per-CPU timer line (request_percpu_irq,
 * SA_NODELAY) and start the boot CPU's tick.  Context: boot CPU, once,
 * task, interrupts on, after arch_irq_init() and irq_desc_init(). */
void tick_init(void);

/* tick_init_cpu - start this CPU's tick (each AP, after lapic_init_cpu,
 * before enabling interrupts).  Context: the CPU itself, interrupts off. */
void tick_init_cpu(void);

/* tick_reprogram - program this CPU's event for min(next tick, first
 * hrtimer).  Context: interrupts off or on (disables them itself). */
void tick_reprogram(void);

/* tick_count - tick interrupts CPU cpu has handled (those that were due
 * at the time; an early event for an hrtimer does not count). */
u64 tick_count(int cpu);

/* tick_next - when CPU cpu's next tick is due: a multiple of TICK_NSEC,
 * the same grid on every CPU (tick.c, tick_grid_next).  Read racily,
 * for the tests.  Context: any. */
ktime_t tick_next(int cpu);

#endif /* KERNEL_TIME_TICK_H */
