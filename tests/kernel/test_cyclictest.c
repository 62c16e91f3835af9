/*
 * tests/kernel/test_cyclictest.c - the in-kernel cyclictest: a short run
 * prints the rt-tests structure (one "T:" line per thread with the loop
 * count, the -h block whose totals plus overflows equal the loops); -q
 * -h prints the histogram block alone, as rt-tests does; a stop request
 * (ctrl-C) ends an endless run with what it measured; each thread
 * gets rt-tests' priority and period for -t / -d / -S / -h /
 * --priospread; and the figures agree with an independent reading of
 * the TSC (issue 6 item 9).
 * The size of the latencies is not checked: it is the machine's.
 *
 * Scenario (structure cases): NTHREADS SCHED_FIFO 99 threads spread over
 * the online CPUs (-S style), 1000 µs period, LOOPS wake-ups each; the
 * test task (init, SCHED_OTHER) waits in cyclictest_run().
 */
#include "kernel/ktest.h"
#include "kernel/workloads/cyclictest.h"
#include "lib/latency_hist.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

#define LOOPS 50
#define HIST_US 20
#define TSC_LOOPS 200		/* 0.2 s at 1000 µs */
#define TSC_HIST_US 200		/* TCG's usual wake-ups fit, spikes overflow */
#define MAX_LINES (2 * LAT_MAX_THREADS + TSC_HIST_US + 16)

struct capture {
	int n;
	char line[MAX_LINES][LAT_LINE_MAX];
};

static struct capture cap;	/* too big for a kernel stack */

static void collect(void *ctx, const char *line)
{
	struct capture *c = ctx;

	if (c->n < MAX_LINES)
		strscpy(c->line[c->n], line, LAT_LINE_MAX);
	c->n++;
}

/*
 * final_t_block - index of the first of the last n "T:" lines (the
 * summary a run prints at its end), or -1.  A run is meant to be much
 * shorter than the 1 s live-summary period, but on a busy host it can
 * last longer, and then live summaries (whole blocks of n "T:" lines)
 * come first: the checks read the final block wherever it is.
 */
static int final_t_block(const struct capture *c, int n)
{
	int i, last = -1;

	for (i = 0; i < c->n && i < MAX_LINES; i++)
		if (!strncmp(c->line[i], "T:", 2))
			last = i;
	return last + 1 >= n ? last + 1 - n : -1;
}

/* find - index of the first line starting with prefix, or -1. */
static int find(const struct capture *c, const char *prefix)
{
	int i;

	for (i = 0; i < c->n && i < MAX_LINES; i++)
		if (!strncmp(c->line[i], prefix, strlen(prefix)))
			return i;
	return -1;
}

/* field - the k-th space-separated number after a "# Name:" prefix. */
static long field(const char *line, int k)
{
	const char *p = strchr(line, ':');
	char num[24];
	long v = -1;
	int i;

	for (i = 0; p && i <= k; i++) {
		size_t len = 0;

		while (*++p == ' ')
			;
		while (p[len] && p[len] != ' ')
			len++;
		if (!len || len >= sizeof(num))
			return -1;
		memcpy(num, p, len);
		num[len] = '\0';
		p += len - 1;
		if (kstrtol(num, 10, &v))
			return -1;
	}
	return v;
}

static int nthreads(void)
{
	int n = num_online_cpus();

	return n < 2 ? 2 : (n > 4 ? 4 : n);
}

static struct cyclictest_opts structure_opts(bool quiet)
{
	struct cyclictest_opts o = {
		.threads = nthreads(), .affinity = CT_AFFINITY_SPREAD,
		.prio = 99, .interval_us = 1000, .loops = LOOPS,
		.hist_us = HIST_US, .quiet = quiet,
	};

	return o;
}

/*
 * check_hist_block - the -h block starts at line h for o's threads:
 * rows 000000..HIST_US-1, then Total, Min, Avg, Max, Overflows in that
 * order; per thread Total + Overflows == loops and Min <= Avg <= Max.
 */
