/*
 * tests/kernel/test_rtmutex.c - the rtmutex suite: rt_mutex mutual
 * exclusion, trylock, transitive priority inheritance and its timely
 * removal, lock stealing, timeouts, signals and deadlock detection
 * (kernel/locking/rtmutex.c, kernel/debug/deadlock.c).
 *
 * Each scenario drives "actors": kthreads that run one lock command at
 * a time from a mailbox (the test posts a command and, for a blocking
 * one, waits until the actor is seen blocked, never a guessed time;
 * tests/kernel/rtmutex_actor.c).
 * Priorities below are SCHED_FIFO rt_priority values ("F10"), shown with
 * the kernel-scale prio they give (F10 = prio 89); "O" is SCHED_OTHER
 * nice 0 (prio 120).
 */
#include "kernel/ktest.h"
#include "tests/kernel/rtmutex_actor.h"
#include "kernel/locking/lockdep.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/locking/deadlock.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/signal.h"
#include "kernel/time/ktime.h"
#include "lib/errno.h"


static void test_rt_mutex_uncontended_fast_path(struct ktest *t)
{
	DEFINE_RT_MUTEX(l0);
	unsigned long slow = READ_ONCE(rt_mutex_slowpath_count);

	rt_mutex_lock(&l0);
	KTEST_EXPECT(t, rt_mutex_owner(&l0) == current, "owner %p, want current",
		     rt_mutex_owner(&l0));
	KTEST_EXPECT_EQ(t, l0.owner & RT_MUTEX_HAS_WAITERS, 0);
	rt_mutex_unlock(&l0);
	KTEST_EXPECT(t, !rt_mutex_is_locked(&l0), "still locked after unlock");
	KTEST_EXPECT_EQ(t, READ_ONCE(rt_mutex_slowpath_count), slow);
}

/* Scenario: main holds L0; actor A (O) trylocks: 0; main unlocks; A
 * trylocks: 1 and owns it. */
static void test_rt_mutex_trylock(struct ktest *t)
{
	DEFINE_RT_MUTEX(l0);
	struct actor a;

	KTEST_ASSERT(t, rt_mutex_trylock(&l0) == 1, "trylock of a free lock");
	actor_start(t, &a, "try-A", 0, -1);
	EXPECT_RESULT(t, &a, OP_TRYLOCK, &l0, 0);
	rt_mutex_unlock(&l0);
	EXPECT_RESULT(t, &a, OP_TRYLOCK, &l0, 1);
	KTEST_EXPECT(t, rt_mutex_owner(&l0) == a.task, "A does not own L0");
	EXPECT_RESULT(t, &a, OP_UNLOCK, &l0, 0);
	actor_stop(&a);
}

/*
 * Scenario (equal priorities do not boost, one RT waiter does):
 *	T0 (O, 120) locks L0
 *	T1 (O, 120) blocks on L0	-> T0 stays 120
 *	T2 (F10, 89) blocks on L0	-> T0 89
 *	T0 unlocks			-> T0 120; T2 (top waiter) gets L0
 *	T2 unlocks			-> T1 gets L0
 */
static void test_rt_mutex_pi_boost_and_deboost_on_unlock(struct ktest *t)
{
	DEFINE_RT_MUTEX(l0);
	struct actor a0, a1, a2;

	actor_start(t, &a0, "pi-T0", 0, -1);
	actor_start(t, &a1, "pi-T1", 0, -1);
	actor_start(t, &a2, "pi-T2", 10, -1);
	EXPECT_RESULT(t, &a0, OP_LOCK, &l0, 0);
	actor_post(&a1, OP_LOCK, &l0, -1);
	EXPECT_BLOCKED(t, &a1, &l0);
	EXPECT_PRIO(t, &a0, PRIO_OTHER);
	actor_post(&a2, OP_LOCK, &l0, -1);
	EXPECT_BLOCKED(t, &a2, &l0);
	EXPECT_PRIO(t, &a0, FIFO(10));
	EXPECT_RESULT(t, &a0, OP_UNLOCK, &l0, 0);
	EXPECT_PRIO(t, &a0, PRIO_OTHER);
	KTEST_EXPECT_EQ(t, actor_result(&a2), 0);
	KTEST_EXPECT(t, rt_mutex_owner(&l0) == a2.task, "T2 should own L0");
	EXPECT_RESULT(t, &a2, OP_UNLOCK, &l0, 0);
	KTEST_EXPECT_EQ(t, actor_result(&a1), 0);
	EXPECT_RESULT(t, &a1, OP_UNLOCK, &l0, 0);
	actor_stop(&a0);
	actor_stop(&a1);
	actor_stop(&a2);
}

