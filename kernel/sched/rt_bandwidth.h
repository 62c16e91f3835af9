/*
 * kernel/sched/rt_bandwidth.h - RT throttling: how much of each period
 * the SCHED_FIFO/RR class may take on a CPU (kernel/sched/rt_bandwidth.c).
 *
 * The two settings are Linux's sysctls, in microseconds, with Linux's
 * defaults: kernel.sched_rt_period_us = 1000000 and
 * kernel.sched_rt_runtime_us = 950000; a runtime of -1 turns throttling
 * off.  The shell's `sysctl` command reads and writes them
 * (kernel/shell/cmd_sysctl.c).
 * Linux counterpart: include/linux/sched/sysctl.h (sysctl_sched_rt_period,
 * sysctl_sched_rt_runtime), kernel/sched/rt.c (sched_rt_handler).
 */
#ifndef KERNEL_SCHED_RT_BANDWIDTH_H
#define KERNEL_SCHED_RT_BANDWIDTH_H

#include "lib/types.h"

#define SCHED_RT_PERIOD_US_DEFAULT 1000000	/* Linux's: 1 s */
#define SCHED_RT_RUNTIME_US_DEFAULT 950000	/* Linux's: 0.95 s */
#define SCHED_RT_RUNTIME_INF_US (-1)		/* no throttling */

/*
 * sched_rt_bandwidth_set - new period and runtime, Linux's rules
 * (sched_rt_global_validate and the sysctl bounds): period >= 1, runtime
 * -1 or 0..period; else -EINVAL and nothing changes.  A CPU throttled
 * now whose RT time is below the new runtime (every one, for -1) is
 * unthrottled at once; Linux waits for the next period timer.
 * Context: task.  Locking: takes the settings lock, then each CPU's
 * rq->lock in turn.
 */
int sched_rt_bandwidth_set(int period_us, int runtime_us);

/* sched_rt_bandwidth_get - the settings now.  Context: any. */
void sched_rt_bandwidth_get(int *period_us, int *runtime_us);

/* sched_rt_nr_throttled - times cpu's RT class was throttled since boot
 * (tests, `sysctl`).  Context: any; a lockless read. */
unsigned long sched_rt_nr_throttled(int cpu);

/* sched_rt_throttled - is cpu's RT class throttled now?  Context: any;
 * a lockless read, stale by the time the caller looks. */
bool sched_rt_throttled(int cpu);

#endif /* KERNEL_SCHED_RT_BANDWIDTH_H */
