/*
 * kernel/shell/cmd_irq.c - `irqs` (alias `irq`): interrupt counts per
 * vector and CPU, one row per vector that fired anywhere, like Linux's
 * /proc/interrupts; the vector's meaning comes from the machine
 * (arch_irq_vector_name).
 * Linux counterpart: kernel/irq/proc.c show_interrupts(),
 * arch/x86/kernel/irq.c arch_show_interrupts().
 */
#include "kernel/shell/shell.h"
#include "kernel/printk.h"
#include "kernel/irq/irq_stats.h"
#include "kernel/smp.h"
#include "kernel/time/tick.h"
#include "arch/x86_64/arch.h"

static int cmd_irqs(int argc, char **argv)
{
	int cpu;

	(void)argc;
	(void)argv;
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
		console_printf("  %s\n", arch_irq_vector_name((int)v));
	}
	console_printf("%6s", "ticks");
	for_each_online_cpu(cpu)
		console_printf(" %12llu", (unsigned long long)tick_count(cpu));
	console_printf("  (HZ=%d, jiffies %llu)\n", HZ,
		       (unsigned long long)READ_ONCE(jiffies));
	return 0;
}
SHELL_COMMAND(irqs, "interrupt counts per vector and CPU", cmd_irqs);
SHELL_COMMAND(irq, "same as irqs", cmd_irqs);
