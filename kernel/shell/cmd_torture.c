/*
 * kernel/shell/cmd_torture.c - the `torture` command: run a torture kind
 * (kernel/workloads/torture.h) in the foreground; ctrl-C ends it early.
 *
 *	torture lock TYPE [S]	one lock type (spinlock raw_spinlock rwlock
 *				rt_mutex semaphore rwsem seqlock
 *				percpu_locked) for S seconds
 *	torture lock [S]	every lock type at once
 *	torture rcu|sched|timer|all [S]
 *
 * The run itself prints the statistics (every torture.stat_interval
 * seconds and at the end) and the one verdict line
 *	torture-verdict: kind=K seconds=S ops=N errors=E result=PASS|FAIL
 * Linux counterpart: the locktorture/rcutorture module parameters
 * (torture_type=, shutdown_secs=), from a shell instead of modprobe.
 */
#include "kernel/workloads/torture.h"
#include "kernel/sched/wait.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

#define TORTURE_USAGE                                                        \
	"torture lock [TYPE] [SECONDS] | rcu|sched|timer|all [SECONDS]"
#define TORTURE_DEFAULT_SECONDS 10
#define TORTURE_POLL_MS 50	/* ctrl-C latency */

static bool is_number(const char *s)
{
	return *s >= '0' && *s <= '9';
}

/* cmd_torture - [1] the kind and duration from the words, [2] start,
 * [3] poll for the end and for ctrl-C, [4] collect the summary.
 * Context: task (the shell), sleeps for the whole run. */
static int cmd_torture(int argc, char **argv)
{
	char kind[32];
	long seconds = TORTURE_DEFAULT_SECONDS;
	struct torture_summary sum;
	int i = 2, ret;

	if (argc < 2)							/* [1] */
		return shell_usage(TORTURE_USAGE);
	if (!strcmp(argv[1], "lock") && argc > 2 && !is_number(argv[2]))
		scnprintf(kind, sizeof(kind), "lock:%s", argv[i++]);
	else
		strscpy(kind, argv[1], sizeof(kind));
	if (argc > i + 1)
		return shell_usage(TORTURE_USAGE);
	if (argc == i + 1 && shell_parse_long("torture", "SECONDS", argv[i], 1,
					      TORTURE_MAX_SECONDS, &seconds))
		return -EINVAL;
	ret = torture_start(kind, (unsigned int)seconds);		/* [2] */
	if (ret == -EINVAL) {
		console_printf("torture: unknown kind '%s'; kinds: %s\n", kind,
			       torture_kinds_help());
		return shell_usage(TORTURE_USAGE);
	}
	if (ret == -EBUSY) {
		console_printf("torture: a run is active already\n");
		return ret;
	}
	if (ret) {
		console_printf("torture: could not start %s: error %d\n", kind,
			       ret);
		return ret;
	}
	console_printf("torture: %s for %ld s (ctrl-C stops)\n", kind, seconds);
	while (!torture_done()) {					/* [3] */
		if (shell_interrupted()) {
			console_printf("torture: stopping\n");
			torture_stop();
		}
		msleep(TORTURE_POLL_MS);
	}
	ret = torture_wait(&sum);					/* [4] */
	console_printf("torture: %s ran %u s, %lu ops, %lu errors\n", sum.kind,
		       sum.seconds, sum.ops, sum.errors);
	return ret == -EIO ? 0 : ret;	/* the verdict line says FAIL */
}
SHELL_COMMAND(torture,
	      "torture tests: lock [TYPE], rcu, sched, timer, all [SECONDS]",
	      cmd_torture);
