/*
 * kernel/workloads/pidemo.h - the article's three-task priority inversion,
 * run with and without priority inheritance (the `pidemo` command; no
 * test suite calls it: its figures are wall-clock and host-load bound).
 *
 * All three tasks are SCHED_FIFO and pinned to one CPU:
 *	A (FIFO 10) takes the lock, wakes C, then B, and works for
 *	  section_ns of CPU time (time it is preempted does not count)
 *	C (FIFO 30) needs the lock: it blocks on A
 *	B (FIFO 20) is CPU-bound for b_ns and needs no lock
 * With PI, A runs at C's priority while C waits, B cannot preempt it,
 * and C waits about section_ns.  Without PI, B preempts A and C waits
 * section_ns + b_ns: the inversion (article, "Priority inheritance for
 * in-kernel spinlocks and semaphores").  The lock without PI is a
 * compat_semaphore of count 1.  Under none and voluntary A is not
 * preempted inside its section (no preemption point in the work loop),
 * so C first runs after A released the lock and its wait is ~0: no
 * inversion, C's delay is then wake-up latency, which this does not
 * measure.
 * Linux counterpart: none (a teaching demo).
 */
#ifndef KERNEL_WORKLOADS_PIDEMO_H
#define KERNEL_WORKLOADS_PIDEMO_H

#include "lib/types.h"

/*
 * pidemo_run - run the scenario once on cpu with the PI lock (rt_mutex)
 * or a lock without PI; returns how long C waited for the lock in ns,
 * or a negative errno (-ENOMEM: no threads).
 * Context: task, may sleep; not from the pinned CPU's FIFO >= 10 tasks.
 */
s64 pidemo_run(bool pi, int cpu, s64 section_ns, s64 b_ns);

#endif /* KERNEL_WORKLOADS_PIDEMO_H */
