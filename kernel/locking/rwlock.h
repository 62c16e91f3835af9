/*
 * kernel/locking/rwlock.h - rwlock_t and raw_rwlock_t, and read_lock()/
 * write_lock() and friends on both (article, "Summary of PREEMPT_RT
 * primitives": rwlock_t, RW_LOCK_UNLOCKED(mylock), raw_rwlock_t).
 *
 * read_lock(), write_lock() and friends take either type; a C11 _Generic
 * at the bottom picks raw_read_lock() & co. (kernel/locking/raw_rwlock.h,
 * every build) for a raw_rwlock_t * and the function of the macro's own name
 * (read_lock(rwlock_t *) ...) defined here once per build, as spin_lock()
 * does in kernel/locking/spinlock.h.  Where a call ends:
 *
 *   build              lock type     read_lock() / write_lock() -> ...
 *   rt                 rwlock_t      read_lock -> rt_rw_read_lock (rt_rw.c)
 *                                    -> rt_mutex_lock_common (rtmutex.c):
 *                                    one recursive reader at a time, PI,
 *                                    sleeps keeping the task state;
 *                                    _irq/_irqsave leave irqs on
 *   none/voluntary/    rwlock_t      read_lock -> raw_read_lock
 *   desktop                          (raw_rwlock.h) -> do_raw_read_lock
 *                                    (raw_rwlock.c):
 *                                    many readers, preemption off;
 *                                    _irq/_irqsave disable irqs
 *   every build        raw_rwlock_t  raw_read_lock -> do_raw_read_lock
 *
 * (write_lock: the same rows with write_ for read_.)  DEBUG_RT_LOCKING_MODE
 * does not touch rwlock_t.
 * RW_LOCK_UNLOCKED takes the lock itself (the rt_mutex needs its name);
 * DEFINE_RWLOCK is the portable spelling.
 * Linux counterpart: include/linux/rwlock.h, rwlock_types.h (PREEMPT_RT
 * patch v0.7.x rt_read_lock & co.).  Leaves out the _bh forms.
 */
#ifndef KERNEL_LOCKING_RWLOCK_H
#define KERNEL_LOCKING_RWLOCK_H

#include "kernel/locking/raw_rwlock.h"
#include "kernel/locking/rt_rw.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/locking/debug_irqflags.h"

#if defined(CONFIG_PREEMPT_RT)
/* ---- rt: rwlock_t is the one-reader rt_mutex lock of rt_rw.c; every
 * acquisition sleeps like spinlock_t's (keep_state = true) */
#define RWLOCK_SLEEPS 1

typedef struct rwlock {
	struct rt_rw_lock rw;
} rwlock_t;

#define RW_LOCK_UNLOCKED(name) { .rw = __RT_RW_LOCK_INITIALIZER(name.rw) }

static inline void __rwlock_init(rwlock_t *l, const char *name,
				 const char *file, int line)
{
	__rt_rw_init(&l->rw, name, file, line);
}

/* read_lock - Context: task, preemptible.  Locking: takes l; the task
 * that read-holds it may take it again (rt_rw.h). */
static inline void read_lock(rwlock_t *l)
{
	rt_rw_read_lock(&l->rw, true);
}

static inline int read_trylock(rwlock_t *l)
{
	return rt_rw_read_trylock(&l->rw);
}

static inline void read_unlock(rwlock_t *l)
{
	rt_rw_read_unlock(&l->rw);
}

/* the _irq and _irqsave forms take the lock only: irqs stay on */
static inline void read_lock_irq(rwlock_t *l)
{
	rt_rw_read_lock(&l->rw, true);
}

static inline void read_unlock_irq(rwlock_t *l)
{
	rt_rw_read_unlock(&l->rw);
}

static inline unsigned long __read_lock_irqsave(rwlock_t *l)
{
	unsigned long flags = arch_local_save_flags();

	rt_rw_read_lock(&l->rw, true);
	return flags;
}

static inline void read_unlock_irqrestore(rwlock_t *l, unsigned long flags)
{
	(void)flags;	/* nothing was disabled */
	rt_rw_read_unlock(&l->rw);
}

/* write_lock - Context: task, preemptible.  Locking: takes l. */
static inline void write_lock(rwlock_t *l)
{
	rt_rw_write_lock(&l->rw, true);
}

static inline int write_trylock(rwlock_t *l)
{
	return rt_rw_write_trylock(&l->rw);
}

static inline void write_unlock(rwlock_t *l)
{
	rt_rw_write_unlock(&l->rw);
}

static inline void write_lock_irq(rwlock_t *l)
{
	rt_rw_write_lock(&l->rw, true);
}

static inline void write_unlock_irq(rwlock_t *l)
{
	rt_rw_write_unlock(&l->rw);
}

static inline unsigned long __write_lock_irqsave(rwlock_t *l)
{
	unsigned long flags = arch_local_save_flags();

	rt_rw_write_lock(&l->rw, true);
	return flags;
}

static inline void write_unlock_irqrestore(rwlock_t *l, unsigned long flags)
{
	(void)flags;	/* nothing was disabled */
	rt_rw_write_unlock(&l->rw);
}

#else /* !CONFIG_PREEMPT_RT */
/* ---- none/voluntary/desktop: rwlock_t is the raw lock */
#define RWLOCK_SLEEPS 0

typedef struct rwlock {
	raw_rwlock_t raw;
} rwlock_t;

#define RW_LOCK_UNLOCKED(name) { .raw = __RAW_RW_LOCK_UNLOCKED(name) }

static inline void __rwlock_init(rwlock_t *l, const char *name,
				 const char *file, int line)
{
	__raw_rwlock_init(&l->raw, name, file, line);
}

