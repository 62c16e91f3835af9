/*
 * tests/kernel/test_rt_throttle.c - the rt_throttle suite: RT bandwidth
 * throttling (kernel/sched/rt_bandwidth.c).  A FIFO-99 busy loop on a
 * CPU leaves the runtime's complement of each period to the rest with
 * throttling on, and owns its CPU with it off; an irq-thread-like task
 * (PF_UNTHROTTLED) runs in the throttled part of the period and an
 * ordinary RT task below the loop does not; the settings follow Linux's
 * rules.
 *
 * Every bound here is counted in RT periods (the throttle counter of
 * the CPU, or a loop's own length in periods), never as a wall-clock
 * timing; the one hang net (SAFETY_NS multiples) only keeps a broken
 * kernel from hanging the run.  A hog offers a scheduling point in its
 * loop (schedule() when need_resched()), so that the throttle's
 * reschedule acts under every model; PREEMPT_NONE has no other one in a
 * kernel loop (as in Linux, where it would be cond_resched()).
 * Linux counterpart: none in-tree; rt-tests' and LTP's sched_rt_runtime
 * checks do the same from user space.
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/rt_bandwidth.h"
#include "lib/errno.h"
#include "lib/string.h"

/* a hog that is never stopped gives up after this many periods: the
 * case then fails instead of hanging (before throttling existed, the
 * SCHED_OTHER side could not even run to stop it) */
#define HOG_MAX_PERIODS 8
/* a woken task must run within this many throttled periods of its CPU:
 * the next one, one more if the host did not run the vCPU in that
 * period's non-RT part */
#define RUN_WITHIN_THROTTLES 3

struct hog;

struct runner {
	struct task_struct *task;
	struct completion done;
	int cpu;
	const struct hog *hog;		/* the one that wakes it */
	unsigned long throttles_before;	/* the hog's, when it woke us */
	unsigned long throttles_seen;	/* after, when we ran */
	bool hog_alive;			/* the hog still spun then */
	bool ran;
};

struct hog {
	struct task_struct *task;
	int cpu;
	u64 limit_ns;			/* ends itself after this long */
	struct runner *wake[2];		/* woken once it spins, not NULL */
	struct completion started;
	bool ended;			/* its loop is over */
};

static int runner_fn(void *arg)
{
	struct runner *r = arg;

	r->throttles_seen = sched_rt_nr_throttled(r->cpu) - r->throttles_before;
	r->hog_alive = !READ_ONCE(r->hog->ended);
	WRITE_ONCE(r->ran, true);
	complete(&r->done);
	return 0;
}

/* hog_fn - spin on h->cpu at FIFO 99 until kthread_stop or limit_ns;
 * first wake the runners queued behind it (from here, so they are
 * queued on the CPU while it is already taken). */
static int hog_fn(void *arg)
{
	struct hog *h = arg;
	u64 end = ktime_get_ns() + h->limit_ns;

	for (int i = 0; i < 2 && h->wake[i]; i++) {
		h->wake[i]->throttles_before = sched_rt_nr_throttled(h->cpu);
		wake_up_process(h->wake[i]->task);
	}
	complete(&h->started);
	while (!kthread_should_stop() && ktime_get_ns() < end) {
		if (need_resched())
			schedule();
		else
			cpu_relax();
	}
	WRITE_ONCE(h->ended, true);
	return 0;
}

/* runner_init - r's thread, bound to cpu at policy/prio, not woken. */
static bool runner_init(struct ktest *t, struct runner *r, int cpu,
			int policy, int prio, bool unthrottled)
{
	struct sched_param sp = { .sched_priority = prio };

	memset(r, 0, sizeof(*r));
	init_completion(&r->done);
	r->cpu = cpu;
	r->task = kthread_create(runner_fn, r, "throttle_run/%d", cpu);
	KTEST_EXPECT(t, r->task, "no runner thread");
	if (!r->task)
		return false;
	kthread_bind(r->task, cpu);
	if (unthrottled)
		r->task->flags |= PF_UNTHROTTLED;	/* as irq threads are */
	sched_setscheduler(r->task, policy, &sp);
	get_task_struct(r->task);
	return true;
}

static bool hog_start(struct ktest *t, struct hog *h, int cpu, u64 limit_ns,
		      struct runner *a, struct runner *b)
{
	memset(h, 0, sizeof(*h));
	init_completion(&h->started);
	h->cpu = cpu;
	h->limit_ns = limit_ns;
	h->wake[0] = a;
	h->wake[1] = b;
	a->hog = h;
	if (b)
		b->hog = h;
	h->task = start_rt(hog_fn, h, SCHED_FIFO, 99, cpu, "throttle_hog");
	KTEST_EXPECT(t, h->task, "no hog thread on CPU %d", cpu);
	return h->task;
}

