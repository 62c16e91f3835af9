/*
 * tests/host/test_rtmutex_chain.c - the PI chain walk of
 * kernel/locking/rtmutex_pi.c, driven on the host over abstract tasks and
 * locks through the portable steps it is built from
 * (kernel/locking/pi_chain.c): waiter ordering, transitive boosting
 * through chains of locks, deboosting when a waiter leaves or the owner
 * unlocks, a blocked task's prio change moving the boost along, the
 * depth bound (reported, -EDEADLK) and deadlock detection (-EDEADLK and
 * the cycle) for ABBA and three-lock cycles.
 *
 * walk() below is rt_mutex_adjust_prio_chain() with the locking taken
 * out: the same [n] steps (those without a lock to take or a reference
 * to hold), the same calls into pi_chain.c, one thread.
 * Priorities are the kernel's: 0..99 realtime (lower is more
 * important), 100..139 SCHED_OTHER (120 is nice 0).
 */
#include "tests/host/check.h"
#include "kernel/locking/pi_chain.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

struct htask {
	const char *name;
	int normal_prio, prio;
	struct plist_head pi_waiters;	/* top waiter of each owned lock */
	struct rt_mutex_waiter *blocked_on;
	struct rt_mutex_waiter w;	/* its one waiter (one wait at a time) */
};

struct hlock {
	const char *name;
	struct htask *owner;
	struct plist_head wait_list;
};

static int bound_hits;		/* walks that hit max_depth */

static struct htask *wtask(const struct rt_mutex_waiter *w)
{
	return (struct htask *)w->task;
}

static struct hlock *wlock(const struct rt_mutex_waiter *w)
{
	return (struct hlock *)w->lock;
}

static void task_init(struct htask *t, const char *name, int prio)
{
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->normal_prio = t->prio = prio;
	plist_head_init(&t->pi_waiters);
}

static void lock_init(struct hlock *l, const char *name)
{
	memset(l, 0, sizeof(*l));
	l->name = name;
	plist_head_init(&l->wait_list);
}

static void adjust_prio(struct htask *t)
{
	t->prio = pi_effective_prio(t->normal_prio, &t->pi_waiters);
}

static struct hlock *blocked_lock(const struct htask *t)
{
	return t->blocked_on ? wlock(t->blocked_on) : NULL;
}

/* take - l is free and t takes it (uncontended or as the top waiter). */
static void take(struct htask *t, struct hlock *l)
{
	CHECK(!l->owner, "%s takes %s owned by %s", t->name, l->name,
	      l->owner ? l->owner->name : "-");
	if (t->blocked_on && wlock(t->blocked_on) == l) {
		pi_waiter_dequeue(&l->wait_list, t->blocked_on);
		t->blocked_on = NULL;
	}
	l->owner = t;
	if (pi_top_waiter(&l->wait_list))
		pi_owner_enqueue(&t->pi_waiters, pi_top_waiter(&l->wait_list));
	adjust_prio(t);
}

/* walk - rt_mutex_adjust_prio_chain() without its locks. */
static int walk(struct htask *task, bool detect, struct hlock *orig_lock,
		struct hlock *next_lock, struct rt_mutex_waiter *orig_waiter,
		struct htask *top_task, int max_depth)
{
	struct rt_mutex_waiter *waiter, *top_waiter = orig_waiter, *pre;
	enum pi_link_action act;
	struct hlock *lock;
	bool propagate;
	int depth = 0;

