/*
 * kernel/shell/cmd_sysctl.c - `sysctl`: the kernel settings Linux keeps
 * under /proc/sys, read and written as sysctl(8) does.
 *
 *	sysctl [-a]		every setting, "name = value"
 *	sysctl NAME		one
 *	sysctl [-w] NAME=VALUE	set it (then printed as read back)
 *
 * The settings, with Linux's names, units and defaults:
 *	kernel.sched_rt_period_us	1000000	RT throttling period
 *	kernel.sched_rt_runtime_us	950000	RT time per period, -1: no
 *						throttling
 * (kernel/sched/rt_bandwidth.h).  /proc/sys/kernel/ is to reach the same
 * calls once rtk has a /proc.
 * Linux counterpart: procps sysctl(8); kernel/sysctl.c (the table),
 * kernel/sched/rt.c sched_rt_handler.
 */
#include "kernel/sched/rt_bandwidth.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"
#include "lib/string.h"

/* the settings are C ints, as Linux's proc_dointvec ones */
#define SYSCTL_INT_MAX 2147483647L
#define SYSCTL_INT_MIN (-SYSCTL_INT_MAX - 1)

enum sysctl_key { RT_PERIOD, RT_RUNTIME, NR_KEYS };

static const char *const key_names[NR_KEYS] = {
	[RT_PERIOD] = "kernel.sched_rt_period_us",
	[RT_RUNTIME] = "kernel.sched_rt_runtime_us",
};

static long sysctl_read(enum sysctl_key key)
{
	int period, runtime;

	sched_rt_bandwidth_get(&period, &runtime);
	return key == RT_PERIOD ? period : runtime;
}

/* sysctl_write - set one of the pair, keeping the other.  Returns
 * sched_rt_bandwidth_set's result (-EINVAL: Linux's rules). */
static int sysctl_write(enum sysctl_key key, long val)
{
	int period, runtime;

	sched_rt_bandwidth_get(&period, &runtime);
	if (key == RT_PERIOD)
		period = (int)val;
	else
		runtime = (int)val;
	return sched_rt_bandwidth_set(period, runtime);
}

static int find_key(const char *name)
{
	for (int i = 0; i < NR_KEYS; i++)
		if (!strcmp(name, key_names[i]))
			return i;
	/* sysctl(8) reports the file it could not open */
	console_printf("sysctl: cannot stat /proc/sys/%s: No such file or "
		       "directory\n", name);
	return -ENOENT;
}

static void show(enum sysctl_key key)
{
	console_printf("%s = %ld\n", key_names[key], sysctl_read(key));
}

/* cmd_sysctl - [1] no name or -a: list; [2] NAME=VALUE: set, print;
 * [3] NAME: print.  Context: task (the shell). */
static int cmd_sysctl(int argc, char **argv)
{
	char *arg, *eq;
	long val;
	int key, err;

	if (argc == 1 || (argc == 2 && !strcmp(argv[1], "-a"))) {	/* [1] */
		for (key = 0; key < NR_KEYS; key++)
			show(key);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "-w"))
		arg = argv[2];
	else if (argc == 2)
		arg = argv[1];
	else
		return shell_usage("sysctl [-a] | NAME | [-w] NAME=VALUE");
	eq = strchr(arg, '=');
	if (eq)
		*eq = '\0';
	key = find_key(arg);
	if (key < 0)
		return key;
	if (eq) {							/* [2] */
		if (shell_parse_long("sysctl", arg, eq + 1, SYSCTL_INT_MIN,
				     SYSCTL_INT_MAX, &val))
			return -EINVAL;
		err = sysctl_write(key, val);
		if (err) {
			console_printf("sysctl: setting key \"%s\": Invalid "
				       "argument\n", arg);
			return err;
		}
	}
	show(key);							/* [3] */
	return 0;
}
SHELL_COMMAND(sysctl, "kernel settings: sysctl [-a] | NAME | [-w] NAME=VALUE "
		      "(kernel.sched_rt_runtime_us=-1)",
	      cmd_sysctl);
