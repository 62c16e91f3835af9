/*
 * tests/kernel/test_sched_trace.c - the scheduling trace records what it
 * says (issue 6 item 6): context switches and wake-ups (ping-pong), PI
 * boosts, deboosts and contention (an rt_mutex inversion).
 *
 * Scenario (ping-pong): two SCHED_FIFO 50 threads "stping" and "stpong",
 * both bound to one CPU, hand a token back and forth ROUNDS times
 * through two completions while the trace records.  After the stop the
 * trace must hold, for each of them, switches to it and away from it,
 * and wake-ups of it; the events of one CPU come out in time order.
 */
#include "kernel/ktest.h"
#include "kernel/debug/sched_trace.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/wait.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"
#include "lib/string.h"

#define ROUNDS 20

static struct completion to_ping, to_pong, done;

static int ping_fn(void *arg)
{
	for (int i = 0; i < ROUNDS; i++) {
		complete(&to_pong);
		wait_for_completion(&to_ping);
	}
	complete(&done);
	return 0;
}

static int pong_fn(void *arg)
{
	for (int i = 0; i < ROUNDS; i++) {
		wait_for_completion(&to_pong);
		complete(&to_ping);
	}
	complete(&done);
	return 0;
}

struct counts {
	int pid[2];
	int in[2], out[2], woken[2];
	u64 last_ns[NR_CPUS];
	int disorder;
};

static int count_event(const struct st_event *e, void *arg)
{
	struct counts *c = arg;

	if (e->ns < c->last_ns[e->cpu])
		c->disorder++;
	c->last_ns[e->cpu] = e->ns;
	for (int i = 0; i < 2; i++) {
		if (e->type == ST_SWITCH && e->b_pid == c->pid[i])
			c->in[i]++;
		if (e->type == ST_SWITCH && e->a_pid == c->pid[i])
			c->out[i]++;
		if (e->type == ST_WAKEUP && e->a_pid == c->pid[i])
			c->woken[i]++;
	}
	return 0;
}

/* run_ping_pong - start both threads on this CPU, wait for their end;
 * their pids into pid[2].  Returns false if they cannot be created. */
static bool run_ping_pong(int *pid)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct task_struct *p[2];
	int cpu = raw_smp_processor_id();

	init_completion(&to_ping);
	init_completion(&to_pong);
	init_completion(&done);
	p[0] = kthread_create(ping_fn, NULL, "stping");
	p[1] = kthread_create(pong_fn, NULL, "stpong");
	if (!p[0] || !p[1])
		return false;
	for (int i = 0; i < 2; i++) {
		pid[i] = p[i]->pid;
		kthread_bind(p[i], cpu);
		sched_setscheduler(p[i], SCHED_FIFO, &sp);
		wake_up_process(p[i]);
	}
	wait_for_completion(&done);
	wait_for_completion(&done);
	return true;
}

static void test_ping_pong_switches_are_recorded(struct ktest *t)
{
	struct counts c = { 0 };
	int i;

	KTEST_ASSERT_EQ(t, sched_trace_start(), 0);
	KTEST_ASSERT(t, run_ping_pong(c.pid), "kthread_create failed");
	sched_trace_stop();
	sched_trace_for_each(count_event, &c);
	for (i = 0; i < 2; i++) {
		KTEST_EXPECT(t, c.in[i] >= ROUNDS / 2,
			     "%s: expected >= %d switches to it, saw %d",
			     i ? "stpong" : "stping", ROUNDS / 2, c.in[i]);
		KTEST_EXPECT(t, c.out[i] >= ROUNDS / 2,
			     "%s: expected >= %d switches away, saw %d",
			     i ? "stpong" : "stping", ROUNDS / 2, c.out[i]);
		KTEST_EXPECT(t, c.woken[i] >= 1,
			     "%s: expected wake-ups, saw %d",
			     i ? "stpong" : "stping", c.woken[i]);
	}
	KTEST_EXPECT_EQ(t, c.disorder, 0);
}

/* A ping-pong after the stop leaves no trace. */
static void test_stopped_trace_records_nothing(struct ktest *t)
{
	struct counts c = { 0 };

	KTEST_ASSERT_EQ(t, sched_trace_start(), 0);
	sched_trace_stop();
	KTEST_ASSERT(t, run_ping_pong(c.pid), "kthread_create failed");
	sched_trace_for_each(count_event, &c);
	KTEST_EXPECT(t, c.in[0] + c.out[0] + c.in[1] + c.out[1] == 0,
		     "expected no switches of the pair after the stop, saw %d",
		     c.in[0] + c.out[0] + c.in[1] + c.out[1]);
}

