/*
 * lib/plist.h - priority-sorted lists, the building block of rt_mutex
 * waiter queues and PI boosting.
 *
 * Every node is on node_list, sorted by prio (lower value first, FIFO
 * among equal values).  The first node of each distinct prio is also on
 * prio_list, which therefore links one node per priority level, so an
 * insert walks the distinct priorities only: O(K) for K distinct prios,
 * removal and "first" O(1).
 *
 *   head.node_list:  [p1 a] - [p1 b] - [p3 c] - [p7 d] - [p7 e]
 *   prio_list:        [p1 a] ---------- [p3 c] - [p7 d]
 *
 * No locking: the caller's lock protects head and its nodes.
 * Linux counterpart: include/linux/plist.h, lib/plist.c (same API; rtk
 * leaves out CONFIG_DEBUG_PLIST, checking with WARN_ON instead).
 */
#ifndef LIB_PLIST_H
#define LIB_PLIST_H

#include "lib/list.h"

struct plist_head {
	struct list_head node_list;	/* all nodes, sorted by prio */
};

struct plist_node {
	int prio;			/* lower value = earlier */
	struct list_head prio_list;	/* first node of each prio, else empty */
	struct list_head node_list;	/* position among all nodes */
};

#define PLIST_HEAD_INIT(head)                                           \
	{                                                               \
		.node_list = LIST_HEAD_INIT((head).node_list)           \
	}

#define PLIST_HEAD(head) struct plist_head head = PLIST_HEAD_INIT(head)

#define PLIST_NODE_INIT(node, __prio)                                   \
	{                                                               \
		.prio = (__prio),                                       \
		.prio_list = LIST_HEAD_INIT((node).prio_list),          \
		.node_list = LIST_HEAD_INIT((node).node_list),          \
	}

static inline void plist_head_init(struct plist_head *head)
{
	INIT_LIST_HEAD(&head->node_list);
}

static inline void plist_node_init(struct plist_node *node, int prio)
{
	node->prio = prio;
	INIT_LIST_HEAD(&node->prio_list);
	INIT_LIST_HEAD(&node->node_list);
}

/*
 * plist_add - insert node in prio order, after every node of equal prio.
 * Locking: caller holds the lock protecting head.  node must not be on
 * a list (WARNs and does nothing otherwise).
 */
void plist_add(struct plist_node *node, struct plist_head *head);

/*
 * plist_del - remove node from head; node ends up empty (re-addable).
 * Locking: caller holds the lock protecting head.
 */
void plist_del(struct plist_node *node, struct plist_head *head);

/*
 * plist_requeue - move node behind the other nodes of its prio (round
 * robin among equals).  Locking: caller holds the lock protecting head.
 */
void plist_requeue(struct plist_node *node, struct plist_head *head);

static inline bool plist_head_empty(const struct plist_head *head)
{
	return list_empty(&head->node_list);
}

/* plist_node_empty - node is not on any plist. */
static inline bool plist_node_empty(const struct plist_node *node)
{
	return list_empty(&node->node_list);
}

/* plist_first/plist_last - highest / lowest priority node; the head must
 * not be empty. */
static inline struct plist_node *plist_first(const struct plist_head *head)
{
	return list_entry(head->node_list.next, struct plist_node, node_list);
}

static inline struct plist_node *plist_last(const struct plist_head *head)
{
	return list_entry(head->node_list.prev, struct plist_node, node_list);
}

#define plist_next(pos) list_next_entry(pos, node_list)
#define plist_prev(pos) list_prev_entry(pos, node_list)

#define plist_first_entry(head, type, member) \
	container_of(plist_first(head), type, member)

#define plist_last_entry(head, type, member) \
	container_of(plist_last(head), type, member)

/* plist_for_each - pos is a struct plist_node *. */
#define plist_for_each(pos, head) \
	list_for_each_entry(pos, &(head)->node_list, node_list)

#define plist_for_each_continue(pos, head)                              \
	for (pos = plist_next(pos);                                     \
	     !list_entry_is_head(pos, &(head)->node_list, node_list);   \
	     pos = plist_next(pos))

/* plist_for_each_entry - pos is the containing type; member its
 * struct plist_node. */
#define plist_for_each_entry(pos, head, member) \
	list_for_each_entry(pos, &(head)->node_list, member.node_list)

/* plist_for_each_entry_safe - pos may be plist_del()eted in the loop. */
#define plist_for_each_entry_safe(pos, n, head, member) \
	list_for_each_entry_safe(pos, n, &(head)->node_list, member.node_list)

#endif /* LIB_PLIST_H */
