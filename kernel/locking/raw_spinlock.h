/*
 * kernel/locking/raw_spinlock.h - raw_spinlock_t: the spinning lock that
 * stays a spinning, preemption-disabling lock under every model (the
 * article, "Preemptible critical sections": the scheduler, arch code and
 * the sleeping locks' own internals use it).
 *
 * A fair ticket lock: raw_spin_lock takes the next ticket and spins until
 * owner reaches it, so CPUs get the lock in arrival order.
 *
 *	next:  ticket handed to the next arrival (fetch-add)
 *	owner: ticket now allowed in (the holder increments it on unlock)
 *	locked iff next != owner
 *
 * The _irq/_irqsave variants also clear RFLAGS.IF (really, under every
 * model: a raw lock may be shared with a hard-interrupt handler).  For
 * debugging each lock records its holder (CPU, task, acquire site), and a
 * waiter that sees the lock stay with one holder far too long (the clock
 * restarts at each hand-over: raw_spin_stuck) reports both parties and
 * panics instead of hanging silently.
 * Linux counterpart: include/linux/spinlock.h, spinlock_api_smp.h,
 * arch/x86 ticket spinlocks (pre-qspinlock).  Every acquisition and
 * release is annotated for the lock validator (kernel/locking/lockdep.h)
 * in do_raw_spin_lock/trylock/unlock.  Callers normally write spin_lock()
 * & co. (kernel/locking/spinlock.h), which pick the raw_spin_*() below
 * for a raw_spinlock_t *.
 */
#ifndef KERNEL_LOCKING_RAW_SPINLOCK_H
#define KERNEL_LOCKING_RAW_SPINLOCK_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "lib/bug.h"
#include "arch/x86_64/arch.h"
#include "kernel/irqflags.h"
#include "kernel/sched/preempt.h"
#include "kernel/locking/lockdep.h"

struct task_struct;

typedef struct raw_spinlock {
	u16 owner;		/* ticket allowed in */
	u16 next;		/* next ticket to hand out */
	/* debugging: written by the holder only */
	int owner_cpu;		/* -1 when unlocked */
	struct task_struct *owner_task;
	unsigned long acquire_ip;	/* return address of the lock call */
	const char *name;
	bool irqs_off_only;	/* every acquisition has irqs off (rq->lock:
				 * the tick takes it), checked on acquire */
	bool test_hooks;	/* test-only, set by the raw_spin_report
				 * suite on its own locks: see
				 * raw_spin_test_stuck_ns below */
	struct lockdep_map dep_map;	/* class: the init site (lockdep.h) */
} raw_spinlock_t;

