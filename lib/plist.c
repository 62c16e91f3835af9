/*
 * lib/plist.c - insertion and removal for priority-sorted lists; the
 * data structure is drawn in lib/plist.h.
 *
 * Linux counterpart: lib/plist.c (same algorithm: the prio_list holds
 * one node per distinct priority so an insert skips whole priority
 * groups).  rtk checks the preconditions with WARN_ON instead of
 * CONFIG_DEBUG_PLIST's full list walk.
 */
#include "lib/plist.h"
#include "lib/bug.h"

/*
 * plist_add - see plist.h.
 * [1] Walk prio_list (one node per distinct prio) from the first node
 *     for the first group whose prio is greater than node's; node goes
 *     in front of that group, i.e. behind every node of equal prio.
 *     If there is none, node goes at the very end.
 * [2] If no group of node's prio precedes the insertion point, node
 *     starts a new group: link it into prio_list in front of the group
 *     it precedes (or at the end of prio_list).
 * [3] Link node into node_list at the insertion point.
 */
void plist_add(struct plist_node *node, struct plist_head *head)
{
	struct plist_node *first, *iter, *prev = NULL;
	struct list_head *node_next = &head->node_list;

	if (WARN_ON(!plist_node_empty(node)) ||
	    WARN_ON(!list_empty(&node->prio_list)))
		return;
	if (plist_head_empty(head))
		goto ins_node;

	/* [1] */
	first = iter = plist_first(head);
	do {
		if (node->prio < iter->prio) {
			node_next = &iter->node_list;
			break;
		}
		prev = iter;
		iter = list_entry(iter->prio_list.next, struct plist_node,
				  prio_list);
	} while (iter != first);

	/* [2] iter is the group node precedes, or first when at the end */
	if (!prev || prev->prio != node->prio)
		list_add_tail(&node->prio_list, &iter->prio_list);
ins_node:
	/* [3] */
	list_add_tail(&node->node_list, node_next);
}

/*
 * plist_del - see plist.h.
 * [1] If node heads its prio group, hand the prio_list slot to the next
 *     node when that one is of the same prio (its prio_list is empty
 *     exactly then); otherwise the group vanishes with node.
 * [2] Unlink node from node_list.
 */
void plist_del(struct plist_node *node, struct plist_head *head)
{
	if (WARN_ON(plist_node_empty(node)))
		return;
	/* [1] */
	if (!list_empty(&node->prio_list)) {
		if (node->node_list.next != &head->node_list) {
			struct plist_node *next;

			next = list_entry(node->node_list.next,
					  struct plist_node, node_list);
			if (list_empty(&next->prio_list))
				list_add(&next->prio_list, &node->prio_list);
		}
		list_del_init(&node->prio_list);
	}
	/* [2] */
	list_del_init(&node->node_list);
}

/*
 * plist_requeue - see plist.h.  Nothing to do when node is alone in its
 * prio group; otherwise take it out and put it back in front of the
 * first node of a greater prio (or at the end).  The group keeps a
 * prio_list entry because another node of the same prio remains.
 */
void plist_requeue(struct plist_node *node, struct plist_head *head)
{
	struct plist_node *iter;
	struct list_head *node_next = &head->node_list;

	if (WARN_ON(plist_node_empty(node)))
		return;
	if (node == plist_last(head))
		return;
	iter = plist_next(node);
	if (node->prio != iter->prio)
		return;

	plist_del(node, head);
	/* iter stays on the list; continue from it past node's prio */
	for (; !list_entry_is_head(iter, &head->node_list, node_list);
	     iter = plist_next(iter)) {
		if (node->prio != iter->prio) {
			node_next = &iter->node_list;
			break;
		}
	}
	list_add_tail(&node->node_list, node_next);
}
