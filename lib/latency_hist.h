/*
 * lib/latency_hist.h - latency statistics of one measuring
 * thread (min / act / avg / max, a histogram of 1 µs buckets with an
 * overflow count) and their output in rt-tests' cyclictest format.
 *
 * Pure: no locking, no allocation (the caller hands in the bucket
 * array), no console.  Shared by the cyclictest command
 * (kernel/shell/cmd_cyclictest.c) and host-tested by
 * tests/host/test_latency_hist.c.
 *
 * Counterpart: rt-tests src/cyclictest/cyclictest.c (struct thread_stat,
 * print_stat(), print_hist()); rtk keeps the summary line and the -h
 * block, and leaves out the verbose/oscilloscope modes, -H's sum column,
 * SMI counts and the JSON file.  Spec: the article's "Debugging
 * Configuration Options" (the measurements it names), issue 6 item 1.
 */
#ifndef LIB_LATENCY_HIST_H
#define LIB_LATENCY_HIST_H

#include "lib/types.h"

#define LAT_HIST_MAX_US 10000	/* largest -h; 40 KiB of buckets/thread */
#define LAT_OUTLIERS_MAX 32	/* overflow cycle numbers kept per thread */
#define LAT_MAX_THREADS 32	/* threads one histogram block can show */
#define LAT_LINE_MAX 400	/* longest line: "# Total:" + 32 * 10 */

/*
 * One measuring thread's figures.  Written only by that thread while it
 * runs; read by the printer after the thread stopped (or, for the live
 * summary, racily: a torn line is acceptable there, as in rt-tests).
 */
struct lat_stat {
	/* identity, set by the caller, printed in the T: line */
	int tid;			/* task id */
	int prio;			/* SCHED_FIFO priority */
	u32 interval_us;		/* period */
	/* the samples, all in µs */
	u64 cycles;			/* samples taken */
	u64 min;			/* smallest sample (valid if cycles) */
	u64 act;			/* the latest sample */
	u64 max;			/* largest sample */
	u64 sum;			/* for the average */
	/* histogram (nbuckets == 0: none) */
	u32 *buckets;			/* buckets[i]: samples of i µs */
	u32 nbuckets;			/* -h value */
	u64 overflows;			/* samples >= nbuckets µs */
	u32 n_outliers;			/* entries used in outliers[] */
	u64 outliers[LAT_OUTLIERS_MAX];	/* cycle numbers of overflows */
};

/* lat_stat_init - zero s, attach buckets[nbuckets] (NULL/0: no histogram). */
void lat_stat_init(struct lat_stat *s, u32 *buckets, u32 nbuckets);

/* lat_stat_add_ns - record one sample of ns nanoseconds (now - deadline);
 * a negative one (woken before the deadline) counts as 0 µs. */
void lat_stat_add_ns(struct lat_stat *s, s64 ns);

/* lat_stat_avg - average in µs, truncated; 0 without samples. */
u64 lat_stat_avg(const struct lat_stat *s);

/*
 * lat_format_thread - the cyclictest summary line of thread index:
 *	T: 0 (   17) P:99 I:1000 C:  10000 Min:      3 Act:    5 Avg:    4 Max:      18
 * (rt-tests' "T:%2d (%5d) P:%2d I:%ld C:%7lu Min:%7ld Act:%5ld Avg:%5ld
 * Max:%8ld"), no newline.  Returns the length written (snprintf rules).
 */
int lat_format_thread(char *buf, size_t size, int index,
		      const struct lat_stat *s);

/*
 * lat_print_hist - the -h block for n threads, one line per emit() call
 * (no newline in line): "# Histogram", one row per bucket ("%06d " and
 * the per-thread counts as %06lu separated by tabs), "# Total:", "# Min
 * Latencies:", "# Avg Latencies:", "# Max Latencies:", "# Histogram
 * Overflows:", "# Histogram Overflow at cycle number:" and one "# Thread
 * N:" line each.  All threads must have the same nbuckets.
 * Returns 0, or -EINVAL if they do not or n is not 1..LAT_MAX_THREADS.
 */
int lat_print_hist(const struct lat_stat *const *st, int n,
		   void (*emit)(void *ctx, const char *line), void *ctx);

#endif /* LIB_LATENCY_HIST_H */
