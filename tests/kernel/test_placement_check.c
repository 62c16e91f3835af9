/*
 * tests/kernel/test_placement_check.c - the placement_check suite: the
 * scheduler torture's RT placement check (kernel/debug/torture_
 * placement.c) reports a wait only when it is one wait.
 *
 * Issue 12's "not fixed" non-rt finding ("trt/7 (prio 51, on CPU 1's
 * queue) waits while CPU 1 runs swapper/1 after a reschedule and 3
 * ticks") was the check's, not the scheduler's: it glued together two
 * different waits of the same task (see the diagram in
 * torture_placement.c; scheduling traces of the reports showed the task
 * had run, or had been pushed away and back, in between).  The test
 * below makes the second kind happen on purpose: a wait, the task moved
 * away without running, the CPU rescheduling meanwhile, the task moved
 * back to wait again.  Read without p->nr_migrations, the two samples
 * look like one wait across a reschedule and are reported.
 * Linux counterpart: none.  Needs 2 CPUs.
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/workloads/torture_placement.h"
#include "kernel/sched/preempt.h"
#include "kernel/sched/wait.h"
#include "kernel/time/tick.h"
#include "lib/string.h"

#define PC_TOLERANCE 3	/* ticks, as the sched torture's SP_TOLERANCE_TICKS */

static struct {
	int hold;		/* W keeps preemption off while set */
	int held;		/* W is inside its preempt-off section */
	int rounds;		/* sections W has entered */
	int stop;
	int w_done, p_done;
} pc;

/* W (OTHER, CPU1): preemption off while pc.hold, then sleeps until the
 * next round: a CPU that runs something less important than P and
 * legitimately cannot be preempted, under every model. */
static int pc_w_fn(void *arg)
{
	int seen = 0;

	while (!READ_ONCE(pc.stop)) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(pc.hold) && READ_ONCE(pc.rounds) == seen) {
			__set_current_state(TASK_RUNNING);
			preempt_disable();
			WRITE_ONCE(pc.rounds, ++seen);
			WRITE_ONCE(pc.held, 1);
			while (READ_ONCE(pc.hold))
				arch_cpu_relax();
			WRITE_ONCE(pc.held, 0);
			preempt_enable();
			continue;
		}
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(pc.w_done, 1);
	return 0;
}

static int pc_p_fn(void *arg)
{
	WRITE_ONCE(pc.p_done, 1);
	return 0;
}

/* wait_flag - *flag == val, or the hang net.  spin: without sleeping,
 * so that T keeps CPU0 (P, queued there, must not run). */
static bool wait_flag(const int *flag, int val, bool spin)
{
	ktime_t end = ktime_get() + SAFETY_NS;

	while (READ_ONCE(*flag) != val && ktime_get() < end) {
		if (spin)
			arch_cpu_relax();
		else
			msleep(1);
	}
	return READ_ONCE(*flag) == val;
}

/*
 * Scenario (2 CPUs): the test task T at FIFO 60 on CPU0; W (OTHER,
 * CPU1) in a preempt-off section; P (FIFO 50) created allowed on CPU1.
 *  1. P woken: queued on CPU1 behind W (cannot preempt it): sample A
 *     is a wait (CPU1 runs W, prio 120 > P's 49).
 *  2. set_cpus_allowed(P, {CPU0}): P moves to CPU0's queue, waits behind
 *     T (more important: no wait in the rule's sense; T spins, never
 *     sleeps, until P is moved back).
 *  3. W leaves its section and sleeps, is woken and enters a new one:
 *     CPU1 rescheduled twice, while P was not there.
 *  4. set_cpus_allowed(P, {CPU1}): P back on CPU1's queue behind W;
 *     PC_TOLERANCE of CPU1's ticks pass: sample B.
 * B shows P on CPU1's queue, same nr_switches (it never ran), same mask,
 * CPU1 rescheduled and ticked: all that the old check compared.  Only
 * nr_migrations (+2) shows they are two waits: not reported.  Then W
 * lets go and P runs.
 */
