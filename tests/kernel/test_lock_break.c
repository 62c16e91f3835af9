/*
 * tests/kernel/test_lock_break.c - lock breaking: cond_resched_lock() and
 * spin_needbreak() (kernel/locking/lock_break.h; article, "Priority
 * inheritance": a lock held for an extended period gets "preemption
 * points" so that its holder drops it when another task needs it, as in
 * the JBD journaling layer).
 *
 * A holder H runs a loop of LB_STEPS steps under one spinlock_t and
 * publishes the step it is at; a waiter W takes the lock and records the
 * step it saw.  W got the lock "while the loop was still running" iff
 * that step is < LB_STEPS.  Each case runs the loop with the points
 * (cond_resched_lock() every step) and without, and asserts what the
 * model it was built for must show.  No case measures a time: the
 * observable is the step, and ktime only bounds a hang.
 */
#include "kernel/ktest.h"
#include "kernel/locking/lock_break.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/debug/race_window.h"
#include "kernel/mm/slab.h"
#include "tests/kernel/sched_helpers.h"
#include "lib/string.h"

#define LB_STEPS 2000		/* long enough to have a middle */
#define LB_BREAK_AT 100		/* the step at which W is brought in */
#define LB_STEP_SPINS 200	/* a step's work: a few µs under TCG */
#define H_PRIO 10
#define W_PRIO 20		/* W outranks H: no lock stealing by H */

struct lb_run {
	spinlock_t lock;
	bool points;		/* H calls cond_resched_lock() every step */
	bool same_cpu;		/* H wakes W at LB_BREAK_AT (else W spins in) */
	struct task_struct *w;
	int step;		/* H's step; LB_STEPS once the loop is done */
	int ran_at;		/* step when W first ran */
	int got_at;		/* step when W got the lock */
	int breaks;		/* cond_resched_lock() calls that returned 1 */
	bool needbreak_seen;	/* spin_needbreak() with W queued */
	bool hung;		/* H gave up waiting for W to queue */
	struct completion h_done, w_done;
};

static struct lb_run lb;

/* waiter_queued - W sleeps (rt) or spins (other models) on the lock:
 * the model-independent fact spin_needbreak() interprets per model. */
static bool waiter_queued(spinlock_t *lock)
{
#if SPINLOCK_SLEEPS
	return rt_mutex_has_waiters(&lock->lock);
#else
	return raw_spin_is_contended(&lock->rlock);
#endif
}

/* one step of work the loop does under the lock (no clock: TCG-proof) */
static void lb_step_work(void)
{
	for (int i = 0; i < LB_STEP_SPINS; i++)
		arch_cpu_relax();
}

static int holder_fn(void *arg)
{
	struct lb_run *r = arg;
	ktime_t net;

	spin_lock(&r->lock);
	for (int i = 0; i < LB_STEPS; i++) {
		WRITE_ONCE(r->step, i);
		if (i == LB_BREAK_AT)
			wake_up_process(r->w);
		if (i == LB_BREAK_AT && !r->same_cpu) {
			net = ktime_get() + SAFETY_NS;
			while (!waiter_queued(&r->lock) && !r->hung)
				r->hung = ktime_get() > net;
			r->needbreak_seen = spin_needbreak(&r->lock);
		}
		lb_step_work();
		if (r->points)
			r->breaks += cond_resched_lock(&r->lock);
	}
	WRITE_ONCE(r->step, LB_STEPS);
	spin_unlock(&r->lock);
	complete(&r->h_done);
	return 0;
}

static int waiter_fn(void *arg)
{
	struct lb_run *r = arg;

	/* H woke us at step LB_BREAK_AT, holding the lock.  (W used to be
	 * woken at once and spin for H's step under a 5 s net: on a starved
	 * host with SMP=4 the net ran out before H took the lock, and W got
	 * it at step 0: 'points=1: hung (H step 100, W got 0)', voluntary
	 * SMP=4.) */
	r->ran_at = READ_ONCE(r->step);
	spin_lock(&r->lock);
	r->got_at = READ_ONCE(r->step);
	spin_unlock(&r->lock);
	complete(&r->w_done);
	return 0;
}

/* lb_run_once - H on cpu_h, W on cpu_w; H wakes W at step LB_BREAK_AT.
 * Returns false (and fails t) if a thread hung. */
static bool lb_run_once(struct ktest *t, bool points, int cpu_h, int cpu_w)
{
	struct task_struct *h;
	bool ok = true;

	memset(&lb, 0, sizeof(lb));
	spin_lock_init(&lb.lock);
	init_completion(&lb.h_done);
	init_completion(&lb.w_done);
	lb.points = points;
	lb.same_cpu = cpu_h == cpu_w;
	lb.ran_at = lb.got_at = -1;
	lb.w = create_fifo(waiter_fn, &lb, W_PRIO, one_cpu(cpu_w), "lb_w");
	KTEST_ASSERT(t, lb.w, "cannot create the waiter");
	h = start_rt(holder_fn, &lb, SCHED_FIFO, H_PRIO, cpu_h, "lb_h");
	KTEST_ASSERT(t, h, "cannot create the holder");
	if (!wait_for_completion_timeout(&lb.h_done, SAFETY_NS) ||
	    !wait_for_completion_timeout(&lb.w_done, SAFETY_NS) || lb.hung) {
		KTEST_EXPECT(t, false, "points=%d: hung (H step %d, W got %d)",
			     points, READ_ONCE(lb.step), lb.got_at);
		ok = false;
	}
	put_task_struct(h);
	put_task_struct(lb.w);
	return ok;
}

