/*
 * kernel/workloads/cyclictest.c - the cyclictest engine (see cyclictest.h).
 *
 * Each measuring thread is a SCHED_FIFO kthread:
 *	next = now + interval
 *	loop: sleep until next (absolute); lat = now - next; record;
 *	      next += interval, then on by whole periods while now > next
 * exactly rt-tests' timerthread() with clock_nanosleep(TIMER_ABSTIME):
 * the deadline never drifts with the latency, so each sample is the
 * time from the timer's due moment to the thread running; and a wake-up
 * later than a whole period is one sample, the periods it missed are
 * skipped (cyclictest_next_deadline()), not recorded again as immediate
 * extra samples of the same stall.
 *
 * The caller (the shell, SCHED_OTHER) only watches: it prints the
 * summary, polls for ctrl-C and the -D limit, then stops the threads
 * with kthread_stop() and prints the result.  The threads' statistics
 * are written by their thread only; the caller reads them racily while
 * they run (a live summary may be torn, as in rt-tests) and exactly
 * after kthread_stop().
 *
 * Output after rt-tests' main(): the live summary is printed unless -q;
 * at the end, rt-tests prints the "T:" lines only for -q without -h
 * ("if (quiet && !histogram) print_stat(...)"), its last live refresh
 * standing for them otherwise, then print_hist() for -h.  So -q -h
 * prints the histogram block alone; rtk prints the final "T:" lines
 * also without -q, as the last refresh it has no cursor to overwrite.
 * Left out of the output: the "policy: fifo: loadavg: ..." line and the
 * cursor-up escape before each live refresh (rtk has no load average
 * and a serial log is read, not watched), and the blank line rt-tests
 * ends the -h block with.  A thread with no sample shows Min 0 where
 * rt-tests shows its start value 1000000.
 */
#include "kernel/workloads/cyclictest.h"
#include "kernel/debug/latbreak.h"
#include "lib/latency_hist.h"
#include "kernel/time/hrtimer_sleep.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/wait.h"
#include "kernel/mm/slab.h"
#include "kernel/smp.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"
#include "lib/vsnprintf.h"

#define POLL_MS 50		/* ctrl-C reaction time */
#define SUMMARY_MS 1000		/* live summary period without -q */

struct ct_thread {
	struct lat_stat stat;		/* written by the thread only */
	struct task_struct *task;	/* NULL: not started */
	u64 loops;			/* 0: endless */
	s64 interval_ns;
	bool done;			/* loops reached (thread writes) */
	struct cyclictest_probe *probe;	/* thread 0 in self-tests, or NULL */
};

/* ct_thread_fn - the measuring loop.  Context: kthread, SCHED_FIFO. */
static int ct_thread_fn(void *arg)
{
	struct ct_thread *ct = arg;
	struct cyclictest_probe *pr = ct->probe;
	ktime_t next, now;

	if (pr)
		pr->start_cyc = arch_clock_cycles();
	next = ktime_get() + ct->interval_ns;
	while (!kthread_should_stop()) {
		if (ct->loops && ct->stat.cycles >= ct->loops) {
			WRITE_ONCE(ct->done, true);
			/* park until kthread_stop() (it holds our pointer) */
			set_current_state(TASK_INTERRUPTIBLE);
			if (!kthread_should_stop())
				schedule();
			__set_current_state(TASK_RUNNING);
			continue;
		}
		schedule_hrtimeout_abs(next);
		now = ktime_get();
		latbreak_sample(next, now);
		if (pr && pr->n < pr->max)
			pr->wake_cyc[pr->n++] = arch_clock_cycles();
		lat_stat_add_ns(&ct->stat, now - next);
		next = cyclictest_next_deadline(next, now, ct->interval_ns);
	}
	return 0;
}

static void emit_summary(struct ct_thread *th, int n,
			 void (*emit)(void *ctx, const char *line), void *ctx)
{
	char line[LAT_LINE_MAX];
	int i;

	for (i = 0; i < n; i++) {
		lat_format_thread(line, sizeof(line), i, &th[i].stat);
		emit(ctx, line);
	}
}

