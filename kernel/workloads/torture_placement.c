/*
 * kernel/workloads/torture_placement.c - the RT placement check (see
 * kernel/workloads/torture_placement.h).
 *
 * Why a sample is taken under the run-queue locks, and why a wait must
 * show the same nr_migrations: the check used to read p, c's curr and
 * the counters one by one without locks, and on a non-rt model the
 * checker is interrupted mid-sample by hard and soft interrupt work (and
 * its vCPU by the host: 22 ms seen).  The pieces then came from
 * different waits, and an ordinary wait was reported (torture none and
 * desktop, "trt/5 ... waits while CPU 1 runs tpong/2 ... after a
 * reschedule and 3 ticks"; the scheduling trace showed trt/5 had run
 * and slept in between):
 *
 *	checker (CPU0)                 CPU1
 *	sample 1: p waiting on CPU1,   W (worse) runs, p queued (none:
 *	  CPU1 runs W                    W runs until it blocks)
 *	  ... interrupted ...          W blocks; p runs, sleeps, wakes
 *	                               and waits behind W2 (same prio)
 *	  reads p->nr_switches (new)
 *	  and CPU1's switch count
 *	sample 2: "same" wait, CPU1
 *	  switched since: reported
 *
 * The same report came from a p pushed or pulled away and back without
 * running (same queue, same nr_switches, c rescheduled while p was
 * away): nr_migrations tells them apart.  Test: placement_check,
 * test_wait_moved_away_and_back_is_not_one_wait.  Not told apart: a mask
 * changed and changed back between two samples that forbade c for a
 * while (the shuffler could; not seen).
 */
#include "kernel/workloads/torture_placement.h"
#include "kernel/sched/rq.h"
#include "kernel/time/tick.h"
#include "lib/string.h"

/* worse_cpu - an online CPU allowed to p whose curr looks less important
 * than p (idle included), prefer first; -1 if none.  Lockless reads, to
 * choose which run queue to lock: placement_snapshot decides under it. */
static int worse_cpu(struct task_struct *p, int prefer)
{
	int prio = READ_ONCE(p->prio), cpu;

	if (prefer >= 0 && cpumask_test_cpu(prefer, &p->cpus_allowed) &&
	    READ_ONCE(READ_ONCE(cpu_rq(prefer)->curr)->prio) > prio)
		return prefer;
	for_each_online_cpu(cpu)
		if (cpumask_test_cpu(cpu, &p->cpus_allowed) &&
		    READ_ONCE(READ_ONCE(cpu_rq(cpu)->curr)->prio) > prio)
			return cpu;
	return -1;
}

bool placement_snapshot(struct task_struct *p, int prefer,
			struct placement_snap *s)
{
	struct task_struct *curr;
	unsigned long flags;
	struct rq *a, *c;
	bool waiting;
	int cpu;

	might_sleep();
	memset(s, 0, sizeof(*s));
	s->cpu = -1;
	cpu = worse_cpu(p, prefer);
	if (cpu < 0)
		return false;
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	for (;;) {	/* push and pull move p under run-queue locks only */
		a = cpu_rq(READ_ONCE(p->cpu));
		c = cpu_rq(cpu);
		double_rq_lock(a, c);
		if (a == cpu_rq(p->cpu))
			break;
		double_rq_unlock(a, c);
	}
	curr = c->curr;
	waiting = p->on_rq && !p->on_cpu && p->state == TASK_RUNNING &&
		  !p->migrate_pending;
	if (waiting && c->online && cpumask_test_cpu(cpu, &p->cpus_allowed) &&
	    curr->prio > p->prio) {
		s->cpu = cpu;
		s->queue = a->cpu;
		s->p_switches = p->nr_switches;
		s->p_migrations = p->nr_migrations;
		s->mask = p->cpus_allowed.bits;
		s->curr_prio = curr->prio;
		memcpy(s->curr_comm, curr->name, sizeof(s->curr_comm));
		s->cpu_switches = c->nr_switches;
		s->cpu_ticks = tick_count(cpu);
	}
	double_rq_unlock(a, c);
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	return s->cpu >= 0;
}

bool placement_same_wait(const struct placement_snap *first,
			 const struct placement_snap *now)
{
	return first->cpu >= 0 && now->cpu == first->cpu &&
	       now->queue == first->queue &&
	       now->p_switches == first->p_switches &&
	       now->p_migrations == first->p_migrations &&
	       now->mask == first->mask;
}

bool placement_violated(const struct placement_snap *first,
			const struct placement_snap *now,
			unsigned int tolerance_ticks)
{
	return placement_same_wait(first, now) &&
	       now->cpu_ticks >= first->cpu_ticks + tolerance_ticks &&
	       now->cpu_switches != first->cpu_switches;
}
