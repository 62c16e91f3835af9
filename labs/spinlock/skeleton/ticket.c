/*
 * Exercise: take a ticket and spin until it is called.
 * FALLBACK (correct but unfair, a test-and-set lock): grab the lock only
 * when it is free (next == owner), exactly as do_raw_spin_trylock does,
 * and retry otherwise.  A waiter then holds no ticket while it spins, so
 * nothing keeps arrival order: raw_spinlock's ticket cases fail.
 * Write: one fetch-add on lock->next (your ticket), then spin with
 * raw_spin_relax() (it relaxes, and publishes the wait and reports a
 * stuck lock) until an ACQUIRE load of lock->owner shows it.
 */
for (;;) {
	u16 expected;

	ticket = owner = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	expected = ticket;
	if (__atomic_compare_exchange_n(&lock->next, &expected,
					(u16)(ticket + 1), false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		break;
	raw_spin_relax(lock, &watch, ticket, owner, ip);
}