/* runner_wait - until r ran, or the hang net (longer than any hog's
 * limit); returns whether it ran. */
static bool runner_wait(struct runner *r)
{
	wait_for_completion_timeout(&r->done, 6 * SAFETY_NS);
	return READ_ONCE(r->ran);
}

static void runner_put(struct runner *r)
{
	if (!r->task)
		return;
	kthread_stop(r->task);
	put_task_struct(r->task);
}

static void hog_stop(struct hog *h)
{
	if (!h->task)
		return;
	kthread_stop(h->task);
	put_task_struct(h->task);
}

/* the settings the suite found, put back after each case */
static int saved_period, saved_runtime;

static void bandwidth_save_and_set(int period_us, int runtime_us)
{
	sched_rt_bandwidth_get(&saved_period, &saved_runtime);
	BUG_ON(sched_rt_bandwidth_set(period_us, runtime_us));
}

static void bandwidth_restore(void)
{
	BUG_ON(sched_rt_bandwidth_set(saved_period, saved_runtime));
}

static u64 period_ns(void)
{
	int period, runtime;

	sched_rt_bandwidth_get(&period, &runtime);
	return (u64)period * NSEC_PER_USEC;
}

static struct hog hogs[NR_CPUS];
static struct runner others[NR_CPUS];

/* hogs_start - on every CPU c, others[c] (SCHED_OTHER, bound to c) and
 * hogs[c], which wakes it and spins for at most limit_ns. */
static bool hogs_start(struct ktest *t, u64 limit_ns)
{
	int cpu;

	memset(hogs, 0, sizeof(hogs));
	memset(others, 0, sizeof(others));
	for_each_online_cpu(cpu) {
		if (!runner_init(t, &others[cpu], cpu, SCHED_OTHER, 0, false) ||
		    !hog_start(t, &hogs[cpu], cpu, limit_ns, &others[cpu], NULL))
			return false;
	}
	return true;
}

static void hogs_stop(void)
{
	int cpu;

	for_each_online_cpu(cpu) {
		hog_stop(&hogs[cpu]);
		runner_put(&others[cpu]);
	}
}

/*
 * Scenario (throttling on, Linux's defaults 1 s / 0.95 s; every CPU c):
 * hog_c (FIFO 99, bound to c) spins; once it does, it wakes other_c
 * (SCHED_OTHER, bound to c) and notes c's throttle count.  The test
 * task is SCHED_OTHER, unbound: it runs only where a CPU is throttled.
 * Expected: every other_c runs while hog_c still spins, within
 * RUN_WITHIN_THROTTLES throttled periods of c; then the hogs are
 * stopped (kthread_stop: their flag).  Without throttling other_c runs
 * only after hog_c gave up (HOG_MAX_PERIODS later): "ran only after".
 */
static void test_sched_other_runs_beside_a_fifo99_hog_on_every_cpu(struct ktest *t)
{
	int cpu;

	me_restore();
	bandwidth_save_and_set(SCHED_RT_PERIOD_US_DEFAULT,
			       SCHED_RT_RUNTIME_US_DEFAULT);
	if (!hogs_start(t, HOG_MAX_PERIODS * period_ns()))
		goto out;
	for_each_online_cpu(cpu) {
		struct runner *o = &others[cpu];

		KTEST_EXPECT(t, runner_wait(o),
			     "CPU %d: SCHED_OTHER task never ran", cpu);
	}
	for_each_online_cpu(cpu) {
		struct runner *o = &others[cpu];

		if (!o->ran)
			continue;
		KTEST_EXPECT(t, o->hog_alive, "CPU %d: SCHED_OTHER task ran "
			     "only after the FIFO-99 hog gave up (no throttling)",
			     cpu);
		KTEST_EXPECT(t, o->throttles_seen <= RUN_WITHIN_THROTTLES,
			     "CPU %d: ran after %lu throttled periods, want <= %d",
			     cpu, o->throttles_seen, RUN_WITHIN_THROTTLES);
	}
out:
	hogs_stop();
	bandwidth_restore();
}

/*
 * Scenario (throttling off: runtime -1; every CPU c): hog_c (FIFO 99,
 * bound to c) wakes other_c (SCHED_OTHER, bound to c) and spins for
 * three periods (100 ms each here), then ends its loop itself: its
 * `ended` flag.  Expected: no other_c runs before its hog's loop ended
 * (the hog owns its CPU, the documented behaviour of -1); each runs
 * after it.  The test task itself gets no CPU meanwhile.
 */
