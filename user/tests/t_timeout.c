/*
 * user/tests/t_timeout.c - huge and bad timeouts, as an attacker (or a
 * program that means "forever") passes them (issue 28 item 4).
 *
 * A FUTEX_WAIT with tv_sec = LONG_MAX must sleep until it is woken, not
 * time out: the kernel used to compute tv_sec * 1e9 + tv_nsec in an s64,
 * which wraps to about -1 s, so the deadline was already past and the
 * call returned -ETIMEDOUT at once.  Linux saturates at KTIME_MAX
 * (timespec64_to_ktime, ktime_add_safe).  Negative times and tv_nsec
 * >= 1e9 are -EINVAL for futex, nanosleep and clock_nanosleep.
 * The exit code is the number of failed checks; each prints a FAIL line.
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

#define LONG_MAX_SEC 0x7fffffffffffffffL
#define KTIME_SEC_MAX 9223372036L	/* KTIME_MAX / 1e9 */
/* The waker lets the sleeper sleep this long first.  Not a guess at a
 * speed: with the overflow the wait never sleeps at all (its deadline
 * is ~1 s in the past), so any delay > 0 tells the two apart; 10 ms just
 * keeps the test short.  A slow host only lengthens the sleep. */
#define WAKE_AFTER_NS 10000000L

static int failures;
static u32 word;
static volatile int waiting, sleeper_done;
static volatile long wait_start_ns;

static void check(const char *what, long got, long expected)
{
	if (got != expected) {
		failures++;
		printf("FAIL %s: expected %ld, got %ld\n", what, expected, got);
	}
}

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* waker - once the sleeper has announced its wait and WAKE_AFTER_NS has
 * gone by, FUTEX_WAKE until one waiter was woken or the sleeper is back
 * (it timed out: the bug). */
static void *waker(void *arg)
{
	(void)arg;
	while (!waiting)
		sched_yield();
	while (now_ns() - wait_start_ns < WAKE_AFTER_NS && !sleeper_done)
		sched_yield();
	while (!sleeper_done &&
	       futex(&word, FUTEX_WAKE, 1, NULL, NULL, 0) != 1)
		sched_yield();
	return NULL;
}

/* wait_forever - FUTEX_WAIT with a timeout of tv_sec seconds, woken by
 * the waker thread; 0 (woken) is right, -ETIMEDOUT is the overflow. */
static long wait_forever(long tv_sec)
{
	struct timespec ts = { .tv_sec = tv_sec, .tv_nsec = 999999999 };
	pthread_t th;
	long ret;

	waiting = 0;
	sleeper_done = 0;
	pthread_create(&th, NULL, waker, NULL);
	wait_start_ns = now_ns();
	waiting = 1;
	ret = futex(&word, FUTEX_WAIT, 0, &ts, NULL, 0);
	sleeper_done = 1;
	pthread_join(th, NULL);
	return ret;
}

int main(int argc, char **argv)
{
	struct timespec neg = { .tv_sec = -1, .tv_nsec = 0 };
	struct timespec big_ns = { .tv_sec = 0, .tv_nsec = 1000000000 };

	(void)argc;
	(void)argv;
	check("FUTEX_WAIT tv_sec=LONG_MAX sleeps until woken",
	      wait_forever(LONG_MAX_SEC), 0);
	check("FUTEX_WAIT tv_sec=KTIME_SEC_MAX sleeps until woken",
	      wait_forever(KTIME_SEC_MAX), 0);
	check("FUTEX_WAIT tv_sec=-1",
	      futex(&word, FUTEX_WAIT, 0, &neg, NULL, 0), -EINVAL);
	check("FUTEX_WAIT tv_nsec=1e9",
	      futex(&word, FUTEX_WAIT, 0, &big_ns, NULL, 0), -EINVAL);
	check("nanosleep tv_sec=-1", nanosleep(&neg, NULL), -EINVAL);
	check("nanosleep tv_nsec=1e9", nanosleep(&big_ns, NULL), -EINVAL);
	check("clock_nanosleep tv_sec=-1",
	      clock_nanosleep(CLOCK_MONOTONIC, 0, &neg, NULL), -EINVAL);
	check("clock_nanosleep tv_nsec=1e9",
	      clock_nanosleep(CLOCK_MONOTONIC, 0, &big_ns, NULL), -EINVAL);
	printf("t_timeout: %d failed\n", failures);
	return failures;
}
