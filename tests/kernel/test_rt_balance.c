/*
 * tests/kernel/test_rt_balance.c - the rt_balance suite: global RT
 * placement when the set of runnable RT tasks changes without a wakeup:
 * an RT task blocks (the CPU must pull, not idle) or a queued task's
 * priority rises (it must be pushed).  Issue 12, bug 1; the situations
 * are drawn at pull_rt_task() and prio_changed_rt() in kernel/sched/rt.c.
 *
 * Every test has the same frame: A (SCHED_FIFO 99, bound to CPU 0) is a
 * hog that spins, measured with ktime, until the task the test waits for
 * has run on CPU 1 or SPIN_BOUND_NS has passed, and records which came
 * first.  That task is queued on CPU 0 behind A while CPU 1 goes idle;
 * correct placement runs it on CPU 1 (or another idle CPU, with more than
 * two) within a reschedule, so A sees it run long before its bound.
 * Before the fix it ran only once A stopped.  The test task itself ("T",
 * FIFO 99) only sets up and waits on completions.  Needs two CPUs; runs
 * under every model (the rt_mutex's priority inheritance exists in all
 * of them).  The last test forces a race the fix opened (its diagram is
 * at double_lock_balance).
 * Linux counterpart: kernel/sched/rt.c balance_rt/pull_rt_task,
 * prio_changed_rt/switched_to_rt; rt-tests' pi_stress has the PI case.
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/sched/completion.h"
#include "kernel/version.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/debug/race_window.h"
#include "kernel/sched/rq.h"	/* pull_rt_unlocked, a test-only point */

/* SPIN_BOUND_NS - how long A spins at most.  A stops as soon as the
 * waiting task has run, so a correct kernel needs it only if the host
 * stalls the guest for this long; a broken one spins it all. */
#define SPIN_BOUND_NS (1LL * NSEC_PER_SEC)

/* A_PRIO - the hog on CPU 0.  FIFO 99, the softlockup watchdog's prio:
 * a FIFO 95 hog was preempted by watchdog/0 during its spin, and that
 * switch's push (finish_task_switch) rescued the waiting task by chance,
 * hiding the bug in some runs; an equal prio does not preempt. */
#define A_PRIO 99
#define H_PRIO 90	/* the task that blocks on CPU 1 */

static struct {
	struct task_struct *tester;	/* T: A waits until it is off CPU */
	struct task_struct *h;		/* (b): A boosts it */
	bool a_boosts;			/* (b): A raises h's prio itself */
	volatile bool setup_done;	/* (b): O is queued behind A */
	volatile bool ran;		/* the waited-for task ran */
	volatile bool a_done;		/* A's spin is over */
	bool a_saw_ran;			/* ran was set before A's bound */
	unsigned long w_migrations;	/* W's nr_migrations before its wake */
	unsigned long w_moves;		/* CPU changes from then to its run */
	s64 a_spun_ns;
	int ran_cpu, o_cpu;		/* where they ran */
} st;

static DEFINE_RT_MUTEX(bal_lock);
static struct completion a_started, a_finished, o_locked, o_go, o_done;
static struct completion b_release, waited_done;

static void reset_state(void)
{
	st = (typeof(st)){ .tester = current, .ran_cpu = -1, .o_cpu = -1 };
	init_completion(&a_started);
	init_completion(&a_finished);
	init_completion(&o_locked);
	init_completion(&o_go);
	init_completion(&o_done);
	init_completion(&b_release);
	init_completion(&waited_done);
}

/* mark_ran - the waited-for task runs: tell A, which is spinning. */
static void mark_ran(void)
{
	st.ran_cpu = raw_smp_processor_id();
	__atomic_store_n(&st.ran, true, __ATOMIC_RELEASE);
}

/* off_cpu - p has gone to sleep and left its CPU. */
static bool off_cpu(struct task_struct *p)
{
	return READ_ONCE(p->state) != TASK_RUNNING &&
	       !__atomic_load_n(&p->on_cpu, __ATOMIC_ACQUIRE);
}

/* sched_hog_a - A: spin on CPU 0 until the waited-for task ran or the
 * bound passed.  In test (b) it first waits until T and h are asleep
 * (CPU 1 idle) and then boosts h, so only the boost can move O. */
