/*
 * tests/kernel/test_rtmutex_races.c - the rtmutex_races suite: rt_mutex
 * interleavings that need two CPUs to meet inside a window of a few
 * instructions, forced with race windows (kernel/debug/race_window.h).
 *
 * test_rt_mutex_unlock_no_waiters_object_freed (issue 12, bug 3; the
 * diagram is at unlock_rt_mutex_safe, rt_mutex_slowunlock's step [U1] in
 * kernel/locking/rtmutex.c).
 * Scenario (every model: rt_mutex is the same lock under all four):
 *   U   a kthread bound to CPU 1, SCHED_OTHER, holds the lock L inside a
 *       kmalloc'ed object and releases it through the slow path with no
 *       waiter queued: the state rt_mutex_unlock() is in when its cmpxchg
 *       failed on the waiters bit and the waiter then left (timeout,
 *       signal, -EDEADLK) or a trylock set the bit for an instant.  U
 *       parks in rt_mutex_unlock_window, after it gave up the owner word
 *       and before its last touch of L.
 *   T   the test task on CPU 0, while U is parked: the fast path of the
 *       object's next user: rt_mutex_trylock(L), rt_mutex_unlock(L), and
 *       then the object is freed.  The test keeps the memory (nothing
 *       else may reuse it) and records its bytes as a free's poisoning
 *       would fix them; U is released and finishes.
 * Observable: either T could not take L (U still owns it: the fix), or,
 * if it could, not one byte of the freed object changes after the free.
 * Before the fix U's wait_lock release writes into the freed object.
 * Needs 2 CPUs: U spins in the window while T runs.
 *
 * test_rt_mutex_unlock_no_waiters_retries_for_new_waiter: the second
 * picture at that diagram.  Same U, parked in the same window; R, a
 * kthread on CPU 0, calls rt_mutex_lock(L) meanwhile and must block (U
 * still owns L); after the release U's cmpxchg fails on the waiters bit
 * R set, U retries with R queued and wakes it.  Observable: R blocked
 * while U was parked, then got L; L ends free without waiters.
 *
 * test_rt_mutex_walk_stops_when_the_waiter_left: a waiter leaving during
 * a chain walk (the diagram at pi_walk_check_link, step [3], in
 * kernel/locking/rtmutex_pi.c).  Scenario:
 *   M   the test task, SCHED_OTHER on CPU 0, owns L1
 *   T2  FIFO 10 on CPU 0: takes L2, then waits interruptibly for L1
 *       (M owns it: M is boosted to FIFO 10)
 *   T3  FIFO 20 on CPU 1: asks for L2: [B3] boosts T2 to FIFO 20 and its
 *       walk towards L1's owner M parks in rt_mutex_chain_walk_window
 *   M   signals T2 while the walk is parked: T2 (CPU 0) leaves L1's queue
 *       with -EINTR ([S5], [D1]) and M drops back to SCHED_OTHER; then M
 *       releases the walk and waits until T3 sleeps on L2
 * Observable: the walk stopped at [3]: M is not boosted to FIFO 20 (nor
 * to anything), L1 has no waiters and M no PI waiters; T2 stays at
 * FIFO 20 (T3 still waits for its L2).  Then T2 releases L2, T3 gets it.
 * Needs 2 CPUs: T3 spins in the window while T2 runs.
 */
#include "kernel/ktest.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/debug/race_window.h"
#include "kernel/signal.h"
#include "lib/errno.h"
#include "tests/kernel/rtmutex_helpers.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/kthread.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "lib/string.h"

#define PARK_WAIT_NS (5LL * NSEC_PER_SEC)	/* a hung test, not a timing */

/* The object a lock user frees once it is done with the lock. */
struct rtm_object {
	u64 head;
	struct rt_mutex lock;
	u64 tail;
};

static struct completion unlocker_done;
static struct completion locker_done;
static bool locker_blocked;	/* R found L owned (it queued a waiter) */

/* U: take L (fast path), release it through the no-waiters slow path. */
static int rtm_unlocker_fn(void *data)
{
	struct rtm_object *obj = data;

	rt_mutex_lock(&obj->lock);
	rt_mutex_slowunlock(&obj->lock);
	complete(&unlocker_done);
	return 0;
}

/* R: the next user, through the plain lock (sleeps if L is owned). */
static int rtm_locker_fn(void *data)
{
	struct rtm_object *obj = data;

	rt_mutex_lock(&obj->lock);
	rt_mutex_unlock(&obj->lock);
	complete(&locker_done);
	return 0;
}

/* rtm_start_unlocker - obj with L initialised, U created on CPU 1, parked
 * in the window; the test task on CPU 0.  NULL (and obj freed) when U
 * could not be created or did not park: the caller fails. */
