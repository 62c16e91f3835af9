/*
 * kernel/sched/preempt.h - preempt_disable()/preempt_enable() and the
 * reschedule check, on top of the count of kernel/preempt_count.h.
 *
 * preempt_disable() nests (bits 0-7 of preempt_count).  preempt_enable()
 * drops one level and, when the count reaches zero with TIF_NEED_RESCHED
 * set, calls preempt_schedule() -- but only under the models that
 * preempt the kernel (desktop, rt): the switch is PREEMPT_ON_ENABLE in
 * kernel/sched/preempt_model.h.  preempt_enable_no_resched() drops the
 * level without the check (the caller calls schedule() next).
 * Linux counterpart: include/linux/preempt.h (preempt_disable,
 * preempt_enable, preempt_enable_no_resched, in_atomic),
 * kernel/sched/core.c preempt_schedule().
 */
#ifndef KERNEL_SCHED_PREEMPT_H
#define KERNEL_SCHED_PREEMPT_H

#include "kernel/preempt_count.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/debug/hooks.h"
#include "lib/compiler.h"
#include "lib/bug.h"

/* need_resched - does the running task have TIF_NEED_RESCHED?  The flag
 * lives in the per-CPU word below (set for the task running there, and
 * cleared by schedule()), so the check is one gs-relative load. */
DECLARE_PER_CPU(int, sched_need_resched);

static inline bool need_resched(void)
{
	return this_cpu_read(sched_need_resched) != 0;
}

/* preempt_schedule - preempt the running task from preempt_enable().
 * Context: task, preempt_count 0, interrupts on. */
void preempt_schedule(void);

#define preempt_count_inc() __preempt_count_add(1)
/*
 * preempt_count_dec - with DEBUG_PREEMPT (Linux's preempt_count_sub
 * check), an unbalanced preempt_enable() is a BUG at the call: left
 * alone, the count borrows into the softirq bits, reads 0 again inside
 * the next preempt_disable() section, and that section -- a raw spinlock
 * holder or a spinner with its ticket taken -- can be preempted.
 */
#ifdef CONFIG_DEBUG_PREEMPT
#define preempt_count_dec()                                                  \
	do {                                                                 \
		BUG_ON(!(preempt_count() & PREEMPT_MASK));                   \
		__preempt_count_sub(1);                                      \
	} while (0)
#else
#define preempt_count_dec() __preempt_count_sub(1)
#endif

#define preempt_disable()                                                    \
	do {                                                                 \
		preempt_count_inc();                                         \
		barrier();                                                   \
		trace_preempt_off();                                         \
	} while (0)

#define preempt_enable_no_resched()                                          \
	do {                                                                 \
		trace_preempt_on();                                          \
		barrier();                                                   \
		preempt_count_dec();                                         \
	} while (0)

/* preempt_check_resched - the preemption point of preempt_enable(). */
#define preempt_check_resched()                                              \
	do {                                                                 \
		if (PREEMPT_ON_ENABLE && unlikely(need_resched()) &&         \
		    preempt_count() == 0)                                    \
			preempt_schedule();                                  \
	} while (0)

#define preempt_enable()                                                     \
	do {                                                                 \
		preempt_enable_no_resched();                                 \
		preempt_check_resched();                                     \
	} while (0)

/*
 * in_atomic - preemption or interrupt context: sleeping is a bug here.
 * Without PREEMPT_BKL the big kernel lock holds preemption off yet its
 * holder may sleep (the sleep drops it): bkl_preempt_offset()
 * (kernel/locking/bkl.c) is that one count, as Linux 2.6's in_atomic()
 * subtracted kernel_locked().
 */
#if PREEMPT_BKL
#define in_atomic() (preempt_count() != 0)
#else
int bkl_preempt_offset(void);
#define in_atomic() (preempt_count() != bkl_preempt_offset())
#endif

/* preemptible - could the scheduler take the CPU away right now? */
#define preemptible() (preempt_count() == 0 && !raw_irqs_disabled())

#endif /* KERNEL_SCHED_PREEMPT_H */
