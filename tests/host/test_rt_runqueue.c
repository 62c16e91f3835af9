/*
 * tests/host/test_rt_runqueue.c - kernel/sched/rt_runqueue: the O(1) RT
 * queue picks the most important prio, FIFO among equals, head insertion
 * for a preempted task, requeue to the tail, the bitmap tracks exactly
 * the non-empty queues, and a randomised run against an array model.
 */
#include "tests/host/check.h"
#include "kernel/sched/rt_runqueue.h"
#include "lib/compiler.h"

struct ent {
	int id;
	int prio;
	struct list_head node;
};

static struct ent *first(struct rt_prio_array *a)
{
	struct list_head *n = rt_prio_array_first(a);

	return n ? list_entry(n, struct ent, node) : NULL;
}

static void test_empty_array_has_no_highest(void)
{
	struct rt_prio_array a;

	rt_prio_array_init(&a);
	CHECK_EQ(rt_prio_array_highest(&a), MAX_RT_PRIO);
	CHECK(rt_prio_array_first(&a) == NULL, "first of empty array");
	CHECK(rt_prio_array_empty(&a), "new array not empty");
}

static void test_highest_prio_is_picked_first(void)
{
	struct rt_prio_array a;
	struct ent e[3] = {
		{ .id = 0, .prio = 50 },
		{ .id = 1, .prio = 3 },
		{ .id = 2, .prio = 99 }
	};
	int i;

	rt_prio_array_init(&a);
	for (i = 0; i < 3; i++)
		rt_prio_array_enqueue(&a, &e[i].node, e[i].prio, false);
	CHECK_EQ(rt_prio_array_highest(&a), 3);
	CHECK_EQ(first(&a)->id, 1);
	rt_prio_array_dequeue(&a, &e[1].node, 3);
	CHECK_EQ(rt_prio_array_highest(&a), 50);
	rt_prio_array_dequeue(&a, &e[0].node, 50);
	CHECK_EQ(first(&a)->id, 2);
	rt_prio_array_dequeue(&a, &e[2].node, 99);
	CHECK_EQ(rt_prio_array_highest(&a), MAX_RT_PRIO);
	CHECK_EQ(a.nr_queued, 0);
}

static void test_equal_prios_are_fifo_and_head_goes_first(void)
{
	struct rt_prio_array a;
	struct ent e[3] = {
		{ .id = 0, .prio = 10 },
		{ .id = 1, .prio = 10 },
		{ .id = 2, .prio = 10 }
	};

	rt_prio_array_init(&a);
	rt_prio_array_enqueue(&a, &e[0].node, 10, false);
	rt_prio_array_enqueue(&a, &e[1].node, 10, false);
	CHECK_EQ(first(&a)->id, 0);
	rt_prio_array_enqueue(&a, &e[2].node, 10, true);	/* preempted */
	CHECK_EQ(first(&a)->id, 2);
	rt_prio_array_dequeue(&a, &e[2].node, 10);
	CHECK_EQ(first(&a)->id, 0);
	rt_prio_array_dequeue(&a, &e[0].node, 10);
	CHECK_EQ(first(&a)->id, 1);
}

static void test_requeue_rotates_equal_prios(void)
{
	struct rt_prio_array a;
	struct ent e[3] = {
		{ .id = 0, .prio = 7 },
		{ .id = 1, .prio = 7 },
		{ .id = 2, .prio = 7 }
	};
	int i, round;

	rt_prio_array_init(&a);
	for (i = 0; i < 3; i++)
		rt_prio_array_enqueue(&a, &e[i].node, 7, false);
	for (round = 0; round < 6; round++) {
		struct ent *f = first(&a);

		CHECK_EQ(f->id, round % 3);
		rt_prio_array_requeue(&a, &f->node, 7);
	}
	CHECK_EQ(a.nr_queued, 3);
}

static void test_bitmap_tracks_nonempty_queues(void)
{
	struct rt_prio_array a;
	struct ent e[2] = {
		{ .id = 0, .prio = 0 },
		{ .id = 1, .prio = 0 }
	};

	rt_prio_array_init(&a);
	rt_prio_array_enqueue(&a, &e[0].node, 0, false);
	rt_prio_array_enqueue(&a, &e[1].node, 0, false);
	rt_prio_array_dequeue(&a, &e[0].node, 0);
	CHECK(test_bit(0, a.bitmap), "bit 0 cleared with one entry left");
	rt_prio_array_dequeue(&a, &e[1].node, 0);
	CHECK(!test_bit(0, a.bitmap), "bit 0 still set on an empty queue");
	CHECK(test_bit(MAX_RT_PRIO, a.bitmap), "delimiter bit lost");
}

/* A tiny LCG so the run is the same on every host. */
static unsigned int seed = 12345;
static unsigned int rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

static void test_random_ops_match_array_model(void)
{
	enum { N = 64 };
	static struct ent e[N];
	static bool queued[N];
	static long stamp[N];	/* enqueue order, the model's FIFO */
	long clock = 0, head_clock = 0;
	struct rt_prio_array a;
	int step, i;

	rt_prio_array_init(&a);
	for (i = 0; i < N; i++) {
		e[i].id = i;
		queued[i] = false;
	}
	for (step = 0; step < 20000; step++) {
		int k = (int)(rnd() % N), best = -1;

		if (!queued[k]) {
			bool head = rnd() % 4 == 0;

			e[k].prio = (int)(rnd() % 8) * 13 % MAX_RT_PRIO;
			rt_prio_array_enqueue(&a, &e[k].node, e[k].prio, head);
			/* head: before every entry queued so far (a counter
			 * running down), tail: after every one (running up) */
			stamp[k] = head ? --head_clock : ++clock;
			queued[k] = true;
		} else {
			rt_prio_array_dequeue(&a, &e[k].node, e[k].prio);
			queued[k] = false;
		}
		for (i = 0; i < N; i++)
			if (queued[i] &&
			    (best < 0 || e[i].prio < e[best].prio ||
			     (e[i].prio == e[best].prio &&
			      stamp[i] < stamp[best])))
				best = i;
		if (best < 0) {
			CHECK(rt_prio_array_first(&a) == NULL,
			      "step %d: model empty, array not", step);
		} else {
			struct ent *f = first(&a);

			CHECK(f && f->id == best,
			      "step %d: expected entry %d (prio %d), saw %d",
			      step, best, e[best].prio, f ? f->id : -1);
			if (!f || f->id != best)
				return;
		}
	}
}

int main(void)
{
	return check_run("rt_runqueue", (struct check_case[]){
		CHECK_CASE(test_empty_array_has_no_highest),
		CHECK_CASE(test_highest_prio_is_picked_first),
		CHECK_CASE(test_equal_prios_are_fifo_and_head_goes_first),
		CHECK_CASE(test_requeue_rotates_equal_prios),
		CHECK_CASE(test_bitmap_tracks_nonempty_queues),
		CHECK_CASE(test_random_ops_match_array_model),
		{ 0 } });
}
