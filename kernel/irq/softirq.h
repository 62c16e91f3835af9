/*
 * kernel/irq/softirq.h - softirqs: deferred work raised by interrupt
 * handlers (the timer tick raises TIMER_SOFTIRQ) and run soon after,
 * with interrupts on.  Where they run depends on the model
 * (kernel/irq/irq_model.h): on irq exit and at local_bh_enable in
 * softirq context, or under rt (PREEMPT_SOFTIRQS) in the per-CPU thread
 * ksoftirqd/N, in process context, preemptible.
 * Linux counterpart: include/linux/interrupt.h, include/linux/bottom_half.h,
 * kernel/softirq.c.
 */
#ifndef KERNEL_IRQ_SOFTIRQ_H
#define KERNEL_IRQ_SOFTIRQ_H

#include "lib/types.h"
#include "kernel/preempt_count.h"
#include "kernel/irq/irq_model.h"

struct task_struct;

/* Vectors, run in this order (Linux numbers for the ones rtk has). */
enum {
	HI_SOFTIRQ = 0,		/* high-priority tasklets */
	TIMER_SOFTIRQ = 1,	/* timer_list expiry (kernel/time/timer.c) */
	TASKLET_SOFTIRQ = 6,	/* tasklets (kernel/irq/tasklet.c) */
	NR_SOFTIRQS = 10
};

/* local_bh_disable nests in SOFTIRQ_MASK in steps of two, so the low
 * bit means "serving a softirq" (as Linux's SOFTIRQ_DISABLE_OFFSET). */
#define SOFTIRQ_DISABLE_OFFSET (2 * SOFTIRQ_OFFSET)
#define in_serving_softirq() ((softirq_count() & SOFTIRQ_OFFSET) != 0)

/* open_softirq - action runs when vector nr is raised.  Context: boot. */
void open_softirq(int nr, void (*action)(void));

/* raise_softirq_irqoff - mark nr pending on this CPU (and wake
 * ksoftirqd/N under rt).  Context: any, interrupts off. */
void raise_softirq_irqoff(unsigned int nr);

/* raise_softirq - the same from any context; outside interrupt context
 * with interrupts on, the softirq runs before this returns (non-rt) or
 * in ksoftirqd (rt). */
void raise_softirq(unsigned int nr);

/* local_softirq_pending - this CPU's pending vectors, a bit each. */
u32 local_softirq_pending(void);

/*
 * local_bh_disable / local_bh_enable - keep this CPU's softirqs from
 * running until the matching enable (nests).  The model switch:
 *
 *   model       local_bh_disable              local_bh_enable (outermost)
 *   none/       preempt_count +=              preempt_count -=, run what
 *   voluntary/  SOFTIRQ_DISABLE_OFFSET:       became pending (here, in
 *   desktop     preemption off, no sleeping   softirq context), then the
 *               (local_bh_disable_count)      preemption point
 *   rt          take this CPU's bh lock (a    release the bh lock (its
 *               sleeping lock with PI, which  waiter ksoftirqd/N gets it),
 *               ksoftirqd/N holds while it    wake ksoftirqd/N if vectors
 *               runs vectors), count in the   are pending; runs nothing
 *               task: preemptible, may sleep  itself (local_bh_lock)
 *
 * in_softirq() is true inside under every model.
 * Context: task or softirq; rt: may sleep when preemptible (an atomic
 * caller only counts, see local_bh_lock).
 */
void local_bh_disable_count(void);
void local_bh_enable_count(void);
void local_bh_lock(void);
void local_bh_unlock(void);

static inline void local_bh_disable(void)
{
	if (SOFTIRQ_THREADED)
		local_bh_lock();
	else
		local_bh_disable_count();
}

static inline void local_bh_enable(void)
{
	if (SOFTIRQ_THREADED)
		local_bh_unlock();
	else
		local_bh_enable_count();
}

/* local_bh_lock_owner - the task holding cpu's bh lock (rt), NULL when
 * free or under the other models (tests).  Context: any. */
struct task_struct *local_bh_lock_owner(int cpu);

/* invoke_softirq - irq_exit's call when it leaves the last interrupt
 * level with softirqs pending: run them now (non-rt) or make sure
 * ksoftirqd/N is awake (rt).  Context: hardirq exit, interrupts off. */
void invoke_softirq(void);

/* ksoftirqd_task - CPU cpu's ksoftirqd (rt), NULL otherwise. */
struct task_struct *ksoftirqd_task(int cpu);

/* softirq_init - open the tasklet vectors; under rt start ksoftirqd/N
 * bound to each online CPU.  Context: boot, task, from irq_init(). */
void softirq_init(void);

#endif /* KERNEL_IRQ_SOFTIRQ_H */
