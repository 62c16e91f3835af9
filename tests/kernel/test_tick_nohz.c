/*
 * tests/kernel/test_tick_nohz.c - NO_HZ idle (kernel/time/tick.c): an
 * idle CPU stops its periodic tick; jiffies stay right while every CPU
 * idles tickless (they are brought up to date on the way out); and a
 * timer_list timer still fires on time on a CPU whose tick is stopped
 * (its expiry is the programmed event).  Skipped unless the kernel was
 * built with NO_HZ=1 and booted without nohz=off (make kernel-test
 * SELFTEST=tick_nohz NO_HZ=1).  No test here measures a latency.
 */
#include "kernel/ktest.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "kernel/time/tick.h"
#include "kernel/time/timer.h"

/* Safety bound of the polls below: a kernel whose idle CPU never stops
 * its tick fails after this instead of hanging. */
#define POLL_LIMIT_NS (5 * NSEC_PER_SEC)

static void require_nohz(struct ktest *t)
{
	if (!tick_nohz_enabled())
		ktest_skip(t, "NO_HZ idle off (build with NO_HZ=1, boot without nohz=off)");
}

/*
 * Scenario: the runner pinned to the boot CPU polls (sleeping 1 ms
 * between looks) the state of another online CPU that runs nothing of
 * the test's; that CPU idles, so within the bound it is seen with its
 * tick stopped, or its count of stops has grown.
 */
static void test_idle_cpu_stops_its_tick(struct ktest *t)
{
	ktime_t end = ktime_get() + POLL_LIMIT_NS;
	int cpu = nth_online_cpu(1);
	u64 stops0;
	bool seen = false;

	require_nohz(t);
	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: one idles, one watches");
	set_cpus_allowed(current, (cpumask_t){ .bits = 1ULL << nth_online_cpu(0) });
	stops0 = tick_nohz_idle_stops(cpu);
	while (!seen && ktime_get() < end) {
		seen = tick_nohz_tick_stopped_cpu(cpu) ||
		       tick_nohz_idle_stops(cpu) > stops0;
		if (!seen)
			msleep(1);
	}
	set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });
	KTEST_EXPECT(t, seen, "CPU %d never stopped its tick in %d s "
		     "(stops %llu -> %llu)", cpu,
		     (int)(POLL_LIMIT_NS / NSEC_PER_SEC),
		     (unsigned long long)stops0,
		     (unsigned long long)tick_nohz_idle_stops(cpu));
}

/*
 * read_pair - (jiffies, ktime) read close together: a host that stalls
 * this vCPU between the two reads (seen on a loaded host: 44 jiffies
 * over 39 periods) would pair a jiffies value with a later time; retry
 * until both reads of ktime around jiffies lie within a quarter period.
 */
static void read_pair(u64 *j, ktime_t *k)
{
	ktime_t after;
	int tries = 0;

	do {
		*k = ktime_get();
		*j = READ_ONCE(jiffies);
		after = ktime_get();
	} while (after - *k > TICK_NSEC / 4 && ++tries < 1000);
}

/*
 * Scenario: the runner reads (jiffies, ktime), sleeps 30 ms (so every
 * CPU may idle tickless, no tick advancing jiffies), and reads the pair
 * again right after it runs.  The way out of idle brought jiffies up to
 * the tick periods ktime crossed, from ktime itself, so the second
 * reading is not behind: dj >= the crossed boundaries - 1.  Without the
 * catch-up dj is near 0 here (seen: 0 over 43 periods).  No upper
 * bound: the first reading may lag by many periods when the emulator
 * delays the tick's interrupt while this vCPU runs on (seen on a
 * saturated host with SMP=1: 72 over 41), which only makes dj larger.
 */
static void test_jiffies_catch_up_after_tickless_idle(struct ktest *t)
{
	u64 j0, j1;
	ktime_t k0, k1;
	s64 dj, dk_ticks;

	require_nohz(t);
	read_pair(&j0, &k0);
	msleep(30);
	read_pair(&j1, &k1);
	dj = (s64)(j1 - j0);
	dk_ticks = (k1 - k0) / TICK_NSEC;
	KTEST_EXPECT(t, dj >= dk_ticks - 1,
		     "jiffies advanced %lld over %lld tick periods (expected "
		     "at least %lld)", (long long)dj, (long long)dk_ticks,
		     (long long)dk_ticks - 1);
}

static struct completion nohz_timer_ran;
static unsigned long nohz_timer_jiffies;

static void nohz_timer_fn(struct timer_list *timer)
{
	nohz_timer_jiffies = READ_ONCE(jiffies);
	complete(&nohz_timer_ran);
}

/*
 * Scenario: the runner queues a timer_list timer 20 jiffies out on its
 * own CPU and waits for it on a completion (its CPU idles, tickless if
 * nothing else runs there).  The timer runs, at or after its expiry; the
 * tick had no periodic event to run it by, only the timer's own.
 */
static void test_timer_fires_on_tickless_cpu(struct ktest *t)
{
	struct timer_list timer;
	unsigned long expires;

	require_nohz(t);
	init_completion(&nohz_timer_ran);
	timer_setup(&timer, nohz_timer_fn, 0);
	expires = READ_ONCE(jiffies) + 20;
	mod_timer(&timer, expires);
	KTEST_ASSERT(t, wait_for_completion_timeout(&nohz_timer_ran,
						    POLL_LIMIT_NS),
		     "timer (20 jiffies) did not run within 5 s");
	del_timer_sync(&timer);
	KTEST_EXPECT(t, (long)(nohz_timer_jiffies - expires) >= 0,
		     "ran at jiffies %lu, before its expiry %lu",
		     nohz_timer_jiffies, expires);
}

KTEST_SUITE(tick_nohz,
	    KTEST_CASE(test_idle_cpu_stops_its_tick),
	    KTEST_CASE(test_jiffies_catch_up_after_tickless_idle),
	    KTEST_CASE(test_timer_fires_on_tickless_cpu));
