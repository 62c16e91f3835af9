/*
 * kernel/irq/irq_stats.h - per-CPU, per-vector interrupt counts (what
 * Linux shows in /proc/interrupts), kept by the arch entry code, and
 * per-CPU counts of a line read through its vector.
 */
#ifndef KERNEL_IRQ_IRQ_STATS_H
#define KERNEL_IRQ_IRQ_STATS_H

#include "kernel/percpu.h"

#define IRQ_STAT_VECTORS 256

DECLARE_PER_CPU(u64[IRQ_STAT_VECTORS], irq_vector_count);

/* irq_stat_inc - count one interrupt on vector on this CPU.
 * Context: hardirq (interrupts off: a plain increment is safe). */
static inline void irq_stat_inc(unsigned int vector)
{
	(*this_cpu_ptr(&irq_vector_count))[vector % IRQ_STAT_VECTORS]++;
}

/* irq_stat_count - interrupts CPU cpu took on vector.  Context: any
 * (another CPU's count may be a moment old). */
u64 irq_stat_count(int cpu, unsigned int vector);

/* kstat_irqs_cpu - interrupts CPU cpu took on line irq (the count of
 * the line's vector: a per-CPU line's only count).  Context: any. */
u64 kstat_irqs_cpu(unsigned int irq, int cpu);

/* kstat_irqs - kstat_irqs_cpu summed over the online CPUs. */
u64 kstat_irqs(unsigned int irq);

/* irq_stat_cpu_total - every vector's count summed for CPU cpu. */
u64 irq_stat_cpu_total(int cpu);

#endif /* KERNEL_IRQ_IRQ_STATS_H */
