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
 * tests/host/test_rt_placement.c checks the decisions on the host (with
 * the pull and push-on-boost rules below).
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

/*
 * rt_pull_wanted - should a CPU about to pick its next task take a
 * queued, not running RT task of prio task_prio from another CPU?
 * @next_prio: the most important prio this CPU would run otherwise: its
 *	best queued RT task (MAX_RT_PRIO or more when none), with prev
 *	counted only if it is still queued.  A blocking prev must not count
 *	(issue 12, bug 1: an equal-prio task was left waiting).
 * Returns true when the task is strictly more important (an equal one
 * would only trade places).  Linux: the test in pull_rt_task.
 * Context: any; reads only its arguments.
 */
bool rt_pull_wanted(int task_prio, int next_prio);

/*
 * rt_push_after_boost - after a queued, not running task's prio went
 * from oldprio to prio (PI boost, sched_setscheduler), must it be pushed
 * to another CPU?  Yes when it became more important and still does not
 * preempt what its CPU runs (curr_prio): else it waits behind curr while
 * another CPU may run something less important.  The push itself finds
 * whether such a CPU exists (rt_find_lowest_cpu).
 * Linux: switched_to_rt's push (rtk also pushes an RT task boosted
 * further, where Linux relies on the other CPU's next pull).
 * Context: any; reads only its arguments.
 */
bool rt_push_after_boost(int oldprio, int prio, int curr_prio);

#endif /* KERNEL_SCHED_RT_PLACEMENT_H */
