/*
 * kernel/percpu.h - per-CPU variables: the portable API.
 *
 *	DEFINE_PER_CPU(type, name)	a variable with one copy per CPU
 *	DECLARE_PER_CPU(type, name)	its extern declaration for a header
 *	per_cpu(var, cpu)		CPU cpu's copy (an lvalue)
 *	per_cpu_ptr(&var, cpu)		pointer to CPU cpu's copy
 *	this_cpu_ptr(&var)		pointer to this CPU's copy
 *	this_cpu_read(var), this_cpu_write(var, v), this_cpu_add(var, v),
 *	this_cpu_inc(var)		one instruction on this CPU's copy of a
 *					1/2/4/8-byte variable: safe against
 *					interrupts and preemption
 *	smp_processor_id()		this CPU's logical number (0 = boot CPU)
 *	raw_smp_processor_id()		the same, never checked
 *
 * The definitions go to .data.percpu, the template that percpu_init_bsp()
 * and percpu_alloc_cpu() copy for each CPU; the machine side locates a
 * CPU's copy (arch/x86_64/percpu_hw.h: the GS base).  per_cpu() of a CPU
 * whose copy was never allocated names the template.  Anything written
 * before percpu_init_bsp() lands in the template and so becomes every
 * CPU's initial value: only boot-time constants may be written that
 * early.
 * Pointers from this_cpu_ptr() stay valid only while the task cannot
 * migrate (interrupts or preemption off).
 * Linux counterpart: include/linux/percpu-defs.h, include/linux/smp.h
 * (smp_processor_id, debug_smp_processor_id with CONFIG_DEBUG_PREEMPT),
 * mm/percpu.c (rtk copies the whole template instead of chunk allocation:
 * no dynamic per-CPU allocation, no first-chunk embedding).
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "arch/x86_64/arch.h"

#define NR_CPUS 64 /* cpumask_t in kernel/smp.h is one u64 */

#define __percpu_section __section(".data.percpu")

#define DEFINE_PER_CPU(type, name) __percpu_section __typeof__(type) name
#define DECLARE_PER_CPU(type, name) \
	extern __percpu_section __typeof__(type) name

/* __per_cpu_offset[cpu] - CPU cpu's copy minus __percpu_start; 0 (the
 * template) until the copy exists.  Written once per CPU at boot. */
extern unsigned long __per_cpu_offset[NR_CPUS];
/* The running CPU's own offset, in its own copy (0 in the template). */
DECLARE_PER_CPU(unsigned long, this_cpu_off);
/* The running CPU's logical number, in its own copy. */
DECLARE_PER_CPU(int, cpu_number);

#define per_cpu_ptr(ptr, cpu) \
	((__typeof__(ptr))((unsigned long)(ptr) + __per_cpu_offset[(cpu)]))
#define per_cpu(var, cpu) (*per_cpu_ptr(&(var), (cpu)))
#define this_cpu_ptr(ptr)                         \
	((__typeof__(ptr))((unsigned long)(ptr) + \
			   arch_this_cpu_read(this_cpu_off)))

#define this_cpu_read(var)	 arch_this_cpu_read(var)
#define this_cpu_write(var, val) arch_this_cpu_write(var, val)
#define this_cpu_add(var, val)	 arch_this_cpu_add(var, val)
#define this_cpu_inc(var)	 arch_this_cpu_add(var, 1)

#define raw_smp_processor_id() ((int)arch_this_cpu_read(cpu_number))

#ifdef CONFIG_DEBUG_PREEMPT
/* debug_smp_processor_id - smp_processor_id() that reports a caller that
 * could migrate right after reading (kernel/sched/smp_processor_id.c,
 * make DEBUG_PREEMPT=1); smp_processor_id_warnings counts the reports. */
int debug_smp_processor_id(void);
extern unsigned long smp_processor_id_warnings;
#define smp_processor_id() debug_smp_processor_id()
#else
#define smp_processor_id() raw_smp_processor_id()
#endif

/*
 * percpu_init_bsp - give the boot CPU its own copy of the template and
 * point its GS base at it.  Before this call the boot CPU works on the
 * template (GS base 0).
 * Context: boot CPU, once, interrupts off, after mm_init() (needs pages).
 */
void percpu_init_bsp(void);

/*
 * percpu_alloc_cpu - allocate and fill CPU cpu's copy (template values,
 * cpu_number = cpu, this_cpu_off) and record it in __per_cpu_offset[].
 * The CPU itself then loads it with percpu_load_cpu().  Returns 0,
 * -EINVAL for a bad cpu, -EEXIST when it has a copy, -ENOMEM.
 * Context: boot CPU during AP bring-up; never sleeps.
 */
int percpu_alloc_cpu(int cpu);

/* percpu_load_cpu - make this CPU use cpu's copy (load the GS base).
 * Context: the CPU numbered cpu itself, interrupts off. */
void percpu_load_cpu(int cpu);

/* percpu_area_size - bytes in one CPU's copy (the `smp` command). */
unsigned long percpu_area_size(void);

#endif /* KERNEL_PERCPU_H */
