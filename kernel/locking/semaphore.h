/*
 * kernel/locking/semaphore.h - struct semaphore, struct compat_semaphore,
 * struct rw_semaphore, struct compat_rw_semaphore (article, "Priority
 * inheritance for in-kernel spinlocks and semaphores" and "Summary of
 * PREEMPT_RT primitives").
 *
 *   type                   rt                       none/voluntary/desktop
 *   semaphore              rt_mutex (PI): a sleep-  counting semaphore
 *                          lock, count 1 only
 *   compat_semaphore       counting, no PI (event use)
 *   rw_semaphore           rt_mutex (PI), one       many readers or one
 *                          recursive reader         writer, no PI
 *   compat_rw_semaphore    many readers or one writer, no PI
 *
 * Under rt a struct semaphore is a mutex: up() must come from the task
 * that did down() (an event has no owner to boost: the article's Quick
 * Quiz #3; use compat_semaphore or, better, a completion).  sema_init()
 * with a count other than 1 warns under rt.  down_trylock() returns 0
 * when it got the semaphore (Linux's convention); under rt it may not be
 * called atomic (might_sleep warning), elsewhere and on compat_semaphore
 * it may.
 * up()/down()/down_interruptible()/down_trylock() and down_read()/
 * up_read()/down_write()/up_write()/downgrade_write()/..._trylock() take
 * either type of their family (C11 _Generic).
 * Linux counterpart: include/linux/semaphore.h, rwsem.h (PREEMPT_RT patch
 * v0.7.x: compat_semaphore, rt_down/rt_up).
 */
#ifndef KERNEL_LOCKING_SEMAPHORE_H
#define KERNEL_LOCKING_SEMAPHORE_H

#include "kernel/sched/wait.h"
#include "kernel/locking/rt_rw.h"
#include "kernel/sched/preempt_model.h"

struct compat_semaphore {
	int count;			/* under wait.lock */
	wait_queue_head_t wait;
};

struct compat_rw_semaphore {
	int activity;			/* >0 readers, -1 writer; wait.lock */
	wait_queue_head_t wait;
};

#define __COMPAT_SEMAPHORE_INITIALIZER(name, n)                              \
	{ .count = (n), .wait = __WAIT_QUEUE_HEAD_INITIALIZER(name.wait) }
#define __COMPAT_RWSEM_INITIALIZER(name)                                     \
	{ .activity = 0, .wait = __WAIT_QUEUE_HEAD_INITIALIZER(name.wait) }

void compat_sema_init(struct compat_semaphore *sem, int val);
void compat_down(struct compat_semaphore *sem);
int compat_down_interruptible(struct compat_semaphore *sem);
int compat_down_trylock(struct compat_semaphore *sem);
void compat_up(struct compat_semaphore *sem);

void compat_init_rwsem(struct compat_rw_semaphore *sem);
void compat_down_read(struct compat_rw_semaphore *sem);
int compat_down_read_trylock(struct compat_rw_semaphore *sem);
void compat_up_read(struct compat_rw_semaphore *sem);
void compat_down_write(struct compat_rw_semaphore *sem);
int compat_down_write_trylock(struct compat_rw_semaphore *sem);
void compat_up_write(struct compat_rw_semaphore *sem);
void compat_downgrade_write(struct compat_rw_semaphore *sem);
/* sem_release_window - test-only race window (kernel/debug/race_window.h):
 * a compat release after its last touch of the semaphore (a sleeper may
 * have taken it and returned by then; tests/kernel/test_completion_races.c). */
struct race_window;
extern struct race_window sem_release_window;

#if defined(CONFIG_PREEMPT_RT)
#define SEMAPHORE_PI 1

struct semaphore {
	struct rt_mutex lock;
};
struct rw_semaphore {
	struct rt_rw_lock rw;
};

#define __SEMAPHORE_INITIALIZER(name, n)                                     \
	{ .lock = __RT_MUTEX_INITIALIZER(name.lock) }
#define __RWSEM_INITIALIZER(name) { .rw = __RT_RW_LOCK_INITIALIZER(name.rw) }

void rt_sema_init_named(struct semaphore *sem, int val, const char *name,
			const char *file, int line);
#define __SEM(op) rt_##op
#define __RWSEM(op) rt_##op

static inline void rt_down(struct semaphore *s) { rt_mutex_lock(&s->lock); }
static inline int rt_down_interruptible(struct semaphore *s)
{
	return rt_mutex_lock_interruptible(&s->lock);
}
/* down_trylock under rt "can schedule, so cannot be invoked with hardware
 * interrupts disabled or with preemption disabled" (article): it is a
 * sleeping-lock operation and gets the might_sleep check of one, even
 * though rtk's never blocks.  compat_semaphore's stays atomic-safe. */
static inline int rt_down_trylock(struct semaphore *s)
{
	might_sleep();
	return !rt_mutex_trylock(&s->lock);
}
static inline void rt_up(struct semaphore *s) { rt_mutex_unlock(&s->lock); }

