/*
 * tests/kernel/test_ap_startup.c - the ap_startup suite: a wake-up that
 * reaches an AP's run queue before the AP's scheduler has started.
 *
 * The race (drawn at idle_init() in kernel/sched/idle.c) is a boot-time
 * one, over before any suite runs, so it is forced at boot and checked
 * here: the boot parameter `sched.ap_startup_race` arms ap_startup_window
 * in cpu_startup_entry, where the first AP (CPU 1) parks, online but
 * before its first scheduler step, until softirq_init on the boot CPU has
 * woken ksoftirqd/N for every online CPU (it releases the window).  A
 * kernel where the woken task's check_preempt meets a NULL rq->curr does
 * not get here: it oopses at boot ("Oops: page fault ... CR2: ...0044,
 * RIP check_preempt, Call Trace: try_to_wake_up, softirq_init").
 *
 *   make kernel-test SELFTEST=ap_startup SMP=2 APPEND=sched.ap_startup_race
 *
 * Without the parameter (make test) the forced case skips and says so;
 * the other case runs on every boot.
 */
#include "kernel/ktest.h"
#include "kernel/irq/softirq.h"
#include "kernel/sched/rq.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"

/*
 * Scenario (boot, SMP >= 2, PREEMPT=rt so that ksoftirqd/N exist):
 *   CPU 1 (AP): online, parked in ap_startup_window, rq1 not yet run by
 *	it (curr = swapper/1 if idle_init did its job);
 *   CPU 0 (boot, task init): softirq_init creates ksoftirqd/1 (FIFO,
 *	bound to CPU 1) and wakes it: queued on rq1, check_preempt against
 *	rq1->curr; then it releases the window.
 * Observable afterwards: the window parked once and was released (not
 * expired), CPU 1 found a task queued when its scheduler started
 * (sched_ap_early_wakeups(1) >= 1), and ksoftirqd/1 has run on CPU 1.
 */
static void test_wakeup_before_the_ap_scheduler_starts(struct ktest *t)
{
	struct task_struct *k;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "needs a second CPU (SMP=1)");
		return;
	}
	if (!READ_ONCE(ap_startup_window.hits)) {
		ktest_skip(t, "window not armed: boot with "
			      "APPEND=sched.ap_startup_race to force it");
		return;
	}
	k = ksoftirqd_task(1);
	if (!k) {
		ktest_skip(t, "no ksoftirqd/1 under this model: nothing "
			      "raced the window");
		return;
	}
	KTEST_EXPECT(t, !READ_ONCE(ap_startup_window.expired),
		     "expected softirq_init to release the window, it expired "
		     "(%lu times)",
		     READ_ONCE(ap_startup_window.expired));
	KTEST_EXPECT(t, sched_ap_early_wakeups(1) >= 1,
		     "expected ksoftirqd/1 queued on CPU 1 before its "
		     "scheduler started, saw %u tasks queued",
		     sched_ap_early_wakeups(1));
	KTEST_EXPECT(t, task_cpu(k) == 1 && k->nr_switches > 0,
		     "expected ksoftirqd/1 to have run on CPU 1, saw cpu %d, "
		     "%lu switches",
		     task_cpu(k), (unsigned long)k->nr_switches);
}

/*
 * Scenario: none (the state boot left).  Every present CPU's run queue
 * has its idle task as rq->idle, and a current task: the one check the
 * readers of rq->curr (check_preempt, rq_update_cpu_prio, the tick,
 * placement) rely on without testing for NULL.
 */
static void test_every_online_cpu_has_idle_and_curr(struct ktest *t)
{
	int cpu;

	for_each_online_cpu (cpu) {
		struct rq *rq = cpu_rq(cpu);

		KTEST_EXPECT(t, rq->idle && rq->idle->cpu == cpu,
			     "CPU %d: expected its idle task as rq->idle, saw "
			     "%p",
			     cpu, rq->idle);
		KTEST_EXPECT(t, READ_ONCE(rq->curr) != NULL,
			     "CPU %d: expected a current task, saw NULL", cpu);
	}
}

KTEST_SUITE(ap_startup, KTEST_CASE(test_every_online_cpu_has_idle_and_curr),
	    KTEST_CASE(test_wakeup_before_the_ap_scheduler_starts));
