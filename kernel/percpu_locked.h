/*
 * kernel/percpu_locked.h - per-CPU variables guarded by a per-CPU
 * spinlock_t (article, "Per-CPU Variables"; "Preemptible critical
 * sections", approach 2):
 *
 *	DEFINE_PER_CPU_LOCKED(type, name)  per-CPU name##_locked and, next to
 *	DECLARE_PER_CPU_LOCKED(type, name) it, per-CPU spinlock_t name##_lock
 *	get_per_cpu_locked(var, cpu)	take cpu's lock, then cpu's copy (lvalue)
 *	put_per_cpu_locked(var, cpu)	release cpu's lock
 *	per_cpu_lock(var, cpu)		cpu's spinlock_t, as an lvalue
 *	per_cpu_locked(var, cpu)	cpu's copy without locking (the lock is
 *					held already, or an RCU-style read)
 *
 * Why: under PREEMPT_RT a spinlock_t section is preemptible, so
 * "this CPU's data" can no longer be protected by disabling preemption
 * or interrupts (that would be latency again).  Instead the caller names
 * the CPU whose copy it wants, usually raw_smp_processor_id() read once,
 * and takes that copy's sleeping lock: it may then be preempted, and may
 * even migrate, while it works on CPU cpu's data, because the lock and
 * not the CPU is what keeps others out.  No preempt_disable() and no
 * irq disabling is needed.  Under none/voluntary/desktop spinlock_t is
 * the raw lock, so the same code disables preemption for the section,
 * the traditional meaning.  Code shared with hard-irq (SA_NODELAY)
 * handlers cannot use this: they may not take a spinlock_t under rt.
 *
 * Initialisation: kernel/percpu.h gives each CPU a memcpy of the
 * template, so a static spinlock_t initialiser does not survive it under
 * rt (the rt_mutex's wait list points at itself, i.e. at the template).
 * DEFINE_PER_CPU_LOCKED therefore records the lock in the .percpu_locked
 * table and percpu_locked_init() initialises every CPU copy of every
 * such lock once all CPUs have their copies; using one earlier is a BUG.
 *
 * Linux counterpart: the PREEMPT_RT patch's include/linux/percpu.h
 * (DEFINE_PER_CPU_LOCKED, get_cpu_var_locked, put_cpu_var_locked).
 * Mainline replaced this with local_lock_t (include/linux/local_lock.h,
 * local_lock(&pcp->lock)), which always locks *this* CPU's copy and, on
 * rt, pins the task with migrate_disable() instead of naming the CPU.
 */
#ifndef KERNEL_PERCPU_LOCKED_H
#define KERNEL_PERCPU_LOCKED_H

#include "kernel/percpu.h"
#include "kernel/locking/spinlock.h"
#include "lib/bug.h"
#include "lib/compiler.h"

/* One DEFINE_PER_CPU_LOCKED in the .percpu_locked table. */
struct percpu_locked_desc {
	spinlock_t *lock;	/* the template's copy of name##_lock */
	const char *label;	/* "name_lock", for lock reports */
	const char *file;	/* where it was defined */
	int line;
};

/* percpu_locked_is_ready - have the per-CPU locks been initialised? */
extern bool __percpu_locked_ready;
static inline bool percpu_locked_is_ready(void)
{
	return __atomic_load_n(&__percpu_locked_ready, __ATOMIC_ACQUIRE);
}

/* __percpu_locked_check_cpu - cpu has its own per-CPU copy and the locks
 * are initialised: a CPU without a copy would name the template. */
static inline int __percpu_locked_check_cpu(int cpu)
{
	BUG_ON(!percpu_locked_is_ready());
	BUG_ON(cpu < 0 || cpu >= NR_CPUS || !__per_cpu_offset[cpu]);
	return cpu;
}

/*
 * The lock is defined first, so that a leading `static` applies to it
 * (write DEFINE_PER_CPU_LOCKED without one when a DECLARE_ elsewhere
 * refers to it); the table entry is file-local.
 */
#define DECLARE_PER_CPU_LOCKED(type, name)                                   \
	DECLARE_PER_CPU(spinlock_t, name##_lock);                            \
	DECLARE_PER_CPU(type, name##_locked)

#define DEFINE_PER_CPU_LOCKED(type, name)                                    \
	DEFINE_PER_CPU(spinlock_t, name##_lock);                             \
	static const struct percpu_locked_desc __percpu_locked_desc_##name   \
		__used __section(".percpu_locked") __aligned(8) = {          \
			.lock = &name##_lock, .label = #name "_lock",         \
			.file = __FILE__, .line = __LINE__ };                \
	DEFINE_PER_CPU(type, name##_locked)

/* LAB(percpu-locked:get) BEGIN */
#define per_cpu_lock(var, cpu) per_cpu(var##_lock, (cpu))
#define per_cpu_locked(var, cpu) per_cpu(var##_locked, (cpu))

/*
 * get_per_cpu_locked - take CPU cpu's lock of var and yield cpu's copy.
 * Context: under rt task context where sleeping is allowed (preemptible,
 * irqs on; spin_lock warns otherwise); elsewhere any context that could
 * take a spinlock_t.  The caller may migrate meanwhile under rt: cpu is
 * evaluated once and names the copy, not the CPU it runs on.
 * Locking: takes per_cpu_lock(var, cpu); put_per_cpu_locked releases it.
 */
#define get_per_cpu_locked(var, cpu)                                         \
	(*({                                                                 \
		int __pcl_cpu = __percpu_locked_check_cpu(cpu);              \
		spin_lock(&per_cpu_lock(var, __pcl_cpu));                    \
		&per_cpu_locked(var, __pcl_cpu);                             \
	}))

/* put_per_cpu_locked - release cpu's lock of var (pairs with
 * get_per_cpu_locked; cpu must name the same CPU). */
#define put_per_cpu_locked(var, cpu) spin_unlock(&per_cpu_lock(var, (cpu)))
/* LAB(percpu-locked:get) END */

/*
 * percpu_locked_init - initialise every CPU copy of every per-CPU lock
 * in the .percpu_locked table, then allow their use.
 * Context: boot, task, once, after smp_init() (every CPU has its copy)
 * and before anything calls get_per_cpu_locked().
 */
void percpu_locked_init(void);

/* percpu_locked_nr_defined - entries in the table (tests, `smp`). */
unsigned long percpu_locked_nr_defined(void);

#endif /* KERNEL_PERCPU_LOCKED_H */
