/*
 * kernel/shell/cmd_pidemo.c - `pidemo [trace] [section_ms [b_ms]]`: the
 * article's priority inversion (kernel/workloads/pidemo.h), with a PI lock
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
#include "kernel/workloads/pidemo.h"
#include "kernel/debug/sched_trace.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/errno.h"

/* A run takes up to section_ms + 2 * b_ms.  Under none and voluntary
 * neither A's section nor B's spin schedules: keep each under the
 * soft-lockup watchdog's 10 s default (kernel/debug/softlockup.c). */
#define PIDEMO_MAX_SECTION_MS 5000
#define PIDEMO_MAX_B_MS 2500
#define PIDEMO_USAGE "pidemo [trace] [section_ms [b_ms]]   " \
		     "(section_ms 1..5000, b_ms 1..2500)"

static void print_ms(const char *what, s64 ns)
{
	console_printf("%4lld.%03lld ms %s", ns / NSEC_PER_MSEC,
		       (ns % NSEC_PER_MSEC) / 1000, what);
}

/*
 * cmd_pidemo - [1] parse; [2] for B running b_ms and 2 * b_ms, one run
 * with PI and one without, each followed by a ctrl-C check (a run is up
 * to 10 s); [3] what the model means.  Context: task (the shell).
 */
static int cmd_pidemo(int argc, char **argv)
{
	long section_ms = 20, b_ms = 100;
	int cpu = num_online_cpus() - 1, k, ret = 0;
	bool trace = argc > 1 && !strcmp(argv[1], "trace");
	s64 with, without;

	if (trace) {						/* [1] */
		argc--;
		argv++;
	}
	if (argc > 3)
		return shell_usage(PIDEMO_USAGE);
	if (argc > 1 && shell_parse_long("pidemo", "section_ms", argv[1], 1,
					 PIDEMO_MAX_SECTION_MS, &section_ms))
		return -EINVAL;
	if (argc > 2 && shell_parse_long("pidemo", "b_ms", argv[2], 1,
					 PIDEMO_MAX_B_MS, &b_ms))
		return -EINVAL;
	if (trace && sched_trace_start()) {
		console_printf("pidemo: no memory for the trace\n");
		return -ENOMEM;
	}
	console_printf("pidemo: PREEMPT_%s, CPU %d: A (FIFO 10) holds the lock "
		       "for %ld ms of work, B (FIFO 20) spins, C (FIFO 30) "
		       "needs the lock\n", RTK_PREEMPT_NAME, cpu, section_ms);
	for (k = 1; k <= 2; k++) {				/* [2] */
		s64 b_ns = k * b_ms * NSEC_PER_MSEC;
		bool intr;

		with = pidemo_run(true, cpu, section_ms * NSEC_PER_MSEC, b_ns);
		intr = shell_interrupted();
		without = intr || with < 0 ? 0 :
			pidemo_run(false, cpu, section_ms * NSEC_PER_MSEC, b_ns);
		if (with < 0 || without < 0) {
			ret = -ENOMEM;
			goto out_trace;
		}
		console_printf("  B runs %4ld ms: C waited ", k * b_ms);
		print_ms("with PI (rt_mutex)", with);
		if (intr) {
			console_printf("; the run without PI not done\n");
			goto out_intr;
		}
		console_printf(", ");
		print_ms("without PI\n", without);
		if (k < 2 && shell_interrupted())
			goto out_intr;
	}
	if (!PREEMPT_ON_IRQ_RETURN)				/* [3] */
		console_printf("pidemo: under PREEMPT_%s nothing preempts A in "
			       "its section: C asks for the lock only after A "
			       "dropped it, so there is no inversion to bound "
			       "(the article's \"suppressing preemption\"); C's "
			       "delay is the rest of A's section, spent waiting "
			       "to run, which cyclictest shows\n",
			       RTK_PREEMPT_NAME);
	goto out_trace;
out_intr:
	console_printf("pidemo: interrupted\n");
	ret = -EINTR;
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