static __always_inline void read_lock(rwlock_t *l)
{
	raw_read_lock(&l->raw);
}

static __always_inline int read_trylock(rwlock_t *l)
{
	return raw_read_trylock(&l->raw);
}

static __always_inline void read_unlock(rwlock_t *l)
{
	raw_read_unlock(&l->raw);
}

static __always_inline void read_lock_irq(rwlock_t *l)
{
	raw_read_lock_irq(&l->raw);
}

static __always_inline void read_unlock_irq(rwlock_t *l)
{
	raw_read_unlock_irq(&l->raw);
}

static __always_inline unsigned long __read_lock_irqsave(rwlock_t *l)
{
	return __raw_read_lock_irqsave(&l->raw);
}

static __always_inline void read_unlock_irqrestore(rwlock_t *l,
						   unsigned long flags)
{
	raw_read_unlock_irqrestore(&l->raw, flags);
}

static __always_inline void write_lock(rwlock_t *l)
{
	raw_write_lock(&l->raw);
}

static __always_inline int write_trylock(rwlock_t *l)
{
	return raw_write_trylock(&l->raw);
}

static __always_inline void write_unlock(rwlock_t *l)
{
	raw_write_unlock(&l->raw);
}

static __always_inline void write_lock_irq(rwlock_t *l)
{
	raw_write_lock_irq(&l->raw);
}

static __always_inline void write_unlock_irq(rwlock_t *l)
{
	raw_write_unlock_irq(&l->raw);
}

static __always_inline unsigned long __write_lock_irqsave(rwlock_t *l)
{
	return __raw_write_lock_irqsave(&l->raw);
}

static __always_inline void write_unlock_irqrestore(rwlock_t *l,
						    unsigned long flags)
{
	raw_write_unlock_irqrestore(&l->raw, flags);
}
#endif

#define DEFINE_RWLOCK(x) rwlock_t x = RW_LOCK_UNLOCKED(x)

/*
 * The overloads: the pointer type picks raw_X (above, every build) or X
 * (the rwlock_t function of this build).  The irqsave family records and
 * checks its flags like spin_lock_irqsave does (DEBUG_IRQ_FLAGS,
 * kernel/locking/debug_irqflags.h).
 */
#define rwlock_init(l)                                                       \
	_Generic((l), raw_rwlock_t *: __raw_rwlock_init,                     \
		 rwlock_t *: __rwlock_init)(l, #l, __FILE__, __LINE__)
#define read_lock(l)                                                         \
	_Generic((l), raw_rwlock_t *: raw_read_lock, rwlock_t *: read_lock)(l)
#define read_trylock(l)                                                      \
	_Generic((l), raw_rwlock_t *: raw_read_trylock,                      \
		 rwlock_t *: read_trylock)(l)
#define read_unlock(l)                                                       \
	_Generic((l), raw_rwlock_t *: raw_read_unlock,                       \
		 rwlock_t *: read_unlock)(l)
#define read_lock_irq(l)                                                     \
	_Generic((l), raw_rwlock_t *: raw_read_lock_irq,                     \
		 rwlock_t *: read_lock_irq)(l)
#define read_unlock_irq(l)                                                   \
	_Generic((l), raw_rwlock_t *: raw_read_unlock_irq,                   \
		 rwlock_t *: read_unlock_irq)(l)
#define read_lock_irqsave(l, flags)                                          \
	do {                                                                 \
		(flags) = _Generic((l),                                      \
				   raw_rwlock_t *: __raw_read_lock_irqsave,   \
				   rwlock_t *: __read_lock_irqsave)(l);       \
		debug_irqflags_saved(l, flags, __FILE__, __LINE__);          \
	} while (0)
#define read_unlock_irqrestore(l, flags)                                     \
	do {                                                                 \
		debug_irqflags_check(l, "read_unlock_irqrestore", #l, flags, \
				     __FILE__, __LINE__);                    \
		_Generic((l), raw_rwlock_t *: raw_read_unlock_irqrestore,    \
			 rwlock_t *: read_unlock_irqrestore)(l, flags);      \
	} while (0)
#define write_lock(l)                                                        \
	_Generic((l), raw_rwlock_t *: raw_write_lock,                        \
		 rwlock_t *: write_lock)(l)
#define write_trylock(l)                                                     \
	_Generic((l), raw_rwlock_t *: raw_write_trylock,                     \
		 rwlock_t *: write_trylock)(l)
#define write_unlock(l)                                                      \
	_Generic((l), raw_rwlock_t *: raw_write_unlock,                      \
		 rwlock_t *: write_unlock)(l)
#define write_lock_irq(l)                                                    \
	_Generic((l), raw_rwlock_t *: raw_write_lock_irq,                    \
		 rwlock_t *: write_lock_irq)(l)
#define write_unlock_irq(l)                                                  \
	_Generic((l), raw_rwlock_t *: raw_write_unlock_irq,                  \
		 rwlock_t *: write_unlock_irq)(l)
#define write_lock_irqsave(l, flags)                                         \
	do {                                                                 \
		(flags) = _Generic((l),                                      \
				   raw_rwlock_t *: __raw_write_lock_irqsave,  \
				   rwlock_t *: __write_lock_irqsave)(l);      \
		debug_irqflags_saved(l, flags, __FILE__, __LINE__);          \
	} while (0)
#define write_unlock_irqrestore(l, flags)                                    \
	do {                                                                 \
		debug_irqflags_check(l, "write_unlock_irqrestore", #l,       \
				     flags, __FILE__, __LINE__);             \
		_Generic((l), raw_rwlock_t *: raw_write_unlock_irqrestore,   \
			 rwlock_t *: write_unlock_irqrestore)(l, flags);     \
	} while (0)

#endif /* KERNEL_LOCKING_RWLOCK_H */
