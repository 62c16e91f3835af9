/*
 * tests/kernel/test_tick_grid.c - the tick_grid suite: every CPU ticks
 * on one grid, jiffies_epoch + k * TICK_NSEC (kernel/time/tick.c,
 * tick_boundary), as Linux's per-CPU tick timers do unless skew_tick=1.
 *
 * Why it matters (docs/latency.md, "Under -icount: what bounds the
 * worst case"): with each CPU's tick at its own phase, under QEMU
 * -icount a vCPU whose next tick came just before the busy vCPU0's was
 * taken off the host thread by its own timer write at every tick and
 * starved for 50 ms to 2 s.  These tests check the grid, not a latency.
 *
 * Scenario: the runner only, interrupts on.  It reads every online
 * CPU's next tick (tick_grid_offset) where the tick runs (NO_HZ idle
 * stops an idle CPU's tick; its next event is then a timer's and off
 * the grid on purpose), busy-waits on its own CPU (a sleep would idle
 * it and stop its tick) until that CPU has handled two more ticks (a
 * hang net, not a bound), and reads them again.  Must be observable:
 * each running tick's next tick is on the grid, at start and after the
 * ticks ran (the catch-up in tick_timer_interrupt [1] and the restart
 * after idle keep it).  With the old start, ktime_get() + TICK_NSEC at
 * each CPU's tick_init_cpu, the first test failed on every CPU ("CPU 0's
 * next tick ... is 802018 ns off the grid").
 */
#include "kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "arch/x86_64/arch.h"
#include "kernel/sched/preempt.h"
#include "kernel/time/ktime.h"
#include "kernel/time/tick.h"
#include "lib/types.h"

#define TICK_GRID_WAIT_MS 5000 /* hang net: two ticks of this CPU */

/* expect_on_grid - every online CPU whose tick runs has its next tick
 * on the grid; returns how many CPUs were checked. */
static int expect_on_grid(struct ktest *t, const char *when)
{
	int cpu, n = 0;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		s64 off;

		if (!cpu_online(cpu) || tick_nohz_tick_stopped_cpu(cpu))
			continue;
		off = tick_grid_offset(cpu);
		/* the tick may stop between the two reads: recheck */
		if (off != 0 && tick_nohz_tick_stopped_cpu(cpu))
			continue;
		KTEST_EXPECT(t, off == 0,
			     "%s: CPU %d's next tick is %lld ns off the "
			     "TICK_NSEC (%lld ns) grid, expected 0",
			     when, cpu, (long long)off, (long long)TICK_NSEC);
		n++;
	}
	return n;
}

static void test_every_cpu_ticks_on_one_grid(struct ktest *t)
{
	int n;

	preempt_disable(); /* the runner's CPU stays busy: its tick runs */
	n = expect_on_grid(t, "at start");
	preempt_enable();
	KTEST_ASSERT(t, n >= 1, "no CPU with a running tick found");
}

static void test_ticks_stay_on_the_grid_after_running(struct ktest *t)
{
	ktime_t end = ktime_get() + (s64)TICK_GRID_WAIT_MS * NSEC_PER_MSEC;
	int cpu, n;
	u64 want;

	preempt_disable(); /* busy on one CPU: no idle, no migration */
	cpu = smp_processor_id();
	want = tick_count(cpu) + 2;
	while (tick_count(cpu) < want && ktime_get() < end)
		arch_cpu_relax();
	KTEST_EXPECT(t, tick_count(cpu) >= want,
		     "CPU %d handled %llu ticks in %d ms, expected %llu", cpu,
		     (unsigned long long)tick_count(cpu), TICK_GRID_WAIT_MS,
		     (unsigned long long)want);
	n = expect_on_grid(t, "after two ticks");
	preempt_enable();
	KTEST_ASSERT(t, n >= 1, "no CPU with a running tick found");
}

KTEST_SUITE(tick_grid, KTEST_CASE(test_every_cpu_ticks_on_one_grid),
	    KTEST_CASE(test_ticks_stay_on_the_grid_after_running));
