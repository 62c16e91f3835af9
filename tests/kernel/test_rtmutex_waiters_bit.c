/*
 * tests/kernel/test_rtmutex_waiters_bit.c - the rtmutex_waiters_bit
 * suite: the waiters bit of the owner word against the cmpxchg fast
 * unlock (the diagrams at try_to_take_rt_mutex and
 * fixup_rt_mutex_waiters in kernel/locking/rtmutex.c).
 *
 * test_rt_mutex_fast_unlock_fails_once_the_bit_is_set - the [T1]
 * diagram.  Scenario (every model: rt_mutex is the same lock in all):
 *   T   the test task on CPU 0, SCHED_OTHER, owns L (fast path)
 *   W   a kthread bound to CPU 1 calls rt_mutex_lock(L): the fast path
 *       fails, rt_mutex_slowlock takes wait_lock and try_to_take_rt_mutex
 *       sets the bit ([T1]); W parks in rt_mutex_mark_waiters_window,
 *       before it looks at the owner
 *   T   meanwhile runs rt_mutex_unlock's fast path, the cmpxchg of the
 *       owner word from T to 0
 * Observable: the cmpxchg fails (the word is T|bit), so T's unlock would
 * take the slow path and wake W; after the release W sleeps queued on L,
 * T's real unlock wakes it and W gets L; L ends free without waiters.
 * With [T1] after the owner check, T's cmpxchg would release L and W
 * would sleep on a free lock with nobody to wake it.
 * Needs 2 CPUs: W spins in the window (wait_lock held) while T runs.
 *
 * test_rt_mutex_waiter_leaving_clears_the_bit - fixup_rt_mutex_waiters.
 *   T   owns L on CPU 0; W (any CPU) waits for L with a 1 ms timeout,
 *       queues (the bit is set), times out and leaves ([S5])
 * Observable: W returns -ETIMEDOUT, and the owner word is T exactly: no
 * bit without a waiter, so T's fast unlock succeeds.  The timeout only
 * has to fire at some point; its length is not checked.
 * Runs on one CPU and on all.
 */
#include "kernel/ktest.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/debug/race_window.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/kthread.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "lib/errno.h"
#include "tests/kernel/rtmutex_helpers.h"

static DEFINE_RT_MUTEX(bit_lock);
static struct completion waiter_done;
static int waiter_ret;

/* W: the plain lock, then let go. */
static int bit_locker_fn(void *unused)
{
	rt_mutex_lock(&bit_lock);
	rt_mutex_unlock(&bit_lock);
	complete(&waiter_done);
	return 0;
}

/* W: a timed lock that the owner outlasts. */
static int bit_timed_fn(void *unused)
{
	waiter_ret = rt_mutex_timed_lock(&bit_lock, NSEC_PER_MSEC);
	if (!waiter_ret)
		rt_mutex_unlock(&bit_lock);
	complete(&waiter_done);
	return 0;
}

static void test_rt_mutex_fast_unlock_fails_once_the_bit_is_set(struct ktest *t)
{
	struct task_struct *w;
	bool parked, released;
	uintptr_t word;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the waiter spins in the window "
			      "while the owner unlocks");
	init_completion(&waiter_done);
	me_rt(0, 0);
	rt_mutex_lock(&bit_lock);
	w = kthread_create(bit_locker_fn, NULL, "bit-W");
	if (!w) {
		rt_mutex_unlock(&bit_lock);
		me_restore();
		KTEST_ASSERT(t, 0, "kthread_create failed");
	}
	kthread_bind(w, 1);
	parked = race_window_run_until_parked(&rt_mutex_mark_waiters_window, w,
					      RACE_WINDOW_MAX_NS);
	word = READ_ONCE(bit_lock.owner);
	/* rt_mutex_unlock's fast path, at the moment the diagram draws */
	released = parked && rt_mutex_cmpxchg(&bit_lock, (uintptr_t)current, 0);
	if (parked)
		race_window_release(&rt_mutex_mark_waiters_window);
	KTEST_EXPECT(t, parked, "W parks in rt_mutex_mark_waiters_window "
		     "within 1 s");
	KTEST_EXPECT(t, !parked || word == ((uintptr_t)current |
					   RT_MUTEX_HAS_WAITERS),
		     "owner word with W between [T1] and the owner check: "
		     "want %#lx (T | bit), saw %#lx",
		     (unsigned long)current | 1, (unsigned long)word);
	KTEST_EXPECT(t, !released, "the owner's fast unlock released L while "
		     "W held wait_lock with the bit set: W would sleep on a "
		     "free lock");
	if (!released) {
		KTEST_EXPECT(t, wait_sleeping_on(w, &bit_lock),
			     "W sleeps queued on L (state %ld)",
			     (long)READ_ONCE(w->state));
		rt_mutex_unlock(&bit_lock);
	}
	wait_for_completion(&waiter_done);
	me_restore();
	KTEST_EXPECT(t, !rt_mutex_is_locked(&bit_lock) &&
			!rt_mutex_has_waiters(&bit_lock),
		     "L free and without waiters at the end (owner word %#lx)",
		     (unsigned long)READ_ONCE(bit_lock.owner));
}

static void test_rt_mutex_waiter_leaving_clears_the_bit(struct ktest *t)
{
	struct task_struct *w;
	uintptr_t word;

	init_completion(&waiter_done);
	waiter_ret = 1;
	rt_mutex_lock(&bit_lock);
	w = kthread_create(bit_timed_fn, NULL, "bit-W");
	if (!w) {
		rt_mutex_unlock(&bit_lock);
		KTEST_ASSERT(t, 0, "kthread_create failed");
	}
	wake_up_process(w);
	wait_for_completion(&waiter_done);
	word = READ_ONCE(bit_lock.owner);
	rt_mutex_unlock(&bit_lock);
	KTEST_EXPECT_EQ(t, waiter_ret, -ETIMEDOUT);
	KTEST_EXPECT(t, word == (uintptr_t)current,
		     "after the waiter left: owner word %#lx (the owner, no "
		     "bit), saw %#lx", (unsigned long)current,
		     (unsigned long)word);
	KTEST_EXPECT(t, !rt_mutex_is_locked(&bit_lock),
		     "L free after the owner's unlock (owner word %#lx)",
		     (unsigned long)READ_ONCE(bit_lock.owner));
}

KTEST_SUITE(rtmutex_waiters_bit,
	    KTEST_CASE(test_rt_mutex_fast_unlock_fails_once_the_bit_is_set),
	    KTEST_CASE(test_rt_mutex_waiter_leaving_clears_the_bit));
