/*
 * tests/host/test_latency_hist.c - kernel/debug/latency_hist (statistics,
 * rt-tests summary line and -h block) and kernel/debug/cyclictest_opts
 * (the command line): figures, exact output text, and every flag with
 * its bad values.
 */
#include <stdio.h>
#include <string.h>
#include "tests/host/check.h"
#include "lib/latency_hist.h"
#include "lib/cyclictest_opts.h"
#include "lib/errno.h"

/* ---- an emit() that collects lines */
#define OUT_LINES 64
struct out {
	int n;
	char line[OUT_LINES][LAT_LINE_MAX];
};

static void collect(void *ctx, const char *line)
{
	struct out *o = ctx;

	if (o->n < OUT_LINES)
		snprintf(o->line[o->n], LAT_LINE_MAX, "%s", line);
	o->n++;
}

static void test_stats_min_avg_max_truncate_to_microseconds(void)
{
	struct lat_stat s;

	lat_stat_init(&s, NULL, 0);
	lat_stat_add_ns(&s, 3999);	/* 3 µs */
	lat_stat_add_ns(&s, 18000);	/* 18 µs */
	lat_stat_add_ns(&s, 5500);	/* 5 µs */
	lat_stat_add_ns(&s, -200);	/* early: 0 µs */
	CHECK_EQ(s.cycles, 4);
	CHECK_EQ(s.min, 0);
	CHECK_EQ(s.max, 18);
	CHECK_EQ(s.act, 0);
	CHECK_EQ(lat_stat_avg(&s), (3 + 18 + 5 + 0) / 4);
}

static void test_histogram_buckets_and_overflows(void)
{
	u32 b[10];
	struct lat_stat s;
	int i;

	memset(b, 0xab, sizeof(b));
	lat_stat_init(&s, b, 10);
	CHECK_EQ(b[9], 0);	/* init clears the buckets */
	lat_stat_add_ns(&s, 0);
	lat_stat_add_ns(&s, 9999);	/* 9 µs: last bucket */
	lat_stat_add_ns(&s, 10000);	/* 10 µs: overflow, cycle 2 */
	lat_stat_add_ns(&s, 9000);
	CHECK_EQ(b[0], 1);
	CHECK_EQ(b[9], 2);
	CHECK_EQ(s.overflows, 1);
	CHECK_EQ(s.n_outliers, 1);
	CHECK_EQ(s.outliers[0], 2);
	for (i = 0; i < LAT_OUTLIERS_MAX + 5; i++)
		lat_stat_add_ns(&s, 50000);
	CHECK_EQ(s.overflows, LAT_OUTLIERS_MAX + 6);
	CHECK_EQ(s.n_outliers, LAT_OUTLIERS_MAX);
	CHECK_EQ(s.outliers[LAT_OUTLIERS_MAX - 1], 4 + LAT_OUTLIERS_MAX - 2);
}

static void test_thread_line_is_rt_tests_format(void)
{
	struct lat_stat s;
	char buf[LAT_LINE_MAX];
	int i, len;

	lat_stat_init(&s, NULL, 0);
	s.tid = 17;
	s.prio = 99;
	s.interval_us = 1000;
	for (i = 0; i < 9998; i++)
		lat_stat_add_ns(&s, 4000);
	lat_stat_add_ns(&s, 3000);
	lat_stat_add_ns(&s, 18000);
	s.act = 5;
	len = lat_format_thread(buf, sizeof(buf), 0, &s);
	CHECK_STR(buf, "T: 0 (   17) P:99 I:1000 C:  10000 Min:      3 "
		       "Act:    5 Avg:    4 Max:      18");
	CHECK_EQ(len, (int)strlen(buf));
}

