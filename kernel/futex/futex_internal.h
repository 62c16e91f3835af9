/*
 * kernel/futex/futex_internal.h - what the futex files share: the key
 * that names a futex, the queue entry of a task waiting on one, the hash
 * bucket it sits in, and the PI state of a contended PI futex.
 *
 * Locks, outermost first: hb->lock (raw), then pi_state->pi_mutex's
 * wait_lock, then the tasks' pi_lock (kernel/locking/rtmutex.c's order).
 * The bucket lock is a raw spinlock where Linux has a spinlock_t: under
 * rt a sleeping bucket lock would make its waiters rt_mutex waiters too,
 * and a task blocked on the bucket lock while queued on the pi_mutex
 * needs two pi_blocked_on (Linux's PI_WAKEUP_INPROGRESS and
 * PI_REQUEUE_INPROGRESS exist for that).  Its sections are short: no
 * sleeping, no faults (futex_uaccess.h's _locked calls), no allocation.
 * The longest is FUTEX_WAKE's walk of one bucket's chain.
 *
 * The numbered steps, one numbering per algorithm:
 *	[FW1]..[FW6]	futex_wait (waitwake.c)
 *	[LP1]..[LP8]	futex_lock_pi (pi.c)
 *	[UP1]..[UP3]	futex_unlock_pi (pi.c)
 *	[WR1]..[WR6]	futex_wait_requeue_pi (requeue_pi.c)
 *	[RQ1]..[RQ5]	futex_requeue_pi (requeue_pi.c)
 * and the rt_mutex proxy steps they call, [P1]..[P3], [W1]..[W4],
 * [C1]..[C3] and [H1]..[H3], listed in kernel/locking/rtmutex_internal.h.
 * Linux counterpart: kernel/futex/futex.h.
 */
#ifndef KERNEL_FUTEX_FUTEX_INTERNAL_H
#define KERNEL_FUTEX_FUTEX_INTERNAL_H

#include "lib/types.h"
#include "lib/plist.h"
#include "kernel/futex/futex.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/debug/hooks.h"
#include "kernel/sched/task.h"


/* A futex's name: the word's address in its address space (Linux's
 * private key; rtk has no shared mappings, see futex.h). */
struct futex_key {
	const void *mm;			/* futex_key_mm() */
	uintptr_t address;		/* the u32's address */
};

struct futex_hash_bucket {
	raw_spinlock_t lock;		/* protects chain and the queued
					 * futex_q's woken field */
	struct plist_head chain;	/* futex_q.list, by prio */
};

/*
 * The PI state: exists while a PI futex has tasks queued in the kernel,
 * found through their futex_q's.
 */
struct futex_pi_state {
	/* stands in for the user lock while it is contended; owned (by
	 * proxy) by the task whose TID is in the word */
	struct rt_mutex pi_mutex;
	/* under pi_mutex.wait_lock and the bucket lock: changed by the
	 * unlock only, which holds both */
	struct task_struct *owner;	/* pi_mutex's owner, a reference */
	/* under the bucket lock */
	int refcount;			/* futex_q's pointing here */
	struct futex_key key;		/* constant */
	/* in owner->pi_state_list, under owner->pi_lock (and the bucket
	 * lock): from attach until the last futex_q leaves or the owner's
	 * exit hands it on (kernel/futex/pi_exit.c) */
	struct list_head list;
};

/*
 * One task waiting on a futex, on its stack while it waits.
 */
struct futex_q {
	/* under hb->lock */
	struct plist_node list;		/* in hb->chain, at the task's
					 * normal prio, FIFO among equals */
	bool woken;			/* FUTEX_WAKE took it off, or
					 * FUTEX_CMP_REQUEUE_PI moved it */
	/* set before queueing, constant while queued */
	struct task_struct *task;	/* the waiter */
	struct futex_key key;
	struct futex_pi_state *pi_state;	/* PI futex: its state (a
						 * refcount), NULL otherwise */
	u32 bitset;			/* FUTEX_WAIT_BITSET's; MATCH_ANY
					 * for FUTEX_WAIT and PI waiters */
	/* FUTEX_WAIT_REQUEUE_PI's (requeue_pi.c); rt_waiter is NULL for
	 * every other waiter.  requeue_state changes under the bucket
	 * locks of both futexes (FUTEX_CMP_REQUEUE_PI holds the two) */
	struct rt_mutex_waiter *rt_waiter;	/* on the waiter's stack */
	struct futex_key requeue_pi_key;	/* uaddr2, the PI futex */
	int requeue_state;			/* Q_REQUEUE_PI_* */
};

/*
 * A FUTEX_WAIT_REQUEUE_PI waiter's progress (requeue_pi.c):
 *	NONE	 on uaddr's chain, waiting to be requeued
 *	LOCKED	 off every chain: FUTEX_CMP_REQUEUE_PI took uaddr2 for it
 *	DONE	 on uaddr2's chain, its rt_waiter queued on the pi_mutex
 *	DEADLOCK as DONE, but queueing closed a cycle of PI futexes
 */
enum {
	Q_REQUEUE_PI_NONE = 0,
	Q_REQUEUE_PI_LOCKED,
	Q_REQUEUE_PI_DONE,
	Q_REQUEUE_PI_DEADLOCK,
};