	for (;;) {
		if (++depth > max_depth) {			/* [0] */
			bound_hits++;
			return -EDEADLK;
		}
		waiter = task->blocked_on;			/* [2] */
		if (!waiter || wlock(waiter) != next_lock)	/* [3] */
			return 0;
		act = pi_link_action(waiter, &task->pi_waiters,
				     task->prio, top_waiter, detect);
		if (act == PI_LINK_STOP)
			return 0;
		lock = wlock(waiter);				/* [4] */
		if (lock == orig_lock || lock->owner == top_task) /* [6] */
			return -EDEADLK;
		propagate = false;
		if (act == PI_LINK_REQUEUE) {
			pre = pi_requeue_waiter(&lock->wait_list,	/* [7] */
						waiter, task->prio);
			if (!lock->owner)			/* [9] */
				return 0;
			propagate = waiter == pi_top_waiter(&lock->wait_list) ||
				    waiter == pre;
			if (propagate) {			/* [11] */
				pi_owner_update(&lock->owner->pi_waiters,
						&lock->wait_list, pre);
				adjust_prio(lock->owner);
			}
		}
		if (!lock->owner)
			return 0;
		task = lock->owner;				/* [10] */
		next_lock = blocked_lock(task);			/* [12] */
		top_waiter = pi_top_waiter(&lock->wait_list);
		if (!next_lock || (!detect && !propagate))	/* [13] */
			return 0;
	}
}

/* block - task_blocks_on_rt_mutex(): queue t on l ([B2]), boost ([B3]),
 * walk ([B4]). */
static int block(struct htask *t, struct hlock *l, bool detect, int max_depth)
{
	struct rt_mutex_waiter *w = &t->w, *old_top;
	struct htask *owner = l->owner;

	if (owner == t)
		return -EDEADLK;
	w->task = (struct task_struct *)t;
	w->lock = (struct rt_mutex *)l;
	w->prio = t->prio;
	old_top = pi_top_waiter(&l->wait_list);
	pi_waiter_enqueue(&l->wait_list, w);
	t->blocked_on = w;
	if (!owner)
		return 0;
	if (w == pi_top_waiter(&l->wait_list)) {
		pi_owner_update(&owner->pi_waiters, &l->wait_list, old_top);
		adjust_prio(owner);
	} else if (!detect) {
		return 0;
	}
	if (!blocked_lock(owner))
		return 0;
	return walk(owner, detect, l, blocked_lock(owner), w, t, max_depth);
}

/* leave - remove_waiter(): t gives up waiting (signal, timeout): [D1],
 * deboost [D2], walk [D3]. */
static void leave(struct htask *t)
{
	struct rt_mutex_waiter *w = t->blocked_on;
	struct hlock *l = wlock(w);
	bool was_top = w == pi_top_waiter(&l->wait_list);
	struct htask *owner = l->owner;

	pi_waiter_dequeue(&l->wait_list, w);
	t->blocked_on = NULL;
	if (!owner || !was_top)
		return;
	pi_owner_update(&owner->pi_waiters, &l->wait_list, w);
	adjust_prio(owner);
	if (blocked_lock(owner))
		walk(owner, false, l, blocked_lock(owner), NULL, t, 1024);
}

/* unlock - rt_mutex_slowunlock() ([U2]) and the woken top waiter taking
 * it ([T2], [T4]). */
static struct htask *unlock(struct htask *t, struct hlock *l)
{
	struct rt_mutex_waiter *top = pi_top_waiter(&l->wait_list);

	CHECK(l->owner == t, "%s unlocks %s it does not own", t->name,
	      l->name);
	l->owner = NULL;
	if (!top)
		return NULL;
	pi_owner_dequeue(&t->pi_waiters, top);
	adjust_prio(t);
	take(wtask(top), l);
	return wtask(top);
}

/* setprio - sched_setscheduler then rt_mutex_adjust_pi() ([A1], [A2]). */
static void setprio(struct htask *t, int normal_prio)
{
	t->normal_prio = normal_prio;
	adjust_prio(t);
	if (t->blocked_on && t->blocked_on->prio != t->prio)
		walk(t, false, NULL, blocked_lock(t), NULL, t, 1024);
}

