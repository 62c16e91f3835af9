/*
 * tests/kernel/test_pi_stress.c - the pi_stress suite: rt-tests'
 * inversion groups (kernel/workloads/pi_stress.h), one group per online CPU,
 * each group's threads bound to its CPU.
 *
 * Scenario (every case; the iteration is drawn in kernel/debug/
 * pi_stress.c): per group, low (FIFO 20) holds G, medium (FIFO 21)
 * is ready to spin a bounded number of steps, high (FIFO 22) blocks on
 * G.  Observable: with an rt_mutex (PI, in every model; under rt
 * spinlock_t and struct semaphore are rt_mutexes too) every iteration
 * is an inversion and every one is resolved: high gets G before medium
 * ran its bound; no group stalls.  With a compat_semaphore (no PI)
 * every inversion is unresolved: medium ran its whole bound while high
 * waited.  Both read the order of two events, not a clock, so they
 * hold on a busy host and on one CPU as on four.  The runner (init,
 * SCHED_OTHER) only waits.
 */
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/workloads/pi_stress.h"
#include "kernel/mm/kstack.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/wait.h"
#include "kernel/smp.h"
#include "lib/errno.h"

#define PI_ITERS 200		/* per group, PI: fast */
#define COMPAT_ITERS 20		/* per group, no PI: ~2 ms each */
#define REAP_WAIT_MS 5000	/* a hang net for the stacks' release */

static void print_verdict(const struct pi_stress_result *res)
{
	char buf[128];

	printk("    # %s\n", pi_stress_verdict(buf, sizeof(buf), res));
}

static void test_rt_mutex_resolves_every_inversion(struct ktest *t)
{
	struct pi_stress_opts o = { .iterations = PI_ITERS };
	struct pi_stress_result res;
	int ret = pi_stress_run(&o, &res);
	unsigned long want = (unsigned long)num_online_cpus() * PI_ITERS;

	print_verdict(&res);
	KTEST_ASSERT(t, ret == 0, "pi_stress_run: expected 0, got %d", ret);
	KTEST_EXPECT_EQ(t, res.groups, num_online_cpus());
	KTEST_EXPECT(t, res.iterations == want,
		     "expected %lu iterations, saw %lu", want, res.iterations);
	KTEST_EXPECT(t, res.inversions == res.iterations,
		     "every iteration an inversion: %lu of %lu",
		     res.inversions, res.iterations);
	KTEST_EXPECT(t, res.resolved == res.inversions && res.unresolved == 0,
		     "all resolved by PI: resolved %lu unresolved %lu",
		     res.resolved, res.unresolved);
	KTEST_EXPECT_EQ(t, res.deadlocks, 0);
	KTEST_EXPECT(t, pi_stress_passed(&res), "verdict FAIL");
}

static void test_compat_semaphore_shows_the_inversion(struct ktest *t)
{
	struct pi_stress_opts o = { .iterations = COMPAT_ITERS, .compat = true };
	struct pi_stress_result res;
	int ret = pi_stress_run(&o, &res);

	print_verdict(&res);
	KTEST_ASSERT(t, ret == 0, "pi_stress_run: expected 0, got %d", ret);
	KTEST_EXPECT(t, res.inversions == res.iterations && res.iterations > 0,
		     "every iteration an inversion: %lu of %lu",
		     res.inversions, res.iterations);
	KTEST_EXPECT(t, res.unresolved == res.inversions && res.resolved == 0,
		     "no PI, so high waits for medium's whole bound every "
		     "time: unresolved %lu resolved %lu of %lu",
		     res.unresolved, res.resolved, res.inversions);
	KTEST_EXPECT_EQ(t, res.deadlocks, 0);
	KTEST_EXPECT(t, !pi_stress_passed(&res), "verdict PASS without PI");
}

/*
 * Scenario: the last thread of the last group "fails" to be created
 * (fail_create_at): the run returns -ENOMEM, no group ever started, and
 * every stack the created threads took is given back.
 */
static void test_thread_creation_failure_unwinds(struct ktest *t)
{
	int n = num_online_cpus();
	struct pi_stress_opts o = { .iterations = 1, .fail_create_at = 3 * n };
	struct pi_stress_result res;
	unsigned int stacks0;
	int ret, ms;

	free_dead_stacks();
	stacks0 = kstack_nr_in_use();
	ret = pi_stress_run(&o, &res);
	KTEST_EXPECT(t, ret == -ENOMEM, "expected -ENOMEM, got %d", ret);
	KTEST_EXPECT(t, res.iterations == 0, "%lu iterations ran",
		     res.iterations);
	for (ms = 0; ms < REAP_WAIT_MS && kstack_nr_in_use() > stacks0; ms++)
		msleep(1);
	KTEST_EXPECT(t, kstack_nr_in_use() <= stacks0,
		     "kernel stacks back to %u, saw %u", stacks0,
		     kstack_nr_in_use());
}

KTEST_SUITE(pi_stress,
	    KTEST_CASE(test_rt_mutex_resolves_every_inversion),
	    KTEST_CASE(test_compat_semaphore_shows_the_inversion),
	    KTEST_CASE(test_thread_creation_failure_unwinds));
