/*
 * kernel/irq/manage.h - the driver interface to interrupt lines:
 * request_irq / free_irq, disable_irq / enable_irq, synchronize_irq.
 *
 *	err = request_irq(4, uart_rx, 0, "ttyS0", &port);
 *	...uart_rx(4, &port) runs per interrupt: in its thread irq/4-ttyS0
 *	   under rt, in hard-irq context otherwise (kernel/irq/irq_model.h)
 *	free_irq(4, &port);	returns once no handler of the line runs
 *
 * Line numbers are the machine's (arch/x86_64/irq_chip.h: ISA 0-15,
 * software lines 16-31).
 * Linux counterpart: include/linux/interrupt.h, kernel/irq/manage.c.
 */
#ifndef KERNEL_IRQ_MANAGE_H
#define KERNEL_IRQ_MANAGE_H

#include "lib/types.h"

typedef enum irqreturn {
	IRQ_NONE = 0,		/* not my device's interrupt */
	IRQ_HANDLED = 1,	/* handled it */
} irqreturn_t;

typedef irqreturn_t (*irq_handler_t)(int irq, void *dev_id);

/*
 * request_irq flags, with the 2.6-era names the article uses.
 * SA_NODELAY: run the handler in hard-irq context under every model,
 *	never in the line's thread (mainline: IRQF_NO_THREAD).
 * SA_SHIRQ: the line may be shared; every sharer must say so and pass
 *	a unique dev_id (mainline: IRQF_SHARED).
 */
#define SA_NODELAY	0x1
#define SA_SHIRQ	0x2
/* SA_PERCPU: a per-CPU line, set by request_percpu_irq (mainline
 * IRQF_PERCPU); such a line is always SA_NODELAY too. */
#define SA_PERCPU	0x4

/* request_irq - add handler to line irq and enable the line.  Under rt a
 * handler without SA_NODELAY runs in the line's thread irq/N-name
 * (SCHED_FIFO IRQ_THREAD_PRIO, created with the first such handler).
 * Returns 0, -EINVAL (bad irq, no handler, SA_SHIRQ without dev_id),
 * -EBUSY (line taken and not both shared, or SA_NODELAY mismatch),
 * -ENOMEM, -ENODEV (no controller for the line).
 * Context: task, may sleep.  Locking: takes irq_request_lock. */
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev_id);

/* request_percpu_irq - make handler the handler of per-CPU line irq
 * (each CPU has its own source on the same line: the local timer,
 * ARCH_TIMER_IRQ).  It runs in hard-irq context under every model
 * (SA_NODELAY | SA_PERCPU) on the CPU that took the interrupt, as
 * handler(irq, this CPU's copy of the per-CPU variable percpu_dev_id
 * points at).  Each CPU arms its own source; there is no per-CPU
 * enable/disable and no free (the tick is never removed).
 * Returns 0, -EINVAL (not a per-CPU line, no handler or dev_id), -EBUSY
 * (already requested), -ENOMEM.
 * Context: task, may sleep.  Locking: takes irq_request_lock. */
int request_percpu_irq(unsigned int irq, irq_handler_t handler,
		       const char *devname, void *percpu_dev_id);

/* free_irq - remove the handler registered with dev_id; returns after
 * no handler of the line runs anywhere (synchronize_irq), and stops the
 * line's thread with the last handler.  Context: task, may sleep; not
 * from the line's own handler.  Locking: takes irq_request_lock. */
void free_irq(unsigned int irq, void *dev_id);

/* disable_irq_nosync - stop handling irq (nests); an interrupt arriving
 * meanwhile is remembered and replayed by the enable_irq() that ends the
 * nesting.  Context: any. */
void disable_irq_nosync(unsigned int irq);

/* disable_irq - disable_irq_nosync, then wait for running handlers.
 * Context: task, may sleep. */
void disable_irq(unsigned int irq);

/* enable_irq - undo one disable_irq(_nosync).  Context: any. */
void enable_irq(unsigned int irq);

/* synchronize_irq - wait until no handler of irq runs: neither the hard
 * part on any CPU nor the line's thread (nor a wakeup it still owes).
 * Context: task, may sleep. */
void synchronize_irq(unsigned int irq);

/* irq_is_threaded - do irq's handlers run in its thread (requested,
 * without SA_NODELAY, under rt)? */
bool irq_is_threaded(unsigned int irq);

/* irq_line_info - a snapshot of one line for the `irqs` command. */
struct irq_line_info {
	u64 count;			/* interrupts on the line */
	u64 unhandled;			/* runs nobody claimed */
	int nr_actions;			/* handlers (sharers) */
	char name[24];			/* first handler's name */
	unsigned long flags;		/* first handler's SA_* */
	unsigned int depth;		/* disable nesting */
	int thread_pid;			/* 0: no thread */
	char thread_name[16];		/* irq/N-name */
	int thread_policy, thread_prio;	/* SCHED_*, rt_priority */
	bool percpu;			/* per-CPU line: kstat_irqs_cpu */
};

/* irq_get_line_info - fill info for irq; false when it has no handler.
 * Context: task, may sleep.  Locking: takes irq_request_lock. */
bool irq_get_line_info(unsigned int irq, struct irq_line_info *info);

/* irq_init - descriptors ready, softirqs started (ksoftirqd/N per
 * online CPU under rt).  Context: boot CPU, once, after smp_init(), in
 * task context with interrupts on. */
void irq_init(void);

#endif /* KERNEL_IRQ_MANAGE_H */
