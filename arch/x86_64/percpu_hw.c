/*
 * arch/x86_64/percpu_hw.c - set up each CPU's copy of the per-CPU template
 * and point its GS base at it (the addressing is explained in
 * arch/x86_64/percpu_hw.h).
 *
 * Life of the boot CPU's per-CPU data:
 *	arch_cpu_init()		GS base 0: %gs:var is the template itself
 *	percpu_init_bsp()	copy of the template (with whatever was written
 *				so far), GS base = copy - __percpu_start
 * An AP's copy is made by the boot CPU (percpu_alloc_cpu()) before the
 * AP is started; the AP loads its GS base (percpu_load_cpu()) before any
 * C code that could touch per-CPU data.
 * Linux counterpart: arch/x86/kernel/setup_percpu.c setup_per_cpu_areas(),
 * arch/x86/kernel/cpu/common.c (load of MSR_GS_BASE in cpu_init).  rtk
 * leaves out NUMA placement and the first-chunk embedding.
 */
#include "kernel/percpu.h"
#include "kernel/mm/pmm.h"
#include "kernel/panic.h"
#include "kernel/printk.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

extern char __percpu_start[], __percpu_end[];

unsigned long __per_cpu_offset[NR_CPUS];
DEFINE_PER_CPU(unsigned long, this_cpu_off);
DEFINE_PER_CPU(int, cpu_number);

unsigned long percpu_area_size(void)
{
	return (unsigned long)(__percpu_end - __percpu_start);
}

/* percpu_area_order - page order of one copy (at least one page, so the
 * copy keeps the template's 64-byte alignment). */
static unsigned int percpu_area_order(void)
{
	unsigned long pages = DIV_ROUND_UP(percpu_area_size(), PAGE_SIZE);
	unsigned int order = 0;

	while ((1UL << order) < pages)
		order++;
	return order;
}

/*
 * percpu_alloc_cpu - see kernel/percpu.h.
 * Context: boot CPU; never sleeps.  Locking: none; called during the
 * serial bring-up only, before CPU cpu runs.
 */
int percpu_alloc_cpu(int cpu)
{
	unsigned long offset;
	char *area;

	if (cpu < 0 || cpu >= NR_CPUS)
		return -EINVAL;
	if (__per_cpu_offset[cpu])
		return -EEXIST;
	BUG_ON(percpu_area_order() > PMM_MAX_ORDER);
	area = alloc_pages(percpu_area_order());
	if (!area)
		return -ENOMEM;
	memcpy(area, __percpu_start, percpu_area_size());
	offset = (unsigned long)area - (unsigned long)__percpu_start;
	/* Through the offset, as per_cpu() will: checks the arithmetic. */
	*(unsigned long *)((unsigned long)&this_cpu_off + offset) = offset;
	*(int *)((unsigned long)&cpu_number + offset) = cpu;
	/* Publish last: per_cpu() of cpu names the template until here. */
	__atomic_store_n(&__per_cpu_offset[cpu], offset, __ATOMIC_RELEASE);
	return 0;
}

/*
 * percpu_load_cpu - see kernel/percpu.h.
 * Context: CPU cpu itself, interrupts off.
 */
void percpu_load_cpu(int cpu)
{
	BUG_ON(cpu < 0 || cpu >= NR_CPUS || !__per_cpu_offset[cpu]);
	BUG_ON(read_rflags() & X86_EFLAGS_IF);
	arch_percpu_set_base(__per_cpu_offset[cpu]);
}

/*
 * percpu_init_bsp - see kernel/percpu.h.  Checks that the GS-relative
 * accessors now reach the copy, not the template.
 * Context: boot CPU, once, interrupts off, after mm_init().
 */
void __init percpu_init_bsp(void)
{
	int err;

	BUG_ON(read_rflags() & X86_EFLAGS_IF);
	err = percpu_alloc_cpu(0);
	if (err)
		panic("percpu: no memory for the boot CPU's copy (%d)", err);
	percpu_load_cpu(0);
	if (this_cpu_read(this_cpu_off) != __per_cpu_offset[0] ||
	    this_cpu_ptr(&cpu_number) != per_cpu_ptr(&cpu_number, 0) ||
	    raw_smp_processor_id() != 0)
		panic("percpu: %%gs-relative access misses the boot CPU's "
		      "copy");
	pr_info("percpu: %lu bytes per CPU, boot CPU copy at %#lx\n",
		percpu_area_size(),
		(unsigned long)__percpu_start + __per_cpu_offset[0]);
}
