/*
 * kernel/irq/handle.c - the per-line descriptors and the interrupt flow:
 * generic_handle_irq() (hard-irq part), redirect_hardirq() (hand-off to
 * the line's thread) and do_irqd() (the thread's loop).
 *
 * The flow of one interrupt on line N (contract in irqdesc.h):
 *	[1] no handler, or the line is disabled: remember it (IRQS_PENDING,
 *	    replayed by enable_irq), mask the line, acknowledge, done
 *	[2] threaded line (rt, no SA_NODELAY): redirect_hardirq(): mask a
 *	    level line (it would fire again at once, the device still
 *	    asserting it), mark the run owed (IRQS_RUNTHREAD), wake the
 *	    thread; acknowledge; done.  An edge line is not masked: an edge
 *	    arriving at a masked IOAPIC input is lost, so a second edge
 *	    while the thread runs just sets IRQS_RUNTHREAD again and the
 *	    thread goes round once more (mainline handle_edge_irq does the
 *	    same with IRQS_PENDING)
 *	[3] otherwise run the handlers here, interrupts off, with
 *	    IRQS_INPROGRESS set for synchronize_irq(); acknowledge
 * do_irqd(), the thread irq/N-name:
 *	[4] sleep until IRQS_RUNTHREAD; take it, set thread_active
 *	[5] run the handlers: task context, interrupts on, preemptible
 *	[6] thread_active off; unmask a line [2] masked unless a run is
 *	    owed again or the line was disabled meanwhile (enable_irq
 *	    unmasks it then); wake synchronize_irq() waiters
 * Pairs: IRQS_RUNTHREAD is set in [2] and taken in [4] under desc->lock,
 * and [4] sets TASK_INTERRUPTIBLE before looking, so a wakeup between
 * the look and schedule() is not lost.
 * Linux counterpart: kernel/irq/handle.c (handle_irq_event), chip.c
 * (handle_level_irq, handle_edge_irq), manage.c (irq_thread,
 * irq_finalize_oneshot); the 2.6 -rt patch's redirect_hardirq/do_irqd.
 */
#include "kernel/irq/irqdesc.h"
#include "kernel/irq/irq_model.h"
#include "kernel/preempt_count.h"
#include "kernel/printk.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"

struct irq_desc irq_descs[NR_IRQS];

struct irq_desc *irq_to_desc(unsigned int irq)
{
	return irq < NR_IRQS ? &irq_descs[irq] : NULL;
}

/*
 * irq_desc_init - every descriptor empty and enabled-to-be.
 * Context: boot, once, before the first request_irq (irq_init).
 */
void __init irq_desc_init(void)
{
	for (unsigned int irq = 0; irq < NR_IRQS; irq++) {
		struct irq_desc *desc = &irq_descs[irq];

		raw_spin_lock_init(&desc->lock);
		init_waitqueue_head(&desc->wait_for_threads);
		desc->irq = irq;
		desc->depth = 1;	/* disabled until requested */
	}
}

/*
 * handle_irq_event - see irqdesc.h.
 * Context: hardirq with interrupts off, or desc's thread.  Locking:
 * none held; the action list may be walked unlocked because free_irq()
 * unlinks under desc->lock and frees only after synchronize_irq().
 */
irqreturn_t handle_irq_event(struct irq_desc *desc)
{
	irqreturn_t ret = IRQ_NONE;

	for (struct irqaction *a = READ_ONCE(desc->action); a;
	     a = READ_ONCE(a->next))
		ret |= a->handler((int)desc->irq, a->dev_id);
	return ret;
}

/*
 * note_unhandled - count runs nobody claimed; warn, as Linux's
 * note_interrupt() does, only when 99,900 of a window of 100,000 runs
 * went unclaimed.  A single IRQ_NONE is normal: an edge that arrived
 * while the handler was already draining the device (COM1 under rt)
 * finds nothing left to do.  Context: hardirq or the line's thread.
 * Locking: desc->lock held.
 */