/*
 * Scenario (chains of depth 2 and 3, deboost step by step):
 *	T0 (O) locks L0; T1 (F10) locks L1; T2 (F20) locks L2
 *	T1 blocks on L0			-> T0 89
 *	T2 blocks on L1			-> T1 79, T0 79 (two deep)
 *	T3 (F30) blocks on L2		-> T2 69, T1 69, T0 69 (three deep)
 *	T0 unlocks L0			-> T0 120, T1 gets L0 (still 69)
 *	T1 unlocks L0, L1		-> T1 89, T2 gets L1 (69)
 *	T2 unlocks L1, L2		-> T2 79, T3 gets L2
 */
static void test_rt_mutex_pi_chain_three_deep(struct ktest *t)
{
	DEFINE_RT_MUTEX(l0);
	DEFINE_RT_MUTEX(l1);
	DEFINE_RT_MUTEX(l2);
	struct actor a0, a1, a2, a3;

	actor_start(t, &a0, "chain-T0", 0, -1);
	actor_start(t, &a1, "chain-T1", 10, -1);
	actor_start(t, &a2, "chain-T2", 20, -1);
	actor_start(t, &a3, "chain-T3", 30, -1);
	EXPECT_RESULT(t, &a0, OP_LOCK, &l0, 0);
	EXPECT_RESULT(t, &a1, OP_LOCK, &l1, 0);
	EXPECT_RESULT(t, &a2, OP_LOCK, &l2, 0);
	actor_post(&a1, OP_LOCK, &l0, -1);
	EXPECT_BLOCKED(t, &a1, &l0);
	EXPECT_PRIO(t, &a0, FIFO(10));
	actor_post(&a2, OP_LOCK, &l1, -1);
	EXPECT_BLOCKED(t, &a2, &l1);
	EXPECT_PRIO(t, &a1, FIFO(20));
	EXPECT_PRIO(t, &a0, FIFO(20));
	actor_post(&a3, OP_LOCK, &l2, -1);
	EXPECT_BLOCKED(t, &a3, &l2);
	EXPECT_PRIO(t, &a2, FIFO(30));
	EXPECT_PRIO(t, &a1, FIFO(30));
	EXPECT_PRIO(t, &a0, FIFO(30));

	EXPECT_RESULT(t, &a0, OP_UNLOCK, &l0, 0);
	EXPECT_PRIO(t, &a0, PRIO_OTHER);
	KTEST_EXPECT_EQ(t, actor_result(&a1), 0);
	EXPECT_PRIO(t, &a1, FIFO(30));
	EXPECT_RESULT(t, &a1, OP_UNLOCK, &l0, 0);
	EXPECT_RESULT(t, &a1, OP_UNLOCK, &l1, 0);
	EXPECT_PRIO(t, &a1, FIFO(10));
	KTEST_EXPECT_EQ(t, actor_result(&a2), 0);
	EXPECT_PRIO(t, &a2, FIFO(30));
	EXPECT_RESULT(t, &a2, OP_UNLOCK, &l1, 0);
	EXPECT_RESULT(t, &a2, OP_UNLOCK, &l2, 0);
	EXPECT_PRIO(t, &a2, FIFO(20));
	KTEST_EXPECT_EQ(t, actor_result(&a3), 0);
	EXPECT_RESULT(t, &a3, OP_UNLOCK, &l2, 0);
	actor_stop(&a0);
	actor_stop(&a1);
	actor_stop(&a2);
	actor_stop(&a3);
}

/*
 * Scenario (several locks released in another order than taken):
 *	T0 (O) locks L0 then L1
 *	T1 (F10) blocks on L0, T2 (F20) blocks on L1	-> T0 79
 *	T0 unlocks L1 first		-> T0 89 (L0's waiter remains)
 *	T0 unlocks L0			-> T0 120
 */
