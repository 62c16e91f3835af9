/*
 * tests/kernel/test_lockdep.c - the lockdep suite: the lock validator's
 * self-test matrix, after Linux's lib/locking-selftest.c.  Each case
 * provokes one kind of report with locks of its own classes (none is
 * used by another case), runs inside lockdep_expect_begin/end so the
 * report prints as "lockdep-expected: " (tools/harness.py fails a run on
 * any other), checks that exactly one report of the right kind was
 * counted, and forgets its classes so the validator stays on and clean.
 * All in the test task on one CPU: the validator reports an order the
 * first time it is seen, so no case needs a second task or a real
 * deadlock (AA and ABBA use different locks of one class, or orders
 * taken one after the other).
 *	AA (two locks of one class, and one rt_mutex twice), ABBA, ABC,
 *	hard-irq safe vs unsafe, sleeping lock under a spinning one,
 *	release of a lock not held: one report each;
 *	consistent orders, nesting subclasses, recursive readers: none;
 *	reset as often as a soak's pitest runs do: the tables stay put and
 *	a forgotten order is reported again.
 * Skipped when built with LOCKDEP=0.
 */
#include "kernel/ktest.h"
#include "kernel/sched/sched.h"
#include "kernel/locking/lockdep.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/rwlock.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/irq/irq_enter.h"
#include "kernel/irqflags.h"
#include "lib/errno.h"

static DEFINE_RAW_SPINLOCK(abba_a);
static DEFINE_RAW_SPINLOCK(abba_b);
static DEFINE_RAW_SPINLOCK(abc_a);
static DEFINE_RAW_SPINLOCK(abc_b);
static DEFINE_RAW_SPINLOCK(abc_c);
static DEFINE_RAW_SPINLOCK(irq_lock);
static DEFINE_RAW_SPINLOCK(atomic_outer);
static DEFINE_RT_MUTEX(atomic_inner);
static DEFINE_RT_MUTEX(aa_mutex);
static DEFINE_RAW_SPINLOCK(ok_a);
static DEFINE_RAW_SPINLOCK(ok_b);
static DEFINE_RAW_SPINLOCK(ok_c);
static DEFINE_RAW_RWLOCK(ok_rw);
static raw_spinlock_t aa_pair[2];	/* one class: one init site */
static raw_spinlock_t nest_pair[2];
static DEFINE_RAW_SPINLOCK(reuse_a);
static raw_spinlock_t reuse_b[8];	/* one init site, 8 addresses */

static struct lockdep_stats before;

/* Take outer, then inner; let both go: the order outer -> inner. */
static void take_in_order(raw_spinlock_t *outer, raw_spinlock_t *inner)
{
	raw_spin_lock(outer);
	raw_spin_lock(inner);
	raw_spin_unlock(inner);
	raw_spin_unlock(outer);
}

static int lockdep_suite_init(const char **why)
{
	*why = "lockdep not built (LOCKDEP=0)";
	return LOCKDEP_ENABLED ? 0 : -EOPNOTSUPP;
}

/* Open the expected-report window. */
static void expect_begin(void)
{
	lockdep_get_stats(&before);
	lockdep_expect_begin();
}

/* Close it: exactly one new report, of kind, all of them expected. */
static void expect_end(struct ktest *t, enum lockdep_report_kind kind)
{
	struct lockdep_stats after;

	lockdep_expect_end();
	lockdep_get_stats(&after);
	KTEST_EXPECT(t, after.enabled, "the validator turned itself off");
	KTEST_EXPECT(t, after.reports - before.reports == 1 &&
			     after.expected - before.expected == 1,
		     "expected one %s report, seen %lu (%lu expected)",
		     lockdep_kind_name(kind), after.reports - before.reports,
		     after.expected - before.expected);
	KTEST_EXPECT(t, after.last_kind == kind,
		     "expected a %s report, the last was %s",
		     lockdep_kind_name(kind),
		     lockdep_kind_name(after.last_kind));
}

/* Two locks of one class nested: "possible recursive locking". */
static void test_lockdep_reports_aa_of_one_class(struct ktest *t)
{
	for (int i = 0; i < 2; i++)
		raw_spin_lock_init(&aa_pair[i]);
	expect_begin();
	take_in_order(&aa_pair[0], &aa_pair[1]);
	expect_end(t, LOCKDEP_RECURSIVE);
	lockdep_reset_map(&aa_pair[0].dep_map);
}

