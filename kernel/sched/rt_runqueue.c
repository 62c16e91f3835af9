/*
 * kernel/sched/rt_runqueue.c - the O(1) realtime run queue (see
 * kernel/sched/rt_runqueue.h for the layout).
 *
 * Every operation keeps one invariant: bit p of the bitmap is set exactly
 * when queue[p] is non-empty (and the delimiter bit MAX_RT_PRIO is always
 * set).  The caller's lock (struct rq::lock in kernel/sched/core.c)
 * serialises all of them.
 * Linux counterpart: kernel/sched/rt.c (__enqueue_rt_entity,
 * __dequeue_rt_entity, requeue_rt_entity, pick_next_rt_entity).
 */
#include "kernel/sched/rt_runqueue.h"
#include "lib/bug.h"

void rt_prio_array_init(struct rt_prio_array *array)
{
	int i;

	bitmap_zero(array->bitmap, MAX_RT_PRIO + 1);
	for (i = 0; i < MAX_RT_PRIO; i++)
		INIT_LIST_HEAD(&array->queue[i]);
	__set_bit(MAX_RT_PRIO, array->bitmap);	/* the search delimiter */
	array->nr_queued = 0;
}

void rt_prio_array_enqueue(struct rt_prio_array *array, struct list_head *node,
			   int prio, bool head)
{
	BUG_ON(prio < 0 || prio >= MAX_RT_PRIO);
	if (head)
		list_add(node, &array->queue[prio]);
	else
		list_add_tail(node, &array->queue[prio]);
	__set_bit(prio, array->bitmap);
	array->nr_queued++;
}

void rt_prio_array_dequeue(struct rt_prio_array *array, struct list_head *node,
			   int prio)
{
	BUG_ON(prio < 0 || prio >= MAX_RT_PRIO);
	BUG_ON(!test_bit(prio, array->bitmap) || array->nr_queued == 0);
	list_del_init(node);
	if (list_empty(&array->queue[prio]))
		__clear_bit(prio, array->bitmap);
	array->nr_queued--;
}

void rt_prio_array_requeue(struct rt_prio_array *array, struct list_head *node,
			   int prio)
{
	BUG_ON(prio < 0 || prio >= MAX_RT_PRIO);
	BUG_ON(!test_bit(prio, array->bitmap));
	list_move_tail(node, &array->queue[prio]);
}

int rt_prio_array_highest(const struct rt_prio_array *array)
{
	/* The delimiter bit makes the result MAX_RT_PRIO when empty. */
	return (int)find_first_bit(array->bitmap, MAX_RT_PRIO + 1);
}

struct list_head *rt_prio_array_first(const struct rt_prio_array *array)
{
	int prio = rt_prio_array_highest(array);

	if (prio >= MAX_RT_PRIO)
		return NULL;
	return array->queue[prio].next;
}
