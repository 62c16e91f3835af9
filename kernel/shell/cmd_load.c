/*
 * kernel/shell/cmd_load.c - the `load` command: start, list and stop the
 * background loads of kernel/workloads/load.h.
 *
 *	load lockhog 2 2000	load rawhog 1 500	load irqoff 1 100
 *	load lockbreak 2 2000	(lockhog with cond_resched_lock every µs)
 *	load hackbench 2	load irq 1000		load cpu 2
 *	load hackbench 2 8	(each message also costs 8 µs of CPU)
 *	load			(list)
 *	load stop [ID]
 */
#include "kernel/workloads/load.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"
#include "lib/string.h"

static void emit_console(void *ctx, const char *line)
{
	console_printf("%s\n", line);
}

#define LOAD_USAGE "load [lockhog|lockbreak|rawhog|irqoff N US | hackbench N [US] | irq HZ |" \
		   " cpu N | stop [ID]]"

static int load_stop_cmd(int argc, char **argv)
{
	long id = 0;
	int ret;

	if (argc > 3)
		return shell_usage(LOAD_USAGE);
	if (argc == 3 && shell_parse_long("load", "ID", argv[2], 1, 0x7fffffff,
					  &id))
		return -EINVAL;
	ret = load_stop((int)id);
	if (ret == -ENOENT) {
		if (id)
			console_printf("load: no load %ld (`load` lists them)\n",
				       id);
		else
			console_printf("load: nothing to stop\n");
		return 0;
	}
	if (ret < 0)
		return ret;
	if (id)
		console_printf("load: stopped load %ld\n", id);
	else
		console_printf("load: stopped %d load%s\n", ret,
			       ret == 1 ? "" : "s");
	return 0;
}

/* cmd_load - [1] list; [2] stop; [3] check the kind and its numbers
 * against load.h's limits; [4] start.  Context: task (the shell), sleeps
 * when starting/stopping. */
static int cmd_load(int argc, char **argv)
{
	int kind, nargs, ret;
	long n, us = 0;

	if (argc == 1) {					/* [1] */
		if (!load_count())
			console_printf("no loads running\n");
		else
			console_printf("id kind           n section\n");
		load_show(emit_console, NULL);
		return 0;
	}
	if (!strcmp(argv[1], "stop"))				/* [2] */
		return load_stop_cmd(argc, argv);
	kind = load_kind_parse(argv[1]);			/* [3] */
	if (kind < 0) {
		console_printf("load: unknown kind '%s' (lockhog, lockbreak, "
			       "rawhog, irqoff, hackbench, irq, cpu, stop)\n", argv[1]);
		return shell_usage(LOAD_USAGE);
	}
	nargs = kind <= LOAD_IRQOFF ? 4 : 3;
	if (kind == LOAD_HACKBENCH && argc == 4)
		nargs = 4;	/* the optional per-message cost */
	if (argc != nargs)
		return shell_usage(LOAD_USAGE);
	if (shell_parse_long("load", kind == LOAD_IRQ ? "HZ" : "N", argv[2], 1,
			     load_max_n(kind), &n))
		return -EINVAL;
	if (kind <= LOAD_IRQOFF &&
	    shell_parse_long("load", "US", argv[3], 1, LOAD_US_MAX, &us))
		return -EINVAL;
	if (kind == LOAD_HACKBENCH && argc == 4 &&
	    shell_parse_long("load", "US", argv[3], 0, LOAD_US_MAX, &us))
		return -EINVAL;
	if (load_count() >= LOAD_MAX) {
		console_printf("load: %d loads already running (load stop "
			       "[ID])\n", LOAD_MAX);
		return -EBUSY;
	}
	ret = load_start(kind, (int)n, (int)us);		/* [4] */
	if (ret < 0)
		return ret;
	console_printf("load %d: %s started\n", ret, load_kind_name(kind));
	return 0;
}
SHELL_COMMAND(load,
	      "background loads: lockhog|lockbreak|rawhog|irqoff N US, hackbench N [US], irq HZ, cpu N, stop",
	      cmd_load);