/* The same lock twice: rt_mutex refuses the second with -EDEADLK, the
 * validator has reported it before the lock was tried. */
static void test_lockdep_reports_aa_of_one_lock(struct ktest *t)
{
	int ret;

	expect_begin();
	rt_mutex_lock(&aa_mutex);
	ret = rt_mutex_lock_interruptible(&aa_mutex);
	rt_mutex_unlock(&aa_mutex);
	expect_end(t, LOCKDEP_RECURSIVE);
	KTEST_EXPECT_EQ(t, ret, -EDEADLK);
	lockdep_reset_map(&aa_mutex.dep_map);
}

/* A then B, later B then A: reported at the second order's B -> A. */
static void test_lockdep_reports_abba(struct ktest *t)
{
	struct lockdep_stats mid;

	expect_begin();
	take_in_order(&abba_a, &abba_b);
	lockdep_get_stats(&mid);
	KTEST_EXPECT(t, mid.reports == before.reports,
		     "A -> B alone was reported");
	take_in_order(&abba_b, &abba_a);
	expect_end(t, LOCKDEP_CIRCULAR);
	lockdep_reset_map(&abba_a.dep_map);
	lockdep_reset_map(&abba_b.dep_map);
}

/* A -> B, B -> C, then C -> A closes a cycle of three. */
static void test_lockdep_reports_abc_cycle(struct ktest *t)
{
	expect_begin();
	take_in_order(&abc_a, &abc_b);
	take_in_order(&abc_b, &abc_c);
	take_in_order(&abc_c, &abc_a);
	expect_end(t, LOCKDEP_CIRCULAR);
	lockdep_reset_map(&abc_a.dep_map);
	lockdep_reset_map(&abc_b.dep_map);
	lockdep_reset_map(&abc_c.dep_map);
}

/* Taken inside a hard-irq section (the test plays the handler with
 * irq_enter/irq_exit, irqs off), then with irqs on: an interrupt on a
 * CPU holding it would spin for ever. */
static void test_lockdep_reports_hardirq_inversion(struct ktest *t)
{
	unsigned long flags;

	expect_begin();
	raw_local_irq_save(flags);
	irq_enter();
	raw_spin_lock(&irq_lock);
	raw_spin_unlock(&irq_lock);
	irq_exit();
	raw_local_irq_restore(flags);
	KTEST_ASSERT(t, !raw_irqs_disabled(), "irqs must be on here");
	raw_spin_lock(&irq_lock);
	raw_spin_unlock(&irq_lock);
	expect_end(t, LOCKDEP_IRQ_INVERSION);
	lockdep_reset_map(&irq_lock.dep_map);
}

/* A sleeping lock (free: it does not sleep) under a raw spinlock: the
 * wait-context report names both (might_sleep() warns as well). */
static void test_lockdep_reports_sleeping_lock_in_atomic(struct ktest *t)
{
	expect_begin();
	might_sleep_expect_begin();
	raw_spin_lock(&atomic_outer);
	rt_mutex_lock(&atomic_inner);
	rt_mutex_unlock(&atomic_inner);
	raw_spin_unlock(&atomic_outer);
	might_sleep_expect_end();
	expect_end(t, LOCKDEP_WAIT_CONTEXT);
	lockdep_reset_map(&atomic_outer.dep_map);
	lockdep_reset_map(&atomic_inner.dep_map);
}

/* A release the task never acquired (the annotation alone: a real lock
 * would also trip its own owner check, see the rtmutex misuse case). */
static void test_lockdep_reports_release_not_held(struct ktest *t)
{
	static struct lockdep_map map =
		LOCKDEP_MAP_INIT("never_taken", LD_WAIT_SPIN);

	expect_begin();
	lock_release(&map, _THIS_IP_);
	expect_end(t, LOCKDEP_BAD_UNLOCK);
	lockdep_reset_map(&map);
}

/* Consistent orders, a nesting subclass, recursive readers and an
 * out-of-order release: nothing is reported. */
