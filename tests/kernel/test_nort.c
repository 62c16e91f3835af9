/*
 * tests/kernel/test_nort.c - the article's _rt / _nort helpers and the
 * _bh lock forms, asserted per preemption model.
 *
 * Scenario (one task, no other threads): the article says the _nort
 * primitives "do nothing (or almost nothing) in PREEMPT_RT, but have the
 * normal effect in other environments", and the _rt ones the reverse.
 * What must be observable:
 *   - spin_lock_nort() leaves the lock free under rt, holds it elsewhere;
 *     spin_lock_rt() the other way round;
 *   - local_irq_save_nort() keeps hardware interrupts on under rt and
 *     really clears IF elsewhere;
 *   - spin_lock_bh() holds softirqs off (in_softirq() inside) under every
 *     model and takes the lock; spin_lock_bh_nort() follows the _nort rule;
 *   - WARN_ON_NONRT() fires (returns true) only outside rt, WARN_ON_RT()
 *     only under rt.
 */
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "kernel/irqflags.h"
#include "kernel/sched/rt_helpers.h"
#include "arch/x86_64/arch.h"

#ifdef CONFIG_PREEMPT_RT
#define IS_RT 1
#else
#define IS_RT 0
#endif

static DEFINE_SPINLOCK(nort_lock);

static void test_spin_lock_nort_and_rt_follow_the_model(struct ktest *t)
{
	bool held;

	spin_lock_nort(&nort_lock);
	held = spin_is_locked(&nort_lock);
	spin_unlock_nort(&nort_lock);
	KTEST_EXPECT_EQ(t, held, !IS_RT);

	spin_lock_rt(&nort_lock);
	held = spin_is_locked(&nort_lock);
	spin_unlock_rt(&nort_lock);
	KTEST_EXPECT_EQ(t, held, IS_RT);
	KTEST_EXPECT(t, !spin_is_locked(&nort_lock), "lock left held");
}

static void test_local_irq_save_nort_clears_if_only_outside_rt(struct ktest *t)
{
	unsigned long flags;
	bool hw_off;

	local_irq_save_nort(flags);
	hw_off = raw_irqs_disabled();
	local_irq_restore_nort(flags);
	KTEST_EXPECT_EQ(t, hw_off, !IS_RT);
	KTEST_EXPECT(t, !raw_irqs_disabled(), "interrupts not restored");
}

static void test_spin_lock_bh_holds_softirqs_off(struct ktest *t)
{
	bool bh_off, held;

	spin_lock_bh(&nort_lock);
	bh_off = in_softirq();
	held = spin_is_locked(&nort_lock);
	spin_unlock_bh(&nort_lock);
	KTEST_EXPECT(t, bh_off, "in_softirq() false inside spin_lock_bh");
	KTEST_EXPECT(t, held, "spin_lock_bh did not take the lock");
	KTEST_EXPECT(t, !in_softirq(), "softirqs still off after unlock");

	spin_lock_bh_nort(&nort_lock);
	held = spin_is_locked(&nort_lock);
	spin_unlock_bh_nort(&nort_lock);
	KTEST_EXPECT_EQ(t, held, !IS_RT);
}

static void test_warn_on_rt_and_nonrt_fire_in_their_model(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, !!WARN_ON_NONRT(0), 0);
	KTEST_EXPECT_EQ(t, !!WARN_ON_RT(0), 0);
	console_printf("    # expected: one WARNING follows (the _%s form)\n",
		       IS_RT ? "RT" : "NONRT");
	if (IS_RT)
		KTEST_EXPECT_EQ(t, !!WARN_ON_RT(1), 1);
	else
		KTEST_EXPECT_EQ(t, !!WARN_ON_NONRT(1), 1);
	/* the other form compiles to nothing in this model */
	KTEST_EXPECT_EQ(t, IS_RT ? !!WARN_ON_NONRT(1) : !!WARN_ON_RT(1), 0);
}

KTEST_SUITE(nort, KTEST_CASE(test_spin_lock_nort_and_rt_follow_the_model),
	    KTEST_CASE(test_local_irq_save_nort_clears_if_only_outside_rt),
	    KTEST_CASE(test_spin_lock_bh_holds_softirqs_off),
	    KTEST_CASE(test_warn_on_rt_and_nonrt_fire_in_their_model));
