/*
 * user/tests/t_rlimit.c - resource limits as Linux has them, and the two
 * rtk enforces (issue 28 items 2 and 3; kernel/user/rlimit.c):
 *   1. getrlimit/prlimit64 answer Linux's defaults (RLIMIT_STACK 8 MiB
 *      soft, RLIMIT_NOFILE 1024) and -EINVAL for a resource out of range
 *      or cur > max; prlimit64 of a pid outside the process is -ESRCH;
 *   2. a thread bomb stops at RLIMIT_NPROC: with the limit set to 8, the
 *      eighth thread (the main one counts) is refused with -EAGAIN, and
 *      once those threads have exited the same number can be made again
 *      (the charge came back);
 *   3. RLIMIT_RTPRIO 10: SCHED_FIFO 10 is allowed, FIFO 20 is -EPERM,
 *      a move down to FIFO 5 is allowed; with the limit 0, a change from
 *      SCHED_OTHER to an RT policy is -EPERM.
 * tests/kernel/test_user_limits.c runs it.  On a Linux host, 2 counts the
 * user's processes and 3 holds only for an unprivileged user (root is
 * exempt there).  Exit status: the number of failed checks.
 * No step waits for a time: the bomb's threads spin on `release`.
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"

#define NPROC_TEST 8

static int failures;
static int release, started;

static void check(const char *what, long got, long expected)
{
	if (got != expected) {
		failures++;
		printf("FAIL %s: expected %ld, got %ld\n", what, expected, got);
	}
}

static void *spinner(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&release, __ATOMIC_SEQ_CST))
		sched_yield();
	return NULL;
}

/* bomb - threads until refused; returns how many were made, *err the
 * refusal. */
static int bomb(pthread_t *th, int max, long *err)
{
	int n = 0;

	*err = 0;
	release = 0;
	while (n < max) {
		long ret = pthread_create(&th[n], NULL, spinner, NULL);

		if (ret) {
			*err = ret;
			break;
		}
		n++;
	}
	__atomic_store_n(&release, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	return n;
}

static void limits(void)
{
	struct rlimit64 r, bad = { 10, 5 };

	check("getrlimit(RLIMIT_STACK)", getrlimit(RLIMIT_STACK, &r), 0);
	check("RLIMIT_STACK soft", (long)r.rlim_cur, 8 << 20);
	check("prlimit64(0, RLIMIT_NOFILE)", prlimit64(0, RLIMIT_NOFILE, NULL, &r), 0);
	check("RLIMIT_NOFILE soft", (long)r.rlim_cur, 1024);
	check("getrlimit(RLIM_NLIMITS)", getrlimit(RLIM_NLIMITS, &r), -EINVAL);
	check("setrlimit(cur > max)", setrlimit(RLIMIT_NOFILE, &bad), -EINVAL);
	check("prlimit64(pid 1)", prlimit64(1, RLIMIT_NOFILE, NULL, &r), -ESRCH);
	check("getrlimit(bad pointer)",
	      getrlimit(RLIMIT_NOFILE, (struct rlimit64 *)16), -EFAULT);
}

static void nproc(void)
{
	struct rlimit64 r = { NPROC_TEST, NPROC_TEST }, old;
	pthread_t th[NPROC_TEST + 1];
	long err;

	check("prlimit64(RLIMIT_NPROC)", prlimit64(0, RLIMIT_NPROC, &r, &old), 0);
	for (int round = 0; round < 2; round++) {
		check(round ? "threads made again after the bomb's exit"
			    : "threads made under RLIMIT_NPROC 8 (main counts)",
		      bomb(th, NPROC_TEST + 1, &err), NPROC_TEST - 1);
		check("the refused clone", err, -EAGAIN);
	}
	check("RLIMIT_NPROC back", setrlimit(RLIMIT_NPROC, &old), 0);
}

static void rtprio(void)
{
	struct rlimit64 r = { 10, 10 }, zero = { 0, 0 }, inf, now;
	struct sched_param sp = { 0 };

	check("getrlimit(RLIMIT_RTPRIO)", getrlimit(RLIMIT_RTPRIO, &inf), 0);
	check("setrlimit(RLIMIT_RTPRIO 0)", setrlimit(RLIMIT_RTPRIO, &zero), 0);
	sp.sched_priority = 1;
	check("SCHED_OTHER -> FIFO 1 under RLIMIT_RTPRIO 0",
	      sched_setscheduler(0, SCHED_FIFO, &sp), -EPERM);
	check("setrlimit(RLIMIT_RTPRIO 10)", setrlimit(RLIMIT_RTPRIO, &r), 0);
	sp.sched_priority = 10;
	check("FIFO 10 under RLIMIT_RTPRIO 10",
	      sched_setscheduler(0, SCHED_FIFO, &sp), 0);
	sp.sched_priority = 20;
	check("FIFO 20 under RLIMIT_RTPRIO 10",
	      sched_setscheduler(0, SCHED_FIFO, &sp), -EPERM);
	sp.sched_priority = 5;
	check("FIFO 10 -> 5 under RLIMIT_RTPRIO 10",
	      sched_setscheduler(0, SCHED_FIFO, &sp), 0);
	sp.sched_priority = 0;
	check("back to SCHED_OTHER", sched_setscheduler(0, SCHED_OTHER, &sp), 0);
	check("RLIMIT_RTPRIO back", setrlimit(RLIMIT_RTPRIO, &inf), 0);
	check("getrlimit(RLIMIT_RTPRIO)", getrlimit(RLIMIT_RTPRIO, &now), 0);
	check("RLIMIT_RTPRIO restored", now.rlim_cur == inf.rlim_cur, 1);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	limits();
	nproc();
	rtprio();
	if (!failures)
		printf("t_rlimit: ok\n");
	return failures;
}