static bool all_done(struct ct_thread *th, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!READ_ONCE(th[i].done))
			return false;
	return true;
}

/*
 * cyclictest_run - [1] allocate thread state and buckets, each thread's
 * priority and period by rt-tests' rule (cyclictest_thread_prio() and
 * _interval(): -d apart unless -h); [2] create, bind, set SCHED_FIFO
 * and start each thread; [3] watch until loops,
 * -D, or should_stop(); [4] stop the threads; [5] print: the "T:"
 * lines unless -q -h, then the -h block; [6] free.
 */
int cyclictest_run(const struct cyclictest_opts *o,
		   void (*emit)(void *ctx, const char *line), void *ctx,
		   bool (*should_stop)(void), struct cyclictest_probe *probe)
{
	const struct lat_stat *st[LAT_MAX_THREADS];
	struct ct_thread *th;
	ktime_t start, end, last_summary;
	int i, n = o->threads, ret = 0;

	might_sleep();
	if (n < 1 || n > LAT_MAX_THREADS)
		return -EINVAL;
	th = kzalloc(n * sizeof(*th), GFP_KERNEL);		/* [1] */
	if (!th)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		u32 *b = NULL;

		if (o->hist_us) {
			b = kmalloc(o->hist_us * sizeof(*b), GFP_KERNEL);
			if (!b) {
				ret = -ENOMEM;
				goto out_free;
			}
		}
		lat_stat_init(&th[i].stat, b, b ? o->hist_us : 0);
		th[i].stat.prio = cyclictest_thread_prio(o, i);
		th[i].stat.interval_us = cyclictest_thread_interval(o, i);
		th[i].loops = o->loops;
		th[i].interval_ns =
			(s64)th[i].stat.interval_us * NSEC_PER_USEC;
		st[i] = &th[i].stat;
	}
	if (probe) {
		probe->n = 0;
		th[0].probe = probe;
	}

	for (i = 0; i < n; i++) {				/* [2] */
		struct sched_param sp = { .sched_priority = th[i].stat.prio };
		struct task_struct *p;

		p = kthread_create(ct_thread_fn, &th[i], "cyclictest/%d", i);
		if (!p) {
			ret = -ENOMEM;
			goto out_stop;
		}
		if (o->affinity == CT_AFFINITY_SPREAD)
			kthread_bind(p, nth_online_cpu(i));
		else if (o->affinity >= 0)
			kthread_bind(p, o->affinity);
		ret = sched_setscheduler(p, SCHED_FIFO, &sp);
		th[i].stat.tid = p->pid;
		th[i].task = p;
		wake_up_process(p);
		if (ret)
			goto out_stop;
	}

	start = last_summary = ktime_get();			/* [3] */
	end = o->duration_s ? start + (s64)o->duration_s * NSEC_PER_SEC : 0;
	for (;;) {
		ktime_t now;

		msleep(POLL_MS);
		now = ktime_get();
		if (o->loops && all_done(th, n))
			break;
		if (end && now >= end)
			break;
		if (should_stop && should_stop())
			break;
		if (!o->quiet && now - last_summary >= SUMMARY_MS * NSEC_PER_MSEC) {
			emit_summary(th, n, emit, ctx);
			last_summary = now;
		}
	}

out_stop:
	for (i = 0; i < n; i++)					/* [4] */
		if (th[i].task)
			kthread_stop(th[i].task);
	if (!ret) {						/* [5] */
		if (!o->quiet || !o->hist_us)
			emit_summary(th, n, emit, ctx);
		if (o->hist_us)
			ret = lat_print_hist(st, n, emit, ctx);
	}
out_free:
	for (i = 0; i < n; i++)					/* [6] */
		kfree(th[i].stat.buckets);
	kfree(th);
	return ret;
}
