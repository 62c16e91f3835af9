/*
 * kernel/rcu/rcupdate.h - Read-Copy Update: the read side, the
 * publish/subscribe pointer accessors, grace periods and callbacks.
 *
 * The model switch, PREEMPT_RCU, comes from kernel/sched/preempt_model.h
 * with the rest of the model; this header says what it means (STYLE.md,
 * "Preemption models"): under PREEMPT=rt PREEMPT_RCU is 1 and a read-side
 * critical section only counts its nesting in current->rcu; it stays
 * preemptible and may even block on a sleeping spinlock_t (article,
 * "Preemptible critical sections": "RCU read-side critical sections ...
 * are now preemptible"; "PREEMPT_RT configuration options": PREEMPT_RCU).
 * Under none/voluntary/desktop rcu_read_lock() is preempt_disable(): a
 * read section cannot be switched out, and a grace period is "every CPU
 * has switched tasks, idled or taken a tick outside a section" (classic
 * RCU, Linux's synchronize_sched()).
 *
 *	reader				updater
 *	rcu_read_lock();		new = kmalloc(); init new;
 *	p = rcu_dereference(gp);	old = gp; rcu_assign_pointer(gp, new);
 *	use *p;				call_rcu(&old->rcu, free_old);
 *	rcu_read_unlock();		  (or synchronize_rcu(); kfree(old);)
 *
 * Files: rcu.c (grace-period kthread, quiescent states), rcu_preempt.c
 * (PREEMPT_RCU readers: blocked list, rcu_read_unlock_special, boost),
 * rcu_callbacks.c (call_rcu, the rcu_cb thread, rcu_barrier).
 * Linux counterpart: include/linux/rcupdate.h, kernel/rcu/tree.c,
 * tree_plugin.h; rtk has one global grace-period state instead of the
 * rcu_node tree, no expedited grace periods, no dynticks counters (a
 * tickless idle CPU reports its quiescent state on the way into the
 * halt, rcu_idle_enter, and is kicked if it still owes one) and no CPU
 * hotplug.
 */
#ifndef KERNEL_RCU_RCUPDATE_H
#define KERNEL_RCU_RCUPDATE_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "kernel/sched/sched.h"
#include "kernel/rcu/rcu_task.h"
#include "kernel/sched/preempt_model.h"	/* PREEMPT_RCU */

/*
 * struct rcu_head - one callback queued by call_rcu(), embedded in the
 * object it frees.  gp_need is rtk's: the grace-period number that
 * must have completed before func may run (Linux keeps that per
 * segment of the per-CPU callback list).
 */
struct rcu_head {
	struct rcu_head *next;		/* rcu_callbacks.c's FIFO */
	void (*func)(struct rcu_head *head);
	unsigned long gp_need;		/* run after gp_completed >= this */
};

/* __rcu_read_lock / __rcu_read_unlock - the PREEMPT_RCU read side: one
 * per-task counter, so a reader may be preempted and migrate.  The
 * barrier keeps the section's accesses inside the count (the count is
 * read by this CPU's context switch and tick only). */
static inline void __rcu_read_lock(void)
{
	current->rcu.read_lock_nesting++;
	barrier();
}

/* rcu_read_unlock_special - the outermost unlock of a reader that was
 * switched out in its section: leave the blocked list, drop a boost.
 * Context: task (or an irq nested in it: then it returns at once). */
void rcu_read_unlock_special(struct task_struct *t);

static inline void __rcu_read_unlock(void)
{
	struct task_struct *t = current;

	barrier();
	if (--t->rcu.read_lock_nesting == 0) {
		barrier();	/* the count is 0 before special is read */
		if (unlikely(READ_ONCE(t->rcu.special)))
			rcu_read_unlock_special(t);
	}
}

/*
 * rcu_read_lock / rcu_read_unlock - delimit a read-side critical
 * section; they nest.  Context: any (task, softirq, hardirq).
 */
static inline void rcu_read_lock(void)
{
	if (PREEMPT_RCU)
		__rcu_read_lock();
	else
		preempt_disable();
}

static inline void rcu_read_unlock(void)
{
	if (PREEMPT_RCU)
		__rcu_read_unlock();
	else
		preempt_enable();
}

/* rcu_read_lock_held - is the caller inside a read section?  Under the
 * non-rt models any preemption-off region counts (as in Linux's
 * rcu_read_lock_sched_held()). */
static inline bool rcu_read_lock_held(void)
{
	if (PREEMPT_RCU)
		return current->rcu.read_lock_nesting > 0;
	return preempt_count() != 0 || raw_irqs_disabled();
}

/*
 * rcu_dereference - load an RCU-protected pointer once, for use inside a
 * read section.  x86 keeps dependent loads ordered, so READ_ONCE is the
 * whole subscribe side (Linux: rcu_dereference, READ_ONCE since 4.15).
 * rcu_assign_pointer - publish: the initialisation of *v is visible
 * before the pointer (store-release).  Pairs with rcu_dereference.
 */
