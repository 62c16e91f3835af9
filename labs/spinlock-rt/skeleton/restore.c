/*
 * [S6] Exercise: give the caller its task state back.
 * FALLBACK: nothing: the caller leaves spin_lock() in TASK_RUNNING
 * whatever state it entered with (the article's mylock1/mylock2
 * example breaks).  Write: for RT_SLEEP_SAVESTATE, under
 * current->pi_lock, restore current->state from saved_state (which a
 * wakeup during the lock sleep has set to TASK_RUNNING) and reset
 * saved_state to TASK_RUNNING.  Interrupts are off here too (wait_lock).
 */
