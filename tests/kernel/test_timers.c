/*
 * tests/kernel/test_timers.c - timer_list (kernel/time/timer.h):
 * callbacks run at or after their expiry, in process context under rt
 * (ksoftirqd/N: in_interrupt() false, may sleep) and in softirq context
 * otherwise; del_timer() really dequeues; del_timer_sync() and
 * wait_for_timer() (article, "Miscellaneous") return only after a
 * running callback has.  Synchronisation is by completions and flags;
 * the only timed waits are the timers' own expiries.
 */
#include "kernel/ktest.h"
#include "kernel/irq/irq_model.h"
#include "kernel/irq/softirq.h"
#include "kernel/mm/kstack.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "kernel/time/tick.h"
#include "kernel/time/timer.h"
#include "lib/string.h"

/* A callback's spin gives up after this, so a broken kernel fails the
 * test instead of hanging it. */
#define SPIN_LIMIT_NS (2000 * NSEC_PER_MSEC)
/* After the deleter is in del_timer_sync the callback goes on this much
 * longer, so a del_timer_sync that does not wait returns early and is
 * caught (the pass condition itself is a flag, not this time). */
#define CALLBACK_EXTRA_NS (5 * NSEC_PER_MSEC)

struct timer_probe {
	struct timer_list timer;
	struct completion ran;
	unsigned long jiffies_at_run;
	int in_interrupt, in_softirq, irqs_off;
	char comm[TASK_COMM_LEN];
	unsigned int runs;
	int atomic;		/* in_atomic() in the callback */
	int sleep_in_callback;	/* SLEEP_*: what the callback tries */
	volatile int done;
};

enum { SLEEP_NONE, SLEEP_MSLEEP, SLEEP_MIGHT_SLEEP };

static struct timer_probe tp;

static void probe_timer_fn(struct timer_list *timer)
{
	struct timer_probe *p = from_timer(p, timer, timer);

	p->jiffies_at_run = READ_ONCE(jiffies);
	p->in_interrupt = in_interrupt();
	p->in_softirq = in_serving_softirq();
	p->irqs_off = raw_irqs_disabled();
	strscpy(p->comm, current->name, sizeof(p->comm));
	p->runs++;
	p->atomic = in_atomic();
	if (p->sleep_in_callback == SLEEP_MSLEEP)
		msleep(2);	/* blocks: allowed only in process context */
	else if (p->sleep_in_callback == SLEEP_MIGHT_SLEEP)
		might_sleep();	/* softirq context: must warn */
	p->done = 1;
	complete(&p->ran);
}

static void probe_init(struct timer_probe *p)
{
	memset(p, 0, sizeof(*p));
	timer_setup(&p->timer, probe_timer_fn, 0);
	init_completion(&p->ran);
}

/* Expires 5 jiffies ahead: runs once, no earlier; context per model. */
static void test_timer_runs_at_or_after_expiry_in_model_context(struct ktest *t)
{
	unsigned long expires;

	probe_init(&tp);
	expires = READ_ONCE(jiffies) + 5;
	KTEST_EXPECT_EQ(t, mod_timer(&tp.timer, expires), 0);
	/* pending, unless a host stall let 5 jiffies pass already */
	KTEST_EXPECT(t, timer_pending(&tp.timer) || READ_ONCE(tp.runs) ||
			     (long)(READ_ONCE(jiffies) - expires) >= 0,
		     "pending after mod_timer");
	KTEST_ASSERT(t, wait_for_completion_timeout(&tp.ran, 5 * NSEC_PER_SEC),
		     "callback did not run within 5 s");
	wait_for_timer(&tp.timer);
	KTEST_EXPECT(t, (long)(tp.jiffies_at_run - expires) >= 0,
		     "ran at jiffies >= %lu, saw %lu", expires, tp.jiffies_at_run);
	KTEST_EXPECT_EQ(t, tp.runs, 1);
	KTEST_EXPECT(t, !timer_pending(&tp.timer), "not pending after running");
	KTEST_EXPECT(t, !tp.irqs_off, "callback runs with interrupts on");
	if (SOFTIRQ_THREADED) {
		KTEST_EXPECT(t, !tp.in_interrupt,
			     "rt: process context, saw in_interrupt() %d",
			     tp.in_interrupt);
		KTEST_EXPECT(t, strncmp(tp.comm, "ksoftirqd/", 10) == 0,
			     "rt: runs in ksoftirqd/N, saw \"%s\"", tp.comm);
	} else {
		KTEST_EXPECT(t, tp.in_softirq && tp.in_interrupt,
			     "softirq context, saw in_softirq %d in_interrupt %d",
			     tp.in_softirq, tp.in_interrupt);
	}
}

