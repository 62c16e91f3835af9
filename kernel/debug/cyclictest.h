/*
 * kernel/debug/cyclictest.h - rt-tests' cyclictest inside the kernel:
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
#ifndef KERNEL_DEBUG_CYCLICTEST_H
#define KERNEL_DEBUG_CYCLICTEST_H

#include "kernel/debug/cyclictest_opts.h"

/*
 * cyclictest_run - run the measurement o describes and emit its output,
 * one line per emit() call: without -q a summary block per second, at
 * the end the per-thread "T:" lines, then with -h the histogram block.
 * should_stop() (may be NULL) is polled about every 50 ms: true ends
 * the run early (ctrl-C), and what was measured is still printed.
 * Returns 0, -ENOMEM, or the error of a thread that could not start.
 * Context: task, sleeps; the caller's priority should be below o->prio.
 */
int cyclictest_run(const struct cyclictest_opts *o,
		   void (*emit)(void *ctx, const char *line), void *ctx,
		   bool (*should_stop)(void));

#endif /* KERNEL_DEBUG_CYCLICTEST_H */
