/*
 * lib/latency_hist.c - per-thread latency statistics and their
 * rt-tests cyclictest output (see latency_hist.h).
 *
 * The numbers are whole microseconds, truncated, like rt-tests'
 * calcdiff(): a 999 ns wake-up counts as 0 µs.  The formats are rt-tests'
 * own, so a script that parses cyclictest's summary or its -h block
 * parses rtk's.
 *
 * Counterpart: rt-tests src/cyclictest/cyclictest.c (timerthread()'s
 * bookkeeping, print_stat(), print_hist()).
 */
#include "lib/latency_hist.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

void lat_stat_init(struct lat_stat *s, u32 *buckets, u32 nbuckets)
{
	memset(s, 0, sizeof(*s));
	if (buckets && nbuckets) {
		memset(buckets, 0, nbuckets * sizeof(*buckets));
		s->buckets = buckets;
		s->nbuckets = nbuckets;
	}
}

/*
 * lat_stat_add_ns - one sample.
 * Context: any; the owning thread only (no locking).
 */
void lat_stat_add_ns(struct lat_stat *s, s64 ns)
{
	u64 us = ns > 0 ? (u64)ns / 1000 : 0;

	if (!s->cycles || us < s->min)
		s->min = us;
	if (us > s->max)
		s->max = us;
	s->act = us;
	s->sum += us;
	if (s->nbuckets) {
		if (us < s->nbuckets) {
			s->buckets[us]++;
		} else {
			/* rt-tests records the cycle number of each overflow */
			if (s->n_outliers < LAT_OUTLIERS_MAX)
				s->outliers[s->n_outliers++] = s->cycles;
			s->overflows++;
		}
	}
	s->cycles++;
}

u64 lat_stat_avg(const struct lat_stat *s)
{
	return s->cycles ? s->sum / s->cycles : 0;
}

int lat_format_thread(char *buf, size_t size, int index,
		      const struct lat_stat *s)
{
	return snprintf(buf, size,
			"T:%2d (%5d) P:%2d I:%u C:%7llu Min:%7llu Act:%5llu "
			"Avg:%5llu Max:%8llu",
			index, s->tid, s->prio, s->interval_us,
			(unsigned long long)s->cycles,
			(unsigned long long)s->min,
			(unsigned long long)s->act,
			(unsigned long long)lat_stat_avg(s),
			(unsigned long long)s->max);
}

/* One "# Name: v0 v1 ..." line with each thread's field as %05llu. */
static void emit_per_thread(const struct lat_stat *const *st, int n,
			    const char *name, int which,
			    void (*emit)(void *ctx, const char *line),
			    void *ctx)
{
	char line[LAT_LINE_MAX];
	int pos, i;

	pos = scnprintf(line, sizeof(line), "# %s:", name);
	for (i = 0; i < n; i++) {
		u64 v;

		switch (which) {
		case 0:
			v = st[i]->cycles ? st[i]->min : 0;
			break;
		case 1:
			v = lat_stat_avg(st[i]);
			break;
		case 2:
			v = st[i]->max;
			break;
		default:
			v = st[i]->overflows;
			break;
		}
		pos += scnprintf(line + pos, sizeof(line) - pos, " %05llu",
				 (unsigned long long)v);
	}
	emit(ctx, line);
}

/*
 * lat_print_hist - the -h block.
 *
 *  [1] check that all threads share one bucket count;
 *  [2] one row per bucket, counting each thread's total on the way;
 *  [3] the totals, then min / avg / max / overflow lines;
 *  [4] the overflow cycle numbers per thread (rt-tests prints
 *      "# NNNNN others" for those it did not keep).
 *
 * Context: task (emit may print); the threads must have stopped.
 */
int lat_print_hist(const struct lat_stat *const *st, int n,
		   void (*emit)(void *ctx, const char *line), void *ctx)
{
	u64 total[LAT_MAX_THREADS];
	char line[LAT_LINE_MAX];
	u32 b, nb;
	int i, pos;

	if (n < 1 || n > LAT_MAX_THREADS)	/* [1] */
		return -EINVAL;
	nb = st[0]->nbuckets;
	for (i = 1; i < n; i++)
		if (st[i]->nbuckets != nb)
			return -EINVAL;

	memset(total, 0, sizeof(total));
	emit(ctx, "# Histogram");
	for (b = 0; b < nb; b++) {		/* [2] */
		pos = scnprintf(line, sizeof(line), "%06u ", b);
		for (i = 0; i < n; i++) {
			pos += scnprintf(line + pos, sizeof(line) - pos,
					 "%s%06u", i ? "\t" : "",
					 st[i]->buckets[b]);
			total[i] += st[i]->buckets[b];
		}
		emit(ctx, line);
	}

	pos = scnprintf(line, sizeof(line), "# Total:");	/* [3] */
	for (i = 0; i < n; i++)
		pos += scnprintf(line + pos, sizeof(line) - pos, " %09llu",
				 (unsigned long long)total[i]);
	emit(ctx, line);
	emit_per_thread(st, n, "Min Latencies", 0, emit, ctx);
	emit_per_thread(st, n, "Avg Latencies", 1, emit, ctx);
	emit_per_thread(st, n, "Max Latencies", 2, emit, ctx);
	emit_per_thread(st, n, "Histogram Overflows", 3, emit, ctx);

	emit(ctx, "# Histogram Overflow at cycle number:");	/* [4] */
	for (i = 0; i < n; i++) {
		u32 k;

		pos = scnprintf(line, sizeof(line), "# Thread %d:", i);
		for (k = 0; k < st[i]->n_outliers; k++)
			pos += scnprintf(line + pos, sizeof(line) - pos,
					 " %05llu",
					 (unsigned long long)st[i]->outliers[k]);
		if (st[i]->overflows > st[i]->n_outliers)
			scnprintf(line + pos, sizeof(line) - pos,
				  " # %05llu others",
				  (unsigned long long)(st[i]->overflows -
						       st[i]->n_outliers));
		emit(ctx, line);
	}
	return 0;
}