/*
 * rt: a callback runs in ksoftirqd/N and may block (msleep) without a
 * might_sleep warning.  none/voluntary/desktop: it runs in softirq
 * context on interrupt exit (in_softirq, in_interrupt, atomic), where
 * sleeping is a bug: the callback calls might_sleep() instead of
 * msleep() and it must warn exactly once.
 */
static void test_timer_callback_may_sleep_under_rt(struct ktest *t)
{
	unsigned long warnings = might_sleep_warnings;

	probe_init(&tp);
	tp.sleep_in_callback = SOFTIRQ_THREADED ? SLEEP_MSLEEP :
						  SLEEP_MIGHT_SLEEP;
	might_sleep_expect_begin();	/* non-rt: the callback's warning */
	mod_timer(&tp.timer, READ_ONCE(jiffies) + 1);
	if (!wait_for_completion_timeout(&tp.ran, 5 * NSEC_PER_SEC)) {
		might_sleep_expect_end();
		KTEST_ASSERT(t, false, "callback did not run within 5 s");
	}
	might_sleep_expect_end();
	KTEST_EXPECT_EQ(t, tp.done, 1);
	if (SOFTIRQ_THREADED) {
		KTEST_EXPECT(t, !tp.in_interrupt && !tp.atomic,
			     "rt: process context, saw in_interrupt %d atomic %d",
			     tp.in_interrupt, tp.atomic);
		KTEST_EXPECT_EQ(t, might_sleep_warnings, warnings);
	} else {
		KTEST_EXPECT(t, tp.in_softirq && tp.in_interrupt && tp.atomic,
			     "PREEMPT_%s: softirq context, saw in_softirq %d "
			     "in_interrupt %d atomic %d", RTK_PREEMPT_NAME,
			     tp.in_softirq, tp.in_interrupt, tp.atomic);
		KTEST_EXPECT(t, might_sleep_warnings - warnings == 1,
			     "PREEMPT_%s: might_sleep in the callback warns once, "
			     "saw %lu warnings", RTK_PREEMPT_NAME,
			     might_sleep_warnings - warnings);
	}
}

/* mod/del return values; a deleted timer does not fire: B, queued 30
 * jiffies after A on the same CPU, fires; A, deleted, never did.  (A is
 * 30 jiffies out so a slow TCG host cannot expire it before the del.) */
static void test_del_timer_dequeues(struct ktest *t)
{
	static struct timer_probe b;
	unsigned long j;

	probe_init(&tp);
	probe_init(&b);
	preempt_disable();	/* both on this CPU's base */
	j = READ_ONCE(jiffies);
	KTEST_EXPECT_EQ(t, mod_timer(&tp.timer, j + 30), 0);
	KTEST_EXPECT_EQ(t, mod_timer(&tp.timer, j + 30), 1);
	mod_timer(&b.timer, j + 60);
	preempt_enable();
	KTEST_EXPECT_EQ(t, del_timer(&tp.timer), 1);
	KTEST_EXPECT_EQ(t, del_timer(&tp.timer), 0);
	KTEST_EXPECT(t, !timer_pending(&tp.timer), "not pending after del");
	wait_for_timer(&b.timer);
	KTEST_EXPECT_EQ(t, b.runs, 1);
	KTEST_EXPECT_EQ(t, tp.runs, 0);
}

/* wait_for_timer returns only after expiry and the callback's return
 * (under rt the callback blocks on the way); at once for an idle one. */
static void test_wait_for_timer_waits_for_expiry_and_callback(struct ktest *t)
{
	unsigned long expires;

	probe_init(&tp);
	tp.sleep_in_callback = SOFTIRQ_THREADED ? SLEEP_MSLEEP : SLEEP_NONE;
	expires = READ_ONCE(jiffies) + 10;
	mod_timer(&tp.timer, expires);
	wait_for_timer(&tp.timer);
	KTEST_EXPECT(t, tp.done == 1, "callback finished when wait_for_timer "
		     "returned, saw done %d", tp.done);
	KTEST_EXPECT(t, (long)(READ_ONCE(jiffies) - expires) >= 0,
		     "returned at jiffies >= %lu", expires);
	wait_for_timer(&tp.timer);	/* idle: must not block */
	KTEST_EXPECT_EQ(t, tp.runs, 1);
}

/* ---- del_timer_sync waits for a running callback ---- */

static struct {
	struct timer_list timer;
	struct completion started;	/* callback entered */
	struct completion finished;	/* deleter done */
	volatile int deleting;		/* deleter about to call del_timer_sync */
	volatile int cb_done;
	int done_when_del_returned;
	int del_ret;
	int timed_out;
	int rearm;			/* callback re-queues itself */
} ds;

