/*
 * kernel/locking/raw_rwlock.c - raw_rwlock_t's counter (rwlock.h): the
 * spinning reader-writer lock kept under every model.
 * Linux counterpart: the pre-qrwlock arch rwlocks (a biased counter).
 */
#include "kernel/locking/rwlock.h"

bool do_raw_read_trylock(raw_rwlock_t *rw)
{
	int c = __atomic_load_n(&rw->cnt, __ATOMIC_RELAXED);

	while (c >= 0) {
		if (__atomic_compare_exchange_n(&rw->cnt, &c, c + 1, true,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return true;
	}
	return false;
}

bool do_raw_write_trylock(raw_rwlock_t *rw)
{
	int c = 0;

	return __atomic_compare_exchange_n(&rw->cnt, &c, -1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void do_raw_read_lock(raw_rwlock_t *rw)
{
	while (!do_raw_read_trylock(rw))
		while (__atomic_load_n(&rw->cnt, __ATOMIC_RELAXED) < 0)
			cpu_relax();
}

void do_raw_write_lock(raw_rwlock_t *rw)
{
	while (!do_raw_write_trylock(rw))
		while (__atomic_load_n(&rw->cnt, __ATOMIC_RELAXED) != 0)
			cpu_relax();
}

/* Locking: the caller read-holds rw (BUG otherwise). */
void do_raw_read_unlock(raw_rwlock_t *rw)
{
	int old = __atomic_fetch_sub(&rw->cnt, 1, __ATOMIC_RELEASE);

	BUG_ON(old <= 0);
}

/* Locking: the caller write-holds rw (BUG otherwise). */
void do_raw_write_unlock(raw_rwlock_t *rw)
{
	BUG_ON(__atomic_load_n(&rw->cnt, __ATOMIC_RELAXED) != -1);
	__atomic_store_n(&rw->cnt, 0, __ATOMIC_RELEASE);
}
