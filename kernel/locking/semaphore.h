/*
 * kernel/locking/semaphore.h - struct semaphore, struct compat_semaphore,
 * struct rw_semaphore, struct compat_rw_semaphore (article, "Priority
 * inheritance for in-kernel spinlocks and semaphores" and "Summary of
 * PREEMPT_RT primitives").
 *
 * up()/down()/down_interruptible()/down_trylock() and down_read()/
 * up_read()/down_write()/up_write()/downgrade_write()/..._trylock() take
 * either type of their family: a C11 _Generic at the bottom picks the
 * compat_X() of semaphore.c or the function of the macro's own name
 * (down(struct semaphore *) ...) defined here once per build.  Where a
 * down() / down_read() call ends:
 *
 *   type, build           down() / down_read() -> ...
 *   semaphore, rt         down -> rt_mutex_lock (rtmutex.c): a PI sleeping
 *                         lock, count 1 only
 *   semaphore, none/      down -> compat_down (semaphore.c): counting
 *   voluntary/desktop
 *   compat_semaphore      compat_down (semaphore.c): counting, no PI
 *   rw_semaphore, rt      down_read -> rt_rw_read_lock (rt_rw.c) ->
 *                         rt_mutex_lock: PI, one recursive reader
 *   rw_semaphore, none/   down_read -> compat_down_read (semaphore.c):
 *   voluntary/desktop     many readers or one writer, no PI
 *   compat_rw_semaphore   compat_down_read (semaphore.c), no PI
 *
 * (up(), down_write() ... : the same rows.)  DEBUG_RT_LOCKING_MODE does
 * not touch the semaphores.
 * Under rt a struct semaphore is a mutex: up() must come from the task
 * that did down() (an event has no owner to boost: the article's Quick
 * Quiz #3; use compat_semaphore or, better, a completion).  sema_init()
 * with a count other than 1 warns under rt.  down_trylock() returns 0
 * when it got the semaphore (Linux's convention); under rt it may not be
 * called atomic (might_sleep warning), elsewhere and on compat_semaphore
 * it may.
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
/* ---- rt: struct semaphore is a PI mutex, rw_semaphore the one-reader
 * rt_mutex lock of rt_rw.c (sleeping without keeping the task state) */
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

/* rt_sema_init_named - semaphore.c: WARNs on a count other than 1. */
void rt_sema_init_named(struct semaphore *sem, int val, const char *name,
			const char *file, int line);

static inline void sema_init_named(struct semaphore *s, int val,
				   const char *name, const char *file,
				   int line)
{
	rt_sema_init_named(s, val, name, file, line);
}

/* down - Context: task, may sleep.  Locking: takes s (PI); up() must
 * come from the same task. */
static inline void down(struct semaphore *s)
{
	rt_mutex_lock(&s->lock);
}

static inline int down_interruptible(struct semaphore *s)
{
	return rt_mutex_lock_interruptible(&s->lock);
}

/* down_trylock under rt "can schedule, so cannot be invoked with hardware
 * interrupts disabled or with preemption disabled" (article): it is a
 * sleeping-lock operation and gets the might_sleep check of one, even
 * though rtk's never blocks.  compat_semaphore's stays atomic-safe. */
static inline int down_trylock(struct semaphore *s)
{
	might_sleep();
	return !rt_mutex_trylock(&s->lock);
}

static inline void up(struct semaphore *s)
{
	rt_mutex_unlock(&s->lock);
}

static inline void init_rwsem_named(struct rw_semaphore *s, const char *name)
{
	__rt_rw_init(&s->rw, name, __FILE__, __LINE__);
}

/* down_read / down_write - Context: task, may sleep.  Locking: takes s
 * (PI); the task that read-holds it may read-take it again. */
static inline void down_read(struct rw_semaphore *s)
{
	rt_rw_read_lock(&s->rw, false);
}

static inline int down_read_trylock(struct rw_semaphore *s)
{
	return rt_rw_read_trylock(&s->rw);
}

static inline void up_read(struct rw_semaphore *s)
{
	rt_rw_read_unlock(&s->rw);
}

static inline void down_write(struct rw_semaphore *s)
{
	rt_rw_write_lock(&s->rw, false);
}

static inline int down_write_trylock(struct rw_semaphore *s)
{
	return rt_rw_write_trylock(&s->rw);
}

static inline void up_write(struct rw_semaphore *s)
{
	rt_rw_write_unlock(&s->rw);
}

static inline void downgrade_write(struct rw_semaphore *s)
{
	rt_rw_downgrade(&s->rw);
}

