/*
 * tests/kernel/test_softirq_bh.c - the softirq_bh suite: what a
 * local_bh_disable() section is under each model (kernel/irq/softirq.h):
 * a preempt_count add under none/voluntary/desktop, this CPU's sleeping
 * bh lock under rt (kernel/irq/softirq.c, local_bh_lock; its race
 * diagram is next to bh_lock there).
 *
 * Every case pins the test task ("init", SCHED_OTHER) to one CPU (the
 * last online one) and puts it back with me_restore(); the softirq is a
 * tasklet, which runs on the CPU that scheduled it.  Everything runs on
 * one CPU, so every case runs under SMP=1 as under SMP=4.  Synchronised
 * by completions, flags and tasklet_kill(); the ktime bounds are hang
 * nets only.  The msleep()s are sections that sleep (the thing under
 * test), never a wait for another party.
 */
#include "kernel/ktest.h"
#include "tests/kernel/sched_helpers.h"
#include "kernel/irq/irq_model.h"
#include "kernel/irq/softirq.h"
#include "kernel/irq/tasklet.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/wait.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "lib/string.h"
#include "arch/x86_64/arch.h"

#ifdef CONFIG_PREEMPT_RT
#define IS_RT 1
#else
#define IS_RT 0
#endif

static DEFINE_SPINLOCK(bh_test_lock);

/* The softirq side: a tasklet that notes whether it ran inside the
 * section (in_section is written by the section on the same CPU). */
static struct bh_probe {
	struct tasklet_struct tasklet;
	int in_section;			/* the section's flag */
	int runs;			/* tasklet runs */
	int overlaps;			/* runs that saw in_section */
} bp;

static void bh_probe_fn(unsigned long data)
{
	(void)data;
	WRITE_ONCE(bp.runs, bp.runs + 1);
	if (READ_ONCE(bp.in_section))
		WRITE_ONCE(bp.overlaps, bp.overlaps + 1);
}

static int bh_cpu(void)
{
	return num_online_cpus() - 1;
}

static void bh_probe_init(void)
{
	memset(&bp, 0, sizeof(bp));
	tasklet_init(&bp.tasklet, bh_probe_fn, 0);
}

/*
 * Scenario: the test task alone.  spin_lock_bh() on a spinlock_t, then
 * under rt msleep() inside (elsewhere the section is atomic and must not
 * sleep).  Observable: in_softirq() inside under every model (after the
 * sleep too: the count is the task's), in_atomic() inside only outside
 * rt, and no might_sleep warning (before the fix: "BUG: sleeping
 * function called from invalid context" at spin_lock_bh under rt, and
 * the msleep scheduled while atomic).  Under rt, a contended
 * spin_lock_bh() sleeps: H (SCHED_OTHER, same CPU) holds the lock until
 * it sees the test task blocked on it.
 */
static struct {
	struct completion held;
	struct task_struct *waiter;	/* the test task */
	bool saw_blocked;
} hold;

static int bh_holder_fn(void *arg)
{
	ktime_t deadline = ktime_get() + SAFETY_NS;

	(void)arg;
	spin_lock(&bh_test_lock);
	complete(&hold.held);
	while (!READ_ONCE(hold.waiter->pi_blocked_on) &&
	       ktime_get() < deadline)
		msleep(1);	/* poll: the waiter needs this CPU to block */
	hold.saw_blocked = READ_ONCE(hold.waiter->pi_blocked_on) != NULL;
	spin_unlock(&bh_test_lock);
	return 0;
}

static void test_spin_lock_bh_section_may_sleep_only_under_rt(struct ktest *t)
{
	unsigned long warns = might_sleep_warnings;
	struct task_struct *h;
	bool bh_off, atomic;
	int cpu = bh_cpu();

	me_rt(0, cpu);
	spin_lock_bh(&bh_test_lock);
	if (IS_RT)
		msleep(1);
	bh_off = in_softirq();
	atomic = in_atomic();
	spin_unlock_bh(&bh_test_lock);
	KTEST_EXPECT(t, bh_off, "in_softirq() false inside spin_lock_bh");
	KTEST_EXPECT_EQ(t, atomic, !IS_RT);
	KTEST_EXPECT(t, !in_softirq(), "softirq_count %#lx after unlock",
		     (unsigned long)softirq_count());
	KTEST_EXPECT(t, might_sleep_warnings == warns,
		     "spin_lock_bh (and msleep inside under rt) gave %lu "
		     "might_sleep warnings, expected 0",
		     might_sleep_warnings - warns);
	if (!IS_RT)
		goto out;

	init_completion(&hold.held);
	hold.waiter = current;
	hold.saw_blocked = false;
	h = start_rt(bh_holder_fn, NULL, SCHED_OTHER, 0, cpu, "bh_holder");
	KTEST_ASSERT(t, h, "no memory for bh_holder");
	wait_for_completion(&hold.held);
	spin_lock_bh(&bh_test_lock);	/* contended: sleeps */
	bh_off = in_softirq();
	spin_unlock_bh(&bh_test_lock);
	put_task_struct(h);
	KTEST_EXPECT(t, hold.saw_blocked,
		     "rt: contended spin_lock_bh never blocked on the lock");
	KTEST_EXPECT(t, bh_off, "in_softirq() false after a contended lock");
	KTEST_EXPECT(t, might_sleep_warnings == warns,
		     "rt: contended spin_lock_bh gave %lu might_sleep warnings",
		     might_sleep_warnings - warns);
out:
	me_restore();
}