static struct rtm_object *rtm_start_unlocker(struct ktest *t)
{
	struct rtm_object *obj;
	struct task_struct *u;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the unlocker spins in the window "
			      "while the racer runs");
	obj = kmalloc(sizeof(*obj), GFP_KERNEL);
	KTEST_ASSERT(t, obj != NULL, "kmalloc failed");
	obj->head = obj->tail = 0;
	rt_mutex_init(&obj->lock);
	init_completion(&unlocker_done);
	u = kthread_create(rtm_unlocker_fn, obj, "rtm-unlocker");
	if (!u) {
		kfree(obj);
		KTEST_ASSERT(t, 0, "kthread_create failed");
	}
	kthread_bind(u, 1);
	set_cpus_allowed(current, (cpumask_t){ .bits = 1ULL << 0 });
	if (race_window_run_until_parked(&rt_mutex_unlock_window, u,
					 PARK_WAIT_NS))
		return obj;
	/* U came through unparked: nothing raced it */
	wait_for_completion(&unlocker_done);
	set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });
	kfree(obj);
	KTEST_ASSERT(t, 0, "the unlocker parks in rt_mutex_unlock_window "
		     "within %lld s", PARK_WAIT_NS / NSEC_PER_SEC);
	return NULL;
}

/* rtm_finish_unlocker - release U, wait for it, undo the pinning. */
static void rtm_finish_unlocker(void)
{
	race_window_release(&rt_mutex_unlock_window);
	wait_for_completion(&unlocker_done);
	set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });
}

/* first_changed - offset of the first byte of a that differs from b, or
 * -1 when they are equal. */
static long first_changed(const u8 *a, const u8 *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return (long)i;
	return -1;
}

static void test_rt_mutex_unlock_no_waiters_object_freed(struct ktest *t)
{
	struct rtm_object *obj, freed;
	bool taken = false;
	long off;

	obj = rtm_start_unlocker(t);
	if (rt_mutex_trylock(&obj->lock)) {
		/* the next user got the lock: it unlocks and frees */
		rt_mutex_unlock(&obj->lock);
		memcpy(&freed, obj, sizeof(freed));
		taken = true;
	}
	rtm_finish_unlocker();

	if (taken) {
		off = first_changed((const u8 *)&freed, (const u8 *)obj,
				    sizeof(freed));
		KTEST_EXPECT(t, off < 0,
			     "the freed object is not written after the free; "
			     "byte %ld (lock at %zu, wait_lock at %zu) changed: "
			     "the unlocker touched the lock after another CPU "
			     "had taken, released and freed it", off,
			     offsetof(struct rtm_object, lock),
			     offsetof(struct rtm_object, lock.wait_lock));
	}
	KTEST_EXPECT(t, !rt_mutex_is_locked(&obj->lock) &&
			!rt_mutex_has_waiters(&obj->lock),
		     "L free and without waiters at the end (owner word %#lx)",
		     (unsigned long)obj->lock.owner);
	kfree(obj);
}

static void test_rt_mutex_unlock_no_waiters_retries_for_new_waiter(struct ktest *t)
{
	struct rtm_object *obj;
	struct task_struct *r;
	ktime_t end;

	obj = rtm_start_unlocker(t);
	init_completion(&locker_done);
	locker_blocked = false;
	r = kthread_create(rtm_locker_fn, obj, "rtm-locker");
	if (r) {
		kthread_bind(r, 0);
		wake_up_process(r);
		/* R either blocks on L (queued waiter) or, with the bug,
		 * takes the free lock and finishes */
		end = ktime_get() + PARK_WAIT_NS;
		while (!rt_mutex_has_waiters(&obj->lock) &&
		       !completion_done(&locker_done) && ktime_get() < end)
			schedule();
		locker_blocked = rt_mutex_has_waiters(&obj->lock);
	}
	rtm_finish_unlocker();
	if (r)
		wait_for_completion(&locker_done);

	KTEST_EXPECT(t, r != NULL, "kthread_create failed");
	KTEST_EXPECT(t, locker_blocked,
		     "R blocks on L while the unlocker is in the window "
		     "(the unlocker still owns it); R %s",
		     completion_done(&locker_done) ? "took L at once" :
						     "neither blocked nor ran");
	KTEST_EXPECT(t, !rt_mutex_is_locked(&obj->lock) &&
			!rt_mutex_has_waiters(&obj->lock),
		     "L free and without waiters at the end (owner word %#lx)",
		     (unsigned long)obj->lock.owner);
	kfree(obj);
}

/* The chain of the walk test: L1 owned by M, L2 by T2. */
static DEFINE_RT_MUTEX(walk_l1);
static DEFINE_RT_MUTEX(walk_l2);
static struct completion t2_has_l2, t2_left, t2_may_unlock, t2_done, t3_done;
static int t2_result;

