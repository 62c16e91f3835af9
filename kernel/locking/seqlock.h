/*
 * kernel/locking/seqlock.h - seqlock_t and raw_seqlock_t (article,
 * "Summary of PREEMPT_RT primitives": seqlock_t, SEQLOCK_UNLOCKED(name),
 * DECLARE_SEQLOCK).
 *
 * Readers take no lock: they read the sequence, read the data, and retry
 * if the sequence was odd (a write in progress) or changed.  Writers take
 * the type's lock and bump the sequence before and after the update.
 * read_seqbegin() / read_seqretry() / write_seqlock() / write_sequnlock()
 * take either type: a C11 _Generic at the bottom picks raw_X() for a
 * raw_seqlock_t * or the function of the macro's own name for a
 * seqlock_t *.  Where the calls end:
 *
 *   type, build         write_seqlock() ->      read_seqbegin(), write
 *                                               in progress ->
 *   seqlock_t, rt       spin_lock(spinlock_t *) seqlock_wait_for_writer:
 *                       -> rt_spin_lock: PI,    spin_lock + spin_unlock
 *                       preemptible writer      (blocks, boosts writer)
 *   seqlock_t, none/    spin_lock(spinlock_t *) seqlock_wait_for_writer:
 *   voluntary/desktop   -> raw_spin_lock        cpu_relax, read again
 *   raw_seqlock_t,      raw_spin_lock: non-     raw_read_seqbegin:
 *   every build         preemptible writer      cpu_relax, read again
 *
 * (spinlock.h's table says where spin_lock() ends.)  The only model-
 * dependent piece is seqlock_wait_for_writer().  SEQLOCK_UNLOCKED takes
 * the lock itself; DECLARE_SEQLOCK(name) defines and initialises one.
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

/*
 * The sequence protocol, the same for both types (Linux keeps it in the
 * seqcount_t under a seqlock_t).  A write makes the sequence odd, then
 * even again; a reader retries when it saw an odd value or a change.
 * sequence_write_begin's release fence orders the odd value before the
 * update's stores, sequence_write_end's orders the stores before the even
 * value; both pair with the acquire fences of the read side
 * (read_seqbegin, sequence_read_retry).  Locking: the writer holds the
 * seqlock's lock.
 */
static inline void sequence_write_begin(unsigned int *sequence)
{
	WRITE_ONCE(*sequence, *sequence + 1);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void sequence_write_end(unsigned int *sequence)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	WRITE_ONCE(*sequence, *sequence + 1);
}

static inline bool sequence_read_retry(const unsigned int *sequence,
				       unsigned int start)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return READ_ONCE(*sequence) != start;
}

/*
 * write_seqlock / raw_write_seqlock - Context: that of the lock type.
 * Locking: takes sl->lock; the sequence is odd until the unlock (whose
 * spin_unlock is a delayed-reschedule point).
 */
static inline void write_seqlock(seqlock_t *sl)
{
	spin_lock(&sl->lock);
	sequence_write_begin(&sl->sequence);
}

static inline void write_sequnlock(seqlock_t *sl)
{
	sequence_write_end(&sl->sequence);
	spin_unlock(&sl->lock);
}

static inline void raw_write_seqlock(raw_seqlock_t *sl)
{
	spin_lock(&sl->lock);
	sequence_write_begin(&sl->sequence);
}

static inline void raw_write_sequnlock(raw_seqlock_t *sl)
{
	sequence_write_end(&sl->sequence);
	spin_unlock(&sl->lock);
}

/*
 * seqlock_wait_for_writer - a reader of a seqlock_t found a write in
 * progress (odd sequence); the one place the model shows on the read
 * side.  Context: task (under rt: preemptible, it may sleep).
 */
#if SPINLOCK_SLEEPS
/* rt: the writer holds a sleeping lock and may be preempted, even on
 * this CPU: block on its lock once (PI boosts the writer) instead of
 * spinning against a writer that cannot run. */
static inline void seqlock_wait_for_writer(seqlock_t *sl)
{
	spin_lock(&sl->lock);
	spin_unlock(&sl->lock);
}
#else
/* The writer holds a spinning lock with preemption off, so it is running
 * on another CPU: spin until it is done. */
static inline void seqlock_wait_for_writer(seqlock_t *sl)
{
	cpu_relax();
}
#endif

/* read_seqbegin - the sequence to hand to read_seqretry(), once no write
 * is in progress.  Context: that of the lock type (see above). */
static inline unsigned int read_seqbegin(seqlock_t *sl)
{
	unsigned int s;

	while ((s = READ_ONCE(sl->sequence)) & 1)
		seqlock_wait_for_writer(sl);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return s;
}

/* raw_read_seqbegin - the writer runs with preemption off: spin. */
static inline unsigned int raw_read_seqbegin(raw_seqlock_t *sl)
{
	unsigned int s;

	while ((s = READ_ONCE(sl->sequence)) & 1)
		cpu_relax();
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return s;
}

/* read_seqretry - true: the data read since start may be torn, retry. */
static inline bool read_seqretry(seqlock_t *sl, unsigned int start)
{
	return sequence_read_retry(&sl->sequence, start);
}

static inline bool raw_read_seqretry(raw_seqlock_t *sl, unsigned int start)
{
	return sequence_read_retry(&sl->sequence, start);
}

/* The overloads: the pointer type picks raw_X or X (above). */
#define write_seqlock(sl)                                                    \
	_Generic((sl), raw_seqlock_t *: raw_write_seqlock,                   \
		 seqlock_t *: write_seqlock)(sl)
#define write_sequnlock(sl)                                                  \
	_Generic((sl), raw_seqlock_t *: raw_write_sequnlock,                 \
		 seqlock_t *: write_sequnlock)(sl)
#define read_seqbegin(sl)                                                    \
	_Generic((sl), raw_seqlock_t *: raw_read_seqbegin,                   \
		 seqlock_t *: read_seqbegin)(sl)
#define read_seqretry(sl, start)                                             \
	_Generic((sl), raw_seqlock_t *: raw_read_seqretry,                   \
		 seqlock_t *: read_seqretry)(sl, start)

#endif /* KERNEL_LOCKING_SEQLOCK_H */