static void test_rt_mutex_pi_unlock_order_differs_from_lock_order(struct ktest *t)
{
	DEFINE_RT_MUTEX(l0);
	DEFINE_RT_MUTEX(l1);
	struct actor a0, a1, a2;

	actor_start(t, &a0, "order-T0", 0, -1);
	actor_start(t, &a1, "order-T1", 10, -1);
	actor_start(t, &a2, "order-T2", 20, -1);
	EXPECT_RESULT(t, &a0, OP_LOCK, &l0, 0);
	EXPECT_RESULT(t, &a0, OP_LOCK, &l1, 0);
	actor_post(&a1, OP_LOCK, &l0, -1);
	EXPECT_BLOCKED(t, &a1, &l0);
	actor_post(&a2, OP_LOCK, &l1, -1);
	EXPECT_BLOCKED(t, &a2, &l1);
	EXPECT_PRIO(t, &a0, FIFO(20));
	EXPECT_RESULT(t, &a0, OP_UNLOCK, &l1, 0);
	EXPECT_PRIO(t, &a0, FIFO(10));
	EXPECT_RESULT(t, &a0, OP_UNLOCK, &l0, 0);
	EXPECT_PRIO(t, &a0, PRIO_OTHER);
	KTEST_EXPECT_EQ(t, actor_result(&a1), 0);
	KTEST_EXPECT_EQ(t, actor_result(&a2), 0);
	EXPECT_RESULT(t, &a1, OP_UNLOCK, &l0, 0);
	EXPECT_RESULT(t, &a2, OP_UNLOCK, &l1, 0);
	actor_stop(&a0);
	actor_stop(&a1);
	actor_stop(&a2);
}

/*
 * Scenario (a waiter times out, another is signalled away):
 *	T0 (O) locks L0
 *	T1 (F10) waits on L0 with a 50 ms timeout	-> T0 89
 *	T2 (F20) waits interruptibly on L0		-> T0 79
 *	T2 is signalled: -EINTR				-> T0 89
 *	T1 times out: -ETIMEDOUT			-> T0 120
 */
static void test_rt_mutex_pi_deboost_on_timeout_and_signal(struct ktest *t)
{
	DEFINE_RT_MUTEX(l0);
	struct actor a0, a1, a2;
	int r;

	actor_start(t, &a0, "to-T0", 0, -1);
	actor_start(t, &a1, "to-T1", 10, -1);
	actor_start(t, &a2, "to-T2", 20, -1);
	EXPECT_RESULT(t, &a0, OP_LOCK, &l0, 0);
	/* long enough for the steps below even under TCG: 500 ms */
	actor_post(&a1, OP_TIMED, &l0, 500 * NSEC_PER_MSEC);
	EXPECT_BLOCKED(t, &a1, &l0);
	EXPECT_PRIO(t, &a0, FIFO(10));
	actor_post(&a2, OP_LOCK_INTR, &l0, -1);
	EXPECT_BLOCKED(t, &a2, &l0);
	EXPECT_PRIO(t, &a0, FIFO(20));
	kernel_signal(a2.task);
	r = actor_result(&a2);
	KTEST_EXPECT(t, r == -EINTR, "signalled waiter returned %d, want %d", r,
		     -EINTR);
	flush_signals(a2.task);
	EXPECT_PRIO(t, &a0, FIFO(10));
	r = actor_result(&a1);
	KTEST_EXPECT(t, r == -ETIMEDOUT, "timed waiter returned %d, want %d", r,
		     -ETIMEDOUT);
	EXPECT_PRIO(t, &a0, PRIO_OTHER);
	KTEST_EXPECT(t, rt_mutex_owner(&l0) == a0.task, "T0 lost L0");
	EXPECT_RESULT(t, &a0, OP_UNLOCK, &l0, 0);
	KTEST_EXPECT(t, !rt_mutex_is_locked(&l0), "L0 still locked");
	actor_stop(&a0);
	actor_stop(&a1);
	actor_stop(&a2);
}

/*
 * Scenario (lock stealing; everything pinned to main's CPU so the woken
 * waiter cannot run before main acts):
 *	main becomes F30 and locks L0
 *	T1 (F20) blocks on L0
 *	main unlocks: T1 is woken as top waiter but cannot run (F30 > F20)
 *	main (F30, better than T1) trylocks: steals it
 *	main unlocks; as F20 (equal to T1) main trylocks: refused
 *	T1 runs and gets L0
 */