static int sched_hog_a(void *unused)
{
	struct sched_param sp = { .sched_priority = H_PRIO };
	ktime_t start;

	complete(&a_started);
	start = ktime_get();
	if (st.a_boosts) {
		while (!(READ_ONCE(st.setup_done) && off_cpu(st.tester) &&
			 off_cpu(st.h) && READ_ONCE(st.h->pi_blocked_on)) &&
		       ktime_get() - start < SPIN_BOUND_NS)
			arch_cpu_relax();
		sched_setscheduler(st.h, SCHED_FIFO, &sp);
	}
	while (!__atomic_load_n(&st.ran, __ATOMIC_ACQUIRE) &&
	       ktime_get() - start < SPIN_BOUND_NS)
		arch_cpu_relax();
	st.a_saw_ran = __atomic_load_n(&st.ran, __ATOMIC_ACQUIRE);
	st.a_spun_ns = ktime_get() - start;
	WRITE_ONCE(st.a_done, true);
	complete(&a_finished);
	return 0;
}

/* start_hog_a - T starts A on CPU 0 and waits until it spins. */
static struct task_struct *start_hog_a(void)
{
	struct task_struct *a = start_rt(sched_hog_a, NULL, SCHED_FIFO, A_PRIO,
					 0, "rtbal_A");

	if (a)
		wait_for_completion(&a_started);
	return a;
}

/* put_queued_behind_a - p was started bound to CPU 0 and is queued there
 * behind A (it cannot preempt it); now allow it everywhere. */
static void put_queued_behind_a(struct task_struct *p)
{
	set_cpus_allowed(p, (cpumask_t){ .bits = ~0ULL });
}

/* finish - wait for A and the waited-for task, drop the references. */
static void finish(struct task_struct **tasks, int n)
{
	int i;

	if (!wait_for_completion_timeout(&a_finished, SAFETY_NS +
					 SPIN_BOUND_NS))
		WRITE_ONCE(st.ran, true);
	wait_for_completion_timeout(&waited_done, SAFETY_NS);
	for (i = 0; i < n; i++)
		if (tasks[i]) {
			kthread_stop(tasks[i]);
			put_task_struct(tasks[i]);
		}
	me_restore();
}

static void expect_ran_while_a_spun(struct ktest *t, const char *who)
{
	KTEST_EXPECT(t, st.a_saw_ran,
		     "%s ran only after A (FIFO %d, CPU 0) stopped spinning "
		     "(A spun %ld ms, %s ran on CPU %d): CPU 1 idled while "
		     "it waited on CPU 0", who, A_PRIO,
		     (long)(st.a_spun_ns / NSEC_PER_MSEC), who, st.ran_cpu);
	KTEST_EXPECT(t, st.ran_cpu > 0, "%s ran on CPU %d, expected a CPU "
		     "other than A's CPU 0", who, st.ran_cpu);
}

static void need_two_cpus(struct ktest *t)
{
	if (num_online_cpus() < 2)
		ktest_skip(t, "needs two CPUs (one hog, one to balance to)");
}

/* need_kernel_preemption - the push tests have Y preempt X, a kernel
 * task spinning with no preemption point: only the preemptible models
 * (desktop, rt) switch there; under none and voluntary Y waits. */
static void need_kernel_preemption(struct ktest *t)
{
#if defined(CONFIG_PREEMPT_NONE) || defined(CONFIG_PREEMPT_VOLUNTARY)
	ktest_skip(t, "Y must preempt a spinning kernel task: PREEMPT_"
		   RTK_PREEMPT_NAME " does not");
#else
	(void)t;
#endif
}

/* ---- the PI case: the boosted owner must be pulled ---------------- */

/* lock_owner_o - O (SCHED_OTHER): take the lock, sleep until T has put
 * it on CPU 0 behind A, then release it. */
static int lock_owner_o(void *unused)
{
	rt_mutex_lock(&bal_lock);
	complete(&o_locked);
	wait_for_completion(&o_go);
	st.o_cpu = raw_smp_processor_id();
	rt_mutex_unlock(&bal_lock);
	complete(&o_done);
	return 0;
}