static void check_hist_block(struct ktest *t, int h,
			     const struct cyclictest_opts *o)
{
	int i, tot, ovf;

	KTEST_EXPECT(t, !strncmp(cap.line[h + 1], "000000 ", 7),
		     "first row: saw \"%s\"", cap.line[h + 1]);
	KTEST_EXPECT(t, !strncmp(cap.line[h + HIST_US], "000019 ", 7),
		     "last row: saw \"%s\"", cap.line[h + HIST_US]);
	tot = find(&cap, "# Total:");
	ovf = find(&cap, "# Histogram Overflows:");
	KTEST_ASSERT(t, tot == h + HIST_US + 1 && ovf == tot + 4,
		     "Total at %d, Overflows at %d (expected %d, %d)", tot,
		     ovf, h + HIST_US + 1, h + HIST_US + 5);
	KTEST_EXPECT(t, find(&cap, "# Min Latencies:") == tot + 1 &&
			 find(&cap, "# Avg Latencies:") == tot + 2 &&
			 find(&cap, "# Max Latencies:") == tot + 3,
		     "summary lines out of order");
	for (i = 0; i < o->threads; i++) {
		long mn = field(cap.line[tot + 1], i);
		long avg = field(cap.line[tot + 2], i);
		long mx = field(cap.line[tot + 3], i);

		KTEST_EXPECT(t, field(cap.line[tot], i) +
					 field(cap.line[ovf], i) == LOOPS,
			     "thread %d: Total %ld + Overflows %ld, expected %d",
			     i, field(cap.line[tot], i),
			     field(cap.line[ovf], i), LOOPS);
		KTEST_EXPECT(t, mn >= 0 && mn <= avg && avg <= mx,
			     "thread %d: expected Min <= Avg <= Max, saw %ld %ld %ld",
			     i, mn, avg, mx);
	}
}

/* Without -q: the final "T:" lines, then the -h block. */
static void test_short_run_prints_rt_tests_structure(struct ktest *t)
{
	struct cyclictest_opts o = structure_opts(false);
	char want[32];
	int i, h, b;

	memset(&cap, 0, sizeof(cap));
	KTEST_ASSERT_EQ(t, cyclictest_run(&o, collect, &cap, NULL, NULL), 0);
	/* 50 ms of run, so no live summary (1 s) - unless the host is busy:
	 * then whole blocks of "T:" lines come before the final output */
	b = final_t_block(&cap, o.threads);
	KTEST_ASSERT(t, b >= 0 && b % o.threads == 0 &&
			     cap.n == b + o.threads + 1 + HIST_US + 6 + o.threads,
		     "expected [k * %d live T: lines +] %d lines, saw %d, "
		     "final T: block at %d", o.threads,
		     o.threads + 1 + HIST_US + 6 + o.threads, cap.n, b);
	for (i = 0; i < o.threads; i++) {
		snprintf(want, sizeof(want), "T:%2d (", i);
		KTEST_EXPECT(t, !strncmp(cap.line[b + i], want, strlen(want)),
			     "line %d: expected \"%s...\", saw \"%s\"", b + i,
			     want, cap.line[b + i]);
		KTEST_EXPECT(t, strstr(cap.line[b + i], " P:99 I:1000 C:     50 ") != NULL,
			     "line %d: expected P:99 I:1000 C:     50, saw \"%s\"",
			     b + i, cap.line[b + i]);
	}
	h = find(&cap, "# Histogram");
	KTEST_ASSERT_EQ(t, h, b + o.threads);
	check_hist_block(t, h, &o);
}

/*
 * -q -h: the histogram block and its summary lines only.  rt-tests
 * prints nothing while a -q run goes and, at its end, the "T:" lines
 * only "if (quiet && !histogram)"; print_hist() follows for -h.
 */
static void test_quiet_histogram_run_prints_only_the_block(struct ktest *t)
{
	struct cyclictest_opts o = structure_opts(true);

	memset(&cap, 0, sizeof(cap));
	KTEST_ASSERT_EQ(t, cyclictest_run(&o, collect, &cap, NULL, NULL), 0);
	KTEST_EXPECT_EQ(t, find(&cap, "T:"), -1);
	KTEST_ASSERT(t, cap.n == 1 + HIST_US + 6 + o.threads,
		     "expected %d lines (the -h block), saw %d; first \"%s\"",
		     1 + HIST_US + 6 + o.threads, cap.n, cap.line[0]);
	KTEST_ASSERT_EQ(t, find(&cap, "# Histogram"), 0);
	check_hist_block(t, 0, &o);
}