static void test_rt_mutex_lock_stealing_by_higher_prio_only(struct ktest *t)
{
	DEFINE_RT_MUTEX(l0);
	struct sched_param hi = { .sched_priority = 30 };
	struct sched_param eq = { .sched_priority = 20 };
	struct sched_param other = { .sched_priority = 0 };
	cpumask_t saved = current->cpus_allowed, one = { 0 };
	int cpu = raw_smp_processor_id();
	struct task_struct *owner;
	struct actor a1;
	int r;

	cpumask_set_cpu(cpu, &one);
	KTEST_ASSERT(t, set_cpus_allowed(current, one) == 0, "pinning main");
	cpu = raw_smp_processor_id();
	sched_setscheduler(current, SCHED_FIFO, &hi);
	actor_start(t, &a1, "steal-T1", 20, cpu);
	rt_mutex_lock(&l0);
	actor_post(&a1, OP_LOCK, &l0, -1);
	/* T1 can only run when main sleeps: wait_blocked_on schedules,
	 * but main is F30 on this CPU, so sleep properly once */
	sched_setscheduler(current, SCHED_OTHER, &other);
	EXPECT_BLOCKED(t, &a1, &l0);
	sched_setscheduler(current, SCHED_FIFO, &hi);

	rt_mutex_unlock(&l0);
	KTEST_EXPECT(t, rt_mutex_owner(&l0) == NULL, "L0 owned by %p after unlock",
		     rt_mutex_owner(&l0));
	KTEST_EXPECT(t, rt_mutex_trylock(&l0) == 1,
		     "F30 could not steal from the woken F20 waiter");
	KTEST_EXPECT(t, a1.task->pi_blocked_on != NULL, "T1 left the queue");
	rt_mutex_unlock(&l0);

	/* no preemption here: lowering main to F20 must not let T1 run */
	preempt_disable();
	sched_setscheduler(current, SCHED_FIFO, &eq);
	owner = rt_mutex_owner(&l0);
	r = rt_mutex_trylock(&l0);
	preempt_enable();
	KTEST_EXPECT(t, owner == NULL, "T1 ran before the equal-prio trylock");
	KTEST_EXPECT(t, r == 0, "F20 stole from the equal-prio woken waiter");
	sched_setscheduler(current, SCHED_OTHER, &other);
	KTEST_EXPECT_EQ(t, actor_result(&a1), 0);
	KTEST_EXPECT(t, rt_mutex_owner(&l0) == a1.task, "T1 should own L0");
	EXPECT_RESULT(t, &a1, OP_UNLOCK, &l0, 0);
	actor_stop(&a1);
	set_cpus_allowed(current, saved);
}

/*
 * Scenario (ABBA and a three-lock cycle, -EDEADLK with the cycle):
 *	T0 locks L0, T1 locks L1, T2 locks L2
 *	T0 waits for L1 (interruptible), T1 waits for L2
 *	T2 asks for L0: cycle T2 -> L0 -> T0 -> L1 -> T1 -> L2 -> T2
 *	  -> -EDEADLK for T2, report lists T2/L0, T0/L1, T1/L2
 *	T2 unlocks L2 (T1 gets it); ABBA: T1 asks for L0 while T0 waits
 *	  for L1 held by T1 -> -EDEADLK, report T1/L0, T0/L1
 *	plain rt_mutex_lock of L0 by T1: reported, T1 stays blocked;
 *	  T0 is signalled (-EINTR) and unlocks L0 -> T1 gets it
 */
