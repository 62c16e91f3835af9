/*
 * kernel/locking/pi_chain.c - the priority-inheritance queues and the
 * per-link decisions of the chain walk (see kernel/locking/pi_chain.h).
 * Portable: lib/plist only, built into the kernel and, through HOST_SRCS,
 * into the host unit tests.
 * Linux counterpart: kernel/locking/rtmutex.c (rt_mutex_enqueue,
 * rt_mutex_enqueue_pi, rt_mutex_getprio, the requeue in
 * rt_mutex_adjust_prio_chain).
 * Model: model/pi/pi_chain.pml (the same function names).
 */
#include "kernel/locking/pi_chain.h"

void pi_waiter_enqueue(struct plist_head *wait_list,
		       struct rt_mutex_waiter *waiter)
{
	plist_node_init(&waiter->list_entry, waiter->prio);
	plist_add(&waiter->list_entry, wait_list);
}

void pi_waiter_dequeue(struct plist_head *wait_list,
		       struct rt_mutex_waiter *waiter)
{
	plist_del(&waiter->list_entry, wait_list);
}

struct rt_mutex_waiter *pi_top_waiter(const struct plist_head *wait_list)
{
	if (plist_head_empty(wait_list))
		return NULL;
	return plist_first_entry(wait_list, struct rt_mutex_waiter,
				 list_entry);
}

struct rt_mutex_waiter *pi_top_pi_waiter(const struct plist_head *pi_waiters)
{
	if (plist_head_empty(pi_waiters))
		return NULL;
	return plist_first_entry(pi_waiters, struct rt_mutex_waiter,
				 pi_list_entry);
}

void pi_owner_enqueue(struct plist_head *pi_waiters,
		      struct rt_mutex_waiter *waiter)
{
	plist_node_init(&waiter->pi_list_entry, waiter->prio);
	plist_add(&waiter->pi_list_entry, pi_waiters);
}

void pi_owner_dequeue(struct plist_head *pi_waiters,
		      struct rt_mutex_waiter *waiter)
{
	plist_del(&waiter->pi_list_entry, pi_waiters);
}

int pi_effective_prio(int normal_prio, const struct plist_head *pi_waiters)
{
	struct rt_mutex_waiter *top = pi_top_pi_waiter(pi_waiters);

	return top && top->prio < normal_prio ? top->prio : normal_prio;
}

struct rt_mutex_waiter *pi_requeue_waiter(struct plist_head *wait_list,
					  struct rt_mutex_waiter *waiter,
					  int prio)
{
	struct rt_mutex_waiter *old_top = pi_top_waiter(wait_list);

	pi_waiter_dequeue(wait_list, waiter);
	waiter->prio = prio;
	pi_waiter_enqueue(wait_list, waiter);
	return old_top;
}

/*
 * The owner's pi_waiters holds exactly one entry per owned lock with
 * waiters, that lock's top waiter at its queued prio.  Taking old_top
 * out and putting the current top in keeps that true for every kind of
 * change, also when both are the same waiter at a new prio (re-sort).
 */
void pi_owner_update(struct plist_head *owner_pi_waiters,
		     const struct plist_head *wait_list,
		     struct rt_mutex_waiter *old_top)
{
	struct rt_mutex_waiter *new_top = pi_top_waiter(wait_list);

	if (old_top)
		pi_owner_dequeue(owner_pi_waiters, old_top);
	if (new_top)
		pi_owner_enqueue(owner_pi_waiters, new_top);
}

enum pi_link_action pi_link_action(const struct rt_mutex_waiter *waiter,
				   const struct plist_head *task_pi_waiters,
				   int task_prio,
				   const struct rt_mutex_waiter *top_waiter,
				   bool detect)
{
	bool changes = true;

	if (!waiter)
		return PI_LINK_STOP;
	if (top_waiter) {
		if (plist_head_empty(task_pi_waiters))
			return PI_LINK_STOP;
		if (top_waiter != pi_top_pi_waiter(task_pi_waiters))
			changes = false;
	}
	if (waiter->prio == task_prio)
		changes = false;
	if (changes)
		return PI_LINK_REQUEUE;
	return detect ? PI_LINK_FOLLOW : PI_LINK_STOP;
}
