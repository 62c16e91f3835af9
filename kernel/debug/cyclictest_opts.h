/*
 * kernel/debug/cyclictest_opts.h - the cyclictest command line, parsed
 * into a plain struct by a pure function (host-tested in
 * tests/host/test_latency_hist.c).
 *
 * Flags, after rt-tests' cyclictest (a value may follow the flag as the
 * next word or be glued to it: "-p 99" or "-p99"):
 *	-S		one thread per CPU, thread N on CPU N (= -a -t)
 *	-t [N]		N threads (no N: one per CPU); default 1
 *	-a [CPU]	pin all threads to CPU; no CPU: thread N on CPU N
 *	-p PRIO		SCHED_FIFO priority 1..99, default 99
 *	-i US		interval in µs, default 1000
 *	-l LOOPS	stop after LOOPS wake-ups per thread (0: no limit)
 *	-D TIME		stop after TIME seconds; suffix s, m, h or d
 *	-h US		histogram of 1 µs buckets up to US
 *	-q		summary only at the end
 * Counterpart: rt-tests process_options(); rtk leaves out the long
 * options and everything not listed (-r relative timers, -d distance,
 * -N, -v, -b, ...).
 */
#ifndef KERNEL_DEBUG_CYCLICTEST_OPTS_H
#define KERNEL_DEBUG_CYCLICTEST_OPTS_H

#include "lib/types.h"

#define CT_AFFINITY_NONE (-1)	/* threads float (the scheduler places) */
#define CT_AFFINITY_SPREAD (-2)	/* thread N on CPU N % nr_cpus */

#define CT_INTERVAL_MIN_US 10		/* below this TCG only measures itself */
#define CT_INTERVAL_MAX_US 10000000	/* 10 s */

struct cyclictest_opts {
	int threads;		/* measuring threads, 1..LAT_MAX_THREADS */
	int affinity;		/* a CPU, or CT_AFFINITY_NONE / _SPREAD */
	int prio;		/* SCHED_FIFO priority */
	u32 interval_us;	/* period */
	u64 loops;		/* per thread; 0: until -D or ctrl-C */
	u64 duration_s;		/* 0: until -l or ctrl-C */
	u32 hist_us;		/* 0: no histogram */
	bool quiet;		/* -q */
};

/*
 * cyclictest_parse - fill o from argv[1..argc-1] for a machine of
 * nr_cpus CPUs.  Returns 0, or -EINVAL with a one-line reason in
 * err[errlen] ("cyclictest: -p 120: priority must be 1..99").
 * Context: any; pure.
 */
int cyclictest_parse(int argc, char **argv, int nr_cpus,
		     struct cyclictest_opts *o, char *err, size_t errlen);

#endif /* KERNEL_DEBUG_CYCLICTEST_OPTS_H */