/* lock_waiter_h - H: take the lock (boosting O), note it got it. */
static int lock_waiter_h(void *unused)
{
	rt_mutex_lock(&bal_lock);
	mark_ran();
	rt_mutex_unlock(&bal_lock);
	complete(&waited_done);
	return 0;
}

/* start_owner_behind_a - O locks bal_lock on CPU 0, then A spins there
 * and O is woken behind it and allowed on every CPU. */
static struct task_struct *start_owner_behind_a(struct task_struct **a)
{
	struct task_struct *o = start_rt(lock_owner_o, NULL, SCHED_OTHER, 0, 0,
					 "rtbal_O");

	if (!o)
		return NULL;
	wait_for_completion(&o_locked);
	*a = start_hog_a();
	complete(&o_go);	/* O is bound to CPU 0: queued behind A */
	put_queued_behind_a(o);
	return o;
}

/*
 * Scenario (issue 12, bug 1; the diagram at pull_rt_task): O
 * (SCHED_OTHER, all CPUs) holds bal_lock and is queued on CPU 0 behind
 * A (FIFO 99, CPU 0, spinning); H (FIFO 90, CPU 1) locks bal_lock.  O is
 * boosted to 90 and H blocks: CPU 1 has nothing else to run, so it must
 * pull O, which releases the lock; observable: H got the lock while A
 * was still spinning, on CPU 1.  Before the fix CPU 1 counted H's own
 * prio as its best and idled until A was done.
 */
static void test_pi_boosted_owner_pulled_to_idle_cpu(struct ktest *t)
{
	struct task_struct *tasks[3] = { NULL };

	need_two_cpus(t);
	reset_state();
	me_rt(99, 1);
	tasks[0] = start_owner_behind_a(&tasks[1]);
	tasks[2] = start_rt(lock_waiter_h, NULL, SCHED_FIFO, H_PRIO, 1,
			    "rtbal_H");
	finish(tasks, 3);	/* T sleeps: H runs on CPU 1 */
	KTEST_ASSERT(t, tasks[0] && tasks[1] && tasks[2], "kthread_create");
	wait_for_completion_timeout(&o_done, SAFETY_NS);
	expect_ran_while_a_spun(t, "H (lock waiter)");
	KTEST_EXPECT(t, st.o_cpu > 0, "O released the lock on CPU %d, "
		     "expected a CPU other than A's CPU 0", st.o_cpu);
}

/*
 * Scenario (the diagram at prio_changed_rt): O (SCHED_OTHER, all CPUs)
 * holds bal_lock, queued on CPU 0 behind A (FIFO 99, spinning); H
 * (SCHED_OTHER, CPU 1) is blocked on bal_lock and T sleeps, so CPU 1 is
 * idle and no schedule() will run there.  A itself then makes H FIFO 90:
 * the priority walk boosts O to 90, queued, not running.  Only a push at
 * that priority change can move O to CPU 1; observable: H got the lock
 * while A still spun.  Before the fix O waited for A to finish.
 */
static void test_setprio_pushes_boosted_queued_owner(struct ktest *t)
{
	struct task_struct *tasks[3] = { NULL };

	need_two_cpus(t);
	reset_state();
	st.a_boosts = true;
	me_rt(99, 1);
	tasks[0] = start_rt(lock_owner_o, NULL, SCHED_OTHER, 0, 0, "rtbal_O");
	if (tasks[0])
		wait_for_completion(&o_locked);
	st.h = tasks[2] = start_rt(lock_waiter_h, NULL, SCHED_OTHER, 0, 1,
				   "rtbal_H");
	KTEST_ASSERT(t, tasks[0] && tasks[2], "kthread_create");
	tasks[1] = start_hog_a();	/* then waits for T and H asleep */
	complete(&o_go);
	put_queued_behind_a(tasks[0]);
	WRITE_ONCE(st.setup_done, true);
	finish(tasks, 3);
	wait_for_completion_timeout(&o_done, SAFETY_NS);
	expect_ran_while_a_spun(t, "H (lock waiter, boosted by A)");
	KTEST_EXPECT(t, st.o_cpu > 0, "O released the lock on CPU %d, "
		     "expected a CPU other than A's CPU 0", st.o_cpu);
}

/* ---- no PI: an RT task blocks, an equal or lower one waits -------- */

