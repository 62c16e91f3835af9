/*
 * user/lib/pthread_mutex.c - mutexes on futexes, two protocols:
 *
 * PTHREAD_PRIO_NONE, the plain futex mutex (Drepper, "Futexes Are
 * Tricky", mutex 2; glibc's lowlevellock): the word is 0 free, 1 locked,
 * 2 locked with possible waiters; a waiter sleeps in FUTEX_WAIT, an
 * unlocker that saw 2 wakes one with FUTEX_WAKE.  The kernel knows
 * nothing of the owner, so a high-priority waiter does not help a
 * preempted low-priority owner: the article's unbounded priority
 * inversion ("Priority inheritance" section) is possible.
 *
 * PTHREAD_PRIO_INHERIT, the PI futex (Linux Documentation/locking/
 * pi-futex.rst; glibc's pthread_mutex_lock.c, PI case).  Word encoding:
 *
 *	bit 31		FUTEX_WAITERS: set by the kernel, unlock must enter it
 *	bit 30		FUTEX_OWNER_DIED (not used by rtk's programs)
 *	bits 29..0	the owner's TID, 0 = free
 *
 * [1] lock fast path: cmpxchg 0 -> my TID in user space, no system call.
 * [2] contended: FUTEX_LOCK_PI.  The kernel sets FUTEX_WAITERS, stands an
 *     rt_mutex in for the user lock with the owner (found by the TID) as
 *     its proxy owner, and blocks the caller on it: the owner inherits
 *     the caller's priority, transitively.  It returns with the word
 *     holding the caller's TID (| FUTEX_WAITERS if more wait).
 * [3] unlock fast path: cmpxchg my TID -> 0; fails if FUTEX_WAITERS is
 *     set (or someone else owns it).
 * [4] otherwise FUTEX_UNLOCK_PI: the kernel hands the lock to the top
 *     waiter (its TID into the word) and deboosts the caller; -EPERM if
 *     the caller is not the owner.
 */
#include "user/lib/pthread.h"
#include "user/lib/sys.h"
#include "lib/errno.h"

#define PLAIN_FREE	0
#define PLAIN_LOCKED	1
#define PLAIN_CONTENDED	2

int pthread_mutexattr_init(pthread_mutexattr_t *attr)
{
	attr->protocol = PTHREAD_PRIO_NONE;
	return 0;
}

int pthread_mutexattr_setprotocol(pthread_mutexattr_t *attr, int protocol)
{
	if (protocol != PTHREAD_PRIO_NONE && protocol != PTHREAD_PRIO_INHERIT)
		return -EINVAL;	/* PTHREAD_PRIO_PROTECT: not in rtk */
	attr->protocol = protocol;
	return 0;
}

int pthread_mutexattr_getprotocol(const pthread_mutexattr_t *attr,
				  int *protocol)
{
	*protocol = attr->protocol;
	return 0;
}

int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr)
{
	m->word = 0;
	m->protocol = attr ? attr->protocol : PTHREAD_PRIO_NONE;
	return 0;
}

int pthread_mutex_destroy(pthread_mutex_t *m)
{
	return __atomic_load_n(&m->word, __ATOMIC_RELAXED) ? -EBUSY : 0;
}

static bool cmpxchg_acquire(u32 *word, u32 old, u32 new)
{
	return __atomic_compare_exchange_n(word, &old, new, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static int plain_lock(pthread_mutex_t *m)
{
	u32 c = PLAIN_FREE;

	if (__atomic_compare_exchange_n(&m->word, &c, PLAIN_LOCKED, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return 0;
	/* contended: mark it so the unlocker wakes someone, then sleep
	 * while it stays locked; leaving with 2 may cost one spare wake */
	if (c != PLAIN_CONTENDED)
		c = __atomic_exchange_n(&m->word, PLAIN_CONTENDED,
					__ATOMIC_ACQUIRE);
	while (c != PLAIN_FREE) {
		futex(&m->word, FUTEX_WAIT, PLAIN_CONTENDED, NULL, NULL, 0);
		c = __atomic_exchange_n(&m->word, PLAIN_CONTENDED,
					__ATOMIC_ACQUIRE);
	}
	return 0;
}

static int plain_unlock(pthread_mutex_t *m)
{
	u32 c = __atomic_exchange_n(&m->word, PLAIN_FREE, __ATOMIC_RELEASE);

	if (c == PLAIN_FREE)
		return -EPERM;
	if (c == PLAIN_CONTENDED)
		futex(&m->word, FUTEX_WAKE, 1, NULL, NULL, 0);
	return 0;
}

static int pi_lock(pthread_mutex_t *m)
{
	u32 tid = pthread_self_tid();
	long ret;

	if (cmpxchg_acquire(&m->word, 0, tid))			/* [1] */
		return 0;
	if ((__atomic_load_n(&m->word, __ATOMIC_RELAXED) & FUTEX_TID_MASK) == tid)
		return -EDEADLK;
	do {							/* [2] */
		ret = futex(&m->word, FUTEX_LOCK_PI, 0, NULL, NULL, 0);
	} while (ret == -EINTR || ret == -EAGAIN);
	return (int)ret;
}

static int pi_unlock(pthread_mutex_t *m)
{
	u32 tid = pthread_self_tid();

	if (__atomic_compare_exchange_n(&m->word, &tid, 0, false,	/* [3] */
					__ATOMIC_RELEASE, __ATOMIC_RELAXED))
		return 0;
	return (int)futex(&m->word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0); /* [4] */
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	if (m->protocol == PTHREAD_PRIO_INHERIT)
		return pi_lock(m);
	return plain_lock(m);
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
	if (m->protocol == PTHREAD_PRIO_INHERIT)
		return cmpxchg_acquire(&m->word, 0, pthread_self_tid()) ?
			0 : -EBUSY;
	return cmpxchg_acquire(&m->word, PLAIN_FREE, PLAIN_LOCKED) ? 0 : -EBUSY;
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	if (m->protocol == PTHREAD_PRIO_INHERIT)
		return pi_unlock(m);
	return plain_unlock(m);
}
