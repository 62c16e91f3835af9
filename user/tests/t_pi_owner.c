/*
 * user/tests/t_pi_owner.c [PID] - what an attacker does with a PI futex
 * word (issue 28 item 1), and the answers Linux gives:
 *   1. the word names a kernel thread: FUTEX_TRYLOCK_PI is -EPERM, not an
 *      attach (an attach would let FUTEX_LOCK_PI boost that kernel thread
 *      to the caller's priority for as long as the caller waits);
 *   2. the word names a task outside this process (every TID below our
 *      own that is not one of ours, and PID, a thread of another program
 *      the kernel test started): -EPERM or -ESRCH, never an attach;
 *   3. the word names a thread of this process: an attach (-EWOULDBLOCK
 *      for the trylock: a live owner holds it) -- the positive control;
 *   4. the owner exits holding the futex while we wait in FUTEX_LOCK_PI:
 *      we get the futex (0) and the word names us, as on Linux, where
 *      the exit hands it on (exit_pi_state_list).  Before the fix we
 *      slept on the dead owner until the 10 s hang guard.
 * tests/kernel/test_user_abi.c runs it; it runs on a Linux host as well
 * (there, 1 and 2 see the host's kernel threads and processes).
 * Exit status: the number of failed checks.
 *
 * Scenario for 4, two threads of one process, no wait for a time:
 *   owner:  cmpxchg(word, 0 -> its TID) in user space, sets `held`, then
 *           spins (yielding) until the word has FUTEX_WAITERS -- the
 *           kernel sets it when our waiter attaches, before it sleeps --
 *           and returns: the thread exits owning the futex.
 *   main:   waits for `held`, then FUTEX_LOCK_PI(&word, now + 10 s).
 *   Expected: main returns 0 and (word & FUTEX_TID_MASK) is main's TID.
 */
#include "user/lib/ulib.h"
#include "user/lib/pthread.h"
#include "user/lib/clock.h"

#define FUTEX_TID_MASK_U	0x3fffffffu
#define FUTEX_WAITERS_U		0x80000000u
#define HANG_GUARD_NS		(10ull * 1000000000ull)

static int failures;
static u32 word;
static int held, release;

static void fail(const char *what, long got)
{
	failures++;
	printf("FAIL %s: got %ld\n", what, got);
}

/* trylock_as - FUTEX_TRYLOCK_PI on a word that names tid. */
static long trylock_as(u32 tid)
{
	u32 w = tid;
	long ret = futex(&w, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0);

	return ret;
}

static void *sibling(void *arg)
{
	(void)arg;
	__atomic_store_n(&held, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&release, __ATOMIC_SEQ_CST))
		sched_yield();
	return NULL;
}

static void *exiting_owner(void *arg)
{
	u32 zero = 0;

	(void)arg;
	if (!__atomic_compare_exchange_n(&word, &zero, (u32)pthread_self_tid(),
					 false, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		fail("owner's user-space cmpxchg 0 -> TID", zero);
	__atomic_store_n(&held, 1, __ATOMIC_SEQ_CST);
	while (!(__atomic_load_n(&word, __ATOMIC_SEQ_CST) & FUTEX_WAITERS_U))
		sched_yield();
	return NULL;	/* exits owning the futex */
}

/* foreign_tids - cases 1 and 2 for every TID in [1, below) but ours. */
static void foreign_tids(int below, int sib_tid)
{
	int eperm = 0;

	for (int tid = 1; tid < below; tid++) {
		long ret;

		if (tid == sib_tid)
			continue;
		ret = trylock_as((u32)tid);
		if (ret == -EPERM)
			eperm++;
		else if (ret != -ESRCH) {
			printf("FAIL TID %d (not ours): expected -EPERM or "
			       "-ESRCH, got %ld\n", tid, ret);
			failures++;
		}
	}
	if (!eperm)
		fail("no TID below ours was a kernel thread (-EPERM)", eperm);
}

/* one_exit_round - the scenario below the header once; FUTEX_LOCK_PI's
 * return value. */
static long one_exit_round(void)
{
	struct timespec ts;
	pthread_t th;
	u64 deadline;
	long ret;

	held = 0;
	word = 0;
	if (pthread_create(&th, NULL, exiting_owner, NULL)) {
		fail("pthread_create (owner)", -1);
		return -ENOMEM;
	}
	while (!__atomic_load_n(&held, __ATOMIC_SEQ_CST))
		sched_yield();
	deadline = clock_now_ns(CLOCK_REALTIME) + HANG_GUARD_NS;
	ts.tv_sec = (long)(deadline / 1000000000ull);
	ts.tv_nsec = (long)(deadline % 1000000000ull);
	ret = futex(&word, FUTEX_LOCK_PI, 0, &ts, NULL, 0);
	pthread_join(th, NULL);
	return ret;
}

/*
 * exit_hand_over - case 4.  FUTEX_WAITERS is set a moment before the
 * waiter attaches (both under the bucket lock), so the owner may see it
 * and exit first: then the attach finds an exiting owner and the answer
 * is -ESRCH, on Linux as here.  That round proves nothing either way;
 * it is run again, up to EXIT_ROUNDS times.
 */
#define EXIT_ROUNDS 10
static void exit_hand_over(void)
{
	long ret = -ESRCH;

	for (int round = 0; round < EXIT_ROUNDS && ret == -ESRCH; round++)
		ret = one_exit_round();
	if (ret) {
		fail("FUTEX_LOCK_PI behind an owner that exits: expected 0", ret);
		return;
	}
	if ((word & FUTEX_TID_MASK_U) != (u32)pthread_self_tid())
		fail("word after the hand-over: expected our TID, saw", word);
	ret = futex(&word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
	if (ret || word)
		fail("FUTEX_UNLOCK_PI after the hand-over: expected 0 and a "
		     "free word", ret ? ret : (long)word);
}

int main(int argc, char **argv)
{
	int me = pthread_self_tid();
	pthread_t th;
	long other, ret;

	if (pthread_create(&th, NULL, sibling, NULL)) {
		printf("FAIL pthread_create\n");
		return 1;
	}
	while (!__atomic_load_n(&held, __ATOMIC_SEQ_CST))
		sched_yield();
	foreign_tids(me, pthread_tid(th));			/* 1, 2 */
	if (argc > 1 && !kstrtol(argv[1], 10, &other)) {
		ret = trylock_as((u32)other);
		if (ret != -ESRCH)
			fail("TID of another process: expected -ESRCH", ret);
	}
	ret = trylock_as((u32)pthread_tid(th));			/* 3 */
	if (ret != -EWOULDBLOCK)
		fail("TID of our own live thread: expected -EWOULDBLOCK", ret);
	ret = trylock_as((u32)me);
	if (ret != -EDEADLK)
		fail("our own TID: expected -EDEADLK", ret);
	__atomic_store_n(&release, 1, __ATOMIC_SEQ_CST);
	pthread_join(th, NULL);
	exit_hand_over();					/* 4 */
	if (!failures)
		printf("t_pi_owner: ok\n");
	return failures;
}
