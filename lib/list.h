/*
 * lib/list.h - circular doubly linked lists with a sentinel head.
 *
 * An object embeds a struct list_head; list_entry()/container_of() gets
 * the object back.  An empty list is a head pointing at itself.  No
 * locking: the caller's lock protects the list and every node on it.
 * Linux counterpart: include/linux/list.h (rtk leaves out the RCU
 * variants, hlist and the list poisoning; list_del() leaves the node's
 * pointers NULL so a use after deletion faults).
 */
#ifndef LIB_LIST_H
#define LIB_LIST_H

#include "lib/compiler.h"
#include "lib/types.h"

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name) { &(name), &(name) }
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	WRITE_ONCE(list->next, list);
	list->prev = list;
}

/* __list_add - insert new between two known-consecutive entries. */
static inline void __list_add(struct list_head *new, struct list_head *prev,
			      struct list_head *next)
{
	next->prev = new;
	new->next = next;
	new->prev = prev;
	WRITE_ONCE(prev->next, new);
}

/* list_add - insert new right after head (stack order). */
static inline void list_add(struct list_head *new, struct list_head *head)
{
	__list_add(new, head, head->next);
}

/* list_add_tail - insert new right before head (queue order). */
static inline void list_add_tail(struct list_head *new, struct list_head *head)
{
	__list_add(new, head->prev, head);
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}

static inline void __list_del_entry(struct list_head *entry)
{
	__list_del(entry->prev, entry->next);
}

/* list_del - unlink entry; it is not on any list afterwards. */
static inline void list_del(struct list_head *entry)
{
	__list_del_entry(entry);
	entry->next = NULL;
	entry->prev = NULL;
}

/* list_del_init - unlink entry and make it an empty list of its own. */
static inline void list_del_init(struct list_head *entry)
{
	__list_del_entry(entry);
	INIT_LIST_HEAD(entry);
}

/* list_move/list_move_tail - unlink list and add it to head. */
static inline void list_move(struct list_head *list, struct list_head *head)
{
	__list_del_entry(list);
	list_add(list, head);
}

static inline void list_move_tail(struct list_head *list,
				  struct list_head *head)
{
	__list_del_entry(list);
	list_add_tail(list, head);
}

static inline bool list_is_first(const struct list_head *list,
				 const struct list_head *head)
{
	return list->prev == head;
}

static inline bool list_is_last(const struct list_head *list,
				const struct list_head *head)
{
	return list->next == head;
}

static inline bool list_empty(const struct list_head *head)
{
	return READ_ONCE(head->next) == head;
}

/* list_is_singular - exactly one entry on the list. */
static inline bool list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
}

/* __list_splice - link the entries of a non-empty list between prev and
 * next; list itself is left stale. */
static inline void __list_splice(const struct list_head *list,
				 struct list_head *prev,
				 struct list_head *next)
{
	struct list_head *first = list->next, *last = list->prev;

	first->prev = prev;
	prev->next = first;
	last->next = next;
	next->prev = last;
}

/* list_splice_init - move every entry of list to the front of head and
 * leave list empty. */
static inline void list_splice_init(struct list_head *list,
				    struct list_head *head)
{
	if (list_empty(list))
		return;
	__list_splice(list, head, head->next);
	INIT_LIST_HEAD(list);
}

/* list_splice_tail_init - as list_splice_init, but at the back of head. */
static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	if (list_empty(list))
		return;
	__list_splice(list, head->prev, head);
	INIT_LIST_HEAD(list);
}

#define list_entry(ptr, type, member) container_of(ptr, type, member)

/* list_first_entry - first entry; the list must not be empty. */
#define list_first_entry(head, type, member) \
	list_entry((head)->next, type, member)

#define list_last_entry(head, type, member) \
	list_entry((head)->prev, type, member)

#define list_first_entry_or_null(head, type, member)                    \
	({                                                              \
		struct list_head *__head = (head);                      \
		struct list_head *__pos = READ_ONCE(__head->next);      \
		__pos != __head ? list_entry(__pos, type, member) : NULL; \
	})

#define list_next_entry(pos, member) \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)

#define list_prev_entry(pos, member) \
	list_entry((pos)->member.prev, __typeof__(*(pos)), member)

#define list_entry_is_head(pos, head, member) (&(pos)->member == (head))

#define list_for_each(pos, head) \
	for (pos = (head)->next; pos != (head); pos = pos->next)

/* list_for_each_safe - pos may be deleted inside the loop; n is scratch. */
#define list_for_each_safe(pos, n, head)                                \
	for (pos = (head)->next, n = pos->next; pos != (head);          \
	     pos = n, n = pos->next)

#define list_for_each_entry(pos, head, member)                          \
	for (pos = list_first_entry(head, __typeof__(*pos), member);    \
	     !list_entry_is_head(pos, head, member);                    \
	     pos = list_next_entry(pos, member))

#define list_for_each_entry_reverse(pos, head, member)                  \
	for (pos = list_last_entry(head, __typeof__(*pos), member);     \
	     !list_entry_is_head(pos, head, member);                    \
	     pos = list_prev_entry(pos, member))

/* list_for_each_entry_safe - pos may be deleted; n is scratch. */
#define list_for_each_entry_safe(pos, n, head, member)                  \
	for (pos = list_first_entry(head, __typeof__(*pos), member),    \
	     n = list_next_entry(pos, member);                          \
	     !list_entry_is_head(pos, head, member);                    \
	     pos = n, n = list_next_entry(n, member))

#endif /* LIB_LIST_H */