/* cycle - "A -L1-> B -L2-> A": t's wait chain, at most 8 links. */
static const char *cycle(struct htask *t)
{
	static char buf[256];
	struct htask *p = t;
	size_t n = 0;
	int links = 0;

	n += (size_t)scnprintf(buf, sizeof(buf), "%s", t->name);
	while (p->blocked_on && links++ < 8) {
		struct hlock *l = blocked_lock(p);

		p = l->owner;
		n += (size_t)scnprintf(buf + n, sizeof(buf) - n, " -%s-> %s",
				       l->name, p ? p->name : "(free)");
		if (!p || p == t)
			break;
	}
	return buf;
}

/* waiters - "name:prio ..." of l's queue, front to back. */
static const char *waiters(struct hlock *l)
{
	static char buf[256];
	struct rt_mutex_waiter *w;
	size_t n = 0;

	buf[0] = '\0';
	plist_for_each_entry(w, &l->wait_list, list_entry)
		n += (size_t)scnprintf(buf + n, sizeof(buf) - n, "%s%s:%d",
				       n ? " " : "", wtask(w)->name, w->prio);
	return buf;
}

static void test_waiters_ordered_by_prio_fifo_among_equals(void)
{
	struct htask o, a, b, c, d;
	struct hlock l;

	lock_init(&l, "L");
	task_init(&o, "O", 120);
	task_init(&a, "A", 120);
	task_init(&b, "B", 50);
	task_init(&c, "C", 120);
	task_init(&d, "D", 50);
	take(&o, &l);
	CHECK_EQ(block(&a, &l, false, 1024), 0);
	CHECK_EQ(block(&b, &l, false, 1024), 0);
	CHECK_EQ(block(&c, &l, false, 1024), 0);
	CHECK_EQ(block(&d, &l, false, 1024), 0);
	CHECK_STR(waiters(&l), "B:50 D:50 A:120 C:120");
	CHECK_EQ(o.prio, 50);
	/* the lock goes to the top waiter, FIFO among equals */
	CHECK(unlock(&o, &l) == &b, "handed to %s", l.owner->name);
	CHECK_EQ(o.prio, 120);
	CHECK_EQ(b.prio, 50);	/* D still waits behind it at 50 */
	CHECK(unlock(&b, &l) == &d, "handed to %s", l.owner->name);
	CHECK_EQ(d.prio, 50);
	CHECK_STR(waiters(&l), "A:120 C:120");
}

/*
 * Scenario: T0 holds L0; T1 holds L1 and waits for L0; T2 holds L2 and
 * waits for L1; T3 holds L3 and waits for L2 (all SCHED_OTHER 120).
 * T4 (prio 10) blocks on L3: every owner down the chain runs at 10.
 * Then T5 (prio 40) queues on L3 behind T4 and T4 leaves (a signal):
 * the whole chain drops to 40, and when T5 leaves too, back to 120.
 */
static void test_chain_of_four_locks_boosts_and_deboosts_transitively(void)
{
	struct htask t[6];
	struct hlock l[4];
	char name[6][4], lname[4][4];
	int i;

	for (i = 0; i < 6; i++) {
		snprintf(name[i], sizeof(name[i]), "T%d", i);
		task_init(&t[i], name[i], i == 4 ? 10 : i == 5 ? 40 : 120);
	}
	for (i = 0; i < 4; i++) {
		snprintf(lname[i], sizeof(lname[i]), "L%d", i);
		lock_init(&l[i], lname[i]);
		take(&t[i], &l[i]);
	}
	for (i = 1; i < 4; i++)
		CHECK_EQ(block(&t[i], &l[i - 1], false, 1024), 0);
	CHECK_EQ(block(&t[4], &l[3], false, 1024), 0);
	for (i = 0; i < 4; i++)
		CHECK(t[i].prio == 10, "T%d at %d, expected boost to 10", i,
		      t[i].prio);
	CHECK_STR(waiters(&l[0]), "T1:10");

	CHECK_EQ(block(&t[5], &l[3], false, 1024), 0);
	CHECK_EQ(t[3].prio, 10);	/* T5 is behind T4: nothing changes */
	leave(&t[4]);
	for (i = 0; i < 4; i++)
		CHECK(t[i].prio == 40, "T%d at %d after T4 left, expected 40",
		      i, t[i].prio);
	leave(&t[5]);
	for (i = 0; i < 4; i++)
		CHECK(t[i].prio == 120, "T%d at %d after T5 left, expected 120",
		      i, t[i].prio);
	CHECK_STR(waiters(&l[2]), "T3:120");
}

