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

#include "lib/types.h"

/* Samples per figure: enough for a stable median under TCG, few enough
 * that the whole set stays within a few seconds there (make test). */
#define BENCH_SAMPLES		256
#define BENCH_MAX_SAMPLES	1024	/* cheap figures take more */

struct bench_result {
	int n;			/* samples taken */
	u64 min_cyc;		/* shortest sample */
	u64 median_cyc;
	u64 max_cyc;
	u64 median_ns;		/* the same two, in nanoseconds */
	u64 max_ns;
	int bad;		/* samples the figure itself found wrong
				 * (e.g. the wakee ran on another CPU) */
	const char *note;	/* what the figure covers, or NULL */
};

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

/* ---- for the figure files only (kernel/debug/bench_*.c) ---- */

/* bench_sample - the sample buffer the running figure fills (index <
 * BENCH_MAX_SAMPLES), in cycles. */
extern u64 bench_samples[BENCH_MAX_SAMPLES];

/* bench_other_cpu - the last online CPU other than avoid (avoid when it
 * is alone). */
int bench_other_cpu(int avoid);

struct task_struct;
/* bench_set_fifo - p to SCHED_FIFO prio (before it starts). */
void bench_set_fifo(struct task_struct *p, int prio);

/* A figure fills bench_samples[0..n) and returns the count taken or a
 * negative errno; it may set res->bad and res->note. */
/* bench_sched.c */
int bench_tsc_read(int n, struct bench_result *res);
int bench_ctxsw(int n, struct bench_result *res);
int bench_wake_to_run(int n, struct bench_result *res);
int bench_ipi_round_trip(int n, struct bench_result *res);
int bench_irq_to_thread(int n, struct bench_result *res);
int bench_tick(int n, struct bench_result *res);

/* bench_lock.c */
int bench_raw_spinlock(int n, struct bench_result *res);
int bench_spinlock(int n, struct bench_result *res);
int bench_rt_mutex(int n, struct bench_result *res);
int bench_semaphore(int n, struct bench_result *res);
int bench_rwlock_read(int n, struct bench_result *res);
int bench_rwlock_write(int n, struct bench_result *res);
int bench_handoff_raw(int n, struct bench_result *res);
int bench_handoff_spinlock(int n, struct bench_result *res);
int bench_pi_chain(int depth, int n, struct bench_result *res);
int bench_kmalloc(int n, struct bench_result *res);

#endif /* KERNEL_WORKLOADS_BENCH_H */
