/*
 * Exercise: the sync wakeup's delayed reschedule (article, "Deferred
 * operations": wake_up_process_sync, TIF_NEED_RESCHED_DELAYED; mainline
 * later: lazy preemption).
 * FALLBACK: sync is ignored; every wakeup that should preempt
 * reschedules at once, so a waker that wakes a task and then drops the
 * lock the wakee wants is preempted, the wakee blocks on that lock, and
 * two switches are wasted (`test deferred`).
 * Write: when the waker promised to schedule soon (sync), is the running
 * task of this very CPU (rq->cpu, curr == current), mark the reschedule
 * delayed (set_need_resched_delayed) instead of resched_curr(rq).
 */