/*
 * Scenario: the test task on CPU c schedules the tasklet inside a
 * local_bh_disable() section (rt: that wakes ksoftirqd/c, SCHED_FIFO 1,
 * which preempts the section, blocks on c's bh lock; then the section
 * sleeps with msleep, leaving c idle).  Observable: the tasklet has not
 * run when the section ends (under every model), it runs exactly once
 * after local_bh_enable (outside rt before local_bh_enable returns).
 */
static void test_softirq_raised_in_section_runs_after_enable(struct ktest *t)
{
	int cpu = bh_cpu(), runs_inside, runs_at_enable;

	me_rt(0, cpu);
	bh_probe_init();
	local_bh_disable();
	WRITE_ONCE(bp.in_section, 1);
	tasklet_schedule(&bp.tasklet);
	if (IS_RT)
		msleep(2);
	runs_inside = READ_ONCE(bp.runs);
	WRITE_ONCE(bp.in_section, 0);
	local_bh_enable();
	runs_at_enable = READ_ONCE(bp.runs);
	tasklet_kill(&bp.tasklet);
	KTEST_EXPECT(t, runs_inside == 0 && bp.overlaps == 0,
		     "tasklet ran %d times inside the bh section", runs_inside);
	if (!IS_RT)
		KTEST_EXPECT(t, runs_at_enable == 1,
			     "PREEMPT_%s: local_bh_enable runs the pending "
			     "tasklet, saw %d runs when it returned",
			     RTK_PREEMPT_NAME, runs_at_enable);
	KTEST_EXPECT_EQ(t, bp.runs, 1);
	me_restore();
}

/*
 * Scenario: T, the test task (SCHED_OTHER on CPU c), enters
 * spin_lock_bh() and wakes F (SCHED_FIFO 10, bound to c).  Observable:
 * under rt F preempts the section at once (T waits inside for F's flag)
 * and sees in_section set; under none/voluntary/desktop the section has
 * preemption off, F runs only after spin_unlock_bh and sees it clear.
 */
static struct {
	int in_section;
	int f_ran;
	int f_saw_section;
	struct completion f_done;
} fp;

static int bh_fifo_fn(void *arg)
{
	(void)arg;
	fp.f_saw_section = READ_ONCE(fp.in_section);
	WRITE_ONCE(fp.f_ran, 1);
	complete(&fp.f_done);
	return 0;
}

static void test_fifo_task_preempts_bh_section_only_under_rt(struct ktest *t)
{
	int cpu = bh_cpu(), ran_inside;
	struct task_struct *f;
	ktime_t deadline;

	me_rt(0, cpu);
	memset(&fp, 0, sizeof(fp));
	init_completion(&fp.f_done);
	f = create_fifo(bh_fifo_fn, NULL, 10, one_cpu(cpu), "bh_fifo");
	KTEST_ASSERT(t, f, "no memory for bh_fifo");
	spin_lock_bh(&bh_test_lock);
	WRITE_ONCE(fp.in_section, 1);
	wake_up_process(f);
	deadline = ktime_get() + SAFETY_NS;
	while (IS_RT && !READ_ONCE(fp.f_ran) && ktime_get() < deadline)
		arch_cpu_relax();	/* F, on this CPU, preempts us */
	ran_inside = READ_ONCE(fp.f_ran);
	WRITE_ONCE(fp.in_section, 0);
	spin_unlock_bh(&bh_test_lock);
	KTEST_ASSERT(t, wait_for_completion_timeout(&fp.f_done, SAFETY_NS),
		     "F never ran");
	put_task_struct(f);
	KTEST_EXPECT(t, ran_inside == IS_RT && fp.f_saw_section == IS_RT,
		     "PREEMPT_%s: expected F to run %s the bh section, saw "
		     "ran_inside %d, F saw in_section %d", RTK_PREEMPT_NAME,
		     IS_RT ? "inside" : "after", ran_inside, fp.f_saw_section);
	me_restore();
}

