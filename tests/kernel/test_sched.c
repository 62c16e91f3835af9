/*
 * tests/kernel/test_sched.c - the sched suite: kthread lifetime (the
 * stop value, the exited task kept while referenced), sched_setscheduler's
 * checks, and the atomic-context rules every model shares: might_sleep
 * warns in atomic context, local_irq_disable per model.
 * The other scheduler suites: sched_preempt (test_sched_preempt.c,
 * priority order, wakeup preemption, SCHED_RR rotation), sched_fair
 * (test_sched_fair.c, SCHED_OTHER shares), sched_placement
 * (test_sched_placement.c, global RT placement on SMP, affinity); their
 * shared set-up is tests/kernel/sched_helpers.h.
 * Linux counterpart: none as one file (kernel/kthread.c's contract,
 * kernel/sched/core.c's sched_setscheduler checks, __might_sleep).
 * Article: "PREEMPT_RT configuration options" (the four models),
 * "Preemptible "interrupt disable" code sequences" (local_irq_disable).
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/sched/completion.h"
#include "kernel/irqflags.h"
#include "lib/errno.h"

static int stop_value_thread(void *arg)
{
	if (arg)
		complete(arg);	/* started */
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 42;
}

/* A thread parks until kthread_stop(), whose return is the thread's.
 * The stop waits for "started": a stop before the thread first ran
 * would end it with -EINTR without running it, as on Linux. */
static void test_kthread_stop_returns_thread_value(struct ktest *t)
{
	struct completion started;
	struct task_struct *p;

	init_completion(&started);
	p = kthread_run(stop_value_thread, &started, "stopme");
	KTEST_ASSERT(t, p != NULL, "kthread_run failed");
	wait_for_completion(&started);
	KTEST_EXPECT_EQ(t, kthread_stop(p), 42);
}

static struct completion exit_done;
static int exit_thread(void *arg)
{
	complete(&exit_done);
	return 7;
}

/* A thread that returns by itself becomes dead; our extra reference
 * keeps the struct until we put it. */
static void test_exited_thread_keeps_struct_while_referenced(struct ktest *t)
{
	struct task_struct *p;
	ktime_t end = ktime_get() + SAFETY_NS;

	init_completion(&exit_done);
	p = kthread_create(exit_thread, NULL, "exiter");
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	get_task_struct(p);
	KTEST_EXPECT_EQ(t, p->refcount, 2);
	wake_up_process(p);
	wait_for_completion(&exit_done);
	while (READ_ONCE(p->state) != TASK_DEAD || READ_ONCE(p->on_cpu)) {
		if (ktime_get() > end)
			break;
		schedule();
	}
	KTEST_EXPECT_EQ(t, READ_ONCE(p->state), TASK_DEAD);
	KTEST_EXPECT_EQ(t, p->exit_code, 7);
	/* the scheduler dropped its reference at the last switch */
	while (READ_ONCE(p->refcount) != 1 && ktime_get() < end)
		schedule();
	KTEST_EXPECT_EQ(t, READ_ONCE(p->refcount), 1);
	put_task_struct(p);
}

/* might_sleep warns (with a backtrace) in atomic context only. */
static void test_might_sleep_warns_only_in_atomic(struct ktest *t)
{
	unsigned long before = might_sleep_warnings;
	unsigned long flags;

	might_sleep();
	KTEST_EXPECT_EQ(t, might_sleep_warnings - before, 0);
	might_sleep_expect_begin();	/* the two warnings below */
	preempt_disable();
	preempt_disable();
	KTEST_EXPECT_EQ(t, preempt_count() & PREEMPT_MASK, 2);
	might_sleep();
	preempt_enable();
	preempt_enable();
	KTEST_EXPECT_EQ(t, might_sleep_warnings - before, 1);
	local_irq_save(flags);
	KTEST_EXPECT(t, irqs_disabled(), "irqs_disabled() after local_irq_save");
	might_sleep();
	local_irq_restore(flags);
	might_sleep_expect_end();
	KTEST_EXPECT(t, !irqs_disabled(), "irqs_disabled() after restore");
	KTEST_EXPECT_EQ(t, might_sleep_warnings - before, 2);
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
}

/* Under rt local_irq_disable leaves RFLAGS.IF alone (preemption off
 * instead); under the other models it clears it. */
static void test_local_irq_disable_per_model(struct ktest *t)
{
	local_irq_disable();
	KTEST_EXPECT_EQ(t, raw_irqs_disabled(), !PREEMPT_RT_IRQFLAGS);
	KTEST_EXPECT_EQ(t, in_atomic(), PREEMPT_RT_IRQFLAGS);
	KTEST_EXPECT(t, irqs_disabled(), "irqs_disabled() must say yes");
	local_irq_enable();
	KTEST_EXPECT(t, !raw_irqs_disabled() && !in_atomic(),
		     "back to preemptible, irqs on");
}

/* sched_setscheduler follows Linux: bad policy/prio pairs are refused. */
static void test_setscheduler_checks_like_linux(struct ktest *t)
{
	struct sched_param sp = { .sched_priority = 0 };
	struct completion started;
	struct task_struct *p;

	init_completion(&started);
	p = kthread_create(stop_value_thread, &started, "chk");

	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	KTEST_EXPECT_EQ(t, sched_setscheduler(p, SCHED_FIFO, &sp), -EINVAL);
	sp.sched_priority = 100;
	KTEST_EXPECT_EQ(t, sched_setscheduler(p, SCHED_RR, &sp), -EINVAL);
	sp.sched_priority = 5;
	KTEST_EXPECT_EQ(t, sched_setscheduler(p, SCHED_OTHER, &sp), -EINVAL);
	KTEST_EXPECT_EQ(t, sched_setscheduler(p, 7, &sp), -EINVAL);
	sp.sched_priority = 99;
	KTEST_EXPECT_EQ(t, sched_setscheduler(p, SCHED_FIFO, &sp), 0);
	KTEST_EXPECT_EQ(t, p->prio, 0);
	KTEST_EXPECT_EQ(t, p->normal_prio, 0);
	sp.sched_priority = 0;
	KTEST_EXPECT_EQ(t, sched_setscheduler(p, SCHED_OTHER, &sp), 0);
	set_user_nice(p, -5);
	KTEST_EXPECT_EQ(t, p->prio, 115);
	KTEST_EXPECT_EQ(t, task_nice(p), -5);
	wake_up_process(p);
	wait_for_completion(&started);
	KTEST_EXPECT_EQ(t, kthread_stop(p), 42);
}

KTEST_SUITE(sched,
	    KTEST_CASE(test_kthread_stop_returns_thread_value),
	    KTEST_CASE(test_exited_thread_keeps_struct_while_referenced),
	    KTEST_CASE(test_setscheduler_checks_like_linux),
	    KTEST_CASE(test_might_sleep_warns_only_in_atomic),
	    KTEST_CASE(test_local_irq_disable_per_model));
