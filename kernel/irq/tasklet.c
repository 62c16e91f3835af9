/*
 * kernel/irq/tasklet.c - tasklets on top of the HI and TASKLET softirq
 * vectors (contract in tasklet.h).
 *
 * Each CPU keeps two singly linked lists (one per vector), touched only
 * by that CPU with interrupts off.  The state word makes a tasklet run
 * once per schedule and on one CPU at a time:
 *	schedule: set SCHED (already set: nothing to do), append, raise
 *	action:   detach the list; per tasklet: set RUN (already set: it
 *	          runs elsewhere; set PENDING instead and drop it here),
 *	          clear SCHED, call it, clear RUN, and if PENDING was set
 *	          meanwhile queue it again here
 * Linux counterpart: kernel/softirq.c tasklet_action_common (mainline
 * requeues on the CPU that found it running, which under rt spins, see
 * tasklet_trylock); the 2.6 -rt patch's TASKLET_STATE_PENDING.  rtk
 * leaves out tasklet_disable/enable.
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
 * tasklet_trylock - take t for a run on this CPU (set RUN), or, if it
 * runs elsewhere, leave it to that CPU (set PENDING); one compare-and-
 * swap on the whole word, so the runner's tasklet_unlock() either sees
 * PENDING or cleared RUN first (and then we take it).  Requeueing it here
 * instead, as before, made this CPU spin while the run elsewhere lasted;
 * under rt that run can be preempted or sleep for as long as a higher-
 * priority task wants, and ksoftirqd/N went round and round at its
 * SCHED_FIFO priority, starving every task below it on CPU N:
 *
 *	CPU0 (ksoftirqd/0)		CPU1 (ksoftirqd/1)
 *	RUN set, t->func() runs
 *	  <preempted or sleeping>	tasklet_schedule(t): SCHED, queued
 *					RUN is set: queue t again, raise
 *					RUN is set: queue t again, raise
 *					... (CPU1 busy at SCHED_FIFO 1)
 *	clear RUN
 *
 * tests/kernel/test_tasklet_races.c (test_tasklet_rescheduled_while_
 * held_elsewhere_does_not_spin) holds the run on CPU0.
 * Context: the tasklet softirq.  Locking: none (atomic state word).
 */
static bool tasklet_trylock(struct tasklet_struct *t)
{
	unsigned long old = __atomic_load_n(&t->state, __ATOMIC_RELAXED);
	unsigned long new;

	do {
		if (old & TASKLET_STATE_RUN)
			new = old | TASKLET_STATE_PENDING;
		else
			new = old | TASKLET_STATE_RUN;
	} while (!__atomic_compare_exchange_n(&t->state, &old, new, false,
					      __ATOMIC_ACQ_REL,
					      __ATOMIC_RELAXED));
	return !(old & TASKLET_STATE_RUN);
}

/*
 * tasklet_unlock - end of a run: clear RUN and PENDING together; if
 * another CPU left t to us meanwhile (PENDING; SCHED is still set),
 * queue it here for one more run.  Context: the tasklet softirq.
 */
static void tasklet_unlock(struct tasklet_struct *t, int hi)
{
	unsigned long old = __atomic_fetch_and(&t->state,
					       ~(TASKLET_STATE_RUN |
						 TASKLET_STATE_PENDING),
					       __ATOMIC_ACQ_REL);

	if (old & TASKLET_STATE_PENDING) {
		raw_local_irq_disable();
		tasklet_queue(t, hi);
		raw_local_irq_enable();
	}
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
		if (!tasklet_trylock(t))
			continue;	/* its runner queues it again */
		__atomic_fetch_and(&t->state, ~TASKLET_STATE_SCHED,
				   __ATOMIC_ACQ_REL);
		t->func(t->data);
		tasklet_unlock(t, hi);
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
