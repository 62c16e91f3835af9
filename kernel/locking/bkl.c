/*
 * kernel/locking/bkl.c - the big kernel lock (bkl.h): lock_kernel(),
 * unlock_kernel() and the drop/retake around a sleep.  The model switch
 * is the one block below (PREEMPT_BKL, kernel/sched/preempt_model.h):
 * kernel_sem, a compat_semaphore (why not an rt_mutex: bkl.h), or
 * kernel_flag, a raw spinlock held with preemption off.
 * Linux counterpart: lib/kernel_lock.c (2.6.2x, both variants).
 */
#include "kernel/locking/bkl.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/locking/semaphore.h"
#include "kernel/sched/preempt_model.h"
#include "lib/bug.h"

#if PREEMPT_BKL
/* kernel_sem - count 1 free, 0 held; sleepers queue on its wait queue */
static struct compat_semaphore kernel_sem =
	__COMPAT_SEMAPHORE_INITIALIZER(kernel_sem, 1);

/* bkl_acquire / bkl_release - the outermost lock_kernel / unlock_kernel.
 * Context: task, may sleep. */
static void bkl_acquire(void)
{
	compat_down(&kernel_sem);
}

static void bkl_release(void)
{
	compat_up(&kernel_sem);
}

/* bkl_reacquire - retake from schedule(): the count schedule() holds
 * must not make the semaphore's sleep look atomic (might_sleep), and a
 * preemption while waiting is fine: preemption never drops the BKL. */
static void bkl_reacquire(void)
{
	preempt_enable_no_resched();
	compat_down(&kernel_sem);
	preempt_disable();
}

bool bkl_is_locked(void)
{
	return READ_ONCE(kernel_sem.count) <= 0;
}

int bkl_preempt_offset(void)
{
	return 0;
}
#else
/* kernel_flag - holder runs with preemption off (raw_spin_lock) */
static DEFINE_RAW_SPINLOCK(kernel_flag);

static void bkl_acquire(void)
{
	raw_spin_lock(&kernel_flag);
}

static void bkl_release(void)
{
	raw_spin_unlock(&kernel_flag);
}

/* bkl_reacquire - spin with preemption off, as lock_kernel does: the
 * holder cannot be switched out on this CPU while it holds kernel_flag
 * (a sleep releases it), so whoever has it runs elsewhere and ends. */
static void bkl_reacquire(void)
{
	raw_spin_lock(&kernel_flag);
}

bool bkl_is_locked(void)
{
	return raw_spin_is_locked(&kernel_flag);
}

/*
 * bkl_preempt_offset - the part of preempt_count() that is the BKL's own
 * preempt_disable: 1 while current holds kernel_flag.  in_atomic()
 * (kernel/sched/preempt.h) subtracts it, so a BKL holder may sleep (the
 * sleep drops the BKL).  Context: any; current_or_null() before the
 * scheduler runs.
 */
int bkl_preempt_offset(void)
{
	struct task_struct *p = current_or_null();

	return p && p->lock_depth >= 0 ? 1 : 0;
}
#endif

void lock_kernel(void)
{
	struct task_struct *task = current;
	int depth = task->lock_depth + 1;

	WARN_ON_ONCE(in_interrupt());
	/* the outermost call takes the lock; lock_depth still -1 while it
	 * may sleep in bkl_acquire, so that sleep releases nothing */
	if (likely(depth == 0))
		bkl_acquire();
	task->lock_depth = depth;
}

void unlock_kernel(void)
{
	struct task_struct *task = current;

	if (WARN(task->lock_depth < 0,
		 "unlock_kernel: %s/%d does not hold the BKL\n", task->name,
		 task->pid))
		return;
	if (--task->lock_depth < 0)
		bkl_release();
}

void __release_kernel_lock(void)
{
	WARN_ON_ONCE(current->lock_depth < 0);
	bkl_release();
}

/*
 * __reacquire_kernel_lock - lock_depth is -1 while we wait, so that a
 * sleep inside bkl_reacquire (PREEMPT_BKL) releases nothing; the depth
 * the task had when it went to sleep comes back with the lock.
 */
void __reacquire_kernel_lock(void)
{
	struct task_struct *task = current;
	int depth = task->lock_depth;

	BUG_ON(depth < 0);
	task->lock_depth = -1;
	bkl_reacquire();
	task->lock_depth = depth;
}
