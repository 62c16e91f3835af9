/*
 * kernel/workloads/bench_figure.h - what a benchmark figure
 * (bench_sched.c, bench_lock.c) is given and returns: the result, the
 * sample buffer, two helpers (bench_figure.c) and the figures
 * themselves, which the table in bench.c lists.  Split from bench.h so
 * that the figures and the table do not call each other in a circle:
 * bench.c -> bench_{sched,lock}.c -> bench_figure.c.
 * Linux counterpart: none (see bench.h).
 */
#ifndef KERNEL_WORKLOADS_BENCH_FIGURE_H
#define KERNEL_WORKLOADS_BENCH_FIGURE_H

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

#endif /* KERNEL_WORKLOADS_BENCH_FIGURE_H */