static int stop_calls;
static bool stop_on_second_poll(void)
{
	return ++stop_calls >= 2;
}

/* An endless run (no -l, no -D) ends on the stop request and prints. */
static void test_stop_request_ends_endless_run(struct ktest *t)
{
	struct cyclictest_opts o = {
		.threads = 1, .affinity = CT_AFFINITY_NONE, .prio = 90,
		.interval_us = 1000, .quiet = true,
	};

	memset(&cap, 0, sizeof(cap));
	stop_calls = 0;
	KTEST_ASSERT_EQ(t, cyclictest_run(&o, collect, &cap,
					  stop_on_second_poll, NULL), 0);
	KTEST_EXPECT_EQ(t, stop_calls, 2);
	KTEST_ASSERT_EQ(t, cap.n, 1);
	KTEST_EXPECT(t, !strncmp(cap.line[0], "T: 0 (", 6) &&
			 strstr(cap.line[0], " P:90 I:1000 C:") != NULL,
		     "saw \"%s\"", cap.line[0]);
}

/* bucket_count - thread 0's count in histogram row line ("%06u %06u..."). */
static long bucket_count(const char *line)
{
	char num[8];
	long v;

	if (strnlen(line, 13) < 13 || line[6] != ' ')
		return -1;
	memcpy(num, line + 7, 6);
	num[6] = '\0';
	if (kstrtol(num, 10, &v))
		return -1;
	return v;
}

/*
 * One row of the per-thread rule: a command line, the threads it makes
 * on this machine (0: one per online CPU, capped), and thread N's
 * priority and period.  At most 4 threads; -S's are 1000 + N * 500.
 */
struct rule_case {
	const char *argv[12];
	int threads;
	int prio[4];
	u32 iv[4];
};

static const struct rule_case rule_cases[] = {
	{ { "cyclictest", "-t", "3", "-l", "20" }, 3,
	  { 99, 99, 99 }, { 1000, 1500, 2000 } },
	{ { "cyclictest", "-t", "3", "-d", "0", "-l", "20" }, 3,
	  { 99, 99, 99 }, { 1000, 1000, 1000 } },
	{ { "cyclictest", "-S", "-l", "20" }, 0,
	  { 99, 99, 99, 99 }, { 1000, 1500, 2000, 2500 } },
	{ { "cyclictest", "-t", "2", "-h", "100", "-l", "20" }, 2,
	  { 99, 99 }, { 1000, 1000 } },
	{ { "cyclictest", "-t", "3", "-p", "2", "--priospread", "-i", "500",
	    "-d", "100", "-l", "20" }, 3,
	  { 2, 1, 1 }, { 500, 600, 700 } },
};

/*
 * Each thread runs at rt-tests' priority and period: the command line
 * goes through cyclictest_parse(), the run's "T:" lines show P: and I:
 * per thread, and C: == -l proves each thread ran its loops.  The
 * periods are also checked by time: the slowest thread's 20 loops take
 * at least 20 of its periods, so a run that ignored -d would end early.
 * Scenario: the rows of rule_cases, SCHED_FIFO threads floating (no -a)
 * or spread (-S); the test task (SCHED_OTHER) waits in cyclictest_run().
 */
