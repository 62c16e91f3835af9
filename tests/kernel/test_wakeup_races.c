/*
 * tests/kernel/test_wakeup_races.c - the wakeup_races suite: an ordinary
 * wake-up that meets another party's wake-up or a migration must neither
 * be lost nor enqueue the task twice.  Each test forces one interleaving
 * drawn in the code it defends (kernel/sched/wakeup.c, affinity.c), with
 * a task pinned behind a busy CPU or a race window (kernel/debug/
 * race_window.h), never by waiting for the race to happen by chance.
 *
 * The contract every test checks: a wake_up_process() that arrives after
 * the sleeper's set_current_state() makes its next schedule() return.
 * Linux counterpart: none as a suite (the rules are kernel/sched/core.c's
 * try_to_wake_up comment block and ttwu_state_match()).
 * Spec: article, "Preemptible critical sections" (TASK_RUNNING_MUTEX and
 * the saved task state), "Miscellaneous" (affinity).
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/wait.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/rtlock_mode.h"
#include "kernel/debug/race_window.h"
#include "lib/string.h"

/* asleep - p went to sleep for good: a sleeping state, on no run queue,
 * its registers saved.  Only a wake-up can change that. */
static bool asleep(struct task_struct *p)
{
	return (READ_ONCE(p->state) & TASK_NORMAL) && !READ_ONCE(p->on_rq) &&
	       !READ_ONCE(p->on_cpu);
}

/*
 * wait_done_or_asleep - wait until *done, or until p, past the point
 * *armed where it calls schedule(), is asleep (the wake-up it was owed
 * is lost).  Both are final states; the time bound is a hang net only.
 */
static void wait_done_or_asleep(struct task_struct *p, const int *armed,
				const int *done)
{
	ktime_t end = ktime_get() + SAFETY_NS;

	while (!READ_ONCE(*done) && ktime_get() < end) {
		if (READ_ONCE(*armed) && asleep(p))
			break;
		msleep(1);
	}
}

/* finish - after a failure, wake p so it can end; false if it still has
 * not ended (it is then left behind, reported). */
static bool finish(struct task_struct *p, const int *done)
{
	ktime_t end = ktime_get() + SAFETY_NS;

	if (!READ_ONCE(*done))
		wake_up_process(p);
	while (!READ_ONCE(*done) && ktime_get() < end)
		msleep(1);
	return READ_ONCE(*done);
}

/* --- the lock's wake-up pending, an ordinary wake-up arrives --- */

static struct {
	spinlock_t lock;
	struct task_struct *waiter;
	int cond;		/* what the ordinary wake-up announces */
	int owner_woke;		/* wake_up_process()'s return in the owner */
	int waiter_past_lock;	/* waiter unlocked, calls schedule() next */
	int waiter_done;
	struct completion owner_done;
} lw;

/* the waiter: the classic sleep with a spinlock_t section between the
 * condition test and schedule() */
