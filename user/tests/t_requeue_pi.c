/*
 * user/tests/t_requeue_pi.c - a PI condition variable through the system
 * call, as glibc before 2.25 drove pthread_cond_wait on a
 * PTHREAD_PRIO_INHERIT mutex (FUTEX_WAIT_REQUEUE_PI, FUTEX_CMP_REQUEUE_PI;
 * newer glibc does not use them, and rtk's user library is not glibc,
 * so the calls are made by hand).  What the kernel suite
 * (tests/kernel/test_futex_requeue_pi.c) cannot see: nr_requeue passed
 * in the timeout's slot, the absolute timeouts on CLOCK_MONOTONIC and,
 * with FUTEX_CLOCK_REALTIME, on CLOCK_REALTIME.
 * tests/kernel/test_futex_requeue_pi.c runs it; it runs on a Linux host
 * as well.  Exit status: the number of failed checks.
 *
 * Scenario (two threads of one process, no wait for a time):
 *   main:    takes the mutex M in user space (cmpxchg 0 -> its TID)
 *   waiter:  sets `calling`, FUTEX_WAIT_REQUEUE_PI(C, 0, now + 10 s, M)
 *   main:    FUTEX_CMP_REQUEUE_PI(C, 1, 1, M, 0) until it moves one (the
 *            waiter may not be queued yet: 0 moved, try again); then M's
 *            word is its TID | FUTEX_WAITERS, so it unlocks in the kernel
 *   Expected: the unlock is 0, the waiter returns 0 owning M (its TID in
 *   the word) and its FUTEX_UNLOCK_PI frees it.
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"
#include "user/lib/clock.h"

#define HANG_GUARD_NS	(10ll * 1000000000ll)
#define SHORT_NS	(2ll * 1000000ll)	/* a deadline that passes */

static int failures;
static u32 cond, mutex;
static int calling, waiter_tid;
static long waiter_ret, waiter_unlock_ret;
static u32 waiter_seen;

static void check(const char *what, long got, long want)
{
	if (got == want)
		return;
	failures++;
	printf("FAIL %s: got %ld, want %ld\n", what, got, want);
}

/* abs_ts - the absolute time ns after now on clk. */
static struct timespec abs_ts(int clk, s64 ns)
{
	s64 t = clock_now_ns(clk) + ns;
	struct timespec ts = { .tv_sec = (long)(t / 1000000000ll),
			       .tv_nsec = (long)(t % 1000000000ll) };

	return ts;
}

static void *waiter(void *arg)
{
	struct timespec ts = abs_ts(CLOCK_MONOTONIC, HANG_GUARD_NS);

	(void)arg;
	waiter_tid = pthread_self_tid();
	__atomic_store_n(&calling, 1, __ATOMIC_SEQ_CST);
	/* no FUTEX_PRIVATE_FLAG anywhere: on Linux a private and a shared
	 * op on one word use different keys and never meet */
	waiter_ret = futex(&cond, FUTEX_WAIT_REQUEUE_PI, 0, &ts, &mutex, 0);
	waiter_seen = __atomic_load_n(&mutex, __ATOMIC_SEQ_CST);
	if (!waiter_ret)
		waiter_unlock_ret = futex(&mutex, FUTEX_UNLOCK_PI, 0, NULL,
					  NULL, 0);
	return NULL;
}

/* requeue - FUTEX_CMP_REQUEUE_PI(C, nr_wake, nr_requeue, M, expected). */
static long requeue(u32 nr_wake, long nr_requeue, u32 expected)
{
	return futex(&cond, FUTEX_CMP_REQUEUE_PI, nr_wake,
		     (const struct timespec *)nr_requeue, &mutex, expected);
}

/* the scenario above */
static void requeue_then_unlock(void)
{
	u32 zero = 0, me = (u32)pthread_self_tid();
	s64 end = clock_now_ns(CLOCK_MONOTONIC) + HANG_GUARD_NS;
	pthread_t th;
	long moved = 0;

	cond = 0;
	if (!__atomic_compare_exchange_n(&mutex, &zero, me, false,
					 __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		check("main's cmpxchg of the free mutex", (long)zero, 0);
	if (pthread_create(&th, NULL, waiter, NULL)) {
		check("pthread_create", -1, 0);
		return;
	}
	while (!__atomic_load_n(&calling, __ATOMIC_SEQ_CST))
		sched_yield();
	while (moved == 0 && clock_now_ns(CLOCK_MONOTONIC) < end) {
		moved = requeue(1, 1, 0);
		if (!moved)
			sched_yield();
	}
	check("FUTEX_CMP_REQUEUE_PI with the mutex held", moved, 1);
	check("M's word after the requeue (our TID | FUTEX_WAITERS)",
	      (long)__atomic_load_n(&mutex, __ATOMIC_SEQ_CST),
	      (long)(me | FUTEX_WAITERS));
	check("main's FUTEX_UNLOCK_PI", futex(&mutex, FUTEX_UNLOCK_PI, 0, NULL,
					      NULL, 0), 0);
	pthread_join(th, NULL);
	check("the waiter's FUTEX_WAIT_REQUEUE_PI", waiter_ret, 0);
	/* the TID only: Linux's unlock leaves FUTEX_WAITERS set, rtk's
	 * clears it for the last waiter (kernel/futex/pi.c) */
	check("M's word as the waiter returned (its TID)",
	      (long)(waiter_seen & FUTEX_TID_MASK), waiter_tid);
	check("the waiter's FUTEX_UNLOCK_PI", waiter_unlock_ret, 0);
	check("M's word at the end", (long)mutex, 0);
}

int main(int argc, char **argv)
{
	struct timespec ts;

	(void)argc;
	(void)argv;
	cond = 1;
	mutex = 0;
	check("WAIT_REQUEUE_PI with *C != val",
	      futex(&cond, FUTEX_WAIT_REQUEUE_PI, 0, NULL, &mutex, 0), -EAGAIN);
	check("WAIT_REQUEUE_PI with C == M",
	      futex(&cond, FUTEX_WAIT_REQUEUE_PI, 1, NULL, &cond, 0), -EINVAL);
	check("CMP_REQUEUE_PI with nr_wake 2", requeue(2, 1, 1), -EINVAL);
	check("CMP_REQUEUE_PI with *C != val3", requeue(1, 1, 0), -EAGAIN);
	check("CMP_REQUEUE_PI with nobody waiting", requeue(1, 1, 1), 0);
	ts = abs_ts(CLOCK_MONOTONIC, SHORT_NS);
	check("WAIT_REQUEUE_PI until a CLOCK_MONOTONIC deadline",
	      futex(&cond, FUTEX_WAIT_REQUEUE_PI, 1, &ts, &mutex, 0),
	      -ETIMEDOUT);
	ts = abs_ts(CLOCK_REALTIME, SHORT_NS);
	check("WAIT_REQUEUE_PI | FUTEX_CLOCK_REALTIME until a deadline",
	      futex(&cond, FUTEX_WAIT_REQUEUE_PI | FUTEX_CLOCK_REALTIME, 1,
		    &ts, &mutex, 0),
	      -ETIMEDOUT);
	requeue_then_unlock();
	if (!failures)
		printf("t_requeue_pi: ok\n");
	return failures;
}
