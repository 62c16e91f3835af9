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
 *     only under rt; BUG_ON_RT()/BUG_ON_NONRT() evaluate their condition
 *     in their own model only (a BUG cannot be watched and survived, so
 *     only the non-firing side is checked);
 *   - local_irq_disable_nort() disables (soft or hard) only outside rt;
 *     local_save_flags()/irqs_disabled_flags() agree with irqs_disabled()
 *     under every model, and raw_local_save_flags() shows IF still set
 *     under rt's local_irq_disable();
 *   - in_atomic_rt() is true in atomic sections under rt only, and
 *     smp_processor_id_rt(cpu) is cpu under rt, this CPU elsewhere.
 */
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/locking/spinlock.h"
#include "kernel/irqflags.h"
#include "kernel/sched/rt_helpers.h"
#include "arch/x86_64/arch.h"
#include "kernel/smp.h"

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

static void test_bug_on_rt_and_nonrt_evaluate_only_in_their_model(struct ktest *t)
{
	int evals = 0;

	BUG_ON_RT(evals++ > 100);	/* false: never fires */
	KTEST_EXPECT_EQ(t, evals, IS_RT);
	evals = 0;
	BUG_ON_NONRT(evals++ > 100);
	KTEST_EXPECT_EQ(t, evals, !IS_RT);
	/* the other model's form is empty: a true condition is harmless */
	if (IS_RT)
		BUG_ON_NONRT(1);
	else
		BUG_ON_RT(1);
}

static void test_local_irq_disable_nort_and_flags_follow_the_model(struct ktest *t)
{
	unsigned long soft, raw;
	bool off;

	local_irq_disable_nort();
	off = irqs_disabled();
	local_irq_enable_nort();
	KTEST_EXPECT_EQ(t, off, !IS_RT);
	KTEST_EXPECT(t, !irqs_disabled(), "left disabled");

	local_irq_disable();
	local_save_flags(soft);
	raw_local_save_flags(raw);
	off = irqs_disabled();
	local_irq_enable();
	KTEST_EXPECT(t, off && irqs_disabled_flags(soft),
		     "local_irq_disable: irqs_disabled %d, flags %#lx", off,
		     soft);
	/* rt: only the soft state; the CPU still takes interrupts */
	KTEST_EXPECT_EQ(t, raw_irqs_disabled_flags(raw), !IS_RT);
	local_save_flags(soft);
	KTEST_EXPECT(t, !irqs_disabled_flags(soft), "enabled, flags %#lx",
		     soft);
}

static void test_in_atomic_rt_and_smp_processor_id_rt_follow_the_model(struct ktest *t)
{
	bool plain, preempt_off, irq_off;
	int cpu, seen;

	plain = in_atomic_rt();
	preempt_disable();
	preempt_off = in_atomic_rt();
	cpu = smp_processor_id();
	seen = smp_processor_id_rt(cpu + 1000);
	preempt_enable();
	local_irq_disable();
	irq_off = in_atomic_rt();
	local_irq_enable();
	KTEST_EXPECT_EQ(t, plain, 0);
	KTEST_EXPECT_EQ(t, preempt_off, IS_RT);
	KTEST_EXPECT_EQ(t, irq_off, IS_RT);
	/* rt: the caller's number, even a made-up one; else this CPU */
	KTEST_EXPECT_EQ(t, seen, IS_RT ? cpu + 1000 : cpu);
}

KTEST_SUITE(nort, KTEST_CASE(test_spin_lock_nort_and_rt_follow_the_model),
	    KTEST_CASE(test_local_irq_save_nort_clears_if_only_outside_rt),
	    KTEST_CASE(test_spin_lock_bh_holds_softirqs_off),
	    KTEST_CASE(test_warn_on_rt_and_nonrt_fire_in_their_model),
	    KTEST_CASE(test_bug_on_rt_and_nonrt_evaluate_only_in_their_model),
	    KTEST_CASE(test_local_irq_disable_nort_and_flags_follow_the_model),
	    KTEST_CASE(test_in_atomic_rt_and_smp_processor_id_rt_follow_the_model));
