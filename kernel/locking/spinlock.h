/*
 * kernel/locking/spinlock.h - spinlock_t and the spin_lock() family, the
 * one place where the preemption model picks what a spinlock is (article,
 * "Preemptible critical sections" and "Summary of PREEMPT_RT primitives"):
 *
 *   model               spinlock_t                 spin_lock_irqsave on it
 *   rt                  sleeping lock on rt_mutex  saves flags, irqs stay on
 *                       (PI, preemptible section)
 *   none/voluntary/     the raw ticket lock        disables irqs
 *   desktop
 *
 * raw_spinlock_t (kernel/locking/raw_spinlock.h) spins under every model.
 * The article's "C++ overloaded function": spin_lock(), spin_unlock(),
 * spin_trylock(), spin_lock_irq(), spin_lock_irqsave() ... take either
 * type and choose the implementation from the pointer's type at compile
 * time with C11 _Generic, so one call site works on both.  spinlock_t is
 * a struct of its own under every model so that the two types stay
 * distinct for _Generic.
 *
 * Under rt a contended spin_lock() sleeps in TASK_RUNNING_MUTEX and keeps
 * the caller's task state (the article's mylock1/mylock2 example; see
 * rt_mutex_slowlock() step [2]); taking it atomic (preemption or irqs
 * off) gives the might_sleep warning; spin_trylock() never sleeps.
 * Linux counterpart: include/linux/spinlock.h (PREEMPT_RT patch v0.7.x
 * TYPE_EQUAL/PICK_OP macros; mainline: spinlock_rt.h).  rtk leaves out
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

static __always_inline void __raw_spin_lock_init_named(raw_spinlock_t *l,
						       const char *name,
						       const char *file,
						       int line)
{
	__raw_spin_lock_init(l, name, file, line);
}

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

void rt_spin_lock_init_named(spinlock_t *lock, const char *name,
			     const char *file, int line);

/* rt_spin_lock - the sleeping spinlock_t acquisition.  Context: task,
 * preemptible (might_sleep warning otherwise). */
void rt_spin_lock(spinlock_t *lock);
void rt_spin_unlock(spinlock_t *lock);
/* rt_spin_trylock - never sleeps; legal with preemption or irqs off. */
int rt_spin_trylock(spinlock_t *lock);
unsigned long rt_spin_lock_irqsave(spinlock_t *lock);
/* _irq: the lock only (irqs stay on, the section is preemptible) */
static inline void rt_spin_lock_irq(spinlock_t *lock)
{
	rt_spin_lock(lock);
}
static inline void rt_spin_unlock_irq(spinlock_t *lock)
{
	rt_spin_unlock(lock);
}
static inline void rt_spin_unlock_irqrestore(spinlock_t *lock,
					     unsigned long flags)
{
	(void)flags;	/* nothing was disabled */
	rt_spin_unlock(lock);
}
static inline bool rt_spin_is_locked(spinlock_t *lock)
{
	return rt_mutex_is_locked(&lock->lock);
}

#if defined(CONFIG_DEBUG_RT_LOCKING_MODE)
#define __SL(op) rtlock_mode_##op	/* kernel/locking/rtlock_mode.h */
#else
#define __SL(op) rt_spin_##op
#endif

#else /* !CONFIG_PREEMPT_RT: spinlock_t is the raw lock */
#define SPINLOCK_SLEEPS 0

typedef struct spinlock {
	raw_spinlock_t rlock;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name) { .rlock = __RAW_SPIN_LOCK_UNLOCKED(name) }

static inline void nort_spin_lock_init_named(spinlock_t *lock,
					     const char *name,
					     const char *file, int line)
{
	__raw_spin_lock_init_named(&lock->rlock, name, file, line);
}
static __always_inline void nort_spin_lock(spinlock_t *l)
{
	raw_spin_lock(&l->rlock);
}
static __always_inline void nort_spin_unlock(spinlock_t *l)
{
	raw_spin_unlock(&l->rlock);
}
static __always_inline void nort_spin_lock_irq(spinlock_t *l)
{
	raw_spin_lock_irq(&l->rlock);
}
static __always_inline void nort_spin_unlock_irq(spinlock_t *l)
{
	raw_spin_unlock_irq(&l->rlock);
}
static __always_inline int nort_spin_trylock(spinlock_t *l)
{
	return raw_spin_trylock(&l->rlock);
}
static __always_inline unsigned long nort_spin_lock_irqsave(spinlock_t *l)
{
	return __raw_spin_lock_irqsave(&l->rlock);
}
static __always_inline void nort_spin_unlock_irqrestore(spinlock_t *l,
						       unsigned long flags)
{
	raw_spin_unlock_irqrestore(&l->rlock, flags);
}
static __always_inline bool nort_spin_is_locked(spinlock_t *l)
{
	return raw_spin_is_locked(&l->rlock);
}