static void test_wait_moved_away_and_back_is_not_one_wait(struct ktest *t)
{
	struct placement_snap a, b;
	struct task_struct *w, *p;
	ktime_t end;
	bool ok;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "needs 2 CPUs (a task waiting on another CPU)");
		return;
	}
	memset(&pc, 0, sizeof(pc));
	me_rt(60, 0);
	w = start_rt(pc_w_fn, NULL, SCHED_OTHER, 0, 1, "pc_w");
	p = create_fifo(pc_p_fn, NULL, 50, one_cpu(1), "pc_p");
	KTEST_ASSERT(t, w && p, "kthread_create failed");
	WRITE_ONCE(pc.hold, 1);
	wake_up_process(w);
	ok = wait_flag(&pc.held, 1, false);
	KTEST_EXPECT(t, ok, "W never held CPU1");
	if (!ok)
		goto out;

	wake_up_process(p);						/* 1 */
	KTEST_EXPECT(t, placement_snapshot(p, 1, &a) && a.cpu == 1 &&
			       a.queue == 1,
		     "sample A: P waiting on CPU1 behind W, saw cpu %d queue %d",
		     a.cpu, a.queue);

	set_cpus_allowed(p, one_cpu(0));				/* 2 */
	KTEST_EXPECT(t, task_cpu(p) == 0 && READ_ONCE(p->on_rq) &&
			       READ_ONCE(p->nr_switches) == a.p_switches,
		     "P queued on CPU0 without running, saw cpu %d on_rq %d",
		     task_cpu(p), READ_ONCE(p->on_rq));

	WRITE_ONCE(pc.hold, 0);						/* 3 */
	ok = wait_flag(&pc.held, 0, true);
	KTEST_EXPECT(t, ok, "W never let go");
	if (!ok)
		goto out;
	end = ktime_get() + SAFETY_NS;
	while (!(READ_ONCE(w->state) == TASK_UNINTERRUPTIBLE &&
		 !READ_ONCE(w->on_rq)) && ktime_get() < end)
		arch_cpu_relax();
	WRITE_ONCE(pc.hold, 1);
	wake_up_process(w);
	ok = wait_flag(&pc.rounds, 2, true) && wait_flag(&pc.held, 1, true);
	KTEST_EXPECT(t, ok, "W did not start its second section");
	if (!ok)
		goto out;

	set_cpus_allowed(p, one_cpu(1));				/* 4 */
	end = ktime_get() + SAFETY_NS;
	while (tick_count(1) < a.cpu_ticks + PC_TOLERANCE &&
	       ktime_get() < end)
		msleep(1);
	KTEST_EXPECT(t, placement_snapshot(p, 1, &b) && b.cpu == 1,
		     "sample B: P waiting on CPU1 behind W again, saw cpu %d",
		     b.cpu);
	/* the interleaving happened: everything but the moves matches */
	KTEST_EXPECT(t, b.queue == a.queue && b.p_switches == a.p_switches &&
			       b.mask == a.mask &&
			       b.cpu_switches != a.cpu_switches &&
			       b.cpu_ticks >= a.cpu_ticks + PC_TOLERANCE,
		     "not forced: queue %d/%d switches %lu/%lu mask %llx/%llx "
		     "CPU1 switches %lu/%lu", a.queue, b.queue, a.p_switches,
		     b.p_switches, (unsigned long long)a.mask,
		     (unsigned long long)b.mask, a.cpu_switches, b.cpu_switches);
	KTEST_EXPECT(t, b.p_migrations == a.p_migrations + 2,
		     "P moved twice, saw nr_migrations %lu -> %lu",
		     a.p_migrations, b.p_migrations);
	KTEST_EXPECT(t, !placement_violated(&a, &b, PC_TOLERANCE),
		     "two waits (P moved away and back, CPU1 rescheduled while "
		     "it was away) reported as one placement violation");
	/* and the check still fires on one wait that outlasted a
	 * reschedule (B without the moves) */
	b.p_migrations = a.p_migrations;
	KTEST_EXPECT(t, placement_violated(&a, &b, PC_TOLERANCE),
		     "one wait across a reschedule of CPU1 not reported");

out:
	WRITE_ONCE(pc.stop, 1);
	WRITE_ONCE(pc.hold, 0);
	wake_up_process(p);
	wake_up_process(w);
	KTEST_EXPECT(t, wait_flag(&pc.p_done, 1, false) &&
			       wait_flag(&pc.w_done, 1, false),
		     "P and W ended (P %d W %d)", READ_ONCE(pc.p_done),
		     READ_ONCE(pc.w_done));
	put_task_struct(p);
	put_task_struct(w);
	me_restore();
}

KTEST_SUITE(placement_check,
	    KTEST_CASE(test_wait_moved_away_and_back_is_not_one_wait));
