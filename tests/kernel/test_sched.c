/*
 * tests/kernel/test_sched.c - the scheduler: priority order, preemption
 * on wakeup (per model), SCHED_RR rotation, SCHED_OTHER fairness,
 * global RT placement on SMP, affinity, might_sleep, preempt_disable.
 * Length: over 600 lines because each case now also asserts the other
 * models' own behaviour (issue 4); splitting it into placement / fair /
 * preemption suites is the planned next step.
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
#include "kernel/time/tick.h"
#include "kernel/smp.h"
#include "lib/string.h"
#include "lib/errno.h"

#define SAFETY_NS (5LL * NSEC_PER_SEC)	/* a hung test, not a timing */
/* The RR test needs six 100 ms slices; on a loaded host a TCG vCPU may
 * get a fraction of real time, so its hang net is far wider. */
#define RR_SAFETY_NS (60LL * NSEC_PER_SEC)

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
	volatile int *mine_done, *other_done;
	int seen_other_change;
	int other_ran_unyielded;	/* none: the other ran meanwhile */
	ktime_t end;
	struct completion *done;
};

static int rr_thread(void *arg)
{
	struct rr_arg *a = arg;
	unsigned long last = *a->other;
	int other_done;

	for (;;) {
		/* progress first, so the other sees this run even when it
		 * is our last; read its done flag before its counter (it
		 * writes them in the other order), so its last run before
		 * it finished still counts, wherever we were preempted */
		(*a->mine)++;
		other_done = *a->other_done;
		if (*a->other != last) {
			last = *a->other;
			a->seen_other_change++;
		}
		if (a->seen_other_change >= 3 || other_done ||
		    ktime_get() > a->end)
			break;
		cond_resched();
	}
	/* the stop is progress too: a preemption between our last
	 * increment and our last look would hide this run from the other */
	(*a->mine)++;
	*a->mine_done = 1;
	complete(a->done);
	return 0;
}

/*
 * rr_none_thread - the PREEMPT_NONE half of the RR test: [1] spin with
 * no preemption point until the tick has ended our slice (it requeues
 * us behind our equal and sets TIF_NEED_RESCHED); [2] keep spinning for
 * two more ticks with the reschedule pending: nothing may switch us
 * out, so the other task's counter must not move; [3] schedule(), the
 * explicit preemption point: the rotation happens here, the other runs
 * its slice before we return.
 */
static int rr_none_thread(void *arg)
{
	struct rr_arg *a = arg;
	unsigned long before;
	u64 j;

	while (a->seen_other_change < 3 && !*a->other_done &&
	       ktime_get() < a->end) {
		before = *a->other;
		while (!need_resched() && !*a->other_done &&
		       ktime_get() < a->end)
			(*a->mine)++;				/* [1] */
		j = READ_ONCE(jiffies);
		while (READ_ONCE(jiffies) - j < 2 && ktime_get() < a->end)
			(*a->mine)++;				/* [2] */
		if (*a->other != before)
			a->other_ran_unyielded++;
		schedule();					/* [3] */
		(*a->mine)++;	/* seen by the other even if we stop now */
		if (*a->other != before)
			a->seen_other_change++;
	}
	/* the stop is progress too: a preemption between our last
	 * increment and our last look would hide this run from the other */
	(*a->mine)++;
	*a->mine_done = 1;
	complete(a->done);
	return 0;
}

/*
 * Scenario (one CPU): A and B, SCHED_RR 10 on CPU 0, both busy; the
 * test waits at FIFO 50.  Each sees the other make progress three times
 * only if the 100 ms slice rotates them.
 * voluntary/desktop/rt: the loop's cond_resched() (or the interrupt
 * return) is where the expired slice switches to the other.
 * none: cond_resched() is empty, so a busy loop is never rotated away:
 * A keeps the CPU past the end of its slice with the reschedule
 * pending, B makes no progress (other_ran_unyielded stays 0), and the
 * rotation happens only when A calls schedule() (rr_none_thread).
 */