#define UNHANDLED_WINDOW 100000
#define UNHANDLED_LIMIT 99900
static void note_unhandled(struct irq_desc *desc, irqreturn_t ret)
{
	raw_spin_assert_held(&desc->lock);
	if (ret == IRQ_NONE) {
		desc->unhandled++;
		desc->window_unhandled++;
	}
	if (++desc->window_runs < UNHANDLED_WINDOW)
		return;
	if (desc->window_unhandled > UNHANDLED_LIMIT)
		pr_warn("irq %u: nobody cared (%u of the last %u runs said "
			"IRQ_NONE)\n", desc->irq, desc->window_unhandled,
			desc->window_runs);
	desc->window_runs = desc->window_unhandled = 0;
}

/*
 * redirect_hardirq - step [2]: leave the handlers to the line's thread.
 * Context: hardirq, interrupts off.  Locking: desc->lock held.
 */
static void redirect_hardirq(struct irq_desc *desc)
{
	raw_spin_assert_held(&desc->lock);
	BUG_ON(!desc->thread);
	/* LAB(irq-threads:redirect) BEGIN */
	if (desc->level && !(desc->status & IRQS_MASKED)) {
		arch_irq_mask(desc->irq);
		desc->status |= IRQS_MASKED;
	}
	desc->status |= IRQS_RUNTHREAD;
	wake_up_process(desc->thread);
	/* LAB(irq-threads:redirect) END */
}

/*
 * generic_handle_irq - see irqdesc.h.
 * Context: hardirq, interrupts off.
 */
void generic_handle_irq(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);
	irqreturn_t ret;

	BUG_ON(!desc);
	BUG_ON(!in_irq() || !raw_irqs_disabled());
	raw_spin_lock(&desc->lock);
	desc->count++;
	if (!desc->action || desc->depth) {				/* [1] */
		desc->status |= IRQS_PENDING;
		arch_irq_mask(irq);
		goto out_ack;
	}
	if (desc->threaded) {						/* [2] */
		redirect_hardirq(desc);
		goto out_ack;
	}
	desc->status |= IRQS_INPROGRESS;				/* [3] */
	raw_spin_unlock(&desc->lock);
	ret = handle_irq_event(desc);
	raw_spin_lock(&desc->lock);
	desc->status &= ~IRQS_INPROGRESS;
	note_unhandled(desc, ret);
out_ack:
	raw_spin_unlock(&desc->lock);
	arch_irq_ack();
}

/* irq_thread_wait - step [4]: sleep until a run is owed or the thread is
 * told to stop; returns false for stop.  Context: desc's thread. */
static bool irq_thread_wait(struct irq_desc *desc)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			return false;
		}
		raw_spin_lock_irq(&desc->lock);
		if (desc->status & IRQS_RUNTHREAD) {
			desc->status &= ~IRQS_RUNTHREAD;
			desc->thread_active = true;
			__set_current_state(TASK_RUNNING);
			raw_spin_unlock_irq(&desc->lock);
			return true;
		}
		raw_spin_unlock_irq(&desc->lock);
		schedule();
	}
}

/*
 * do_irqd - see irqdesc.h: steps [4]-[6].
 * Context: the kthread irq/N-name, SCHED_FIFO; sleeps between runs.
 */
int do_irqd(void *data)
{
	struct irq_desc *desc = data;
	irqreturn_t ret;

	BUG_ON(desc->thread && desc->thread != current);
	while (irq_thread_wait(desc)) {					/* [4] */
		BUG_ON(in_interrupt() || raw_irqs_disabled());
		ret = handle_irq_event(desc);				/* [5] */
		raw_spin_lock_irq(&desc->lock);				/* [6] */
		desc->thread_active = false;
		note_unhandled(desc, ret);
		if ((desc->status & IRQS_MASKED) &&
		    !(desc->status & IRQS_RUNTHREAD) && !desc->depth) {
			desc->status &= ~IRQS_MASKED;
			arch_irq_unmask(desc->irq);
		}
		raw_spin_unlock_irq(&desc->lock);
		wake_up_all(&desc->wait_for_threads);
	}
	return 0;
}
