/*
 * tests/kernel/test_sched.c - the scheduler: priority order, preemption
 * on wakeup (per model), SCHED_RR rotation, SCHED_OTHER fairness,
 * global RT placement on SMP, affinity, might_sleep, preempt_disable.
 *
 * Every multi-thread test pins its threads (and usually the test task
 * itself, which runs in "init") to one CPU, synchronises by completions
 * and flags, and restores init to SCHED_OTHER on all CPUs at the end.
 * Time bounds (ktime) are only safety nets against a hang, never the
 * synchronisation.
 */
#include "kernel/ktest.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/irqflags.h"
#include "kernel/time/ktime.h"
#include "kernel/smp.h"
#include "lib/string.h"
#include "lib/errno.h"

#define SAFETY_NS (5LL * NSEC_PER_SEC)	/* a hung test, not a timing */

static char order[16];
static int order_len;

static void order_add(char c)
{
	int n = __atomic_fetch_add(&order_len, 1, __ATOMIC_SEQ_CST);

	if (n < (int)sizeof(order) - 1)
		order[n] = c;
}

static void order_reset(void)
{
	memset(order, 0, sizeof(order));
	order_len = 0;
}

static cpumask_t one_cpu(int cpu)
{
	return (cpumask_t){ .bits = 1ULL << cpu };
}

static void me_rt(int prio, int cpu)
{
	struct sched_param sp = { .sched_priority = prio };

	set_cpus_allowed(current, one_cpu(cpu));
	sched_setscheduler(current, prio ? SCHED_FIFO : SCHED_OTHER, &sp);
}

static void me_restore(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	sched_setscheduler(current, SCHED_OTHER, &sp);
	/* back on CPU 0, where the boot flow ran (later suites expect it) */
	set_cpus_allowed(current, one_cpu(0));
	set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });
}

static struct task_struct *start_rt(int (*fn)(void *), void *arg, int policy,
				    int prio, int cpu, const char *name)
{
	struct sched_param sp = { .sched_priority = prio };
	struct task_struct *p = kthread_create(fn, arg, "%s", name);

	if (!p)
		return NULL;
	if (cpu >= 0)
		kthread_bind(p, cpu);
	sched_setscheduler(p, policy, &sp);
	get_task_struct(p);
	wake_up_process(p);
	return p;
}

static int stop_value_thread(void *arg)
{
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 42;
}

