/*
 * user/cyclictest.c - rt-tests' cyclictest as a user program: the same
 * options and output as rtk's in-kernel command (kernel/shell/
 * cmd_cyclictest.c), measured from user space as rt-tests measures.
 *
 * The options are parsed, and the statistics kept and printed, by the
 * kernel's own pure code, built again for user space (user/user.mk):
 * lib/cyclictest_opts.c (cyclictest_parse, the per-thread
 * priority and interval, cyclictest_next_deadline) and
 * lib/latency_hist.c (the "T:" line and the -h block), so the
 * two cyclictests cannot drift apart.
 *
 * Each measuring thread, rt-tests' timerthread() with
 * clock_nanosleep(TIMER_ABSTIME):
 *	[1] pin itself (-a / -S), become SCHED_FIFO at its priority
 *	[2] next = now + interval
 *	[3] clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next)
 *	[4] now = clock_gettime(CLOCK_MONOTONIC); sample = now - next
 *	[5] next = cyclictest_next_deadline(next, now, interval): a wake-up
 *	    late by whole periods is one sample, the missed periods are
 *	    skipped (as the in-kernel cyclictest and rt-tests do)
 *	[6] until -l loops, or the main thread's stop flag
 * The sample therefore includes everything between the timer's expiry
 * and the thread running again in user space: the interrupt, the
 * wake-up, the switch and the return to user mode.
 *
 * The main thread stays SCHED_OTHER and only watches (every 50 ms: all
 * done, -D reached), printing the live "T:" lines each second unless -q,
 * then the final lines (unless -q -h) and the -h block: the in-kernel
 * command's rules (kernel/workloads/cyclictest.c).  rtk has no signals yet:
 * a run without -l or -D ends when the process is killed, and prints
 * nothing more.
 */
#include "user/lib/ulib.h"
#include "user/lib/clock.h"
#include "user/lib/pthread.h"
#include "lib/cyclictest_opts.h"
#include "lib/latency_hist.h"

#define POLL_MS 50		/* the watcher's period */
#define SUMMARY_MS 1000		/* live summary period without -q */

struct ct_thread {
	struct lat_stat stat;		/* written by the thread only */
	const struct cyclictest_opts *o;
	int index;
	int cpu;			/* -1: not pinned */
	s64 interval_ns;
	pthread_t thread;
	int error;			/* set-up failure, negative errno */
	const char *failed_call;	/* ... of this call */
	bool done;			/* loops reached, or failed */
};

static struct ct_thread threads[LAT_MAX_THREADS];
static bool stop;			/* main -> threads: leave the loop */

static void *ct_thread_fn(void *arg)
{
	struct ct_thread *ct = arg;
	s64 next, now;
	int ret = 0;

	ct->stat.tid = gettid();
	if (ct->cpu >= 0) {					/* [1] */
		ret = pin_self_to_cpu(ct->cpu);
		ct->failed_call = "sched_setaffinity";
	}
	if (!ret) {
		ret = set_self_fifo(ct->stat.prio);
		ct->failed_call = "sched_setscheduler";
	}
	if (ret) {
		ct->error = ret;
		__atomic_store_n(&ct->done, true, __ATOMIC_RELEASE);
		return NULL;
	}
	next = clock_now_ns(CLOCK_MONOTONIC) + ct->interval_ns;	/* [2] */
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {	/* [6] */
		if (ct->o->loops && ct->stat.cycles >= ct->o->loops)
			break;
		clock_sleep_until_ns(CLOCK_MONOTONIC, next);	/* [3] */
		now = clock_now_ns(CLOCK_MONOTONIC);		/* [4] */
		lat_stat_add_ns(&ct->stat, now - next);
		next = cyclictest_next_deadline(next, now,	/* [5] */
						ct->interval_ns);
	}
	__atomic_store_n(&ct->done, true, __ATOMIC_RELEASE);
	return NULL;
}

static void emit(void *ctx, const char *line)
{
	printf("%s\n", line);
}

static void emit_summary(int n)
{
	char line[LAT_LINE_MAX];

	for (int i = 0; i < n; i++) {
		lat_format_thread(line, sizeof(line), i, &threads[i].stat);
		emit(NULL, line);
	}
}

static bool all_done(int n)
{
	for (int i = 0; i < n; i++)
		if (!__atomic_load_n(&threads[i].done, __ATOMIC_ACQUIRE))
			return false;
	return true;
}

/* alloc_buckets - n zeroed u32 from an anonymous mapping (no malloc) */
static u32 *alloc_buckets(u32 n)
{
	void *p = mmap(NULL, n * sizeof(u32), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return mmap_failed(p) ? NULL : p;
}

int main(int argc, char **argv)
{
	const struct lat_stat *st[LAT_MAX_THREADS];
	struct cyclictest_opts o;
	s64 start, end, now, last_summary;
	char err[128];
	int i, n, ret;

	ret = cyclictest_parse(argc, argv, nr_cpus_allowed(), &o, err,
			       sizeof(err));
	if (ret) {
		printf("%s\n", err);
		return 1;
	}
	if (o.distance_ignored)
		printf("WARN: distance is ignored and set to 0, if histogram enabled\n");
	if (!o.loops && !o.duration_s)
		printf("# cyclictest: running until killed\n");
	n = o.threads;
	for (i = 0; i < n; i++) {
		struct ct_thread *ct = &threads[i];
		u32 *b = NULL;

		if (o.hist_us && !(b = alloc_buckets(o.hist_us)))
			die("no memory for the -h %u histogram", o.hist_us);
		lat_stat_init(&ct->stat, b, b ? o.hist_us : 0);
		ct->stat.prio = cyclictest_thread_prio(&o, i);
		ct->stat.interval_us = cyclictest_thread_interval(&o, i);
		ct->interval_ns = (s64)ct->stat.interval_us * NSEC_PER_USEC;
		ct->o = &o;
		ct->index = i;
		ct->cpu = o.affinity == CT_AFFINITY_SPREAD ? nth_cpu_allowed(i) :
			  o.affinity;
		st[i] = &ct->stat;
		ret = pthread_create(&ct->thread, NULL, ct_thread_fn, ct);
		if (ret)
			die("pthread_create: %s", strerror_name(ret));
	}

	start = last_summary = clock_now_ns(CLOCK_MONOTONIC);
	end = o.duration_s ? start + (s64)o.duration_s * NSEC_PER_SEC : 0;
	for (;;) {
		sleep_ns(POLL_MS * NSEC_PER_MSEC);
		now = clock_now_ns(CLOCK_MONOTONIC);
		if (all_done(n) || (end && now >= end))
			break;
		if (!o.quiet && now - last_summary >= SUMMARY_MS * NSEC_PER_MSEC) {
			emit_summary(n);
			last_summary = now;
		}
	}
	__atomic_store_n(&stop, true, __ATOMIC_RELAXED);
	ret = 0;
	for (i = 0; i < n; i++) {
		pthread_join(threads[i].thread, NULL);
		if (threads[i].error) {
			printf("cyclictest: thread %d: %s: %s\n", i,
			       threads[i].failed_call,
			       strerror_name(threads[i].error));
			ret = 1;
		}
	}
	if (ret)
		return ret;
	if (!o.quiet || !o.hist_us)
		emit_summary(n);
	if (o.hist_us && lat_print_hist(st, n, emit, NULL))
		return 1;
	return 0;
}
