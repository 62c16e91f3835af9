/*
 * lib/cyclictest_opts.h - the cyclictest command line, parsed
 * into a plain struct by a pure function (host-tested in
 * tests/host/test_latency_hist.c).
 *
 * Flags, after rt-tests' cyclictest (a value may follow the flag as the
 * next word or be glued to it, "-p 99" or "-p99"; flags cluster as with
 * getopt, "-Smp99" = "-S -m -p99"):
 *	-S		one thread per CPU, thread N on CPU N (= -t -a)
 *	-t [N]		N threads (no N: one per CPU); default 1
 *	-a [CPU]	pin all threads to CPU; no CPU: thread N on CPU N
 *	-p PRIO		SCHED_FIFO priority 1..99, default 99 (issue 6;
 *			rt-tests: 0 = SCHED_OTHER unless -p is given)
 *	-i US		interval of thread 0 in µs, default 1000
 *	-d US		distance: thread N's interval is -i + N * US,
 *			default 500; 0 (forced, as in rt-tests) with -h
 *	-l LOOPS	stop after LOOPS wake-ups per thread (0: no limit)
 *	-D TIME		stop after TIME seconds; suffix s, m, h or d
 *	-h US		histogram of 1 µs buckets up to US
 *	-q		summary only at the end
 *	--priospread	thread N at priority PRIO - N (never below 1)
 *	-m, -n		accepted, no effect: kernel memory is never paged
 *			out (-m, mlockall), and every rtk thread already
 *			sleeps as clock_nanosleep(TIMER_ABSTIME) does (-n)
 * Counterpart: rt-tests process_options().  Not in rtk, refused with a
 * message naming them: -A -b -B -c -C -E -f -H -I -M -N -o -O -P -r -R
 * -s -T -u -U -v -w -W (aligned wake-ups, breaktrace and the tracer
 * hooks, clock selection, -H's all-threads column, refresh on max,
 * nanosecond output, the oscilloscope/verbose mode, relative timers,
 * signal and itimer modes, NUMA), the long options other than
 * --priospread, CPU lists for -a ("-a 3-5,0"), -p 0 (SCHED_OTHER
 * threads), and -h beyond LAT_HIST_MAX_US (rt-tests clamps at 1000000).
 */
#ifndef LIB_CYCLICTEST_OPTS_H
#define LIB_CYCLICTEST_OPTS_H

#include "lib/types.h"

#define CT_AFFINITY_NONE (-1)	/* threads float (the scheduler places) */
#define CT_AFFINITY_SPREAD (-2)	/* thread N on CPU N % nr_cpus */

#define CT_INTERVAL_MIN_US 10		/* below this TCG only measures itself */
#define CT_INTERVAL_MAX_US 10000000	/* 10 s */
#define CT_DISTANCE_DEFAULT_US 500	/* rt-tests DEFAULT_DISTANCE */

struct cyclictest_opts {
	int threads;		/* measuring threads, 1..LAT_MAX_THREADS */
	int affinity;		/* a CPU, or CT_AFFINITY_NONE / _SPREAD */
	int prio;		/* SCHED_FIFO priority of thread 0 */
	u32 interval_us;	/* period of thread 0 */
	u32 distance_us;	/* period step per thread; 0 with -h */
	bool priospread;	/* --priospread: one priority less per thread */
	bool distance_ignored;	/* -d was given with -h: the caller warns */
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

/*
 * cyclictest_thread_prio / cyclictest_thread_interval - the SCHED_FIFO
 * priority and the period (µs) of thread n (0-based) under o: rt-tests'
 * per-thread rule, explained in cyclictest_opts.c.  Context: any; pure.
 */
int cyclictest_thread_prio(const struct cyclictest_opts *o, int n);
u32 cyclictest_thread_interval(const struct cyclictest_opts *o, int n);

/*
 * cyclictest_next_deadline - the deadline that follows a sample taken at
 * now for deadline next (ns, any one clock), period interval_ns > 0:
 * next + interval, moved on by whole periods until it is not before now
 * (rt-tests skips the periods a late wake-up missed; the rule is in
 * cyclictest_opts.c).  Context: any; pure.
 */
s64 cyclictest_next_deadline(s64 next, s64 now, s64 interval_ns);

#endif /* LIB_CYCLICTEST_OPTS_H */
