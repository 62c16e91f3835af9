/*
 * tests/kernel/test_debug_locking.c - DEBUG_IRQ_FLAGS and
 * DEBUG_RT_LOCKING_MODE (kernel/locking/debug_irqflags.h,
 * kernel/locking/rtlock_mode.h).
 *
 * DEBUG_IRQ_FLAGS: a matching spin_lock_irqsave/spin_unlock_irqrestore
 * pair is quiet on both lock types; restoring an altered value, the value
 * saved for another lock (nested raw locks: the outer save has IF set,
 * the inner one not) or a value with no save behind it is reported with
 * the value seen and the value saved.
 * DEBUG_RT_LOCKING_MODE: under rt, `raw` mode makes a spinlock_t section
 * non-preemptible (one preempt_count level) and its irqsave form clear
 * IF; `rt` mode gives them back; a lock held across a switch is released
 * the way it was taken; mutual exclusion holds in both modes with one
 * thread per CPU.  Elsewhere the mode is fixed (rt under PREEMPT=rt
 * without the option, raw under the other models) and switching is
 * -EINVAL.  The option is off by default: its cases skip there, naming
 * it, and make test-options (DEBUG_RT_LOCKING_MODE=1) runs them.
 */
#include "kernel/ktest.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/rwlock.h"
#include "kernel/locking/debug_irqflags.h"
#include "kernel/locking/rtlock_mode.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/cpu.h"
#include "lib/errno.h"
#include "lib/string.h"

static DEFINE_RAW_SPINLOCK(dbg_raw_a);
static DEFINE_RAW_SPINLOCK(dbg_raw_b);
static DEFINE_SPINLOCK(dbg_lock);
static DEFINE_RWLOCK(dbg_rw);
static DEFINE_RAW_RWLOCK(dbg_raw_rw);

/* A flags bit that raw_local_irq_restore() ignores (only IF matters):
 * altering it makes a wrong value without changing the CPU's state. */
#define HARMLESS_FLAG 0x4UL	/* PF */

static void need_irq_flags(struct ktest *t)
{
	if (!DEBUG_IRQ_FLAGS_ENABLED)
		ktest_skip(t, "built with DEBUG_IRQ_FLAGS=0");
}

static void test_matching_irqsave_restore_is_quiet(struct ktest *t)
{
	unsigned long before, f;

	need_irq_flags(t);
	before = debug_irqflags_reports(NULL);
	spin_lock_irqsave(&dbg_raw_a, f);
	spin_unlock_irqrestore(&dbg_raw_a, f);
	spin_lock_irqsave(&dbg_lock, f);
	spin_unlock_irqrestore(&dbg_lock, f);
	KTEST_EXPECT_EQ(t, debug_irqflags_reports(NULL), before);
}

static void test_altered_flags_are_reported(struct ktest *t)
{
	struct debug_irqflags_report r;
	unsigned long before, f;

	need_irq_flags(t);
	before = debug_irqflags_reports(NULL);
	spin_lock_irqsave(&dbg_raw_a, f);
	spin_unlock_irqrestore(&dbg_raw_a, f ^ HARMLESS_FLAG);
	KTEST_ASSERT_EQ(t, debug_irqflags_reports(&r), before + 1);
	KTEST_EXPECT_EQ(t, r.seen, f ^ HARMLESS_FLAG);
	KTEST_EXPECT_EQ(t, r.saved, f);
	KTEST_EXPECT(t, !r.no_save, "reported as having no save");
	KTEST_EXPECT(t, !strcmp(r.lock_name, "&dbg_raw_a"), "lock %s",
		     r.lock_name);

	/* the same on spinlock_t (sleeping under rt, raw elsewhere) */
	spin_lock_irqsave(&dbg_lock, f);
	spin_unlock_irqrestore(&dbg_lock, f ^ HARMLESS_FLAG);
	KTEST_ASSERT_EQ(t, debug_irqflags_reports(&r), before + 2);
	KTEST_EXPECT(t, !strcmp(r.lock_name, "&dbg_lock"), "lock %s",
		     r.lock_name);
	KTEST_EXPECT(t, !raw_irqs_disabled(), "irqs left off");
}