static void test_thread_priority_and_interval_follow_rt_tests(struct ktest *t)
{
	char err[128], want[48];
	unsigned int k;
	int i;

	for (k = 0; k < ARRAY_SIZE(rule_cases); k++) {
		const struct rule_case *rc = &rule_cases[k];
		struct cyclictest_opts o;
		int argc = 0, n = rc->threads, b;
		u32 slowest = 0;
		ktime_t t0;

		while (argc < 12 && rc->argv[argc])
			argc++;
		KTEST_ASSERT(t, cyclictest_parse(argc, (char **)rc->argv,
						 num_online_cpus(), &o, err,
						 sizeof(err)) == 0,
			     "case %u: %s", k, err);
		if (!n)
			n = num_online_cpus() < 4 ? num_online_cpus() : 4;
		if (o.threads > 4)	/* -S beyond 4 CPUs: keep 4 rows */
			o.threads = 4;
		KTEST_ASSERT(t, o.threads == n,
			     "case %u: expected %d threads, saw %d", k, n,
			     o.threads);
		memset(&cap, 0, sizeof(cap));
		t0 = ktime_get();
		KTEST_ASSERT_EQ(t, cyclictest_run(&o, collect, &cap, NULL,
						  NULL), 0);
		for (i = 0; i < n; i++)
			if (rc->iv[i] > slowest)
				slowest = rc->iv[i];
		t0 = ktime_get() - t0;
		KTEST_EXPECT(t, t0 >= (s64)20 * slowest * NSEC_PER_USEC,
			     "case %u: run took %lld us, expected >= 20 * %u",
			     k, (long long)t0 / 1000, slowest);
		b = final_t_block(&cap, n);	/* after any live summary */
		KTEST_ASSERT(t, b >= 0, "case %u: no final block of %d T: lines",
			     k, n);
		for (i = 0; i < n; i++) {
			snprintf(want, sizeof(want), " P:%2d I:%u C:     20 ",
				 rc->prio[i], rc->iv[i]);
			KTEST_EXPECT(t, strstr(cap.line[b + i], want) != NULL,
				     "case %u thread %d: expected \"%s\", saw \"%s\"",
				     k, i, want, cap.line[b + i]);
		}
	}
}

static u64 tsc_wake[TSC_LOOPS];

/*
 * The figures agree with an independent clock reading.
 *
 * Scenario: one SCHED_FIFO 99 thread on the first online CPU, 1000 µs
 * period, TSC_LOOPS wake-ups, -q -h TSC_HIST_US; the probe records the
 * raw TSC once before the first deadline is computed (start) and once
 * after each wake-up's own clock read (wake[k]).  The test rebuilds
 * deadline k as start + m[k] * interval and the latency from cycles
 * alone: lat'[k] = cycles_to_ns(wake[k] - start) - m[k] * interval,
 * with m[0] = 1 and m[k + 1] the first m > m[k] whose deadline is not
 * before wake[k] (rt-tests skips the periods a late wake-up missed;
 * counted here on its own, not with the engine's function).  wake[k]
 * is read a little after the engine's clock read, so when a deadline
 * falls between the two, the rebuild skips one period too many; the
 * latency it then finds is below zero by most of a period, and the
 * test takes the skip back (only a skipped period can be taken back).
 * Since each probe read comes after the engine's read it pairs with,
 * lat'[k] >= lat[k] up to rounding (1 µs): so every lat' >= Min - 1,
 * the largest lat' >= Max - 1, and sum(lat') >= C * Avg - C.  The other
 * way, lat' exceeds lat only by the instructions between the two reads,
 * unless an interrupt falls there: so at least 90% of lat' <= Max + 1.
 * No lat' is below zero, beyond 2 µs of rounding and TSC skew (no
 * wake-up before its deadline, which the engine's clamp to 0 µs would
 * hide), and the TSC counts at least C
 * intervals from the start to the last wake-up.  The tolerances are
 * orderings and shares of samples, none a time: they hold at any host
 * speed.  Also: C == loops, Total + Overflows == C, Min <= Avg <= Max,
 * and without overflows the histogram's own min, max and mean are Min,
 * Max and Avg.
 */
