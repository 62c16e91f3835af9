/*
 * kernel/shell/cmd_latency.c - `latency`: the maxima of the article's
 * timing options (kernel/debug/latency_timing.h) with their call sites;
 * `latency reset` starts them over (the article's
 * `echo 0 > /proc/sys/kernel/preempt_max_latency`).
 *
 * Linux counterpart: /proc/sys/kernel/preempt_max_latency and
 * wakeup_timing of the 2.6-rt patch; today's tracing_max_latency and the
 * irqsoff / preemptoff / wakeup_rt tracers' headers.
 */
#include "kernel/debug/latency_timing.h"
#include "kernel/debug/latency_trace.h"
#include "kernel/ksyms.h"
#include "kernel/printk.h"
#include "kernel/shell/shell.h"
#include "lib/errno.h"
#include "lib/string.h"

static const char *const option_names[LATENCY_NR_KINDS] = {
	[LATENCY_PREEMPT_OFF] = "CRITICAL_PREEMPT_TIMING",
	[LATENCY_IRQS_OFF] = "CRITICAL_IRQSOFF_TIMING",
	[LATENCY_WAKEUP] = "WAKEUP_TIMING",
};

/* print_site - "    <what> name+0x1f/0x80 (from caller+0x10/0x40)" */
static void print_site(const char *what, unsigned long ip,
		       unsigned long parent)
{
	char a[96], b[96];

	ksym_snprint(a, sizeof(a), ip);
	if (parent) {
		ksym_snprint(b, sizeof(b), parent);
		console_printf("    %s %s (from %s)\n", what, a, b);
	} else {
		console_printf("    %s %s\n", what, a);
	}
}

static void show_kind(enum latency_kind k)
{
	struct latency_record r;
	const char *name = latency_kind_name(k);

	if (!latency_kind_enabled(k)) {
		console_printf("%s: not built (make %s=1 or LATENCY_TIMING=1)\n", name,
		       option_names[k]);
		return;
	}
	if (!latency_timing_read(k, -1, &r)) {
		console_printf("%s: none since boot or reset\n", name);
		return;
	}
	if (k == LATENCY_WAKEUP) {
		console_printf("%s: max %llu.%03llu us on CPU %d for %s (pid %d, prio %d)\n",
		       name, (unsigned long long)r.ns / 1000,
		       (unsigned long long)r.ns % 1000, r.cpu, r.comm, r.pid,
		       r.prio);
		print_site("woken by", r.start_ip, r.start_parent);
		print_site("ran from", r.end_ip, r.end_parent);
		return;
	}
	console_printf("%s: max %llu.%03llu us on CPU %d, begun by %s (pid %d)\n", name,
	       (unsigned long long)r.ns / 1000,
	       (unsigned long long)r.ns % 1000, r.cpu, r.comm, r.pid);
	print_site("began at", r.start_ip, r.start_parent);
	print_site("ended at", r.end_ip, r.end_parent);
}

/* cmd_latency - see the file header.  Context: task (the shell). */
static int cmd_latency(int argc, char **argv)
{
	int k, built = 0;

	for (k = 0; k < LATENCY_NR_KINDS; k++)
		built += latency_kind_enabled(k);
	if (argc == 2 && !strcmp(argv[1], "reset")) {
		if (!built) {
			console_printf("latency: nothing to reset, no timer is "
				       "built (make LATENCY_TIMING=1)\n");
			return 0;
		}
		latency_timing_reset();
		console_printf("latency: maxima reset\n");
		return 0;
	}
	if (argc >= 2 && (!strcmp(argv[1], "trace") ||
			  !strcmp(argv[1], "thresh")))
		return latency_trace_cmd(argc, argv);	/* LATENCY_TRACE */
	if (argc != 1) {
		console_printf("usage: latency [reset|trace|thresh [US]]\n");
		return -EINVAL;
	}
	for (k = 0; k < LATENCY_NR_KINDS; k++)
		show_kind(k);
	return 0;
}
SHELL_COMMAND(latency, "longest preempt-off, irqs-off, wakeup (latency reset)",
	      cmd_latency);