static void test_rr_rotates_equal_priorities(struct ktest *t)
{
	static volatile unsigned long ca, cb;
	static volatile int da, db;
	int (*fn)(void *) = PREEMPT_VOLUNTARY_POINTS ? rr_thread :
						       rr_none_thread;
	struct completion done;
	struct rr_arg a, b;
	struct task_struct *pa, *pb;
	ktime_t end = ktime_get() + RR_SAFETY_NS;

	ca = cb = 0;
	da = db = 0;
	init_completion(&done);
	a = (struct rr_arg){ &ca, &cb, &da, &db, 0, 0, end, &done };
	b = (struct rr_arg){ &cb, &ca, &db, &da, 0, 0, end, &done };
	me_rt(50, 0);
	pa = start_rt(fn, &a, SCHED_RR, 10, 0, "rrA");
	pb = start_rt(fn, &b, SCHED_RR, 10, 0, "rrB");
	wait_for_completion(&done);
	wait_for_completion(&done);
	me_restore();
	KTEST_EXPECT(t, a.seen_other_change >= 3 && b.seen_other_change >= 3,
		     "PREEMPT_%s: both rotate 3 times, saw A %d B %d",
		     RTK_PREEMPT_NAME, a.seen_other_change,
		     b.seen_other_change);
	KTEST_EXPECT(t, !a.other_ran_unyielded && !b.other_ran_unyielded,
		     "none: the other never runs while one spins without "
		     "yielding, saw A %d B %d", a.other_ran_unyielded,
		     b.other_ran_unyielded);
	put_task_struct(pa);
	put_task_struct(pb);
}

/*
 * The fairness window, in CPU time the two threads got together: it
 * closes once they used FAIR_WINDOW_NS and each had 25..75% of it, or
 * at FAIR_WINDOW_MAX_NS, whatever the shares.  Why not a fixed length:
 * a TCG vCPU is a host thread, and a loaded host stalls it for tens of
 * ms, sometimes hundreds; the thread that was current is charged the
 * stall and the scheduler repays the other afterwards (as CFS does).
 * A fixed window can end between the stall and the repayment; a fair
 * scheduler gets the shares back into the band well within 4x, an
 * unfair one (a starved thread, or slices of a second) does not.
 */
#define FAIR_WINDOW_NS (300 * NSEC_PER_MSEC)
#define FAIR_WINDOW_MAX_NS (4 * FAIR_WINDOW_NS)

static struct {
	int started;		/* threads that reached their loop */
	volatile bool open;	/* both run: the window is open */
	volatile bool closed;	/* see FAIR_WINDOW_NS */
	volatile u64 ran[2];	/* CPU time of each inside the window */
} fair;

struct fair_arg {
	int id;			/* 0 or 1: slot in fair.ran */
	struct completion *done;
	u64 ran_ns;		/* CPU time inside the window */
	bool partner_seen;	/* the partner started before the deadline */
	unsigned long switches;	/* times switched in inside the window */
};

/* fair_give_way - the model's way for a busy SCHED_OTHER loop to let
 * its equal run: a preemption point (the tick sets need_resched), or
 * under none, where there is none, an explicit yield. */
static void fair_give_way(void)
{
	if (PREEMPT_VOLUNTARY_POINTS)
		cond_resched();
	else
		sched_yield();
}

/* fair_window_done - FAIR_WINDOW_NS used with shares in the band, or
 * FAIR_WINDOW_MAX_NS used. */
static bool fair_window_done(void)
{
	u64 a = fair.ran[0], b = fair.ran[1], sum = a + b;

	if (sum >= FAIR_WINDOW_MAX_NS)
		return true;
	return sum >= FAIR_WINDOW_NS && a * 4 >= sum && b * 4 >= sum;
}

/*
 * fair_thread - [1] announce we run; the second one to get here opens
 * the window; [2] until it opens, give way, so the partner can start;
 * [3] baseline our CPU time when we first see the window open (we did
 * not run since it opened: the partner opened it); [4] busy, giving way
 * as the model allows and publishing our in-window CPU time, until the
 * window closes.
 */
static int fair_thread(void *arg)
{
	struct fair_arg *a = arg;
	ktime_t hang = ktime_get() + SAFETY_NS;
	unsigned long sw0;
	u64 base;

	if (__atomic_add_fetch(&fair.started, 1, __ATOMIC_SEQ_CST) == 2)
		WRITE_ONCE(fair.open, true);				/* [1] */
	while (!READ_ONCE(fair.open) && ktime_get() < hang)
		fair_give_way();					/* [2] */
	a->partner_seen = READ_ONCE(fair.open);
	base = current->sum_exec_ns;					/* [3] */
	sw0 = current->nr_switches;
	while (a->partner_seen && !READ_ONCE(fair.closed)) {		/* [4] */
		fair_give_way();
		fair.ran[a->id] = current->sum_exec_ns - base;
		if (fair_window_done())
			WRITE_ONCE(fair.closed, true);
	}
	a->ran_ns = current->sum_exec_ns - base;
	a->switches = current->nr_switches - sw0;
	complete(a->done);
	return 0;
}

/*
 * Scenario (one CPU, the last): two nice-0 SCHED_OTHER busy threads
 * bound to the same CPU.  From the moment both have run (the second
 * one opens the window) each gets 25..75% of the CPU time the two got
 * in the window (see FAIR_WINDOW_NS for when it closes).  New threads
 * start at their run queue's min_vruntime, wherever they were created,
 * so neither starts with a debt or a credit against the other.
 */