#define rcu_dereference(p) READ_ONCE(p)
#define rcu_assign_pointer(p, v) __atomic_store_n(&(p), (v), __ATOMIC_RELEASE)
/* RCU_INIT_POINTER - store without ordering: NULL, or not yet visible */
#define RCU_INIT_POINTER(p, v) WRITE_ONCE(p, v)

/*
 * synchronize_rcu - wait until every read section that was running when
 * it was called has ended (a full grace period).  Context: task, may
 * sleep; not inside a read section.
 */
void synchronize_rcu(void);

/*
 * call_rcu - run func(head) after a grace period, in the rcu_cb thread
 * (task context, preemptible, SCHED_OTHER).  Callbacks run in the order
 * they were queued.  Context: any except NMI; never sleeps.
 */
void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));

/*
 * rcu_barrier - wait until every callback queued before the call has
 * run.  Context: task, may sleep.
 */
void rcu_barrier(void);

/* ---- hooks of the scheduler and the tick (one line each there) */

/* rcu_idle_enter - this CPU's idle loop is about to halt (maybe with
 * its tick stopped, NO_HZ idle): a quiescent state.  Mainline turns
 * this into an extended quiescent state (ct_idle_enter, once
 * rcu_idle_enter) that the grace-period kthread reads remotely; rtk
 * instead reports the quiescent state here and has the kthread kick a
 * tickless idle CPU that still owes one, so it passes here again.
 * Context: the idle task, interrupts off. */
void rcu_idle_enter(void);

/* rcu_note_context_switch - prev is being switched out: under
 * PREEMPT_RCU a prev inside a section joins the blocked list; this CPU
 * passes a quiescent state.  Context: __schedule, irqs off, rq lock. */
void rcu_note_context_switch(struct task_struct *prev);

/* rcu_sched_clock_irq - the tick: a quiescent state if it interrupted
 * code outside any read section.  Context: hardirq (the tick). */
void rcu_sched_clock_irq(void);

/* rcu_init - start the grace-period and callback kthreads.
 * Context: boot, task context, after the scheduler and timers. */
void rcu_init(void);

/* ---- state, for the `rcu` command and the tests */

enum rcu_gp_phase {
	RCU_GP_IDLE,		/* no grace period in progress */
	RCU_GP_WAIT_QS,		/* [3] waiting for CPUs' quiescent states */
	RCU_GP_WAIT_READERS,	/* [4] waiting for preempted readers */
	RCU_GP_BOOSTING,	/* [5] boosting the oldest of them */
};

#define RCU_STATS_READERS 8	/* blocked readers listed by rcu_get_stats */

struct rcu_reader_info {
	int pid;
	char name[TASK_COMM_LEN];
	bool boosted;
	u64 blocked_ns;		/* how long since it was switched out */
	bool holds_gp;		/* the current grace period waits for it */
};

struct rcu_stats {
	enum rcu_gp_phase phase;
	unsigned long gp_started;	/* grace periods begun */
	unsigned long gp_completed;	/* and ended */
	u64 gp_age_ns;			/* age of the current one, or 0 */
	u64 cpus_pending;		/* CPUs it still waits for (mask) */
	unsigned long nr_blocked;	/* readers on the blocked list */
	unsigned long nr_blocked_max;	/* most at once */
	unsigned long nr_blocked_total;	/* readers ever switched out */
	unsigned long boosts;		/* readers boosted */
	unsigned long cb_queued;	/* call_rcu calls */
	unsigned long cb_invoked;	/* callbacks run */
	unsigned int boost_delay_ms;
	int boost_prio;			/* SCHED_FIFO priority */
	int nr_readers;			/* entries filled in readers[] */
	struct rcu_reader_info readers[RCU_STATS_READERS];
};

/* rcu_get_stats - a consistent copy.  Context: any, never sleeps. */
void rcu_get_stats(struct rcu_stats *st);

/* rcu_gp_snapshot - the grace-period number that, once completed,
 * covers every read section running now; rcu_gp_done(need) says
 * whether it has.  Context: any. */
unsigned long rcu_gp_snapshot(void);
bool rcu_gp_done(unsigned long need);

/* rcu_task_blocked - was t switched out inside its current section? */
static inline bool rcu_task_blocked(const struct task_struct *t)
{
	return READ_ONCE(t->rcu.special) & RCU_SPECIAL_BLOCKED;
}

/* Boost tunables (rt only): a preempted reader that holds up a grace
 * period for boost_delay ms is boosted to SCHED_FIFO boost_prio.  Set
 * at boot with rcu_boost_delay= / rcu_boost_prio=, or with `rcu`.
 * rcu_set_boost_* return 0 or -EINVAL (delay 1..RCU_BOOST_DELAY_MAX_MS,
 * prio 1..99). */
#define RCU_BOOST_DELAY_MAX_MS 60000
int rcu_set_boost_delay(unsigned int ms);
int rcu_set_boost_prio(int prio);
unsigned int rcu_get_boost_delay(void);
int rcu_get_boost_prio(void);

#endif /* KERNEL_RCU_RCUPDATE_H */