/* blocker_b - B (FIFO 90, CPU 1): runs once and blocks. */
static int blocker_b(void *unused)
{
	wait_for_completion(&b_release);
	return 0;
}

static int waiter_e(void *unused)
{
	mark_ran();
	complete(&waited_done);
	return 0;
}

/*
 * Scenario: A (FIFO 99, CPU 0) spins; E (FIFO e_prio, all CPUs) is
 * queued on CPU 0 behind it; B (FIFO 90, CPU 1) runs once T sleeps and
 * then blocks.  CPU 1 must pull E instead of idling; observable: E ran
 * on CPU 1 while A still spun.  Before the fix CPU 1 pulled only a task
 * strictly better than B, the blocker.
 */
static void run_blocker_scenario(struct ktest *t, int e_prio)
{
	struct task_struct *tasks[3] = { NULL };

	need_two_cpus(t);
	reset_state();
	me_rt(99, 1);
	tasks[0] = start_hog_a();
	tasks[1] = start_rt(waiter_e, NULL, SCHED_FIFO, e_prio, 0, "rtbal_E");
	if (tasks[1])
		put_queued_behind_a(tasks[1]);
	tasks[2] = start_rt(blocker_b, NULL, SCHED_FIFO, H_PRIO, 1,
			    "rtbal_B");
	finish(tasks, 2);	/* T sleeps: B runs on CPU 1 and blocks */
	complete(&b_release);
	if (tasks[2]) {
		kthread_stop(tasks[2]);
		put_task_struct(tasks[2]);
	}
	KTEST_ASSERT(t, tasks[0] && tasks[1] && tasks[2], "kthread_create");
	expect_ran_while_a_spun(t, "E (queued behind A)");
}

static void test_rt_blocker_pulls_equal_prio_task(struct ktest *t)
{
	run_blocker_scenario(t, H_PRIO);
}

static void test_rt_blocker_pulls_lower_prio_task(struct ktest *t)
{
	run_blocker_scenario(t, H_PRIO - 10);
}

/* ---- the race-window tests: a task that runs until T lets it go --- */

static struct completion racer_done, y_ran;
static int racer_cpu_after = -1;
static volatile bool racer_running, racer_go;

/* racer - P of the pull test, X of the push test: spin until T lets it
 * go (yielding once then if yield, so P's pull parks in the window),
 * then note where it runs. */
static int racer(void *yield)
{
	WRITE_ONCE(racer_running, true);
	while (!READ_ONCE(racer_go))
		arch_cpu_relax();
	if (yield)
		sched_yield();
	racer_cpu_after = raw_smp_processor_id();
	complete(&racer_done);
	return 0;
}

static void racer_reset(void)
{
	init_completion(&racer_done);
	init_completion(&y_ran);
	racer_cpu_after = -1;
	racer_running = racer_go = false;
}

/* racer_wait_running - T waits until the woken racer runs. */
static void racer_wait_running(void)
{
	ktime_t deadline = ktime_get() + SAFETY_NS;	/* a hang net only */

	while (!READ_ONCE(racer_running) && ktime_get() < deadline)
		arch_cpu_relax();
}

/* ---- pull_rt_task drops rq->lock: an affinity change meanwhile ---- */

static int queued_x(void *unused)
{
	return 0;
}

/*
 * Scenario (the diagram at double_lock_balance in kernel/sched/rt.c):
 * T (FIFO 99) runs on CPU 0 with X (FIFO 50) queued behind it.  P
 * (SCHED_OTHER) starts on CPU 1 and spins; T then allows X on CPUs 0
 * and 1, so CPU 0 has a pushable task (a task bound to CPU 0 is not
 * one: rt_pushable), and a pull from CPU 1 must drop CPU 1's lock.
 * X is widened only now: woken so, it would have gone to CPU 1, or been
 * pulled by CPU 1's idle before P ran.  P yields; its __schedule parks
 * in that window (pull_rt_unlocked) and pulls X.  T then allows P on
 * CPU 0 only and lets it go on.  Observable: after its yield P runs on
 * CPU 0.  Testing P's affinity before the pull (as __schedule did) left
 * P on CPU 1 with its resched flag cleared.
 */
