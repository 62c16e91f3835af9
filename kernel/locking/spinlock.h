/*
 * kernel/locking/spinlock.h - spinlock_t and the spin_lock() family, the
 * one place where the preemption model picks what a spinlock is (article,
 * "Preemptible critical sections" and "Summary of PREEMPT_RT primitives").
 *
 * The article's "C++ overloaded function": spin_lock(), spin_unlock(),
 * spin_trylock(), spin_lock_irq(), spin_lock_irqsave() ... take either a
 * raw_spinlock_t * or a spinlock_t *, and a C11 _Generic at the bottom of
 * this file picks one of two named functions from the pointer's type:
 * the raw_spin_*() of kernel/locking/raw_spinlock.h, or the function of
 * the same name as the macro (spin_lock(spinlock_t *) ...) defined here
 * once per build.  A macro does not expand itself, so inside `#define
 * spin_lock(l)` the word spin_lock names that function.  Where a
 * spin_lock() call ends, per build (make PREEMPT=..., DEBUG_RT_LOCKING_MODE=1):
 *
 *   build              lock type        spin_lock() -> ... -> where it ends
 *   rt (default)       spinlock_t       spin_lock -> rt_spin_lock
 *                                       (spinlock_rt.c) -> rt_mutex_lock_common
 *                                       (rtmutex.c): sleeps, PI, irqs stay on
 *   rt with            spinlock_t       spin_lock -> rtlock_mode_lock
 *   DEBUG_RT_                           (rtlock_mode.c) -> rt_spin_lock as
 *   LOCKING_MODE=1                      above, or in `rtlock mode raw` the
 *                                       rt_mutex with preemption off
 *   none/voluntary/    spinlock_t       spin_lock -> raw_spin_lock
 *   desktop                             (raw_spinlock.h) -> do_raw_spin_lock
 *                                       (raw_spinlock.c): spins, preempt off
 *   every build        raw_spinlock_t   raw_spin_lock -> do_raw_spin_lock
 *
 * The other operations follow the same rows: under rt spin_lock_irq and
 * __spin_lock_irqsave take the lock only (irqs stay on, the section is
 * preemptible); on raw_spinlock_t and the non-rt spinlock_t they really
 * disable irqs.  spinlock_t is a struct of its own under every model so
 * that the two types stay distinct for _Generic.
 *
 * Under rt a contended spin_lock() sleeps in TASK_RUNNING_MUTEX and keeps
 * the caller's task state (the article's mylock1/mylock2 example; see
 * rt_mutex_slowlock() step [2]); taking it atomic (preemption or irqs
 * off) gives the might_sleep warning; spin_trylock() never sleeps.
 * Linux counterpart: include/linux/spinlock.h (PREEMPT_RT patch v0.7.x
 * TYPE_EQUAL/PICK_OP macros; mainline: spinlock_rt.h, whose spin_lock()
 * is also a static inline calling rt_spin_lock()).  rtk leaves out
 * migrate_disable() (a spinlock_t holder under rt may migrate; per-CPU
 * data needs get_cpu_var or a per-CPU lock).  The _bh forms keep softirqs
 * off this CPU (kernel/irq/softirq.c) and then take the lock.
 */
#ifndef KERNEL_LOCKING_SPINLOCK_H
#define KERNEL_LOCKING_SPINLOCK_H

#include "kernel/locking/raw_spinlock.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/irq/softirq.h"
#include "kernel/sched/deferred.h"
#include "kernel/locking/debug_irqflags.h"

#if defined(CONFIG_PREEMPT_RT)
#define SPINLOCK_SLEEPS 1

typedef struct spinlock {
	struct rt_mutex lock;
#if defined(CONFIG_DEBUG_RT_LOCKING_MODE)
	bool raw_mode;	/* taken in `rtlock mode raw`; the holder's
			 * (kernel/locking/rtlock_mode.h) */
#endif
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name) { .lock = __RT_MUTEX_INITIALIZER(name.lock) }

/* The sleeping spinlock_t, kernel/locking/spinlock_rt.c. */
void rt_spin_lock_init_named(spinlock_t *lock, const char *name,
			     const char *file, int line);
void rt_spin_lock(spinlock_t *lock);
void rt_spin_unlock(spinlock_t *lock);
int rt_spin_trylock(spinlock_t *lock);
#endif

#if defined(CONFIG_PREEMPT_RT) && !defined(CONFIG_DEBUG_RT_LOCKING_MODE)
/* ---- rt: spinlock_t is the sleeping lock of spinlock_rt.c */

/* __spin_lock_init - the lock's validator class is the init site. */
static inline void __spin_lock_init(spinlock_t *lock, const char *name,
				    const char *file, int line)
{
	rt_spin_lock_init_named(lock, name, file, line);
}

/* spin_lock - Context: task, preemptible (might_sleep warning
 * otherwise).  Locking: takes lock, may sleep on it with PI. */
static inline void spin_lock(spinlock_t *lock)
{
	rt_spin_lock(lock);
}

