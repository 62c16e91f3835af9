/*
 * kernel/workloads/torture_placement.h - the RT placement check of the
 * scheduler torture (torture_sched.c): "no CPU runs a lower-priority
 * task (or idles) while a higher-priority runnable RT task allowed on it
 * waits" (article, "Miscellaneous"; kernel/sched/rt_placement.h),
 * sampled, with a tolerance of one reschedule of that CPU.
 *
 * A sample is a snapshot of p and of one CPU c taken under p->pi_lock
 * and both run-queue locks, so it is one instant of the scheduler's
 * state.  A wait counts only when two samples SP_TOLERANCE_TICKS apart
 * show the same wait: p queued on the same CPU all along (not run, not
 * moved: nr_switches and nr_migrations unchanged, same mask) while c ran
 * something worse, and c took a reschedule in between (its pick or pull
 * would have taken p).
 * Linux counterpart: none in mainline (rt-tests' rt-migrate-test checks
 * the rule from user space).
 */
#ifndef KERNEL_WORKLOADS_TORTURE_PLACEMENT_H
#define KERNEL_WORKLOADS_TORTURE_PLACEMENT_H

#include "kernel/sched/task.h"
#include "lib/types.h"

struct placement_snap {
	int cpu;			/* c, running something worse; -1 none */
	int queue;			/* p's CPU */
	unsigned long p_switches;	/* p->nr_switches */
	unsigned long p_migrations;	/* p->nr_migrations */
	u64 mask;			/* p->cpus_allowed */
	int curr_prio;			/* what c runs */
	char curr_comm[TASK_COMM_LEN];
	unsigned long cpu_switches;	/* c's context switches */
	u64 cpu_ticks;			/* c's ticks */
};

/*
 * placement_snapshot - is p waiting (queued, TASK_RUNNING, not running,
 * not migrating) while an online CPU allowed to it, prefer if it
 * qualifies, runs something less important?  Fills *s (s->cpu = -1
 * when not) and returns whether it is so.
 * Context: task.  Locking: takes p->pi_lock and two run-queue locks.
 */
bool placement_snapshot(struct task_struct *p, int prefer,
			struct placement_snap *s);

/*
 * placement_same_wait - do first and now (both waits) show one wait,
 * the same CPU c running something worse, p neither run nor moved nor
 * given a new mask in between?
 */
bool placement_same_wait(const struct placement_snap *first,
			 const struct placement_snap *now);

/*
 * placement_violated - one wait (placement_same_wait) that lasted
 * tolerance_ticks of c's ticks and at least one reschedule of c.
 */
bool placement_violated(const struct placement_snap *first,
			const struct placement_snap *now,
			unsigned int tolerance_ticks);

#endif /* KERNEL_WORKLOADS_TORTURE_PLACEMENT_H */
