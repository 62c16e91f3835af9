/*
 * user/tests/t_futex_timeout.c - a FUTEX_WAIT timeout of tv_sec =
 * LONG_MAX means "wait forever" (issue 28 item 4): the kernel saturates
 * it at KTIME_MAX (kernel/time/ktime.h ktime_set, ktime_add_safe) instead
 * of overflowing into a deadline in the past.  Also the timespec checks:
 * -EINVAL for tv_sec < 0 and tv_nsec outside [0, 1e9).
 * tests/kernel/test_user.c runs it; it runs on a Linux host as well.
 * Exit status: the number of failed checks.
 *
 * Scenario: two threads of one process, SCHED_OTHER.
 *   waiter: sets `armed`, then FUTEX_WAIT(&word, 0, {LONG_MAX, 0}); stores
 *           its return value and sets `done`.
 *   main:   spins (yielding) until `armed`, then calls FUTEX_WAKE(&word)
 *           until it reports one waiter woken or the waiter is `done`.
 *   Expected: the waiter returns 0 (woken).  With the overflow it returned
 *   -ETIMEDOUT at once and main saw `done` without waking anyone.
 * No step waits for a time: `armed` and the wake loop are the handshake.
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

#define LONG_MAX_SEC 0x7fffffffffffffffLL

static int failures;
static u32 word;		/* the futex: stays 0 */
static int armed, done;		/* the handshake flags */
static long wait_ret;

static void check(const char *what, long got, long expected)
{
	if (got != expected) {
		failures++;
		printf("FAIL %s: expected %ld, got %ld\n", what, expected, got);
	}
}

static void *waiter(void *arg)
{
	struct timespec forever = { LONG_MAX_SEC, 0 };

	(void)arg;
	__atomic_store_n(&armed, 1, __ATOMIC_SEQ_CST);
	wait_ret = futex(&word, FUTEX_WAIT, 0, &forever, NULL, 0);
	__atomic_store_n(&done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec ts;
	pthread_t th;
	long woken = 0;

	(void)argc;
	(void)argv;
	ts.tv_sec = -1;
	ts.tv_nsec = 0;
	check("FUTEX_WAIT tv_sec -1", futex(&word, FUTEX_WAIT, 0, &ts, NULL, 0),
	      -EINVAL);
	ts.tv_sec = 0;
	ts.tv_nsec = 1000000000;
	check("FUTEX_WAIT tv_nsec 1e9",
	      futex(&word, FUTEX_WAIT, 0, &ts, NULL, 0), -EINVAL);
	ts.tv_nsec = -1;
	check("FUTEX_WAIT tv_nsec -1",
	      futex(&word, FUTEX_WAIT, 0, &ts, NULL, 0), -EINVAL);

	if (pthread_create(&th, NULL, waiter, NULL)) {
		printf("FAIL pthread_create\n");
		return 1;
	}
	while (!__atomic_load_n(&armed, __ATOMIC_SEQ_CST))
		sched_yield();
	/* armed is set just before the call: wake until the waiter is in */
	while (!__atomic_load_n(&done, __ATOMIC_SEQ_CST)) {
		woken = futex(&word, FUTEX_WAKE, 1, NULL, NULL, 0);
		if (woken)
			break;
		sched_yield();
	}
	pthread_join(th, NULL);
	check("FUTEX_WAKE woke the LONG_MAX waiter", woken, 1);
	check("FUTEX_WAIT {LONG_MAX, 0} returned woken", wait_ret, 0);
	if (!failures)
		printf("t_futex_timeout: ok\n");
	return failures;
}
