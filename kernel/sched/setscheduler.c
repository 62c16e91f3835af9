/*
 * kernel/sched/setscheduler.c - changing a task's priority: policy and
 * RT priority (sched_setscheduler), nice (set_user_nice) and the
 * effective priority set by priority inheritance (rt_mutex_setprio).
 *
 * A task's prio is the better of its normal_prio (from policy,
 * rt_priority, static_prio) and its top PI waiter's (rt_mutex_getprio);
 * every setter recomputes normal_prio, requeues the task at its new
 * effective prio and fixes up preemption (change_prio_locked), then the
 * setters outside the locking code carry the change along a PI chain
 * the task is blocked in (rt_mutex_adjust_pi).
 * Linux counterpart: kernel/sched/core.c (__sched_setscheduler,
 * __setscheduler_prio / normal_prio, set_user_nice, rt_mutex_setprio).
 * rtk leaves out SCHED_DEADLINE/BATCH/IDLE, sched_attr, reset-on-fork,
 * permission checks and the sched-class switch callbacks.
 * Spec: article, "Priority inheritance" (rt_mutex_setprio boosts the
 * effective prio only); POSIX sched_setscheduler(2) for the policies.
 */
#include "kernel/sched/rq.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/debug/hooks.h"
#include "lib/errno.h"

DEFINE_RACE_WINDOW(sched_setscheduler_pi_window);

/* __setscheduler_prio - normal_prio from the policy: RT priorities 1..99
 * map to kernel prio 98..0, SCHED_OTHER uses static_prio (nice). */
static void __setscheduler_prio(struct task_struct *p)
{
	if (task_has_rt_policy(p))
		p->normal_prio = MAX_RT_PRIO - 1 - p->rt_priority;
	else
		p->normal_prio = p->static_prio;
}

/*
 * change_prio_locked - requeue p for a new effective prio and fix up
 * preemption and placement (prio_changed_rt, kernel/sched/rt.c).
 * Returns true when p must be pushed (push_rt_tasks after the unlock).
 * Locking: p->pi_lock and task_rq(p)->lock held.
 */
static bool change_prio_locked(struct rq *rq, struct task_struct *p, int prio)
{
	bool queued = p->on_rq, running = rq->curr == p;
	int old = p->prio;

	raw_spin_assert_held(&rq->lock);
	if (queued)
		deactivate_task(rq, p);
	p->prio = prio;
	if (queued)
		activate_task(rq, p, running && prio > old ? false : running);
	return prio_changed_rt(rq, p, old);
}

int sched_setscheduler(struct task_struct *p, int policy,
		       const struct sched_param *param)
{
	unsigned long flags;
	struct rq *rq;
	int prio;

	if (policy != SCHED_FIFO && policy != SCHED_RR &&
	    policy != SCHED_OTHER)
		return -EINVAL;
	if (!param || param->sched_priority < 0 ||
	    param->sched_priority > MAX_USER_RT_PRIO - 1)
		return -EINVAL;
	if ((policy == SCHED_OTHER) != (param->sched_priority == 0))
		return -EINVAL;
	if (p->flags & PF_IDLE)
		return -EPERM;
	rq = task_rq_lock(p, &flags);
	update_curr(rq);
	p->policy = policy;
	p->rt_priority = param->sched_priority;
	p->rr_slice_ns = RR_TIMESLICE_NS;
	__setscheduler_prio(p);
	/* the better of the new normal prio and the top PI waiter's */
	prio = rt_mutex_getprio(p);
	change_prio_locked(rq, p, prio);
	task_rq_unlock(rq, p, flags);
	push_rt_tasks(rq);
	/* until the walk below requeues it, a waiter of p's is queued at
	 * p's old prio: the state [T4] of try_to_take_rt_mutex must not
	 * trust (kernel/locking/rtmutex.c) */
	trace_race_window(&sched_setscheduler_pi_window);
	rt_mutex_adjust_pi(p);	/* blocked: carry the change along the chain */
	return 0;
}

void set_user_nice(struct task_struct *p, long nice)
{
	unsigned long flags;
	struct rq *rq;

	nice = nice < -20 ? -20 : nice > 19 ? 19 : nice;
	rq = task_rq_lock(p, &flags);
	p->static_prio = NICE_TO_PRIO((int)nice);
	__setscheduler_prio(p);
	if (p->prio != rt_mutex_getprio(p))
		change_prio_locked(rq, p, rt_mutex_getprio(p));
	task_rq_unlock(rq, p, flags);
	rt_mutex_adjust_pi(p);
}

void rt_mutex_setprio(struct task_struct *p, int prio)
{
	unsigned long flags;
	struct rq *rq;
	bool push;

	/* the locking code holds p->pi_lock: take only the rq lock */
	raw_spin_assert_held(&p->pi_lock);
	raw_local_irq_save(flags);
	rq = __task_rq_lock(p);
	update_curr(rq);
	if (p->prio != prio)
		trace_sched_pi_setprio(p, prio);
	push = change_prio_locked(rq, p, prio);
	raw_spin_unlock(&rq->lock);
	if (push)
		push_rt_tasks(rq);	/* prio_changed_rt [3] */
	raw_local_irq_restore(flags);
}
