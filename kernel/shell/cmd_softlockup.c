/*
 * kernel/shell/cmd_softlockup.c - `softlockup`: the DETECT_SOFTLOCKUP
 * watchdog's state (kernel/debug/softlockup.h).
 *
 *	softlockup		threshold, per-CPU time since it scheduled,
 *				reports so far and the last one
 *	softlockup thresh MS	set the threshold (the article's
 *				softlockup_thresh)
 */
#include "kernel/debug/softlockup.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/string.h"


/* cmd_softlockup - Context: task (the shell). */
static int cmd_softlockup(int argc, char **argv)
{
	struct softlockup_report r;
	long ms;
	int cpu, ret;

	if (argc == 3 && !strcmp(argv[1], "thresh")) {
		if (shell_parse_long("softlockup", "thresh", argv[2],
				     SOFTLOCKUP_MIN_THRESH_MS,
				     SOFTLOCKUP_MAX_THRESH_MS, &ms))
			return -EINVAL;
		ret = softlockup_set_thresh_ms((u64)ms);
		if (!ret)
			console_printf("softlockup: threshold %ld ms\n", ms);
		return ret;
	}
	if (argc != 1) {
		console_printf("usage: softlockup [thresh MS]\n");
		return -EINVAL;
	}
	console_printf("softlockup: %s, threshold %llu ms\n",
		       softlockup_running() ? "watching" : "off (DETECT_SOFTLOCKUP=0)",
		       (unsigned long long)softlockup_thresh_ms());
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			console_printf("  CPU%d: last scheduled %llu ms ago\n", cpu,
				       (unsigned long long)softlockup_stuck_ms(cpu));
	r = softlockup_last();
	console_printf("  reports: %lu", softlockup_reports());
	if (r.cpu >= 0)
		console_printf(", last CPU#%d [%s:%d] stuck %llu ms", r.cpu,
			       r.comm, r.pid, (unsigned long long)r.stuck_ms);
	console_printf("\n");
	return 0;
}
SHELL_COMMAND(softlockup, "soft-lockup watchdog: state, thresh MS",
	      cmd_softlockup);
