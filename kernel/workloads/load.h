/*
 * kernel/workloads/load.h - bounded background loads that show what each
 * preemption model does to latency (issue 6, item 2), started and
 * stopped by the `load` shell command (kernel/shell/cmd_load.c):
 *
 *	lockhog N US	N SCHED_OTHER threads taking one spinlock_t for US µs
 *	lockbreak N US	lockhog's section as US 1-µs steps with a preemption
 *			point (cond_resched_lock) between: the article's JBD
 *			example (kernel/locking/lock_break.h)
 *	rawhog N US	the same with a raw_spinlock_t (non-preemptible always)
 *	irqoff N US	local_irq_save() sections of US µs
 *	hackbench N [US] N groups of senders/receivers on wait-queue
 *			channels; US: CPU each message costs its sender (0)
 *	irq HZ		a periodic hard-irq source with a threaded handler
 *	cpu N		N busy SCHED_OTHER threads
 *
 * Every load runs until load_stop(); its threads are pinned round-robin
 * over the online CPUs and give the CPU back between sections through
 * _cond_resched() (a real scheduling point under every model, so even
 * PREEMPT=none never starves the shell, which is SCHED_OTHER like them).
 * Linux counterpart: none in the kernel; rt-tests' hackbench and the
 * usual "stress" loads people run beside cyclictest.
 */
#ifndef KERNEL_WORKLOADS_LOAD_H
#define KERNEL_WORKLOADS_LOAD_H

#include "lib/types.h"

enum load_kind {
	LOAD_LOCKHOG,
	LOAD_LOCKBREAK,
	LOAD_RAWHOG,
	LOAD_IRQOFF,
	LOAD_HACKBENCH,
	LOAD_IRQ,
	LOAD_CPU,
	NR_LOAD_KINDS,
};

#define LOAD_MAX 8		/* loads running at once */
#define LOAD_MAX_THREADS 64	/* threads of one load */
#define HACKBENCH_GROUP 4	/* senders (and receivers) per group */
#define LOAD_US_MAX 1000000	/* a hog's section */
#define LOAD_IRQ_HZ_MAX 100000	/* `load irq`'s rate */

/* load_kind_parse - "lockhog" ... "cpu" to a kind, or -EINVAL. */
int load_kind_parse(const char *name);
const char *load_kind_name(enum load_kind kind);

/*
 * load_start - start a load: n threads (groups for hackbench, the rate
 * in Hz for irq) with a section of us µs (hogs only).  Returns the
 * load's id (>= 1) or a negative errno: -EINVAL n or us out of range
 * (1..load_max_n, 1..LOAD_US_MAX), -EBUSY LOAD_MAX loads running.  Context: task, sleeps.
 */
int load_start(enum load_kind kind, int n, int us);

/* load_max_n - the largest n load_start takes for kind (what
 * LOAD_MAX_THREADS allows; LOAD_IRQ_HZ_MAX for irq). */
int load_max_n(enum load_kind kind);

/* load_stop - stop load id (0: all); returns how many were stopped or
 * -ENOENT.  Context: task, sleeps (kthread_stop). */
int load_stop(int id);

/* load_show - one line per running load through emit (the counters are
 * read racily while the load runs). */
void load_show(void (*emit)(void *ctx, const char *line), void *ctx);

/* load_count - loads running now (tests). */
int load_count(void);

/* load_events - the summed per-thread event counters of load id
 * (sections, messages, interrupts handled), or -ENOENT (tests). */
long load_events(int id);

#endif /* KERNEL_WORKLOADS_LOAD_H */
