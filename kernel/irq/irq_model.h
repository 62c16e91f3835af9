/*
 * kernel/irq/irq_model.h - where interrupt handlers and softirqs run,
 * per preemption model, in one place (article, "Preemptible interrupt
 * handlers"; configuration options PREEMPT_HARDIRQS, PREEMPT_SOFTIRQS):
 *
 *   model              handler without SA_NODELAY    softirqs (timers)
 *   none/voluntary/    hard-irq context, IF off      on irq exit and at
 *   desktop                                          local_bh_enable, in
 *                                                    softirq context
 *   rt                 its line's thread irq/N-name, ksoftirqd/N, process
 *                      SCHED_FIFO IRQ_THREAD_PRIO     context, preemptible
 *
 * SA_NODELAY handlers (the per-CPU tick, IPIs) run in hard-irq context
 * under every model.  The two switches themselves (PREEMPT_HARDIRQS,
 * PREEMPT_SOFTIRQS) come from kernel/sched/preempt_model.h with the rest
 * of the model; this header says what they mean for kernel/irq.
 * Linux counterpart: kernel/irq/manage.c irq_setup_forced_threading
 * (force_irqthreads), kernel/softirq.c (PREEMPT_RT ksoftirqd).
 */
#ifndef KERNEL_IRQ_IRQ_MODEL_H
#define KERNEL_IRQ_IRQ_MODEL_H

#include "kernel/sched/preempt_model.h"

/* Handlers without SA_NODELAY run in a per-line thread. */
#define IRQ_FORCED_THREADING PREEMPT_HARDIRQS

/* Softirq vectors run in ksoftirqd/N, never on irq exit. */
#define SOFTIRQ_THREADED PREEMPT_SOFTIRQS

/* Default SCHED_FIFO priority of an irq thread (Linux: MAX_RT_PRIO / 2,
 * what chrt shows for irq/N-name on a PREEMPT_RT system). */
#define IRQ_THREAD_PRIO 50

/* ksoftirqd/N under rt: SCHED_FIFO 1, the lowest realtime priority:
 * above every SCHED_OTHER task (timers stay timely under a CPU hog),
 * below every irq thread and every realtime task that asked for more. */
#define SOFTIRQ_THREAD_PRIO 1

#endif /* KERNEL_IRQ_IRQ_MODEL_H */
