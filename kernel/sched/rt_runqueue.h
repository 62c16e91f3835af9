/*
 * kernel/sched/rt_runqueue.h - the O(1) realtime run queue: one FIFO list
 * per priority and a bitmap saying which lists are non-empty.
 *
 * Priorities use the kernel's internal scale, as in Linux: prio 0 is the
 * most important, MAX_RT_PRIO - 1 the least important RT level; a task
 * with rt_priority p (1..99, 99 highest) sits at prio MAX_RT_PRIO - 1 - p.
 * Picking the next task is "find first set bit, take the list head":
 * constant time whatever the number of queued tasks.
 *
 *   bitmap:  0 0 1 0 ... 1 ... 0 | 1 (delimiter at MAX_RT_PRIO)
 *   queue[2]:  A -> B            queue[40]: C
 *
 * Pure logic: no locking (the per-CPU run-queue lock protects it in the
 * kernel) and no task knowledge, so tests/host/test_rt_runqueue.c runs it.
 * Linux counterpart: kernel/sched/rt.c struct rt_prio_array and
 * __enqueue_rt_entity/__dequeue_rt_entity, sched_find_first_bit().
 */
#ifndef KERNEL_SCHED_RT_RUNQUEUE_H
#define KERNEL_SCHED_RT_RUNQUEUE_H

#include "lib/types.h"
#include "lib/list.h"
#include "lib/bitmap.h"

#define MAX_RT_PRIO 100	/* prios 0..99 are realtime */

struct rt_prio_array {
	/* one bit per non-empty queue, plus the delimiter bit MAX_RT_PRIO
	 * that is always set so the search always finds a bit */
	DECLARE_BITMAP(bitmap, MAX_RT_PRIO + 1);
	struct list_head queue[MAX_RT_PRIO];	/* FIFO per prio */
	unsigned int nr_queued;			/* entries in all queues */
};

/* rt_prio_array_init - every queue empty. */
void rt_prio_array_init(struct rt_prio_array *array);

/* rt_prio_array_enqueue - add node at prio (0..MAX_RT_PRIO-1): at the
 * tail (a woken or RR-expired task waits its turn) or at the head (a
 * preempted FIFO task keeps its place, as in Linux). */
void rt_prio_array_enqueue(struct rt_prio_array *array, struct list_head *node,
			   int prio, bool head);

/* rt_prio_array_dequeue - remove node, which must be queued at prio. */
void rt_prio_array_dequeue(struct rt_prio_array *array, struct list_head *node,
			   int prio);

/* rt_prio_array_requeue - move node to the tail of its prio's queue
 * (SCHED_RR time slice used up, sched_yield). */
void rt_prio_array_requeue(struct rt_prio_array *array, struct list_head *node,
			   int prio);

/* rt_prio_array_highest - most important non-empty prio, or MAX_RT_PRIO
 * when the array is empty. */
int rt_prio_array_highest(const struct rt_prio_array *array);

/* rt_prio_array_first - first node of the most important queue, NULL
 * when empty. */
struct list_head *rt_prio_array_first(const struct rt_prio_array *array);

static inline bool rt_prio_array_empty(const struct rt_prio_array *array)
{
	return array->nr_queued == 0;
}

#endif /* KERNEL_SCHED_RT_RUNQUEUE_H */
