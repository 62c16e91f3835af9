/*
 * kernel/futex/pi_exit.c - a thread that exits while it owns contended
 * PI futexes hands each of them on, as its unlock would have.
 *
 * A PI futex's owner is the task whose TID the word holds; while others
 * wait, its pi_state is on the owner's pi_state_list (pi_state.c).  When
 * the owner leaves without unlocking (pthread_exit with the mutex held,
 * or a thread killed by its process's exit), the waiters would otherwise
 * sleep on a dead task until their timeout, or for ever without one.
 * exit_pi_state_list, called by do_exit right after PF_EXITING is set
 * under the owner's pi_lock (so that no new waiter can attach,
 * attach_to_pi_owner) and before the address space goes:
 *	[1] take the first pi_state of the list and its key, under pi_lock
 *	[2] under its bucket lock, check it is still ours and still first:
 *	    an unlock of ours cannot race (we are here), but its last waiter
 *	    may have left (put_pi_state_locked unlists it, under this lock)
 *	[3] hand it to the top waiter as FUTEX_UNLOCK_PI does
 *	    (wake_futex_pi: the word names the new owner, the rt_mutex is
 *	    handed over and our boost goes); a word that faults is faulted
 *	    in and [2] done again
 *	[4] a word user space has made unusable (unmapped, or no longer our
 *	    TID) after a few tries: the rt_mutex is handed over all the
 *	    same, so nobody sleeps on a dead task; the word is then the
 *	    program's own problem, as a corrupted mutex is
 *	[5] no task on the rt_mutex (a waiter between its failed [LP5] and
 *	    its [LP7]): just leave the list; that waiter frees the state
 * The list is empty when this returns, and stays empty: attach refuses
 * an exiting owner.
 * Linux counterpart: exit_pi_state_list in kernel/futex/core.c, which
 * leaves the rt_mutex without owner and lets the woken waiter repair the
 * word (fixup_pi_state_owner); rtk writes the word first, as its unlock
 * does (pi.c), so the word and the rt_mutex never disagree.  Linux also
 * runs the robust list first and sets FUTEX_OWNER_DIED; rtk has no robust
 * lists yet.
 */
#include "kernel/futex/futex_internal.h"
#include "kernel/futex/futex.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/sched/sched.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/bug.h"

/* a word that keeps changing or faulting is given up after this many
 * tries ([4]); user space can change a contended word only by writing
 * garbage into it */
#define EXIT_WORD_TRIES 3

/* pi_state_first_of - is ps still the first pi_state current owns?  A
 * pointer comparison: ps may be freed already (then it is not on the
 * list; no new state can join an exiting task's list).
 * Locking: takes current->pi_lock. */
static bool pi_state_first_of(const struct futex_pi_state *ps)
{
	struct task_struct *p = current;
	bool first;

	raw_spin_lock_irq(&p->pi_lock);
	first = !list_empty(&p->pi_state_list) &&
		list_first_entry(&p->pi_state_list, struct futex_pi_state,
				 list) == ps;
	raw_spin_unlock_irq(&p->pi_lock);
	return first;
}

/*
 * exit_pi_state_force - [4] and [5]: hand ps's rt_mutex over without
 * touching the word, or unlist ps if nobody waits on it.
 * Context: task.  Locking: hb->lock held; takes pi_mutex.wait_lock and
 * the pi_locks.
 */
static void exit_pi_state_force(struct futex_pi_state *ps, u32 uval)
{
	struct rt_mutex *lock = &ps->pi_mutex;
	struct task_struct *p = current;
	bool handed;

	raw_spin_lock_irq(&lock->wait_lock);
	handed = pi_state_hand_over(ps);
	if (!handed) {						/* [5] */
		raw_spin_lock(&p->pi_lock);
		list_del_init(&ps->list);
		raw_spin_unlock(&p->pi_lock);
	}
	raw_spin_unlock_irq(&lock->wait_lock);
	if (handed)
		pr_warn("futex: %s[%d] exited owning PI futex %#lx whose word "
			"(%#x) it could not update; its rt_mutex was handed "
			"over\n", p->name, p->pid, (unsigned long)ps->key.address,
			uval);
}

/*
 * exit_pi_state - [2]..[5] for one pi_state of current's list.
 * Context: task, may sleep (faulting the word in).  Locking: none held;
 * takes the bucket lock.
 */
static void exit_pi_state(struct futex_pi_state *ps,
			  const struct futex_key *key)
{
	u32 __user *uaddr = (u32 __user *)key->address;
	struct futex_hash_bucket *hb = futex_hash(key);
	u32 uval = 0;
	int tries, ret;

	for (tries = 0;; tries++) {
		raw_spin_lock(&hb->lock);
		if (!pi_state_first_of(ps))			/* [2] */
			break;
		ret = futex_get_value_locked(&uval, uaddr);
		if (!ret && (uval & FUTEX_TID_MASK) != futex_tid(current))
			ret = -EINVAL;
		if (!ret) {
			ret = wake_futex_pi(uaddr, uval, ps);	/* [3] */
			if (!ret)
				break;
		}
		if (ret == -EINVAL || tries >= EXIT_WORD_TRIES) {
			exit_pi_state_force(ps, uval);		/* [4] */
			break;
		}
		raw_spin_unlock(&hb->lock);
		if (ret == -EFAULT && futex_fault_in(uaddr))
			tries = EXIT_WORD_TRIES;	/* unmapped: force */
	}
	raw_spin_unlock(&hb->lock);
}

void exit_pi_state_list(void)
{
	struct task_struct *p = current;
	struct futex_pi_state *ps;
	struct futex_key key;

	might_sleep();
	BUG_ON(!(p->flags & PF_EXITING));
	for (;;) {
		raw_spin_lock_irq(&p->pi_lock);			/* [1] */
		if (list_empty(&p->pi_state_list)) {
			raw_spin_unlock_irq(&p->pi_lock);
			return;
		}
		ps = list_first_entry(&p->pi_state_list, struct futex_pi_state,
				      list);
		key = ps->key;
		raw_spin_unlock_irq(&p->pi_lock);
		exit_pi_state(ps, &key);
	}
}
