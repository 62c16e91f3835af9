/*
 * kernel/sched/preempt_model.h - what each preemption model allows, in
 * one place (article, "PREEMPT_RT configuration options", "High-Level
 * Preemption-Option Selection"):
 *
 *   model      cond_resched  preempt on     preempt on  local_irq_*   irq/softirq
 *              might_resched preempt_enable irq return  (kernel/      threads
 *                                                       irqflags.h)
 *   none       no            no             no          raw           no
 *   voluntary  yes           no             no          raw           no
 *   desktop    yes           yes            yes         raw           no
 *   rt         yes           yes            yes         preempt only  yes
 *
 * and RCU read sections (kernel/rcu/rcupdate.h): preemptible, tracked per
 * task (PREEMPT_RCU) under rt only; preempt_disable() under the others.
 * The big kernel lock (kernel/locking/bkl.h) is a sleeping, preemptible
 * semaphore under desktop and rt (PREEMPT_BKL), a preemption-off spinlock
 * under none and voluntary.
 *
 * Everything else in the scheduler is the same code under every model.
 * Linux counterpart: kernel/Kconfig.preempt (PREEMPT_NONE,
 * PREEMPT_VOLUNTARY, PREEMPT, PREEMPT_RT), include/linux/kernel.h
 * might_resched().
 */
#ifndef KERNEL_SCHED_PREEMPT_MODEL_H
#define KERNEL_SCHED_PREEMPT_MODEL_H

#include "kernel/version.h"

#if defined(CONFIG_PREEMPT_RT)
#define PREEMPT_VOLUNTARY_POINTS 1
#define PREEMPT_ON_ENABLE 1	/* the article's option PREEMPT */
#define PREEMPT_ON_IRQ_RETURN 1
#define PREEMPT_RT_IRQFLAGS 1	/* local_irq_*() only disable preemption */
#define PREEMPT_HARDIRQS 1
#define PREEMPT_SOFTIRQS 1
#define PREEMPT_RCU 1	/* preemptible readers (Linux: CONFIG_PREEMPT_RCU) */
#define PREEMPT_BKL 1	/* big kernel lock: kernel_sem (kernel/locking/bkl.h) */
#elif defined(CONFIG_PREEMPT_DESKTOP)
#define PREEMPT_VOLUNTARY_POINTS 1
#define PREEMPT_ON_ENABLE 1
#define PREEMPT_ON_IRQ_RETURN 1
#define PREEMPT_RT_IRQFLAGS 0
#define PREEMPT_HARDIRQS 0
#define PREEMPT_SOFTIRQS 0
#define PREEMPT_RCU 0
#define PREEMPT_BKL 1
#elif defined(CONFIG_PREEMPT_VOLUNTARY)
#define PREEMPT_VOLUNTARY_POINTS 1
#define PREEMPT_ON_ENABLE 0
#define PREEMPT_ON_IRQ_RETURN 0
#define PREEMPT_RT_IRQFLAGS 0
#define PREEMPT_HARDIRQS 0
#define PREEMPT_SOFTIRQS 0
#define PREEMPT_RCU 0
#define PREEMPT_BKL 0
#else /* CONFIG_PREEMPT_NONE */
#define PREEMPT_VOLUNTARY_POINTS 0
#define PREEMPT_ON_ENABLE 0
#define PREEMPT_ON_IRQ_RETURN 0
#define PREEMPT_RT_IRQFLAGS 0
#define PREEMPT_HARDIRQS 0
#define PREEMPT_SOFTIRQS 0
#define PREEMPT_RCU 0
#define PREEMPT_BKL 0
#endif

/*
 * _cond_resched - schedule if TIF_NEED_RESCHED is set and we may; returns
 * whether it did.  Present under every model (a kernel loop that must
 * give up the CPU calls it), but only cond_resched() and might_resched()
 * below are the model-dependent preemption points.
 * Context: task, may sleep.
 */
int _cond_resched(void);

#if PREEMPT_VOLUNTARY_POINTS && !PREEMPT_ON_ENABLE
/* voluntary: the explicit points are where the kernel is preempted */
#define cond_resched() _cond_resched()
#define might_resched() ((void)_cond_resched())
#elif PREEMPT_ON_ENABLE
/* desktop/rt: preemption happens anyway; cond_resched stays a point for
 * code running with a preemption-off lock dropped just before */
#define cond_resched() _cond_resched()
#define might_resched() do { } while (0)
#else
/* none: no preemption points at all; only blocking switches tasks */
static inline int cond_resched(void)
{
	return 0;
}
#define might_resched() do { } while (0)
#endif

#endif /* KERNEL_SCHED_PREEMPT_MODEL_H */