#define __RAW_SPIN_LOCK_UNLOCKED(lockname)                                   \
	{ .owner = 0, .next = 0, .owner_cpu = -1, .owner_task = NULL,        \
	  .acquire_ip = 0, .name = #lockname, .irqs_off_only = false,       \
	  .test_hooks = false,                                               \
	  .dep_map = LOCKDEP_MAP_INIT(#lockname, LD_WAIT_SPIN) }
#define DEFINE_RAW_SPINLOCK(x) raw_spinlock_t x = __RAW_SPIN_LOCK_UNLOCKED(x)

/* raw_spin_lock_init - the lock's class is this call's site and the lock
 * expression (kernel/locking/lockdep.h). */
void __raw_spin_lock_init(raw_spinlock_t *lock, const char *name,
			  const char *file, int line);
#define raw_spin_lock_init(lock)                                             \
	__raw_spin_lock_init(lock, #lock, __FILE__, __LINE__)

/* Internal: take/drop the ticket without touching preemption or IF; the
 * lock validator's hooks are here.  subclass: lockdep nesting level. */
void do_raw_spin_lock(raw_spinlock_t *lock, unsigned int subclass,
		      unsigned long ip);
bool do_raw_spin_trylock(raw_spinlock_t *lock, unsigned long ip);
void do_raw_spin_unlock(raw_spinlock_t *lock);

static inline bool raw_spin_is_locked(raw_spinlock_t *lock)
{
	return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED) !=
	       __atomic_load_n(&lock->next, __ATOMIC_RELAXED);
}

/* raw_spin_is_held_here - is the lock held by this CPU? (assertions) */
bool raw_spin_is_held_here(raw_spinlock_t *lock);

/* raw_spin_cpu_waits_for - is cpu spinning for lock (published before
 * the first pass of its spin loop), with which ticket, and which task
 * spins?  A snapshot for the stuck report (raw_spinlock.c) and its test.
 * Context: any. */
bool raw_spin_cpu_waits_for(int cpu, raw_spinlock_t *lock, u16 *ticket,
			    struct task_struct **task);

/*
 * struct raw_spin_watch - what a spinner in do_raw_spin_lock knows for
 * the stuck detector; zeroed before the spin.
 */
struct raw_spin_watch {
	unsigned long spins;	/* passes of the spin loop */
	s64 since;		/* ktime of the first clock read seeing owner */
	u16 owner;		/* the served ticket at that look */
	bool timed;		/* since and owner are set */
	bool published;		/* this CPU's raw_spin_cpu_waits_for slot */
};

/*
 * raw_spin_stuck - the stuck detector's decision, at clock reading now
 * with owner the ticket served now: has the lock been with one holder
 * for more than limit_ns?  The first look, and every change of owner
 * (a hand-over), restarts w's clock and answers false.  Pure (no clock,
 * no lock read): the test feeds it.  Context: any.
 */
bool raw_spin_stuck(struct raw_spin_watch *w, u16 owner, s64 now,
		    s64 limit_ns);

/*
 * raw_spin_describe_holder - the holder half of a stuck report, into buf
 * (returns its length): "holder CPU c task T acquired at SITE (owner o)",
 * or, locked with owner_cpu -1 (do_raw_spin_unlock clears it before it
 * advances owner), "handed to ticket o (CPU n), not yet taken; the
 * previous holder took it at SITE" -- n the CPU published as spinning for
 * ticket o, "no CPU spins for it" when none is (a lost ticket, or the
 * instant inside an unlock).  Read without synchronisation: a snapshot.
 * Context: any.
 */
int raw_spin_describe_holder(raw_spinlock_t *lock, char *buf, size_t size);

/*
 * Test-only knobs of the stuck detector, for the locks whose test_hooks
 * is set (tests/kernel/test_raw_spin_report.c sets it on its own locks;
 * no other lock has it, so they cost the detector's slow path one load):
 *	raw_spin_test_stuck_ns	the threshold instead of 5 s, so a test
 *				need not hold a CPU for 5 s;
 *	raw_spin_test_reports	reports made: such a lock's report is
 *				printed without the panic, and the waiter
 *				goes on spinning, so a test can see a
 *				stuck lock reported and survive it;
 *	raw_spin_handover_window  a race window (kernel/debug/race_window.h)
 *				between a waiter seeing its ticket served
 *				and taking the lock: a vCPU that the host
 *				does not run while the lock is handed to it.
 */
extern s64 raw_spin_test_stuck_ns;
extern unsigned long raw_spin_test_reports;
struct race_window;
extern struct race_window raw_spin_handover_window;

/* lockdep_assert_held-style check: the caller must hold the lock. */
#define raw_spin_assert_held(lock) BUG_ON(!raw_spin_is_held_here(lock))

#define __RAW_IP ((unsigned long)__builtin_return_address(0))

/*
 * raw_spin_lock - spin until the lock is ours; preemption stays off until
 * raw_spin_unlock.  Context: any (hard-irq too, if every task-context
 * user takes the _irq form).  Locking: takes lock.
 */
static __always_inline void raw_spin_lock(raw_spinlock_t *lock)
{
	preempt_disable();
	do_raw_spin_lock(lock, 0, __RAW_IP);
}

/*
 * raw_spin_lock_nested - raw_spin_lock of the second (third...) lock of
 * one class taken in a fixed order (double_rq_lock): subclass tells the
 * validator it is a different nesting level, not a recursion.
 */
static __always_inline void raw_spin_lock_nested(raw_spinlock_t *lock,
						 unsigned int subclass)
{
	preempt_disable();
	do_raw_spin_lock(lock, subclass, __RAW_IP);
}

static __always_inline bool raw_spin_trylock(raw_spinlock_t *lock)
{
	preempt_disable();
	if (do_raw_spin_trylock(lock, __RAW_IP))
		return true;
	preempt_enable();
	return false;
}

static __always_inline void raw_spin_unlock(raw_spinlock_t *lock)
{
	do_raw_spin_unlock(lock);
	preempt_enable();
}

static __always_inline void raw_spin_lock_irq(raw_spinlock_t *lock)
{
	raw_local_irq_disable();
	preempt_disable();
	do_raw_spin_lock(lock, 0, __RAW_IP);
}

static __always_inline void raw_spin_unlock_irq(raw_spinlock_t *lock)
{
	/* LAB(spinlock:unlock-irq) BEGIN */
	do_raw_spin_unlock(lock);
	raw_local_irq_enable();
	preempt_enable();
	/* LAB(spinlock:unlock-irq) END */
}

/* __raw_spin_lock_irqsave - returns the flags before irqs went off
 * (spin_lock_irqsave() and raw_spin_lock_irqsave() store them). */
static __always_inline unsigned long
__raw_spin_lock_irqsave(raw_spinlock_t *lock)
{
	unsigned long flags;

	raw_local_irq_save(flags);
	preempt_disable();
	do_raw_spin_lock(lock, 0, __RAW_IP);
	return flags;
}

#define raw_spin_lock_irqsave(lock, flags)                                   \
	do {                                                                 \
		(flags) = __raw_spin_lock_irqsave(lock);                     \
	} while (0)

static __always_inline void raw_spin_unlock_irqrestore(raw_spinlock_t *lock,
						       unsigned long flags)
{
	/* LAB(spinlock:unlock-irqrestore) BEGIN */
	do_raw_spin_unlock(lock);
	raw_local_irq_restore(flags);
	preempt_enable();
	/* LAB(spinlock:unlock-irqrestore) END */
}

#endif /* KERNEL_LOCKING_RAW_SPINLOCK_H */