static void test_hist_block_layout(void)
{
	u32 b0[3], b1[3];
	struct lat_stat s0, s1;
	const struct lat_stat *st[2] = { &s0, &s1 };
	static struct out o;

	lat_stat_init(&s0, b0, 3);
	lat_stat_init(&s1, b1, 3);
	lat_stat_add_ns(&s0, 1000);
	lat_stat_add_ns(&s0, 1500);
	lat_stat_add_ns(&s0, 2000);
	lat_stat_add_ns(&s1, 0);
	lat_stat_add_ns(&s1, 7000);	/* overflow at cycle 1 */
	memset(&o, 0, sizeof(o));
	CHECK_EQ(lat_print_hist(st, 2, collect, &o), 0);
	CHECK_EQ(o.n, 1 + 3 + 6 + 2);
	CHECK_STR(o.line[0], "# Histogram");
	CHECK_STR(o.line[1], "000000 000000\t000001");
	CHECK_STR(o.line[2], "000001 000002\t000000");
	CHECK_STR(o.line[3], "000002 000001\t000000");
	CHECK_STR(o.line[4], "# Total: 000000003 000000001");
	CHECK_STR(o.line[5], "# Min Latencies: 00001 00000");
	CHECK_STR(o.line[6], "# Avg Latencies: 00001 00003");
	CHECK_STR(o.line[7], "# Max Latencies: 00002 00007");
	CHECK_STR(o.line[8], "# Histogram Overflows: 00000 00001");
	CHECK_STR(o.line[9], "# Histogram Overflow at cycle number:");
	CHECK_STR(o.line[10], "# Thread 0:");
	CHECK_STR(o.line[11], "# Thread 1: 00001");
}

static void test_hist_rejects_mixed_sizes_and_counts_others(void)
{
	u32 b0[2], b1[3];
	struct lat_stat s0, s1;
	const struct lat_stat *st[2] = { &s0, &s1 };
	static struct out o;
	int i;

	lat_stat_init(&s0, b0, 2);
	lat_stat_init(&s1, b1, 3);
	memset(&o, 0, sizeof(o));
	CHECK_EQ(lat_print_hist(st, 2, collect, &o), -EINVAL);
	CHECK_EQ(lat_print_hist(st, 0, collect, &o), -EINVAL);
	CHECK_EQ(o.n, 0);
	for (i = 0; i < LAT_OUTLIERS_MAX + 3; i++)
		lat_stat_add_ns(&s0, 5000);
	CHECK_EQ(lat_print_hist(st, 1, collect, &o), 0);
	CHECK(strstr(o.line[o.n - 1], " # 00003 others") != NULL,
	      "saw \"%s\"", o.line[o.n - 1]);
	CHECK_STR(o.line[7], "# Histogram Overflows: 00035");
}

/* ---- the command line */
static int parse(const char *line, int nr_cpus, struct cyclictest_opts *o,
		 char *err)
{
	static char copy[256];
	char *argv[16];
	int argc = 0;
	char *p;

	snprintf(copy, sizeof(copy), "%s", line);
	for (p = strtok(copy, " "); p && argc < 16; p = strtok(NULL, " "))
		argv[argc++] = p;
	return cyclictest_parse(argc, argv, nr_cpus, o, err, 128);
}

static void test_parse_defaults_are_rt_tests_ones(void)
{
	struct cyclictest_opts o;
	char err[128];

	CHECK_EQ(parse("cyclictest", 4, &o, err), 0);
	CHECK_EQ(o.threads, 1);
	CHECK_EQ(o.affinity, CT_AFFINITY_NONE);
	CHECK_EQ(o.prio, 99);
	CHECK_EQ(o.interval_us, 1000);
	CHECK_EQ(o.distance_us, 500);
	CHECK_EQ(o.priospread, 0);
	CHECK_EQ(o.loops, 0);
	CHECK_EQ(o.duration_s, 0);
	CHECK_EQ(o.hist_us, 0);
	CHECK_EQ(o.quiet, 0);
}

