/*
 * kernel/irq/tasklet.c - tasklets on top of the HI and TASKLET softirq
 * vectors (contract in tasklet.h).
 *
 * Each CPU keeps two singly linked lists (one per vector), touched only
 * by that CPU with interrupts off.  The state word makes a tasklet run
 * once per schedule and on one CPU at a time:
 *	schedule: set SCHED (already set: nothing to do), append, raise
 *	action:   detach the list; per tasklet: set RUN (already set: it
 *	          runs elsewhere, queue it again), clear SCHED, call it,
 *	          clear RUN
 * Linux counterpart: kernel/softirq.c tasklet_action_common; rtk leaves
 * out tasklet_disable/enable.
 */
#include "kernel/irq/tasklet.h"
#include "kernel/irq/softirq.h"
#include "kernel/percpu.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "kernel/time/tick.h"
#include "lib/bug.h"

struct tasklet_list {
	struct tasklet_struct *head;
	struct tasklet_struct **tail;	/* &head when empty; NULL: unused */
};

/* [0] TASKLET_SOFTIRQ, [1] HI_SOFTIRQ; own CPU, interrupts off. */
static DEFINE_PER_CPU(struct tasklet_list[2], tasklet_lists);

static struct tasklet_list *this_list(int hi)
{
	struct tasklet_list *l = &(*this_cpu_ptr(&tasklet_lists))[hi];

	if (!l->tail)
		l->tail = &l->head;
	return l;
}

void tasklet_init(struct tasklet_struct *t, void (*func)(unsigned long),
		  unsigned long data)
{
	*t = (struct tasklet_struct){ .func = func, .data = data };
}

/* tasklet_queue - append t to this CPU's list hi and raise its vector.
 * Context: interrupts off. */
static void tasklet_queue(struct tasklet_struct *t, int hi)
{
	struct tasklet_list *l = this_list(hi);

	t->next = NULL;
	*l->tail = t;
	l->tail = &t->next;
	raise_softirq_irqoff(hi ? HI_SOFTIRQ : TASKLET_SOFTIRQ);
}

static void __tasklet_schedule(struct tasklet_struct *t, int hi)
{
	unsigned long flags;

	if (__atomic_fetch_or(&t->state, TASKLET_STATE_SCHED,
			      __ATOMIC_ACQ_REL) & TASKLET_STATE_SCHED)
		return;
	raw_local_irq_save(flags);
	tasklet_queue(t, hi);
	raw_local_irq_restore(flags);
}

void tasklet_schedule(struct tasklet_struct *t)
{
	__tasklet_schedule(t, 0);
}

void tasklet_hi_schedule(struct tasklet_struct *t)
{
	__tasklet_schedule(t, 1);
}

/*
 * tasklet_action_common - run this CPU's list hi (see the file header).
 * Context: softirq, or ksoftirqd under rt; interrupts on.
 */
static void tasklet_action_common(int hi)
{
	struct tasklet_struct *list, *t;
	struct tasklet_list *l;

	raw_local_irq_disable();
	l = this_list(hi);
	list = l->head;
	l->head = NULL;
	l->tail = &l->head;
	raw_local_irq_enable();
	while ((t = list)) {
		list = t->next;
		if (__atomic_fetch_or(&t->state, TASKLET_STATE_RUN,
				      __ATOMIC_ACQUIRE) & TASKLET_STATE_RUN) {
			raw_local_irq_disable();
			tasklet_queue(t, hi);	/* running elsewhere: later */
			raw_local_irq_enable();
			continue;
		}
		__atomic_fetch_and(&t->state, ~TASKLET_STATE_SCHED,
				   __ATOMIC_ACQ_REL);
		t->func(t->data);
		__atomic_fetch_and(&t->state, ~TASKLET_STATE_RUN,
				   __ATOMIC_RELEASE);
	}
}

static void tasklet_action(void)
{
	tasklet_action_common(0);
}

static void tasklet_hi_action(void)
{
	tasklet_action_common(1);
}

/*
 * tasklet_kill - see tasklet.h.  The tasklet runs in a softirq that
 * cannot wake us, so poll: one tick's sleep per round (at rt it may be
 * ksoftirqd/N below the caller's priority, so a busy wait could keep it
 * from ever running).
 * Context: task, may sleep.
 */
void tasklet_kill(struct tasklet_struct *t)
{
	might_sleep();
	while (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) &
	       (TASKLET_STATE_SCHED | TASKLET_STATE_RUN))
		schedule_timeout_uninterruptible(TICK_NSEC);
}

void __init tasklet_init_softirqs(void)
{
	open_softirq(TASKLET_SOFTIRQ, tasklet_action);
	open_softirq(HI_SOFTIRQ, tasklet_hi_action);
}
