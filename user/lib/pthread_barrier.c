/*
 * user/lib/pthread_barrier.c - a barrier for a fixed number of threads
 * on one futex word, the round counter.
 *
 * [1] read the round; [2] count myself in; [3] the last to arrive resets
 * the count for the next round, then bumps the round (release: the
 * reset is seen by anyone who sees the new round) and wakes everyone
 * waiting on it; [4] the others sleep in FUTEX_WAIT while the round is
 * the one they read: a bump between the read and the wait makes the
 * wait return at once, so no wake is lost.
 *
 *	thread A (not last)		thread B (last)
 *	r = round			r = round
 *	arrived: 1 of 2			arrived: 2 of 2 -> arrived = 0
 *					round = r + 1; FUTEX_WAKE(all)
 *	FUTEX_WAIT(&round, r): round != r, returns -EAGAIN at once
 *
 * Linux counterpart: glibc nptl/pthread_barrier_wait.c (which also
 * allows reuse while threads still leave a round; here a thread can only
 * re-enter after seeing the bump, which follows the reset).
 */
#include "user/lib/pthread.h"
#include "user/lib/sys.h"
#include "lib/errno.h"

int pthread_barrier_init(pthread_barrier_t *b, const void *attr,
			 unsigned int count)
{
	if (count == 0)
		return -EINVAL;
	b->count = count;
	b->arrived = 0;
	b->round = 0;
	return 0;
}

int pthread_barrier_destroy(pthread_barrier_t *b)
{
	return 0;
}

int pthread_barrier_wait(pthread_barrier_t *b)
{
	u32 round = __atomic_load_n(&b->round, __ATOMIC_ACQUIRE);	/* [1] */

	if (__atomic_add_fetch(&b->arrived, 1, __ATOMIC_ACQ_REL) ==	/* [2] */
	    b->count) {
		__atomic_store_n(&b->arrived, 0, __ATOMIC_RELAXED);	/* [3] */
		__atomic_store_n(&b->round, round + 1, __ATOMIC_RELEASE);
		futex(&b->round, FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}
	while (__atomic_load_n(&b->round, __ATOMIC_ACQUIRE) == round)	/* [4] */
		futex(&b->round, FUTEX_WAIT, round, NULL, NULL, 0);
	return 0;
}
