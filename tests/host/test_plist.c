/*
 * tests/host/test_plist.c - lib/plist: order by prio (lower first),
 * FIFO among equal prios, deletion of first/middle/last, the prio_list
 * invariant (exactly one entry per distinct prio, the group's first
 * node), requeue, and a randomised run against a plain array model.
 */
#include "tests/host/check.h"
#include "lib/plist.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"
#include "lib/compiler.h"

extern int fake_warn_count;

struct waiter {
	int id;
	struct plist_node pnode;
};

/* order - "prio:id" pairs front to back, e.g. "1:0 1:2 5:1". */
static const char *order(struct plist_head *head)
{
	static char buf[512];
	struct waiter *w;
	size_t n = 0;

	buf[0] = '\0';
	plist_for_each_entry(w, head, pnode)
		n += (size_t)scnprintf(buf + n, sizeof(buf) - n, "%s%d:%d",
				       n ? " " : "", w->pnode.prio, w->id);
	return buf;
}

/*
 * check_invariants - node_list is sorted; only the first node of each
 * prio is linked on prio_list (with a single prio group the ring holds
 * one node and so looks empty, as in Linux); prio_list visits the
 * groups in increasing prio.  Returns the number of violations (each
 * also reported).
 */
static int check_invariants(struct plist_head *head)
{
	struct plist_node *pos, *prev = NULL, *it;
	int bad = 0, groups = 0, chain = 0;

	plist_for_each(pos, head) {
		if (prev && prev->prio > pos->prio) {
			CHECK(0, "prio %d after %d", pos->prio, prev->prio);
			bad++;
		}
		if (!prev || prev->prio != pos->prio)
			groups++;
		prev = pos;
	}
	prev = NULL;
	plist_for_each(pos, head) {
		bool first = !prev || prev->prio != pos->prio;
		bool linked = !list_empty(&pos->prio_list);

		if (linked != (first && groups > 1)) {
			CHECK(0, "node of prio %d: first=%d groups=%d linked=%d",
			      pos->prio, first, groups, linked);
			bad++;
		}
		prev = pos;
	}
	if (plist_head_empty(head))
		return bad;
	it = plist_first(head);
	do {
		struct plist_node *next = list_entry(it->prio_list.next,
						     struct plist_node,
						     prio_list);

		chain++;
		if (next != plist_first(head) && next->prio <= it->prio) {
			CHECK(0, "prio_list %d -> %d not increasing", it->prio,
			      next->prio);
			bad++;
		}
		it = next;
	} while (it != plist_first(head) && chain <= groups);
	if (chain != groups) {
		CHECK(0, "prio_list has %d entries, %d distinct prios", chain,
		      groups);
		bad++;
	}
	return bad;
}

static void add(struct plist_head *h, struct waiter *w, int id, int prio)
{
	w->id = id;
	plist_node_init(&w->pnode, prio);
	plist_add(&w->pnode, h);
}

static void test_plist_orders_lower_prio_first(void)
{
	PLIST_HEAD(head);
	struct waiter w[5];

	CHECK(plist_head_empty(&head), "PLIST_HEAD starts empty");
	add(&head, &w[0], 0, 50);
	add(&head, &w[1], 1, 10);
	add(&head, &w[2], 2, 99);
	add(&head, &w[3], 3, 0);
	add(&head, &w[4], 4, 30);
	CHECK_STR(order(&head), "0:3 10:1 30:4 50:0 99:2");
	CHECK(plist_first(&head) == &w[3].pnode, "first is prio 0");
	CHECK(plist_last(&head) == &w[2].pnode, "last is prio 99");
	CHECK(plist_first_entry(&head, struct waiter, pnode) == &w[3],
	      "plist_first_entry");
	CHECK_EQ(check_invariants(&head), 0);
}

static void test_plist_is_fifo_among_equal_prios(void)
{
	struct plist_head head;
	struct waiter w[6];

	plist_head_init(&head);
	add(&head, &w[0], 0, 5);
	add(&head, &w[1], 1, 3);
	add(&head, &w[2], 2, 5);
	add(&head, &w[3], 3, 3);
	add(&head, &w[4], 4, 5);
	add(&head, &w[5], 5, 1);
	CHECK_STR(order(&head), "1:5 3:1 3:3 5:0 5:2 5:4");
	CHECK_EQ(check_invariants(&head), 0);
}

static void test_plist_del_first_middle_last(void)
{
	PLIST_HEAD(head);
	struct waiter w[6];

	add(&head, &w[0], 0, 1);
	add(&head, &w[1], 1, 2);
	add(&head, &w[2], 2, 2);
	add(&head, &w[3], 3, 3);
	add(&head, &w[4], 4, 3);
	add(&head, &w[5], 5, 9);
	plist_del(&w[0].pnode, &head);		/* first overall */
	CHECK_STR(order(&head), "2:1 2:2 3:3 3:4 9:5");
	CHECK(plist_node_empty(&w[0].pnode), "deleted node is empty");
	CHECK_EQ(check_invariants(&head), 0);
	plist_del(&w[1].pnode, &head);		/* group head, hands over */
	CHECK_STR(order(&head), "2:2 3:3 3:4 9:5");
	CHECK_EQ(check_invariants(&head), 0);
	plist_del(&w[4].pnode, &head);		/* middle, not group head */
	CHECK_STR(order(&head), "2:2 3:3 9:5");
	CHECK_EQ(check_invariants(&head), 0);
	plist_del(&w[5].pnode, &head);		/* last */
	CHECK_STR(order(&head), "2:2 3:3");
	CHECK(plist_last(&head) == &w[3].pnode, "new last");
	CHECK_EQ(check_invariants(&head), 0);
	/* a deleted node can be added again, now behind its equals */
	plist_node_init(&w[1].pnode, 3);
	plist_add(&w[1].pnode, &head);
	CHECK_STR(order(&head), "2:2 3:3 3:1");
	CHECK_EQ(check_invariants(&head), 0);
	plist_del(&w[2].pnode, &head);
	plist_del(&w[3].pnode, &head);
	plist_del(&w[1].pnode, &head);
	CHECK(plist_head_empty(&head), "empty after deleting all");
}

