/*
 * tests/kernel/test_futex_pi_mutex.c - the futex_pi_mutex suite: a PI
 * futex used as user space uses it (pthread_mutex_t with
 * PTHREAD_PRIO_INHERIT): cmpxchg fast paths in "user space", FUTEX_LOCK_PI
 * and FUTEX_UNLOCK_PI only on contention, by several threads on every
 * CPU.  The stories of single boosts are test_futex_pi.c.
 */
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/wait.h"
#include "lib/errno.h"
#include "tests/kernel/futex_helpers.h"

static u32 pi_word;

#define MUTEX_THREADS 4
/* 500: hundreds of kernel entries on 1, 2 and 4 CPUs */
#define MUTEX_LOOPS 500

static unsigned long mutex_counter;	/* only under the futex */
static struct completion mutex_start, mutex_done[MUTEX_THREADS];
static long mutex_errors;
static long mutex_syscalls;	/* LOCK_PI + UNLOCK_PI made (contention) */

/* The user-space PI mutex: cmpxchg fast paths, the system call only on
 * contention (what user-lib's pthread-like mutex does). */
static void pi_mutex_lock(u32 *word)
{
	u32 expected = 0;

	if (__atomic_compare_exchange_n(word, &expected, (u32)current->pid,
					false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	__atomic_add_fetch(&mutex_syscalls, 1, __ATOMIC_RELAXED);
	if (futex_op(word, FUTEX_LOCK_PI, 0, NULL))
		__atomic_add_fetch(&mutex_errors, 1, __ATOMIC_RELAXED);
}

static void pi_mutex_unlock(u32 *word)
{
	u32 expected = (u32)current->pid;

	if (__atomic_compare_exchange_n(word, &expected, 0, false,
					__ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return;
	__atomic_add_fetch(&mutex_syscalls, 1, __ATOMIC_RELAXED);
	if (futex_op(word, FUTEX_UNLOCK_PI, 0, NULL))
		__atomic_add_fetch(&mutex_errors, 1, __ATOMIC_RELAXED);
}

static int pi_mutex_user_fn(void *data)
{
	int i, n = (int)(uintptr_t)data;

	futex_test_enter();	/* its fast path makes it an owner */
	wait_for_completion(&mutex_start);
	for (i = 0; i < MUTEX_LOOPS; i++) {
		pi_mutex_lock(&pi_word);
		WRITE_ONCE(mutex_counter, READ_ONCE(mutex_counter) + 1);
		/* now and then sleep holding it, as a user thread may, so
		 * the others contend on one CPU too (the length is not
		 * synchronisation: any sleep lets them run) */
		if ((i & 7) == n)
			schedule_timeout_uninterruptible(10 * NSEC_PER_USEC);
		pi_mutex_unlock(&pi_word);
	}
	complete(&mutex_done[n]);
	return 0;
}

/*
 * Scenario: four unpinned threads, SCHED_OTHER and FIFO 10, 20, 30,
 * started together, each take and release the futex 500 times through
 * the user-space fast paths, entering the kernel only when contended,
 * and increment a plain counter inside; each sleeps holding it every
 * eighth time.  Observable: the counter is 2000 (mutual exclusion),
 * no LOCK_PI or UNLOCK_PI failed, the word ends free and no task is left
 * boosted.
 */
static void test_futex_pi_mutual_exclusion_with_fast_paths(struct ktest *t)
{
	static const int prio[MUTEX_THREADS] = { 0, 10, 20, 30 };
	struct task_struct *p[MUTEX_THREADS];
	int i;

	WRITE_ONCE(pi_word, 0);
	mutex_counter = 0;
	mutex_errors = 0;
	mutex_syscalls = 0;
	init_completion(&mutex_start);
	for (i = 0; i < MUTEX_THREADS; i++) {
		init_completion(&mutex_done[i]);
		p[i] = start_rt(pi_mutex_user_fn, (void *)(uintptr_t)i,
				prio[i] ? SCHED_FIFO : SCHED_OTHER, prio[i], -1,
				"fpi-mutex");
		KTEST_ASSERT(t, p[i] != NULL, "kthread_create failed");
	}
	complete_all(&mutex_start);
	for (i = 0; i < MUTEX_THREADS; i++) {
		wait_for_completion(&mutex_done[i]);
		KTEST_EXPECT(t, p[i]->prio == p[i]->normal_prio,
			     "thread %d left at prio %d, its own is %d", i,
			     p[i]->prio, p[i]->normal_prio);
		put_task_struct(p[i]);
	}
	KTEST_EXPECT_EQ(t, mutex_counter, MUTEX_THREADS * MUTEX_LOOPS);
	KTEST_EXPECT_EQ(t, mutex_errors, 0);
	KTEST_EXPECT_EQ(t, futex_word_read(&pi_word), 0);
	pr_info("futex_pi_mutex: %d lock/unlock pairs, %ld in the kernel\n",
		MUTEX_THREADS * MUTEX_LOOPS, mutex_syscalls);
}

KTEST_SUITE(futex_pi_mutex,
	    KTEST_CASE(test_futex_pi_mutual_exclusion_with_fast_paths));
