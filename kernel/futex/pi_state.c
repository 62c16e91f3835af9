/*
 * kernel/futex/pi_state.c - the PI state of a contended PI futex: the
 * rt_mutex that stands in for the user lock, its owner, and how a new
 * waiter finds it (attach) or creates it.
 *
 * A pi_state lives exactly as long as some task is queued on its futex
 * in the kernel: the first waiter creates it, owned by proxy by the task
 * whose TID is in the word (attach_to_pi_owner); later waiters find it
 * through the queued futex_q's (attach_to_pi_state); the last futex_q to
 * leave drops the last reference and the state is freed, its rt_mutex
 * released on the owner's behalf (rt_mutex_proxy_unlock).  The word
 * itself may keep FUTEX_WAITERS after that: the owner's unlock then comes
 * to the kernel, finds no waiter and clears the word (pi.c).
 * Allocation never happens under the bucket lock: the caller allocates a
 * spare first (Linux's refill_pi_state_cache) and frees it if unused.
 * Depends on kernel/locking/rtmutex_proxy.h, the task list (sched_find_task).
 * Linux counterpart: kernel/futex/pi.c (alloc_pi_state, put_pi_state,
 * attach_to_pi_state, attach_to_pi_owner).  rtk leaves out the owner's
 * pi_state_list and exit_pi_state_list (robust futexes, FUTEX_OWNER_DIED):
 * a PI futex whose owner exits while others wait stays locked; its
 * waiters leave by their timeout or a signal.
 */
#include "kernel/futex/futex_internal.h"
#include "kernel/locking/rtmutex_proxy.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/sched/sched.h"
#include "kernel/mm/slab.h"
#include "lib/errno.h"
#include "lib/bug.h"

/* alloc_pi_state - a spare pi_state, or NULL when out of memory.
 * Context: task, may sleep.  Locking: none held. */
struct futex_pi_state *alloc_pi_state(void)
{
	might_sleep();
	return kzalloc(sizeof(struct futex_pi_state), GFP_KERNEL);
}

/*
 * free_pi_state - free a pi_state nobody can reach any more (its last
 * futex_q left, or it is an unused spare): release its rt_mutex on the
 * owner's behalf, drop the owner reference.  NULL is a no-op.
 * Context: task.  Locking: none held (the final put of the owner may
 * free it).
 */
void free_pi_state(struct futex_pi_state *pi_state)
{
	if (!pi_state)
		return;
	BUG_ON(pi_state->refcount);
	if (pi_state->owner) {
		rt_mutex_proxy_unlock(&pi_state->pi_mutex);
		put_task_struct(pi_state->owner);
	}
	kfree(pi_state);
}

/* get_pi_state - one more futex_q will point at pi_state.
 * Context: task.  Locking: the futex's bucket lock held. */
void get_pi_state(struct futex_pi_state *pi_state)
{
	BUG_ON(pi_state->refcount <= 0);
	pi_state->refcount++;
}

/* put_pi_state_locked - a futex_q stops pointing at pi_state; returns
 * pi_state when that was the last one (the caller frees it with
 * free_pi_state after dropping its locks), else NULL.  Nobody can find
 * it then: lookups go through queued futex_q's only.
 * Context: task.  Locking: the futex's bucket lock held. */
struct futex_pi_state *put_pi_state_locked(struct futex_pi_state *pi_state)
{
	BUG_ON(pi_state->refcount <= 0);
	return --pi_state->refcount ? NULL : pi_state;
}

/*
 * attach_to_pi_state - a new waiter joins the pi_state a queued waiter
 * already made.  The word must name the pi_state's owner (uval read and
 * FUTEX_WAITERS set under the bucket lock): anything else is user space
 * having overwritten a contended word, -EINVAL as in Linux.
 * Context: task.  Locking: the futex's bucket lock held; takes
 * pi_mutex.wait_lock (pairs with the unlock changing owner under it).
 */
int attach_to_pi_state(u32 uval, struct futex_pi_state *pi_state)
{
	struct task_struct *owner;
	unsigned long flags;

	raw_spin_lock_irqsave(&pi_state->pi_mutex.wait_lock, flags);
	owner = pi_state->owner;
	raw_spin_unlock_irqrestore(&pi_state->pi_mutex.wait_lock, flags);
	if ((uval & FUTEX_TID_MASK) != futex_tid(owner))
		return -EINVAL;
	get_pi_state(pi_state);
	return 0;
}

/*
 * attach_to_pi_owner - the first waiter of a PI futex: find the task
 * whose TID is in uval and make the spare pi_state's rt_mutex owned by it
 * (by proxy).  -ESRCH when no live task has that TID (Linux's answer for
 * a dead owner without robust lists); the spare is then kept.
 * On success *ps is the new pi_state (refcount 1, the caller's futex_q),
 * and *spare is NULL.
 * Context: task.  Locking: the futex's bucket lock held; takes the task
 * list lock (raw).
 */
int attach_to_pi_owner(u32 uval, const struct futex_key *key,
		       struct futex_pi_state **spare,
		       struct futex_pi_state **ps)
{
	struct futex_pi_state *pi_state = *spare;
	struct task_struct *owner;

	BUG_ON(!pi_state);
	owner = sched_find_task(uval & FUTEX_TID_MASK);
	if (!owner)
		return -ESRCH;
	if (READ_ONCE(owner->flags) & PF_EXITING) {
		put_task_struct(owner);
		return -ESRCH;
	}
	rt_mutex_init_proxy_locked(&pi_state->pi_mutex, owner);
	pi_state->owner = owner;	/* sched_find_task's reference */
	pi_state->refcount = 1;
	pi_state->key = *key;
	*spare = NULL;
	*ps = pi_state;
	return 0;
}
