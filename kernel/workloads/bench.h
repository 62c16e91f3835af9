/*
 * kernel/workloads/bench.h - the micro-benchmarks of issue 6 item 8: figures,
 * never pass/fail.  Each figure is a named measurement that takes n
 * samples of one event, each timed with the TSC (arch_clock_cycles), and
 * reports the median and the maximum in cycles and in nanoseconds
 * (ktime_cycles_to_ns of the same cycle counts).
 *
 *	struct bench_result r;
 *	int i = bench_find("ctxsw");
 *	if (i >= 0 && bench_run(i, &r) == 0)
 *		bench_print("", bench_name(i), &r);
 *	-> "# bench: ctxsw median 812 ns (2436 cyc) max 5012 ns (15036 cyc)"
 *
 * Users: the `bench` shell command (kernel/shell/cmd_bench.c) and the
 * bench suite (tests/kernel/test_bench.c); tools/bench.py parses the
 * "# bench:" lines of all four models into one table.
 * The figures live in kernel/workloads/bench_sched.c (scheduler, IPI, IRQ)
 * and kernel/workloads/bench_lock.c (locks, PI chains, kmalloc); the table,
 * the statistics and the runner thread in kernel/workloads/bench.c.
 * Linux counterpart: none as one tool; lmbench lat_ctx, rt-tests'
 * cyclictest/ptsematest/pi_stress and lock_torture measure similar.
 */
#ifndef KERNEL_WORKLOADS_BENCH_H
#define KERNEL_WORKLOADS_BENCH_H

#include "kernel/workloads/bench_figure.h"	/* struct bench_result */

/* bench_count / bench_name - the figures, in table order. */
int bench_count(void);
const char *bench_name(int i);

/* bench_find - index of the figure called name, -ENOENT if none. */
int bench_find(const char *name);

/* bench_min_cpus - CPUs figure i needs (2 for cross-CPU figures). */
int bench_min_cpus(int i);

/*
 * bench_run - take figure i's samples in a SCHED_FIFO 40 runner thread
 * and fill res.  Returns 0; -ENOSYS when the figure is not built in this
 * tree (res->note says why); -ENODEV when there are too few CPUs;
 * -EBUSY while another bench runs; -ENOMEM; -EIO when the measurement
 * did not complete (res->n short).
 * Context: task, sleeps.  Locking: none held; one bench at a time.
 */
int bench_run(int i, struct bench_result *res);

/* bench_print - "<indent># bench: <name> median N ns (N cyc) max N ns
 * (N cyc)" and, for a figure not built, "<indent># bench: <name> n/a:
 * <why>".  rc is bench_run's return value. */
void bench_print(const char *indent, const char *name, int rc,
		 const struct bench_result *res);

#endif /* KERNEL_WORKLOADS_BENCH_H */
