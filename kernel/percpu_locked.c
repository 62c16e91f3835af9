/*
 * kernel/percpu_locked.c - initialisation of the per-CPU locks behind
 * DEFINE_PER_CPU_LOCKED (kernel/percpu_locked.h).
 *
 * Each DEFINE_PER_CPU_LOCKED leaves a struct percpu_locked_desc in the
 * .percpu_locked section (linker.ld collects it between
 * __percpu_locked_start and __percpu_locked_end).  The per-CPU copies are
 * memcpy'd from the template at bring-up (arch/x86_64/percpu_hw.c), which
 * would leave every CPU's rt_mutex wait list pointing at the template's;
 * so the locks are initialised here, through per_cpu_ptr(), once every
 * CPU has its copy.  rtk has no CPU hotplug: no copy is made after this.
 * Linux counterpart: none (the PREEMPT_RT patch used static
 * initialisers, which Linux's per-CPU setup copies the same way; its
 * spinlock_t held no self-pointers in the fast path it cared about).
 */
#include "kernel/percpu_locked.h"
#include "kernel/printk.h"
#include "kernel/sched/preempt.h"
#include "lib/bug.h"

extern const struct percpu_locked_desc __percpu_locked_start[],
	__percpu_locked_end[];

bool __percpu_locked_ready;

unsigned long percpu_locked_nr_defined(void)
{
	return (unsigned long)(__percpu_locked_end - __percpu_locked_start);
}

/*
 * percpu_locked_init - see kernel/percpu_locked.h.  No one can hold one
 * of these locks yet: get_per_cpu_locked() BUGs before the ready flag
 * (set with release, pairs with the acquire in percpu_locked_is_ready).
 * Context: boot task, once, may not be called with the locks in use.
 */
void __init percpu_locked_init(void)
{
	const struct percpu_locked_desc *d;
	int cpus = 0;

	BUG_ON(percpu_locked_is_ready());
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!__per_cpu_offset[cpu])
			continue;	/* no copy: per_cpu() names the template */
		cpus++;
		for (d = __percpu_locked_start; d < __percpu_locked_end; d++)
			__spin_lock_init(per_cpu_ptr(d->lock, cpu), d->label,
					 d->file, d->line);
	}
	__atomic_store_n(&__percpu_locked_ready, true, __ATOMIC_RELEASE);
	pr_info("percpu_locked: %lu per-CPU locks on %d CPUs\n",
		percpu_locked_nr_defined(), cpus);
}
