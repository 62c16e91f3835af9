/*
 * kernel/shell/cmd_cyclictest.c - the `cyclictest` command: rt-tests'
 * cyclictest flags (lib/cyclictest_opts.h) and output
 * (lib/latency_hist.h), run by kernel/workloads/cyclictest.c;
 * ctrl-C stops a run and prints what it measured.
 *
 *	cyclictest -S -p99 -i1000 -l20000 -q
 *	cyclictest -t 2 -a 1 -D 10s -h 200
 *	cyclictest -t 3 -l 100		(P:99 I:1000, P:99 I:1500, P:99 I:2000)
 */
#include "kernel/workloads/cyclictest.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "kernel/smp.h"
#include "lib/errno.h"

static void emit_console(void *ctx, const char *line)
{
	console_printf("%s\n", line);
}

/* cmd_cyclictest - Context: task (the shell), sleeps. */
static int cmd_cyclictest(int argc, char **argv)
{
	struct cyclictest_opts o;
	char err[128];
	int ret;

	ret = cyclictest_parse(argc, argv, num_online_cpus(), &o, err,
			       sizeof(err));
	if (ret) {
		console_printf("%s\n", err);
		return ret;
	}
	if (o.distance_ignored)
		console_printf("WARN: distance is ignored and set to 0, if histogram enabled\n");
	if (!o.loops && !o.duration_s)
		console_printf("# cyclictest: running until ctrl-C\n");
	return cyclictest_run(&o, emit_console, NULL, shell_interrupted, NULL);
}
SHELL_COMMAND(cyclictest,
	      "rt-tests cyclictest: -S -t N -a CPU -p PRIO -i US -d US -l N -D T -h US -q --priospread (rest: lib/cyclictest_opts.h)",
	      cmd_cyclictest);
