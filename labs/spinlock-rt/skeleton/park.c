/*
 * [S2] Exercise: park the caller's task state.
 * FALLBACK (no lost lock, lost state): every mode just sets its sleep
 * state, so a spinlock_t waiter overwrites the state its caller set
 * (TASK_UNINTERRUPTIBLE before a wait loop, say) and a wakeup aimed at
 * that state while we wait for the lock finds nothing to wake.
 * Write: for RT_SLEEP_SAVESTATE, under current->pi_lock (the lock the
 * wakeup side reads saved_state under: kernel/sched/wakeup.c,
 * ttwu_state_match), keep current->state in current->saved_state, then
 * set TASK_RUNNING_MUTEX (state).  The other modes stay as they are.
 * Interrupts are already off here (wait_lock was taken with
 * raw_spin_lock_irq at [S1]): a plain raw_spin_lock of pi_lock will do.
 */
set_current_state(state);
