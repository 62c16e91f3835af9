/*
 * kernel/mm/mm_lock.h - the lock type of the memory manager's structures
 * (the page allocator's bitmaps, each slab cache, the page tables, the
 * kernel-stack slots).
 *
 * Locking: rtk runs on one CPU until the SMP bring-up (issue 3) starts
 * the application processors.  On one CPU the only thing that can
 * interleave with an allocator is an interrupt handler on the same CPU,
 * so disabling interrupts (raw_local_irq_save, which really clears IF)
 * is a complete lock.  The `held` flag turns the Locking: comments into
 * assertions (mm_lock_assert_held) and catches recursion, e.g. a fault
 * handler allocating while the allocator runs.
 * When SMP arrives this struct becomes a raw_spinlock_t and these three
 * helpers become raw_spin_lock_irqsave / raw_spin_unlock_irqrestore /
 * lockdep_assert_held: the call sites do not change.  It stays a *raw*
 * lock under PREEMPT_RT because GFP_ATOMIC allocations are allowed with
 * interrupts off (Linux RT makes the zone lock a sleeping spinlock_t
 * instead and forbids allocation from hard-irq context).
 * Linux counterpart: the zone->lock and kmem_cache_node->list_lock
 * spinlocks.
 */
#ifndef KERNEL_MM_MM_LOCK_H
#define KERNEL_MM_MM_LOCK_H

#include "arch/x86_64/arch.h"
#include "lib/bug.h"
#include "kernel/locking/raw_spinlock.h"

/* SMP: a raw spinlock, as planned above (sched helper's edit).  All
 * zero is the unlocked state, so static mm_locks need no initialiser. */
struct mm_lock {
	raw_spinlock_t lock;
};

static inline unsigned long mm_lock_irqsave(struct mm_lock *lock)
{
	unsigned long flags;

	BUG_ON(raw_spin_is_held_here(&lock->lock));	/* recursion */
	raw_spin_lock_irqsave(&lock->lock, flags);
	return flags;
}

static inline void mm_unlock_irqrestore(struct mm_lock *lock,
					unsigned long flags)
{
	raw_spin_unlock_irqrestore(&lock->lock, flags);
}

static inline void mm_lock_assert_held(struct mm_lock *lock)
{
	BUG_ON(!raw_spin_is_held_here(&lock->lock) || !raw_irqs_disabled());
}

#endif /* KERNEL_MM_MM_LOCK_H */
