/*
 * kernel/shell/cmd_pi_stress.c - `pi_stress [--groups N] [--duration S]
 * [--compat]`: rt-tests' pi_stress (kernel/workloads/pi_stress.h).  Groups
 * default to one per online CPU, the duration to 10 s (0: until
 * ctrl-C); --compat uses a compat_semaphore (no priority inheritance),
 * which shows the inversion (unresolved > 0, result=FAIL).  Prints
 * "Current Inversions: N" about every second, rt-tests' totals and the
 * verdict line
 *	pi_stress-verdict: groups=<n> inversions=<n> unresolved=<n>
 *	deadlocks=<n> result=PASS|FAIL
 * Linux counterpart: rt-tests' pi_stress --groups --duration.
 */
#include "kernel/workloads/pi_stress.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/string.h"

#define PI_STRESS_USAGE "pi_stress [--groups N] [--duration S] [--compat]"
#define PI_STRESS_DEFAULT_SECONDS 10
#define PI_STRESS_MAX_SECONDS (24 * 3600)

static void emit_console(void *ctx, const char *line)
{
	console_printf("%s\n", line);
}

/* cmd_pi_stress - Context: task (the shell), sleeps. */
static int cmd_pi_stress(int argc, char **argv)
{
	struct pi_stress_opts o = { .seconds = PI_STRESS_DEFAULT_SECONDS };
	struct pi_stress_result res;
	char verdict[128];
	long v;
	int i, ret;

	might_sleep();
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--compat")) {
			o.compat = true;
		} else if (!strcmp(argv[i], "--groups") && i + 1 < argc) {
			ret = shell_parse_long("pi_stress", "N", argv[++i], 1,
					       PI_STRESS_MAX_GROUPS, &v);
			if (ret)
				return ret;
			o.groups = v;
		} else if (!strcmp(argv[i], "--duration") && i + 1 < argc) {
			ret = shell_parse_long("pi_stress", "S", argv[++i], 0,
					       PI_STRESS_MAX_SECONDS, &v);
			if (ret)
				return ret;
			o.seconds = v;
		} else {
			return shell_usage(PI_STRESS_USAGE);
		}
	}
	o.should_stop = shell_interrupted;
	o.emit = emit_console;
	console_printf("Starting PI Stress Test\n");
	console_printf("Number of thread groups: %d (%s)\n",
		       o.groups ? o.groups : num_online_cpus(),
		       o.compat ? "compat_semaphore, no PI" : "rt_mutex, PI");
	console_printf("Duration of test run: %s%u seconds\n",
		       o.seconds ? "" : "until ctrl-C, ", o.seconds);
	ret = pi_stress_run(&o, &res);
	if (ret && ret != -EDEADLK)
		return ret;
	console_printf("Total inversion performed: %lu\n", res.inversions);
	console_printf("Resolved: %lu  Unresolved (high waited for medium): "
		       "%lu  Deadlocked groups: %d\n",
		       res.resolved, res.unresolved, res.deadlocks);
	console_printf("Test Duration: %u seconds, %lu iterations\n",
		       res.seconds, res.iterations);
	console_printf("%s\n", pi_stress_verdict(verdict, sizeof(verdict),
						 &res));
	if (o.compat && res.unresolved)
		console_printf("pi_stress: the FAIL is the point of --compat: "
			       "no priority inheritance, so medium ran while "
			       "high waited\n");
	return 0;
}
SHELL_COMMAND(pi_stress, PI_STRESS_USAGE, cmd_pi_stress);
