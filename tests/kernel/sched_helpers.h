/*
 * tests/kernel/sched_helpers.h - what the scheduler suites (test_sched*.c)
 * share: pinning the test task at a policy and back, starting a bound
 * kthread at a policy, and the hang nets.
 *
 * Every multi-thread scheduler test pins its threads (and usually the
 * test task itself, which runs in "init") to one CPU, synchronises by
 * completions and flags, and restores init to SCHED_OTHER on all CPUs at
 * the end (me_restore).  Time bounds (ktime) are only safety nets
 * against a hang, never the synchronisation.
 * Linux counterpart: none (kernel/sched tests in LTP and rt-tests set up
 * their threads the same way from user space).
 */
#ifndef TESTS_KERNEL_SCHED_HELPERS_H
#define TESTS_KERNEL_SCHED_HELPERS_H

#include "kernel/ktest.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/time/ktime.h"
#include "kernel/smp.h"

#define SAFETY_NS (5LL * NSEC_PER_SEC)	/* a hung test, not a timing */
/* The RR test needs six 100 ms slices; on a loaded host a TCG vCPU may
 * get a fraction of real time, so its hang net is far wider. */
#define RR_SAFETY_NS (60LL * NSEC_PER_SEC)

/* one_cpu - the mask of cpu alone. */
static inline cpumask_t one_cpu(int cpu)
{
	return (cpumask_t){ .bits = 1ULL << cpu };
}

/* me_rt - pin the test task to cpu at SCHED_FIFO prio (0: SCHED_OTHER). */
static inline void me_rt(int prio, int cpu)
{
	struct sched_param sp = { .sched_priority = prio };

	set_cpus_allowed(current, one_cpu(cpu));
	sched_setscheduler(current, prio ? SCHED_FIFO : SCHED_OTHER, &sp);
}

/* pin_here - pin the test task to the CPU it runs on and return it: for
 * a test that treats "this CPU" specially (skips it, reads its counters)
 * across calls that may sleep.  The ktest runner unpins after the case
 * (me_restore() does it earlier).  Without the pin, DEBUG_PREEMPT=1
 * reports the smp_processor_id() (kernel/sched/smp_processor_id.c). */
static inline int pin_here(void)
{
	int cpu = raw_smp_processor_id();

	/* moved meanwhile?  set_cpus_allowed brings it back to cpu */
	set_cpus_allowed(current, one_cpu(cpu));
	return cpu;
}

/* me_restore - undo me_rt: SCHED_OTHER, every CPU allowed. */
static inline void me_restore(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	sched_setscheduler(current, SCHED_OTHER, &sp);
	/* back on CPU 0, where the boot flow ran (later suites expect it) */
	set_cpus_allowed(current, one_cpu(0));
	set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });
}

/* start_rt - create fn(arg) as name, bind it to cpu (< 0: unbound), set
 * policy and prio, take a reference (the caller puts it) and wake it. */
static inline struct task_struct *start_rt(int (*fn)(void *), void *arg,
					   int policy, int prio, int cpu,
					   const char *name)
{
	struct sched_param sp = { .sched_priority = prio };
	struct task_struct *p = kthread_create(fn, arg, "%s", name);

	if (!p)
		return NULL;
	if (cpu >= 0)
		kthread_bind(p, cpu);
	sched_setscheduler(p, policy, &sp);
	get_task_struct(p);
	wake_up_process(p);
	return p;
}

/* create_fifo - create fn(arg) as name at SCHED_FIFO prio, allowed on
 * mask (changeable later, unlike kthread_bind), with a reference the
 * caller puts; not woken.  NULL if creation failed. */
static inline struct task_struct *create_fifo(int (*fn)(void *), void *arg,
					      int prio, cpumask_t mask,
					      const char *name)
{
	struct sched_param sp = { .sched_priority = prio };
	struct task_struct *p = kthread_create(fn, arg, "%s", name);

	if (!p)
		return NULL;
	set_cpus_allowed(p, mask);
	sched_setscheduler(p, SCHED_FIFO, &sp);
	return get_task_struct(p);
}

#endif /* TESTS_KERNEL_SCHED_HELPERS_H */
