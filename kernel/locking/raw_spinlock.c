/*
 * kernel/locking/raw_spinlock.c - the ticket lock's out-of-line parts:
 * the spin loop with its "spinning far too long" report, trylock, and
 * the holder bookkeeping (see kernel/locking/raw_spinlock.h).
 *
 * Ordering: taking the ticket is a relaxed fetch-add; the acquire load of
 * owner that sees our ticket orders the critical section after the
 * previous holder's release store in do_raw_spin_unlock (pairs with it).
 * Linux counterpart: kernel/locking/spinlock_debug.c (the owner fields
 * and spin_bug report), arch/x86 __ticket_spin_lock of 2.6.2x.
 */
#include "kernel/locking/raw_spinlock.h"
#include "kernel/sched/sched.h"
#include "kernel/percpu.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "kernel/time/ktime.h"
#include "kernel/ksyms.h"

/* Spinning longer than this is a deadlock or a holder that never lets
 * go: no raw critical section in rtk runs anywhere near a second, and
 * TCG on a loaded host can stretch a few ms into a few hundred. */
#define RAW_SPIN_REPORT_NS (5LL * NSEC_PER_SEC)

void __raw_spin_lock_init(raw_spinlock_t *lock, const char *name,
			  const char *file, int line)
{
	*lock = (raw_spinlock_t)__RAW_SPIN_LOCK_UNLOCKED(lock);
	lock->name = name;
	lockdep_init_map(&lock->dep_map, name, file, line, LD_WAIT_SPIN);
}

static void raw_spin_set_owner(raw_spinlock_t *lock, unsigned long ip)
{
	lock->owner_cpu = raw_smp_processor_id();
	lock->owner_task = current_or_null();
	lock->acquire_ip = ip;
}

bool raw_spin_is_held_here(raw_spinlock_t *lock)
{
	return raw_spin_is_locked(lock) &&
	       READ_ONCE(lock->owner_cpu) == raw_smp_processor_id();
}

static __noreturn void raw_spin_report(raw_spinlock_t *lock, u16 ticket,
				       unsigned long ip)
{
	struct task_struct *holder = READ_ONCE(lock->owner_task);
	struct task_struct *me = current_or_null();
	char wsym[64], hsym[64];

	ksym_snprint(wsym, sizeof(wsym), ip);
	ksym_snprint(hsym, sizeof(hsym), READ_ONCE(lock->acquire_ip));
	panic("raw spinlock %s (%p) stuck: waiter CPU %d task %s at %s "
	      "(ticket %u); holder CPU %d task %s acquired at %s (owner %u)",
	      lock->name ? lock->name : "?", (void *)lock,
	      raw_smp_processor_id(), me ? me->name : "-", wsym, ticket,
	      READ_ONCE(lock->owner_cpu), holder ? holder->name : "-", hsym,
	      __atomic_load_n(&lock->owner, __ATOMIC_RELAXED));
}

void do_raw_spin_lock(raw_spinlock_t *lock, unsigned int subclass,
		      unsigned long ip)
{
	u16 ticket;
	ktime_t start = 0;
	unsigned long spins = 0;

	/* validated before the wait; _RET_IP_: the site of the (inlined)
	 * raw_spin_lock, ip being its caller's */
	lock_acquire(&lock->dep_map, subclass, false, 0, _RET_IP_);
	/* LAB(spinlock:ticket) BEGIN */
	ticket = __atomic_fetch_add(&lock->next, 1, __ATOMIC_RELAXED);
	while (__atomic_load_n(&lock->owner, __ATOMIC_ACQUIRE) != ticket) {
		arch_cpu_relax();
		/* read the clock only now and then: it costs more than
		 * the spin itself */
		if ((++spins & 0xfff) == 0) {
			ktime_t now = ktime_get();

			if (!start)
				start = now;
			else if (now - start > RAW_SPIN_REPORT_NS)
				raw_spin_report(lock, ticket, ip);
		}
	}
	/* LAB(spinlock:ticket) END */
	raw_spin_set_owner(lock, ip);
}

bool do_raw_spin_trylock(raw_spinlock_t *lock, unsigned long ip)
{
	u16 owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	u16 expected = owner;

	/* free iff next == owner: then take ticket `owner` */
	if (!__atomic_compare_exchange_n(&lock->next, &expected,
					 (u16)(owner + 1), false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	raw_spin_set_owner(lock, ip);
	lock_acquire(&lock->dep_map, 0, true, 0, _RET_IP_);
	return true;
}

void do_raw_spin_unlock(raw_spinlock_t *lock)
{
	BUG_ON(!raw_spin_is_locked(lock));
	lock_release(&lock->dep_map, _RET_IP_);
	lock->owner_cpu = -1;
	lock->owner_task = NULL;
	/* pairs with the acquire load in do_raw_spin_lock */
	__atomic_store_n(&lock->owner, (u16)(lock->owner + 1),
			 __ATOMIC_RELEASE);
}