static void test_sched_other_busy_threads_share_fairly(struct ktest *t)
{
	struct completion done;
	struct fair_arg a = { .id = 0, .done = &done };
	struct fair_arg b = { .id = 1, .done = &done };
	struct task_struct *pa, *pb;
	int cpu = num_online_cpus() - 1;
	u64 sum;

	init_completion(&done);
	memset(&fair, 0, sizeof(fair));
	pa = start_rt(fair_thread, &a, SCHED_OTHER, 0, cpu, "fairA");
	pb = start_rt(fair_thread, &b, SCHED_OTHER, 0, cpu, "fairB");
	KTEST_ASSERT(t, pa && pb, "kthread_create failed");
	wait_for_completion(&done);
	wait_for_completion(&done);
	put_task_struct(pa);
	put_task_struct(pb);
	KTEST_EXPECT(t, a.partner_seen && b.partner_seen,
		     "both threads ran within %lld s, saw A %d B %d",
		     SAFETY_NS / NSEC_PER_SEC, a.partner_seen, b.partner_seen);
	sum = a.ran_ns + b.ran_ns;
	KTEST_EXPECT(t, sum > 0 && a.ran_ns * 4 >= sum && b.ran_ns * 4 >= sum,
		     "each 25..75%% of the window, saw A %llu us (%lu switches) "
		     "B %llu us (%lu)", (unsigned long long)(a.ran_ns / 1000),
		     a.switches, (unsigned long long)(b.ran_ns / 1000),
		     b.switches);
}

struct hog {
	volatile unsigned long runs;
	bool top;			/* one of the N most important */
	unsigned long low_before, low_after;	/* lowest hog's runs */
};

static struct hog hogs[9];
static int hog_n, hogs_started, hogs_finished;
static volatile bool hogs_stop;
static struct completion hogs_done;	/* the last top hog finished [3] */

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
	if (__atomic_add_fetch(&hogs_finished, 1, __ATOMIC_SEQ_CST) == hog_n) {
		hogs_stop = true;
		complete(&hogs_done);
	}
	while (!hogs_stop)
		cond_resched();
	return 0;
}

/*
 * Scenario (SMP, N CPUs): the test, at FIFO 99 on CPU 0, starts N+1
 * unbound FIFO hogs, most important first (10+N .. 10), then drops to
 * SCHED_OTHER and waits for the last top hog to finish.  Global placement must put the
 * N most important on the N CPUs: [1] each of them waits until all N
 * run at once (they never block, so this needs N CPUs), [2] each then
 * spins HOG_SPIN times and checks the lowest hog made no progress
 * meanwhile, [3] the last one stops all.  Under none the test's own CPU
 * is given up by blocking, as the model requires.  With one CPU it is
 * the same test with two hogs: the more important one runs its whole
 * spin before the other runs at all.
 */
static void test_rt_hogs_n_highest_run_on_n_cpus(struct ktest *t)
{
	struct task_struct *p[9];
	int n = num_online_cpus(), i;

	if (n + 1 > (int)ARRAY_SIZE(hogs))
		n = ARRAY_SIZE(hogs) - 1;
	hog_n = n;
	hogs_started = hogs_finished = 0;
	hogs_stop = false;
	init_completion(&hogs_done);
	me_rt(99, 0);
	for (i = n; i >= 0; i--) {
		hogs[i] = (struct hog){ .top = i > 0 };
		p[i] = start_rt(hog_thread, &hogs[i], SCHED_FIFO, 10 + i, -1,
				"hog");
	}
	me_restore();
	/* stop only after [3]: kthread_stop before a thread first ran
	 * would end it without running it (Linux's -EINTR case) */
	if (!wait_for_completion_timeout(&hogs_done, RR_SAFETY_NS))
		hogs_stop = true;
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
	    KTEST_CASE(test_fifo_tasks_run_in_priority_order),
	    KTEST_CASE(test_higher_prio_wakeup_preempts_per_model),
	    KTEST_CASE(test_preempt_disable_holds_off_wakeup_preemption),
	    KTEST_CASE(test_might_sleep_warns_only_in_atomic),
	    KTEST_CASE(test_local_irq_disable_per_model),
	    KTEST_CASE(test_rr_rotates_equal_priorities),
	    KTEST_CASE(test_sched_other_busy_threads_share_fairly),
	    KTEST_CASE(test_rt_hogs_n_highest_run_on_n_cpus),
	    KTEST_CASE(test_affinity_is_respected));
