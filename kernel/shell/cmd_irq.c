/*
 * kernel/shell/cmd_irq.c - `irqs` (alias `irq`): interrupt counts per
 * vector and CPU, one row per vector that fired anywhere, like Linux's
 * /proc/interrupts; the vector's meaning comes from the machine
 * (arch_irq_vector_name).  Then one row per requested line: its
 * handlers, and under rt its thread irq/N-name with policy and priority
 * (`ps` and `chrt` see the same task); a per-CPU line (the local timer,
 * SA_NODELAY) with its count on each CPU.  `irqs prio N PRIO` makes line N's
 * thread SCHED_FIFO PRIO.
 * Linux counterpart: kernel/irq/proc.c show_interrupts(),
 * arch/x86/kernel/irq.c arch_show_interrupts().
 */
#include "kernel/shell/shell.h"
#include "kernel/printk.h"
#include "kernel/irq/irq_stats.h"
#include "kernel/irq/irqdesc.h"
#include "kernel/irq/manage.h"
#include "kernel/sched/sched.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/smp.h"
#include "kernel/time/tick.h"
#include "arch/x86_64/arch.h"

/* vector_line_name - the handler name of the requested line on vector,
 * or "" (the drivers name their lines in request_irq). */
static const char *vector_line_name(unsigned int vector,
				    struct irq_line_info *info)
{
	for (unsigned int irq = 0; irq < NR_IRQS; irq++)
		if (arch_irq_to_vector(irq) == (int)vector)
			return irq_get_line_info(irq, info) ? info->name : "";
	return "";
}

/* print_irq_lines - one row per requested line. */
static void print_irq_lines(void)
{
	struct irq_line_info info;

	console_printf("%4s %10s %-14s %-6s %-16s %6s %s\n", "irq", "count",
		       "handler", "mode", "thread", "pid", "policy/prio");
	for (unsigned int irq = 0; irq < NR_IRQS; irq++) {
		if (!irq_get_line_info(irq, &info))
			continue;
		console_printf("%4u %10llu %-14s %-6s", irq,
			       (unsigned long long)info.count, info.name,
			       info.thread_pid ? "thread" : "hardirq");
		if (info.thread_pid)
			console_printf(" %-16s %6d %s/%d", info.thread_name,
				       info.thread_pid,
				       sched_policy_name(info.thread_policy),
				       info.thread_prio);
		else
			console_printf(" %-16s %6s %s", "-", "-",
				       info.flags & SA_NODELAY ? "SA_NODELAY"
							       : "-");
		if (info.percpu) {
			int cpu;

			console_printf("  per-CPU:");
			for_each_online_cpu(cpu)
				console_printf(" CPU%d %llu", cpu,
					       (unsigned long long)
						       kstat_irqs_cpu(irq, cpu));
		}
		if (info.nr_actions > 1)
			console_printf("  (+%d shared)", info.nr_actions - 1);
		if (info.depth)
			console_printf("  disabled");
		if (info.unhandled)
			console_printf("  unhandled %llu",
				       (unsigned long long)info.unhandled);
		console_printf("\n");
	}
}

/* cmd_irqs_prio - `irqs prio N PRIO`: line N's thread to SCHED_FIFO PRIO. */
static int cmd_irqs_prio(int argc, char **argv)
{
	long irq, prio;
	int err;

	if (argc != 4)
		return shell_usage("irqs prio IRQ PRIO   (PRIO 1..99)");
	if (shell_parse_long("irqs", "IRQ", argv[2], 0, NR_IRQS - 1, &irq) ||
	    shell_parse_long("irqs", "PRIO", argv[3], 1, MAX_USER_RT_PRIO - 1,
			     &prio))
		return -EINVAL;
	err = irq_thread_set_prio((unsigned int)irq, (int)prio);
	if (err == -ENOENT)
		console_printf("irqs: irq %ld has no thread (not requested, "
			       "SA_NODELAY, or not PREEMPT_RT)\n", irq);
	else if (err)
		console_printf("irqs: irq %ld prio %ld: error %d\n", irq, prio,
			       err);
	else
		console_printf("irq %ld thread now SCHED_FIFO %ld\n", irq, prio);
	return err;
}

static int cmd_irqs(int argc, char **argv)
{
	struct irq_line_info info;
	int cpu;

	if (argc > 1 && strcmp(argv[1], "prio") == 0)
		return cmd_irqs_prio(argc, argv);
	if (argc > 1) {
		console_printf("usage: irqs [prio IRQ PRIO]\n");
		return -EINVAL;
	}
	console_printf("%6s", "vector");
	for_each_online_cpu(cpu)
		console_printf(" %10s%-2d", "CPU", cpu);
	console_printf("\n");
	for (unsigned int v = 32; v < IRQ_STAT_VECTORS; v++) {
		u64 any = 0;

		for_each_online_cpu(cpu)
			any |= irq_stat_count(cpu, v);
		if (!any)
			continue;
		console_printf("  0x%02x", v);
		for_each_online_cpu(cpu)
			console_printf(" %12llu",
				       (unsigned long long)irq_stat_count(cpu, v));
		console_printf("  %s  %s\n", arch_irq_vector_name((int)v),
			       vector_line_name(v, &info));
	}
	console_printf("%6s", "ticks");
	for_each_online_cpu(cpu)
		console_printf(" %12llu", (unsigned long long)tick_count(cpu));
	console_printf("  (HZ=%d, jiffies %llu)\n", HZ,
		       (unsigned long long)READ_ONCE(jiffies));
	print_irq_lines();
	return 0;
}
SHELL_COMMAND(irqs, "interrupt counts; lines, irq threads; irqs prio N PRIO",
	      cmd_irqs);
SHELL_COMMAND(irq, "same as irqs", cmd_irqs);
