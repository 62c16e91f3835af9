/*
 * kernel/irq/irqdesc.h - struct irq_desc, one per interrupt line, and
 * the flow handler the machine calls for every interrupt on a line.
 *
 * A line's life: request_irq() links the first irqaction, starts the
 * line at the chip (arch_irq_startup) and, for a threaded line, creates
 * its thread; each interrupt enters generic_handle_irq(), which either
 * runs the handlers (hard-irq context) or hands them to the thread
 * (redirect_hardirq, then do_irqd in the thread); free_irq() unlinks
 * the last action, waits, and stops the thread.
 * Linux counterpart: include/linux/irqdesc.h, kernel/irq/handle.c,
 * kernel/irq/chip.c (handle_edge_irq, handle_level_irq), the 2.6 -rt
 * patch's kernel/irq/manage.c (redirect_hardirq, do_irqd).
 */
#ifndef KERNEL_IRQ_IRQDESC_H
#define KERNEL_IRQ_IRQDESC_H

#include "lib/types.h"
#include "arch/x86_64/arch.h"
#include "kernel/irq/manage.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/sched/wait.h"
#include "kernel/debug/hooks.h"

#define NR_IRQS ARCH_NR_IRQS

struct irqaction {
	irq_handler_t handler;		/* the driver's function */
	unsigned long flags;		/* SA_* */
	const char *name;		/* "ttyS0": the thread's name suffix */
	void *dev_id;			/* cookie for shared lines, free_irq */
	void *percpu_dev_id;		/* SA_PERCPU: per-CPU variable whose
					 * copy the handler gets */
	struct irqaction *next;		/* under desc->lock */
};

/* desc->status bits (under desc->lock) */
#define IRQS_INPROGRESS	0x1	/* hard-irq handlers running on a CPU */
#define IRQS_PENDING	0x2	/* came while disabled: replay on enable */
#define IRQS_RUNTHREAD	0x4	/* the thread owes a run of the handlers */
#define IRQS_MASKED	0x8	/* masked by the flow until the thread ends */

struct irq_desc {
	raw_spinlock_t lock;		/* taken with interrupts off */
	/* under lock: */
	struct irqaction *action;	/* handlers, in request order */
	unsigned int status;		/* IRQS_* */
	unsigned int depth;		/* disable_irq nesting, 0: enabled */
	bool threaded;			/* handlers run in thread */
	bool percpu;			/* per-CPU line (handle_percpu_irq) */
	bool level;			/* level-triggered line */
	bool thread_active;		/* thread is running the handlers */
	u64 count;			/* interrupts on this line (a per-CPU
					 * line: kstat_irqs_cpu instead) */
	u64 unhandled;			/* runs where every handler said NONE */
	u32 window_runs, window_unhandled; /* note_unhandled's window */
	/* under irq_request_lock (thread is read locklessly by the flow
	 * handler: set before the line is unmasked, cleared after it is
	 * shut down and synchronized): */
	struct task_struct *thread;	/* irq/N-name, or NULL */
	/* constant: */
	unsigned int irq;		/* this line's number */
	wait_queue_head_t wait_for_threads; /* woken when the thread idles */
};

/* irq_desc_init - every descriptor empty, its line disabled.
 * Context: boot CPU, once, before the first request (kernel/main.c,
 * before tick_init requests the timer line). */
void irq_desc_init(void);

/* irq_to_desc - the descriptor of line irq, NULL past NR_IRQS. */
struct irq_desc *irq_to_desc(unsigned int irq);

/* generic_handle_irq - the flow handler: one interrupt on line irq.
 * Acknowledges the interrupt at the chip in every case.
 * Context: hardirq, interrupts off (the machine's vector entry). */
void generic_handle_irq(unsigned int irq);

/* irq_descs - the descriptors, one per line (kernel/irq/handle.c); use
 * irq_to_desc() but in handle_percpu_irq below. */
extern struct irq_desc irq_descs[NR_IRQS];

/*
 * handle_percpu_irq - the flow of a per-CPU line: acknowledge, then run
 * its one action with this CPU's copy of percpu_dev_id.  No descriptor
 * lock, status or thread: every CPU has its own source, so nothing is
 * shared with another CPU but the action, set once by
 * request_percpu_irq before the line's vector had an entry.  The
 * acknowledge comes first, as in Linux's handle_percpu_irq (irq_ack,
 * then the handler): the LAPIC timer's EOI, so the handler's programming
 * of the next event may raise it at once.  Inline, so that the machine's
 * vector entry is the whole flow: the tick pays no extra call for it.
 * Context: hardirq, interrupts off (the machine's vector entry; the
 * arch_irq_ack() it calls asserts it).  Locking: none.
 */
static inline void handle_percpu_irq(unsigned int irq)
{
	struct irqaction *action;

	arch_irq_ack();
	action = READ_ONCE(irq_descs[irq].action);	/* after the call: no
							 * register to save */
	if (likely(action))
		action->handler((int)irq, this_cpu_ptr(action->percpu_dev_id));
	trace_irq_handler_exit();
}

/* handle_irq_event - run every action of desc once; returns IRQ_HANDLED
 * if any handler did.  Context: hardirq (unthreaded) or desc's thread. */
irqreturn_t handle_irq_event(struct irq_desc *desc);

/* do_irqd - the body of the thread irq/N-name (data: its desc).
 * Context: its kthread. */
int do_irqd(void *data);

/* irq_thread_set_prio - make line irq's thread SCHED_FIFO prio (1..99):
 * the shell's `irqs prio`.  Returns 0, -EINVAL, -ENOENT (no thread).
 * Context: task.  Locking: takes irq_request_lock. */
int irq_thread_set_prio(unsigned int irq, int prio);

#endif /* KERNEL_IRQ_IRQDESC_H */
