/*
 * kernel/rcu/rcu_internal.h - the grace-period state shared by rcu.c,
 * rcu_preempt.c and rcu_callbacks.c.
 *
 * One global rcu_state stands for Linux's whole rcu_node tree: rtk has
 * at most 64 CPUs and a grace period is checked by one kthread that
 * compares per-CPU quiescent-state counters with a snapshot, so there is
 * no combining tree and no per-CPU rcu_data beyond that counter.
 * Linux counterpart: kernel/rcu/tree.h (struct rcu_state, rcu_node's
 * blkd_tasks / gp_tasks / boost_tasks, rcu_data.cpu_no_qs).
 */
#ifndef KERNEL_RCU_RCU_INTERNAL_H
#define KERNEL_RCU_RCU_INTERNAL_H

#include "kernel/rcu/rcupdate.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/sched/wait.h"
#include "kernel/percpu.h"

/*
 * Lock order: a runqueue lock, then rcu_state.lock (the context switch
 * queues a preempted reader under its rq lock).  So nothing may wake a
 * task or change a priority while holding rcu_state.lock.
 */
struct rcu_state {
	raw_spinlock_t lock;		/* everything below */
	enum rcu_gp_phase phase;	/* what the gp kthread waits for */
	unsigned long gp_started;	/* number of the current/last gp */
	unsigned long gp_completed;	/* last gp that ended */
	unsigned long gp_requested;	/* highest gp number someone needs */
	u64 gp_start_ns;		/* when the current gp began */
	u64 cpus_pending;		/* [3]: CPUs without a qs yet */
	unsigned long qs_snap[NR_CPUS];	/* rcu_qs_ctr at gp start */
	/* preempted readers, oldest first (ticket order) */
	struct list_head blkd_tasks;	/* task->rcu.blkd_entry */
	unsigned long blkd_enqueued;	/* tickets handed out */
	unsigned long blkd_gp_ticket;	/* [4]: the gp waits for <= this */
	unsigned long nr_blocked;
	unsigned long nr_blocked_max;
	unsigned long nr_blocked_total;
	unsigned long boosts;
	unsigned int boost_delay_ms;	/* tunables */
	int boost_prio;
	/* constant after rcu_init */
	struct task_struct *gp_kthread;	/* "rcu_preempt" / "rcu_sched" */
	struct rt_mutex boost_mtx;	/* proxy-locked for a boosted reader */
};

extern struct rcu_state rcu_state;

/* Bumped by a CPU at each quiescent state; read by the gp kthread. */
DECLARE_PER_CPU(unsigned long, rcu_qs_ctr);

/* Woken at the end of each grace period: synchronize_rcu, rcu_cb. */
extern wait_queue_head_t rcu_gp_wq;

/* rcu_gp_request - ask for the grace period that covers every read
 * section running now and wake the gp kthread; returns its number (see
 * rcu_gp_done).  Context: any; takes rcu_state.lock. */
unsigned long rcu_gp_request(void);

/* rcu_preempt.c: [2] forget the last gp's reader ticket (called at gp
 * start), [4]/[5] wait for (and boost) the preempted readers the
 * current gp must wait for, and the context-switch half. */
void rcu_preempt_wait_readers(void);
void rcu_preempt_note_context_switch(struct task_struct *prev);
/* rcu_preempt_fill_stats - blocked readers into st.  Locking:
 * rcu_state.lock held. */
void rcu_preempt_fill_stats(struct rcu_stats *st, u64 now);

/* rcu_callbacks.c */
void rcu_callbacks_init(void);
void rcu_cb_counts(unsigned long *queued, unsigned long *invoked);

#endif /* KERNEL_RCU_RCU_INTERNAL_H */
