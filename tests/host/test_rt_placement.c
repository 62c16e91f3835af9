/*
 * tests/host/test_rt_placement.c - kernel/sched/rt_placement: a woken RT
 * task goes to the CPU running the least important task, only when it
 * would preempt it, never outside its affinity or to an offline CPU, and
 * to its last CPU when several are equally good; a brute-force model
 * cross-checks random snapshots.  The pull rule (a blocked prev does not
 * count) and the push-on-boost rule of prio_changed_rt.
 */
#include "tests/host/check.h"
#include "kernel/sched/rt_placement.h"
#include "kernel/sched/rt_runqueue.h"

#define IDLE 140	/* what an idle CPU reports (largest value) */
#define OTHER 120	/* a SCHED_OTHER task */

static cpumask_t mask(u64 bits)
{
	return (cpumask_t){ .bits = bits };
}

static void test_idle_cpu_beats_busy_ones(void)
{
	int prio[4] = { 10, 50, IDLE, OTHER };

	CHECK_EQ(rt_find_lowest_cpu(prio, 4, mask(0xf), mask(0xf), 5, 0), 2);
}

static void test_no_cpu_when_task_preempts_nobody(void)
{
	int prio[3] = { 10, 20, 30 };

	CHECK_EQ(rt_find_lowest_cpu(prio, 3, mask(7), mask(7), 30, -1), -1);
	CHECK_EQ(rt_find_lowest_cpu(prio, 3, mask(7), mask(7), 40, -1), -1);
	CHECK_EQ(rt_find_lowest_cpu(prio, 3, mask(7), mask(7), 29, -1), 2);
}

static void test_affinity_and_online_are_respected(void)
{
	int prio[4] = { IDLE, IDLE, 50, 60 };

	/* CPUs 0,1 idle but not allowed: the least important allowed */
	CHECK_EQ(rt_find_lowest_cpu(prio, 4, mask(0xf), mask(0xc), 5, -1), 3);
	/* CPU 3 offline */
	CHECK_EQ(rt_find_lowest_cpu(prio, 4, mask(0x7), mask(0xc), 5, -1), 2);
	/* nothing allowed online */
	CHECK_EQ(rt_find_lowest_cpu(prio, 4, mask(0x3), mask(0xc), 5, -1), -1);
}

static void test_last_cpu_preferred_on_ties(void)
{
	int prio[4] = { IDLE, IDLE, IDLE, 10 };

	CHECK_EQ(rt_find_lowest_cpu(prio, 4, mask(0xf), mask(0xf), 5, 2), 2);
	CHECK_EQ(rt_find_lowest_cpu(prio, 4, mask(0xf), mask(0xf), 5, -1), 0);
	/* last CPU busy with something more important: not preferred */
	CHECK_EQ(rt_find_lowest_cpu(prio, 4, mask(0xf), mask(0xf), 5, 3), 0);
}

/* Issue 12, bug 1: a CPU whose RT task blocked (prio 9 = FIFO 90) and
 * has nothing else queued (MAX_RT_PRIO) pulls an equal or lower RT task;
 * it used to compare with the blocker's own 9 and pull neither. */
static void test_pull_ignores_the_blocked_prev(void)
{
	CHECK(rt_pull_wanted(9, MAX_RT_PRIO), "equal prio to the blocker");
	CHECK(rt_pull_wanted(19, MAX_RT_PRIO), "lower prio than the blocker");
	CHECK(rt_pull_wanted(99, MAX_RT_PRIO), "lowest RT prio, CPU idle");
}

static void test_pull_only_beats_what_is_queued(void)
{
	CHECK(!rt_pull_wanted(9, 9), "an equal queued task: no trade");
	CHECK(!rt_pull_wanted(19, 9), "a better task is queued here");
	CHECK(rt_pull_wanted(4, 9), "more important than the queued one");
}

/* a queued owner boosted to 9 behind curr 4: push; boosted past curr:
 * it preempts here instead; deboosted or unchanged: nothing. */
static void test_push_after_boost(void)
{
	CHECK(rt_push_after_boost(120, 9, 4), "OTHER boosted behind FIFO 95");
	CHECK(rt_push_after_boost(19, 9, 9), "boosted to curr's own prio");
	CHECK(!rt_push_after_boost(120, 2, 4), "now preempts curr");
	CHECK(!rt_push_after_boost(9, 120, 4), "deboost");
	CHECK(!rt_push_after_boost(9, 9, 4), "no change");
}

static unsigned int seed = 777;
static unsigned int rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 16) & 0x7fff;
}

/* model: pick the largest prio; ties: last CPU, else lowest number */
static int model(const int *prio, int n, u64 ok, int task, int last)
{
	int c, worst = -1;

	for (c = 0; c < n; c++)
		if ((ok >> c) & 1 && prio[c] > worst)
			worst = prio[c];
	if (worst <= task)
		return -1;
	if (last >= 0 && last < n && (ok >> last) & 1 && prio[last] == worst)
		return last;
	for (c = 0; c < n; c++)
		if ((ok >> c) & 1 && prio[c] == worst)
			return c;
	return -1;
}

static void test_random_snapshots_match_model(void)
{
	int round;

	for (round = 0; round < 20000; round++) {
		int n = 1 + (int)(rnd() % 16), prio[16], c, got, want;
		u64 online = rnd() | ((u64)rnd() << 15);
		u64 allowed = rnd() | ((u64)rnd() << 15);
		int task = (int)(rnd() % 141);
		int last = (int)(rnd() % 17) - 1;

		for (c = 0; c < n; c++)
			prio[c] = (int)(rnd() % 6) * 28;	/* many ties */
		got = rt_find_lowest_cpu(prio, n, mask(online), mask(allowed),
					 task, last);
		want = model(prio, n, online & allowed, task, last);
		CHECK(got == want, "round %d: expected CPU %d, saw %d", round,
		      want, got);
		if (got != want)
			return;
	}
}

int main(void)
{
	return check_run("rt_placement", (struct check_case[]){
		CHECK_CASE(test_idle_cpu_beats_busy_ones),
		CHECK_CASE(test_no_cpu_when_task_preempts_nobody),
		CHECK_CASE(test_affinity_and_online_are_respected),
		CHECK_CASE(test_last_cpu_preferred_on_ties),
		CHECK_CASE(test_random_snapshots_match_model),
		CHECK_CASE(test_pull_ignores_the_blocked_prev),
		CHECK_CASE(test_pull_only_beats_what_is_queued),
		CHECK_CASE(test_push_after_boost),
		{ 0 } });
}
