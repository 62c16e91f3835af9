/*
 * tests/kernel/test_softlockup.c - DETECT_SOFTLOCKUP fires on a CPU that
 * deliberately stops scheduling, names the task that held it, reports it
 * once however long it stays stuck, and the system goes on afterwards.
 *
 * Scenario: the threshold is lowered to THRESH_MS; a kthread bound to the
 * last online CPU spins with preemption disabled until the test (init,
 * on another CPU) has seen the report and waited 2.5 more thresholds,
 * then releases it with a flag.  Afterwards that CPU's watchdog thread
 * runs again (its "last scheduled" age drops below the threshold).
 * Also: a CPU that schedules normally is never reported.
 */
#include "kernel/ktest.h"
#include "kernel/debug/softlockup.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/wait.h"
#include "kernel/smp.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"
#include "lib/string.h"

#define THRESH_MS 1000
#define WAIT_MS (8 * THRESH_MS)

static bool release;
static bool spinning;

/* stuck_fn - Context: kthread; keeps its CPU with preemption off. */
static int stuck_fn(void *arg)
{
	preempt_disable();
	WRITE_ONCE(spinning, true);
	while (!READ_ONCE(release))
		arch_cpu_relax();
	preempt_enable();
	while (!kthread_should_stop())
		msleep(10);
	return 0;
}

static void test_softlockup_fires_once(struct ktest *t)
{
	u64 old = softlockup_thresh_ms();
	unsigned long before;
	struct softlockup_report r;
	struct task_struct *p;
	int cpu, waited, i;

	if (!softlockup_running()) {
		ktest_skip(t, "built with DETECT_SOFTLOCKUP=0");
		return;
	}
	if (num_online_cpus() < 2) {
		ktest_skip(t, "needs two CPUs (one gets stuck)");
		return;
	}
	cpu = nth_online_cpu(num_online_cpus() - 1);
	KTEST_ASSERT_EQ(t, softlockup_set_thresh_ms(THRESH_MS), 0);
	msleep(THRESH_MS / 2);	/* the check period follows the threshold */
	before = softlockup_reports();
	WRITE_ONCE(release, false);
	WRITE_ONCE(spinning, false);
	p = kthread_create(stuck_fn, NULL, "stuck/%d", cpu);
	KTEST_ASSERT(t, p, "kthread_create failed");
	kthread_bind(p, cpu);
	wake_up_process(p);

	for (waited = 0; waited < WAIT_MS; waited += 50) {
		if (softlockup_reports() != before)
			break;
		msleep(50);
	}
	KTEST_EXPECT(t, READ_ONCE(spinning), "the stuck thread never ran");
	KTEST_EXPECT(t, softlockup_reports() == before + 1,
		     "expected 1 report within %d ms of a stuck CPU%d, saw %lu",
		     WAIT_MS, cpu, softlockup_reports() - before);
	r = softlockup_last();
	KTEST_EXPECT(t, r.cpu == cpu, "report names CPU%d, expected CPU%d",
		     r.cpu, cpu);
	KTEST_EXPECT(t, r.pid == p->pid, "report names pid %d (%s), expected %d",
		     r.pid, r.comm, p->pid);
	KTEST_EXPECT(t, r.stuck_ms >= THRESH_MS,
		     "reported stuck for %llu ms, threshold %d ms",
		     (unsigned long long)r.stuck_ms, THRESH_MS);
	KTEST_EXPECT(t, waited >= THRESH_MS / 2,
		     "report after %d ms, before the threshold (%d ms)",
		     waited, THRESH_MS);

	msleep(5 * THRESH_MS / 2);	/* still stuck: no second report */
	KTEST_EXPECT(t, softlockup_reports() == before + 1,
		     "expected one report per lockup, saw %lu",
		     softlockup_reports() - before);

	WRITE_ONCE(release, true);	/* the system goes on */
	for (i = 0; i < 100 && softlockup_stuck_ms(cpu) >= THRESH_MS; i++)
		msleep(20);
	KTEST_EXPECT(t, softlockup_stuck_ms(cpu) < THRESH_MS,
		     "CPU%d still not scheduling %llu ms after the release",
		     cpu, (unsigned long long)softlockup_stuck_ms(cpu));
	KTEST_EXPECT_EQ(t, kthread_stop(p), 0);
	softlockup_set_thresh_ms(old);
}

static void test_softlockup_quiet_when_scheduling(struct ktest *t)
{
	u64 old = softlockup_thresh_ms();
	unsigned long before;

	if (!softlockup_running()) {
		ktest_skip(t, "built with DETECT_SOFTLOCKUP=0");
		return;
	}
	KTEST_ASSERT_EQ(t, softlockup_set_thresh_ms(200), 0);
	msleep(200);
	before = softlockup_reports();
	msleep(1000);	/* every CPU idles or schedules meanwhile */
	KTEST_EXPECT(t, softlockup_reports() == before,
		     "expected no report on CPUs that schedule, saw %lu",
		     softlockup_reports() - before);
	KTEST_EXPECT(t, softlockup_set_thresh_ms(10) == -EINVAL,
		     "a 10 ms threshold was accepted (minimum 100 ms)");
	softlockup_set_thresh_ms(old);
}

KTEST_SUITE(softlockup, KTEST_CASE(test_softlockup_fires_once),
	    KTEST_CASE(test_softlockup_quiet_when_scheduling));
