/*
 * kernel/irq/manage.c - request_irq/free_irq, disable/enable and
 * synchronize_irq on the descriptors of kernel/irq/handle.c, and the
 * per-line threads irq/N-name.
 *
 * Under rt (IRQ_FORCED_THREADING, kernel/irq/irq_model.h) a line whose
 * handlers lack SA_NODELAY gets one thread, created by the request that
 * adds its first handler and stopped by the free_irq that removes its
 * last one.  Sharers of a line must agree on SA_NODELAY: the line is
 * either threaded or not.  A disabled line stays masked at the chip,
 * and an interrupt that arrives anyway (software lines cannot be masked,
 * an edge may be in flight) is replayed by the enable_irq that ends the
 * nesting.
 * A per-CPU line (the local timer) is requested with request_percpu_irq:
 * never threaded, never shared, and its flow (handle_percpu_irq) takes
 * no lock.
 * Linux counterpart: kernel/irq/manage.c (request_threaded_irq,
 * __setup_irq, setup_irq_thread, free_irq, __disable_irq, __enable_irq,
 * synchronize_irq, request_percpu_irq); rtk leaves out affinity, nested
 * and per-action threads, IRQF_ONESHOT (it is implied for level lines
 * under rt), enable_percpu_irq/free_percpu_irq.
 */
#include "kernel/irq/manage.h"
#include "kernel/irq/irqdesc.h"
#include "kernel/irq/irq_model.h"
#include "kernel/irq/irq_stats.h"
#include "kernel/irq/softirq.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

/* irq_request_lock - serialises request_irq/free_irq/irq_thread_set_prio
 * (they sleep: thread creation and stop, synchronize_irq). */
static DEFINE_RT_MUTEX(irq_request_lock);

void __init irq_init(void)
{
	softirq_init();
	pr_info("irq: %d lines, handlers in %s, softirqs %s\n", NR_IRQS,
		IRQ_FORCED_THREADING ? "threads irq/N-name" : "hard-irq context",
		SOFTIRQ_THREADED ? "in ksoftirqd/N" : "on irq exit");
}

bool irq_is_threaded(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);

	return desc && READ_ONCE(desc->threaded);
}

/* irq_thread_create - the line's thread, SCHED_FIFO IRQ_THREAD_PRIO,
 * started (it sleeps in do_irqd until the first interrupt); not held
 * back by RT throttling, as the hard-irq handler it stands for is not
 * (PF_UNTHROTTLED, kernel/sched/rt_bandwidth.c).
 * Context: task.  Locking: irq_request_lock held. */
static int irq_thread_create(struct irq_desc *desc, const char *name)
{
	struct sched_param param = { .sched_priority = IRQ_THREAD_PRIO };
	struct task_struct *p;

	p = kthread_create(do_irqd, desc, "irq/%u-%s", desc->irq, name);
	if (!p)
		return -ENOMEM;
	p->flags |= PF_UNTHROTTLED;
	WARN_ON(sched_setscheduler(p, SCHED_FIFO, &param));
	desc->thread = p;
	wake_up_process(p);
	return 0;
}

/* irq_line_compatible - may action join desc's existing handlers? */
static bool irq_line_compatible(struct irq_desc *desc, unsigned long flags)
{
	struct irqaction *old = desc->action;

	if (!old)
		return true;
	return (old->flags & flags & SA_SHIRQ) &&
	       ((old->flags ^ flags) & SA_NODELAY) == 0;
}

/*
 * request_irq - see manage.h.  The steps:
 *	[1] check the line may take this handler
 *	[2] first handler: thread (if threaded), then start the line at the
 *	    chip, masked
 *	[3] link the action; first handler: enable (depth 0) and unmask
 * Context: task, may sleep.  Locking: irq_request_lock, desc->lock.
 */
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
		const char *name, void *dev_id)
{
	struct irq_desc *desc = irq_to_desc(irq);
	struct irqaction *action, **link;
	unsigned long irqflags;
	bool first;
	int err;

	might_sleep();
	if (!desc || !handler || ((flags & SA_SHIRQ) && !dev_id) ||
	    arch_irq_is_percpu(irq) || (flags & SA_PERCPU))
		return -EINVAL;
	action = kmalloc(sizeof(*action), GFP_KERNEL);
	if (!action)
		return -ENOMEM;
	*action = (struct irqaction){ .handler = handler, .flags = flags,
				      .name = name, .dev_id = dev_id };
	rt_mutex_lock(&irq_request_lock);
	err = -EBUSY;
	if (!irq_line_compatible(desc, flags))				/* [1] */
		goto out_unlock;
	first = !desc->action;
	if (first) {							/* [2] */
		/* LAB(irq-threads:nodelay) BEGIN */
		desc->threaded = IRQ_FORCED_THREADING && !(flags & SA_NODELAY);
		/* LAB(irq-threads:nodelay) END */
		desc->level = arch_irq_is_level(irq);
		if (desc->threaded) {
			err = irq_thread_create(desc, name);
			if (err)
				goto out_unlock;
		}
		err = arch_irq_startup(irq);
		if (err)
			goto out_thread;
	}
	raw_spin_lock_irqsave(&desc->lock, irqflags);			/* [3] */
	for (link = &desc->action; *link; link = &(*link)->next)
		;
	WRITE_ONCE(*link, action);
	if (first) {
		desc->depth = 0;
		desc->status = 0;
		arch_irq_unmask(irq);
	}
	raw_spin_unlock_irqrestore(&desc->lock, irqflags);
	rt_mutex_unlock(&irq_request_lock);
	return 0;

out_thread:
	if (desc->thread) {
		kthread_stop(desc->thread);
		desc->thread = NULL;
	}
out_unlock:
	rt_mutex_unlock(&irq_request_lock);
	kfree(action);
	return err;
}

