/*
 * tests/kernel/test_sched_trace.c - the scheduling trace records what it
 * says (issue 6 item 6).
 *
 * Scenario: two SCHED_FIFO 50 threads "stping" and "stpong", both bound
 * to one CPU, hand a token back and forth ROUNDS times through two
 * completions while the trace records.  After the stop the trace must
 * hold, for each of them, switches to it and away from it, and wake-ups
 * of it; the events of one CPU come out in time order.
 */
#include "kernel/ktest.h"
#include "kernel/debug/sched_trace.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"
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

KTEST_SUITE(sched_trace,
	    KTEST_CASE(test_ping_pong_switches_are_recorded),
	    KTEST_CASE(test_stopped_trace_records_nothing));
