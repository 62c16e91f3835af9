/*
 * kernel/debug/rtlock_mode.c - DEBUG_RT_LOCKING_MODE: the run-time
 * switch of spinlock_t between rt and raw behaviour (see
 * kernel/locking/rtlock_mode.h for the table and the rules).
 */
#include "kernel/locking/rtlock_mode.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/sched.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/bug.h"

#if defined(CONFIG_PREEMPT_RT) && defined(CONFIG_DEBUG_RT_LOCKING_MODE)
static enum rtlock_mode rtlock_mode = RTLOCK_MODE_RT;
static bool spin_stall_reported;	/* [4]'s report, once per boot */

enum rtlock_mode rtlock_get_mode(void)
{
	return READ_ONCE(rtlock_mode);
}

int rtlock_set_mode(enum rtlock_mode mode)
{
	if (mode != RTLOCK_MODE_RT && mode != RTLOCK_MODE_RAW)
		return -EINVAL;
	WRITE_ONCE(rtlock_mode, mode);
	return 0;
}

static bool raw_mode_now(void)
{
	return READ_ONCE(rtlock_mode) == RTLOCK_MODE_RAW;
}

/*
 * raw_mode_acquire - take lock and leave preemption off (one level, the
 * unlock drops it).
 * [1] note whether we may sleep: preemptible on entry;
 * [2] preemption off, try the rt_mutex once (uncontended: done);
 * [3] contended and allowed to sleep: wait as rt mode does (PI), then
 *     preemption off again;
 * [4] contended and atomic: spin on the trylock like a raw lock.
 * Context: task (any if nested).  Locking: takes lock.
 */
static void raw_mode_acquire(spinlock_t *lock)
{
	bool may_sleep = preemptible();			/* [1] */
	struct task_struct *owner;

	preempt_disable();				/* [2] */
	if (rt_mutex_trylock(&lock->lock))
		goto out_owned;
	if (may_sleep) {				/* [3] */
		preempt_enable();
		rt_spin_lock(lock);
		preempt_disable();
		goto out_owned;
	}
	while (!rt_mutex_trylock(&lock->lock)) {	/* [4] */
		owner = rt_mutex_owner(&lock->lock);
		if (!READ_ONCE(spin_stall_reported) && owner &&
		    !READ_ONCE(owner->on_cpu) &&
		    task_cpu(owner) == raw_smp_processor_id()) {
			WRITE_ONCE(spin_stall_reported, true);
			WARN(1, "rtlock raw mode: spinning on %s, whose owner "
			     "%s is preempted on this CPU (taken in rt mode?)\n",
			     lock->lock.name ? lock->lock.name : "?",
			     owner->name);
		}
		arch_cpu_relax();
	}
out_owned:
	lock->raw_mode = true;	/* read by the holder's unlock only */
}

void rtlock_mode_lock(spinlock_t *lock)
{
	if (raw_mode_now()) {
		raw_mode_acquire(lock);
		return;
	}
	rt_spin_lock(lock);
	lock->raw_mode = false;
}

/* raw_mode_release - drop lock; true if it was taken in raw mode (the
 * caller then restores irqs and drops the preemption level, in that
 * order, mirroring the acquisition). */
static bool raw_mode_release(spinlock_t *lock)
{
	bool raw = lock->raw_mode;

	lock->raw_mode = false;
	rt_spin_unlock(lock);
	return raw;
}

void rtlock_mode_unlock(spinlock_t *lock)
{
	if (raw_mode_release(lock))
		preempt_enable();
}

int rtlock_mode_trylock(spinlock_t *lock)
{
	if (!raw_mode_now()) {
		if (!rt_spin_trylock(lock))
			return 0;
		lock->raw_mode = false;
		return 1;
	}
	preempt_disable();
	if (!rt_mutex_trylock(&lock->lock)) {
		preempt_enable();
		return 0;
	}
	lock->raw_mode = true;
	return 1;
}

void rtlock_mode_lock_irq(spinlock_t *lock)
{
	rtlock_mode_lock(lock);
	if (lock->raw_mode)
		raw_local_irq_disable();
}

void rtlock_mode_unlock_irq(spinlock_t *lock)
{
	if (!raw_mode_release(lock))
		return;
	raw_local_irq_enable();
	preempt_enable();
}

unsigned long rtlock_mode_lock_irqsave(spinlock_t *lock)
{
	unsigned long flags = arch_local_save_flags();

	rtlock_mode_lock(lock);
	if (lock->raw_mode)
		raw_local_irq_disable();
	return flags;
}

void rtlock_mode_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	if (!raw_mode_release(lock))
		return;
	raw_local_irq_restore(flags);
	preempt_enable();
}

#else /* spinlock_t cannot change: raw under !rt, rt without the option */

enum rtlock_mode rtlock_get_mode(void)
{
	return SPINLOCK_SLEEPS ? RTLOCK_MODE_RT : RTLOCK_MODE_RAW;
}

int rtlock_set_mode(enum rtlock_mode mode)
{
	return mode == rtlock_get_mode() ? 0 : -EINVAL;
}
#endif

const char *rtlock_mode_name(enum rtlock_mode mode)
{
	return mode == RTLOCK_MODE_RT ? "rt" : "raw";
}