/*
 * Scenario: O holds L1 and L2; A (prio 30) waits on L1, B (prio 20) on
 * L2.  O runs at 20.  O releases L2 first (not in the reverse order of
 * taking): it drops to 30, A's boost only; releasing L1 then brings it
 * back to 120.
 */
static void test_owner_of_two_locks_keeps_the_better_boost(void)
{
	struct htask o, a, b;
	struct hlock l1, l2;

	task_init(&o, "O", 120);
	task_init(&a, "A", 30);
	task_init(&b, "B", 20);
	lock_init(&l1, "L1");
	lock_init(&l2, "L2");
	take(&o, &l1);
	take(&o, &l2);
	CHECK_EQ(block(&a, &l1, false, 1024), 0);
	CHECK_EQ(block(&b, &l2, false, 1024), 0);
	CHECK_EQ(o.prio, 20);
	CHECK(unlock(&o, &l2) == &b, "L2 went to %s", l2.owner->name);
	CHECK_EQ(o.prio, 30);
	CHECK(unlock(&o, &l1) == &a, "L1 went to %s", l1.owner->name);
	CHECK_EQ(o.prio, 120);
}

/*
 * Scenario: T0 holds L0, T1 holds L1 and waits on L0, T2 (prio 50)
 * waits on L1: T0 and T1 run at 50.  T2 is set to prio 5 while blocked:
 * the boost follows down the chain; set back to 90: both drop to 90;
 * T1's own prio raised to 60: T0 runs at 60 (T1's own prio now beats
 * its waiter's).
 */
static void test_prio_change_of_a_blocked_task_moves_the_boost(void)
{
	struct htask t0, t1, t2;
	struct hlock l0, l1;

	task_init(&t0, "T0", 120);
	task_init(&t1, "T1", 120);
	task_init(&t2, "T2", 50);
	lock_init(&l0, "L0");
	lock_init(&l1, "L1");
	take(&t0, &l0);
	take(&t1, &l1);
	CHECK_EQ(block(&t1, &l0, false, 1024), 0);
	CHECK_EQ(block(&t2, &l1, false, 1024), 0);
	CHECK_EQ(t0.prio, 50);
	setprio(&t2, 5);
	CHECK_EQ(t1.prio, 5);
	CHECK_EQ(t0.prio, 5);
	setprio(&t2, 90);
	CHECK_EQ(t1.prio, 90);
	CHECK_EQ(t0.prio, 90);
	setprio(&t1, 60);
	CHECK_EQ(t1.prio, 60);
	CHECK_EQ(t0.prio, 60);
	CHECK_STR(waiters(&l0), "T1:60");
}

/*
 * Scenario: a chain of five locks T0..T4 (T(i) holds L(i), waits on
 * L(i-1)); T5 (prio 1) blocks on L4 with a bound of 2 links: the walk
 * stops after two owners, reports the bound (counted) and returns
 * -EDEADLK; the owners beyond the bound are not boosted.
 */
