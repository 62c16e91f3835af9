/*
 * tests/kernel/test_futex.c - the futex suite: FUTEX_WAIT and FUTEX_WAKE
 * (kernel/futex/waitwake.c) and do_futex's errors, from kernel threads
 * whose futex words live in kernel memory (kernel/futex/futex_uaccess.h's
 * stand-in until user mode exists).  Every test runs on one CPU and on
 * all; the waiters are not pinned.  The PI operations are test_futex_pi.c.
 */
#include "kernel/ktest.h"
#include "kernel/signal.h"
#include "kernel/sched/completion.h"
#include "lib/errno.h"
#include "tests/kernel/futex_helpers.h"

static u32 futex_word;

/* Bad arguments get Linux's errnos: a misaligned word -EINVAL, the NULL
 * page -EFAULT, an unknown op and FUTEX_CLOCK_REALTIME on FUTEX_WAIT
 * -ENOSYS (Linux takes it only with WAIT_BITSET, WAIT_REQUEUE_PI and
 * LOCK_PI2), and a wake nobody waits for wakes 0. */
static void test_futex_bad_arguments_get_linux_errnos(struct ktest *t)
{
	u32 *misaligned = (u32 *)((uintptr_t)&futex_word + 1);

	WRITE_ONCE(futex_word, 0);
	KTEST_EXPECT_EQ(t, futex_op(misaligned, FUTEX_WAIT, 0, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, futex_op(misaligned, FUTEX_WAKE, 1, NULL), -EINVAL);
	KTEST_EXPECT_EQ(t, futex_op(misaligned, FUTEX_LOCK_PI, 0, NULL),
			-EINVAL);
	KTEST_EXPECT_EQ(t, futex_op(NULL, FUTEX_WAIT, 0, NULL), -EFAULT);
	KTEST_EXPECT_EQ(t, futex_op(NULL, FUTEX_LOCK_PI, 0, NULL), -EFAULT);
	KTEST_EXPECT_EQ(t, futex_op(NULL, FUTEX_TRYLOCK_PI, 0, NULL), -EFAULT);
	KTEST_EXPECT_EQ(t, futex_op(NULL, FUTEX_UNLOCK_PI, 0, NULL), -EFAULT);
	KTEST_EXPECT_EQ(t, futex_op(&futex_word, 3 /* FUTEX_REQUEUE */, 0,
				    NULL), -ENOSYS);
	KTEST_EXPECT_EQ(t, futex_op(&futex_word, 42, 0, NULL), -ENOSYS);
	KTEST_EXPECT_EQ(t, futex_op(&futex_word,
				    FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 0, NULL),
			-ENOSYS);
	KTEST_EXPECT_EQ(t, futex_op(&futex_word, FUTEX_WAKE, 1, NULL), 0);
	KTEST_EXPECT_EQ(t, futex_op(&futex_word,
				    FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 5, NULL),
			0);
}

/*
 * A futex is a word of a user address space: a kernel thread on none
 * (this runner before its first futex_op) finds no word, even at a
 * valid kernel address -- the futex code has no kernel-memory access.
 * Scenario: the runner, with no mm, calls do_futex directly on the
 * kernel name of futex_word.  Observable: WAIT and LOCK_PI are -EFAULT,
 * the word is unchanged; then through the test mm the same word works.
 */
static void test_futex_without_an_address_space_is_efault(struct ktest *t)
{
	u32 __user *kname = (u32 __user *)&futex_word;

	KTEST_ASSERT(t, current->mm == NULL,
		     "expected the runner on no mm at the case's start");
	WRITE_ONCE(futex_word, 7);
	KTEST_EXPECT_EQ(t, do_futex(kname, FUTEX_WAIT, 7, NULL, NULL, 0, 0),
			-EFAULT);
	KTEST_EXPECT_EQ(t, do_futex(kname, FUTEX_LOCK_PI, 0, NULL, NULL, 0, 0),
			-EFAULT);
	KTEST_EXPECT_EQ(t, futex_word_read(&futex_word), 7);
	KTEST_EXPECT_EQ(t, futex_op(&futex_word, FUTEX_WAIT, 8, NULL),
			-EAGAIN);
}

/* The waker changed the word before the waiter came: -EAGAIN at once,
 * private or not, without sleeping. */
static void test_futex_wait_with_a_changed_value_is_eagain(struct ktest *t)
{
	WRITE_ONCE(futex_word, 1);
	KTEST_EXPECT_EQ(t, futex_op(&futex_word, FUTEX_WAIT, 0, NULL),
			-EAGAIN);
	KTEST_EXPECT_EQ(t, futex_op(&futex_word,
				    FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 7, NULL),
			-EAGAIN);
	KTEST_EXPECT_EQ(t, -EAGAIN, -EWOULDBLOCK);
}

/* Nobody wakes: -ETIMEDOUT, not before the deadline; a deadline already
 * past times out at once. */
static void test_futex_wait_times_out(struct ktest *t)
{
	ktime_t deadline;
	long ret;

	WRITE_ONCE(futex_word, 5);
	deadline = ktime_get() + 2 * NSEC_PER_MSEC;
	ret = futex_op(&futex_word, FUTEX_WAIT, 5, &deadline);
	KTEST_EXPECT_EQ(t, ret, -ETIMEDOUT);
	KTEST_EXPECT(t, ktime_get() >= deadline,
		     "returned %lld ns before its deadline",
		     (long long)(deadline - ktime_get()));
	deadline = ktime_get() - 1;
	KTEST_EXPECT_EQ(t, futex_op(&futex_word, FUTEX_WAIT, 5, &deadline),
			-ETIMEDOUT);
	/* nothing is left queued: a wake finds nobody */
	KTEST_EXPECT_EQ(t, futex_op(&futex_word, FUTEX_WAKE, 10, NULL), 0);
}

#define NR_WAITERS 3

static struct completion waiter_done[NR_WAITERS];
static bool waiter_ready[NR_WAITERS];
static long waiter_ret[NR_WAITERS];
static int waiter_rank[NR_WAITERS];	/* 1 = first to return */
static int waiters_returned;

static int futex_waiter_fn(void *data)
{
	int i = (int)(uintptr_t)data;

	WRITE_ONCE(waiter_ready[i], true);
	waiter_ret[i] = futex_op(&futex_word, FUTEX_WAIT, 0, NULL);
	waiter_rank[i] = __atomic_add_fetch(&waiters_returned, 1,
					    __ATOMIC_SEQ_CST);
	complete(&waiter_done[i]);
	return 0;
}

/* wait_one_returned - the waiter that returned as number rank, or -1. */
static int wait_one_returned(int rank)
{
	ktime_t end = ktime_get() + SAFETY_NS;
	int i;

	while (ktime_get() < end) {
		for (i = 0; i < NR_WAITERS; i++)
			if (READ_ONCE(waiter_rank[i]) == rank)
				return i;
		schedule();
	}
	return -1;
}

/*
 * Scenario: W0 (FIFO 10), W1 (FIFO 30), W2 (FIFO 20), unpinned, wait on
 * the word (value 0); the test task (SCHED_OTHER) waits until all three
 * sleep, sets the word to 1 and wakes one at a time.
 * Observable: FUTEX_WAKE(1) returns 1 and wakes W1, then W2, then W0
 * (prio order: the bucket's chain is a plist); each FUTEX_WAIT returns
 * 0; FUTEX_WAKE(INT_MAX) with nobody left returns 0.  Then the same three
 * are woken by one FUTEX_WAKE(INT_MAX), which returns 3.
 */
static void test_futex_wake_count_and_order_across_cpus(struct ktest *t)
{
	static const int prio[NR_WAITERS] = { 10, 30, 20 };
	static const int order[NR_WAITERS] = { 1, 2, 0 };
	struct task_struct *w[NR_WAITERS];
	int round, i, rank;

	for (round = 0; round < 2; round++) {
		WRITE_ONCE(futex_word, 0);
		waiters_returned = 0;
		for (i = 0; i < NR_WAITERS; i++) {
			init_completion(&waiter_done[i]);
			waiter_ready[i] = false;
			waiter_ret[i] = 1;
			waiter_rank[i] = 0;
			w[i] = start_rt(futex_waiter_fn, (void *)(uintptr_t)i,
					SCHED_FIFO, prio[i], -1, "futex-W");
			KTEST_ASSERT(t, w[i] != NULL, "kthread_create failed");
		}
		for (i = 0; i < NR_WAITERS; i++)
			KTEST_EXPECT(t, wait_flag_then_sleeping(
						w[i], &waiter_ready[i]),
				     "W%d not seen asleep in FUTEX_WAIT", i);
		WRITE_ONCE(futex_word, 1);
		if (round == 0) {
			for (rank = 1; rank <= NR_WAITERS; rank++) {
				KTEST_EXPECT_EQ(t, futex_op(&futex_word,
							    FUTEX_WAKE, 1,
							    NULL), 1);
				i = wait_one_returned(rank);
				KTEST_EXPECT(t, i == order[rank - 1],
					     "wake %d: expected W%d (FIFO %d) "
					     "to return, seen W%d", rank,
					     order[rank - 1],
					     prio[order[rank - 1]], i);
			}
		} else {
			KTEST_EXPECT_EQ(t, futex_op(&futex_word, FUTEX_WAKE,
						    0x7fffffff, NULL),
					NR_WAITERS);
		}
		for (i = 0; i < NR_WAITERS; i++) {
			wait_for_completion(&waiter_done[i]);
			KTEST_EXPECT(t, waiter_ret[i] == 0,
				     "round %d: W%d's FUTEX_WAIT returned %ld, "
				     "want 0", round, i, waiter_ret[i]);
			put_task_struct(w[i]);
		}
		KTEST_EXPECT_EQ(t, futex_op(&futex_word, FUTEX_WAKE,
					    0x7fffffff, NULL), 0);
	}
}

static struct completion sig_waiter_done;
static bool sig_waiter_ready;
static long sig_waiter_ret;

static int futex_sig_waiter_fn(void *data)
{
	WRITE_ONCE(sig_waiter_ready, true);
	sig_waiter_ret = futex_op(&futex_word, FUTEX_WAIT, 0, NULL);
	flush_signals(current);
	complete(&sig_waiter_done);
	return 0;
}

/* Scenario: W (FIFO 10, unpinned) waits on the word without a timeout;
 * the test signals it.  Observable: FUTEX_WAIT returns -EINTR and W is
 * off the chain (a later FUTEX_WAKE finds nobody). */
static void test_futex_wait_is_interrupted_by_a_signal(struct ktest *t)
{
	struct task_struct *w;

	WRITE_ONCE(futex_word, 0);
	init_completion(&sig_waiter_done);
	sig_waiter_ready = false;
	w = start_rt(futex_sig_waiter_fn, NULL, SCHED_FIFO, 10, -1,
		     "futex-sig");
	KTEST_ASSERT(t, w != NULL, "kthread_create failed");
	KTEST_EXPECT(t, wait_flag_then_sleeping(w, &sig_waiter_ready),
		     "W not seen asleep in FUTEX_WAIT");
	kernel_signal(w);
	wait_for_completion(&sig_waiter_done);
	KTEST_EXPECT_EQ(t, sig_waiter_ret, -EINTR);
	KTEST_EXPECT_EQ(t, futex_op(&futex_word, FUTEX_WAKE, 1, NULL), 0);
	put_task_struct(w);
}

KTEST_SUITE(futex, KTEST_CASE(test_futex_bad_arguments_get_linux_errnos),
	    KTEST_CASE(test_futex_without_an_address_space_is_efault),
	    KTEST_CASE(test_futex_wait_with_a_changed_value_is_eagain),
	    KTEST_CASE(test_futex_wait_times_out),
	    KTEST_CASE(test_futex_wake_count_and_order_across_cpus),
	    KTEST_CASE(test_futex_wait_is_interrupted_by_a_signal));
