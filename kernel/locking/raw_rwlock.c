/*
 * kernel/locking/raw_rwlock.c - raw_rwlock_t's counter (raw_rwlock.h): the
 * spinning reader-writer lock kept under every model.
 * Linux counterpart: the pre-qrwlock arch rwlocks (a biased counter).
 */
#include "kernel/locking/raw_rwlock.h"

/* the counter operations; the do_raw_* functions below annotate them
 * for the validator (readers are recursive: read = 2) */
static bool raw_read_take(raw_rwlock_t *rw)
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

static bool raw_write_take(raw_rwlock_t *rw)
{
	int c = 0;

	return __atomic_compare_exchange_n(&rw->cnt, &c, -1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

bool do_raw_read_trylock(raw_rwlock_t *rw)
{
	if (!raw_read_take(rw))
		return false;
	lock_acquire(&rw->dep_map, 0, true, 2, _RET_IP_);
	return true;
}

bool do_raw_write_trylock(raw_rwlock_t *rw)
{
	if (!raw_write_take(rw))
		return false;
	lock_acquire(&rw->dep_map, 0, true, 0, _RET_IP_);
	return true;
}

void do_raw_read_lock(raw_rwlock_t *rw)
{
	lock_acquire(&rw->dep_map, 0, false, 2, _RET_IP_);
	while (!raw_read_take(rw))
		while (__atomic_load_n(&rw->cnt, __ATOMIC_RELAXED) < 0)
			cpu_relax();
}

void do_raw_write_lock(raw_rwlock_t *rw)
{
	lock_acquire(&rw->dep_map, 0, false, 0, _RET_IP_);
	while (!raw_write_take(rw))
		while (__atomic_load_n(&rw->cnt, __ATOMIC_RELAXED) != 0)
			cpu_relax();
}

/* Locking: the caller read-holds rw (BUG otherwise). */
void do_raw_read_unlock(raw_rwlock_t *rw)
{
	int old;

	lock_release(&rw->dep_map, _RET_IP_);
	old = __atomic_fetch_sub(&rw->cnt, 1, __ATOMIC_RELEASE);
	BUG_ON(old <= 0);
}

/* Locking: the caller write-holds rw (BUG otherwise). */
void do_raw_write_unlock(raw_rwlock_t *rw)
{
	BUG_ON(__atomic_load_n(&rw->cnt, __ATOMIC_RELAXED) != -1);
	lock_release(&rw->dep_map, _RET_IP_);
	__atomic_store_n(&rw->cnt, 0, __ATOMIC_RELEASE);
}