static void test_flags_of_another_lock_are_reported(struct ktest *t)
{
	struct debug_irqflags_report r;
	unsigned long before, fa, fb;

	need_irq_flags(t);
	before = debug_irqflags_reports(NULL);
	spin_lock_irqsave(&dbg_raw_a, fa);	/* IF set in fa */
	spin_lock_irqsave(&dbg_raw_b, fb);	/* IF clear in fb */
	KTEST_EXPECT(t, (fa & X86_EFLAGS_IF) && !(fb & X86_EFLAGS_IF),
		     "fa %#lx fb %#lx", fa, fb);
	/* the bug: b restored with a's word turns irqs on under a */
	spin_unlock_irqrestore(&dbg_raw_b, fa);
	raw_local_irq_disable();
	spin_unlock_irqrestore(&dbg_raw_a, fa);
	KTEST_ASSERT_EQ(t, debug_irqflags_reports(&r), before + 1);
	KTEST_EXPECT(t, !strcmp(r.lock_name, "&dbg_raw_b"), "lock %s",
		     r.lock_name);
	KTEST_EXPECT_EQ(t, r.seen, fa);
	KTEST_EXPECT_EQ(t, r.saved, fb);
}

static void test_restore_without_save_is_reported(struct ktest *t)
{
	struct debug_irqflags_report r;
	unsigned long before, f;

	need_irq_flags(t);
	before = debug_irqflags_reports(NULL);
	f = arch_local_save_flags();
	spin_lock(&dbg_raw_a);
	spin_unlock_irqrestore(&dbg_raw_a, f);
	KTEST_ASSERT_EQ(t, debug_irqflags_reports(&r), before + 1);
	KTEST_EXPECT(t, r.no_save, "not reported as a missing save");
	KTEST_EXPECT_EQ(t, r.seen, f);

	/* the rwlock family: write side of rwlock_t, read side of the raw */
	write_lock(&dbg_rw);
	write_unlock_irqrestore(&dbg_rw, f);
	read_lock(&dbg_raw_rw);
	read_unlock_irqrestore(&dbg_raw_rw, f);
	KTEST_ASSERT_EQ(t, debug_irqflags_reports(&r), before + 3);
	KTEST_EXPECT(t, r.no_save && !strcmp(r.op, "read_unlock_irqrestore") &&
				!strcmp(r.lock_name, "&dbg_raw_rw"),
		     "no_save %d op %s lock %s", r.no_save, r.op, r.lock_name);
	KTEST_EXPECT(t, !raw_irqs_disabled(), "irqs left off");
}

/* One altered restore per (lock type, side): each is reported once, with
 * the op's name, the lock expression and both values; a matching pair
 * right before it is quiet. */