/* T2: take L2, wait for L1 until signalled, keep L2 until told. */
static int walk_t2_fn(void *data)
{
	rt_mutex_lock(&walk_l2);
	complete(&t2_has_l2);
	WRITE_ONCE(t2_result, rt_mutex_lock_interruptible(&walk_l1));
	if (!t2_result)
		rt_mutex_unlock(&walk_l1);	/* not the test's path */
	flush_signals(current);
	complete(&t2_left);
	wait_for_completion(&t2_may_unlock);
	rt_mutex_unlock(&walk_l2);
	complete(&t2_done);
	return 0;
}

/* T3: ask for L2; its walk parks in the window on the way to L1. */
static int walk_t3_fn(void *data)
{
	rt_mutex_lock(&walk_l2);
	rt_mutex_unlock(&walk_l2);
	complete(&t3_done);
	return 0;
}

static void test_rt_mutex_walk_stops_when_the_waiter_left(struct ktest *t)
{
	struct task_struct *t2, *t3;
	int m_prio, t3_prio;
	bool parked;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the walk spins in the window "
			      "while the waiter leaves");
	init_completion(&t2_has_l2);
	init_completion(&t2_left);
	init_completion(&t2_may_unlock);
	init_completion(&t2_done);
	init_completion(&t3_done);
	t3 = create_fifo(walk_t3_fn, NULL, 20, one_cpu(1), "walk-T3");
	KTEST_ASSERT(t, t3 != NULL, "kthread_create failed");
	me_rt(0, 0);
	m_prio = current->normal_prio;
	rt_mutex_lock(&walk_l1);
	t2 = start_rt(walk_t2_fn, NULL, SCHED_FIFO, 10, 0, "walk-T2");
	if (!t2) {
		/* T3 alone takes and releases the free L2 */
		rt_mutex_unlock(&walk_l1);
		wake_up_process(t3);
		wait_for_completion(&t3_done);
		put_task_struct(t3);
		me_restore();
		KTEST_ASSERT(t, 0, "kthread_create failed");
	}
	wait_for_completion(&t2_has_l2);
	KTEST_EXPECT(t, wait_sleeping_on(t2, &walk_l1),
		     "T2 not seen blocked on L1");
	KTEST_EXPECT(t, READ_ONCE(current->prio) == t2->normal_prio,
		     "M prio %d, want T2's %d (the boost through L1)",
		     READ_ONCE(current->prio), t2->normal_prio);

	t3_prio = t3->normal_prio;
	parked = race_window_run_until_parked(&rt_mutex_chain_walk_window, t3,
					      PARK_WAIT_NS);
	KTEST_EXPECT(t, parked, "T3's walk parks in rt_mutex_chain_walk_window "
		     "within %lld s", PARK_WAIT_NS / NSEC_PER_SEC);
	if (parked) {
		KTEST_EXPECT(t, READ_ONCE(t2->prio) == t3_prio,
			     "[B3] boosted T2 to %d before the walk, saw %d",
			     t3_prio, READ_ONCE(t2->prio));
		kernel_signal(t2);
		wait_for_completion(&t2_left);
		KTEST_EXPECT(t, READ_ONCE(t2_result) == -EINTR,
			     "T2 left L1 with %d, want %d",
			     READ_ONCE(t2_result), -EINTR);
		race_window_release(&rt_mutex_chain_walk_window);
	}
	KTEST_EXPECT(t, wait_sleeping_on(t3, &walk_l2),
		     "T3 not seen blocked on L2 after its walk");
	KTEST_EXPECT(t, READ_ONCE(current->prio) == m_prio,
		     "M prio %d after the walk, want its own %d: the walk "
		     "boosted L1's owner for a waiter that had left",
		     READ_ONCE(current->prio), m_prio);
	KTEST_EXPECT(t, !rt_mutex_has_waiters(&walk_l1) &&
			!task_has_pi_waiters(current),
		     "L1 %s waiters, M %s PI waiters; want none",
		     rt_mutex_has_waiters(&walk_l1) ? "has" : "has no",
		     task_has_pi_waiters(current) ? "has" : "has no");
	KTEST_EXPECT(t, READ_ONCE(t2->prio) == t3_prio,
		     "T2 prio %d, want T3's %d (T3 still waits for L2)",
		     READ_ONCE(t2->prio), t3_prio);

	complete(&t2_may_unlock);
	wait_for_completion(&t2_done);
	wait_for_completion(&t3_done);
	rt_mutex_unlock(&walk_l1);
	KTEST_EXPECT(t, !rt_mutex_is_locked(&walk_l1) &&
			!rt_mutex_is_locked(&walk_l2),
		     "L1 and L2 free at the end");
	put_task_struct(t2);
	put_task_struct(t3);
	me_restore();
}

KTEST_SUITE(rtmutex_races,
	    KTEST_CASE(test_rt_mutex_unlock_no_waiters_object_freed),
	    KTEST_CASE(test_rt_mutex_unlock_no_waiters_retries_for_new_waiter),
	    KTEST_CASE(test_rt_mutex_walk_stops_when_the_waiter_left));