static void test_rt_mutex_deadlock_three_lock_cycle(struct ktest *t)
{
	DEFINE_RT_MUTEX(l0);
	DEFINE_RT_MUTEX(l1);
	DEFINE_RT_MUTEX(l2);
	struct actor a0, a1, a2;
	unsigned long before = rt_lock_reports[RT_REPORT_DEADLOCK];
	struct rt_deadlock_report *rep = &rt_last_deadlock;

	/* the lock validator sees each cycle before it closes */
	lockdep_expect_begin();
	actor_start(t, &a0, "dl-T0", 0, -1);
	actor_start(t, &a1, "dl-T1", 0, -1);
	actor_start(t, &a2, "dl-T2", 0, -1);
	EXPECT_RESULT(t, &a0, OP_LOCK, &l0, 0);
	EXPECT_RESULT(t, &a1, OP_LOCK, &l1, 0);
	EXPECT_RESULT(t, &a2, OP_LOCK, &l2, 0);
	actor_post(&a0, OP_LOCK_INTR, &l1, -1);
	EXPECT_BLOCKED(t, &a0, &l1);
	actor_post(&a1, OP_LOCK_INTR, &l2, -1);
	EXPECT_BLOCKED(t, &a1, &l2);
	EXPECT_RESULT(t, &a2, OP_LOCK_INTR, &l0, -EDEADLK);
	KTEST_EXPECT_EQ(t, rt_lock_reports[RT_REPORT_DEADLOCK], before + 1);
	KTEST_EXPECT(t, rep->closed && rep->nr == 3, "cycle closed %d nr %d",
		     rep->closed, rep->nr);
	KTEST_EXPECT(t, rep->pid[0] == a2.task->pid && rep->lock[0] == &l0,
		     "link 0: pid %d lock %s", rep->pid[0], rep->lock[0]->name);
	KTEST_EXPECT(t, rep->pid[1] == a0.task->pid && rep->lock[1] == &l1,
		     "link 1: pid %d lock %s", rep->pid[1], rep->lock[1]->name);
	KTEST_EXPECT(t, rep->pid[2] == a1.task->pid && rep->lock[2] == &l2,
		     "link 2: pid %d lock %s", rep->pid[2], rep->lock[2]->name);
	KTEST_EXPECT(t, a2.task->pi_blocked_on == NULL, "T2 still queued");

	/* ABBA inside the same state: T1 (holding L1, waiting L2) is not the
	 * asker; release T2's L2 so T1 gets it, then T1 asks for L0 held by
	 * T0 who waits for L1 held by T1 */
	EXPECT_RESULT(t, &a2, OP_UNLOCK, &l2, 0);
	KTEST_EXPECT_EQ(t, actor_result(&a1), 0);
	EXPECT_RESULT(t, &a1, OP_LOCK_INTR, &l0, -EDEADLK);
	KTEST_EXPECT(t, rep->closed && rep->nr == 2 &&
				rep->pid[0] == a1.task->pid && rep->lock[0] == &l0,
		     "ABBA report: closed %d nr %d", rep->closed, rep->nr);

	/* the plain lock: reports and stays blocked until T0 gives up */
	before = rt_lock_reports[RT_REPORT_DEADLOCK];
	actor_post(&a1, OP_LOCK, &l0, -1);
	EXPECT_BLOCKED(t, &a1, &l0);
	KTEST_EXPECT_EQ(t, rt_lock_reports[RT_REPORT_DEADLOCK], before + 1);
	kernel_signal(a0.task);
	KTEST_EXPECT_EQ(t, actor_result(&a0), -EINTR);
	flush_signals(a0.task);
	EXPECT_RESULT(t, &a0, OP_UNLOCK, &l0, 0);
	KTEST_EXPECT_EQ(t, actor_result(&a1), 0);
	EXPECT_RESULT(t, &a1, OP_UNLOCK, &l0, 0);
	EXPECT_RESULT(t, &a1, OP_UNLOCK, &l1, 0);
	EXPECT_RESULT(t, &a1, OP_UNLOCK, &l2, 0);
	actor_stop(&a0);
	actor_stop(&a1);
	actor_stop(&a2);
	lockdep_expect_end();
}

