/*
 * kernel/locking/seqlock.h - seqlock_t and raw_seqlock_t (article,
 * "Summary of PREEMPT_RT primitives": seqlock_t, SEQLOCK_UNLOCKED(name),
 * DECLARE_SEQLOCK).
 *
 * Readers take no lock: they read the sequence, read the data, and retry
 * if the sequence was odd (a write in progress) or changed.  Writers take
 * the type's lock and bump the sequence before and after the update:
 *
 *	seqlock_t	spinlock_t: under rt a sleeping, PI lock, so the
 *			write side is preemptible and gets priority
 *			inheritance; a reader that finds a write in
 *			progress blocks on that lock once (boosting the
 *			writer) instead of spinning against a preempted
 *			writer, then retries
 *	raw_seqlock_t	raw_spinlock_t: non-preemptible writers
 *
 * read_seqbegin() / read_seqretry() / write_seqlock() / write_sequnlock()
 * take either type (C11 _Generic).  SEQLOCK_UNLOCKED takes the lock
 * itself; DECLARE_SEQLOCK(name) defines and initialises one.
 * Linux counterpart: include/linux/seqlock.h (PREEMPT_RT patch v0.7.x;
 * mainline rt: seqlock_t readers also lock on a write in progress).
 */
#ifndef KERNEL_LOCKING_SEQLOCK_H
#define KERNEL_LOCKING_SEQLOCK_H

#include "kernel/locking/spinlock.h"

typedef struct {
	unsigned int sequence;
	spinlock_t lock;
} seqlock_t;

typedef struct {
	unsigned int sequence;
	raw_spinlock_t lock;
} raw_seqlock_t;

#define SEQLOCK_UNLOCKED(name)                                               \
	{ .sequence = 0, .lock = __SPIN_LOCK_UNLOCKED(name.lock) }
#define RAW_SEQLOCK_UNLOCKED(name)                                           \
	{ .sequence = 0, .lock = __RAW_SPIN_LOCK_UNLOCKED(name.lock) }
#define DECLARE_SEQLOCK(name) seqlock_t name = SEQLOCK_UNLOCKED(name)
#define DECLARE_RAW_SEQLOCK(name) raw_seqlock_t name = RAW_SEQLOCK_UNLOCKED(name)

#define seqlock_init(sl)                                                     \
	do {                                                                 \
		(sl)->sequence = 0;                                          \
		spin_lock_init(&(sl)->lock);                                 \
	} while (0)

/* write_seqlock - Context: that of the lock type.  Locking: takes the
 * lock; the sequence is odd until write_sequnlock. */
#define write_seqlock(sl)                                                    \
	do {                                                                 \
		spin_lock(&(sl)->lock);                                      \
		WRITE_ONCE((sl)->sequence, (sl)->sequence + 1);              \
		__atomic_thread_fence(__ATOMIC_RELEASE);                     \
	} while (0)

#define write_sequnlock(sl)                                                  \
	do {                                                                 \
		__atomic_thread_fence(__ATOMIC_RELEASE);                     \
		WRITE_ONCE((sl)->sequence, (sl)->sequence + 1);              \
		spin_unlock(&(sl)->lock);                                    \
	} while (0)

static inline unsigned int __seq_read_begin_raw(raw_seqlock_t *sl)
{
	unsigned int s;

	while ((s = READ_ONCE(sl->sequence)) & 1)
		cpu_relax();
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return s;
}

/* Under rt a write in progress may be preempted: wait for it on the
 * lock (PI boosts the writer) rather than spin. */
static inline unsigned int __seq_read_begin(seqlock_t *sl)
{
	unsigned int s;

	while ((s = READ_ONCE(sl->sequence)) & 1) {
		if (SPINLOCK_SLEEPS) {
			spin_lock(&sl->lock);
			spin_unlock(&sl->lock);
		} else {
			cpu_relax();
		}
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return s;
}

#define read_seqbegin(sl)                                                    \
	_Generic((sl), raw_seqlock_t *: __seq_read_begin_raw,                \
		 seqlock_t *: __seq_read_begin)(sl)

/* read_seqretry - true: the data read since start may be torn, retry. */
#define read_seqretry(sl, start)                                             \
	({                                                                   \
		__atomic_thread_fence(__ATOMIC_ACQUIRE);                     \
		READ_ONCE((sl)->sequence) != (start);                        \
	})

#endif /* KERNEL_LOCKING_SEQLOCK_H */