/* A thread parks until kthread_stop(), whose return is the thread's. */
static void test_kthread_stop_returns_thread_value(struct ktest *t)
{
	struct task_struct *p = kthread_run(stop_value_thread, NULL, "stopme");

	KTEST_ASSERT(t, p != NULL, "kthread_run failed");
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

static struct completion prio_done;
static int prio_thread(void *arg)
{
	order_add((char)(long)arg);
	if ((char)(long)arg == '1')
		complete(&prio_done);
	return 0;
}

/*
 * Scenario (one CPU): the test runs FIFO 50 on CPU 0 and starts FIFO
 * 10 ('1'), 30 ('3'), 20 ('2') bound there; none can preempt it.  It
 * then blocks: they run highest first, "321"; '1' completes.
 */
static void test_fifo_tasks_run_in_priority_order(struct ktest *t)
{
	struct task_struct *p[3];
	int i;

	order_reset();
	init_completion(&prio_done);
	me_rt(50, 0);
	p[0] = start_rt(prio_thread, (void *)'1', SCHED_FIFO, 10, 0, "p10");
	p[1] = start_rt(prio_thread, (void *)'3', SCHED_FIFO, 30, 0, "p30");
	p[2] = start_rt(prio_thread, (void *)'2', SCHED_FIFO, 20, 0, "p20");
	KTEST_EXPECT_EQ(t, order_len, 0);
	wait_for_completion(&prio_done);
	me_restore();
	KTEST_EXPECT(t, !strcmp(order, "321"), "order \"321\", saw \"%s\"",
		     order);
	for (i = 0; i < 3; i++)
		if (p[i])
			put_task_struct(p[i]);
}

static int mark_h_thread(void *arg)
{
	order_add('H');
	complete(&prio_done);
	return 0;
}

/*
 * Scenario (one CPU): test FIFO 10 on CPU 0 wakes H, FIFO 20 on CPU 0.
 * desktop/rt: H preempts at once, "H" before the waker's "T".
 * none/voluntary: no kernel preemption; H runs at the waker's next
 * schedule(): "T" then "H".
 */
static void test_higher_prio_wakeup_preempts_per_model(struct ktest *t)
{
	struct task_struct *p;
	const char *want = PREEMPT_ON_ENABLE ? "HT" : "TH";

	order_reset();
	init_completion(&prio_done);
	me_rt(10, 0);
	p = start_rt(mark_h_thread, NULL, SCHED_FIFO, 20, 0, "hi20");
	order_add('T');
	wait_for_completion(&prio_done);
	me_restore();
	KTEST_EXPECT(t, !strcmp(order, want), "PREEMPT_%s: order \"%s\", saw "
		     "\"%s\"", RTK_PREEMPT_NAME, want, order);
	if (p)
		put_task_struct(p);
}

/*
 * Scenario (one CPU): as above, but the wakeup happens inside
 * preempt_disable(): H may not run before preempt_enable() under any
 * model ("T" first); under desktop/rt it runs at preempt_enable ("THE"),
 * under none/voluntary only at the next schedule() ("TEH").
 */
static void test_preempt_disable_holds_off_wakeup_preemption(struct ktest *t)
{
	struct task_struct *p;
	const char *want = PREEMPT_ON_ENABLE ? "THE" : "TEH";

	order_reset();
	init_completion(&prio_done);
	me_rt(10, 0);
	preempt_disable();
	p = kthread_create(mark_h_thread, NULL, "hi20pd");
	preempt_enable();
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	kthread_bind(p, 0);
	sched_setscheduler(p, SCHED_FIFO,
			   &(struct sched_param){ .sched_priority = 20 });
	get_task_struct(p);
	preempt_disable();
	wake_up_process(p);
	order_add('T');
	preempt_enable();
	order_add('E');
	wait_for_completion(&prio_done);
	me_restore();
	KTEST_EXPECT(t, !strcmp(order, want), "PREEMPT_%s: order \"%s\", saw "
		     "\"%s\"", RTK_PREEMPT_NAME, want, order);
	put_task_struct(p);
}

/* might_sleep warns (with a backtrace) in atomic context only. */
static void test_might_sleep_warns_only_in_atomic(struct ktest *t)
{
	unsigned long before = might_sleep_warnings;
	unsigned long flags;

	might_sleep();
	KTEST_EXPECT_EQ(t, might_sleep_warnings - before, 0);
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

struct rr_arg {
	volatile unsigned long *mine, *other;
	int seen_other_change;
	ktime_t end;
	struct completion *done;
};

static int rr_thread(void *arg)
{
	struct rr_arg *a = arg;
	unsigned long last = *a->other;

	while (a->seen_other_change < 3 && ktime_get() < a->end) {
		(*a->mine)++;
		if (*a->other != last) {
			last = *a->other;
			a->seen_other_change++;
		}
		cond_resched();
	}
	complete(a->done);
	return 0;
}

/*
 * Scenario (one CPU): A and B, SCHED_RR 10 on CPU 0, both busy.  Each
 * sees the other make progress three times only if the 100 ms slice
 * rotates them.  Under none there is no preemption point: skipped.
 */
static void test_rr_rotates_equal_priorities(struct ktest *t)
{
	static volatile unsigned long ca, cb;
	struct completion done;
	struct rr_arg a, b;
	struct task_struct *pa, *pb;

	if (!PREEMPT_VOLUNTARY_POINTS)
		ktest_skip(t, "PREEMPT_NONE: no preemption point in a busy loop");
	ca = cb = 0;
	init_completion(&done);
	a = (struct rr_arg){ &ca, &cb, 0, ktime_get() + SAFETY_NS, &done };
	b = (struct rr_arg){ &cb, &ca, 0, ktime_get() + SAFETY_NS, &done };
	me_rt(50, 0);
	pa = start_rt(rr_thread, &a, SCHED_RR, 10, 0, "rrA");
	pb = start_rt(rr_thread, &b, SCHED_RR, 10, 0, "rrB");
	wait_for_completion(&done);
	wait_for_completion(&done);
	me_restore();
	KTEST_EXPECT(t, a.seen_other_change >= 3 && b.seen_other_change >= 3,
		     "both rotate 3 times, saw A %d B %d", a.seen_other_change,
		     b.seen_other_change);
	put_task_struct(pa);
	put_task_struct(pb);
}

struct fair_arg {
	ktime_t end;
	struct completion *done;
	u64 ran_ns;
};

static int fair_thread(void *arg)
{
	struct fair_arg *a = arg;

	while (ktime_get() < a->end) {
		if (PREEMPT_VOLUNTARY_POINTS)
			cond_resched();
		else
			sched_yield();	/* none: only explicit yields */
	}
	a->ran_ns = current->sum_exec_ns;
	complete(a->done);
	return 0;
}

/*
 * Scenario (one CPU, CPU 0 or the last): two nice-0 SCHED_OTHER busy
 * threads for 300 ms of wall time; each gets 25..75% of their sum.
 */
static void test_sched_other_busy_threads_share_fairly(struct ktest *t)
{
	struct completion done;
	struct fair_arg a, b;
	struct task_struct *pa, *pb;
	int cpu = num_online_cpus() - 1;
	u64 sum;

	init_completion(&done);
	a = (struct fair_arg){ ktime_get() + 300 * NSEC_PER_MSEC, &done, 0 };
	b = a;
	pa = start_rt(fair_thread, &a, SCHED_OTHER, 0, cpu, "fairA");
	pb = start_rt(fair_thread, &b, SCHED_OTHER, 0, cpu, "fairB");
	KTEST_ASSERT(t, pa && pb, "kthread_create failed");
	wait_for_completion(&done);
	wait_for_completion(&done);
	sum = a.ran_ns + b.ran_ns;
	KTEST_EXPECT(t, sum > 0 && a.ran_ns * 4 >= sum && b.ran_ns * 4 >= sum,
		     "each 25..75%%, saw A %llu us B %llu us",
		     (unsigned long long)(a.ran_ns / 1000),
		     (unsigned long long)(b.ran_ns / 1000));
	put_task_struct(pa);
	put_task_struct(pb);
}

struct hog {
	volatile unsigned long runs;
	bool top;			/* one of the N most important */
	unsigned long low_before, low_after;	/* lowest hog's runs */
};

static struct hog hogs[9];
static int hog_n, hogs_started, hogs_finished;
static volatile bool hogs_stop;

/* HOG_SPIN: iterations a top hog runs while watching the lowest one;
 * enough for several ticks under TCG, no timing depends on it. */
#define HOG_SPIN 200000

static int hog_thread(void *arg)
{
	struct hog *h = arg;
	unsigned long i;

	if (!h->top) {
		while (!hogs_stop) {
			h->runs++;
			cond_resched();
		}
		return 0;
	}
	/* [1] wait until all N top hogs run at the same time */
	__atomic_add_fetch(&hogs_started, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&hogs_started, __ATOMIC_SEQ_CST) < hog_n &&
	       !hogs_stop)
		cond_resched();
	/* [2] meanwhile the lowest hog must not run at all */
	h->low_before = hogs[0].runs;
	for (i = 0; i < HOG_SPIN; i++) {
		h->runs++;
		cond_resched();
	}
	h->low_after = hogs[0].runs;
	/* [3] the last one done stops everybody */
	if (__atomic_add_fetch(&hogs_finished, 1, __ATOMIC_SEQ_CST) == hog_n)
		hogs_stop = true;
	while (!hogs_stop)
		cond_resched();
	return 0;
}

/*
 * Scenario (SMP, N CPUs): the test, at FIFO 99 on CPU 0, starts N+1
 * unbound FIFO hogs, most important first (10+N .. 10), then drops to
 * SCHED_OTHER and waits in kthread_stop.  Global placement must put the
 * N most important on the N CPUs: [1] each of them waits until all N
 * run at once (they never block, so this needs N CPUs), [2] each then
 * spins HOG_SPIN times and checks the lowest hog made no progress
 * meanwhile, [3] the last one stops all.  Under none the test's own CPU
 * is given up by blocking, as the model requires.
 */
static void test_rt_hogs_n_highest_run_on_n_cpus(struct ktest *t)
{
	struct task_struct *p[9];
	int n = num_online_cpus(), i;

	if (n < 2)
		ktest_skip(t, "one CPU");
	if (n + 1 > (int)ARRAY_SIZE(hogs))
		n = ARRAY_SIZE(hogs) - 1;
	hog_n = n;
	hogs_started = hogs_finished = 0;
	hogs_stop = false;
	me_rt(99, 0);
	for (i = n; i >= 0; i--) {
		hogs[i] = (struct hog){ .top = i > 0 };
		p[i] = start_rt(hog_thread, &hogs[i], SCHED_FIFO, 10 + i, -1,
				"hog");
	}
	me_restore();
	for (i = n; i >= 0; i--)
		if (p[i]) {
			kthread_stop(p[i]);
			put_task_struct(p[i]);
		}
	KTEST_EXPECT_EQ(t, hogs_started, n);
	KTEST_EXPECT_EQ(t, hogs_finished, n);
	for (i = 1; i <= n; i++)
		KTEST_EXPECT(t, hogs[i].low_after == hogs[i].low_before,
			     "lowest hog ran while top hog %d watched: %lu -> "
			     "%lu", i, hogs[i].low_before, hogs[i].low_after);
}

struct aff_arg {
	int cpu, bad;
	struct completion done;
};

static int affinity_thread(void *arg)
{
	struct aff_arg *a = arg;
	int i;

	for (i = 0; i < 2000; i++) {
		if (raw_smp_processor_id() != a->cpu)
			a->bad++;
		if (i % 100 == 0)
			sched_yield();
	}
	complete(&a->done);
	return 0;
}

/* A thread allowed only on the last CPU runs only there; the test task
 * moved by set_cpus_allowed lands on the CPU it asked for. */
static void test_affinity_is_respected(struct ktest *t)
{
	struct aff_arg a = { .cpu = num_online_cpus() - 1 };
	struct task_struct *p;

	init_completion(&a.done);
	p = kthread_create(affinity_thread, &a, "aff");
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	KTEST_EXPECT_EQ(t, set_cpus_allowed(p, one_cpu(a.cpu)), 0);
	get_task_struct(p);
	wake_up_process(p);
	wait_for_completion(&a.done);
	KTEST_EXPECT_EQ(t, a.bad, 0);
	put_task_struct(p);
	set_cpus_allowed(current, one_cpu(a.cpu));
	KTEST_EXPECT_EQ(t, raw_smp_processor_id(), a.cpu);
	KTEST_EXPECT_EQ(t, set_cpus_allowed(current, (cpumask_t){ 0 }),
			-EINVAL);
	me_restore();
}

/* sched_setscheduler follows Linux: bad policy/prio pairs are refused. */
static void test_setscheduler_checks_like_linux(struct ktest *t)
{
	struct task_struct *p = kthread_create(stop_value_thread, NULL, "chk");
	struct sched_param sp = { .sched_priority = 0 };

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
	KTEST_EXPECT_EQ(t, kthread_stop(p), 42);
}

KTEST_SUITE(sched,
	    KTEST_CASE(test_kthread_stop_returns_thread_value),
	    KTEST_CASE(test_exited_thread_keeps_struct_while_referenced),
	    KTEST_CASE(test_setscheduler_checks_like_linux),
	    KTEST_CASE(test_fifo_tasks_run_in_priority_order),
	    KTEST_CASE(test_higher_prio_wakeup_preempts_per_model),
	    KTEST_CASE(test_preempt_disable_holds_off_wakeup_preemption),
	    KTEST_CASE(test_might_sleep_warns_only_in_atomic),
	    KTEST_CASE(test_local_irq_disable_per_model),
	    KTEST_CASE(test_rr_rotates_equal_priorities),
	    KTEST_CASE(test_sched_other_busy_threads_share_fairly),
	    KTEST_CASE(test_rt_hogs_n_highest_run_on_n_cpus),
	    KTEST_CASE(test_affinity_is_respected));
