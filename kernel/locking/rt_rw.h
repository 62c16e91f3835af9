/*
 * kernel/locking/rt_rw.h - the PREEMPT_RT reader-writer core shared by
 * rwlock_t and struct rw_semaphore under rt (article, "Priority
 * inheritance for in-kernel spinlocks and semaphores": "only one task at
 * a time [may] read-hold a reader-writer lock or semaphore, though that
 * task is permitted to recursively acquire it").
 *
 * It is an rt_mutex plus a read depth: a read acquisition by the task
 * that already read-holds it only counts; any other read or write
 * acquisition takes the rt_mutex, so readers and writers alike get
 * priority inheritance from whoever waits behind them.
 *
 *	read_depth  0: free or write-held; n > 0: read-held n times by the
 *	            rt_mutex owner.  Written by the owner only.
 *
 * Linux counterpart: kernel/rt.c of the PREEMPT_RT patch v0.7.x
 * (rt_read_lock, rt_down_read with read_depth); mainline rwbase_rt.c
 * allows many readers instead.
 */
#ifndef KERNEL_LOCKING_RT_RW_H
#define KERNEL_LOCKING_RT_RW_H

#include "kernel/locking/rtmutex.h"

struct rt_rw_lock {
	struct rt_mutex lock;
	int read_depth;
};

#define __RT_RW_LOCK_INITIALIZER(name)                                       \
	{ .lock = __RT_MUTEX_INITIALIZER(name.lock), .read_depth = 0 }

void __rt_rw_init(struct rt_rw_lock *rw, const char *name, const char *file,
		  int line);

/* sleeping: true for a spinlock_t-style sleep that keeps the task state
 * (rwlock_t), false for an ordinary uninterruptible one (rw_semaphore). */
void rt_rw_read_lock(struct rt_rw_lock *rw, bool keep_state);
int rt_rw_read_trylock(struct rt_rw_lock *rw);
void rt_rw_read_unlock(struct rt_rw_lock *rw);
void rt_rw_write_lock(struct rt_rw_lock *rw, bool keep_state);
int rt_rw_write_trylock(struct rt_rw_lock *rw);
void rt_rw_write_unlock(struct rt_rw_lock *rw);
/* rt_rw_downgrade - the writer becomes the (one) reader, atomically. */
void rt_rw_downgrade(struct rt_rw_lock *rw);

#endif /* KERNEL_LOCKING_RT_RW_H */