static void test_fifo99_hog_owns_its_cpu_with_throttling_off(struct ktest *t)
{
	int cpu;

	me_restore();
	bandwidth_save_and_set(100000, SCHED_RT_RUNTIME_INF_US);
	if (!hogs_start(t, 3 * period_ns()))
		goto out;
	for_each_online_cpu(cpu) {
		struct runner *o = &others[cpu];

		KTEST_EXPECT(t, runner_wait(o), "CPU %d: SCHED_OTHER task never "
			     "ran, even after the hog", cpu);
		KTEST_EXPECT(t, !o->ran || !o->hog_alive, "CPU %d: SCHED_OTHER "
			     "task ran while the FIFO-99 hog spun, throttling "
			     "off", cpu);
	}
	KTEST_EXPECT_EQ(t, sched_rt_throttled(0), false);
out:
	hogs_stop();
	bandwidth_restore();
}

/*
 * Scenario (throttling on, 100 ms / 95 ms; CPU c, the last): hog (FIFO
 * 99, bound to c) wakes irqlike (FIFO 50, PF_UNTHROTTLED, as irq threads
 * are) and plain (FIFO 50), both bound to c, and spins until stopped.
 * Expected: irqlike runs while the hog spins, within
 * RUN_WITHIN_THROTTLES throttled periods (the throttled part of the
 * period takes it); plain has not run by then -- below the hog while it
 * has runtime, throttled with it otherwise -- and runs once the hog is
 * stopped.
 */
static void test_unthrottled_task_runs_while_the_rt_class_is_throttled(struct ktest *t)
{
	int c = num_online_cpus() - 1;
	struct runner irqlike, plain;
	struct hog hog = { .task = NULL };
	bool plain_early;

	me_restore();
	bandwidth_save_and_set(100000, 95000);
	if (!runner_init(t, &irqlike, c, SCHED_FIFO, 50, true))
		goto out_restore;
	if (!runner_init(t, &plain, c, SCHED_FIFO, 50, false))
		goto out_irqlike;
	if (!hog_start(t, &hog, c, HOG_MAX_PERIODS * 10 * period_ns(),
		       &irqlike, &plain))
		goto out_plain;
	KTEST_EXPECT(t, runner_wait(&irqlike), "the PF_UNTHROTTLED task never ran");
	plain_early = READ_ONCE(plain.ran);
	hog_stop(&hog);
	KTEST_EXPECT(t, irqlike.hog_alive, "the PF_UNTHROTTLED task ran only "
		     "after the hog gave up");
	KTEST_EXPECT(t, irqlike.throttles_seen <= RUN_WITHIN_THROTTLES,
		     "the PF_UNTHROTTLED task ran after %lu throttled periods, "
		     "want <= %d", irqlike.throttles_seen, RUN_WITHIN_THROTTLES);
	KTEST_EXPECT(t, !plain_early, "the throttled FIFO 50 task ran while "
		     "the FIFO 99 hog spun");
	KTEST_EXPECT(t, runner_wait(&plain), "the FIFO 50 task never ran");
	KTEST_EXPECT(t, !plain.hog_alive, "the throttled FIFO 50 task ran while "
		     "the FIFO 99 hog spun");
out_plain:
	runner_put(&plain);
out_irqlike:
	runner_put(&irqlike);
out_restore:
	bandwidth_restore();
}

/* Linux's defaults at boot, and its rules for a change: period >= 1,
 * runtime -1 or 0..period; a refused change leaves both as they were. */
static void test_rt_bandwidth_settings_follow_linux_rules(struct ktest *t)
{
	int period, runtime;

	sched_rt_bandwidth_get(&period, &runtime);
	KTEST_EXPECT_EQ(t, period, 1000000);
	KTEST_EXPECT_EQ(t, runtime, 950000);
	KTEST_EXPECT_EQ(t, sched_rt_bandwidth_set(0, -1), -EINVAL);
	KTEST_EXPECT_EQ(t, sched_rt_bandwidth_set(100, 101), -EINVAL);
	KTEST_EXPECT_EQ(t, sched_rt_bandwidth_set(100, -2), -EINVAL);
	sched_rt_bandwidth_get(&period, &runtime);
	KTEST_EXPECT(t, period == 1000000 && runtime == 950000,
		     "a refused change changed the settings: %d/%d", period,
		     runtime);
	KTEST_EXPECT_EQ(t, sched_rt_bandwidth_set(500000, 500000), 0);
	KTEST_EXPECT_EQ(t, sched_rt_bandwidth_set(500000, -1), 0);
	KTEST_EXPECT_EQ(t, sched_rt_bandwidth_set(1000000, 950000), 0);
}

KTEST_SUITE(rt_throttle,
	    KTEST_CASE(test_rt_bandwidth_settings_follow_linux_rules),
	    KTEST_CASE(test_sched_other_runs_beside_a_fifo99_hog_on_every_cpu),
	    KTEST_CASE(test_fifo99_hog_owns_its_cpu_with_throttling_off),
	    KTEST_CASE(test_unthrottled_task_runs_while_the_rt_class_is_throttled));