static int lw_waiter_fn(void *arg)
{
	set_current_state(TASK_INTERRUPTIBLE);
	if (!READ_ONCE(lw.cond)) {
		spin_lock(&lw.lock);	/* contended: TASK_RUNNING_MUTEX */
		spin_unlock(&lw.lock);
		WRITE_ONCE(lw.waiter_past_lock, 1);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(lw.waiter_done, 1);
	return 0;
}

/* the owner: takes the lock, lets the waiter block on it, then releases
 * it (the lock's wake-up) and wakes it for cond (the ordinary one) before
 * the waiter can run */
static int lw_owner_fn(void *arg)
{
	struct task_struct *w = lw.waiter;

	spin_lock(&lw.lock);
	wake_up_process(w);	/* FIFO 10 on our CPU: runs and blocks */
	while (READ_ONCE(w->state) != TASK_RUNNING_MUTEX || READ_ONCE(w->on_rq))
		cpu_relax();
	preempt_disable();	/* the waiter's CPU stays busy with us */
	spin_unlock(&lw.lock);	/* wake_up_process_mutex(w) */
	WRITE_ONCE(lw.cond, 1);
	WRITE_ONCE(lw.owner_woke, wake_up_process(w));
	preempt_enable();	/* now the waiter runs */
	complete(&lw.owner_done);
	return 0;
}

/*
 * Scenario (wakeup.c, "the lock's wake-up pending"): one CPU (CPU0) runs
 * W (FIFO 10) and O (SCHED_OTHER), the test task waits elsewhere (CPU0
 * too on SMP=1).  O holds spinlock_t L; W sets TASK_INTERRUPTIBLE, finds
 * cond false and blocks on L (state saved, TASK_RUNNING_MUTEX).  O, with
 * preemption off so that W cannot run yet, releases L (W: TASK_RUNNING,
 * queued, not run) and wakes W for cond.  Observable: that wake-up
 * counts (returns 1), and W, which restores its saved state after taking
 * L and then calls schedule(), returns from it instead of sleeping
 * forever.  On SMP the same window is the time between the lock's
 * wake-up and W's switch-in on its own CPU.
 */
static void test_wakeup_while_lock_wakeup_pending_not_lost(struct ktest *t)
{
	struct task_struct *o;

	if (!SPINLOCK_SLEEPS || rtlock_get_mode() != RTLOCK_MODE_RT)
		ktest_skip(t, "spinlock_t sleeps only under PREEMPT=rt");
	memset(&lw, 0, sizeof(lw));
	spin_lock_init(&lw.lock);
	init_completion(&lw.owner_done);
	me_rt(0, num_online_cpus() - 1);

	lw.waiter = create_fifo(lw_waiter_fn, NULL, 10, one_cpu(0),
				"lw_waiter");
	KTEST_ASSERT(t, lw.waiter != NULL, "kthread_create failed");
	o = start_rt(lw_owner_fn, NULL, SCHED_OTHER, 0, 0, "lw_owner");
	KTEST_ASSERT(t, o != NULL, "kthread_create failed");

	wait_for_completion(&lw.owner_done);
	wait_done_or_asleep(lw.waiter, &lw.waiter_past_lock, &lw.waiter_done);
	KTEST_EXPECT_EQ(t, READ_ONCE(lw.owner_woke), 1);
	KTEST_EXPECT(t, READ_ONCE(lw.waiter_done),
		     "waiter still in state %ld (on_rq %d) after the wake-up "
		     "that arrived while the lock's wake-up was pending: lost",
		     READ_ONCE(lw.waiter->state), READ_ONCE(lw.waiter->on_rq));
	if (finish(lw.waiter, &lw.waiter_done))
		put_task_struct(lw.waiter);
	else
		KTEST_EXPECT(t, 0, "waiter did not end; left behind");
	put_task_struct(o);
	me_restore();
}

/* --- a sleeper moved off CPU0 between its state and schedule() --- */

struct moving_sleeper {
	int state_set;		/* set_current_state done, spinning on CPU0 */
	int moved;		/* running off CPU0, calls schedule() next */
	int done;
	int ran_on;		/* the CPU that ran it after the move */
};

static int moving_sleeper_fn(void *arg)
{
	struct moving_sleeper *s = arg;

	set_current_state(TASK_INTERRUPTIBLE);
	WRITE_ONCE(s->state_set, 1);
	/* preempted here (rt: the IPI's return; every model: the
	 * preemption point), queued in our sleeping state, then moved */
	while (task_cpu(current) == 0) {
		_cond_resched();
		cpu_relax();
	}
	WRITE_ONCE(s->ran_on, raw_smp_processor_id());
	WRITE_ONCE(s->moved, 1);
	schedule();		/* the wake-up came after our state */
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(s->done, 1);
	return 0;
}

/* --- preempted in a sleeping state, migrated, woken --- */

static struct moving_sleeper pm;

/*
 * Scenario (affinity.c, "migrate vs wake-up"): P (FIFO 10) on CPU0 sets
 * TASK_INTERRUPTIBLE and spins to a preemption point; the test task (FIFO
 * 50, CPU1) sets P's affinity to CPU1, so P is preempted in its sleeping
 * state and taken off CPU0's queue for migration; CPU0 is held in
 * migrate_enqueue_window before P is put on CPU1; the test wakes P then
 * and lets CPU0 go on.  Observable: P is enqueued once (no BUG in
 * activate_task), the wake-up counts, P runs on CPU1 and its schedule()
 * returns.
 */
static void
test_preempted_sleeper_migrated_and_woken_is_queued_once(struct ktest *t)
{
	struct task_struct *p;
	ktime_t end;
	int woke;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the task moves while a waker runs");
	memset(&pm, 0, sizeof(pm));
	me_rt(50, 1);
	p = create_fifo(moving_sleeper_fn, &pm, 10, one_cpu(0), "pm_sleeper");
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	wake_up_process(p);
	end = ktime_get() + SAFETY_NS;
	while (!READ_ONCE(pm.state_set) && ktime_get() < end)
		cpu_relax();
	KTEST_ASSERT(t, READ_ONCE(pm.state_set), "P never ran on CPU0");

	race_window_arm(&migrate_enqueue_window, NULL);
	set_cpus_allowed(p, one_cpu(1));
	if (!race_window_wait_parked(&migrate_enqueue_window, SAFETY_NS)) {
		race_window_disarm(&migrate_enqueue_window);
		KTEST_EXPECT(t, 0, "CPU0 never reached migrate_enqueue");
		goto out;
	}
	KTEST_EXPECT(t, p->state == TASK_INTERRUPTIBLE && !p->on_rq,
		     "P preempted in its sleeping state and off CPU0's queue; "
		     "state %ld on_rq %d", p->state, p->on_rq);
	woke = wake_up_process(p);
	race_window_release(&migrate_enqueue_window);
	KTEST_EXPECT_EQ(t, woke, 1);
out:
	wait_done_or_asleep(p, &pm.moved, &pm.done);
	KTEST_EXPECT(t, READ_ONCE(pm.done),
		     "P still in state %ld (on_rq %d) after the wake-up: lost",
		     READ_ONCE(p->state), READ_ONCE(p->on_rq));
	KTEST_EXPECT_EQ(t, READ_ONCE(pm.ran_on), 1);
	if (finish(p, &pm.done))
		put_task_struct(p);
	else
		KTEST_EXPECT(t, 0, "P did not end; left behind");
	me_restore();
}

/* --- the waker locks the queue the sleeper left --- */

static struct {
	struct task_struct *p;
	struct moving_sleeper s;	/* P */
	int b_go;		/* the busy task on CPU1 may end */
	int k_woke;		/* the waker's wake_up_process() return */
	int k_done;
} sm;

static int sm_busy_fn(void *arg)
{
	while (!READ_ONCE(sm.b_go))
		cpu_relax();
	return 0;		/* CPU1 reschedules and pulls P */
}

static int sm_waker_fn(void *arg)
{
	WRITE_ONCE(sm.k_woke, wake_up_process(sm.p));
	WRITE_ONCE(sm.k_done, 1);
	return 0;
}

/* sm_lost - P is off every queue in TASK_RUNNING although the waker is
 * done: nobody will ever run it again. */
static bool sm_lost(struct task_struct *p)
{
	return READ_ONCE(sm.k_done) && READ_ONCE(p->state) == TASK_RUNNING &&
	       !READ_ONCE(p->on_rq) && !READ_ONCE(p->on_cpu);
}

/* sm_final - P ended, or the waker is done and P is lost or asleep
 * (before K is done, P may be asleep on its way to K's enqueue). */
static bool sm_final(struct task_struct *p)
{
	return READ_ONCE(sm.s.done) ||
	       (READ_ONCE(sm.k_done) && (sm_lost(p) || asleep(p)));
}

/*
 * Scenario (wakeup.c, "waker vs sleeper that moved"): P (FIFO 10, CPUs 0
 * and 1) sets TASK_INTERRUPTIBLE on CPU0 and is preempted there by K
 * (FIFO 60, CPU0); B (FIFO 20) keeps CPU1 busy; the test task runs on
 * CPU2.  K wakes P and is held in task_rq_lock_window having read
 * P->cpu == 0.  B ends; CPU1 pulls P, P calls schedule() and is held in
 * schedule_dequeue_window with its state tested, not yet dequeued.  K
 * goes on: it must lock CPU1's queue, the one P is on (it then waits for
 * CPU1 and finds P gone to sleep, and enqueues it), not CPU0's, where
 * it would see P still queued, only set TASK_RUNNING, and let CPU1
 * dequeue it: P off every queue, runnable, never run again.  The test
 * lets CPU1 go on once K is done or is retrying on the right queue
 * (task_rq_lock_retry_window).  Observable: K's wake-up counts, P's
 * schedule() returns.
 */
static void test_waker_locks_the_queue_the_sleeper_moved_to(struct ktest *t)
{
	struct task_struct *b, *k;
	ktime_t end;

	if (num_online_cpus() < 3)
		ktest_skip(t, "needs 3 CPUs: waker, sleeper's new CPU, test");
	memset(&sm, 0, sizeof(sm));
	me_rt(50, 2);
	b = start_rt(sm_busy_fn, NULL, SCHED_FIFO, 20, 1, "sm_busy");
	KTEST_ASSERT(t, b != NULL, "kthread_create failed");
	k = create_fifo(sm_waker_fn, NULL, 60, one_cpu(0), "sm_waker");
	KTEST_ASSERT(t, k != NULL, "kthread_create failed");
	sm.p = create_fifo(moving_sleeper_fn, &sm.s, 10, one_cpu(0), "sm_sleeper");
	KTEST_ASSERT(t, sm.p != NULL, "kthread_create failed");
	wake_up_process(sm.p);
	end = ktime_get() + SAFETY_NS;
	while (!READ_ONCE(sm.s.state_set) && ktime_get() < end)
		cpu_relax();
	KTEST_ASSERT(t, READ_ONCE(sm.s.state_set), "P never ran on CPU0");
	set_cpus_allowed(sm.p, (cpumask_t){ .bits = 3 });	/* CPU0, CPU1 */

	race_window_arm(&task_rq_lock_window, k);
	wake_up_process(k);
	if (!race_window_wait_parked(&task_rq_lock_window, SAFETY_NS)) {
		KTEST_EXPECT(t, 0, "K never reached the run-queue lock");
		goto out;
	}
	KTEST_EXPECT(t, sm.p->on_rq && sm.p->state == TASK_INTERRUPTIBLE &&
			task_cpu(sm.p) == 0,
		     "P preempted on CPU0 in its sleeping state: on_rq %d "
		     "state %ld cpu %d", sm.p->on_rq, sm.p->state,
		     task_cpu(sm.p));
	race_window_arm(&schedule_dequeue_window, sm.p);
	race_window_arm(&task_rq_lock_retry_window, k);
	WRITE_ONCE(sm.b_go, 1);
	if (!race_window_wait_parked(&schedule_dequeue_window, SAFETY_NS)) {
		KTEST_EXPECT(t, 0, "P was not pulled to CPU1 into schedule()");
		goto out;
	}
	race_window_release(&task_rq_lock_window);
	end = ktime_get() + SAFETY_NS;
	while (!READ_ONCE(sm.k_done) &&
	       !race_window_wait_parked(&task_rq_lock_retry_window, 0) &&
	       ktime_get() < end)
		cpu_relax();
out:
	race_window_disarm(&task_rq_lock_window);
	race_window_disarm(&schedule_dequeue_window);
	race_window_disarm(&task_rq_lock_retry_window);
	WRITE_ONCE(sm.b_go, 1);
	end = ktime_get() + SAFETY_NS;
	while (!sm_final(sm.p) && ktime_get() < end)
		msleep(1);
	KTEST_EXPECT(t, READ_ONCE(sm.s.done),
		     "P in state %ld, on_rq %d, cpu %d after K's wake-up "
		     "(returned %d): %s", READ_ONCE(sm.p->state),
		     READ_ONCE(sm.p->on_rq), task_cpu(sm.p), sm.k_woke,
		     sm_lost(sm.p) ? "runnable on no queue, lost" : "asleep");
	/* K found P already running: a window gave up (a host too slow for
	 * it, seen once under none SMP=4), so the forced interleaving did
	 * not happen; P not lost is all this run shows */
	if (!READ_ONCE(sm.k_woke))
		ktest_skip(t, "K's wake-up found P running: the interleaving "
			      "was not forced this run");
	if (finish(sm.p, &sm.s.done))
		put_task_struct(sm.p);
	else
		KTEST_EXPECT(t, 0, "P did not end; left behind");
	put_task_struct(k);
	put_task_struct(b);
	me_restore();
}

KTEST_SUITE(wakeup_races,
	    KTEST_CASE(test_wakeup_while_lock_wakeup_pending_not_lost),
	    KTEST_CASE(test_preempted_sleeper_migrated_and_woken_is_queued_once),
	    KTEST_CASE(test_waker_locks_the_queue_the_sleeper_moved_to));
