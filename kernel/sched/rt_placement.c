/*
 * kernel/sched/rt_placement.c - the global RT placement decision (see
 * kernel/sched/rt_placement.h).
 *
 * One pass over the allowed CPUs keeps the best candidate so far: a CPU
 * replaces it when it runs something strictly less important, or equally
 * unimportant and it is the task's last CPU.  The result is then only
 * taken when the task would really preempt that CPU.
 * rt_pull_wanted and rt_push_after_boost are the pull and push-on-boost
 * rules of kernel/sched/rt.c (pull_rt_task, prio_changed_rt).
 * Linux counterpart: kernel/sched/cpupri.c, find_lowest_rq().
 */
#include "kernel/sched/rt_placement.h"

int rt_find_lowest_cpu(const int *cpu_prio, int nr_cpus, cpumask_t online,
		       cpumask_t allowed, int task_prio, int last_cpu)
{
	u64 candidates = online.bits & allowed.bits;
	int best = -1, cpu;

	for (cpu = 0; cpu < nr_cpus && cpu < NR_CPUS; cpu++) {
		if (!((candidates >> cpu) & 1))
			continue;
		if (best < 0 || cpu_prio[cpu] > cpu_prio[best] ||
		    (cpu_prio[cpu] == cpu_prio[best] && cpu == last_cpu))
			best = cpu;
	}
	if (best < 0 || cpu_prio[best] <= task_prio)
		return -1;
	return best;
}

bool rt_pull_wanted(int task_prio, int next_prio)
{
	return task_prio < next_prio;
}

bool rt_push_after_boost(int oldprio, int prio, int curr_prio)
{
	return prio < oldprio && prio >= curr_prio;
}
