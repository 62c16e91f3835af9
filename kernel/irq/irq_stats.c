/*
 * kernel/irq/irq_stats.c - readers of the per-CPU interrupt counts (the
 * `irqs` shell command, the irq suite).
 * Linux counterpart: kernel/irq/proc.c show_interrupts(), kstat_irqs_cpu().
 */
#include "kernel/irq/irq_stats.h"
#include "lib/compiler.h"

DEFINE_PER_CPU(u64[IRQ_STAT_VECTORS], irq_vector_count);

u64 irq_stat_count(int cpu, unsigned int vector)
{
	if (cpu < 0 || cpu >= NR_CPUS || vector >= IRQ_STAT_VECTORS)
		return 0;
	return READ_ONCE((*per_cpu_ptr(&irq_vector_count, cpu))[vector]);
}

u64 irq_stat_cpu_total(int cpu)
{
	u64 sum = 0;

	for (unsigned int v = 0; v < IRQ_STAT_VECTORS; v++)
		sum += irq_stat_count(cpu, v);
	return sum;
}
