/*
 * [3] Exercise: move p to dst and make dst run it.
 * FALLBACK: nothing moves; p waits on this CPU behind a more important
 * task while dst runs something less important.
 * Write: both run queues are locked now, but they were not while [1]
 * and [2] looked: re-check that p is still queued here, not running,
 * beats what dst runs, may run on dst and dst is online; then move it
 * (move_queued_task) and reschedule dst (resched_curr(dst): the IPI to
 * that CPU, not to this one).
 */
