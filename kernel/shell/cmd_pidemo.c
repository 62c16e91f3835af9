/*
 * kernel/shell/cmd_pidemo.c - `pidemo [trace] [section_ms [b_ms]]`: the
 * article's priority inversion (kernel/locking/pidemo.h), with a PI lock
 * and with a lock without PI, for B running b_ms and 2 * b_ms; prints
 * how long the high-priority C waited each time.
 *
 * With `trace` the run is recorded into the scheduling trace
 * (kernel/debug/sched_trace.h): started before the first run, stopped
 * after the last, so `trace dump` then shows pidemo-A boosted to
 * pidemo-C's prio in the PI runs (boost / deboost events) and preempted
 * by pidemo-B in the others; tools/trace2json.py makes it a
 * Chrome/Perfetto trace.
 */
#include "kernel/shell/shell.h"
#include "kernel/locking/pidemo.h"
#include "kernel/debug/sched_trace.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/errno.h"

static int cmd_pidemo(int argc, char **argv)
{
	long section_ms = 20, b_ms = 100;
	int cpu = num_online_cpus() - 1, k, ret = 0;
	bool trace = argc > 1 && !strcmp(argv[1], "trace");
	s64 with, without;

	if (trace) {
		argc--;
		argv++;
	}
	if ((argc > 1 && (kstrtol(argv[1], 10, &section_ms) || section_ms < 1)) ||
	    (argc > 2 && (kstrtol(argv[2], 10, &b_ms) || b_ms < 1)) ||
	    argc > 3) {
		console_printf("usage: pidemo [trace] [section_ms [b_ms]]\n");
		return -EINVAL;
	}
	if (trace && sched_trace_start()) {
		console_printf("pidemo: no memory for the trace\n");
		return -ENOMEM;
	}
	console_printf("pidemo: PREEMPT_%s, CPU %d: A (FIFO 10) holds the lock "
		       "for %ld ms of work, B (FIFO 20) spins, C (FIFO 30) "
		       "needs the lock\n", RTK_PREEMPT_NAME, cpu, section_ms);
	for (k = 1; k <= 2; k++) {
		s64 b_ns = k * b_ms * NSEC_PER_MSEC;

		with = pidemo_run(true, cpu, section_ms * NSEC_PER_MSEC, b_ns);
		without = pidemo_run(false, cpu, section_ms * NSEC_PER_MSEC, b_ns);
		if (with < 0 || without < 0) {
			ret = -ENOMEM;
			goto out_trace;
		}
		console_printf("  B runs %4ld ms: C waited %4lld.%03lld ms with PI "
			       "(rt_mutex), %4lld.%03lld ms without PI\n",
			       k * b_ms, with / NSEC_PER_MSEC,
			       (with % NSEC_PER_MSEC) / 1000,
			       without / NSEC_PER_MSEC,
			       (without % NSEC_PER_MSEC) / 1000);
	}
	if (!ret && !PREEMPT_ON_IRQ_RETURN)
		console_printf("pidemo: under PREEMPT_%s nothing preempts A in "
			       "its section: C asks for the lock only after A "
			       "dropped it, so there is no inversion to bound "
			       "(the article's \"suppressing preemption\"); C's "
			       "delay is the rest of A's section, spent waiting "
			       "to run, which cyclictest shows\n",
			       RTK_PREEMPT_NAME);
out_trace:
	if (trace) {
		sched_trace_stop();
		console_printf("pidemo: recorded; `trace show`, or `trace dump` "
			       "into tools/trace2json.py\n");
	}
	return ret;
}
SHELL_COMMAND(pidemo,
	      "priority inversion demo: C's wait with and without PI; "
	      "pidemo [trace] [section_ms [b_ms]]",
	      cmd_pidemo);
