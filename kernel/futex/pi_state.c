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
 * Each pi_state is on its owner's pi_state_list, so that an owner that
 * exits while tasks wait hands the futex on (kernel/futex/pi_exit.c).
 * Linux counterpart: kernel/futex/pi.c (alloc_pi_state, put_pi_state,
 * attach_to_pi_state, attach_to_pi_owner).  rtk leaves out robust
 * futexes and FUTEX_OWNER_DIED.
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
 * it then: lookups go through queued futex_q's only, and the owner's
 * exit walk through pi_state_list, which it leaves here, under the
 * bucket lock, so that the walk finds only live states (pi_exit.c).
 * Context: task.  Locking: the futex's bucket lock held; takes the
 * owner's pi_lock. */
struct futex_pi_state *put_pi_state_locked(struct futex_pi_state *pi_state)
{
	struct task_struct *owner = pi_state->owner;
	unsigned long flags;

	BUG_ON(pi_state->refcount <= 0);
	if (--pi_state->refcount)
		return NULL;
	raw_spin_lock_irqsave(&owner->pi_lock, flags);
	list_del_init(&pi_state->list);
	raw_spin_unlock_irqrestore(&owner->pi_lock, flags);
	return pi_state;
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
 * (by proxy).  On success *ps is the new pi_state (refcount 1, the
 * caller's futex_q), and *spare is NULL.  On error the spare is kept:
 *	-ESRCH	no task has that TID, or it does not use the futex's address
 *		space (a thread of another process, as Linux finds no such
 *		TID in the caller's namespace), or it is exiting;
 *	-EPERM	the TID names a kernel thread (Linux's answer too): without
 *		this a program could hold any kthread, rcu_cb or the shell,
 *		at its own RT priority for as long as it waits.
 * The futex's address space (key->mm) decides: a word in a process's
 * memory can be owned only by threads on that address space (the
 * in-kernel suites' threads borrow a test mm: tests/kernel/
 * futex_test_mm.c), never by a kernel thread.  When processes
 * share memory (issue 30's fork), this widens to "any user thread", as
 * Linux's namespace lookup.
 *
 * The exit race, closed by the owner's pi_lock:
 *
 *	CPU0 (waiter, here)		CPU1 (owner O, do_exit)
 *	sched_find_task(TID): O
 *					lock(O->pi_lock); PF_EXITING;
 *					unlock; walk O->pi_state_list
 *	lock(O->pi_lock)
 *	PF_EXITING: -ESRCH
 * Either the walk runs after the attach put pi_state on O's list (and
 * hands it to this waiter: pi_exit.c), or the attach sees PF_EXITING;
 * before, PF_EXITING was read without a lock and a waiter could attach
 * just after the owner's exit had passed and sleep on a dead owner.
 * Linux keeps a separate futex_state (OK, EXITING, DEAD) under the same
 * pi_lock and makes the attacher wait for the exit to finish, because
 * its robust-list walk may release the word; rtk has no robust lists.
 * Context: task.  Locking: the futex's bucket lock held; takes the task
 * list lock and the owner's pi_lock (raw).
 */
int attach_to_pi_owner(u32 uval, const struct futex_key *key,
		       struct futex_pi_state **spare,
		       struct futex_pi_state **ps)
{
	struct futex_pi_state *pi_state = *spare;
	struct task_struct *owner;
	unsigned long flags;
	int ret = 0;

	BUG_ON(!pi_state);
	owner = sched_find_task(uval & FUTEX_TID_MASK);
	if (!owner)
		return -ESRCH;
	raw_spin_lock_irqsave(&owner->pi_lock, flags);
	/* every rtk task is a kthread underneath (PF_KTHREAD): a kernel
	 * thread is one without an address space, Linux's PF_KTHREAD */
	if (owner->flags & PF_EXITING)
		ret = -ESRCH;
	else if (!owner->mm)
		ret = -EPERM;
	else if ((const void *)owner->mm != key->mm)
		ret = -ESRCH;	/* stable: exit_mm comes after PF_EXITING */
	if (ret) {
		raw_spin_unlock_irqrestore(&owner->pi_lock, flags);
		put_task_struct(owner);
		return ret;
	}
	rt_mutex_init_proxy_locked(&pi_state->pi_mutex, owner);
	pi_state->owner = owner;	/* sched_find_task's reference */
	pi_state->refcount = 1;
	pi_state->key = *key;
	list_add(&pi_state->list, &owner->pi_state_list);
	raw_spin_unlock_irqrestore(&owner->pi_lock, flags);
	*spare = NULL;
	*ps = pi_state;
	return 0;
}
