/*
 * kernel/workloads/cyclictest.h - rt-tests' cyclictest inside the kernel:
 * measuring kthreads that sleep on absolute high-resolution deadlines
 * and record now - deadline on each wake-up.
 *
 * The engine is separate from the shell command
 * (kernel/shell/cmd_cyclictest.c) so that a self-test can run it and
 * read its output lines (tests/kernel/test_cyclictest.c).
 * Linux counterpart: rt-tests src/cyclictest/cyclictest.c timerthread()
 * and main(); rtk's threads are kthreads, their sleep
 * schedule_hrtimeout_abs() (kernel/time/hrtimer_sleep.h).
 */
#ifndef KERNEL_WORKLOADS_CYCLICTEST_H
#define KERNEL_WORKLOADS_CYCLICTEST_H

#include "lib/cyclictest_opts.h"

/*
 * struct cyclictest_probe - a self-test's independent view of thread 0:
 * raw clock-counter reads (arch_clock_cycles(), the TSC) taken next to
 * the engine's own ktime_get() calls, so the test can rebuild each
 * deadline as start + k * interval and each latency from cycles alone,
 * without the engine's arithmetic (tests/kernel/test_cyclictest.c).
 * Written by thread 0 only; read after cyclictest_run() returned.
 */
struct cyclictest_probe {
	u64 start_cyc;		/* read just before the first deadline's
				 * ktime_get() */
	u64 *wake_cyc;		/* [max]: read just after each wake-up's
				 * ktime_get() */
	u64 max;		/* capacity of wake_cyc */
	u64 n;			/* entries written */
};

/*
 * cyclictest_run - run the measurement o describes and emit its output,
 * one line per emit() call, as rt-tests does:
 *	no -q:     a summary block ("T:" lines) per second and at the end,
 *	           then with -h the histogram block;
 *	-q:        nothing while running; at the end the "T:" lines, or
 *	           with -h only the histogram block (its Min/Avg/Max lines
 *	           are the summary).
 * should_stop() (may be NULL) is polled about every 50 ms: true ends
 * the run early (ctrl-C), and what was measured is still printed.
 * probe (NULL but in self-tests) records thread 0's raw clock reads.
 * Returns 0, -ENOMEM, or the error of a thread that could not start.
 * Context: task, sleeps; the caller's priority should be below o->prio.
 */
int cyclictest_run(const struct cyclictest_opts *o,
		   void (*emit)(void *ctx, const char *line), void *ctx,
		   bool (*should_stop)(void), struct cyclictest_probe *probe);

#endif /* KERNEL_WORKLOADS_CYCLICTEST_H */
