/*
 * tests/kernel/test_rt_wake_push.c - the rt_wake_push suite: a woken RT
 * task whose chosen CPU was taken meanwhile is pushed at once (issue 28
 * item 6; Linux's task_woken_rt -> push_rt_tasks).
 *
 * try_to_wake_up chooses the CPU (select_task_rq, from lockless reads
 * of every CPU's priority) before it locks that CPU's queue; in between
 * a more important task can start there:
 *
 *	K (CPU0, FIFO 10)                 CPU1
 *	wake_up_process(P, FIFO 20):
 *	  select_rt_cpu: CPU1 is idle,
 *	  P's last CPU: CPU1
 *	                                  H (FIFO 50) wakes and runs
 *	  lock rq1, enqueue P:
 *	  P does not preempt H
 *	K spins on (FIFO 10 < P)          H spins on
 *
 * P waits on CPU1 while CPU0 runs the less important K: nothing moves
 * it until CPU0 or CPU1 schedules (a pull there) -- for as long as K
 * and H run.  The fix: after the enqueue, a woken RT task that could
 * not preempt its CPU's task is pushed (push_rt_tasks), which moves it
 * to CPU0 and reschedules K.
 *
 * Scenario: P (FIFO 20, last CPU 1, allowed on CPUs 0 and 1) sleeps.
 * K (FIFO 10, bound to CPU 0) wakes P and parks in the window right
 * after the choice (ttwu_cpu_selected), which says CPU 1.  The test,
 * on CPU 1, then wakes H (FIFO 50, bound to CPU 1); H releases K and
 * spins.  K finishes the wake-up and spins with cond_resched() (so the
 * non-preemptible models switch at the push's reschedule too).  Both
 * spin until P has run or SPIN_BOUND_NS passed.  Observable: P ran
 * while K and H still spun.  Before the fix, P ran only when one of
 * them stopped at the bound.  Needs two CPUs; with more, P may go to an
 * idle one, which is as good.
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/sched/completion.h"
#include "kernel/debug/race_window.h"
#include "kernel/sched/rq.h"	/* ttwu_cpu_selected, a test-only point */
#include "lib/string.h"

/* How long K and H spin at most: P runs within a reschedule when the
 * push works, so only a host that stalls the guest this long needs it. */
#define SPIN_BOUND_NS (1LL * NSEC_PER_SEC)

static struct {
	struct task_struct *p, *h;
	volatile bool p_ran;
	int p_cpu;
	bool k_saw_ran, h_saw_ran;	/* P ran before their bound */
	bool parked;			/* K parked after the choice */
	struct completion p_done, k_done, h_done;
} ws;

/* spin_until_p_ran - spin (with cond_resched if asked) until P ran or
 * the bound passed; true if P ran first. */
static bool spin_until_p_ran(bool resched)
{
	ktime_t start = ktime_get();

	while (!__atomic_load_n(&ws.p_ran, __ATOMIC_ACQUIRE)) {
		if (ktime_get() - start > SPIN_BOUND_NS)
			return false;
		if (resched)
			_cond_resched();	/* every model: a loop that yields */
		arch_cpu_relax();
	}
	return true;
}

static int wake_push_p(void *unused)
{
	/* run once on CPU 1, then sleep: CPU 1 is P's last CPU */
	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule();
	ws.p_cpu = raw_smp_processor_id();
	__atomic_store_n(&ws.p_ran, true, __ATOMIC_RELEASE);
	complete(&ws.p_done);
	return 0;
}

/* wait_sleeping - until p is asleep and off its CPU; false after
 * SAFETY_NS.  Context: task; schedules meanwhile. */
static bool wait_sleeping(struct task_struct *p)
{
	ktime_t end = ktime_get() + SAFETY_NS;

	while (ktime_get() < end) {
		if (READ_ONCE(p->state) != TASK_RUNNING &&
		    !__atomic_load_n(&p->on_cpu, __ATOMIC_ACQUIRE) &&
		    !READ_ONCE(p->on_rq))
			return true;
		schedule();
	}
	return false;
}

static int wake_push_k(void *unused)
{
	wake_up_process(ws.p);		/* parks after select_task_rq */
	ws.k_saw_ran = spin_until_p_ran(true);
	complete(&ws.k_done);
	return 0;
}

static int wake_push_h(void *unused)
{
	race_window_release(&ttwu_cpu_selected);
	ws.h_saw_ran = spin_until_p_ran(false);
	complete(&ws.h_done);
	return 0;
}

static void test_woken_rt_task_pushed_when_its_cpu_was_taken(struct ktest *t)
{
	struct task_struct *k;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs two CPUs (the waker's and the taken one)");
	memset(&ws, 0, sizeof(ws));
	ws.p_cpu = -1;
	init_completion(&ws.p_done);
	init_completion(&ws.k_done);
	init_completion(&ws.h_done);
	me_rt(1, 1);	/* the test on CPU 1, below every task of the case */
	ws.p = create_fifo(wake_push_p, NULL, 20, one_cpu(1), "wpush_P");
	ws.h = create_fifo(wake_push_h, NULL, 50, one_cpu(1), "wpush_H");
	k = create_fifo(wake_push_k, NULL, 10, one_cpu(0), "wpush_K");
	KTEST_ASSERT(t, ws.p && ws.h && k, "kthread_create failed");
	wake_up_process(ws.p);	/* preempts the test, runs, sleeps */
	KTEST_ASSERT(t, wait_sleeping(ws.p), "P did not go to sleep");
	/* P asleep with last CPU 1: widening its mask does not move it */
	set_cpus_allowed(ws.p, (cpumask_t){ .bits = 0x3 });
	ws.parked = race_window_run_until_parked(&ttwu_cpu_selected, k,
						 SAFETY_NS);
	/* parked: K chose P's last CPU, 1, where P beats the test */
	wake_up_process(ws.h);	/* preempts the test on CPU 1 */
	wait_for_completion_timeout(&ws.k_done, SAFETY_NS + SPIN_BOUND_NS);
	wait_for_completion_timeout(&ws.h_done, SAFETY_NS + SPIN_BOUND_NS);
	wait_for_completion_timeout(&ws.p_done, SAFETY_NS);
	me_restore();
	kthread_stop(k);
	put_task_struct(k);
	kthread_stop(ws.h);
	put_task_struct(ws.h);
	kthread_stop(ws.p);
	put_task_struct(ws.p);
	KTEST_ASSERT(t, ws.parked, "K never parked after select_task_rq");
	KTEST_EXPECT(t, ws.k_saw_ran && ws.h_saw_ran,
		     "P (FIFO 20) waited behind H (FIFO 50) on CPU 1 while K "
		     "(FIFO 10) ran on CPU 0: K saw it run %s, H %s (expected "
		     "both before their %lld ms bound); P ran on CPU %d",
		     ws.k_saw_ran ? "in time" : "only after the bound",
		     ws.h_saw_ran ? "in time" : "only after the bound",
		     SPIN_BOUND_NS / NSEC_PER_MSEC, ws.p_cpu);
	KTEST_EXPECT(t, ws.p_cpu != 1 || !ws.h_saw_ran,
		     "P ran on CPU 1 while H spun there");
}

KTEST_SUITE(rt_wake_push,
	    KTEST_CASE(test_woken_rt_task_pushed_when_its_cpu_was_taken));
