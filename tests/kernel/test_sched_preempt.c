/*
 * tests/kernel/test_sched_preempt.c - the sched_preempt suite: who runs
 * next on one CPU.  SCHED_FIFO tasks run in priority order; a higher-prio
 * wakeup preempts at once (desktop, rt) or at the next schedule() (none,
 * voluntary); preempt_disable() holds that preemption off under every
 * model; equal SCHED_RR tasks rotate when their slice ends, at the
 * model's preemption points.  Each case asserts every model's own
 * behaviour (issue 4).  Set-up helpers: tests/kernel/sched_helpers.h.
 * Linux counterpart: none as one file (kernel/sched/rt.c's
 * check_preempt_curr_rt and task_tick_rt, preempt_enable's
 * preempt_schedule).
 * Article: "PREEMPT_RT configuration options" (High-Level
 * Preemption-Option Selection: what each model preempts).
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/sched/completion.h"
#include "kernel/debug/race_window.h"
#include "kernel/time/tick.h"
#include "lib/string.h"

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
	p = kthread_create(mark_h_thread, NULL, "hi20pd");	/* may sleep */
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
 * Scenario (issue 28 item 6, a reschedule request at schedule()'s
 * return): T (FIFO 10, CPU 1) calls schedule() and parks in
 * schedule_return_window, switched back in, preemption still off.  The
 * test on CPU 0 wakes W (FIFO 20, bound to CPU 1): TIF_NEED_RESCHED is
 * set for T and the IPI sent; it returns at preempt_count 1 without a
 * switch.  Then T is let go.
 *
 *	CPU0 (test)			CPU1 (T)
 *					schedule(): __schedule picks T
 *					parks: preempt_count 1
 *	wake_up_process(W): need_resched
 *	set, IPI			IPI: count 1, no switch
 *	release				preempt_enable_no_resched
 *					returns to T's caller, W waiting
 *
 * Observable, under every model: W has run when T's schedule() returns
 * (Linux's schedule() loops while need_resched()).  Without the loop, T
 * ran on with the flag set: until its next preemption point under
 * desktop and rt, until it blocked under none.
 */
struct return_case {
	struct completion t_done;
	bool w_ran, w_ran_at_return;
};

static int return_w_fn(void *arg)
{
	struct return_case *c = arg;

	WRITE_ONCE(c->w_ran, true);
	return 0;
}

static int return_t_fn(void *arg)
{
	struct return_case *c = arg;

	schedule();	/* parks in schedule_return_window */
	c->w_ran_at_return = READ_ONCE(c->w_ran);
	complete(&c->t_done);
	return 0;
}

static void test_resched_at_schedule_return_is_not_dropped(struct ktest *t)
{
	struct race_window *win = &schedule_return_window;
	struct return_case c = { .w_ran = false };
	struct task_struct *tt, *w;
	bool parked;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: T parks on CPU 1, the test wakes W "
			      "from CPU 0");
	me_rt(30, 0);
	init_completion(&c.t_done);
	w = create_fifo(return_w_fn, &c, 20, one_cpu(1), "ret_w");
	KTEST_ASSERT(t, w, "no W thread");
	tt = create_fifo(return_t_fn, &c, 10, one_cpu(1), "ret_t");
	KTEST_ASSERT(t, tt, "no T thread");
	race_window_arm(win, tt);
	wake_up_process(tt);
	parked = race_window_wait_parked(win, SAFETY_NS);
	if (parked)
		wake_up_process(w);
	race_window_release(win);
	if (!parked)
		wake_up_process(w);
	wait_for_completion(&c.t_done);
	kthread_stop(tt);
	put_task_struct(tt);
	kthread_stop(w);
	put_task_struct(w);
	me_restore();
	KTEST_ASSERT(t, parked, "T never parked in schedule_return_window");
	KTEST_EXPECT(t, c.w_ran_at_return, "W (FIFO 20, woken on T's CPU while "
		     "T was inside schedule()) had not run when T's schedule() "
		     "returned: the reschedule request was dropped");
}

KTEST_SUITE(sched_preempt,
	    KTEST_CASE(test_fifo_tasks_run_in_priority_order),
	    KTEST_CASE(test_higher_prio_wakeup_preempts_per_model),
	    KTEST_CASE(test_preempt_disable_holds_off_wakeup_preemption),
	    KTEST_CASE(test_rr_rotates_equal_priorities),
	    KTEST_CASE(test_resched_at_schedule_return_is_not_dropped));
