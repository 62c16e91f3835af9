/*
 * kernel/futex/robust.c - robust futexes: when a thread dies holding a
 * lock that lives in user memory, the kernel marks the lock's word
 * FUTEX_OWNER_DIED and wakes a waiter, who then owns a lock whose
 * protected data may be inconsistent (glibc: EOWNERDEAD, then
 * pthread_mutex_consistent).
 *
 * User space keeps the list: each thread registers one head with
 * set_robust_list (kernel/user/sys_process.c records it in struct
 * user_thread), and links every robust mutex it holds into it.  The
 * layout is Linux's ABI (include/uapi/linux/futex.h):
 *
 *	struct robust_list_head {		struct robust_list {
 *		struct robust_list list;	    struct robust_list *next;
 *		long futex_offset;		};
 *		struct robust_list *list_op_pending;
 *	};
 *
 * Each entry is a robust_list inside a mutex; its word is at entry +
 * futex_offset.  Bit 0 of a next pointer says the entry it points to is
 * a PI futex.  list_op_pending is the entry being locked or unlocked
 * right now (user space sets it before and clears it after touching the
 * list), so a death between the word and the list is covered too.
 *
 * Everything here is user memory, read with the uaccess seam: a bad
 * pointer ends the walk, a cycle ends after ROBUST_LIST_LIMIT entries,
 * and nothing user space writes can make the kernel loop or fault.
 * Linux counterpart: kernel/futex/core.c (exit_robust_list,
 * fetch_robust_entry, handle_futex_death).  rtk leaves out the compat
 * (32-bit) list and the futex_exit_mutex Linux needs because it walks
 * after PF_EXITING (see exit_robust_list).
 */
#include "kernel/futex/futex_internal.h"
#include "kernel/sched/sched.h"
#include "kernel/user/uaccess.h"
#include "lib/errno.h"
#include "lib/bug.h"

/* Linux's ROBUST_LIST_LIMIT: a list longer than this is taken to be a
 * cycle user space made; glibc's lists hold a thread's held robust
 * mutexes, a handful. */
#define ROBUST_LIST_LIMIT 2048

struct robust_list {
	struct robust_list __user *next;
};

struct robust_list_head {
	struct robust_list list;
	long futex_offset;
	struct robust_list __user *list_op_pending;
};

_Static_assert(sizeof(struct robust_list_head) == 24,
	       "set_robust_list's only length (sys_process.c)");

/*
 * fetch_robust_entry - *entry = the pointer at head without its bit 0,
 * *pi = bit 0.  0 or -EFAULT.  Context: task, may fault.
 */
static int fetch_robust_entry(struct robust_list __user **entry,
			      struct robust_list __user *__user *head, bool *pi)
{
	unsigned long uentry;

	if (copy_from_user(&uentry, head, sizeof(uentry)))
		return -EFAULT;
	*entry = (struct robust_list __user *)(uentry & ~1UL);
	*pi = uentry & 1;
	return 0;
}

/*
 * handle_futex_death - the futex word at uaddr, of a thread that dies:
 *	[1] a misaligned or unreadable word: leave it (-EFAULT ends the
 *	    walk, as Linux)
 *	[2] the pending op of a non-PI futex whose word is 0: the owner
 *	    unlocked and died before it woke anyone, or a waiter died
 *	    between being woken and taking the lock: wake one more, so a
 *	    wake-up is not lost (Linux's rule)
 *	[3] a word that does not name us is somebody else's: nothing
 *	[4] PI: unlock it as FUTEX_UNLOCK_PI would, with FUTEX_OWNER_DIED:
 *	    the top waiter gets the word and the rt_mutex, or a free word
 *	    keeps OWNER_DIED (pi.c futex_unlock_pi)
 *	[5] non-PI: cmpxchg the word to FUTEX_OWNER_DIED, keeping
 *	    FUTEX_WAITERS; a word changed meanwhile is read again ([1]),
 *	    one that faults is faulted in first
 *	[6] and if FUTEX_WAITERS was set, wake one waiter
 * The wakes are shared-keyed, as Linux's: a word on a MAP_SHARED page is
 * a process-shared futex's, and on a private page the key is the
 * FUTEX_KEY_MMSHARED one, so the waiter must have waited without
 * FUTEX_PRIVATE_FLAG (glibc's robust mutexes always do).
 * Context: task, may sleep.  Locking: none held.
 */
