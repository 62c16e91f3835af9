/*
 * kernel/shell/cmd_bench.c - `bench`: the micro-benchmark figures
 * (kernel/workloads/bench.h), in the same "# bench:" lines the bench suite
 * prints, so tools/bench.py reads either.
 *
 *	bench		every figure, in table order
 *	bench NAME	one figure (bench list: the names)
 * ctrl-C stops `bench` between two figures.
 * Linux counterpart: none.
 */
#include "kernel/shell/shell.h"
#include "kernel/workloads/bench.h"
#include "kernel/printk.h"
#include "kernel/version.h"
#include "lib/errno.h"
#include "lib/string.h"

static void bench_one(int i)
{
	struct bench_result res;
	int rc = bench_run(i, &res);

	bench_print("", bench_name(i), rc, &res);
	if (rc == 0 && res.bad)
		console_printf("  (%d samples flagged: %s)\n", res.bad,
			       res.note ? res.note : "");
}

static int cmd_bench(int argc, char **argv)
{
	int i;

	if (argc > 2) {
		console_printf("usage: bench [NAME|list]\n");
		return -EINVAL;
	}
	if (argc == 2 && !strcmp(argv[1], "list")) {
		for (i = 0; i < bench_count(); i++)
			console_printf("  %s\n", bench_name(i));
		return 0;
	}
	if (argc == 2) {
		i = bench_find(argv[1]);
		if (i < 0) {
			console_printf("bench: no figure '%s' (bench list)\n",
				       argv[1]);
			return i;
		}
		bench_one(i);
		return 0;
	}
	console_printf("bench: PREEMPT_%s, median and max per figure\n",
		       RTK_PREEMPT_NAME);
	for (i = 0; i < bench_count(); i++) {
		if (shell_interrupted()) {
			console_printf("bench: interrupted (%d of %d figures)\n",
				       i, bench_count());
			return -EINTR;
		}
		bench_one(i);
	}
	return 0;
}
SHELL_COMMAND(bench, "micro-benchmarks: bench [NAME|list] (median/max, ns and cycles)",
	      cmd_bench);
