/*
 * kernel/rcu/rcu_task.h - the RCU fields of struct task_struct: the
 * read-side nesting count of preemptible RCU and the links that put a
 * reader preempted inside its section on the blocked-readers list.
 *
 * Kept in its own small header so kernel/sched/task.h includes only
 * this, not the RCU API.  Under PREEMPT=rt (PREEMPT_RCU) every field is
 * used; under the other models rcu_read_lock() is preempt_disable() and
 * the fields stay zero.
 * Linux counterpart: include/linux/sched.h (rcu_read_lock_nesting,
 * rcu_read_unlock_special, rcu_node_entry, rcu_blocked_node); rtk has
 * one global blocked list instead of one per rcu_node, so it keeps a
 * ticket instead of the leaf node pointer.
 */
#ifndef KERNEL_RCU_RCU_TASK_H
#define KERNEL_RCU_RCU_TASK_H

#include "lib/types.h"
#include "lib/list.h"

struct rt_mutex;

/* rcu_task.special bits */
#define RCU_SPECIAL_BLOCKED	0x1	/* on rcu_state.blkd_tasks */
#define RCU_SPECIAL_BOOSTED	0x2	/* boost_mutex is held for it */

struct rcu_task {
	/* written only by the task itself (and read by its CPU's context
	 * switch and tick) */
	int read_lock_nesting;		/* rcu_read_lock() depth */
	/* under rcu_state.lock; read locklessly by the task itself */
	u8 special;			/* RCU_SPECIAL_* */
	unsigned long blkd_ticket;	/* order it joined blkd_tasks */
	u64 blkd_since_ns;		/* when it was switched out */
	struct list_head blkd_entry;	/* in rcu_state.blkd_tasks */
	struct rt_mutex *boost_mutex;	/* proxy-locked for it by the
					 * booster; it unlocks on leaving */
};

#endif /* KERNEL_RCU_RCU_TASK_H */
