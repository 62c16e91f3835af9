/*
 * Exercise: take a ticket and spin until it is called.
 * FALLBACK (correct but unfair, a test-and-set lock): grab the lock only
 * when it is free (next == owner), exactly as do_raw_spin_trylock does,
 * and retry otherwise.  A waiter then holds no ticket while it spins, so
 * nothing keeps arrival order: raw_spinlock's ticket cases fail.
 * Write: one fetch-add on lock->next (your ticket), then spin with
 * arch_cpu_relax() until an ACQUIRE load of lock->owner shows it; keep
 * the "stuck" report below inside your spin loop.
 */
for (;;) {
	u16 expected;

	ticket = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);
	expected = ticket;
	if (__atomic_compare_exchange_n(&lock->next, &expected,
					(u16)(ticket + 1), false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		break;
	arch_cpu_relax();
	if ((++spins & 0xfff) == 0) {
		ktime_t now = ktime_get();

		if (!start)
			start = raw_spin_wait_begin(lock, ticket, now);
		else if (now - start > raw_spin_stuck_limit(lock)) {
			raw_spin_report(lock, ticket, ip);
			start = now; /* a test lock: once a period */
		}
	}
}