static void slow_timer_fn(struct timer_list *timer)
{
	ktime_t t0 = ktime_get(), t1;

	complete(&ds.started);
	while (!ds.deleting) {
		if (ktime_get() - t0 > SPIN_LIMIT_NS) {
			ds.timed_out = 1;
			break;
		}
		cpu_relax();
	}
	t1 = ktime_get();
	while (ktime_get() - t1 < CALLBACK_EXTRA_NS)
		cpu_relax();
	if (ds.rearm)
		mod_timer(timer, READ_ONCE(jiffies) + 1);
	ds.cb_done = 1;
}

static int adder_task(void *arg)
{
	mod_timer(&ds.timer, READ_ONCE(jiffies) + 1);
	return 0;
}

static int deleter_task(void *arg)
{
	wait_for_completion(&ds.started);
	ds.deleting = 1;
	ds.del_ret = del_timer_sync(&ds.timer);
	ds.done_when_del_returned = ds.cb_done;
	complete(&ds.finished);
	return 0;
}

/*
 * Scenario:
 *	adder		pinned to CPU A: queues the timer on A's base
 *	callback	(A's softirq, or ksoftirqd/A under rt) spins until the
 *			deleter is in del_timer_sync, then 5 ms more
 *	deleter		SCHED_FIFO 10, pinned to CPU D: waits for "started",
 *			calls del_timer_sync
 * del_timer_sync must return after the callback: the deleter reads
 * cb_done right after and must see 1.  Under rt ksoftirqd/A is
 * SCHED_FIFO 1, so with A == D == 0 the deleter preempts the callback
 * and sleeps in del_timer_sync.  Otherwise the softirq holds CPU A, so
 * the deleter needs another CPU.  With rearm the callback re-queues
 * itself and del_timer_sync must still leave it dequeued.
 */
static void run_del_timer_sync_case(struct ktest *t, int rearm)
{
	struct sched_param dp = { .sched_priority = 10 };
	struct task_struct *adder, *deleter;
	unsigned int stacks0 = kstack_nr_in_use();
	int acpu = 0, dcpu = 0;
	ktime_t end;

	if (!SOFTIRQ_THREADED) {
		if (num_online_cpus() < 2)
			ktest_skip(t, "a softirq holds its CPU: needs 2 CPUs");
		dcpu = 1;
	}
	memset(&ds, 0, sizeof(ds));
	timer_setup(&ds.timer, slow_timer_fn, 0);
	init_completion(&ds.started);
	init_completion(&ds.finished);
	ds.rearm = rearm;
	adder = kthread_create(adder_task, NULL, "tmr-adder");
	deleter = kthread_create(deleter_task, NULL, "tmr-deleter");
	KTEST_ASSERT(t, adder && deleter, "kthread_create failed");
	kthread_bind(adder, acpu);
	kthread_bind(deleter, dcpu);
	sched_setscheduler(deleter, SCHED_FIFO, &dp);
	wake_up_process(deleter);
	wake_up_process(adder);
	wait_for_completion(&ds.finished);
	KTEST_EXPECT(t, !ds.timed_out, "deleter reached del_timer_sync");
	KTEST_EXPECT(t, ds.done_when_del_returned,
		     "callback finished before del_timer_sync returned, saw not");
	KTEST_EXPECT(t, !timer_pending(&ds.timer),
		     "timer not pending after del_timer_sync");
	/* it ran: nothing queued, unless it re-queued itself */
	KTEST_EXPECT_EQ(t, ds.del_ret, rearm);
	/* the helpers' stacks are freed after their last switch away; at
	 * or below stacks0, which may include a task an earlier suite was
	 * freeing (sched_nr_tasks_reaping() in kernel/sched/sched.h) */
	end = ktime_get() + 5 * NSEC_PER_SEC;
	while (kstack_nr_in_use() > stacks0 && ktime_get() < end)
		msleep(1);
	KTEST_EXPECT(t, kstack_nr_in_use() <= stacks0,
		     "helpers' stacks freed: at most %u in use, saw %u",
		     stacks0, kstack_nr_in_use());
}

static void test_del_timer_sync_waits_for_running_callback(struct ktest *t)
{
	run_del_timer_sync_case(t, 0);
}

static void test_del_timer_sync_stops_a_self_rearming_timer(struct ktest *t)
{
	run_del_timer_sync_case(t, 1);
}

KTEST_SUITE(timers,
	    KTEST_CASE(test_timer_runs_at_or_after_expiry_in_model_context),
	    KTEST_CASE(test_timer_callback_may_sleep_under_rt),
	    KTEST_CASE(test_del_timer_dequeues),
	    KTEST_CASE(test_wait_for_timer_waits_for_expiry_and_callback),
	    KTEST_CASE(test_del_timer_sync_waits_for_running_callback),
	    KTEST_CASE(test_del_timer_sync_stops_a_self_rearming_timer));
