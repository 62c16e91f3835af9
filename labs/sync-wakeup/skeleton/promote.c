/*
 * Exercise: a delayed reschedule comes due (spin_unlock, the tick,
 * preempt_check_resched_delayed).
 * FALLBACK: the flag is dropped: the woken task waits for the next tick
 * or schedule() instead of running at the waker's unlock.
 * Write: if the flag is set for current and still fresh
 * (__need_resched_delayed), turn it into this CPU's TIF_NEED_RESCHED
 * (sched_need_resched) after clearing it; the code below then preempts.
 */
promote = false;
this_cpu_write(sched_resched_delayed, NULL);
