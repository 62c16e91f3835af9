/*
 * tests/kernel/test_pi_stale_waiter.c - the pi_stale_waiter suite: a
 * waiter that takes a lock while its queued prio is stale must still
 * pass the boost on (the finding of the SPIN model, model/pi/README.md,
 * scenario LOWER; the fix is at [T4] of try_to_take_rt_mutex in
 * kernel/locking/rtmutex.c).
 *
 * The race, as the model's trail showed it:
 *
 *	CPU0				CPU1
 *	W (FIFO 50) and H (FIFO 30)
 *	  wait for L, W first
 *					sched_setscheduler(W, FIFO 10):
 *					  W's prio is now FIFO 10, its
 *					  waiter still queued at FIFO 50
 *	M unlocks L: wakes W, the top
 *	  waiter by its queued prio
 *	W takes L ([T2]); [T4] makes H
 *	  W's PI waiter
 *					rt_mutex_adjust_pi(W): W is not
 *					  blocked any more: nothing to do
 *
 * Before the fix [T4] did not recompute W's prio from its new PI waiter:
 * W ran at FIFO 10 while H (FIFO 30) waited for W's lock - a priority
 * inversion that lasts as long as W holds L.  Linux's
 * try_to_take_rt_mutex has the same shape (it relies on the new owner
 * having been the best waiter); its sched_setscheduler path is the same.
 *
 * test_pi_new_owner_boosted_by_waiter_queued_behind_it:
 * Scenario (every model: rt_mutex is the same lock under all four):
 *   M   the test task, SCHED_OTHER on CPU 0, owns L
 *   H   FIFO 30 on CPU 0: waits for L (M is boosted to FIFO 30)
 *   W   FIFO 50 on CPU 0: waits for L, queued before H; holds L,
 *       once it has it, until told
 *   S   FIFO 60 on CPU 1: sched_setscheduler(W, FIFO 10), parked in
 *       sched_setscheduler_pi_window before its rt_mutex_adjust_pi
 *   M   unlocks L while S is parked: W, woken, takes L
 * Observable: while W holds L with H waiting, W runs at H's prio (FIFO
 * 30), both before and after S's walk finished; H gets L after W.
 * Needs 2 CPUs: S spins in the window while W takes the lock.
 */
#include "kernel/ktest.h"
#include "kernel/debug/race_window.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "tests/kernel/rtmutex_helpers.h"

#define PARK_WAIT_NS (5LL * NSEC_PER_SEC)	/* a hung test, not a timing */

static DEFINE_RT_MUTEX(stale_l);
static struct completion w_has_l, w_may_unlock, w_done, h_done, s_done;
static struct task_struct *stale_w;

/* W: wait for L, keep it until told. */
static int stale_w_fn(void *data)
{
	rt_mutex_lock(&stale_l);
	complete(&w_has_l);
	wait_for_completion(&w_may_unlock);
	rt_mutex_unlock(&stale_l);
	complete(&w_done);
	return 0;
}

/* H: wait for L behind W. */
static int stale_h_fn(void *data)
{
	rt_mutex_lock(&stale_l);
	rt_mutex_unlock(&stale_l);
	complete(&h_done);
	return 0;
}

/* S: lower W to FIFO 10; parks between the prio change and the walk. */
static int stale_s_fn(void *data)
{
	struct sched_param sp = { .sched_priority = 10 };

	sched_setscheduler(stale_w, SCHED_FIFO, &sp);
	complete(&s_done);
	return 0;
}

static void test_pi_new_owner_boosted_by_waiter_queued_behind_it(
	struct ktest *t)
{
	struct task_struct *w, *h, *s;
	bool parked;
	int want;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the prio change spins in the "
			      "window while the waiter takes the lock");
	init_completion(&w_has_l);
	init_completion(&w_may_unlock);
	init_completion(&w_done);
	init_completion(&h_done);
	init_completion(&s_done);
	s = create_fifo(stale_s_fn, NULL, 60, one_cpu(1), "stale-S");
	KTEST_ASSERT(t, s != NULL, "kthread_create failed");
	me_rt(0, 0);
	rt_mutex_lock(&stale_l);
	/* H first: once W waits, M runs boosted to FIFO 50 and H (FIFO
	 * 30) could not run on CPU 0 to queue itself */
	h = start_rt(stale_h_fn, NULL, SCHED_FIFO, 30, 0, "stale-H");
	KTEST_EXPECT(t, !h || wait_sleeping_on(h, &stale_l),
		     "H not seen blocked on L (state %ld, blocked on %p)",
		     (long)READ_ONCE(h->state), READ_ONCE(h->pi_blocked_on));
	w = start_rt(stale_w_fn, NULL, SCHED_FIFO, 50, 0, "stale-W");
	if (!w || !h) {
		/* whoever exists takes and releases L after us */
		rt_mutex_unlock(&stale_l);
		if (w) {
			complete(&w_may_unlock);
			put_task_struct(w);
		}
		if (h)
			put_task_struct(h);
		put_task_struct(s);	/* S is never woken: no W to lower */
		me_restore();
		KTEST_ASSERT(t, 0, "kthread_create failed");
	}
	stale_w = w;
	KTEST_EXPECT(t, wait_sleeping_on(w, &stale_l),
		     "W not seen blocked on L (state %ld, blocked on %p)",
		     (long)READ_ONCE(w->state), READ_ONCE(w->pi_blocked_on));
	want = h->normal_prio;

	parked = race_window_run_until_parked(&sched_setscheduler_pi_window, s,
					      PARK_WAIT_NS);
	KTEST_EXPECT(t, parked, "S parks in sched_setscheduler_pi_window "
		     "within %lld s", PARK_WAIT_NS / NSEC_PER_SEC);
	rt_mutex_unlock(&stale_l);
	wait_for_completion(&w_has_l);
	KTEST_EXPECT(t, READ_ONCE(w->prio) == want,
		     "W took L with H (prio %d) waiting: W's prio %d, want "
		     "%d (H's boost, [T4])", want, READ_ONCE(w->prio), want);
	if (parked)
		race_window_release(&sched_setscheduler_pi_window);
	wait_for_completion(&s_done);
	KTEST_EXPECT(t, READ_ONCE(w->prio) == want,
		     "after S's walk W's prio %d, want H's %d: the inversion "
		     "lasts while W holds L", READ_ONCE(w->prio), want);

	complete(&w_may_unlock);
	wait_for_completion(&w_done);
	wait_for_completion(&h_done);
	KTEST_EXPECT(t, READ_ONCE(w->prio) == w->normal_prio,
		     "W deboosted to %d after its unlock, saw %d",
		     w->normal_prio, READ_ONCE(w->prio));
	KTEST_EXPECT(t, !rt_mutex_is_locked(&stale_l) &&
			!rt_mutex_has_waiters(&stale_l),
		     "L free and without waiters at the end");
	put_task_struct(w);
	put_task_struct(h);
	put_task_struct(s);
	me_restore();
}

KTEST_SUITE(pi_stale_waiter,
	    KTEST_CASE(test_pi_new_owner_boosted_by_waiter_queued_behind_it));