static void test_parse_issue_command_glued_and_spaced(void)
{
	struct cyclictest_opts o;
	char err[128];

	CHECK_EQ(parse("cyclictest -S -p99 -i1000 -l20000 -q", 2, &o, err), 0);
	CHECK_EQ(o.threads, 2);
	CHECK_EQ(o.affinity, CT_AFFINITY_SPREAD);
	CHECK_EQ(o.prio, 99);
	CHECK_EQ(o.interval_us, 1000);
	CHECK_EQ(o.loops, 20000);
	CHECK_EQ(o.quiet, 1);
	CHECK_EQ(parse("cyclictest -t 3 -a 1 -p 80 -i 250 -D 2m -h 400", 4,
		       &o, err), 0);
	CHECK_EQ(o.threads, 3);
	CHECK_EQ(o.affinity, 1);
	CHECK_EQ(o.prio, 80);
	CHECK_EQ(o.interval_us, 250);
	CHECK_EQ(o.duration_s, 120);
	CHECK_EQ(o.hist_us, 400);
}

static void test_parse_optional_values_of_t_and_a(void)
{
	struct cyclictest_opts o;
	char err[128];

	CHECK_EQ(parse("cyclictest -t -a -q", 4, &o, err), 0);
	CHECK_EQ(o.threads, 4);
	CHECK_EQ(o.affinity, CT_AFFINITY_SPREAD);
	CHECK_EQ(o.quiet, 1);
	CHECK_EQ(parse("cyclictest -t5 -a3", 4, &o, err), 0);
	CHECK_EQ(o.threads, 5);
	CHECK_EQ(o.affinity, 3);
	/* -S wins over -t / -a given after it */
	CHECK_EQ(parse("cyclictest -S -t 7 -a 0", 3, &o, err), 0);
	CHECK_EQ(o.threads, 3);
	CHECK_EQ(o.affinity, CT_AFFINITY_SPREAD);
	CHECK_EQ(parse("cyclictest -D 1d", 1, &o, err), 0);
	CHECK_EQ(o.duration_s, 86400);
	CHECK_EQ(parse("cyclictest -D 45s", 1, &o, err), 0);
	CHECK_EQ(o.duration_s, 45);
}

/*
 * check_same - line a parses into exactly what line b does (b spells
 * out a's clustered flags one word each).
 */
static void check_same(const char *a, const char *b, int nr_cpus)
{
	struct cyclictest_opts oa, ob;
	char err[128];

	CHECK(parse(a, nr_cpus, &oa, err) == 0, "\"%s\": %s", a, err);
	CHECK(parse(b, nr_cpus, &ob, err) == 0, "\"%s\": %s", b, err);
	CHECK(!memcmp(&oa, &ob, sizeof(oa)),
	      "\"%s\" gave threads %d prio %d interval %u quiet %d, \"%s\" %d %d %u %d",
	      a, oa.threads, oa.prio, oa.interval_us, oa.quiet, b,
	      ob.threads, ob.prio, ob.interval_us, ob.quiet);
}

/* getopt's clusters: "-Smp99" is -S -m -p99, "-qt2" is -q -t2. */
static void test_parse_clustered_flags_as_getopt(void)
{
	struct cyclictest_opts o;
	char err[128];

	check_same("cyclictest -Smp99 -i200", "cyclictest -S -m -p 99 -i 200",
		   2);
	check_same("cyclictest -qt2 -np 70 -d0",
		   "cyclictest -q -t 2 -n -p 70 -d 0", 4);
	check_same("cyclictest -Sq", "cyclictest -S -q", 4);
	CHECK_EQ(parse("cyclictest -qt2 -np 70 -d0", 4, &o, err), 0);
	CHECK_EQ(o.threads, 2);
	CHECK_EQ(o.prio, 70);
	CHECK_EQ(o.distance_us, 0);
}

/*
 * check_threads - parse line on nr_cpus CPUs and compare each thread's
 * priority and interval with prio[] and iv[] (n entries, n threads).
 */