/*
 * Scenario (PI): "stlow" (SCHED_FIFO 10) takes rt_mutex pi_lock and
 * waits for go; "sthigh" (SCHED_FIFO 60) then blocks on pi_lock, which
 * boosts stlow from its own prio to sthigh's; the test (SCHED_OTHER)
 * waits until sthigh is really blocked, sends go, and stlow's unlock
 * deboosts it back.  Both threads are bound to the test's CPU.  An
 * rt_mutex has PI under every model (spinlock_t has it only under rt),
 * so the same events are expected everywhere: contend (sthigh on
 * stlow), boost of stlow to sthigh's prio, then a deboost of stlow to
 * its own prio.
 */
static DEFINE_RT_MUTEX(pi_lock);
static struct completion pi_locked, pi_go, pi_done;

static int pi_low_fn(void *arg)
{
	rt_mutex_lock(&pi_lock);
	complete(&pi_locked);
	wait_for_completion(&pi_go);
	rt_mutex_unlock(&pi_lock);
	complete(&pi_done);
	return 0;
}

static int pi_high_fn(void *arg)
{
	rt_mutex_lock(&pi_lock);
	rt_mutex_unlock(&pi_lock);
	complete(&pi_done);
	return 0;
}

struct pi_seen {
	int low, high;			/* pids */
	int low_prio, high_prio;	/* their own prios */
	int contend, boost, deboost;	/* matching events */
	u64 boost_ns, deboost_ns;	/* the first of each */
};

static int pi_event(const struct st_event *e, void *arg)
{
	struct pi_seen *s = arg;

	if (e->type == ST_CONTEND && e->a_pid == s->high && e->b_pid == s->low)
		s->contend++;
	if (e->type != ST_PRIO || e->a_pid != s->low)
		return 0;
	if (e->a_prio == s->low_prio && e->b_prio == s->high_prio &&
	    !s->boost++)
		s->boost_ns = e->ns;
	if (e->a_prio == s->high_prio && e->b_prio == s->low_prio &&
	    !s->deboost++)
		s->deboost_ns = e->ns;
	return 0;
}

static struct task_struct *pi_thread(int (*fn)(void *), const char *name,
				     int fifo, int cpu)
{
	struct sched_param sp = { .sched_priority = fifo };
	struct task_struct *p = kthread_create(fn, NULL, "%s", name);

	if (p) {
		kthread_bind(p, cpu);
		sched_setscheduler(p, SCHED_FIFO, &sp);
	}
	return p;
}

static void test_pi_boost_and_deboost_are_recorded(struct ktest *t)
{
	int cpu = raw_smp_processor_id();
	struct task_struct *low, *high;
	struct pi_seen s = { 0 };
	ktime_t end;

	init_completion(&pi_locked);
	init_completion(&pi_go);
	init_completion(&pi_done);
	low = pi_thread(pi_low_fn, "stlow", 10, cpu);
	high = pi_thread(pi_high_fn, "sthigh", 60, cpu);
	KTEST_ASSERT(t, low && high, "kthread_create failed");
	s.low = low->pid;
	s.high = high->pid;
	s.low_prio = low->prio;
	s.high_prio = high->prio;
	KTEST_ASSERT_EQ(t, sched_trace_start(), 0);
	wake_up_process(low);
	wait_for_completion(&pi_locked);
	wake_up_process(high);
	/* bounded: sthigh preempts us at once on this CPU and blocks */
	end = ktime_get() + NSEC_PER_SEC;
	while (!READ_ONCE(high->pi_blocked_on) && ktime_get() < end)
		msleep(1);
	KTEST_EXPECT(t, READ_ONCE(high->pi_blocked_on) != NULL,
		     "sthigh not blocked on pi_lock after 1 s");
	KTEST_EXPECT(t, READ_ONCE(low->prio) == s.high_prio,
		     "stlow's prio %d while sthigh waits, expected %d",
		     READ_ONCE(low->prio), s.high_prio);
	complete(&pi_go);
	wait_for_completion(&pi_done);
	wait_for_completion(&pi_done);
	sched_trace_stop();
	sched_trace_for_each(pi_event, &s);
	KTEST_EXPECT(t, s.contend >= 1,
		     "expected a contend event of sthigh on stlow, saw %d",
		     s.contend);
	KTEST_EXPECT(t, s.boost == 1,
		     "expected one boost of stlow %d -> %d, saw %d",
		     s.low_prio, s.high_prio, s.boost);
	KTEST_EXPECT(t, s.deboost == 1,
		     "expected one deboost of stlow %d -> %d, saw %d",
		     s.high_prio, s.low_prio, s.deboost);
	KTEST_EXPECT(t, !s.boost || !s.deboost || s.boost_ns <= s.deboost_ns,
		     "deboost at %llu ns before the boost at %llu ns",
		     (unsigned long long)s.deboost_ns,
		     (unsigned long long)s.boost_ns);
}

KTEST_SUITE(sched_trace,
	    KTEST_CASE(test_ping_pong_switches_are_recorded),
	    KTEST_CASE(test_pi_boost_and_deboost_are_recorded),
	    KTEST_CASE(test_stopped_trace_records_nothing));