static int handle_futex_death(u32 __user *uaddr, bool pi, bool pending_op)
{
	u32 uval, nval, mval, tid = futex_tid(current);
	int ret;

	might_sleep();
	if ((uintptr_t)uaddr % sizeof(u32))			/* [1] */
		return -EINVAL;
retry:
	if (get_user_u32(&uval, uaddr))
		return -EFAULT;
	if (pending_op && !pi && !uval) {			/* [2] */
		futex_wake(uaddr, FLAGS_SHARED, 1, FUTEX_BITSET_MATCH_ANY);
		return 0;
	}
	if ((uval & FUTEX_TID_MASK) != tid)			/* [3] */
		return 0;
	if (pi) {						/* [4] */
		ret = futex_unlock_pi(uaddr, FLAGS_SHARED, FUTEX_OWNER_DIED);
		/* -EPERM: no longer ours ([3]); -EINVAL: a word user space
		 * broke; either way the walk goes on, only a fault ends it */
		return ret == -EFAULT ? ret : 0;
	}
	mval = (uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED;	/* [5] */
	ret = futex_cmpxchg_value_locked(&nval, uaddr, uval, mval);
	if (ret == -EFAULT) {
		if (futex_fault_in(uaddr))
			return -EFAULT;
		goto retry;
	}
	if (ret)
		return ret;
	if (nval != uval) {
		cond_resched();	/* user space is changing it: let it */
		goto retry;
	}
	if (uval & FUTEX_WAITERS)				/* [6] */
		futex_wake(uaddr, FLAGS_SHARED, 1, FUTEX_BITSET_MATCH_ANY);
	return 0;
}

/*
 * exit_robust_list - futex.h.  The walk, Linux's:
 *	[1] read the head: the first entry, futex_offset, list_op_pending;
 *	    any fault: no walk at all
 *	[2] for each entry until the list comes back to the head: read its
 *	    next first (handling the entry may free it, in a sense: a woken
 *	    waiter may unlink it), then handle the entry's word unless it is
 *	    the pending one ([4] does that)
 *	[3] stop at a fault (the next pointer or the word), or after
 *	    ROBUST_LIST_LIMIT entries (a cycle)
 *	[4] the pending entry last
 * Why before PF_EXITING (Linux walks after it): rtk's attach_to_pi_owner
 * answers -ESRCH to a locker that finds the owner exiting, where Linux
 * makes it wait on futex_exit_mutex for this walk.  Walking first, every
 * robust word is released or handed on while the owner still accepts
 * attachers:
 *
 *	CPU0 (dying owner T, this walk)		CPU1 (W, FUTEX_LOCK_PI)
 *						word T|WAITERS: attach to T
 *						  (not exiting): sleep
 *	[4] of handle_futex_death: W is the
 *	  top waiter: word W|OWNER_DIED,
 *	  rt_mutex to W
 *	PF_EXITING; exit_pi_state_list:
 *	  nothing robust left
 *						back from the rt_mutex: owns
 *						  it, sees OWNER_DIED
 *
 * With the walk after PF_EXITING, W's attach in between would get -ESRCH
 * for a robust mutex whose owner died, not the lock.  The thread runs no
 * more user code, so it takes no new robust lock after the walk.
 * user_fork:test_user_robust_and_shared_futexes_work_across_fork runs
 * t_robust, whose child dies holding a robust PI futex its parent waits
 * on.
 */
void exit_robust_list(void __user *uhead)
{
	struct robust_list_head __user *head = uhead;
	struct robust_list __user *entry, *next_entry, *pending;
	unsigned int limit = ROBUST_LIST_LIMIT;
	bool pi, next_pi, pip;
	long futex_offset;
	int rc;

	might_sleep();
	if (!head)
		return;
	if (fetch_robust_entry(&entry, &head->list.next, &pi))	/* [1] */
		return;
	if (copy_from_user(&futex_offset, &head->futex_offset,
			   sizeof(futex_offset)))
		return;
	if (fetch_robust_entry(&pending, &head->list_op_pending, &pip))
		return;

	next_entry = NULL;
	while (entry != &head->list) {				/* [2] */
		rc = fetch_robust_entry(&next_entry, &entry->next, &next_pi);
		if (entry != pending &&
		    handle_futex_death((u32 __user *)((uintptr_t)entry +
						      futex_offset),
				       pi, false))
			return;					/* [3] */
		if (rc)
			return;
		entry = next_entry;
		pi = next_pi;
		if (!--limit)
			break;
		cond_resched();
	}
	if (pending)						/* [4] */
		handle_futex_death((u32 __user *)((uintptr_t)pending +
						  futex_offset),
				   pip, true);
}
