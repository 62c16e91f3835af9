/*
 * kernel/irq/irq_stats.c - readers of the per-CPU interrupt counts (the
 * `irqs` shell command, the irq suite).  A line's per-CPU count is its
 * vector's count: arch_handle_irq counts every vector once, so the
 * per-CPU timer line costs no second counter on the tick path.
 * Linux counterpart: kernel/irq/proc.c show_interrupts(),
 * kernel/irq/irqdesc.c kstat_irqs_cpu(), kstat_irqs().
 */
#include "kernel/irq/irq_stats.h"
#include "kernel/smp.h"
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

u64 kstat_irqs_cpu(unsigned int irq, int cpu)
{
	if (irq >= ARCH_NR_IRQS)
		return 0;
	return irq_stat_count(cpu, (unsigned int)arch_irq_to_vector(irq));
}

u64 kstat_irqs(unsigned int irq)
{
	u64 sum = 0;
	int cpu;

	for_each_online_cpu(cpu)
		sum += kstat_irqs_cpu(irq, cpu);
	return sum;
}