#define CHECK_RW_PAIR(t, side, lock, expect_name)                            \
	do {                                                                 \
		struct debug_irqflags_report r_;                             \
		unsigned long b_ = debug_irqflags_reports(NULL), f_;         \
		side##_lock_irqsave(lock, f_);                               \
		side##_unlock_irqrestore(lock, f_);                          \
		KTEST_EXPECT_EQ(t, debug_irqflags_reports(NULL), b_);        \
		side##_lock_irqsave(lock, f_);                               \
		side##_unlock_irqrestore(lock, f_ ^ HARMLESS_FLAG);          \
		KTEST_ASSERT_EQ(t, debug_irqflags_reports(&r_), b_ + 1);     \
		KTEST_EXPECT(t, !strcmp(r_.op, #side "_unlock_irqrestore"),  \
			     "op %s", r_.op);                                \
		KTEST_EXPECT(t, !strcmp(r_.lock_name, expect_name),          \
			     "lock %s, expected %s", r_.lock_name,           \
			     expect_name);                                   \
		KTEST_EXPECT_EQ(t, r_.seen, f_ ^ HARMLESS_FLAG);             \
		KTEST_EXPECT_EQ(t, r_.saved, f_);                            \
		KTEST_EXPECT(t, !raw_irqs_disabled(), "irqs left off");      \
	} while (0)

static void test_rwlock_irqrestore_with_altered_flags_is_reported(struct ktest *t)
{
	need_irq_flags(t);
	CHECK_RW_PAIR(t, read, &dbg_rw, "&dbg_rw");
	CHECK_RW_PAIR(t, write, &dbg_rw, "&dbg_rw");
	CHECK_RW_PAIR(t, read, &dbg_raw_rw, "&dbg_raw_rw");
	CHECK_RW_PAIR(t, write, &dbg_raw_rw, "&dbg_raw_rw");
}

static void test_rtlock_mode_is_fixed_where_spinlock_t_cannot_sleep(struct ktest *t)
{
	enum rtlock_mode mode = rtlock_get_mode();

	if (RTLOCK_MODE_SWITCHABLE)
		ktest_skip(t, "switchable in this build");
	KTEST_EXPECT_EQ(t, mode, SPINLOCK_SLEEPS ? RTLOCK_MODE_RT :
						   RTLOCK_MODE_RAW);
	KTEST_EXPECT_EQ(t, rtlock_set_mode(mode == RTLOCK_MODE_RT ?
				       RTLOCK_MODE_RAW : RTLOCK_MODE_RT),
			-EINVAL);
	KTEST_EXPECT_EQ(t, rtlock_set_mode(mode), 0);
}

static void need_switchable(struct ktest *t)
{
	if (!RTLOCK_MODE_SWITCHABLE)
		ktest_skip(t, "spinlock_t mode fixed (needs PREEMPT=rt, "
			      "DEBUG_RT_LOCKING_MODE=1: make test-options)");
}

struct section_seen {
	int preempt_levels;	/* preempt_count() inside minus outside */
	bool irqs_off;		/* inside spin_lock_irqsave */
};

static struct section_seen probe_sections(void)
{
	struct section_seen s;
	unsigned long f;
	int base = preempt_count();

	spin_lock(&dbg_lock);
	s.preempt_levels = preempt_count() - base;
	spin_unlock(&dbg_lock);
	spin_lock_irqsave(&dbg_lock, f);
	s.irqs_off = raw_irqs_disabled();
	spin_unlock_irqrestore(&dbg_lock, f);
	return s;
}

static void test_rtlock_raw_mode_makes_sections_non_preemptible(struct ktest *t)
{
	struct section_seen rt, raw;
	int base = preempt_count();

	need_switchable(t);
	KTEST_ASSERT_EQ(t, rtlock_set_mode(RTLOCK_MODE_RAW), 0);
	raw = probe_sections();
	KTEST_ASSERT_EQ(t, rtlock_set_mode(RTLOCK_MODE_RT), 0);
	rt = probe_sections();
	KTEST_EXPECT_EQ(t, raw.preempt_levels, 1);
	KTEST_EXPECT(t, raw.irqs_off, "raw mode irqsave left irqs on");
	KTEST_EXPECT_EQ(t, rt.preempt_levels, 0);
	KTEST_EXPECT(t, !rt.irqs_off, "rt mode irqsave turned irqs off");
	KTEST_EXPECT_EQ(t, preempt_count(), base);
	KTEST_EXPECT(t, !raw_irqs_disabled(), "irqs left off");
}

static void test_rtlock_lock_held_across_switch_unlocks_as_taken(struct ktest *t)
{
	int base = preempt_count();
	unsigned long f;

	need_switchable(t);
	spin_lock(&dbg_lock);			/* rt mode */
	KTEST_ASSERT_EQ(t, rtlock_set_mode(RTLOCK_MODE_RAW), 0);
	spin_unlock(&dbg_lock);
	KTEST_EXPECT_EQ(t, preempt_count(), base);

	spin_lock_irqsave(&dbg_lock, f);	/* raw mode: irqs off */
	KTEST_ASSERT_EQ(t, rtlock_set_mode(RTLOCK_MODE_RT), 0);
	spin_unlock_irqrestore(&dbg_lock, f);
	KTEST_EXPECT_EQ(t, preempt_count(), base);
	KTEST_EXPECT(t, !raw_irqs_disabled(), "irqs left off");
	KTEST_EXPECT(t, !spin_is_locked(&dbg_lock), "lock left held");
}

/*
 * Mutual exclusion in each mode: one thread per online CPU, each bound
 * to its CPU, adds 1 to a shared counter EXCL_ITERS times under
 * dbg_lock, checking that the section is non-preemptible in raw mode.
 */
#define EXCL_ITERS 20000
static unsigned long excl_counter;
static int excl_bad_sections;
static DECLARE_COMPLETION(excl_go);

static int excl_thread(void *arg)
{
	bool raw = (bool)(uintptr_t)arg;
	int i;

	wait_for_completion(&excl_go);
	for (i = 0; i < EXCL_ITERS; i++) {
		spin_lock(&dbg_lock);
		if (raw && preempt_count() == 0)
			excl_bad_sections++;
		excl_counter++;
		spin_unlock(&dbg_lock);
	}
	return 0;
}

static void run_exclusion(struct ktest *t, enum rtlock_mode mode)
{
	struct task_struct *p[NR_CPUS];
	int cpu, n = 0, i;

	KTEST_ASSERT_EQ(t, rtlock_set_mode(mode), 0);
	excl_counter = 0;
	excl_bad_sections = 0;
	reinit_completion(&excl_go);
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		p[n] = kthread_create(excl_thread,
				      (void *)(uintptr_t)(mode == RTLOCK_MODE_RAW),
				      "dbg-excl/%d", cpu);
		KTEST_ASSERT(t, p[n] != NULL, "kthread_create failed");
		get_task_struct(p[n]);	/* it exits by itself */
		kthread_bind(p[n], cpu);
		wake_up_process(p[n]);
		n++;
	}
	complete_all(&excl_go);
	for (i = 0; i < n; i++) {
		KTEST_EXPECT_EQ(t, kthread_stop(p[i]), 0);
		put_task_struct(p[i]);
	}
	KTEST_EXPECT_EQ(t, excl_counter, (unsigned long)n * EXCL_ITERS);
	KTEST_EXPECT_EQ(t, excl_bad_sections, 0);
}

static void test_rtlock_both_modes_exclude_from_every_cpu(struct ktest *t)
{
	need_switchable(t);
	run_exclusion(t, RTLOCK_MODE_RAW);
	run_exclusion(t, RTLOCK_MODE_RT);
	KTEST_EXPECT_EQ(t, rtlock_get_mode(), RTLOCK_MODE_RT);
}

KTEST_SUITE(debug_locking,
	    KTEST_CASE(test_matching_irqsave_restore_is_quiet),
	    KTEST_CASE(test_altered_flags_are_reported),
	    KTEST_CASE(test_flags_of_another_lock_are_reported),
	    KTEST_CASE(test_restore_without_save_is_reported),
	    KTEST_CASE(test_rwlock_irqrestore_with_altered_flags_is_reported),
	    KTEST_CASE(test_rtlock_mode_is_fixed_where_spinlock_t_cannot_sleep),
	    KTEST_CASE(test_rtlock_raw_mode_makes_sections_non_preemptible),
	    KTEST_CASE(test_rtlock_lock_held_across_switch_unlocks_as_taken),
	    KTEST_CASE(test_rtlock_both_modes_exclude_from_every_cpu));
