/*
 * [3] Exercise: take src's best pushable task if it beats what this
 * CPU would run next.
 * FALLBACK: pull nothing; a CPU whose RT task blocks goes idle (or runs
 * SCHED_OTHER work) while another CPU has a runnable RT task queued.
 * Write: p = next_pushable(src, this CPU); move it here
 * (move_queued_task) when this CPU is online and rt_pull_wanted() says
 * p beats this CPU's best queued RT prio.
 */
p = next_pushable(src, this_rq->cpu);
(void)p;