static void test_walk_deeper_than_the_bound_is_reported(void)
{
	struct htask t[6];
	struct hlock l[5];
	int i, hits = bound_hits;

	for (i = 0; i < 6; i++)
		task_init(&t[i], "T", i == 5 ? 1 : 120);
	for (i = 0; i < 5; i++) {
		lock_init(&l[i], "L");
		take(&t[i], &l[i]);
	}
	for (i = 1; i < 5; i++)
		CHECK_EQ(block(&t[i], &l[i - 1], false, 1024), 0);
	CHECK_EQ(bound_hits, hits);
	CHECK_EQ(block(&t[5], &l[4], false, 2), -EDEADLK);
	CHECK_EQ(bound_hits, hits + 1);
	/* T4 by the block itself, T3 and T2 by the two links walked */
	CHECK_EQ(t[4].prio, 1);
	CHECK_EQ(t[3].prio, 1);
	CHECK_EQ(t[2].prio, 1);
	CHECK(t[1].prio == 120 && t[0].prio == 120,
	      "beyond the bound: T1 %d T0 %d, expected 120", t[1].prio,
	      t[0].prio);
}

/*
 * Scenario (ABBA): A holds L1, B holds L2 and waits on L1; A blocks on
 * L2 with detection on: -EDEADLK, and the cycle A -L2-> B -L1-> A.
 * Equal priorities: nothing to boost, detection still walks.
 */
static void test_abba_deadlock_returns_edeadlk_with_the_cycle(void)
{
	struct htask a, b;
	struct hlock l1, l2;

	task_init(&a, "A", 120);
	task_init(&b, "B", 120);
	lock_init(&l1, "L1");
	lock_init(&l2, "L2");
	take(&a, &l1);
	take(&b, &l2);
	CHECK_EQ(block(&b, &l1, true, 1024), 0);
	CHECK_EQ(block(&a, &l2, true, 1024), -EDEADLK);
	CHECK_STR(cycle(&a), "A -L2-> B -L1-> A");
	/* without detection the same wait only walks where prio changes */
	leave(&a);
	CHECK_EQ(block(&a, &l2, false, 1024), 0);
	leave(&a);
	/* self-deadlock: taking a lock one owns */
	CHECK_EQ(block(&a, &l1, true, 1024), -EDEADLK);
}

/*
 * Scenario (three locks): A holds L1, B holds L2, C holds L3; B waits on
 * L3 (prio 40 boosts C), C waits on L1; A (prio 10) blocks on L2: the
 * walk goes A -> L2 -> B -> L3 -> C -> L1, whose owner is A: -EDEADLK
 * and the three-link cycle.  The boost was applied on the way.
 */
static void test_three_lock_cycle_is_detected(void)
{
	struct htask a, b, c;
	struct hlock l1, l2, l3;

	task_init(&a, "A", 10);
	task_init(&b, "B", 40);
	task_init(&c, "C", 120);
	lock_init(&l1, "L1");
	lock_init(&l2, "L2");
	lock_init(&l3, "L3");
	take(&a, &l1);
	take(&b, &l2);
	take(&c, &l3);
	CHECK_EQ(block(&b, &l3, true, 1024), 0);
	CHECK_EQ(c.prio, 40);
	CHECK_EQ(block(&c, &l1, true, 1024), 0);
	CHECK_EQ(block(&a, &l2, true, 1024), -EDEADLK);
	CHECK_STR(cycle(&a), "A -L2-> B -L3-> C -L1-> A");
	CHECK_EQ(b.prio, 10);
	CHECK_EQ(c.prio, 10);
}

int main(void)
{
	return check_run("rtmutex_chain", (struct check_case[]){
		CHECK_CASE(test_waiters_ordered_by_prio_fifo_among_equals),
		CHECK_CASE(test_chain_of_four_locks_boosts_and_deboosts_transitively),
		CHECK_CASE(test_owner_of_two_locks_keeps_the_better_boost),
		CHECK_CASE(test_prio_change_of_a_blocked_task_moves_the_boost),
		CHECK_CASE(test_walk_deeper_than_the_bound_is_reported),
		CHECK_CASE(test_abba_deadlock_returns_edeadlk_with_the_cycle),
		CHECK_CASE(test_three_lock_cycle_is_detected),
		{ 0 } });
}