static void test_affinity_change_while_pull_unlocked(struct ktest *t)
{
	struct task_struct *p, *x;
	bool parked;

	need_two_cpus(t);
	racer_reset();
	me_rt(99, 0);
	x = create_fifo(queued_x, NULL, 50, one_cpu(0), "rtbal_X");
	p = kthread_create(racer, (void *)1, "rtbal_P");
	KTEST_ASSERT(t, p && x, "kthread_create");
	wake_up_process(x);
	set_cpus_allowed(p, one_cpu(1));
	get_task_struct(p);
	race_window_arm(&pull_rt_unlocked, p);
	wake_up_process(p);
	racer_wait_running();
	set_cpus_allowed(x, (cpumask_t){ .bits = 0x3 });
	WRITE_ONCE(racer_go, true);
	parked = race_window_wait_parked(&pull_rt_unlocked, SAFETY_NS);
	set_cpus_allowed(p, one_cpu(0));
	race_window_release(&pull_rt_unlocked);
	me_restore();		/* T sleeps on CPU 0: X, then P run there */
	wait_for_completion_timeout(&racer_done, SAFETY_NS);
	kthread_stop(x);
	put_task_struct(x);
	kthread_stop(p);
	put_task_struct(p);
	KTEST_EXPECT(t, parked, "P never reached pull_rt_task's unlocked "
		     "window");
	KTEST_EXPECT(t, racer_cpu_after == 0, "P ran on CPU %d after its "
		     "affinity became {CPU 0} during its pull (expected 0)",
		     racer_cpu_after);
}

/* ---- push_rt_tasks drops rq->lock: an affinity change meanwhile --- */

static volatile bool l_stop;	/* T: L and a holding Y may stop */

/* preempter_y - Y (FIFO 99, bound to CPU 0): its first switch in pushes
 * the X it preempted (and may park in push_rt_unlocked); when its body
 * runs, that push is over.  With hold it keeps CPU 0 until T says stop,
 * so CPU 0 cannot pull X back meanwhile. */
static int preempter_y(void *hold)
{
	ktime_t deadline = ktime_get() + SAFETY_NS;	/* a hang net only */

	complete(&y_ran);
	while (hold && !__atomic_load_n(&l_stop, __ATOMIC_ACQUIRE) &&
	       ktime_get() < deadline)
		arch_cpu_relax();
	return 0;
}

/*
 * Scenario (the diagram at push_rt_tasks in kernel/sched/rt.c): T (FIFO
 * 99) runs on CPU 2; X (FIFO 50) runs on CPU 0 and is then allowed on
 * CPUs 0 and 1; CPU 1 is idle.  T wakes Y (FIFO 99, bound to CPU 0): Y
 * preempts X, and the push after that switch (finish_task_switch, in
 * Y) chooses CPU 1 for X and parks in the unlocked window.  T allows X
 * on CPU 0 only and lets Y go on.  Observable: X runs on CPU 0 again.
 * A push that does not test the task again under both run-queue locks
 * moves X to CPU 1, which its mask forbids.
 */
static void test_push_rechecks_affinity_under_both_locks(struct ktest *t)
{
	struct sched_param sp = { .sched_priority = 99 };
	struct task_struct *x, *y;
	bool parked;

	if (num_online_cpus() < 3)
		ktest_skip(t, "needs three CPUs (X's, the idle target, T's)");
	need_kernel_preemption(t);
	racer_reset();
	me_rt(99, 2);
	x = create_fifo(racer, NULL, 50, one_cpu(0), "rtbal_X");
	y = kthread_create(preempter_y, NULL, "rtbal_Y");
	KTEST_ASSERT(t, x && y, "kthread_create");
	kthread_bind(y, 0);
	sched_setscheduler(y, SCHED_FIFO, &sp);
	get_task_struct(y);
	wake_up_process(x);
	racer_wait_running();
	/* X runs: widened now it cannot move, it is pushable once queued */
	set_cpus_allowed(x, (cpumask_t){ .bits = 0x3 });
	race_window_arm(&push_rt_unlocked, y);
	wake_up_process(y);
	parked = race_window_wait_parked(&push_rt_unlocked, SAFETY_NS);
	if (!parked)
		race_window_disarm(&push_rt_unlocked);
	set_cpus_allowed(x, one_cpu(0));
	race_window_release(&push_rt_unlocked);
	WRITE_ONCE(racer_go, true);
	wait_for_completion_timeout(&racer_done, SAFETY_NS);
	kthread_stop(x);
	put_task_struct(x);
	kthread_stop(y);
	put_task_struct(y);
	me_restore();
	KTEST_EXPECT(t, parked, "Y's push of X never reached push_rt_tasks' "
		     "unlocked window (X ran on CPU %d)", racer_cpu_after);
	KTEST_EXPECT(t, racer_cpu_after == 0, "X ran on CPU %d after its "
		     "affinity became {CPU 0} while a push had chosen CPU 1 "
		     "for it (expected 0: the push must test the mask again "
		     "under both run-queue locks)", racer_cpu_after);
}

