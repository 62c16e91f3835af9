/*
 * tests/kernel/test_bkl.c - the big kernel lock (kernel/locking/bkl.h;
 * article, "PREEMPT_RT configuration options", PREEMPT_BKL): recursion,
 * the automatic release across a sleep, preemptibility of the holder
 * only where PREEMPT_BKL is set (desktop, rt), mutual exclusion across
 * CPUs, and a misused unlock_kernel().  Every case runs under every
 * model; what differs is asserted against PREEMPT_BKL.  The observables
 * are flags and lock_depth, never a time: ktime only bounds a hang.
 */
#include "kernel/ktest.h"
#include "kernel/locking/bkl.h"
#include "kernel/panic.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/sched/wait.h"
#include "tests/kernel/sched_helpers.h"
#include "lib/string.h"

#define L_PRIO 10
#define H_PRIO 20
/* enough rounds for two CPUs to collide on every entry, few enough for
 * TCG: each contended hand-off between vCPUs can cost a host time slice
 * (2000 rounds took over 40 s under none, SMP=4, on a busy host) */
#define EXCL_ROUNDS 200
#define EXCL_SPINS 50		/* work inside a round: widens the section */

/* lock_kernel nests: only the outermost unlock_kernel releases. */
static void test_lock_kernel_nests_and_outermost_unlock_releases(struct ktest *t)
{
	KTEST_ASSERT(t, !kernel_locked(), "test task already holds the BKL");
	lock_kernel();
	lock_kernel();
	lock_kernel();
	KTEST_EXPECT_EQ(t, current->lock_depth, 2);
	unlock_kernel();
	unlock_kernel();
	KTEST_EXPECT(t, kernel_locked() && bkl_is_locked(),
		     "after 2 of 3 unlocks: expected still held, depth %d locked %d",
		     current->lock_depth, bkl_is_locked());
	unlock_kernel();
	KTEST_EXPECT_EQ(t, current->lock_depth, -1);
	KTEST_EXPECT(t, !bkl_is_locked(), "outermost unlock did not release it");
}

struct bkl_sleep {
	wait_queue_head_t wq;
	bool b_got;		/* B holds the BKL (A is asleep) */
	bool a_locked_seen;	/* B saw A still "holding" it by depth */
	struct completion b_done;
};

static struct bkl_sleep bs;

/* bkl_taker_fn - B: take the BKL (possible only while A sleeps), say so,
 * wake A, release. */
static int bkl_taker_fn(void *arg)
{
	struct task_struct *a = arg;

	lock_kernel();
	WRITE_ONCE(bs.a_locked_seen, READ_ONCE(a->lock_depth) >= 0);
	WRITE_ONCE(bs.b_got, true);
	wake_up(&bs.wq);
	unlock_kernel();
	complete(&bs.b_done);
	return 0;
}

/*
 * Scenario (one CPU, any SMP): A (the test task, SCHED_FIFO 10, CPU 0)
 * takes the BKL twice and sleeps in wait_event() until B says it got the
 * BKL; B (SCHED_FIFO 20, CPU 0) is woken while A holds it.  Every model:
 * B gets the BKL while A sleeps (A's lock_depth still 1: the depth
 * stays with A), wakes A, releases; A returns from wait_event holding
 * the BKL at depth 1.  Then the same with msleep(): A sleeps 1 ms at a
 * time until B reports (the flag, not the length, synchronises).
 * Before the release in schedule(): B never gets it, A's wait hangs.
 */
