/*
 * kernel/time/tick.h - the per-CPU periodic tick, emulated with one-shot
 * timer events, NO_HZ idle (an idle CPU stops its tick), and jiffies.
 * Build options: make HZ=250 (default 1000), make NO_HZ=0|1.
 */
#ifndef KERNEL_TIME_TICK_H
#define KERNEL_TIME_TICK_H

#include "lib/types.h"
#include "kernel/time/ktime.h"

struct race_window;

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

/* make NO_HZ=1 (the default): an idle CPU may stop its tick (tick.c),
 * unless booted with nohz=off; NO_HZ=0: the tick never stops.  Linux's
 * CONFIG_NO_HZ, renamed CONFIG_NO_HZ_IDLE in 3.10 when NO_HZ_FULL (a tickless CPU
 * running one task) arrived beside it; rtk has the idle half only. */
#ifndef CONFIG_NO_HZ
#define CONFIG_NO_HZ 1
#endif
/* How far a stopped tick may defer this CPU's next event: the one-shot
 * timer's range (the arch's one-shot count lasts a few seconds at its
 * rate, and its deadline conversion must not overflow) and how stale an
 * all-idle machine's jiffies may get; Linux bounds it by the
 * clockevent's max_delta_ns the same way.  So an idle CPU still takes
 * a timer interrupt at least this often. */
#define TICK_NOHZ_MAX_NS NSEC_PER_SEC

/* jiffies - tick periods since tick_init(), brought up to date by any
 * CPU's tick and on the way in and out of tickless idle (missed ticks
 * counted too).  Read with READ_ONCE. */
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

/* tick_nohz_idle_enter - the idle loop is about to halt: stop this
 * CPU's periodic tick if no timer_list timer is due before the next
 * tick (the first hrtimer and timer stay programmed), and report the
 * idle quiescent state to RCU.  Nothing unless NO_HZ idle is on.
 * Context: the idle task, interrupts off. */
void tick_nohz_idle_enter(void);

/* tick_nohz_idle_exit - this CPU leaves idle for a task: restart its
 * tick if NO_HZ idle stopped it.  Cheap when it did not.
 * Context: interrupts off (the scheduler's switch away from idle). */
void tick_nohz_idle_exit(void);

/* tick_nohz_tick_stopped_cpu - is cpu idle with its tick stopped (the
 * grace-period kthread, mod_timer and the fair balancer kick such a
 * CPU)?  Context: any; a racy snapshot. */
bool tick_nohz_tick_stopped_cpu(int cpu);

/* tick_nohz_enabled - is NO_HZ idle on for this boot (NO_HZ=1 build,
 * not booted with nohz=off)? */
bool tick_nohz_enabled(void);

/* tick_nohz_idle_stops - how often cpu stopped its tick in idle. */
u64 tick_nohz_idle_stops(int cpu);

/* tick_next_event - the timer event programmed on cpu now (KTIME_MAX:
 * none, or it is firing).  Context: any; a racy snapshot (tests). */
ktime_t tick_next_event(int cpu);

/* tick_nohz_idle_enter_window - test-only: holds an idle CPU in
 * tick_nohz_idle_enter after it programmed its event, before the halt
 * (kernel/debug/race_window.h; trigger_dyntick_cpu's diagram). */
extern struct race_window tick_nohz_idle_enter_window;

/* tick_count - tick interrupts CPU cpu has handled (those that were due
 * at the time; an early event for an hrtimer does not count). */
u64 tick_count(int cpu);

/* tick_grid_offset - how far CPU cpu's next tick lies after the tick
 * grid (jiffies_epoch + k * TICK_NSEC, tick.c tick_boundary): 0 while
 * its tick runs, since every CPU ticks on the boot CPU's grid, as
 * Linux's tick hrtimers do unless skew_tick=1.  Read racily, for the
 * tests (tick_grid); meaningless while the tick is stopped (NO_HZ idle:
 * next_tick is then the next timer event).  Context: any. */
s64 tick_grid_offset(int cpu);

#endif /* KERNEL_TIME_TICK_H */
