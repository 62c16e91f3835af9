/*
 * kernel/locking/bkl.h - the big kernel lock: lock_kernel(),
 * unlock_kernel(), kernel_locked() (article, "PREEMPT_RT configuration
 * options": PREEMPT_BKL makes big-kernel-lock sections preemptible).
 *
 * Classic semantics, the ones that made the BKL hard to remove:
 *   - recursive for its holder: task->lock_depth counts the nesting,
 *     -1 = not held (as in Linux); only the outermost unlock releases;
 *   - released automatically when the holder sleeps (schedule() calls
 *     release_kernel_lock(prev) before __schedule) and retaken before the
 *     holder runs its own code again (reacquire_kernel_lock(current)
 *     after), so a BKL section is only exclusive up to its first sleep;
 *   - a preempted holder (desktop, rt) keeps it: only a voluntary sleep
 *     releases it (Linux 2.6's preempt_schedule() hid lock_depth across
 *     the switch for the same reason).
 *
 * The model switch (PREEMPT_BKL in kernel/sched/preempt_model.h, on under
 * desktop and rt) picks the lock under the BKL, in bkl.c only:
 *
 *   model            lock            holder preemptible?  Linux 2.6.2x
 *   none, voluntary  kernel_flag     no: raw spinlock,    lib/kernel_lock.c
 *                    raw_spinlock_t  preemption off       !PREEMPT_BKL
 *   desktop, rt      kernel_sem      yes: a sleeping      PREEMPT_BKL
 *                    compat_semaphore lock                 (kernel_sem)
 *
 * Why a compat_semaphore and not an rt_mutex under PREEMPT_BKL: the
 * auto-release happens inside schedule().  A holder that blocks on an
 * rt_mutex M (pi_blocked_on = M's waiter) would, in that schedule(),
 * release the BKL, and when M's owner wakes it, block again in
 * reacquire_kernel_lock() on the BKL - a second rt_mutex wait while the
 * first waiter is still enqueued, which the PI chain (one pi_blocked_on
 * per task) cannot describe; the -rt patch needed rt_release_bkl() and a
 * saved lock_depth in the rt_mutex slow paths to avoid it.  A counting
 * semaphore's wait queue carries no chain, so sleeping in it inside
 * schedule() is harmless.  The price is the article's: no priority
 * inheritance, a low-priority BKL holder preempted by a medium task
 * delays a high-priority task waiting for the BKL without bound.  That,
 * and the implicit release that makes every sleep a hole in the
 * exclusion, is why Linux removed the BKL (2.6.39) rather than fix it.
 *
 * Without PREEMPT_BKL the holder runs with preemption off, yet may
 * sleep: in_atomic() (kernel/sched/preempt.h) discounts the BKL's own
 * count through bkl_preempt_offset(), as Linux 2.6's in_atomic()
 * subtracted kernel_locked().
 * rtk leaves out: the BKL in the lock validator is not hidden (Linux
 * kept kernel_flag out of lockdep; here a holder that sleeps holding
 * another lock and retakes the BKL after it records a false inversion),
 * and the rt_mutex slow paths do not keep the BKL while blocked.
 * Linux counterpart: lib/kernel_lock.c, include/linux/smp_lock.h
 * (2.6.2x), kernel/sched.c schedule() release/reacquire.
 */
#ifndef KERNEL_LOCKING_BKL_H
#define KERNEL_LOCKING_BKL_H

#include "kernel/sched/sched.h"

/*
 * lock_kernel - take the BKL, or nest one level deeper if current holds
 * it.  Context: task, may sleep under PREEMPT_BKL (spins otherwise).
 * Locking: takes the BKL on the outermost call.
 */
void lock_kernel(void);

/*
 * unlock_kernel - undo one lock_kernel(); the outermost releases.
 * Without the BKL: WARN and return (a misuse, not a crash).
 * Context: task.  Locking: the BKL is held by current.
 */
void unlock_kernel(void);

/* kernel_locked - does current hold the BKL?  Context: task. */
#define kernel_locked() (current->lock_depth >= 0)

/* bkl_is_locked - does any task hold the BKL?  For tests and `config`.
 * Context: any; a racy read. */
bool bkl_is_locked(void);

/* __release_kernel_lock / __reacquire_kernel_lock - the model's drop
 * and retake around a sleep; lock_depth is left alone (release) and
 * restored (reacquire).  Context: schedule(), preempt_count 1. */
void __release_kernel_lock(void);
void __reacquire_kernel_lock(void);

/*
 * release_kernel_lock - pairs with reacquire_kernel_lock(), both in
 * schedule() (kernel/sched/core.c): a task holding the BKL that goes to
 * sleep drops it so that others can take it meanwhile.
 * Context: schedule(), preemption off.  Locking: drops the BKL if held.
 */
static inline void release_kernel_lock(struct task_struct *task)
{
	if (unlikely(task->lock_depth >= 0))
		__release_kernel_lock();
}

/*
 * reacquire_kernel_lock - the sleeper that held the BKL takes it again
 * before it returns from schedule(); may sleep again (PREEMPT_BKL) or
 * spin (kernel_flag).  Context: schedule() after the switch back,
 * preemption off, irqs on.  Locking: retakes the BKL if it was held.
 */
static inline void reacquire_kernel_lock(struct task_struct *task)
{
	if (unlikely(task->lock_depth >= 0))
		__reacquire_kernel_lock();
}

#endif /* KERNEL_LOCKING_BKL_H */