static void test_bkl_released_while_holder_sleeps(struct ktest *t)
{
	struct task_struct *b;
	ktime_t net;

	for (int pass = 0; pass < 2; pass++) {
		memset(&bs, 0, sizeof(bs));
		init_waitqueue_head(&bs.wq);
		init_completion(&bs.b_done);
		me_rt(L_PRIO, 0);
		lock_kernel();
		lock_kernel();
		b = start_rt(bkl_taker_fn, current, SCHED_FIFO, H_PRIO, 0,
			     "bkl_b");
		KTEST_ASSERT(t, b, "cannot create B");
		if (pass == 0) {
			wait_event_timeout(bs.wq, READ_ONCE(bs.b_got),
					   SAFETY_NS);
		} else {
			net = ktime_get() + SAFETY_NS;
			while (!READ_ONCE(bs.b_got) && ktime_get() < net)
				msleep(1);
		}
		KTEST_EXPECT(t, READ_ONCE(bs.b_got),
			     "%s: B never got the BKL while A slept",
			     pass ? "msleep" : "wait_event");
		KTEST_EXPECT(t, bs.a_locked_seen,
			     "%s: A's lock_depth was -1 while it slept (expected 1)",
			     pass ? "msleep" : "wait_event");
		KTEST_EXPECT(t, current->lock_depth == 1 && bkl_is_locked(),
			     "%s: after the sleep A expected the BKL at depth 1, has depth %d, locked %d",
			     pass ? "msleep" : "wait_event", current->lock_depth,
			     bkl_is_locked());
		unlock_kernel();
		unlock_kernel();
		KTEST_EXPECT(t, wait_for_completion_timeout(&bs.b_done,
							    SAFETY_NS),
			     "B did not finish");
		put_task_struct(b);
		me_restore();
	}
}

struct bkl_preempt {
	bool take;		/* H takes the BKL after it ran */
	bool h_ran;
	struct completion h_done;
};

static struct bkl_preempt bp;

static int bkl_preempter_fn(void *arg)
{
	(void)arg;
	WRITE_ONCE(bp.h_ran, true);
	if (bp.take) {
		lock_kernel();	/* L holds it: H sleeps until L unlocks */
		unlock_kernel();
	}
	complete(&bp.h_done);
	return 0;
}

/* bkl_wake_h - wake H on CPU 0 and report whether it ran before
 * cond_resched() (*at_wake) and after it (*at_point).  false (t failed)
 * if H could not be created. */
static bool bkl_wake_h(struct ktest *t, bool take, bool *at_wake,
		       bool *at_point)
{
	struct task_struct *h;

	memset(&bp, 0, sizeof(bp));
	init_completion(&bp.h_done);
	bp.take = take;
	h = create_fifo(bkl_preempter_fn, NULL, H_PRIO, one_cpu(0), "bkl_h");
	if (!h) {
		KTEST_EXPECT(t, false, "cannot create H");
		return false;
	}
	wake_up_process(h);
	*at_wake = READ_ONCE(bp.h_ran);
	cond_resched();
	*at_point = READ_ONCE(bp.h_ran);
	put_task_struct(h);
	return true;
}

/*
 * Scenario (one CPU, any SMP): L (the test task, SCHED_FIFO 10, CPU 0)
 * holds the BKL and wakes H (SCHED_FIFO 20, CPU 0), then passes a
 * cond_resched().
 *   PREEMPT_BKL (desktop, rt): H preempts L at the wakeup, the BKL
 *     notwithstanding; H then asks for the BKL and sleeps on kernel_sem
 *     while L keeps its priority 10 (a semaphore: no inheritance).
 *   none, voluntary: H runs neither at the wakeup nor at cond_resched()
 *     (kernel_flag holds preemption off); it runs once L unlocks and
 *     blocks.  Control, without the BKL: under voluntary cond_resched()
 *     lets H in, under none nothing does.
 */
static void test_bkl_holder_preemptible_only_with_preempt_bkl(struct ktest *t)
{
	bool at_wake, at_point;
	int prio;

	me_rt(L_PRIO, 0);
	prio = current->prio;
	lock_kernel();
	if (!bkl_wake_h(t, true, &at_wake, &at_point)) {
		unlock_kernel();
		goto out;
	}
	KTEST_EXPECT(t, at_wake == PREEMPT_BKL,
		     "BKL held: H ran at its wakeup: expected %d (PREEMPT_BKL), saw %d",
		     PREEMPT_BKL, at_wake);
	KTEST_EXPECT(t, at_point == PREEMPT_BKL,
		     "BKL held: H ran by cond_resched(): expected %d, saw %d",
		     PREEMPT_BKL, at_point);
	KTEST_EXPECT(t, current->prio == prio,
		     "H waits for the BKL: L's prio expected %d (no PI), is %d",
		     prio, current->prio);
	unlock_kernel();
	KTEST_EXPECT(t, wait_for_completion_timeout(&bp.h_done, SAFETY_NS),
		     "H never finished after the unlock");

	/* control: the same wakeup with no BKL held */
	if (!bkl_wake_h(t, false, &at_wake, &at_point))
		goto out;
	KTEST_EXPECT(t, at_point == (PREEMPT_ON_ENABLE || PREEMPT_VOLUNTARY_POINTS),
		     "no BKL: H ran by cond_resched(): expected %d, saw %d",
		     PREEMPT_ON_ENABLE || PREEMPT_VOLUNTARY_POINTS, at_point);
	KTEST_EXPECT(t, wait_for_completion_timeout(&bp.h_done, SAFETY_NS),
		     "H never finished (control)");
out:
	me_restore();
}