/* AA, unlock by a non-owner and destroying a held lock are reported. */
static void test_rt_mutex_misuse_reports(struct ktest *t)
{
	DEFINE_RT_MUTEX(l0);
	unsigned long aa = rt_lock_reports[RT_REPORT_SELF_DEADLOCK];
	unsigned long bad = rt_lock_reports[RT_REPORT_BAD_UNLOCK];
	unsigned long des = rt_lock_reports[RT_REPORT_DESTROY_HELD];
	struct actor a;

	lockdep_expect_begin();	/* the validator sees AA and the unlock */
	actor_start(t, &a, "misuse-A", 0, -1);
	EXPECT_RESULT(t, &a, OP_LOCK, &l0, 0);
	EXPECT_RESULT(t, &a, OP_LOCK_INTR, &l0, -EDEADLK);
	KTEST_EXPECT_EQ(t, rt_lock_reports[RT_REPORT_SELF_DEADLOCK], aa + 1);
	rt_mutex_unlock(&l0);	/* main does not own it */
	KTEST_EXPECT_EQ(t, rt_lock_reports[RT_REPORT_BAD_UNLOCK], bad + 1);
	KTEST_EXPECT(t, rt_mutex_owner(&l0) == a.task, "bad unlock released it");
	rt_mutex_destroy(&l0);
	KTEST_EXPECT_EQ(t, rt_lock_reports[RT_REPORT_DESTROY_HELD], des + 1);
	EXPECT_RESULT(t, &a, OP_UNLOCK, &l0, 0);
	actor_stop(&a);
	lockdep_expect_end();
}

/* Mutual exclusion under contention from every CPU: one actor-like
 * thread per CPU adds to a shared counter under the lock. */
#define COUNT_LOOPS 2000
static DEFINE_RT_MUTEX(count_lock);
static unsigned long shared_count;
static struct completion count_done;

static int count_fn(void *data)
{
	for (int i = 0; i < COUNT_LOOPS; i++) {
		rt_mutex_lock(&count_lock);
		unsigned long v = READ_ONCE(shared_count);
		if (i % 64 == 0)
			schedule();	/* stretch the section: others queue */
		WRITE_ONCE(shared_count, v + 1);
		rt_mutex_unlock(&count_lock);
	}
	complete(&count_done);
	return 0;
}

static void test_rt_mutex_mutual_exclusion_on_every_cpu(struct ktest *t)
{
	int cpu, n = 0;

	shared_count = 0;
	init_completion(&count_done);
	for_each_online_cpu(cpu) {
		struct task_struct *p = kthread_create(count_fn, NULL,
						       "count/%d", cpu);
		KTEST_ASSERT(t, p != NULL, "kthread_create");
		kthread_bind(p, cpu);
		wake_up_process(p);
		n++;
	}
	for (int i = 0; i < n; i++)
		KTEST_ASSERT(t, wait_for_completion_timeout(&count_done,
							    10 * WAIT_NS) > 0,
			     "counter thread %d did not finish", i);
	KTEST_EXPECT(t, shared_count == (unsigned long)n * COUNT_LOOPS,
		     "count %lu, want %lu", shared_count,
		     (unsigned long)n * COUNT_LOOPS);
}

static void set_fifo(struct actor *a, int fifo)
{
	struct sched_param sp = { .sched_priority = fifo };

	sched_setscheduler(a->task, fifo ? SCHED_FIFO : SCHED_OTHER, &sp);
}

/*
 * Scenario (sched_setscheduler on a boosted owner):
 *	T0 (O) locks L0; T1 (F20) blocks on L0	-> T0 79
 *	T0 set to F10				-> T0 stays 79 (boost wins)
 *	T0 set to F30				-> T0 69 (its own prio wins)
 *	T0 set to F10 again			-> T0 79 (back to the boost)
 *	T0 unlocks				-> T0 89 (its new base)
 */
static void test_rt_mutex_base_prio_change_while_boosted(struct ktest *t)
{
	DEFINE_RT_MUTEX(l0);
	struct actor a0, a1;

	actor_start(t, &a0, "base-T0", 0, -1);
	actor_start(t, &a1, "base-T1", 20, -1);
	EXPECT_RESULT(t, &a0, OP_LOCK, &l0, 0);
	actor_post(&a1, OP_LOCK, &l0, -1);
	EXPECT_BLOCKED(t, &a1, &l0);
	EXPECT_PRIO(t, &a0, FIFO(20));
	set_fifo(&a0, 10);
	EXPECT_PRIO(t, &a0, FIFO(20));
	KTEST_EXPECT_EQ(t, a0.task->normal_prio, FIFO(10));
	set_fifo(&a0, 30);
	EXPECT_PRIO(t, &a0, FIFO(30));
	set_fifo(&a0, 10);
	EXPECT_PRIO(t, &a0, FIFO(20));
	EXPECT_RESULT(t, &a0, OP_UNLOCK, &l0, 0);
	EXPECT_PRIO(t, &a0, FIFO(10));
	KTEST_EXPECT_EQ(t, actor_result(&a1), 0);
	EXPECT_RESULT(t, &a1, OP_UNLOCK, &l0, 0);
	actor_stop(&a0);
	actor_stop(&a1);
}

