/*
 * kernel/shell/cmd_trace.c - `trace start|stop|show|dump`: the
 * scheduling trace (kernel/debug/sched_trace.h).  `show` prints the
 * events merged in time order with times relative to the first;
 * `dump` prints the raw lines tools/trace2json.py reads, between
 * "# sched_trace dump begin" and "# sched_trace dump end".
 *
 * Linux counterpart: trace-cmd record/report, /sys/kernel/tracing/trace.
 */
#include "kernel/debug/sched_trace.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"
#include "lib/string.h"

struct show_ctx {
	bool raw;		/* dump: the lines as they are */
	u64 t0;			/* show: the first event's time */
	u64 n;
};

static int print_event(const struct st_event *e, void *arg)
{
	struct show_ctx *c = arg;
	char line[256];

	sched_trace_format(line, sizeof(line), e);
	if (c->raw) {
		console_printf("%s\n", line);
	} else {
		u64 us;

		if (!c->n)
			c->t0 = e->ns;
		us = (e->ns - c->t0) / 1000;
		/* skip "ST <ns> " : show the relative time instead */
		console_printf("%8llu.%03llu ms %s\n",
			       (unsigned long long)us / 1000,
			       (unsigned long long)us % 1000,
			       strchr(strchr(line, ' ') + 1, ' ') + 1);
	}
	c->n++;
	return 0;
}

/* cmd_trace - see the file header.  Context: task (the shell). */
static int cmd_trace(int argc, char **argv)
{
	struct show_ctx c = { 0 };
	int ret;

	if (argc == 2 && !strcmp(argv[1], "start")) {
		ret = sched_trace_start();
		console_printf(ret ? "trace: no memory\n" : "trace: recording\n");
		return ret;
	}
	if (argc == 2 && !strcmp(argv[1], "stop")) {
		sched_trace_stop();
		console_printf("trace: stopped\n");
		return 0;
	}
	if (argc == 2 && (!strcmp(argv[1], "show") || !strcmp(argv[1], "dump"))) {
		c.raw = argv[1][0] == 'd';
		if (c.raw)
			console_printf("# sched_trace dump begin\n");
		sched_trace_for_each(print_event, &c);
		console_printf("# sched_trace %s end events=%llu lost=%llu\n",
			       c.raw ? "dump" : "show",
			       (unsigned long long)c.n,
			       (unsigned long long)sched_trace_lost());
		return 0;
	}
	console_printf("usage: trace start|stop|show|dump\n");
	return -EINVAL;
}
SHELL_COMMAND(trace, "scheduling trace: start|stop|show|dump", cmd_trace);