/* ---- push_rt_tasks reschedules the CPU it pushed to --------------- */

static struct completion l_done;
static volatile bool l_spinning;
static bool l_flag_at_start, l_saw_resched;
static struct task_struct *l_x;		/* X, for L's note of its CPU */
static int l_x_cpu;			/* X's CPU when L left its spin */

/* low_l - L (FIFO 10, CPU 1): spin with interrupts off until CPU 1 is
 * asked to reschedule or T says stop.  With interrupts off no tick, IPI
 * or schedule() runs on CPU 1: only a remote resched_curr(rq1) can set
 * the flag, and nothing here can clear it. */
static int low_l(void *unused)
{
	ktime_t deadline = ktime_get() + SAFETY_NS;	/* a hang net only */
	unsigned long flags;

	raw_local_irq_save(flags);
	l_flag_at_start = need_resched();
	WRITE_ONCE(l_spinning, true);
	while (!need_resched() && !__atomic_load_n(&l_stop, __ATOMIC_ACQUIRE) &&
	       ktime_get() < deadline)
		arch_cpu_relax();
	l_saw_resched = need_resched();
	l_x_cpu = READ_ONCE(l_x->cpu);
	raw_local_irq_restore(flags);
	complete(&l_done);
	return 0;
}

/*
 * Scenario (article, "Miscellaneous": a preempted RT task goes to the CPU
 * running the least important task, which must then run it): T (FIFO
 * 99) runs on CPU 2.  L (FIFO 10, bound to CPU 1) spins there with
 * interrupts off.  X (FIFO 50) runs on CPU 0 and is then allowed on CPUs
 * 0 and 1.  T wakes Y (FIFO 99, bound to CPU 0): Y preempts X, and the
 * push after that switch (finish_task_switch, in Y) moves X to CPU 1,
 * where it beats L; Y then spins until T is done, so CPU 0 cannot pull
 * X back.  Observable once Y's body runs (the push is over): X is
 * queued on CPU 1 and L, still spinning, sees its reschedule
 * request (TIF_NEED_RESCHED; the IPI waits for L's interrupts).  With
 * interrupts off on CPU 1 no tick can make that request instead: a push
 * that moves X without resched_curr(dst) leaves X behind L until CPU 1
 * happens to schedule.  Needs three CPUs.
 */
