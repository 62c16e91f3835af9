/*
 * kernel/smp.h - which CPUs exist and are online; the portable face of
 * SMP (the machine side is arch/x86_64/smp*.c).
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include "lib/types.h"
#include "lib/bitmap.h"
#include "kernel/percpu.h"	/* NR_CPUS, smp_processor_id() */

typedef struct {
	u64 bits;
} cpumask_t;

/* cpu_online_mask - bit n set once CPU n runs its idle loop.  Written by
 * the booting CPU, read anywhere (atomic 64-bit accesses). */
extern cpumask_t cpu_online_mask;
extern int nr_cpu_ids;	/* CPUs found (possible), online or not */

static inline int num_online_cpus(void)
{
	/* hweight_long, not __builtin_popcountll: without -mpopcnt gcc
	 * calls libgcc's __popcountdi2, which a freestanding kernel lacks. */
	return hweight_long(__atomic_load_n(&cpu_online_mask.bits,
					    __ATOMIC_RELAXED));
}

static inline bool cpu_online(int cpu)
{
	return (__atomic_load_n(&cpu_online_mask.bits, __ATOMIC_RELAXED) >>
		cpu) & 1;
}

static inline void set_cpu_online(int cpu, bool online)
{
	if (online)
		__atomic_fetch_or(&cpu_online_mask.bits, 1ULL << cpu,
				  __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_and(&cpu_online_mask.bits, ~(1ULL << cpu),
				   __ATOMIC_SEQ_CST);
}

#define for_each_online_cpu(cpu)                                             \
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)                            \
		if (cpu_online(cpu))

#endif /* KERNEL_SMP_H */