/* futex_get_key - the key of uaddr for this task; -EINVAL when it is not
 * u32-aligned.  Context: task. */
int futex_get_key(u32 __user *uaddr, struct futex_key *key);

/* futex_hash - the bucket of key.  Context: any. */
struct futex_hash_bucket *futex_hash(const struct futex_key *key);

static inline bool futex_match(const struct futex_key *a,
			       const struct futex_key *b)
{
	return a->mm == b->mm && a->address == b->address;
}

/* futex_q_init - q for current on key, not queued.  Context: task. */
void futex_q_init(struct futex_q *q, const struct futex_key *key);

/* __futex_queue / __futex_unqueue - q into / out of hb's chain.
 * Context: task.  Locking: hb->lock held. */
void __futex_queue(struct futex_q *q, struct futex_hash_bucket *hb);
void __futex_unqueue(struct futex_q *q, struct futex_hash_bucket *hb);

/* futex_top_waiter - the first queued futex_q on key in hb, or NULL.
 * Locking: hb->lock held. */
struct futex_q *futex_top_waiter(struct futex_hash_bucket *hb,
				 const struct futex_key *key);

/* FUTEX_WAIT / FUTEX_WAKE (waitwake.c). */
int futex_wait(u32 __user *uaddr, u32 val, const ktime_t *abs_timeout,
	       u32 bitset);
int futex_wait_setup(u32 __user *uaddr, u32 val, struct futex_q *q,
		     struct futex_hash_bucket *hb);
void futex_wait_queue(struct futex_q *q, const ktime_t *abs_timeout);
int futex_wake(u32 __user *uaddr, int nr_wake, u32 bitset);

/* The PI state (pi_state.c); each definition has its comment. */
struct futex_pi_state *alloc_pi_state(void);
void free_pi_state(struct futex_pi_state *pi_state);
int attach_to_pi_state(u32 uval, struct futex_pi_state *pi_state);
int attach_to_pi_owner(u32 uval, const struct futex_key *key,
		       struct futex_pi_state **spare,
		       struct futex_pi_state **ps);
void get_pi_state(struct futex_pi_state *pi_state);
struct futex_pi_state *put_pi_state_locked(struct futex_pi_state *pi_state);

/* pi.c: the unlock's hand-over, which the owner's exit uses too
 * (pi_exit.c) */
bool pi_state_hand_over(struct futex_pi_state *pi_state);
int wake_futex_pi(u32 __user *uaddr, u32 uval,
		  struct futex_pi_state *pi_state);

/* The PI operations (pi.c); futex_lock_pi_atomic is [LP2] for task,
 * which requeue-PI runs for a waiter it moves (requeue_pi.c). */
int futex_lock_pi_atomic(u32 __user *uaddr, struct futex_hash_bucket *hb,
			 const struct futex_key *key,
			 struct futex_pi_state **spare,
			 struct futex_pi_state **ps, struct task_struct *task);
int futex_lock_pi(u32 __user *uaddr, const ktime_t *abs_timeout,
		  bool trylock);
int futex_unlock_pi(u32 __user *uaddr);

/* PI condition variables (requeue_pi.c). */
int futex_wait_requeue_pi(u32 __user *uaddr, u32 val,
			  const ktime_t *abs_timeout, u32 __user *uaddr2);
int futex_requeue_pi(u32 __user *uaddr, u32 __user *uaddr2, int nr_wake,
		     int nr_requeue, u32 cmpval);

/* futex_tid - the TID a task's futex words hold: its pid (rtk has no
 * thread groups yet; user-core's gettid returns the same).  Pids start
 * at 1 and only increase, so 0 (a free word) names nobody. */
static inline u32 futex_tid(const struct task_struct *p)
{
	return (u32)p->pid & FUTEX_TID_MASK;
}

/*
 * Test-only race windows (kernel/debug/race_window.h), each defined and
 * drawn beside its window in waitwake.c or pi.c:
 * futex_wait_timeout_window - a FUTEX_WAIT that stopped sleeping (its
 *	deadline passed), before it takes the bucket lock: a wake may come.
 * futex_lock_pi_atomic_window - between reading the word and the
 *	cmpxchg that sets FUTEX_WAITERS: the owner may unlock in user space.
 * futex_lock_pi_unqueue_window - a waiter back from the rt_mutex wait
 *	(it timed out, or the unlock handed it the futex), no lock held,
 *	before it leaves the queue: the owner may hand it the lock, a new
 *	locker may attach to its pi_state.
 */
extern struct race_window futex_wait_timeout_window;
extern struct race_window futex_lock_pi_atomic_window;
extern struct race_window futex_lock_pi_unqueue_window;
/* futex_wait_requeue_pi_window - a FUTEX_WAIT_REQUEUE_PI waiter that
 *	stopped sleeping (deadline, signal) before it takes the bucket lock
 *	to leave: a requeue may still take uaddr2 for it (requeue_pi.c). */
extern struct race_window futex_wait_requeue_pi_window;

#endif /* KERNEL_FUTEX_FUTEX_INTERNAL_H */
