/*
 * kernel/shell/cmd_load.c - the `load` command: start, list and stop the
 * background loads of kernel/debug/load.h.
 *
 *	load lockhog 2 2000	load rawhog 1 500	load irqoff 1 100
 *	load hackbench 2	load irq 1000		load cpu 2
 *	load			(list)
 *	load stop [ID]
 */
#include "kernel/debug/load.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"
#include "lib/string.h"

static void emit_console(void *ctx, const char *line)
{
	console_printf("%s\n", line);
}

static int parse_int(const char *s, int *out)
{
	long v;
	int ret = kstrtol(s, 10, &v);

	if (ret)
		return ret;
	if (v < 0 || v > 0x7fffffff)
		return -ERANGE;
	*out = (int)v;
	return 0;
}

static int usage(void)
{
	console_printf("usage: load [lockhog|rawhog|irqoff N US | hackbench N |"
		       " irq HZ | cpu N | stop [ID]]\n");
	return -EINVAL;
}

/* cmd_load - Context: task (the shell), sleeps when starting/stopping. */
static int cmd_load(int argc, char **argv)
{
	int kind, n, us = 0, ret;

	if (argc == 1) {
		if (!load_count())
			console_printf("no loads running\n");
		else
			console_printf("id kind           n section\n");
		load_show(emit_console, NULL);
		return 0;
	}
	if (!strcmp(argv[1], "stop")) {
		n = 0;
		if (argc > 2 && parse_int(argv[2], &n))
			return usage();
		ret = load_stop(n);
		if (ret == -ENOENT) {
			console_printf("load: nothing to stop\n");
			return 0;
		}
		if (ret > 0)
			console_printf("load: stopped %d\n", ret);
		return ret < 0 ? ret : 0;
	}
	kind = load_kind_parse(argv[1]);
	if (kind < 0 || argc < 3 || parse_int(argv[2], &n))
		return usage();
	if (kind <= LOAD_IRQOFF && (argc < 4 || parse_int(argv[3], &us)))
		return usage();
	ret = load_start(kind, n, us);
	if (ret < 0)
		return ret;
	console_printf("load %d: %s started\n", ret, load_kind_name(kind));
	return 0;
}
SHELL_COMMAND(load,
	      "background loads: lockhog|rawhog|irqoff N US, hackbench N, irq HZ, cpu N, stop",
	      cmd_load);
