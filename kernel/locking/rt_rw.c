/*
 * kernel/locking/rt_rw.c - the single-recursive-reader rt_mutex lock
 * under rwlock_t and rw_semaphore for PREEMPT_RT (rt_rw.h).
 * Built under every model; only the rt rwlock.h/semaphore.h use it.
 * Linux counterpart: PREEMPT_RT patch v0.7.x kernel/rt.c.
 */
#include "kernel/locking/rt_rw.h"
#include "kernel/locking/rtmutex_internal.h"

void __rt_rw_init(struct rt_rw_lock *rw, const char *name, const char *file,
		  int line)
{
	__rt_mutex_init(&rw->lock, name, file, line);
	rw->read_depth = 0;
}

/* rt_rw_take - the rt_mutex acquisition: rwlock_t sleeps like spinlock_t
 * (state kept, no preemption point), rw_semaphore like rt_mutex_lock(). */
static void rt_rw_take(struct rt_rw_lock *rw, bool keep_state)
{
	if (!keep_state) {
		rt_mutex_lock(&rw->lock);
		return;
	}
	__might_sleep(__FILE__, __LINE__);
	rt_mutex_lock_common(&rw->lock, RT_SLEEP_SAVESTATE, -1, true);
}

/*
 * rt_rw_read_lock - Context: task, may sleep.  Locking: [1] the task
 * that read-holds it only counts the recursion; [2] anyone else takes
 * the rt_mutex (PI) and becomes the one reader.
 */
void rt_rw_read_lock(struct rt_rw_lock *rw, bool keep_state)
{
	if (rt_mutex_owner(&rw->lock) == current && rw->read_depth > 0) {
		rw->read_depth++;				/* [1] */
		return;
	}
	rt_rw_take(rw, keep_state);				/* [2] */
	rw->read_depth = 1;
}

int rt_rw_read_trylock(struct rt_rw_lock *rw)
{
	if (rt_mutex_owner(&rw->lock) == current && rw->read_depth > 0) {
		rw->read_depth++;
		return 1;
	}
	if (!rt_mutex_trylock(&rw->lock))
		return 0;
	rw->read_depth = 1;
	return 1;
}

/* rt_rw_read_unlock - Locking: the caller read-holds rw (WARN else). */
void rt_rw_read_unlock(struct rt_rw_lock *rw)
{
	if (WARN_ON(rt_mutex_owner(&rw->lock) != current || rw->read_depth <= 0))
		return;
	if (--rw->read_depth == 0)
		rt_mutex_unlock(&rw->lock);
}

void rt_rw_write_lock(struct rt_rw_lock *rw, bool keep_state)
{
	rt_rw_take(rw, keep_state);
	BUG_ON(rw->read_depth != 0);
}

int rt_rw_write_trylock(struct rt_rw_lock *rw)
{
	return rt_mutex_trylock(&rw->lock);
}

/* rt_rw_write_unlock - Locking: the caller write-holds rw (WARN else). */
void rt_rw_write_unlock(struct rt_rw_lock *rw)
{
	if (WARN_ON(rw->read_depth != 0))
		return;
	rt_mutex_unlock(&rw->lock);
}

void rt_rw_downgrade(struct rt_rw_lock *rw)
{
	if (WARN_ON(rt_mutex_owner(&rw->lock) != current || rw->read_depth))
		return;
	rw->read_depth = 1;
}
