/*
 * Exercise: the release order of raw_spin_unlock_irq.
 * FALLBACK (mutual exclusion is right, latency is not): preemption is
 * re-enabled while interrupts are still off, so preempt_enable()'s
 * preemption point is refused (preempt_schedule() returns with IF
 * clear) and a task woken inside the section waits for the next
 * interrupt.  Write the three steps in the order that makes this unlock
 * a preemption point (undo the lock side in reverse).
 */
do_raw_spin_unlock(lock);
preempt_enable();
raw_local_irq_enable();