static void test_plist_many_equal_prios(void)
{
	PLIST_HEAD(head);
	struct waiter w[64];
	struct waiter *pos, *n;
	int i, expect = 0;

	for (i = 0; i < 64; i++)
		add(&head, &w[i], i, 7);
	CHECK_EQ(check_invariants(&head), 0);
	plist_for_each_entry(pos, &head, pnode) {
		CHECK(pos->id == expect, "FIFO: expected id %d, saw %d",
		      expect, pos->id);
		expect++;
	}
	CHECK_EQ(expect, 64);
	/* delete the group head repeatedly: the prio_list slot moves on */
	for (i = 0; i < 32; i++) {
		plist_del(plist_first(&head), &head);
		if (check_invariants(&head))
			break;
	}
	CHECK(plist_first(&head) == &w[32].pnode, "first after 32 deletes");
	plist_for_each_entry_safe(pos, n, &head, pnode)
		if (pos->id % 2)
			plist_del(&pos->pnode, &head);
	CHECK_EQ(check_invariants(&head), 0);
	CHECK(plist_first(&head) == &w[32].pnode && plist_last(&head) == &w[62].pnode,
	      "even ids 32..62 remain");
}

static void test_plist_requeue_moves_behind_equals(void)
{
	PLIST_HEAD(head);
	struct waiter w[4];

	add(&head, &w[0], 0, 4);
	add(&head, &w[1], 1, 4);
	add(&head, &w[2], 2, 4);
	add(&head, &w[3], 3, 8);
	plist_requeue(&w[0].pnode, &head);
	CHECK_STR(order(&head), "4:1 4:2 4:0 8:3");
	CHECK_EQ(check_invariants(&head), 0);
	plist_requeue(&w[3].pnode, &head);	/* alone in its group */
	CHECK_STR(order(&head), "4:1 4:2 4:0 8:3");
	plist_requeue(&w[0].pnode, &head);	/* already last of group */
	CHECK_STR(order(&head), "4:1 4:2 4:0 8:3");
	CHECK_EQ(check_invariants(&head), 0);
}

static void test_plist_add_twice_warns(void)
{
	PLIST_HEAD(head);
	struct waiter w;
	int before = fake_warn_count;

	add(&head, &w, 0, 1);
	plist_add(&w.pnode, &head);
	CHECK_EQ(fake_warn_count, before + 1);
	CHECK_STR(order(&head), "1:0");
}

/*
 * Randomised: 2000 operations on 40 nodes with prios in 0..7, against an
 * array model kept sorted with stable insertion (append behind equals).
 */
static void test_plist_matches_model_under_random_ops(void)
{
	enum { N = 40 };
	PLIST_HEAD(head);
	struct waiter w[N];
	int model[N], len = 0, i, step, j;
	unsigned int seed = 12345;
	bool on[N] = { false };

	for (i = 0; i < N; i++) {
		w[i].id = i;
		plist_node_init(&w[i].pnode, 0);
	}
	for (step = 0; step < 2000; step++) {
		struct plist_node *pos;
		int k;

		seed = seed * 1103515245u + 12345u;
		k = (int)((seed >> 16) % N);
		if (!on[k]) {
			int prio = (int)((seed >> 8) % 8);

			plist_node_init(&w[k].pnode, prio);
			plist_add(&w[k].pnode, &head);
			for (j = len; j > 0 && w[model[j - 1]].pnode.prio > prio; j--)
				model[j] = model[j - 1];
			model[j] = k;
			len++;
		} else {
			plist_del(&w[k].pnode, &head);
			for (j = 0; model[j] != k; j++)
				;
			memmove(&model[j], &model[j + 1],
				(size_t)(len - j - 1) * sizeof(int));
			len--;
		}
		on[k] = !on[k];
		j = 0;
		plist_for_each(pos, &head) {
			if (j >= len || pos != &w[model[j]].pnode)
				break;
			j++;
		}
		if (j != len || check_invariants(&head)) {
			CHECK(0, "step %d: plist diverged from model at %d",
			      step, j);
			return;
		}
	}
}

int main(void)
{
	return check_run("plist", (struct check_case[]){
		CHECK_CASE(test_plist_orders_lower_prio_first),
		CHECK_CASE(test_plist_is_fifo_among_equal_prios),
		CHECK_CASE(test_plist_del_first_middle_last),
		CHECK_CASE(test_plist_many_equal_prios),
		CHECK_CASE(test_plist_requeue_moves_behind_equals),
		CHECK_CASE(test_plist_add_twice_warns),
		CHECK_CASE(test_plist_matches_model_under_random_ops),
		{ 0 } });
}