static inline void rt_down_read(struct rw_semaphore *s)
{
	rt_rw_read_lock(&s->rw, false);
}
static inline int rt_down_read_trylock(struct rw_semaphore *s)
{
	return rt_rw_read_trylock(&s->rw);
}
static inline void rt_up_read(struct rw_semaphore *s)
{
	rt_rw_read_unlock(&s->rw);
}
static inline void rt_down_write(struct rw_semaphore *s)
{
	rt_rw_write_lock(&s->rw, false);
}
static inline int rt_down_write_trylock(struct rw_semaphore *s)
{
	return rt_rw_write_trylock(&s->rw);
}
static inline void rt_up_write(struct rw_semaphore *s)
{
	rt_rw_write_unlock(&s->rw);
}
static inline void rt_downgrade_write(struct rw_semaphore *s)
{
	rt_rw_downgrade(&s->rw);
}
static inline void rt_init_rwsem_named(struct rw_semaphore *s,
				       const char *name)
{
	__rt_rw_init(&s->rw, name, __FILE__, __LINE__);
}

#else /* !CONFIG_PREEMPT_RT: the plain counting kinds */
#define SEMAPHORE_PI 0

struct semaphore {
	struct compat_semaphore sem;
};
struct rw_semaphore {
	struct compat_rw_semaphore sem;
};

#define __SEMAPHORE_INITIALIZER(name, n)                                     \
	{ .sem = __COMPAT_SEMAPHORE_INITIALIZER(name.sem, n) }
#define __RWSEM_INITIALIZER(name) { .sem = __COMPAT_RWSEM_INITIALIZER(name.sem) }

#define __SEM(op) nort_##op
#define __RWSEM(op) nort_##op

static inline void nort_sema_init_named(struct semaphore *s, int val,
					const char *name, const char *file,
					int line)
{
	compat_sema_init(&s->sem, val);
}
#define __NORT_SEM_OP(ret, op, type)                                         \
static inline ret nort_##op(struct type *s)                                  \
{                                                                            \
	return compat_##op(&s->sem);                                         \
}
__NORT_SEM_OP(void, down, semaphore)
__NORT_SEM_OP(int, down_interruptible, semaphore)
__NORT_SEM_OP(int, down_trylock, semaphore)
__NORT_SEM_OP(void, up, semaphore)
__NORT_SEM_OP(void, down_read, rw_semaphore)
__NORT_SEM_OP(int, down_read_trylock, rw_semaphore)
__NORT_SEM_OP(void, up_read, rw_semaphore)
__NORT_SEM_OP(void, down_write, rw_semaphore)
__NORT_SEM_OP(int, down_write_trylock, rw_semaphore)
__NORT_SEM_OP(void, up_write, rw_semaphore)
__NORT_SEM_OP(void, downgrade_write, rw_semaphore)
static inline void nort_init_rwsem_named(struct rw_semaphore *s,
					 const char *name)
{
	compat_init_rwsem(&s->sem);
}
#endif

static inline void compat_sema_init_named(struct compat_semaphore *s, int val,
					  const char *name, const char *file,
					  int line)
{
	compat_sema_init(s, val);
}
static inline void compat_init_rwsem_named(struct compat_rw_semaphore *s,
					   const char *name)
{
	compat_init_rwsem(s);
}

#define DEFINE_SEMAPHORE(name, n)                                            \
	struct semaphore name = __SEMAPHORE_INITIALIZER(name, n)
#define DECLARE_MUTEX(name) DEFINE_SEMAPHORE(name, 1)
#define DECLARE_COMPAT_SEMAPHORE(name, n)                                    \
	struct compat_semaphore name = __COMPAT_SEMAPHORE_INITIALIZER(name, n)
#define DECLARE_RWSEM(name) struct rw_semaphore name = __RWSEM_INITIALIZER(name)
#define DECLARE_COMPAT_RWSEM(name)                                           \
	struct compat_rw_semaphore name = __COMPAT_RWSEM_INITIALIZER(name)

#define __SEMPICK(s, op)                                                     \
	_Generic((s), struct compat_semaphore *: compat_##op,                \
		 struct semaphore *: __SEM(op))
#define __RWSEMPICK(s, op)                                                   \
	_Generic((s), struct compat_rw_semaphore *: compat_##op,             \
		 struct rw_semaphore *: __RWSEM(op))

#define sema_init(s, val)                                                    \
	__SEMPICK(s, sema_init_named)(s, val, #s, __FILE__, __LINE__)
#define init_MUTEX(s)		sema_init(s, 1)
#define init_MUTEX_LOCKED(s)	sema_init(s, 0)
#define down(s)			__SEMPICK(s, down)(s)
#define down_interruptible(s)	__SEMPICK(s, down_interruptible)(s)
#define down_trylock(s)		__SEMPICK(s, down_trylock)(s)
#define up(s)			__SEMPICK(s, up)(s)

#define init_rwsem(s)		__RWSEMPICK(s, init_rwsem_named)(s, #s)
#define down_read(s)		__RWSEMPICK(s, down_read)(s)
#define down_read_trylock(s)	__RWSEMPICK(s, down_read_trylock)(s)
#define up_read(s)		__RWSEMPICK(s, up_read)(s)
#define down_write(s)		__RWSEMPICK(s, down_write)(s)
#define down_write_trylock(s)	__RWSEMPICK(s, down_write_trylock)(s)
#define up_write(s)		__RWSEMPICK(s, up_write)(s)
#define downgrade_write(s)	__RWSEMPICK(s, downgrade_write)(s)

#endif /* KERNEL_LOCKING_SEMAPHORE_H */