#else /* !CONFIG_PREEMPT_RT */
/* ---- none/voluntary/desktop: the plain counting kinds of semaphore.c */
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

static inline void sema_init_named(struct semaphore *s, int val,
				   const char *name, const char *file,
				   int line)
{
	compat_sema_init(&s->sem, val);
}

static inline void down(struct semaphore *s)
{
	compat_down(&s->sem);
}

static inline int down_interruptible(struct semaphore *s)
{
	return compat_down_interruptible(&s->sem);
}

static inline int down_trylock(struct semaphore *s)
{
	return compat_down_trylock(&s->sem);
}

static inline void up(struct semaphore *s)
{
	compat_up(&s->sem);
}

static inline void init_rwsem_named(struct rw_semaphore *s, const char *name)
{
	compat_init_rwsem(&s->sem);
}

static inline void down_read(struct rw_semaphore *s)
{
	compat_down_read(&s->sem);
}

static inline int down_read_trylock(struct rw_semaphore *s)
{
	return compat_down_read_trylock(&s->sem);
}

static inline void up_read(struct rw_semaphore *s)
{
	compat_up_read(&s->sem);
}

static inline void down_write(struct rw_semaphore *s)
{
	compat_down_write(&s->sem);
}

static inline int down_write_trylock(struct rw_semaphore *s)
{
	return compat_down_write_trylock(&s->sem);
}

static inline void up_write(struct rw_semaphore *s)
{
	compat_up_write(&s->sem);
}

static inline void downgrade_write(struct rw_semaphore *s)
{
	compat_downgrade_write(&s->sem);
}
#endif

/* The compat kinds' initialisers with the overloads' signature. */
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

/*
 * The overloads (article: "The various semaphore primitives (up(), down(),
 * and friends) may be used on either compat_semaphore and semaphore"):
 * the pointer type picks compat_X (semaphore.c, every build) or X (the
 * struct semaphore / rw_semaphore function of this build, above).
 */
#define sema_init(s, val)                                                    \
	_Generic((s), struct compat_semaphore *: compat_sema_init_named,     \
		 struct semaphore *: sema_init_named)(s, val, #s, __FILE__,  \
						      __LINE__)
#define init_MUTEX(s)		sema_init(s, 1)
#define init_MUTEX_LOCKED(s)	sema_init(s, 0)
#define down(s)                                                              \
	_Generic((s), struct compat_semaphore *: compat_down,                \
		 struct semaphore *: down)(s)
#define down_interruptible(s)                                                \
	_Generic((s), struct compat_semaphore *: compat_down_interruptible,  \
		 struct semaphore *: down_interruptible)(s)
#define down_trylock(s)                                                      \
	_Generic((s), struct compat_semaphore *: compat_down_trylock,        \
		 struct semaphore *: down_trylock)(s)
#define up(s)                                                                \
	_Generic((s), struct compat_semaphore *: compat_up,                  \
		 struct semaphore *: up)(s)

#define init_rwsem(s)                                                        \
	_Generic((s), struct compat_rw_semaphore *: compat_init_rwsem_named, \
		 struct rw_semaphore *: init_rwsem_named)(s, #s)
#define down_read(s)                                                         \
	_Generic((s), struct compat_rw_semaphore *: compat_down_read,        \
		 struct rw_semaphore *: down_read)(s)
#define down_read_trylock(s)                                                 \
	_Generic((s), struct compat_rw_semaphore *: compat_down_read_trylock, \
		 struct rw_semaphore *: down_read_trylock)(s)
#define up_read(s)                                                           \
	_Generic((s), struct compat_rw_semaphore *: compat_up_read,          \
		 struct rw_semaphore *: up_read)(s)
#define down_write(s)                                                        \
	_Generic((s), struct compat_rw_semaphore *: compat_down_write,       \
		 struct rw_semaphore *: down_write)(s)
#define down_write_trylock(s)                                                \
	_Generic((s), struct compat_rw_semaphore *: compat_down_write_trylock, \
		 struct rw_semaphore *: down_write_trylock)(s)
#define up_write(s)                                                          \
	_Generic((s), struct compat_rw_semaphore *: compat_up_write,         \
		 struct rw_semaphore *: up_write)(s)
#define downgrade_write(s)                                                   \
	_Generic((s), struct compat_rw_semaphore *: compat_downgrade_write,  \
		 struct rw_semaphore *: downgrade_write)(s)

#endif /* KERNEL_LOCKING_SEMAPHORE_H */