static void test_push_reschedules_the_cpu_it_pushed_to(struct ktest *t)
{
	struct sched_param sp = { .sched_priority = 99 };
	struct task_struct *l, *x, *y;
	ktime_t deadline;
	bool pushed;
	int x_cpu;

	if (num_online_cpus() < 3)
		ktest_skip(t, "needs three CPUs (X's, L's, T's)");
	need_kernel_preemption(t);
	racer_reset();
	init_completion(&l_done);
	l_spinning = l_stop = l_flag_at_start = l_saw_resched = false;
	me_rt(99, 2);
	/* every task exists before L closes CPU 1: a creation might need it */
	x = create_fifo(racer, NULL, 50, one_cpu(0), "rtbal_X");
	l = create_fifo(low_l, NULL, 10, one_cpu(1), "rtbal_L");
	y = kthread_create(preempter_y, (void *)1, "rtbal_Y");
	KTEST_ASSERT(t, x && l && y, "kthread_create");
	kthread_bind(y, 0);
	sched_setscheduler(y, SCHED_FIFO, &sp);
	get_task_struct(y);
	l_x = x;
	l_x_cpu = -1;
	wake_up_process(l);
	deadline = ktime_get() + SAFETY_NS;		/* a hang net only */
	while (!READ_ONCE(l_spinning) && ktime_get() < deadline)
		arch_cpu_relax();
	wake_up_process(x);
	racer_wait_running();
	/* X runs: widened now it cannot move, it is pushable once queued */
	set_cpus_allowed(x, (cpumask_t){ .bits = 0x3 });
	wake_up_process(y);
	pushed = wait_for_completion_timeout(&y_ran, SAFETY_NS) > 0;
	x_cpu = READ_ONCE(x->cpu);
	__atomic_store_n(&l_stop, true, __ATOMIC_RELEASE);
	wait_for_completion_timeout(&l_done, SAFETY_NS);
	WRITE_ONCE(racer_go, true);
	wait_for_completion_timeout(&racer_done, SAFETY_NS);
	kthread_stop(x);
	put_task_struct(x);
	kthread_stop(l);
	put_task_struct(l);
	kthread_stop(y);
	put_task_struct(y);
	me_restore();
	KTEST_EXPECT(t, pushed && READ_ONCE(l_spinning), "Y (ran: %d) or L "
		     "(spinning: %d) never got going", pushed, l_spinning);
	KTEST_EXPECT(t, !l_flag_at_start, "CPU 1 had a reschedule request "
		     "before the push: the test cannot tell who made it");
	KTEST_EXPECT(t, x_cpu == 1, "X was on CPU %d after Y's push (on CPU "
		     "%d when L stopped spinning), expected 1 (the CPU running "
		     "L, FIFO 10)", x_cpu, l_x_cpu);
	KTEST_EXPECT(t, l_saw_resched, "the push moved X (FIFO 50) to CPU 1 "
		     "but L (FIFO 10) running there saw no reschedule request "
		     "(expected resched_curr of the destination): X waited "
		     "behind L");
}

/* ---- the wakeup case: select_rt_cpu places the woken task --------- */

static int woken_w(void *unused)
{
	st.w_moves = READ_ONCE(current->nr_migrations) - st.w_migrations;
	mark_ran();
	complete(&waited_done);
	return 0;
}

/* run_wakeup_scenario - the frame of the wakeup tests: W (FIFO 50, last
 * CPU 0, then allowed on mask) is woken from CPU 1 while A spins on CPU
 * 0; W must run, as who, while A still spins. */
static void run_wakeup_scenario(struct ktest *t, cpumask_t mask,
				const char *who)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct task_struct *tasks[2];
	ktime_t start;

	reset_state();
	me_rt(A_PRIO, 1);
	tasks[1] = kthread_create(woken_w, NULL, "rtbal_W");
	KTEST_ASSERT(t, tasks[1] != NULL, "kthread_create failed");
	kthread_bind(tasks[1], 0);
	sched_setscheduler(tasks[1], SCHED_FIFO, &sp);
	get_task_struct(tasks[1]);
	/* asleep: only its mask changes, its last CPU stays 0 */
	set_cpus_allowed(tasks[1], mask);
	tasks[0] = start_hog_a();
	st.w_migrations = READ_ONCE(tasks[1]->nr_migrations);
	wake_up_process(tasks[1]);
	start = ktime_get();
	while (!__atomic_load_n(&st.ran, __ATOMIC_ACQUIRE) &&
	       ktime_get() - start < SPIN_BOUND_NS)
		arch_cpu_relax();
	finish(tasks, 2);
	expect_ran_while_a_spun(t, who);
}

/*
 * Scenario (article, "Miscellaneous"; kernel/sched/rt.c select_rt_cpu):
 * W (FIFO 50, last CPU 0, allowed everywhere) sleeps; A (FIFO 99) spins
 * on CPU 0 and T (FIFO 99) wakes W from CPU 1 and then spins there too,
 * bounded like A.  W cannot preempt A on its last CPU, so the wakeup
 * must put it on the idle CPU 2 (or 3) and reschedule that CPU;
 * observable: W ran while A still spun, on a CPU other than 0.  Nothing
 * else would move W: no switch happens on CPU 0 or 1 (no push, no pull)
 * and an idle CPU that is not sent the reschedule IPI sleeps on.
 */
