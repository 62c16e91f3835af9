/*
 * kernel/workloads/bench_figure.c - the helpers every benchmark figure
 * uses (bench_figure.h): the sample buffer, the other CPU of a
 * cross-CPU figure, a thread's SCHED_FIFO priority.
 * Linux counterpart: none (see bench.h).
 */
#include "kernel/workloads/bench_figure.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"

u64 bench_samples[BENCH_MAX_SAMPLES];

/* bench_other_cpu - see bench_figure.h.  Context: task.  Locking: none;
 * a CPU going offline meanwhile is the figure's -EIO. */
int bench_other_cpu(int avoid)
{
	int cpu, found = avoid;

	for_each_online_cpu (cpu)
		if (cpu != avoid)
			found = cpu;
	return found;
}

/* bench_set_fifo - see bench_figure.h.  Context: task, may sleep.
 * Locking: none held. */
void bench_set_fifo(struct task_struct *p, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	might_sleep();
	sched_setscheduler(p, SCHED_FIFO, &sp);
}
