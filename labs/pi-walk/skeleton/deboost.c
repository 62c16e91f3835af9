/*
 * [D2] Exercise: deboost the owner at once when the top waiter leaves
 * (a signal, a timeout) without the lock.
 * FALLBACK: the owner's pi_waiters is updated, its prio is not: it
 * keeps the departed waiter's boost until it unlocks, running at a
 * priority nobody needs any more (`pitest t5-l4-pi-boost-deboost`).
 * Write: the owner's new prio follows from its pi_waiters.
 */
pi_owner_update(&owner->pi_waiters, &lock->wait_list, waiter);