/*
 * The diagram next to bh_lock in kernel/irq/softirq.c (rt only: no
 * ksoftirqd elsewhere).  Scenario: T, the test task (SCHED_OTHER on CPU
 * c), enters local_bh_disable() and schedules the tasklet: ksoftirqd/c
 * (SCHED_FIFO 1) wakes, preempts T and blocks on c's bh lock, which T
 * holds.  Observable: T is the lock's owner and runs boosted to
 * ksoftirqd's priority (PI) while the tasklet has not run; at
 * local_bh_enable T drops back to its own priority and the tasklet runs
 * once, in ksoftirqd/c.
 */
static void test_ksoftirqd_blocked_on_bh_lock_boosts_the_section(struct ktest *t)
{
	int cpu = bh_cpu(), normal, boosted, after, runs_inside;
	struct task_struct *k = ksoftirqd_task(cpu), *owner;
	ktime_t deadline;

	if (!SOFTIRQ_THREADED || !k) {
		ktest_skip(t, "softirqs run in ksoftirqd only under rt");
		return;
	}
	me_rt(0, cpu);
	bh_probe_init();
	normal = current->prio;
	local_bh_disable();
	WRITE_ONCE(bp.in_section, 1);
	tasklet_schedule(&bp.tasklet);
	deadline = ktime_get() + SAFETY_NS;
	while (READ_ONCE(current->prio) == normal && ktime_get() < deadline)
		arch_cpu_relax();	/* ksoftirqd/c preempts us, blocks */
	boosted = READ_ONCE(current->prio);
	owner = local_bh_lock_owner(cpu);
	runs_inside = READ_ONCE(bp.runs);
	WRITE_ONCE(bp.in_section, 0);
	local_bh_enable();
	after = READ_ONCE(current->prio);
	tasklet_kill(&bp.tasklet);
	KTEST_EXPECT(t, owner == current, "bh lock of CPU %d owned by %s",
		     cpu, owner ? owner->name : "nobody");
	KTEST_EXPECT(t, boosted == k->normal_prio,
		     "section prio %d while ksoftirqd/%d (prio %d) waits, "
		     "own prio %d", boosted, cpu, k->normal_prio, normal);
	KTEST_EXPECT_EQ(t, after, normal);
	KTEST_EXPECT(t, runs_inside == 0 && bp.overlaps == 0,
		     "tasklet ran %d times inside the section", runs_inside);
	KTEST_EXPECT_EQ(t, bp.runs, 1);
	me_restore();
}

/*
 * Scenario: the test task on CPU c, 200 rounds of: local_bh_disable,
 * set in_section, schedule the tasklet (rt: ksoftirqd/c wakes and
 * preempts), every other round msleep (rt only), clear in_section,
 * local_bh_enable.  Observable: the tasklet, which runs on c only, never
 * sees in_section set, and it did run (at least once).  A bh "disable"
 * that held only a count under rt would let ksoftirqd/c run it in the
 * middle of the section.
 */
#define BH_ROUNDS 200	/* enough rounds that ksoftirqd wakes in many */

static void test_bh_section_excludes_this_cpus_softirqs(struct ktest *t)
{
	int cpu = bh_cpu();

	me_rt(0, cpu);
	bh_probe_init();
	for (int i = 0; i < BH_ROUNDS; i++) {
		local_bh_disable();
		WRITE_ONCE(bp.in_section, 1);
		tasklet_schedule(&bp.tasklet);
		if (IS_RT && (i & 1))
			msleep(1);
		WRITE_ONCE(bp.in_section, 0);
		local_bh_enable();
	}
	tasklet_kill(&bp.tasklet);
	KTEST_EXPECT(t, bp.overlaps == 0,
		     "tasklet ran inside the bh section %d of %d runs",
		     bp.overlaps, bp.runs);
	KTEST_EXPECT(t, bp.runs >= 1, "tasklet never ran");
	me_restore();
}

KTEST_SUITE(softirq_bh,
	    KTEST_CASE(test_spin_lock_bh_section_may_sleep_only_under_rt),
	    KTEST_CASE(test_softirq_raised_in_section_runs_after_enable),
	    KTEST_CASE(test_fifo_task_preempts_bh_section_only_under_rt),
	    KTEST_CASE(test_ksoftirqd_blocked_on_bh_lock_boosts_the_section),
	    KTEST_CASE(test_bh_section_excludes_this_cpus_softirqs));
