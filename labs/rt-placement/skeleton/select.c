/*
 * Exercise: where a waking RT task goes (article, "Miscellaneous").
 * FALLBACK (each CPU on its own, as in a uniprocessor kernel): the task
 * stays on its last CPU, even when that CPU runs something more
 * important and another CPU idles (`test sched_placement`).
 * Write: stay on last if p may run there and beats what runs there
 * (cpu_prio); else snapshot every CPU's prio and take the one running
 * the least important task p beats (rt_find_lowest_cpu); -1 if none.
 * The wakeup then reschedules the CPU chosen (check_preempt,
 * resched_curr: the IPI goes to that CPU only).
 */
(void)prio;
(void)last;
cpu = -1;
return cpu;	/* -1: no CPU to preempt; the caller keeps last */