/*
 * request_percpu_irq - see manage.h.
 *	[1] the line must be per-CPU and free
 *	[2] install the vector entry at the chip
 *	[3] publish the action: from here every CPU's interrupt runs it
 * Context: task, may sleep.  Locking: irq_request_lock, desc->lock.
 */
int request_percpu_irq(unsigned int irq, irq_handler_t handler,
		       const char *devname, void *percpu_dev_id)
{
	struct irq_desc *desc = irq_to_desc(irq);
	struct irqaction *action;
	unsigned long irqflags;
	int err;

	might_sleep();
	if (!desc || !handler || !percpu_dev_id || !arch_irq_is_percpu(irq))
		return -EINVAL;
	action = kmalloc(sizeof(*action), GFP_KERNEL);
	if (!action)
		return -ENOMEM;
	*action = (struct irqaction){ .handler = handler,
				      .flags = SA_NODELAY | SA_PERCPU,
				      .name = devname,
				      .percpu_dev_id = percpu_dev_id };
	rt_mutex_lock(&irq_request_lock);
	err = -EBUSY;
	if (desc->action)						/* [1] */
		goto out_unlock;
	err = arch_irq_startup(irq);					/* [2] */
	if (err)
		goto out_unlock;
	raw_spin_lock_irqsave(&desc->lock, irqflags);			/* [3] */
	desc->percpu = true;
	desc->threaded = false;
	desc->depth = 0;
	desc->status = 0;
	WRITE_ONCE(desc->action, action);
	raw_spin_unlock_irqrestore(&desc->lock, irqflags);
	rt_mutex_unlock(&irq_request_lock);
	return 0;

out_unlock:
	rt_mutex_unlock(&irq_request_lock);
	kfree(action);
	return err;
}

/*
 * free_irq - see manage.h.
 *	[1] unlink the action; last one: disable and mask the line
 *	[2] wait for handlers still running it (synchronize_irq)
 *	[3] last one: stop the thread, shut the line down
 * Context: task, may sleep; not the line's own thread.
 * Locking: irq_request_lock, desc->lock.
 */
void free_irq(unsigned int irq, void *dev_id)
{
	struct irq_desc *desc = irq_to_desc(irq);
	struct irqaction *action = NULL, **link;
	unsigned long irqflags;
	bool last;

	might_sleep();
	if (WARN_ON(!desc) || WARN_ON(arch_irq_is_percpu(irq)))
		return;
	BUG_ON(desc->thread && desc->thread == current);
	rt_mutex_lock(&irq_request_lock);
	raw_spin_lock_irqsave(&desc->lock, irqflags);			/* [1] */
	for (link = &desc->action; *link; link = &(*link)->next) {
		if ((*link)->dev_id == dev_id) {
			action = *link;
			WRITE_ONCE(*link, action->next);
			break;
		}
	}
	last = action && !desc->action;
	if (last) {
		desc->depth = 1;
		arch_irq_mask(irq);
	}
	raw_spin_unlock_irqrestore(&desc->lock, irqflags);
	if (!action) {
		rt_mutex_unlock(&irq_request_lock);
		WARN(1, "free_irq: irq %u has no handler with dev_id %p\n", irq,
		     dev_id);
		return;
	}
	synchronize_irq(irq);						/* [2] */
	if (last) {							/* [3] */
		arch_irq_shutdown(irq);
		if (desc->thread) {
			kthread_stop(desc->thread);
			desc->thread = NULL;
		}
		desc->threaded = false;
	}
	rt_mutex_unlock(&irq_request_lock);
	kfree(action);
}

/* irq_handlers_idle - nothing of desc runs or is owed to run.
 * Locking: takes desc->lock. */
static bool irq_handlers_idle(struct irq_desc *desc)
{
	unsigned long flags;
	bool idle;

	raw_spin_lock_irqsave(&desc->lock, flags);
	idle = !(desc->status & (IRQS_INPROGRESS | IRQS_RUNTHREAD)) &&
	       !desc->thread_active;
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	return idle;
}

/*
 * synchronize_irq - see manage.h.  A hard-irq handler on another CPU
 * ends soon and cannot wake us: spin for it.  The thread wakes
 * wait_for_threads each time it idles (handle.c [6]).
 * Context: task, may sleep.
 */
