/*
 * [B3] Exercise: boost the owner.
 * FALLBACK (no priority inheritance): the owner's pi_waiters list is
 * kept right, so the rest of the lock works, but the owner's prio never
 * changes and a blocked owner's own chain is walked only for deadlock
 * detection: a FIFO 90 waiter waits behind a SCHED_OTHER owner that
 * anything in between can preempt (`pidemo`, `pitest t2-l1-pi`).
 * Write: if waiter became the top waiter of lock, update the owner's
 * pi_waiters (as below) and re-prioritise the owner
 * (rt_mutex_adjust_prio); walk on (chain_walk) when the owner is itself
 * blocked; walk anyway when detecting deadlocks.
 */
if (waiter == rt_mutex_top_waiter(lock))
	pi_owner_update(&owner->pi_waiters, &lock->wait_list, top_waiter);
if (detect)
	chain_walk = true;
