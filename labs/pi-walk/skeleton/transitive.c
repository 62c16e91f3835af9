/*
 * [11] Exercise: carry the change one link further.
 * FALLBACK: the next owner's pi_waiters is kept right but its prio is
 * not changed, and the walk stops here: a boost reaches the owner of
 * the first lock only (T3 waits on L2 owned by T2, which waits on L1
 * owned by T1: T1 is never boosted; `pitest t3-l2-pi`).
 * Write: after updating task's pi_waiters, re-prioritise task and
 * return true so the walk goes on to the lock task blocks on ([12],
 * [13]).
 */
pi_owner_update(&task->pi_waiters, &lock->wait_list, prerequeue_top);
return false;
