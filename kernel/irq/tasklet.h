/*
 * kernel/irq/tasklet.h - tasklets: a function run once, soon, in the
 * TASKLET_SOFTIRQ (or HI_SOFTIRQ) vector of the CPU that scheduled it;
 * never on two CPUs at once.  Under rt that is ksoftirqd/N, process
 * context.
 * Linux counterpart: include/linux/interrupt.h (tasklet_struct),
 * kernel/softirq.c (tasklet_schedule, tasklet_action, tasklet_kill).
 */
#ifndef KERNEL_IRQ_TASKLET_H
#define KERNEL_IRQ_TASKLET_H

#include "lib/types.h"

#define TASKLET_STATE_SCHED	0x1	/* queued, will run */
#define TASKLET_STATE_RUN	0x2	/* running on some CPU */
/* scheduled again on another CPU while running: the runner queues it
 * once more on its own CPU when the run ends (kernel/irq/tasklet.c) */
#define TASKLET_STATE_PENDING	0x4

struct tasklet_struct {
	struct tasklet_struct *next;	/* this CPU's list, irqs off */
	unsigned long state;		/* TASKLET_STATE_*, atomic */
	void (*func)(unsigned long data);
	unsigned long data;
};

void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long),
		  unsigned long data);

/* tasklet_schedule / tasklet_hi_schedule - run t once more, on this CPU,
 * unless it is already queued.  Context: any. */
void tasklet_schedule(struct tasklet_struct *t);
void tasklet_hi_schedule(struct tasklet_struct *t);

/* tasklet_kill - wait until t is neither queued nor running.  Context:
 * task, may sleep; t must not be rescheduled meanwhile. */
void tasklet_kill(struct tasklet_struct *t);

/* tasklet_init_softirqs - open TASKLET_SOFTIRQ and HI_SOFTIRQ.
 * Context: boot, from softirq_init(). */
void tasklet_init_softirqs(void);

#endif /* KERNEL_IRQ_TASKLET_H */
