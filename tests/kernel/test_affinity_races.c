/*
 * tests/kernel/test_affinity_races.c - the affinity_races suite: an
 * affinity change that races the scheduler must leave the task on a CPU
 * its new mask allows, whatever the target CPU runs and whatever the old
 * CPU did meanwhile.  Each test forces its interleaving (a race window or
 * CPUs kept busy at a chosen priority) and names the diagram it checks
 * in kernel/sched/affinity.c or kernel/sched/wakeup.c.
 * The wake-up side of migrations: the wakeup_races suite
 * (test_wakeup_races.c).
 * Linux counterpart: none as a suite (the contract of
 * set_cpus_allowed_ptr() and select_fallback_rq()).
 * Spec: article, "Miscellaneous" (affinity is honoured).
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/sched/wait.h"
#include "kernel/debug/race_window.h"
#include "lib/string.h"

/* --- a queued task starts running while its affinity moves it --- */

static struct {
	int h_go;		/* the CPU0 hog may end */
	int first_cpu;		/* where P first ran */
	int stop;		/* the test gives up: P ends where it is */
	int left_cpu0;		/* P ran elsewhere after the change */
	int done;
} sa;

static int sa_hog_fn(void *arg)
{
	/* end once the test is parked in set_cpus_allowed: P runs next */
	race_window_wait_parked(&set_cpus_allowed_relock_window, SAFETY_NS);
	return 0;
}

static int sa_mover_fn(void *arg)
{
	WRITE_ONCE(sa.first_cpu, raw_smp_processor_id());
	race_window_release(&set_cpus_allowed_relock_window);
	while (raw_smp_processor_id() == 0 && !READ_ONCE(sa.stop)) {
		_cond_resched();
		cpu_relax();
	}
	WRITE_ONCE(sa.left_cpu0, raw_smp_processor_id() != 0);
	WRITE_ONCE(sa.done, 1);
	return 0;
}

/*
 * Scenario (affinity.c, "relock vs pick"): on CPU0 H (FIFO 99) runs and P
 * (FIFO 99, allowed CPU0) is queued behind it; no other task on CPU0 can
 * preempt them.  The test task (FIFO 99 too, so that push does not move
 * P to CPU1 behind our back) sets P's affinity to CPU1: P is queued, not
 * running, so set_cpus_allowed moves it, and is
 * held in set_cpus_allowed_relock_window between dropping CPU0's queue
 * lock and taking both queues' locks.  H ends; CPU0 runs P, which lets
 * the test go on.  Observable: P, now running on a CPU its mask forbids,
 * is rescheduled and leaves CPU0 (it spins there, with preemption
 * points, until it runs elsewhere).
 */
static void
test_set_cpus_allowed_moves_a_task_that_started_running(struct ktest *t)
{
	struct task_struct *h, *p;
	ktime_t end;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the task moves to the other");
	memset(&sa, 0, sizeof(sa));
	sa.first_cpu = -1;
	me_rt(99, 1);
	race_window_arm(&set_cpus_allowed_relock_window, current);
	h = start_rt(sa_hog_fn, NULL, SCHED_FIFO, 99, 0, "sa_hog");
	KTEST_ASSERT(t, h != NULL, "kthread_create failed");
	p = create_fifo(sa_mover_fn, NULL, 99, one_cpu(0), "sa_mover");
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	wake_up_process(p);	/* queued on CPU0 behind H */
	set_cpus_allowed(p, one_cpu(1));
	KTEST_EXPECT_EQ(t, READ_ONCE(sa.first_cpu), 0);
	end = ktime_get() + SAFETY_NS;
	while (!READ_ONCE(sa.done) && ktime_get() < end)
		msleep(1);
	KTEST_EXPECT(t, READ_ONCE(sa.left_cpu0),
		     "P still on CPU%d, which its mask forbids, after "
		     "set_cpus_allowed(CPU1) returned (done %d)",
		     task_cpu(p), READ_ONCE(sa.done));
	race_window_disarm(&set_cpus_allowed_relock_window);
	WRITE_ONCE(sa.stop, 1);
	end = ktime_get() + SAFETY_NS;
	while (!READ_ONCE(sa.done) && ktime_get() < end)
		msleep(1);
	put_task_struct(p);
	put_task_struct(h);
	me_restore();
}

/* --- migrated while every allowed CPU is busy --- */

static struct {
	int running;		/* P runs on CPU0 */
	int back_on_cpu0;	/* P was switched out and in again on CPU0 */
	int stop;
	int done;
} mb;

static int mb_task_fn(void *arg)
{
	unsigned long seen = current->nr_switches;

	WRITE_ONCE(mb.running, 1);
	while (!READ_ONCE(mb.stop)) {
		if (current->nr_switches != seen &&
		    raw_smp_processor_id() == 0)
			WRITE_ONCE(mb.back_on_cpu0, 1);
		seen = current->nr_switches;
		_cond_resched();
		cpu_relax();
	}
	WRITE_ONCE(mb.done, 1);
	return 0;
}

/*
 * Scenario (wakeup.c, select_task_rq): P (FIFO 99) runs on CPU0; the test
 * task (FIFO 99) runs on CPU1 and sets P's affinity to CPU1 without
 * sleeping.  P is rescheduled and taken off CPU0; migrate_enqueue finds
 * no allowed CPU running something less important than P (CPU1 runs the
 * test task, same priority).  Observable: P is queued on CPU1 (it runs
 * there once the test task sleeps), never again on CPU0.
 */
static void test_migrated_task_waits_on_a_busy_allowed_cpu(struct ktest *t)
{
	struct task_struct *p;
	ktime_t end;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the task moves to the other");
	memset(&mb, 0, sizeof(mb));
	me_rt(99, 1);
	p = create_fifo(mb_task_fn, NULL, 99, one_cpu(0), "mb_task");
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	wake_up_process(p);
	end = ktime_get() + SAFETY_NS;
	while (!READ_ONCE(mb.running) && ktime_get() < end)
		cpu_relax();
	KTEST_ASSERT(t, READ_ONCE(mb.running), "P never ran on CPU0");
	set_cpus_allowed(p, one_cpu(1));
	/* no sleep: CPU1 stays busy with us until P is placed */
	end = ktime_get() + SAFETY_NS;
	while (task_cpu(p) != 1 && !READ_ONCE(mb.back_on_cpu0) &&
	       ktime_get() < end)
		cpu_relax();
	KTEST_EXPECT(t, task_cpu(p) == 1 && !READ_ONCE(mb.back_on_cpu0),
		     "P on CPU%d (back on CPU0: %d) after its mask became "
		     "CPU1 alone", task_cpu(p), READ_ONCE(mb.back_on_cpu0));
	WRITE_ONCE(mb.stop, 1);
	end = ktime_get() + SAFETY_NS;
	while (!READ_ONCE(mb.done) && ktime_get() < end)
		msleep(1);
	put_task_struct(p);
	me_restore();
}

KTEST_SUITE(affinity_races,
	    KTEST_CASE(test_set_cpus_allowed_moves_a_task_that_started_running),
	    KTEST_CASE(test_migrated_task_waits_on_a_busy_allowed_cpu));
