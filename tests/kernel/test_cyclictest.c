/*
 * tests/kernel/test_cyclictest.c - the in-kernel cyclictest: a short run
 * prints the rt-tests structure (one "T:" line per thread with the loop
 * count, the -h block whose totals plus overflows equal the loops), and
 * a stop request (ctrl-C) ends an endless run with what it measured.
 * The latencies themselves are not checked: they are the machine's.
 *
 * Scenario: NTHREADS SCHED_FIFO 99 threads spread over the online CPUs
 * (-S style), 1000 µs period, LOOPS wake-ups each; the test task
 * (init, SCHED_OTHER) waits in cyclictest_run().
 */
#include "kernel/ktest.h"
#include "kernel/debug/cyclictest.h"
#include "kernel/debug/latency_hist.h"
#include "kernel/smp.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

#define LOOPS 50
#define HIST_US 20
#define MAX_LINES (2 * LAT_MAX_THREADS + HIST_US + 16)

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

static void test_short_run_prints_rt_tests_structure(struct ktest *t)
{
	struct cyclictest_opts o = {
		.threads = nthreads(), .affinity = CT_AFFINITY_SPREAD,
		.prio = 99, .interval_us = 1000, .loops = LOOPS,
		.hist_us = HIST_US, .quiet = true,
	};
	char want[32];
	int i, h, tot, ovf;

	memset(&cap, 0, sizeof(cap));
	KTEST_ASSERT_EQ(t, cyclictest_run(&o, collect, &cap, NULL), 0);
	KTEST_ASSERT_EQ(t, cap.n, o.threads + 1 + HIST_US + 6 + o.threads);
	for (i = 0; i < o.threads; i++) {
		snprintf(want, sizeof(want), "T:%2d (", i);
		KTEST_EXPECT(t, !strncmp(cap.line[i], want, strlen(want)),
			     "line %d: expected \"%s...\", saw \"%s\"", i, want,
			     cap.line[i]);
		KTEST_EXPECT(t, strstr(cap.line[i], " P:99 I:1000 C:     50 ") != NULL,
			     "line %d: expected P:99 I:1000 C:     50, saw \"%s\"",
			     i, cap.line[i]);
	}
	h = find(&cap, "# Histogram");
	KTEST_ASSERT_EQ(t, h, o.threads);
	KTEST_EXPECT(t, !strncmp(cap.line[h + 1], "000000 ", 7),
		     "first row: saw \"%s\"", cap.line[h + 1]);
	KTEST_EXPECT(t, !strncmp(cap.line[h + HIST_US], "000019 ", 7),
		     "last row: saw \"%s\"", cap.line[h + HIST_US]);
	tot = find(&cap, "# Total:");
	ovf = find(&cap, "# Histogram Overflows:");
	KTEST_ASSERT(t, tot == h + HIST_US + 1 && ovf == tot + 4,
		     "Total at %d, Overflows at %d", tot, ovf);
	KTEST_EXPECT(t, find(&cap, "# Min Latencies:") == tot + 1 &&
			 find(&cap, "# Avg Latencies:") == tot + 2 &&
			 find(&cap, "# Max Latencies:") == tot + 3,
		     "summary lines out of order");
	for (i = 0; i < o.threads; i++)
		KTEST_EXPECT_EQ(t, field(cap.line[tot], i) +
					   field(cap.line[ovf], i),
				LOOPS);
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
					  stop_on_second_poll), 0);
	KTEST_EXPECT_EQ(t, stop_calls, 2);
	KTEST_ASSERT_EQ(t, cap.n, 1);
	KTEST_EXPECT(t, !strncmp(cap.line[0], "T: 0 (", 6) &&
			 strstr(cap.line[0], " P:90 I:1000 C:") != NULL,
		     "saw \"%s\"", cap.line[0]);
}

KTEST_SUITE(cyclictest,
	    KTEST_CASE(test_short_run_prints_rt_tests_structure),
	    KTEST_CASE(test_stop_request_ends_endless_run));
