/*
 * kernel/locking/rwlock.h - rwlock_t and raw_rwlock_t, and read_lock()/
 * write_lock() and friends on both (article, "Summary of PREEMPT_RT
 * primitives": rwlock_t, RW_LOCK_UNLOCKED(mylock), raw_rwlock_t).
 *
 *   model               rwlock_t                      _irqsave on it
 *   rt                  rt_mutex, one recursive       saves flags only
 *                       reader at a time, PI          (irqs stay on)
 *   none/voluntary/     the raw lock: many readers,   disables irqs
 *   desktop             preemption off
 *
 * raw_rwlock_t spins under every model: cnt > 0 readers, -1 a writer,
 * 0 free (readers can starve a writer, as the classic rwlock allows).
 * The pointer type picks the implementation at compile time (C11
 * _Generic, as spin_lock() does in kernel/locking/spinlock.h).
 * RW_LOCK_UNLOCKED takes the lock itself (the rt_mutex needs its name);
 * DEFINE_RWLOCK is the portable spelling.
 * Linux counterpart: include/linux/rwlock.h, rwlock_types.h (PREEMPT_RT
 * patch v0.7.x rt_read_lock & co.).  Leaves out the _bh forms.
 */
#ifndef KERNEL_LOCKING_RWLOCK_H
#define KERNEL_LOCKING_RWLOCK_H

#include "kernel/locking/raw_spinlock.h"
#include "kernel/locking/rt_rw.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/locking/debug_irqflags.h"

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

static inline void raw_rwlock_init_named(raw_rwlock_t *rw, const char *name,
					 const char *file, int line)
{
	rw->cnt = 0;
	rw->name = name;
	lockdep_init_map(&rw->dep_map, name, file, line, LD_WAIT_SPIN);
}

/* One generator per side: lock, trylock, unlock, _irq, _irqsave. */
#define __RAW_RW_OPS(side)                                                   \
static __always_inline void raw_##side##_lock(raw_rwlock_t *rw)              \
{                                                                            \
	preempt_disable();                                                   \
	do_raw_##side##_lock(rw);                                            \
}                                                                            \
static __always_inline int raw_##side##_trylock(raw_rwlock_t *rw)            \
{                                                                            \
	preempt_disable();                                                   \
	if (do_raw_##side##_trylock(rw))                                     \
		return 1;                                                    \
	preempt_enable();                                                    \
	return 0;                                                            \
}                                                                            \
static __always_inline void raw_##side##_unlock(raw_rwlock_t *rw)            \
{                                                                            \
	do_raw_##side##_unlock(rw);                                          \
	preempt_enable();                                                    \
}                                                                            \
static __always_inline void raw_##side##_lock_irq(raw_rwlock_t *rw)          \
{                                                                            \
	raw_local_irq_disable();                                             \
	raw_##side##_lock(rw);                                               \
}                                                                            \
static __always_inline void raw_##side##_unlock_irq(raw_rwlock_t *rw)        \
{                                                                            \
	do_raw_##side##_unlock(rw);                                          \
	raw_local_irq_enable();                                              \
	preempt_enable();                                                    \
}                                                                            \
static __always_inline unsigned long raw_##side##_lock_irqsave(              \
	raw_rwlock_t *rw)                                                    \
{                                                                            \
	unsigned long flags;                                                 \
	raw_local_irq_save(flags);                                           \
	raw_##side##_lock(rw);                                               \
	return flags;                                                        \
}                                                                            \
static __always_inline void raw_##side##_unlock_irqrestore(                  \
	raw_rwlock_t *rw, unsigned long flags)                               \
{                                                                            \
	do_raw_##side##_unlock(rw);                                          \
	raw_local_irq_restore(flags);                                        \
	preempt_enable();                                                    \
}
__RAW_RW_OPS(read)
__RAW_RW_OPS(write)

#if defined(CONFIG_PREEMPT_RT)
#define RWLOCK_SLEEPS 1

typedef struct rwlock {
	struct rt_rw_lock rw;
} rwlock_t;

#define RW_LOCK_UNLOCKED(name) { .rw = __RT_RW_LOCK_INITIALIZER(name.rw) }
#define __RWL_INIT(l, name, file, line) __rt_rw_init(&(l)->rw, name, file, line)

#define __RT_RWL_OPS(side)                                                   \
static inline void rt_##side##_lock(rwlock_t *l)                             \
{                                                                            \
	rt_rw_##side##_lock(&l->rw, true);                                   \
}                                                                            \
static inline int rt_##side##_trylock(rwlock_t *l)                           \
{                                                                            \
	return rt_rw_##side##_trylock(&l->rw);                               \
}                                                                            \
static inline void rt_##side##_unlock(rwlock_t *l)                           \
{                                                                            \
	rt_rw_##side##_unlock(&l->rw);                                       \
}                                                                            \
static inline unsigned long rt_##side##_lock_irqsave(rwlock_t *l)            \
{                                                                            \
	unsigned long flags = arch_local_save_flags();                       \
	rt_##side##_lock(l);                                                 \
	return flags;                                                        \
}                                                                            \
static inline void rt_##side##_unlock_irqrestore(rwlock_t *l,                \
						 unsigned long flags)        \
{                                                                            \
	(void)flags;	/* nothing was disabled */                           \
	rt_##side##_unlock(l);                                               \
}
__RT_RWL_OPS(read)
__RT_RWL_OPS(write)
/* _irq on rwlock_t under rt: the lock only */
#define rt_read_lock_irq rt_read_lock
#define rt_read_unlock_irq rt_read_unlock
#define rt_write_lock_irq rt_write_lock
#define rt_write_unlock_irq rt_write_unlock
#define __RWL(op) rt_##op