static void check_threads(const char *line, int nr_cpus, int n,
			  const int *prio, const unsigned *iv)
{
	struct cyclictest_opts o;
	char err[128];
	int i;

	CHECK(parse(line, nr_cpus, &o, err) == 0, "\"%s\": %s", line, err);
	CHECK(o.threads == n, "\"%s\": expected %d threads, saw %d", line,
	      n, o.threads);
	for (i = 0; i < n && i < o.threads; i++) {
		int p = cyclictest_thread_prio(&o, i);
		unsigned v = cyclictest_thread_interval(&o, i);

		CHECK(p == prio[i] && v == iv[i],
		      "\"%s\" thread %d: expected P:%d I:%u, saw P:%d I:%u",
		      line, i, prio[i], iv[i], p, v);
	}
}

/*
 * rt-tests' per-thread rule (cyclictest_opts.c): intervals -d apart
 * (default 500) unless -h, -S included; one priority for all threads
 * unless --priospread, which stops at 1 here.
 */
static void test_thread_priority_and_interval_follow_rt_tests(void)
{
	struct cyclictest_opts o;
	char err[128];

	check_threads("cyclictest -t 3 -l 100", 4, 3, (int[]){ 99, 99, 99 },
		      (unsigned[]){ 1000, 1500, 2000 });
	check_threads("cyclictest -t 3 -d 0", 4, 3, (int[]){ 99, 99, 99 },
		      (unsigned[]){ 1000, 1000, 1000 });
	check_threads("cyclictest -t 3 -i 200 -d 50 -p 80", 4, 3,
		      (int[]){ 80, 80, 80 }, (unsigned[]){ 200, 250, 300 });
	check_threads("cyclictest -S", 4, 4, (int[]){ 99, 99, 99, 99 },
		      (unsigned[]){ 1000, 1500, 2000, 2500 });
	check_threads("cyclictest -S -p99 -i1000 -l20000 -q -h 3000", 2, 2,
		      (int[]){ 99, 99 }, (unsigned[]){ 1000, 1000 });
	check_threads("cyclictest -t 2 -h 100", 4, 2, (int[]){ 99, 99 },
		      (unsigned[]){ 1000, 1000 });
	check_threads("cyclictest -t 3 --priospread", 4, 3,
		      (int[]){ 99, 98, 97 }, (unsigned[]){ 1000, 1500, 2000 });
	check_threads("cyclictest -t 4 -p 2 --priospread -h 10", 4, 4,
		      (int[]){ 2, 1, 1, 1 }, (unsigned[]){ 1000, 1000, 1000, 1000 });
	/* -d with -h: distance 0 and a warning for the caller, as rt-tests */
	CHECK_EQ(parse("cyclictest -t 2 -d 300 -h 100", 4, &o, err), 0);
	CHECK_EQ(o.distance_us, 0);
	CHECK_EQ(o.distance_ignored, 1);
	CHECK_EQ(parse("cyclictest -t 2 -h 100", 4, &o, err), 0);
	CHECK_EQ(o.distance_ignored, 0);
	CHECK_EQ(parse("cyclictest -t 2 -d 300", 4, &o, err), 0);
	CHECK_EQ(o.distance_ignored, 0);
	CHECK_EQ(o.distance_us, 300);
}

/*
 * rt-tests' next-deadline rule (timerthread(): next += interval; while
 * (now > next) next += interval): a sample on time or up to a period
 * late moves the deadline by one period; one that missed k whole
 * periods skips them, so the stall is recorded once; "now > next" is
 * strict, so a clock read exactly at the following deadline still
 * waits for it.  The figures are in µs on a 1000 µs period.
 */