/*
 * Scenario (sched_setscheduler / set_user_nice on a blocked waiter moves
 * the boost along the chain):
 *	T0 (O) locks L0; T1 (O) locks L1, blocks on L0
 *	T2 (F10) blocks on L1			-> T1 89, T0 89
 *	T2 set to F30				-> T1 69, T0 69
 *	T2 set to SCHED_OTHER			-> T1 120, T0 120
 *	T2 nice -10				-> T1 110, T0 110
 *	T0 unlocks L0; T1 unlocks L0, L1; T2 gets L1
 */
static void test_rt_mutex_blocked_prio_change_moves_boost(struct ktest *t)
{
	DEFINE_RT_MUTEX(l0);
	DEFINE_RT_MUTEX(l1);
	struct actor a0, a1, a2;

	actor_start(t, &a0, "move-T0", 0, -1);
	actor_start(t, &a1, "move-T1", 0, -1);
	actor_start(t, &a2, "move-T2", 10, -1);
	EXPECT_RESULT(t, &a0, OP_LOCK, &l0, 0);
	EXPECT_RESULT(t, &a1, OP_LOCK, &l1, 0);
	actor_post(&a1, OP_LOCK, &l0, -1);
	EXPECT_BLOCKED(t, &a1, &l0);
	actor_post(&a2, OP_LOCK, &l1, -1);
	EXPECT_BLOCKED(t, &a2, &l1);
	EXPECT_PRIO(t, &a1, FIFO(10));
	EXPECT_PRIO(t, &a0, FIFO(10));
	set_fifo(&a2, 30);
	EXPECT_PRIO(t, &a1, FIFO(30));
	EXPECT_PRIO(t, &a0, FIFO(30));
	set_fifo(&a2, 0);
	EXPECT_PRIO(t, &a1, PRIO_OTHER);
	EXPECT_PRIO(t, &a0, PRIO_OTHER);
	set_user_nice(a2.task, -10);
	EXPECT_PRIO(t, &a2, NICE_TO_PRIO(-10));
	EXPECT_PRIO(t, &a1, NICE_TO_PRIO(-10));
	EXPECT_PRIO(t, &a0, NICE_TO_PRIO(-10));
	EXPECT_RESULT(t, &a0, OP_UNLOCK, &l0, 0);
	EXPECT_PRIO(t, &a0, PRIO_OTHER);
	KTEST_EXPECT_EQ(t, actor_result(&a1), 0);
	EXPECT_RESULT(t, &a1, OP_UNLOCK, &l0, 0);
	EXPECT_RESULT(t, &a1, OP_UNLOCK, &l1, 0);
	EXPECT_PRIO(t, &a1, PRIO_OTHER);
	KTEST_EXPECT_EQ(t, actor_result(&a2), 0);
	EXPECT_RESULT(t, &a2, OP_UNLOCK, &l1, 0);
	set_user_nice(a2.task, 0);
	actor_stop(&a0);
	actor_stop(&a1);
	actor_stop(&a2);
}

KTEST_SUITE(rtmutex,
	    KTEST_CASE(test_rt_mutex_uncontended_fast_path),
	    KTEST_CASE(test_rt_mutex_trylock),
	    KTEST_CASE(test_rt_mutex_pi_boost_and_deboost_on_unlock),
	    KTEST_CASE(test_rt_mutex_pi_chain_three_deep),
	    KTEST_CASE(test_rt_mutex_pi_unlock_order_differs_from_lock_order),
	    KTEST_CASE(test_rt_mutex_pi_deboost_on_timeout_and_signal),
	    KTEST_CASE(test_rt_mutex_lock_stealing_by_higher_prio_only),
	    KTEST_CASE(test_rt_mutex_base_prio_change_while_boosted),
	    KTEST_CASE(test_rt_mutex_blocked_prio_change_moves_boost),
	    KTEST_CASE(test_rt_mutex_deadlock_three_lock_cycle),
	    KTEST_CASE(test_rt_mutex_misuse_reports),
	    KTEST_CASE(test_rt_mutex_mutual_exclusion_on_every_cpu));