static void test_latencies_agree_with_independent_tsc(struct ktest *t)
{
	struct cyclictest_opts o = {
		.threads = 1, .affinity = CT_AFFINITY_SPREAD, .prio = 99,
		.interval_us = 1000, .loops = TSC_LOOPS,
		.hist_us = TSC_HIST_US, .quiet = true,
	};
	struct cyclictest_probe pr = { .wake_cyc = tsc_wake,
				       .max = TSC_LOOPS };
	s64 iv_ns = (s64)o.interval_us * NSEC_PER_USEC, lat_ns, min_ns = 0;
	long c, mn, avg, mx, ovf, hmin = -1, hmax = -1, hsum = 0, n;
	long in_range = 0, max_p = 0, sum_p = 0;
	s64 m = 1;		/* index of deadline k: start + m * interval */
	u64 elapsed_ns;
	int tot, k;

	memset(&cap, 0, sizeof(cap));
	KTEST_ASSERT_EQ(t, cyclictest_run(&o, collect, &cap, NULL, &pr), 0);
	tot = find(&cap, "# Total:");
	KTEST_ASSERT(t, tot == 1 + TSC_HIST_US,
		     "# Total: at line %d, expected %d", tot, 1 + TSC_HIST_US);
	ovf = field(cap.line[tot + 4], 0);
	c = field(cap.line[tot], 0) + ovf;
	mn = field(cap.line[tot + 1], 0);
	avg = field(cap.line[tot + 2], 0);
	mx = field(cap.line[tot + 3], 0);
	KTEST_ASSERT(t, c == TSC_LOOPS && pr.n == TSC_LOOPS,
		     "expected C = probe samples = %d, saw C %ld, probe %llu",
		     TSC_LOOPS, c, (unsigned long long)pr.n);
	KTEST_EXPECT(t, mn <= avg && avg <= mx,
		     "expected Min <= Avg <= Max, saw %ld %ld %ld", mn, avg, mx);

	for (k = 0; k < TSC_HIST_US; k++) {	/* the block against itself */
		n = bucket_count(cap.line[1 + k]);
		KTEST_ASSERT(t, n >= 0, "row %d unreadable: \"%s\"", k,
			     cap.line[1 + k]);
		if (n && hmin < 0)
			hmin = k;
		if (n)
			hmax = k;
		hsum += n * k;
	}
	if (mn < TSC_HIST_US)
		KTEST_EXPECT(t, hmin == mn, "first used bucket %ld, Min %ld",
			     hmin, mn);
	if (!ovf)
		KTEST_EXPECT(t, hmax == mx && hsum / c == avg,
			     "histogram max %ld mean %ld, expected Max %ld Avg %ld",
			     hmax, hsum / c, mx, avg);

	for (k = 0; k < TSC_LOOPS; k++) {	/* the TSC's view */
		s64 woke_ns = ktime_cycles_to_ns(tsc_wake[k] - pr.start_cyc);
		long lat_us;

		if (k) {	/* m: deadline k-1's index, wake[k-1] after it */
			s64 prev_ns = ktime_cycles_to_ns(tsc_wake[k - 1] -
							 pr.start_cyc);
			s64 first = m + 1;

			m = first;
			while (prev_ns > m * iv_ns)
				m++;
			if (m > first && woke_ns - m * iv_ns < -iv_ns / 2)
				m--;
		}
		lat_ns = woke_ns - m * iv_ns;
		if (lat_ns < min_ns)
			min_ns = lat_ns;
		lat_us = lat_ns > 0 ? lat_ns / 1000 : 0;
		KTEST_EXPECT(t, lat_us + 1 >= mn,
			     "wake-up %d: TSC latency %ld us below Min %ld",
			     k, lat_us, mn);
		if (lat_us <= mx + 1)
			in_range++;
		if (lat_us > max_p)
			max_p = lat_us;
		sum_p += lat_us;
	}
	/* 2 µs: rounding, and TSC skew should the timer fire elsewhere */
	KTEST_EXPECT(t, min_ns >= -2000,
		     "a wake-up %lld ns before its deadline by the TSC",
		     (long long)min_ns);
	KTEST_EXPECT(t, max_p + 1 >= mx,
		     "largest TSC latency %ld us, cyclictest's Max %ld", max_p,
		     mx);
	KTEST_EXPECT(t, sum_p + c >= avg * c,
		     "TSC mean %ld us below Avg %ld", sum_p / c, avg);
	KTEST_EXPECT(t, in_range * 10 >= TSC_LOOPS * 9,
		     "only %ld of %d TSC latencies within Max %ld + 1 us",
		     in_range, TSC_LOOPS, mx);
	elapsed_ns = ktime_cycles_to_ns(tsc_wake[TSC_LOOPS - 1] - pr.start_cyc);
	KTEST_EXPECT(t, elapsed_ns / iv_ns >= TSC_LOOPS,
		     "TSC counts %llu intervals over the run, expected >= %d",
		     (unsigned long long)(elapsed_ns / iv_ns), TSC_LOOPS);
}

KTEST_SUITE(cyclictest,
	    KTEST_CASE(test_short_run_prints_rt_tests_structure),
	    KTEST_CASE(test_quiet_histogram_run_prints_only_the_block),
	    KTEST_CASE(test_thread_priority_and_interval_follow_rt_tests),
	    KTEST_CASE(test_latencies_agree_with_independent_tsc),
	    KTEST_CASE(test_stop_request_ends_endless_run));