void synchronize_irq(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);

	might_sleep();
	if (WARN_ON(!desc))
		return;
	while (READ_ONCE(desc->status) & IRQS_INPROGRESS)
		arch_cpu_relax();
	wait_event(desc->wait_for_threads, irq_handlers_idle(desc));
}

void disable_irq_nosync(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);
	unsigned long flags;

	if (WARN_ON(!desc))
		return;
	raw_spin_lock_irqsave(&desc->lock, flags);
	if (desc->depth++ == 0)
		arch_irq_mask(irq);
	raw_spin_unlock_irqrestore(&desc->lock, flags);
}

void disable_irq(unsigned int irq)
{
	disable_irq_nosync(irq);
	synchronize_irq(irq);
}

/*
 * irq_thread_owns_mask - a threaded level line's mask belongs to its
 * thread from the hard-irq part that set IRQS_MASKED until the end of
 * the run it is owed (handle.c [2], [6]): while a run is owed or going
 * on, that run's end unmasks.  Locking: desc->lock held.
 */
static bool irq_thread_owns_mask(struct irq_desc *desc)
{
	raw_spin_assert_held(&desc->lock);
	return desc->thread_active || (desc->status & IRQS_RUNTHREAD);
}

/*
 * enable_irq - see manage.h.  At depth 0 the line is unmasked, unless
 * the thread still owns the mask (it unmasks at the end of its run,
 * handle.c [6]); a remembered interrupt is raised again in software.
 * A level line masked for its thread, whose run ended while the line
 * was disabled, is unmasked here: the thread's end left it masked
 * because of the disable, and nobody else would unmask it:
 *
 *	CPU0 (irq/N thread)		CPU1
 *	hard irq: mask, IRQS_MASKED
 *	handler runs
 *					disable_irq_nosync: depth 1
 *	[6] depth 1: leave it masked
 *					enable_irq: depth 0, IRQS_MASKED:
 *					(was) "the thread unmasks" - but
 *					its run is over: masked for good
 *
 * tests/kernel/test_irq_enable.c, test_level_line_disabled_while_thread_
 * runs, forces it (the handler sleeps until the line is disabled).
 * Context: any.  Locking: takes desc->lock.
 */
void enable_irq(unsigned int irq)
{
	struct irq_desc *desc = irq_to_desc(irq);
	unsigned long flags;

	if (WARN_ON(!desc))
		return;
	raw_spin_lock_irqsave(&desc->lock, flags);
	if (WARN(desc->depth == 0, "enable_irq: irq %u not disabled\n", irq))
		goto out_unlock;
	if (--desc->depth == 0 && desc->action) {
		if (!(desc->status & IRQS_MASKED)) {
			arch_irq_unmask(irq);
		} else if (!irq_thread_owns_mask(desc)) {
			desc->status &= ~IRQS_MASKED;
			arch_irq_unmask(irq);
		}
		if (desc->status & IRQS_PENDING) {
			desc->status &= ~IRQS_PENDING;
			arch_irq_retrigger(irq);
		}
	}
out_unlock:
	raw_spin_unlock_irqrestore(&desc->lock, flags);
}

int irq_thread_set_prio(unsigned int irq, int prio)
{
	struct sched_param param = { .sched_priority = prio };
	struct irq_desc *desc = irq_to_desc(irq);
	int err = -ENOENT;

	if (!desc || prio < 1 || prio > MAX_USER_RT_PRIO - 1)
		return -EINVAL;
	rt_mutex_lock(&irq_request_lock);
	if (desc->thread)
		err = sched_setscheduler(desc->thread, SCHED_FIFO, &param);
	rt_mutex_unlock(&irq_request_lock);
	return err;
}

bool irq_get_line_info(unsigned int irq, struct irq_line_info *info)
{
	struct irq_desc *desc = irq_to_desc(irq);
	struct task_struct *p;
	unsigned long flags;

	memset(info, 0, sizeof(*info));
	if (!desc)
		return false;
	rt_mutex_lock(&irq_request_lock);
	raw_spin_lock_irqsave(&desc->lock, flags);
	for (struct irqaction *a = desc->action; a; a = a->next)
		info->nr_actions++;
	if (desc->action) {
		strscpy(info->name, desc->action->name, sizeof(info->name));
		info->flags = desc->action->flags;
	}
	info->count = desc->count;
	info->percpu = desc->percpu;
	info->unhandled = desc->unhandled;
	info->depth = desc->depth;
	raw_spin_unlock_irqrestore(&desc->lock, flags);
	p = desc->thread;	/* stable under irq_request_lock */
	if (p) {
		info->thread_pid = p->pid;
		strscpy(info->thread_name, p->name, sizeof(info->thread_name));
		info->thread_policy = p->policy;
		info->thread_prio = p->rt_priority;
	}
	rt_mutex_unlock(&irq_request_lock);
	if (info->percpu)
		info->count = kstat_irqs(irq);
	return info->nr_actions > 0;
}