static void test_woken_rt_task_placed_on_an_idle_cpu(struct ktest *t)
{
	if (num_online_cpus() < 3)
		ktest_skip(t, "needs three CPUs (the hog, the waker, an idle one)");
	run_wakeup_scenario(t, (cpumask_t){ .bits = ~0ULL },
			    "W (woken, FIFO 50)");
}

/*
 * Scenario: as the test above, but W (FIFO 50, last CPU 0) may run on
 * CPU 0 and the last CPU N-1 only, and CPUs 2..N-1 are all idle.  The
 * wakeup must put W on CPU N-1; observable: W ran there while A spun.
 * A select_rt_cpu that ignores W's mask picks CPU 2, the first of the
 * equally idle CPUs, which select_task_rq's fallback replaces by W's
 * last CPU 0: W then waits behind A.
 */
static void test_woken_rt_task_placed_on_an_allowed_idle_cpu(struct ktest *t)
{
	int last = num_online_cpus() - 1;

	if (num_online_cpus() < 4)
		ktest_skip(t, "needs four CPUs (the hog, the waker, an idle one "
			   "W may not use, one it may)");
	run_wakeup_scenario(t, (cpumask_t){ .bits = 1ULL | 1ULL << last },
			    "W (woken, FIFO 50, CPUs 0 and N-1)");
	KTEST_EXPECT(t, st.ran_cpu == last, "W ran on CPU %d, expected %d, "
		     "the one idle CPU its mask allows", st.ran_cpu, last);
}

/*
 * Scenario (article, "Miscellaneous": the wake-up puts W on the CPU
 * running the least important task among those it may use): as above,
 * but W (FIFO 50, last CPU 0) may run on CPU 1 (T, FIFO 99, spinning)
 * and CPU N-1 only; CPUs 2..N-1 are idle.  Observable in W when it runs:
 * it runs on CPU N-1, and its wake-up moved it once (nr_migrations + 1:
 * CPU 0 -> N-1).  A select_rt_cpu that ignores W's mask picks CPU 2,
 * which select_task_rq's fallback replaces by the first allowed CPU 1:
 * W is queued behind T there and the push after the wake-up
 * (task_woken_rt) carries it on to N-1, two moves; that push hides the
 * wrong choice from where and when W runs.
 */
static void test_woken_rt_task_moved_once_to_allowed_idle_cpu(struct ktest *t)
{
	int last = num_online_cpus() - 1;

	if (num_online_cpus() < 4)
		ktest_skip(t, "needs four CPUs (the hog, the waker, an idle one "
			   "W may not use, one it may)");
	run_wakeup_scenario(t, (cpumask_t){ .bits = 1ULL << 1 | 1ULL << last },
			    "W (woken, FIFO 50, CPUs 1 and N-1)");
	KTEST_EXPECT(t, st.ran_cpu == last, "W ran on CPU %d, expected %d, "
		     "the one idle CPU its mask allows", st.ran_cpu, last);
	KTEST_EXPECT(t, st.w_moves == 1, "W's wake-up moved it %lu times, "
		     "expected 1 (CPU 0 straight to CPU %d): the wake-up chose "
		     "a CPU W was then pushed from", st.w_moves, last);
}

KTEST_SUITE(rt_balance,
	    KTEST_CASE(test_pi_boosted_owner_pulled_to_idle_cpu),
	    KTEST_CASE(test_setprio_pushes_boosted_queued_owner),
	    KTEST_CASE(test_rt_blocker_pulls_equal_prio_task),
	    KTEST_CASE(test_rt_blocker_pulls_lower_prio_task),
	    KTEST_CASE(test_affinity_change_while_pull_unlocked),
	    KTEST_CASE(test_push_rechecks_affinity_under_both_locks),
	    KTEST_CASE(test_push_reschedules_the_cpu_it_pushed_to),
	    KTEST_CASE(test_woken_rt_task_placed_on_an_idle_cpu),
	    KTEST_CASE(test_woken_rt_task_placed_on_an_allowed_idle_cpu),
	    KTEST_CASE(test_woken_rt_task_moved_once_to_allowed_idle_cpu));
