/*
 * Exercise: the release order of raw_spin_unlock_irqrestore (as
 * unlock-irq, with the caller's flags).  FALLBACK: preemption re-enabled
 * before the flags are restored: the wakeup's preemption is lost.
 */
do_raw_spin_unlock(lock);
preempt_enable();
raw_local_irq_restore(flags);
