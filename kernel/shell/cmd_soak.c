/*
 * kernel/shell/cmd_soak.c - `soak SECONDS`: the soak (kernel/debug/
 * soak.h): loads, torture, pi_stress, cyclictest and the pitest scripts
 * together for SECONDS, then the one line
 *	soak-verdict: model=<m> cpus=<n> seconds=<s> ... result=PASS|FAIL
 * The parts print their own verdict lines as they end.  Not stopped by
 * ctrl-C: every part ends by itself after SECONDS.
 * Linux counterpart: none (see soak.h).
 */
#include "kernel/workloads/soak.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"

/* cmd_soak - Context: task (the shell), sleeps. */
static int cmd_soak(int argc, char **argv)
{
	struct soak_result res;
	long s;
	int ret;

	might_sleep();
	if (argc != 2)
		return shell_usage("soak SECONDS");
	ret = shell_parse_long("soak", "SECONDS", argv[1], 1, SOAK_MAX_SECONDS,
			       &s);
	if (ret)
		return ret;
	ret = soak_run(s, &res);
	if (ret)
		console_printf("soak: could not run: %d\n", ret);
	return ret;
}
SHELL_COMMAND(soak, "soak SECONDS: torture, loads, pi_stress, cyclictest, pitest at once",
	      cmd_soak);
