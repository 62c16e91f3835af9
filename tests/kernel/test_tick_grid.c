/*
 * tests/kernel/test_tick_grid.c - the tick_grid suite: every CPU ticks
 * on one grid, multiples of TICK_NSEC (kernel/time/tick.c,
 * tick_grid_next), as Linux's per-CPU tick timers do unless skew_tick=1.
 *
 * Why it matters (docs/latency.md, "Under -icount: what bounds the
 * worst case"): with each CPU's tick at its own phase, under QEMU
 * -icount a vCPU whose next tick came just before the busy vCPU0's was
 * taken off the host thread by its own timer write at every tick and
 * starved for 50 ms to 2 s.  These tests check the grid, not a latency.
 *
 * Scenario: the runner only, any CPU, interrupts on; it reads every
 * online CPU's next tick (tick_next), waits until each has handled two
 * more ticks (a hang net, not a bound), and reads them again.  Must be
 * observable: each next tick is a multiple of TICK_NSEC (the same phase
 * on every CPU), and it still is after the ticks ran (the catch-up in
 * tick_timer_interrupt [1] keeps the grid).  With the old start,
 * ktime_get() + TICK_NSEC at each CPU's tick_init_cpu, the first test
 * fails on every CPU ("CPU 0's next tick ... is N ns off the grid").
 * One CPU: the boot CPU's tick alone is checked.
 */
#include "kernel/ktest.h"
#include "kernel/percpu.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "kernel/time/tick.h"
#include "kernel/sched/wait.h"
#include "lib/types.h"

#define TICK_GRID_WAIT_MS 5000 /* hang net: two ticks of each CPU */

/* grid_offset - how far t lies after the last TICK_NSEC boundary. */
static s64 grid_offset(ktime_t t)
{
	return (s64)((u64)t % TICK_NSEC);
}

/* expect_on_grid - every online CPU's next tick on the grid; returns
 * how many CPUs were checked. */
static int expect_on_grid(struct ktest *t, const char *when)
{
	int cpu, n = 0;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		ktime_t next;

		if (!cpu_online(cpu))
			continue;
		next = tick_next(cpu);
		KTEST_EXPECT(t, grid_offset(next) == 0,
			     "%s: CPU %d's next tick at %lld ns is %lld ns off "
			     "the TICK_NSEC (%lld ns) grid, expected 0",
			     when, cpu, (long long)next,
			     (long long)grid_offset(next),
			     (long long)TICK_NSEC);
		n++;
	}
	return n;
}

static void test_every_cpu_ticks_on_one_grid(struct ktest *t)
{
	int n = expect_on_grid(t, "at start");

	KTEST_ASSERT(t, n >= 1, "no online CPU found");
}

static void test_ticks_stay_on_the_grid_after_running(struct ktest *t)
{
	u64 want[NR_CPUS];
	ktime_t end = ktime_get() + (s64)TICK_GRID_WAIT_MS * NSEC_PER_MSEC;
	int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		want[cpu] = cpu_online(cpu) ? tick_count(cpu) + 2 : 0;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		while (cpu_online(cpu) && tick_count(cpu) < want[cpu] &&
		       ktime_get() < end)
			msleep(1);
		KTEST_ASSERT(
			t, !cpu_online(cpu) || tick_count(cpu) >= want[cpu],
			"CPU %d handled %llu ticks in %d ms, expected %llu",
			cpu, (unsigned long long)tick_count(cpu),
			TICK_GRID_WAIT_MS, (unsigned long long)want[cpu]);
	}
	expect_on_grid(t, "after two ticks");
}

KTEST_SUITE(tick_grid, KTEST_CASE(test_every_cpu_ticks_on_one_grid),
	    KTEST_CASE(test_ticks_stay_on_the_grid_after_running));