/*
 * Scenario (one CPU, any SMP): H SCHED_FIFO 10 and W SCHED_FIFO 20 both
 * on CPU 0.  H holds the lock and, at step LB_BREAK_AT, wakes W, which
 * takes the lock.
 *   with points, every model: W gets the lock at step LB_BREAK_AT, while
 *     the loop runs.  rt: W preempts H at once, blocks on the rt_mutex
 *     (boosting H), and H's next cond_resched_lock() sees the waiter;
 *     none/voluntary/desktop: W cannot run in the preempt-off section,
 *     but the wakeup set need_resched and the next cond_resched_lock()
 *     drops the lock and schedules.
 *   without points: W gets the lock only at LB_STEPS (loop over).  rt:
 *     W still runs at once (ran_at LB_BREAK_AT: the section is
 *     preemptible, only the lock is held); other models: W does not
 *     even run before the loop ends (ran_at LB_STEPS).
 */
static void test_cond_resched_lock_lets_same_cpu_waiter_in(struct ktest *t)
{
	if (!lb_run_once(t, true, 0, 0))
		return;
	KTEST_EXPECT(t, lb.got_at == LB_BREAK_AT,
		     "points: W expected the lock at step %d (mid-loop), got it at %d of %d",
		     LB_BREAK_AT, lb.got_at, LB_STEPS);
	KTEST_EXPECT(t, lb.breaks >= 1, "points: no cond_resched_lock() broke the lock");

	if (!lb_run_once(t, false, 0, 0))
		return;
	KTEST_EXPECT(t, lb.got_at == LB_STEPS,
		     "no points: W expected the lock at the loop's end %d, got it at %d",
		     LB_STEPS, lb.got_at);
	KTEST_EXPECT(t, lb.ran_at == (SPINLOCK_SLEEPS ? LB_BREAK_AT : LB_STEPS),
		     "no points: W expected to first run at step %d, ran at %d",
		     SPINLOCK_SLEEPS ? LB_BREAK_AT : LB_STEPS, lb.ran_at);
}

/*
 * Scenario (2 CPUs): H SCHED_FIFO 10 on CPU 0, W SCHED_FIFO 20 on CPU 1.
 * H wakes W at step LB_BREAK_AT; W takes the lock: it sleeps on the
 * rt_mutex (rt) or spins on its ticket (other models).  At step
 * LB_BREAK_AT H waits until W is queued and asks spin_needbreak().
 *   rt, desktop: spin_needbreak() is true; with points, W gets the lock
 *     at step LB_BREAK_AT, H queues behind it (ticket FIFO / no steal
 *     from the higher-priority W) and resumes the loop.
 *   none, voluntary: spin_needbreak() is false (Linux without
 *     CONFIG_PREEMPTION); with points, W gets the lock at the loop's
 *     end unless a reschedule on CPU 0 broke the lock (breaks > 0).
 *   without points, every model: W gets the lock at the loop's end.
 * This is lock_break.c's cond_resched_lock() diagram.
 */
static void test_cond_resched_lock_lets_waiter_in_mid_loop(struct ktest *t)
{
	bool want = SPINLOCK_SLEEPS || PREEMPT_ON_ENABLE;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "needs 2 CPUs: the waiter spins on another CPU");
		return;
	}
	if (!lb_run_once(t, true, 0, 1))
		return;
	KTEST_EXPECT(t, lb.needbreak_seen == want,
		     "spin_needbreak() with a queued waiter: expected %d, saw %d",
		     want, lb.needbreak_seen);
	if (want)
		KTEST_EXPECT(t, lb.got_at == LB_BREAK_AT,
			     "points: W expected the lock at step %d, got it at %d of %d",
			     LB_BREAK_AT, lb.got_at, LB_STEPS);
	else
		KTEST_EXPECT(t, lb.got_at == LB_STEPS || lb.breaks > 0,
			     "points, no needbreak: W got the lock at %d of %d with no break",
			     lb.got_at, LB_STEPS);

	if (!lb_run_once(t, false, 0, 1))
		return;
	KTEST_EXPECT(t, lb.got_at == LB_STEPS,
		     "no points: W expected the lock at the loop's end %d, got it at %d",
		     LB_STEPS, lb.got_at);
}

/* An uncontended lock needs no break, and cond_resched_lock() returns
 * with the lock held whatever it did. */