static void test_next_deadline_skips_missed_periods_as_rt_tests(void)
{
	CHECK_EQ(cyclictest_next_deadline(1000, 1000, 1000), 2000);
	CHECK_EQ(cyclictest_next_deadline(1000, 1999, 1000), 2000);
	CHECK_EQ(cyclictest_next_deadline(1000, 2000, 1000), 2000);
	CHECK_EQ(cyclictest_next_deadline(1000, 2001, 1000), 3000);
	CHECK_EQ(cyclictest_next_deadline(1000, 3500, 1000), 4000);
	CHECK_EQ(cyclictest_next_deadline(1000, 4000, 1000), 4000);
	CHECK_EQ(cyclictest_next_deadline(1000, 4001, 1000), 5000);
	/* a 10 s stall on a 1 ms period: one step, not 10000 samples */
	CHECK_EQ(cyclictest_next_deadline(1000, 10001500, 1000), 10002000);
	/* a wake-up before its deadline (never should) still moves on one */
	CHECK_EQ(cyclictest_next_deadline(1000, 900, 1000), 2000);
	/* nanosecond scale, odd period */
	CHECK_EQ(cyclictest_next_deadline(1000000000LL, 1000000000LL + 3 * 333333 + 1,
					  333333), 1000000000LL + 4 * 333333);
}

static void check_bad(const char *line, int nr_cpus, const char *want)
{
	struct cyclictest_opts o;
	char err[128];

	CHECK_EQ(parse(line, nr_cpus, &o, err), -EINVAL);
	CHECK(strstr(err, want) != NULL, "\"%s\": expected \"%s\" in \"%s\"",
	      line, want, err);
}

static void test_parse_bad_values_say_why(void)
{
	check_bad("cyclictest -p 120", 4, "-p 120: priority must be 1..99");
	check_bad("cyclictest -p0", 4, "priority must be 1..99");
	check_bad("cyclictest -p abc", 4, "-p abc: priority");
	check_bad("cyclictest -i 5", 4, "interval (us) must be 10..10000000");
	check_bad("cyclictest -a 4", 4, "-a 4: CPU must be 0..3");
	check_bad("cyclictest -t 0", 4, "threads must be 1..32");
	check_bad("cyclictest -t 33", 4, "threads must be 1..32");
	check_bad("cyclictest -h 10001", 4, "histogram size (us) must be");
	check_bad("cyclictest -l -5", 4, "-l -5: loops");
	check_bad("cyclictest -D 3x", 4, "-D 3x: duration");
	check_bad("cyclictest -D 0", 4, "-D 0: duration");
	check_bad("cyclictest -D m", 4, "-D m: duration");
	check_bad("cyclictest -l", 4, "-l needs a value");
	check_bad("cyclictest -x", 4, "unknown option '-x'");
	check_bad("cyclictest -Sqx", 4, "unknown option '-Sqx'");
	check_bad("cyclictest -d", 4, "-d needs a value");
	check_bad("cyclictest -d -1", 4, "-d -1: distance (us) must be");
	check_bad("cyclictest --smp", 4, "unknown option '--smp'");
	check_bad("cyclictest -b 100", 4,
		  "'-b': rt-tests option not implemented in rtk");
	check_bad("cyclictest -Sv", 4,
		  "'-Sv': rt-tests option not implemented in rtk");
	check_bad("cyclictest 100", 4, "unexpected '100'");
}

int main(void)
{
	return check_run("latency_hist", (struct check_case[]){
		CHECK_CASE(test_stats_min_avg_max_truncate_to_microseconds),
		CHECK_CASE(test_histogram_buckets_and_overflows),
		CHECK_CASE(test_thread_line_is_rt_tests_format),
		CHECK_CASE(test_hist_block_layout),
		CHECK_CASE(test_hist_rejects_mixed_sizes_and_counts_others),
		CHECK_CASE(test_parse_defaults_are_rt_tests_ones),
		CHECK_CASE(test_parse_issue_command_glued_and_spaced),
		CHECK_CASE(test_parse_optional_values_of_t_and_a),
		CHECK_CASE(test_parse_clustered_flags_as_getopt),
		CHECK_CASE(test_thread_priority_and_interval_follow_rt_tests),
		CHECK_CASE(test_parse_bad_values_say_why),
		CHECK_CASE(test_next_deadline_skips_missed_periods_as_rt_tests),
		{ 0 } });
}
