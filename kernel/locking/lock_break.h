/*
 * kernel/locking/lock_break.h - lock breaking: preemption points inside a
 * long spinlock_t section (article, "Priority inheritance": some locks
 * are held for extended periods and were given "preemption points" so
 * that the holder drops the lock when another task needs it; the JBD
 * journaling layer is its example).
 *
 * A holder that walks a long structure under a lock calls
 * cond_resched_lock() once per step.  When a task waits for the lock
 * (spin_needbreak) or a reschedule is pending on this CPU (need_resched),
 * it drops the lock, lets the other task in, and retakes it.
 *
 * What the caller must re-validate after cond_resched_lock() returned 1:
 * the lock was dropped, so everything it protects may have changed.  A
 * pointer into a protected list may point at an entry that was removed
 * and freed; a count read under the lock is stale.  A loop that breaks
 * the lock keeps its position in a form that survives the drop (an index
 * into an array that does not shrink, a generation number it rechecks,
 * or it restarts the walk from the head, removing what it has done so
 * that the restart makes progress), and does no step of its work
 * straddling the call.
 *
 * Linux counterpart: include/linux/sched.h cond_resched_lock(),
 * spin_needbreak(); kernel/sched/core.c __cond_resched_lock() (2.6.16:
 * need_lockbreak() on lock->break_lock).  rtk leaves out
 * cond_resched_rwlock_read/write and a raw_spinlock_t form: a raw lock's
 * section must be short by construction.
 */
#ifndef KERNEL_LOCKING_LOCK_BREAK_H
#define KERNEL_LOCKING_LOCK_BREAK_H

#include "kernel/locking/spinlock.h"

/*
 * raw_spin_is_contended - does a CPU spin for this held raw lock?  The
 * ticket lock makes it visible: the holder took ticket owner, so
 * next - owner > 1 means a later ticket is handed out and waits.
 * Context: any.  Locking: none (a racy read; the answer can be stale).
 */
static inline bool raw_spin_is_contended(raw_spinlock_t *lock)
{
	u16 owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	u16 next = __atomic_load_n(&lock->next, __ATOMIC_RELAXED);

	return (u16)(next - owner) > 1;
}

/*
 * spin_needbreak - should the holder of lock drop it because another
 * task waits for it?  What "waits" means is the model's:
 *   rt                 the rt_mutex under spinlock_t has a waiter (asleep
 *                      in rt_spin_lock, boosting the holder through PI)
 *   desktop            a CPU spins on the ticket (raw_spin_is_contended)
 *   none, voluntary    never: as in Linux without CONFIG_PREEMPTION, a
 *                      throughput kernel keeps the lock (and its cache
 *                      lines) for the holder; only a pending reschedule
 *                      breaks it (cond_resched_lock).  The price: a
 *                      waiter spinning on another CPU keeps preemption
 *                      off there until the holder breaks for its own
 *                      CPU's reschedule (`load lockbreak 2 2000`, SMP=2,
 *                      ICOUNT=3: cyclictest max 846 us on the spinner's
 *                      CPU under voluntary, 66 us with one thread, 139
 *                      us under desktop where the spinner is seen)
 * Context: any.  Locking: lock is held by the caller (not checked: the
 * answer is only a hint).
 */
bool spin_needbreak(spinlock_t *lock);

/*
 * cond_resched_lock - the preemption point of a long locked loop: if
 * spin_needbreak(lock) or need_resched(), drop lock, schedule if a
 * reschedule is pending (else a cpu_relax() to let a spinning waiter
 * take its ticket), retake lock.  Returns 1 if the lock was dropped (the
 * caller re-validates, see above), 0 if not.
 * Context: task; the only atomic state is lock itself taken with
 * spin_lock() (not _irq / _irqsave, no other raw lock, preemption on
 * otherwise), so that scheduling is legal once it is dropped.
 * Locking: lock held on entry and on return; dropped in between.
 */
int cond_resched_lock(spinlock_t *lock);

#endif /* KERNEL_LOCKING_LOCK_BREAK_H */