static void test_cond_resched_lock_keeps_an_uncontended_lock(struct ktest *t)
{
	DEFINE_SPINLOCK(l);

	spin_lock(&l);
	KTEST_EXPECT(t, !spin_needbreak(&l), "needbreak on an uncontended lock");
	cond_resched_lock(&l);
	KTEST_EXPECT(t, spin_is_locked(&l), "the lock was not held on return");
	spin_unlock(&l);
}

struct sd_run {
	bool d_done;		/* D's slab_drain_cpu() returned */
	bool w_saw_d_done;	/* what W saw once it got through */
	struct completion d_fin, w_fin;
};

static struct sd_run sd;

static int sd_drainer_fn(void *arg)
{
	(void)arg;
	slab_drain_cpu(1);
	WRITE_ONCE(sd.d_done, true);
	complete(&sd.d_fin);
	return 0;
}

static int sd_waiter_fn(void *arg)
{
	(void)arg;
	slab_drain_cpu(1);	/* needs CPU 1's slab_cpu lock, D holds it */
	sd.w_saw_d_done = READ_ONCE(sd.d_done);
	complete(&sd.w_fin);
	return 0;
}

/* sd_waiter_pending - W waits for the lock (rt: asleep on the rt_mutex)
 * or CPU 1 must reschedule for it (D's preempt-off section). */
static bool sd_waiter_pending(struct task_struct *w)
{
	return READ_ONCE(w->pi_blocked_on) || per_cpu(sched_need_resched, 1);
}

/*
 * Scenario (2 CPUs, every model): the real user, slab_drain_cpu(), and
 * its diagram in kernel/mm/slab_cpu.c.  D (SCHED_FIFO 10, CPU 1) drains
 * CPU 1's arrays and is parked by slab_drain_window inside the locked
 * section, after a slot.  The test (CPU 0) wakes W (SCHED_FIFO 20, CPU
 * 1), which calls slab_drain_cpu(1) too, and waits until W is queued on
 * the lock (rt) or CPU 1 has a reschedule pending (the others), then
 * lets D go on.  Expected: D's cond_resched_lock() breaks the lock
 * (lock_breaks of CPU 1 rises: it counts only drops, and only a waiter
 * or a pending reschedule makes one), and under none/voluntary W gets
 * through before D's drain returns (without the point, W would run only
 * once D finished and set d_done).  Under desktop/rt the d_done order
 * says nothing: W preempts D at its final unlock as well.
 */
static void test_slab_drain_breaks_for_waiter(struct ktest *t)
{
	struct slab_cpu_stats st0, st1;
	struct task_struct *d, *w;
	ktime_t net;
	bool pending = false;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "needs 2 CPUs: the test steers CPU 1 from CPU 0");
		return;
	}
	memset(&sd, 0, sizeof(sd));
	init_completion(&sd.d_fin);
	init_completion(&sd.w_fin);
	me_rt(0, 0);
	KTEST_ASSERT_EQ(t, slab_cpu_stats_get(1, &st0), 0);
	w = create_fifo(sd_waiter_fn, NULL, W_PRIO, one_cpu(1), "sd_w");
	d = create_fifo(sd_drainer_fn, NULL, H_PRIO, one_cpu(1), "sd_d");
	KTEST_ASSERT(t, w && d, "cannot create D and W");
	if (!race_window_run_until_parked(&slab_drain_window, d, SAFETY_NS)) {
		KTEST_EXPECT(t, false, "D never reached slab_drain_window");
		wake_up_process(w);
		goto out_wait;
	}
	wake_up_process(w);
	net = ktime_get() + SAFETY_NS;
	while (!(pending = sd_waiter_pending(w)) && ktime_get() < net)
		arch_cpu_relax();
	race_window_release(&slab_drain_window);
	KTEST_EXPECT(t, pending, "W never queued for the lock");
out_wait:
	KTEST_EXPECT(t, wait_for_completion_timeout(&sd.d_fin, SAFETY_NS) &&
			wait_for_completion_timeout(&sd.w_fin, SAFETY_NS),
		     "D or W hung");
	KTEST_ASSERT_EQ(t, slab_cpu_stats_get(1, &st1), 0);
	KTEST_EXPECT(t, st1.lock_breaks > st0.lock_breaks,
		     "CPU 1 lock_breaks expected to rise, %lu -> %lu",
		     st0.lock_breaks, st1.lock_breaks);
	/* under desktop/rt W also outruns D's final unlock (preemption at
	 * the unlock), so only none/voluntary can tell it apart this way */
	if (!PREEMPT_ON_ENABLE)
		KTEST_EXPECT(t, !sd.w_saw_d_done,
			     "W expected the lock mid-drain, got it after D's drain returned");
	put_task_struct(d);
	put_task_struct(w);
	me_restore();
}

KTEST_SUITE(lock_break,
	    KTEST_CASE(test_cond_resched_lock_keeps_an_uncontended_lock),
	    KTEST_CASE(test_cond_resched_lock_lets_same_cpu_waiter_in),
	    KTEST_CASE(test_cond_resched_lock_lets_waiter_in_mid_loop),
	    KTEST_CASE(test_slab_drain_breaks_for_waiter));
