/*
 * tests/host/test_list.c - lib/list.h: insertion order, deletion,
 * moves, splices and every iterator, checked by reading back the
 * sequence of item ids.
 */
#include "tests/host/check.h"
#include "lib/list.h"
#include "lib/string.h"

struct item {
	int id;
	struct list_head node;
};

/* order - the ids on head front to back as a string like "1 2 3", and
 * a check that the prev links mirror the next links. */
static const char *order(struct list_head *head)
{
	static char buf[128];
	struct item *it;
	struct list_head *pos;
	size_t n = 0, fwd = 0, back = 0;

	buf[0] = '\0';
	list_for_each_entry(it, head, node) {
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%d",
				      n ? " " : "", it->id);
		fwd++;
	}
	for (pos = head->prev; pos != head; pos = pos->prev)
		back++;
	CHECK(fwd == back, "forward walk has %zu entries, backward %zu", fwd,
	      back);
	return buf;
}

static void init_items(struct item *items, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		items[i].id = i;
		INIT_LIST_HEAD(&items[i].node);
	}
}

static void test_list_head_starts_empty(void)
{
	LIST_HEAD(head);
	struct list_head h2;

	INIT_LIST_HEAD(&h2);
	CHECK(list_empty(&head), "LIST_HEAD must be empty");
	CHECK(list_empty(&h2), "INIT_LIST_HEAD must be empty");
	CHECK(!list_is_singular(&head), "empty list is not singular");
	CHECK(list_first_entry_or_null(&head, struct item, node) == NULL,
	      "first_entry_or_null on empty list");
}

static void test_list_add_is_lifo_add_tail_is_fifo(void)
{
	LIST_HEAD(stack);
	LIST_HEAD(queue);
	struct item a[3], b[3];
	int i;

	init_items(a, 3);
	init_items(b, 3);
	for (i = 0; i < 3; i++) {
		list_add(&a[i].node, &stack);
		list_add_tail(&b[i].node, &queue);
	}
	CHECK_STR(order(&stack), "2 1 0");
	CHECK_STR(order(&queue), "0 1 2");
	CHECK(list_first_entry(&queue, struct item, node) == &b[0],
	      "first entry of queue");
	CHECK(list_next_entry(&b[0], node) == &b[1], "next entry");
}

static void test_list_del_first_middle_last(void)
{
	LIST_HEAD(head);
	struct item it[5];
	int i;

	init_items(it, 5);
	for (i = 0; i < 5; i++)
		list_add_tail(&it[i].node, &head);
	list_del(&it[2].node);
	CHECK_STR(order(&head), "0 1 3 4");
	CHECK(it[2].node.next == NULL && it[2].node.prev == NULL,
	      "list_del leaves the node's links NULL");
	list_del(&it[0].node);
	CHECK_STR(order(&head), "1 3 4");
	list_del_init(&it[4].node);
	CHECK_STR(order(&head), "1 3");
	CHECK(list_empty(&it[4].node), "list_del_init leaves node empty");
	list_del(&it[1].node);
	CHECK(list_is_singular(&head), "one left");
	list_del(&it[3].node);
	CHECK(list_empty(&head), "all deleted");
}

static void test_list_move_and_move_tail(void)
{
	LIST_HEAD(a);
	LIST_HEAD(b);
	struct item it[4];
	int i;

	init_items(it, 4);
	for (i = 0; i < 4; i++)
		list_add_tail(&it[i].node, &a);
	list_move_tail(&it[0].node, &a);	/* rotate */
	CHECK_STR(order(&a), "1 2 3 0");
	list_move(&it[3].node, &b);
	list_move(&it[2].node, &b);
	CHECK_STR(order(&a), "1 0");
	CHECK_STR(order(&b), "2 3");
}

static void test_list_splice_init_joins_and_empties(void)
{
	LIST_HEAD(a);
	LIST_HEAD(b);
	LIST_HEAD(empty);
	struct item it[5];
	int i;

	init_items(it, 5);
	for (i = 0; i < 2; i++)
		list_add_tail(&it[i].node, &a);
	for (i = 2; i < 5; i++)
		list_add_tail(&it[i].node, &b);
	list_splice_init(&b, &a);
	CHECK_STR(order(&a), "2 3 4 0 1");
	CHECK(list_empty(&b), "source is empty after splice_init");
	list_splice_init(&empty, &a);
	CHECK_STR(order(&a), "2 3 4 0 1");
	list_splice_init(&a, &b);
	CHECK_STR(order(&b), "2 3 4 0 1");
	CHECK(list_empty(&a), "source is empty after splice_init");
	list_move(&it[0].node, &a);
	list_splice_tail_init(&a, &b);
	CHECK_STR(order(&b), "2 3 4 1 0");
}

static void test_list_iterators_agree(void)
{
	LIST_HEAD(head);
	struct item it[4], *pos, *n;
	struct list_head *p, *q;
	int i, count = 0, sum = 0;
	char rev[32] = "";

	init_items(it, 4);
	for (i = 0; i < 4; i++)
		list_add_tail(&it[i].node, &head);
	list_for_each(p, &head)
		count++;
	CHECK_EQ(count, 4);
	list_for_each_entry_reverse(pos, &head, node) {
		char d[4];

		snprintf(d, sizeof(d), "%d", pos->id);
		strlcat(rev, d, sizeof(rev));
	}
	CHECK_STR(rev, "3210");
	/* the safe iterators allow deleting the current entry */
	list_for_each_entry_safe(pos, n, &head, node)
		if (pos->id % 2)
			list_del(&pos->node);
	CHECK_STR(order(&head), "0 2");
	list_for_each_safe(p, q, &head) {
		sum += list_entry(p, struct item, node)->id;
		list_del_init(p);
	}
	CHECK_EQ(sum, 2);
	CHECK(list_empty(&head), "all removed by list_for_each_safe");
}

int main(void)
{
	return check_run("list", (struct check_case[]){
		CHECK_CASE(test_list_head_starts_empty),
		CHECK_CASE(test_list_add_is_lifo_add_tail_is_fifo),
		CHECK_CASE(test_list_del_first_middle_last),
		CHECK_CASE(test_list_move_and_move_tail),
		CHECK_CASE(test_list_splice_init_joins_and_empties),
		CHECK_CASE(test_list_iterators_agree),
		{ 0 } });
}