static inline void spin_unlock(spinlock_t *lock)
{
	rt_spin_unlock(lock);
}

/* spin_trylock - never sleeps; legal with preemption or irqs off. */
static inline int spin_trylock(spinlock_t *lock)
{
	return rt_spin_trylock(lock);
}

/* spin_lock_irq - the lock only: irqs stay on, the section is
 * preemptible (article, "Summary of PREEMPT_RT primitives"). */
static inline void spin_lock_irq(spinlock_t *lock)
{
	rt_spin_lock(lock);
}

static inline void spin_unlock_irq(spinlock_t *lock)
{
	rt_spin_unlock(lock);
}

/* __spin_lock_irqsave - returns the flags as they are; irqs stay on. */
static inline unsigned long __spin_lock_irqsave(spinlock_t *lock)
{
	unsigned long flags = arch_local_save_flags();

	rt_spin_lock(lock);
	return flags;
}

static inline void spin_unlock_irqrestore(spinlock_t *lock,
					  unsigned long flags)
{
	(void)flags;	/* nothing was disabled */
	rt_spin_unlock(lock);
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return rt_mutex_is_locked(&lock->lock);
}

#elif defined(CONFIG_PREEMPT_RT) /* && CONFIG_DEBUG_RT_LOCKING_MODE */
/* ---- rt with DEBUG_RT_LOCKING_MODE: every operation goes through the
 * run-time switch of kernel/debug/rtlock_mode.c */
#include "kernel/locking/rtlock_mode.h"

static inline void __spin_lock_init(spinlock_t *lock, const char *name,
				    const char *file, int line)
{
	rt_spin_lock_init_named(lock, name, file, line);
	lock->raw_mode = false;
}

static inline void spin_lock(spinlock_t *lock)
{
	rtlock_mode_lock(lock);
}

static inline void spin_unlock(spinlock_t *lock)
{
	rtlock_mode_unlock(lock);
}

static inline int spin_trylock(spinlock_t *lock)
{
	return rtlock_mode_trylock(lock);
}

static inline void spin_lock_irq(spinlock_t *lock)
{
	rtlock_mode_lock_irq(lock);
}

static inline void spin_unlock_irq(spinlock_t *lock)
{
	rtlock_mode_unlock_irq(lock);
}

static inline unsigned long __spin_lock_irqsave(spinlock_t *lock)
{
	return rtlock_mode_lock_irqsave(lock);
}

static inline void spin_unlock_irqrestore(spinlock_t *lock,
					  unsigned long flags)
{
	rtlock_mode_unlock_irqrestore(lock, flags);
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return rt_mutex_is_locked(&lock->lock);
}

#else /* !CONFIG_PREEMPT_RT */
/* ---- none/voluntary/desktop: spinlock_t is the raw lock */
#define SPINLOCK_SLEEPS 0

typedef struct spinlock {
	raw_spinlock_t rlock;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name) { .rlock = __RAW_SPIN_LOCK_UNLOCKED(name) }

static inline void __spin_lock_init(spinlock_t *lock, const char *name,
				    const char *file, int line)
{
	__raw_spin_lock_init(&lock->rlock, name, file, line);
}

/* spin_lock - Context: any.  Locking: takes lock, preemption off until
 * spin_unlock. */
static __always_inline void spin_lock(spinlock_t *lock)
{
	raw_spin_lock(&lock->rlock);
}

static __always_inline void spin_unlock(spinlock_t *lock)
{
	raw_spin_unlock(&lock->rlock);
}

static __always_inline int spin_trylock(spinlock_t *lock)
{
	return raw_spin_trylock(&lock->rlock);
}

static __always_inline void spin_lock_irq(spinlock_t *lock)
{
	raw_spin_lock_irq(&lock->rlock);
}

static __always_inline void spin_unlock_irq(spinlock_t *lock)
{
	raw_spin_unlock_irq(&lock->rlock);
}

static __always_inline unsigned long __spin_lock_irqsave(spinlock_t *lock)
{
	return __raw_spin_lock_irqsave(&lock->rlock);
}

static __always_inline void spin_unlock_irqrestore(spinlock_t *lock,
						   unsigned long flags)
{
	raw_spin_unlock_irqrestore(&lock->rlock, flags);
}

static __always_inline bool spin_is_locked(spinlock_t *lock)
{
	return raw_spin_is_locked(&lock->rlock);
}
#endif

#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

/*
 * spin_lock_bh / spin_unlock_bh - softirqs off on this CPU, then the lock
 * (unlock in reverse order, with the delayed-reschedule point every
 * spin_unlock*() has).  Under rt softirqs run in ksoftirqd/N and
 * local_bh_disable() takes this CPU's bh lock, a sleeping lock, leaving
 * preemption on (kernel/irq/softirq.h): a spinlock_t taken this way may
 * sleep when contended and its section may sleep, as a plain spin_lock's
 * may; the raw lock's section is atomic under every model.
 * Context: task; under rt may sleep.
 */
