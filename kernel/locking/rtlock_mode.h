/*
 * kernel/locking/rtlock_mode.h - DEBUG_RT_LOCKING_MODE (opt-in: make
 * DEBUG_RT_LOCKING_MODE=1; make test-options builds and tests it, the
 * default build leaves it out): switch spinlock_t between its
 * PREEMPT_RT meaning and the traditional one at run time, from the shell
 * (`rtlock mode rt|raw`), to see what the sleeping locks cost or buy
 * without rebuilding.
 *
 *   mode  spinlock_t critical section       _irq / _irqsave forms
 *   rt    preemptible, PI (rt_mutex)        irqs stay on
 *   raw   preemption off, still the         really disable irqs
 *         rt_mutex underneath (PI kept)
 *
 * The mode is sampled at each acquisition and the lock remembers how it
 * was taken (spinlock_t.raw_mode), so a lock held across a switch is
 * released the way it was taken.  A raw-mode acquisition that may sleep
 * (it starts preemptible) sleeps on contention like rt mode and turns
 * preemption off once it owns the lock; one that may not (nested inside
 * another raw-mode section) spins on the rt_mutex trylock.  That spin can
 * only stall if the owner took the lock in rt mode before the switch and
 * is preempted on this CPU, which is reported once.
 * Only PREEMPT=rt has a sleeping spinlock_t: elsewhere the mode is fixed
 * at raw and switching to rt is -EINVAL.
 * Linux counterpart: the PREEMPT_RT patch's CONFIG_DEBUG_RT_LOCKING_MODE
 * (/proc/sys/kernel/... switch of the spinlock implementation); mainline
 * has nothing like it.
 */
#ifndef KERNEL_LOCKING_RTLOCK_MODE_H
#define KERNEL_LOCKING_RTLOCK_MODE_H

#include "lib/types.h"

struct spinlock;	/* spinlock_t, kernel/locking/spinlock.h (which
			 * includes this header in the builds that have
			 * the switch) */

/* Can `rtlock mode` change anything in this build? */
#if defined(CONFIG_PREEMPT_RT) && defined(CONFIG_DEBUG_RT_LOCKING_MODE)
#define RTLOCK_MODE_SWITCHABLE 1
#else
#define RTLOCK_MODE_SWITCHABLE 0
#endif

enum rtlock_mode {
	RTLOCK_MODE_RT,		/* spinlock_t sleeps, section preemptible */
	RTLOCK_MODE_RAW,	/* section non-preemptible, irqs really off */
};

/* rtlock_get_mode - the mode new acquisitions use. */
enum rtlock_mode rtlock_get_mode(void);

/* rtlock_set_mode - switch; 0, or -EINVAL where spinlock_t cannot sleep
 * (not PREEMPT_RT, or built without DEBUG_RT_LOCKING_MODE) and mode is
 * rt... or anything but the model's fixed mode.  Context: any. */
int rtlock_set_mode(enum rtlock_mode mode);

/* rtlock_mode_name - "rt" / "raw". */
const char *rtlock_mode_name(enum rtlock_mode mode);

#if defined(CONFIG_PREEMPT_RT) && defined(CONFIG_DEBUG_RT_LOCKING_MODE)
/* What spinlock.h's spin_lock(spinlock_t *) & co. call in this build.
 * Context: as the rt_spin_* they stand for (kernel/locking/spinlock.h). */
void rtlock_mode_lock(struct spinlock *lock);
void rtlock_mode_unlock(struct spinlock *lock);
int rtlock_mode_trylock(struct spinlock *lock);
void rtlock_mode_lock_irq(struct spinlock *lock);
void rtlock_mode_unlock_irq(struct spinlock *lock);
unsigned long rtlock_mode_lock_irqsave(struct spinlock *lock);
void rtlock_mode_unlock_irqrestore(struct spinlock *lock,
				   unsigned long flags);
#endif

#endif /* KERNEL_LOCKING_RTLOCK_MODE_H */
