/*
 * tests/kernel/test_lib.c - the lib suite: lib/ as the kernel build
 * compiles it (freestanding, -mcmodel=kernel, no SSE).
 *
 * The host suites (tests/host/test_*.c) test the same code in depth under
 * ASan/UBSan; this suite proves the kernel's own copy behaves the same
 * (a compiler flag such as -mno-sse or -fno-builtin changes code
 * generation, not meaning).  What must be observable:
 *   - string functions agree with their C definitions, including edges;
 *   - list order after add/add_tail/del/move;
 *   - plist: lower prio value first, FIFO among equal prio (what the
 *     rt_mutex waiter list relies on);
 *   - bitmaps: find_first/next bit, weight, zero-bit search.
 */
#include "kernel/ktest.h"
#include "lib/string.h"
#include "lib/list.h"
#include "lib/plist.h"
#include "lib/bitmap.h"
#include "lib/errno.h"

static void test_string_functions_match_their_definitions(struct ktest *t)
{
	char buf[16];
	long v;

	KTEST_EXPECT_EQ(t, strlen("rtk"), 3);
	KTEST_EXPECT_EQ(t, strnlen("realtime", 4), 4);
	KTEST_EXPECT(t, strcmp("abc", "abd") < 0, "abc < abd");
	KTEST_EXPECT(t, memcmp("\xff", "\x01", 1) > 0, "bytes compare unsigned");
	KTEST_EXPECT_EQ(t, strscpy(buf, "0123456789abcdefXYZ", sizeof(buf)),
			-E2BIG);
	KTEST_EXPECT_EQ(t, strlen(buf), 15);
	memset(buf, 'x', sizeof(buf));
	memmove(buf + 2, buf, 8);	/* overlapping move */
	buf[10] = '\0';
	KTEST_EXPECT(t, !strcmp(buf, "xxxxxxxxxx"), "saw \"%s\"", buf);
	KTEST_EXPECT_EQ(t, kstrtol("-0x1f", 0, &v), 0);
	KTEST_EXPECT_EQ(t, v, -31);
	KTEST_EXPECT_EQ(t, kstrtol("12abc", 10, &v), -EINVAL);
	{
		static const char hay[] = "preempt_rt";

		KTEST_EXPECT(t, strstr(hay, "rt") == hay + 8,
			     "strstr(\"%s\", \"rt\") at offset %ld, expected 8",
			     hay, strstr(hay, "rt") ? strstr(hay, "rt") - hay : -1L);
	}
}

struct item {
	int id;
	struct list_head node;
	struct plist_node pnode;
};

static void test_list_keeps_insertion_order(struct ktest *t)
{
	LIST_HEAD(head);
	struct item a = { .id = 1 }, b = { .id = 2 }, c = { .id = 3 };
	struct item *it;
	int order[3], n = 0;

	list_add_tail(&a.node, &head);
	list_add_tail(&b.node, &head);
	list_add(&c.node, &head);	/* c goes first */
	list_for_each_entry(it, &head, node)
		order[n++] = it->id;
	KTEST_ASSERT_EQ(t, n, 3);
	KTEST_EXPECT(t, order[0] == 3 && order[1] == 1 && order[2] == 2,
		     "expected 3 1 2, saw %d %d %d", order[0], order[1],
		     order[2]);
	list_del(&a.node);
	list_move_tail(&c.node, &head);
	KTEST_EXPECT_EQ(t, list_first_entry(&head, struct item, node)->id, 2);
	KTEST_EXPECT_EQ(t, list_last_entry(&head, struct item, node)->id, 3);
}

static void test_plist_orders_by_prio_then_fifo(struct ktest *t)
{
	struct plist_head head;
	struct item it[5];
	static const int prio[5] = { 10, 5, 10, 1, 5 };
	static const int expect[5] = { 3, 1, 4, 0, 2 };	/* ids in order */
	struct item *pos;
	int i = 0;

	plist_head_init(&head);
	for (int k = 0; k < 5; k++) {
		it[k].id = k;
		plist_node_init(&it[k].pnode, prio[k]);
		plist_add(&it[k].pnode, &head);
	}
	plist_for_each_entry(pos, &head, pnode) {
		KTEST_EXPECT(t, i < 5 && pos->id == expect[i],
			     "position %d: expected id %d, saw %d", i,
			     i < 5 ? expect[i] : -1, pos->id);
		i++;
	}
	KTEST_EXPECT_EQ(t, i, 5);
	plist_del(&it[3].pnode, &head);
	KTEST_EXPECT_EQ(t, plist_first_entry(&head, struct item, pnode)->id, 1);
}

static void test_bitmap_finds_bits(struct ktest *t)
{
	DECLARE_BITMAP(map, 130);

	bitmap_zero(map, 130);
	KTEST_EXPECT_EQ(t, find_first_bit(map, 130), 130);
	__set_bit(3, map);
	__set_bit(64, map);
	__set_bit(129, map);
	KTEST_EXPECT_EQ(t, find_first_bit(map, 130), 3);
	KTEST_EXPECT_EQ(t, find_next_bit(map, 130, 4), 64);
	KTEST_EXPECT_EQ(t, find_next_bit(map, 130, 65), 129);
	KTEST_EXPECT_EQ(t, bitmap_weight(map, 130), 3);
	KTEST_EXPECT_EQ(t, find_first_zero_bit(map, 130), 0);
	__clear_bit(64, map);
	KTEST_EXPECT(t, !test_bit(64, map), "bit 64 cleared");
}

KTEST_SUITE(lib, KTEST_CASE(test_string_functions_match_their_definitions),
	    KTEST_CASE(test_list_keeps_insertion_order),
	    KTEST_CASE(test_plist_orders_by_prio_then_fifo),
	    KTEST_CASE(test_bitmap_finds_bits));