#else /* !CONFIG_PREEMPT_RT: rwlock_t is the raw lock */
#define RWLOCK_SLEEPS 0

typedef struct rwlock {
	raw_rwlock_t raw;
} rwlock_t;

#define RW_LOCK_UNLOCKED(name) { .raw = __RAW_RW_LOCK_UNLOCKED(name) }
#define __RWL_INIT(l, name, file, line)                                      \
	raw_rwlock_init_named(&(l)->raw, name, file, line)

#define __NORT_RWL_OP(op)                                                    \
static __always_inline void nort_##op(rwlock_t *l)                           \
{                                                                            \
	raw_##op(&l->raw);                                                   \
}
__NORT_RWL_OP(read_lock) __NORT_RWL_OP(read_unlock)
__NORT_RWL_OP(write_lock) __NORT_RWL_OP(write_unlock)
__NORT_RWL_OP(read_lock_irq) __NORT_RWL_OP(read_unlock_irq)
__NORT_RWL_OP(write_lock_irq) __NORT_RWL_OP(write_unlock_irq)
static __always_inline int nort_read_trylock(rwlock_t *l)
{
	return raw_read_trylock(&l->raw);
}
static __always_inline int nort_write_trylock(rwlock_t *l)
{
	return raw_write_trylock(&l->raw);
}
static __always_inline unsigned long nort_read_lock_irqsave(rwlock_t *l)
{
	return raw_read_lock_irqsave(&l->raw);
}
static __always_inline unsigned long nort_write_lock_irqsave(rwlock_t *l)
{
	return raw_write_lock_irqsave(&l->raw);
}
static __always_inline void nort_read_unlock_irqrestore(rwlock_t *l,
							unsigned long f)
{
	raw_read_unlock_irqrestore(&l->raw, f);
}
static __always_inline void nort_write_unlock_irqrestore(rwlock_t *l,
							 unsigned long f)
{
	raw_write_unlock_irqrestore(&l->raw, f);
}
#define __RWL(op) nort_##op
#endif

#define DEFINE_RWLOCK(x) rwlock_t x = RW_LOCK_UNLOCKED(x)

static inline void __raw_rwlock_init_op(raw_rwlock_t *rw, const char *name,
					const char *file, int line)
{
	raw_rwlock_init_named(rw, name, file, line);
}
static inline void __rwlock_init_op(rwlock_t *l, const char *name,
				    const char *file, int line)
{
	__RWL_INIT(l, name, file, line);
}

#define __RWPICK(l, op)                                                      \
	_Generic((l), raw_rwlock_t *: raw_##op, rwlock_t *: __RWL(op))

#define rwlock_init(l)                                                       \
	_Generic((l), raw_rwlock_t *: __raw_rwlock_init_op,                  \
		 rwlock_t *: __rwlock_init_op)(l, #l, __FILE__, __LINE__)
#define read_lock(l)		__RWPICK(l, read_lock)(l)
#define read_unlock(l)		__RWPICK(l, read_unlock)(l)
#define read_trylock(l)		__RWPICK(l, read_trylock)(l)
#define write_lock(l)		__RWPICK(l, write_lock)(l)
#define write_unlock(l)		__RWPICK(l, write_unlock)(l)
#define write_trylock(l)	__RWPICK(l, write_trylock)(l)
#define read_lock_irq(l)	__RWPICK(l, read_lock_irq)(l)
#define read_unlock_irq(l)	__RWPICK(l, read_unlock_irq)(l)
#define write_lock_irq(l)	__RWPICK(l, write_lock_irq)(l)
#define write_unlock_irq(l)	__RWPICK(l, write_unlock_irq)(l)
/* the irqsave family records and checks its flags like spin_lock_irqsave
 * does (DEBUG_IRQ_FLAGS, kernel/locking/debug_irqflags.h) */
#define __RW_LOCK_IRQSAVE(side, l, flags)                                    \
	do {                                                                 \
		(flags) = __RWPICK(l, side##_lock_irqsave)(l);               \
		debug_irqflags_saved(l, flags, __FILE__, __LINE__);          \
	} while (0)
#define __RW_UNLOCK_IRQRESTORE(side, l, flags)                               \
	do {                                                                 \
		debug_irqflags_check(l, #side "_unlock_irqrestore", #l,      \
				     flags, __FILE__, __LINE__);             \
		__RWPICK(l, side##_unlock_irqrestore)(l, flags);             \
	} while (0)
#define read_lock_irqsave(l, flags)	__RW_LOCK_IRQSAVE(read, l, flags)
#define write_lock_irqsave(l, flags)	__RW_LOCK_IRQSAVE(write, l, flags)
#define read_unlock_irqrestore(l, flags) __RW_UNLOCK_IRQRESTORE(read, l, flags)
#define write_unlock_irqrestore(l, flags)                                    \
	__RW_UNLOCK_IRQRESTORE(write, l, flags)

#endif /* KERNEL_LOCKING_RWLOCK_H */