struct bkl_excl {
	int inside;		/* tasks in the section now */
	int overlaps;		/* rounds that found another task inside */
	long counter;		/* non-atomic read-modify-write under the BKL */
	struct completion done[2];
};

static struct bkl_excl be;

static int bkl_excl_fn(void *arg)
{
	long me = (long)arg;

	for (int i = 0; i < EXCL_ROUNDS; i++) {
		lock_kernel();
		if (READ_ONCE(be.inside))
			be.overlaps++;
		WRITE_ONCE(be.inside, 1);
		long c = READ_ONCE(be.counter);

		for (int s = 0; s < EXCL_SPINS; s++)
			arch_cpu_relax();
		WRITE_ONCE(be.counter, c + 1);
		WRITE_ONCE(be.inside, 0);
		unlock_kernel();
	}
	complete(&be.done[me]);
	return 0;
}

/*
 * Scenario (2 CPUs): X and Y on the last two CPUs (SCHED_OTHER; CPU 0
 * stays free for the test task when there are more) each run
 * EXCL_ROUNDS rounds of lock_kernel; read counter; spin; write counter+1;
 * unlock_kernel.  Every model: no round sees the other task inside, and
 * counter ends at 2 * EXCL_ROUNDS (a lost update would show a missing
 * exclusion).
 */
static void test_bkl_excludes_across_cpus(struct ktest *t)
{
	struct task_struct *p[2];

	if (num_online_cpus() < 2) {
		ktest_skip(t, "needs 2 CPUs: the two holders run in parallel");
		return;
	}
	memset(&be, 0, sizeof(be));
	for (long i = 0; i < 2; i++) {
		int cpu = num_online_cpus() - 2 + (int)i;

		init_completion(&be.done[i]);
		p[i] = start_rt(bkl_excl_fn, (void *)i, SCHED_OTHER, 0, cpu,
				"bkl_x");
		KTEST_ASSERT(t, p[i], "cannot create task %ld", i);
	}
	for (int i = 0; i < 2; i++) {
		KTEST_EXPECT(t, wait_for_completion_timeout(&be.done[i],
							    4 * SAFETY_NS),
			     "task %d did not finish", i);
		put_task_struct(p[i]);
	}
	KTEST_EXPECT_EQ(t, be.overlaps, 0);
	KTEST_EXPECT_EQ(t, be.counter, 2 * EXCL_ROUNDS);
}

/* unlock_kernel() without the BKL: one WARN, nothing released, and the
 * kernel goes on (lock_depth stays -1, the lock stays free). */
static void test_unlock_kernel_without_lock_warns(struct ktest *t)
{
	unsigned long w0 = READ_ONCE(warn_count);

	KTEST_ASSERT(t, !kernel_locked(), "test task holds the BKL");
	unlock_kernel();
	KTEST_EXPECT_EQ(t, READ_ONCE(warn_count), w0 + 1);
	KTEST_EXPECT_EQ(t, current->lock_depth, -1);
	KTEST_EXPECT(t, !bkl_is_locked(), "a misused unlock changed the lock");
	lock_kernel();	/* still usable */
	KTEST_EXPECT_EQ(t, current->lock_depth, 0);
	unlock_kernel();
}

KTEST_SUITE(bkl, KTEST_CASE(test_lock_kernel_nests_and_outermost_unlock_releases),
	    KTEST_CASE(test_bkl_released_while_holder_sleeps),
	    KTEST_CASE(test_bkl_holder_preemptible_only_with_preempt_bkl),
	    KTEST_CASE(test_bkl_excludes_across_cpus),
	    KTEST_CASE(test_unlock_kernel_without_lock_warns));
