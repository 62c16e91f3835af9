/*
 * kernel/shell/cmd_latbreak.c - `latbreak on|off|show`: the per-stage
 * breakdown of cyclictest's wake-ups (kernel/debug/latbreak.h).
 *
 *	rtk> latbreak on
 *	rtk> load cpu 2
 *	rtk> cyclictest -S -p99 -i1000 -l5000 -q
 *	rtk> latbreak          (or `latbreak show`: the table)
 *
 * `latbreak on` starts over (zeroes the histograms).
 * Linux counterpart: none as one command (the timerlat tracer and the
 * irq/hrtimer/sched tracepoints, docs/latency.md).
 */
#include "kernel/debug/latbreak.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"
#include "lib/string.h"

static void emit_console(void *ctx, const char *line)
{
	(void)ctx;
	console_printf("%s\n", line);
}

static int cmd_latbreak(int argc, char **argv)
{
	if (argc > 2)
		return shell_usage("latbreak [on|off|show]");
	if (argc == 1 || !strcmp(argv[1], "show")) {
		latbreak_print(emit_console, NULL);
		return 0;
	}
	if (!strcmp(argv[1], "on")) {
		int err = latbreak_on();

		if (err)
			console_printf("latbreak: %d\n", err);
		return err;
	}
	if (!strcmp(argv[1], "off")) {
		latbreak_off();
		return 0;
	}
	return shell_usage("latbreak [on|off|show]");
}
SHELL_COMMAND(latbreak, "per-stage breakdown of cyclictest wake-ups: on|off|show",
	      cmd_latbreak);
