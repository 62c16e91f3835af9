/*
 * kernel/locking/raw_rwlock.h - raw_rwlock_t: the spinning reader-writer
 * lock that keeps its traditional meaning under every model (article,
 * "Summary of PREEMPT_RT primitives", raw_rwlock_t: critical sections
 * are non-preemptible and the _irq operations really disable interrupts).
 *
 *	cnt > 0: that many readers; -1: one writer; 0: free
 *
 * Readers can starve a writer, as the classic rwlock allows.  Callers use
 * read_lock()/write_lock() & co. of kernel/locking/rwlock.h, which pick
 * the raw_read_lock() ... below for a raw_rwlock_t *.
 * Linux counterpart: include/linux/rwlock.h, rwlock_api_smp.h and the
 * pre-qrwlock arch rwlocks; the counter is in raw_rwlock.c.
 */
#ifndef KERNEL_LOCKING_RAW_RWLOCK_H
#define KERNEL_LOCKING_RAW_RWLOCK_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "arch/x86_64/arch.h"
#include "kernel/irqflags.h"
#include "kernel/sched/preempt.h"
#include "kernel/locking/lockdep.h"

typedef struct raw_rwlock {
	int cnt;		/* atomic: >0 readers, -1 writer, 0 free */
	const char *name;
	struct lockdep_map dep_map;	/* validator class (lockdep.h) */
} raw_rwlock_t;

#define __RAW_RW_LOCK_UNLOCKED(lockname)                                     \
	{ .cnt = 0, .name = #lockname,                                       \
	  .dep_map = LOCKDEP_MAP_INIT(#lockname, LD_WAIT_SPIN) }
#define DEFINE_RAW_RWLOCK(x) raw_rwlock_t x = __RAW_RW_LOCK_UNLOCKED(x)

/* Internal: the counter operations; preemption/IF handled by callers. */
bool do_raw_read_trylock(raw_rwlock_t *rw);
bool do_raw_write_trylock(raw_rwlock_t *rw);
void do_raw_read_lock(raw_rwlock_t *rw);
void do_raw_write_lock(raw_rwlock_t *rw);
void do_raw_read_unlock(raw_rwlock_t *rw);
void do_raw_write_unlock(raw_rwlock_t *rw);

/* __raw_rwlock_init - the lock's validator class is the init site. */
static inline void __raw_rwlock_init(raw_rwlock_t *rw, const char *name,
				     const char *file, int line)
{
	rw->cnt = 0;
	rw->name = name;
	lockdep_init_map(&rw->dep_map, name, file, line, LD_WAIT_SPIN);
}

/*
 * raw_read_lock / raw_write_lock - spin until the counter lets us in;
 * preemption stays off until the unlock.  Context: any (hard-irq too, if
 * every task-context user takes an _irq form).  Locking: takes rw.
 */
static __always_inline void raw_read_lock(raw_rwlock_t *rw)
{
	preempt_disable();
	do_raw_read_lock(rw);
}

static __always_inline int raw_read_trylock(raw_rwlock_t *rw)
{
	preempt_disable();
	if (do_raw_read_trylock(rw))
		return 1;
	preempt_enable();
	return 0;
}

static __always_inline void raw_read_unlock(raw_rwlock_t *rw)
{
	do_raw_read_unlock(rw);
	preempt_enable();
}

static __always_inline void raw_read_lock_irq(raw_rwlock_t *rw)
{
	raw_local_irq_disable();
	raw_read_lock(rw);
}

static __always_inline void raw_read_unlock_irq(raw_rwlock_t *rw)
{
	do_raw_read_unlock(rw);
	raw_local_irq_enable();
	preempt_enable();
}

/* __raw_read_lock_irqsave - returns the flags before irqs went off. */
static __always_inline unsigned long __raw_read_lock_irqsave(raw_rwlock_t *rw)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	raw_read_lock(rw);
	return flags;
}

static __always_inline void raw_read_unlock_irqrestore(raw_rwlock_t *rw,
						       unsigned long flags)
{
	do_raw_read_unlock(rw);
	raw_local_irq_restore(flags);
	preempt_enable();
}

static __always_inline void raw_write_lock(raw_rwlock_t *rw)
{
	preempt_disable();
	do_raw_write_lock(rw);
}

static __always_inline int raw_write_trylock(raw_rwlock_t *rw)
{
	preempt_disable();
	if (do_raw_write_trylock(rw))
		return 1;
	preempt_enable();
	return 0;
}

static __always_inline void raw_write_unlock(raw_rwlock_t *rw)
{
	do_raw_write_unlock(rw);
	preempt_enable();
}

static __always_inline void raw_write_lock_irq(raw_rwlock_t *rw)
{
	raw_local_irq_disable();
	raw_write_lock(rw);
}

static __always_inline void raw_write_unlock_irq(raw_rwlock_t *rw)
{
	do_raw_write_unlock(rw);
	raw_local_irq_enable();
	preempt_enable();
}

static __always_inline unsigned long __raw_write_lock_irqsave(raw_rwlock_t *rw)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	raw_write_lock(rw);
	return flags;
}

static __always_inline void raw_write_unlock_irqrestore(raw_rwlock_t *rw,
							unsigned long flags)
{
	do_raw_write_unlock(rw);
	raw_local_irq_restore(flags);
	preempt_enable();
}

#endif /* KERNEL_LOCKING_RAW_RWLOCK_H */