static void test_lockdep_valid_orders_report_nothing(struct ktest *t)
{
	struct lockdep_stats after;

	for (int i = 0; i < 2; i++)
		raw_spin_lock_init(&nest_pair[i]);
	lockdep_get_stats(&before);
	for (int i = 0; i < 2; i++)
		take_in_order(&ok_a, &ok_b);
	raw_spin_lock(&ok_a);
	raw_spin_lock(&ok_b);
	raw_spin_lock(&ok_c);
	raw_spin_unlock(&ok_a);		/* out of order: fine */
	raw_spin_unlock(&ok_c);
	raw_spin_unlock(&ok_b);
	raw_spin_lock(&nest_pair[0]);
	raw_spin_lock_nested(&nest_pair[1], SINGLE_DEPTH_NESTING);
	raw_spin_unlock(&nest_pair[1]);
	raw_spin_unlock(&nest_pair[0]);
	raw_read_lock(&ok_rw);
	raw_read_lock(&ok_rw);
	raw_read_unlock(&ok_rw);
	raw_read_unlock(&ok_rw);
	KTEST_EXPECT(t, lock_is_held(&ok_a.dep_map) == false,
		     "ok_a still held after its release");
	lockdep_get_stats(&after);
	KTEST_EXPECT(t, after.reports == before.reports,
		     "expected no report, seen %lu (last %s)",
		     after.reports - before.reports,
		     lockdep_kind_name(after.last_kind));
	KTEST_EXPECT(t, after.enabled, "the validator turned itself off");
	lockdep_reset_map(&ok_a.dep_map);
	lockdep_reset_map(&ok_b.dep_map);
	lockdep_reset_map(&ok_c.dep_map);
	lockdep_reset_map(&nest_pair[0].dep_map);
	lockdep_reset_map(&ok_rw.dep_map);
}

/* After a reset the same ABBA is reported again: the classes are the
 * same, their edges and reports forgotten. */
static void test_lockdep_reset_lets_abba_report_again(struct ktest *t)
{
	test_lockdep_reports_abba(t);
}

#define RESET_ROUNDS 5000	/* > 1024 classes if resets made new ones */

/*
 * A soak runs the pitest scripts for as long as it is told, and each
 * script resets its eight locks: resetting must not use up the tables.
 * Each round takes reuse_a then one of reuse_b[] (zero-initialised:
 * classed by address, 9 classes), and every 8 rounds forgets them all.
 * Seen before classes were kept and edges reused: the class table full
 * after ~900 rounds and the validator off ("turned itself off").
 */
static void test_lockdep_reset_keeps_tables_bounded(struct ktest *t)
{
	struct lockdep_stats s0, s1;

	take_in_order(&reuse_a, &reuse_b[0]);	/* the classes exist */
	lockdep_get_stats(&s0);
	for (int i = 0; i < RESET_ROUNDS; i++) {
		take_in_order(&reuse_a, &reuse_b[i % 8]);
		if (i % 8 == 7) {
			lockdep_reset_map(&reuse_a.dep_map);
			for (int j = 0; j < 8; j++)
				lockdep_reset_map(&reuse_b[j].dep_map);
		}
	}
	lockdep_get_stats(&s1);
	KTEST_EXPECT(t, s1.enabled, "the validator turned itself off after "
		     "%d rounds of resets (classes %u/%u, edges %u/%u)",
		     RESET_ROUNDS, s1.classes, s1.max_classes, s1.edges,
		     s1.max_edges);
	KTEST_EXPECT(t, s1.classes <= s0.classes + 8,
		     "classes stay: %u before, %u after %d rounds", s0.classes,
		     s1.classes, RESET_ROUNDS);
	KTEST_EXPECT(t, s1.edges <= s0.edges + 8,
		     "edges freed by the resets: %u before, %u after", s0.edges,
		     s1.edges);
	KTEST_EXPECT(t, s1.reports == s0.reports, "no report expected, saw %lu",
		     s1.reports - s0.reports);
}

KTEST_SUITE_INIT(lockdep, lockdep_suite_init,
		 KTEST_CASE(test_lockdep_reports_aa_of_one_class),
		 KTEST_CASE(test_lockdep_reports_aa_of_one_lock),
		 KTEST_CASE(test_lockdep_reports_abba),
		 KTEST_CASE(test_lockdep_reports_abc_cycle),
		 KTEST_CASE(test_lockdep_reports_hardirq_inversion),
		 KTEST_CASE(test_lockdep_reports_sleeping_lock_in_atomic),
		 KTEST_CASE(test_lockdep_reports_release_not_held),
		 KTEST_CASE(test_lockdep_valid_orders_report_nothing),
		 KTEST_CASE(test_lockdep_reset_lets_abba_report_again),
		 KTEST_CASE(test_lockdep_reset_keeps_tables_bounded));