#define __SL(op) nort_spin_##op
#endif

#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

static __always_inline int __raw_spin_trylock_int(raw_spinlock_t *l)
{
	return raw_spin_trylock(l);
}

/* The overloads: the pointer type picks the implementation. */
#define __PICK(l, rawop, op)                                                 \
	_Generic((l), raw_spinlock_t *: rawop, spinlock_t *: op)

#define spin_lock_init(l)                                                    \
	__PICK(l, __raw_spin_lock_init_named, __SL(lock_init_named))(l, #l,  \
								     __FILE__, __LINE__)
#define spin_lock(l)		__PICK(l, raw_spin_lock, __SL(lock))(l)
/* every unlock is a TIF_NEED_RESCHED_DELAYED point (kernel/sched/deferred.h) */
#define spin_unlock(l)                                                       \
	do {                                                                 \
		__PICK(l, raw_spin_unlock, __SL(unlock))(l);                 \
		preempt_check_resched_delayed();                             \
	} while (0)
#define spin_trylock(l)		__PICK(l, __raw_spin_trylock_int, __SL(trylock))(l)
#define spin_is_locked(l)	__PICK(l, raw_spin_is_locked, __SL(is_locked))(l)
/* _irq on spinlock_t under rt: the lock only (irqs stay on, the section
 * is preemptible); on the raw lock and the non-rt spinlock_t: really
 * disables them */
#define spin_lock_irq(l)	__PICK(l, raw_spin_lock_irq, __SL(lock_irq))(l)
#define spin_unlock_irq(l)                                                   \
	do {                                                                 \
		__PICK(l, raw_spin_unlock_irq, __SL(unlock_irq))(l);         \
		preempt_check_resched_delayed();                             \
	} while (0)
#define spin_lock_irqsave(l, flags)                                          \
	do {                                                                 \
		(flags) = __PICK(l, __raw_spin_lock_irqsave,                 \
				 __SL(lock_irqsave))(l);                     \
		debug_irqflags_saved(l, flags, __FILE__, __LINE__);          \
	} while (0)
/* DEBUG_IRQ_FLAGS checks flags against the save (debug_irqflags.h) */
#define spin_unlock_irqrestore(l, flags)                                     \
	do {                                                                 \
		debug_irqflags_check(l, "spin_unlock_irqrestore", #l, flags, \
				     __FILE__, __LINE__);                    \
		__PICK(l, raw_spin_unlock_irqrestore,                        \
		       __SL(unlock_irqrestore))(l, flags);                   \
		preempt_check_resched_delayed();                             \
	} while (0)

/*
 * spin_lock_bh / spin_unlock_bh - softirqs off on this CPU, then the lock
 * (unlock in reverse order).  Under rt softirqs run in ksoftirqd/N and
 * local_bh_disable() only holds them off (it disables preemption there),
 * so a spinlock_t taken this way still must not sleep inside; the raw
 * lock works the same under every model.
 */
#define spin_lock_bh(l)                                                      \
	do {                                                                 \
		local_bh_disable();                                          \
		spin_lock(l);                                                \
	} while (0)
#define spin_unlock_bh(l)                                                    \
	do {                                                                 \
		spin_unlock(l);                                              \
		local_bh_enable();                                           \
	} while (0)

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

#if defined(CONFIG_PREEMPT_RT) && defined(CONFIG_DEBUG_RT_LOCKING_MODE)
#include "kernel/locking/rtlock_mode.h"	/* the __SL() targets */
#endif

#endif /* KERNEL_LOCKING_SPINLOCK_H */
