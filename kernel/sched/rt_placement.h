/*
 * kernel/sched/rt_placement.h - where a realtime task should run: the
 * global placement decision of the article's smp_send_reschedule_
 * allbutself() ("Miscellaneous"): a woken RT task that cannot preempt
 * its own CPU goes to the CPU running the least important task, if that
 * task is less important than it.
 *
 * Pure function over a snapshot (the prio running on each CPU, the
 * online and affinity masks): the scheduler takes the snapshot without
 * locks (a stale answer only costs one extra IPI or one later push) and
 * tests/host/test_rt_placement.c checks the decision on the host.
 * Linux counterpart: kernel/sched/cpupri.c cpupri_find() and
 * kernel/sched/rt.c find_lowest_rq() (which also prefers task_cpu()).
 */
#ifndef KERNEL_SCHED_RT_PLACEMENT_H
#define KERNEL_SCHED_RT_PLACEMENT_H

#include "lib/types.h"
#include "kernel/smp.h"

/*
 * rt_find_lowest_cpu - the CPU a task of prio task_prio (kernel scale,
 * lower = more important) should go to.
 * @cpu_prio: cpu_prio[c] is the prio of what CPU c runs now (an idle CPU
 *	reports the largest value of all, a SCHED_OTHER task >= 100).
 * @nr_cpus: entries in cpu_prio.
 * @online, @allowed: the CPUs that may be chosen (both must hold it).
 * @last_cpu: the task's last CPU, preferred on ties (warm cache); -1 none.
 * Returns the allowed CPU whose current prio value is largest, provided
 * it is larger than task_prio (the task would preempt it); among equal
 * candidates last_cpu, else the lowest-numbered.  -1 when no allowed CPU
 * runs anything less important than the task.
 * Context: any; reads only its arguments.
 */
int rt_find_lowest_cpu(const int *cpu_prio, int nr_cpus, cpumask_t online,
		       cpumask_t allowed, int task_prio, int last_cpu);

#endif /* KERNEL_SCHED_RT_PLACEMENT_H */