static inline void raw_spin_lock_bh(raw_spinlock_t *lock)
{
	local_bh_disable();
	raw_spin_lock(lock);
}

static inline void raw_spin_unlock_bh(raw_spinlock_t *lock)
{
	raw_spin_unlock(lock);
	preempt_check_resched_delayed();
	local_bh_enable();
}

static inline void spin_lock_bh(spinlock_t *lock)
{
	local_bh_disable();
	spin_lock(lock);
}

static inline void spin_unlock_bh(spinlock_t *lock)
{
	spin_unlock(lock);
	preempt_check_resched_delayed();
	local_bh_enable();
}

/*
 * The overloads: the pointer type picks raw_spin_X (raw_spinlock.h) or
 * spin_X (above).  Every unlock is a TIF_NEED_RESCHED_DELAYED point
 * (kernel/sched/deferred.h); the irqsave family records and checks its
 * flags (DEBUG_IRQ_FLAGS, kernel/locking/debug_irqflags.h).
 */
#define spin_lock_init(l)                                                    \
	_Generic((l), raw_spinlock_t *: __raw_spin_lock_init,                \
		 spinlock_t *: __spin_lock_init)(l, #l, __FILE__, __LINE__)
#define spin_lock(l)                                                         \
	_Generic((l), raw_spinlock_t *: raw_spin_lock,                       \
		 spinlock_t *: spin_lock)(l)
#define spin_unlock(l)                                                       \
	do {                                                                 \
		_Generic((l), raw_spinlock_t *: raw_spin_unlock,             \
			 spinlock_t *: spin_unlock)(l);                      \
		preempt_check_resched_delayed();                             \
	} while (0)
#define spin_trylock(l)                                                      \
	_Generic((l), raw_spinlock_t *: raw_spin_trylock,                    \
		 spinlock_t *: spin_trylock)(l)
#define spin_is_locked(l)                                                    \
	_Generic((l), raw_spinlock_t *: raw_spin_is_locked,                  \
		 spinlock_t *: spin_is_locked)(l)
#define spin_lock_irq(l)                                                     \
	_Generic((l), raw_spinlock_t *: raw_spin_lock_irq,                   \
		 spinlock_t *: spin_lock_irq)(l)
#define spin_unlock_irq(l)                                                   \
	do {                                                                 \
		_Generic((l), raw_spinlock_t *: raw_spin_unlock_irq,         \
			 spinlock_t *: spin_unlock_irq)(l);                  \
		preempt_check_resched_delayed();                             \
	} while (0)
#define spin_lock_irqsave(l, flags)                                          \
	do {                                                                 \
		(flags) = _Generic((l),                                      \
				   raw_spinlock_t *: __raw_spin_lock_irqsave, \
				   spinlock_t *: __spin_lock_irqsave)(l);     \
		debug_irqflags_saved(l, flags, __FILE__, __LINE__);          \
	} while (0)
#define spin_unlock_irqrestore(l, flags)                                     \
	do {                                                                 \
		debug_irqflags_check(l, "spin_unlock_irqrestore", #l, flags, \
				     __FILE__, __LINE__);                    \
		_Generic((l), raw_spinlock_t *: raw_spin_unlock_irqrestore,  \
			 spinlock_t *: spin_unlock_irqrestore)(l, flags);    \
		preempt_check_resched_delayed();                             \
	} while (0)
#define spin_lock_bh(l)                                                      \
	_Generic((l), raw_spinlock_t *: raw_spin_lock_bh,                    \
		 spinlock_t *: spin_lock_bh)(l)
#define spin_unlock_bh(l)                                                    \
	_Generic((l), raw_spinlock_t *: raw_spin_unlock_bh,                  \
		 spinlock_t *: spin_unlock_bh)(l)

/* The article's _rt / _nort helpers (Miscellaneous): the _nort forms do
 * nothing under rt (the code they guard is already serialised by a
 * sleeping lock or a thread there) and the normal thing elsewhere. */
#if defined(CONFIG_PREEMPT_RT)
#define spin_lock_rt(l)		spin_lock(l)
#define spin_unlock_rt(l)	spin_unlock(l)
#define spin_lock_nort(l)	do { (void)(l); } while (0)
#define spin_unlock_nort(l)	do { (void)(l); } while (0)
#define spin_lock_bh_nort(l)	do { (void)(l); } while (0)
#define spin_unlock_bh_nort(l)	do { (void)(l); } while (0)
#else
#define spin_lock_rt(l)		do { (void)(l); } while (0)
#define spin_unlock_rt(l)	do { (void)(l); } while (0)
#define spin_lock_nort(l)	spin_lock(l)
#define spin_unlock_nort(l)	spin_unlock(l)
#define spin_lock_bh_nort(l)	spin_lock_bh(l)
#define spin_unlock_bh_nort(l)	spin_unlock_bh(l)
#endif

#endif /* KERNEL_LOCKING_SPINLOCK_H */
