/*
 * tests/kernel/test_rtmutex_races.c - the rtmutex_races suite: rt_mutex
 * interleavings that need two CPUs to meet inside a window of a few
 * instructions, forced with race windows (kernel/debug/race_window.h).
 *
 * test_rt_mutex_unlock_no_waiters_object_freed (issue 12, bug 3; the
 * diagram is at rt_mutex_slowunlock's step [1] in kernel/locking/rtmutex.c).
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
 */
#include "kernel/ktest.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/debug/race_window.h"
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
	race_window_arm(&rt_mutex_unlock_window, u);
	wake_up_process(u);
	if (race_window_wait_parked(&rt_mutex_unlock_window, PARK_WAIT_NS))
		return obj;
	/* U came through unparked: nothing raced it */
	race_window_disarm(&rt_mutex_unlock_window);
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

KTEST_SUITE(rtmutex_races,
	    KTEST_CASE(test_rt_mutex_unlock_no_waiters_object_freed),
	    KTEST_CASE(test_rt_mutex_unlock_no_waiters_retries_for_new_waiter));
