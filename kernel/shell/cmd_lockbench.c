/*
 * kernel/shell/cmd_lockbench.c - `lockbench`: what locking costs here,
 * for the issue 5 note.  Figures only: nothing passes or fails on them.
 *	[1] an uncontended spin_lock/spin_unlock pair on spinlock_t (under
 *	    rt the rt_mutex fast path: one cmpxchg each way) and on
 *	    raw_spinlock_t (ticket lock plus preempt_disable/enable)
 *	[2] a PI boost through a chain of 1, 4 and 16 locks: T0 holds L0,
 *	    Ti holds Li and waits for L(i-1); sched_setscheduler() on the
 *	    last, blocked, task walks the whole chain and re-prioritises
 *	    every owner (rt_mutex_adjust_pi).  Timed per call, alternating
 *	    FIFO 50 and 51 so each call changes every prio on the chain;
 *	    "0 locks" is the same call on a task that is not blocked.
 * Linux counterpart: none (lock_torture and rt-tests measure similar).
 */
#include "kernel/shell/shell.h"
#include "kernel/locking/spinlock.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/wait.h"
#include "kernel/time/ktime.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/vsnprintf.h"

/* Enough pairs that the two clock reads (~20-50 ns) vanish in the mean,
 * few enough to finish in well under a second under TCG. */
#define BENCH_PAIRS 200000
#define BENCH_PI_CALLS 2000
#define BENCH_MAX_DEPTH 16

static DEFINE_SPINLOCK(bench_spin);
static DEFINE_RAW_SPINLOCK(bench_raw);

static s64 bench_spin_pairs(void)
{
	ktime_t t0 = ktime_get();
	int i;

	for (i = 0; i < BENCH_PAIRS; i++) {
		spin_lock(&bench_spin);
		spin_unlock(&bench_spin);
	}
	return (ktime_get() - t0) * 1000 / BENCH_PAIRS;
}

static s64 bench_raw_pairs(void)
{
	ktime_t t0 = ktime_get();
	int i;

	for (i = 0; i < BENCH_PAIRS; i++) {
		raw_spin_lock(&bench_raw);
		raw_spin_unlock(&bench_raw);
	}
	return (ktime_get() - t0) * 1000 / BENCH_PAIRS;
}

/* The chain: task i holds lock i (i < depth) and waits for lock i - 1. */
struct bench_chain {
	int depth;
	struct rt_mutex locks[BENCH_MAX_DEPTH];
	struct task_struct *tasks[BENCH_MAX_DEPTH + 1];
	struct completion held;		/* task i holds lock i */
	struct completion release;	/* T0 may let go */
	struct completion done;		/* one per task at the end */
};

static struct bench_chain bench_chain;	/* one shell, one bench */

static int bench_chain_fn(void *data)
{
	struct bench_chain *c = &bench_chain;
	int i = (int)(long)data;

	if (i < c->depth)
		rt_mutex_lock(&c->locks[i]);
	complete(&c->held);
	if (i == 0) {
		wait_for_completion(&c->release);
	} else {
		rt_mutex_lock(&c->locks[i - 1]);
		rt_mutex_unlock(&c->locks[i - 1]);
	}
	if (i < c->depth)
		rt_mutex_unlock(&c->locks[i]);
	complete(&c->done);
	return 0;
}

/* Build a chain of depth locks, time BENCH_PI_CALLS boosts of it in ps
 * per call; < 0 on failure.  depth 0: one unblocked task. */
static s64 bench_pi_chain(int depth)
{
	struct bench_chain *c = &bench_chain;
	struct sched_param sp;
	struct task_struct *top;
	ktime_t t0, t;
	int i;

	c->depth = depth;
	init_completion(&c->held);
	init_completion(&c->release);
	init_completion(&c->done);
	for (i = 0; i < depth; i++)
		rt_mutex_init(&c->locks[i]);
	for (i = 0; i <= depth; i++) {
		c->tasks[i] = kthread_create(bench_chain_fn, (void *)(long)i,
					     "pibench/%d", i);
		if (!c->tasks[i])
			return -ENOMEM;	/* TODO: unwind; only when memory is gone */
		get_task_struct(c->tasks[i]);
		wake_up_process(c->tasks[i]);
		wait_for_completion(&c->held);
		/* wait (bounded) until it is really blocked on lock i - 1 */
		t = ktime_get() + NSEC_PER_SEC;
		while (i > 0 && !READ_ONCE(c->tasks[i]->pi_blocked_on) &&
		       ktime_get() < t)
			msleep(1);
	}
	top = c->tasks[depth];
	t0 = ktime_get();
	for (i = 0; i < BENCH_PI_CALLS; i++) {
		sp.sched_priority = 50 + (i & 1);
		sched_setscheduler(top, SCHED_FIFO, &sp);
	}
	t = ktime_get() - t0;
	if (depth > 0 && READ_ONCE(c->tasks[0]->prio) != MAX_RT_PRIO - 1 - 51)
		console_printf("lockbench: chain %d: T0 not boosted (prio %d)\n",
			       depth, c->tasks[0]->prio);
	sp.sched_priority = 0;
	sched_setscheduler(top, SCHED_OTHER, &sp);
	complete(&c->release);
	for (i = 0; i <= depth; i++)
		wait_for_completion(&c->done);
	for (i = 0; i <= depth; i++)
		put_task_struct(c->tasks[i]);
	return t * 1000 / BENCH_PI_CALLS;
}

static void bench_print(const char *what, s64 ps)
{
	console_printf("  %-44s %6lld.%03lld ns\n", what, (long long)(ps / 1000),
		       (long long)(ps % 1000));
}

static int cmd_lockbench(int argc, char **argv)
{
	static const int depths[] = { 0, 1, 4, 16 };
	char what[64];
	unsigned int i;
	s64 ps;

	console_printf("lockbench: PREEMPT_%s, uncontended pairs x%d, "
		       "chain boosts x%d\n", RTK_PREEMPT_NAME, BENCH_PAIRS,
		       BENCH_PI_CALLS);
	bench_print(SPINLOCK_SLEEPS ? "spin_lock+unlock, spinlock_t (rt_mutex)"
				    : "spin_lock+unlock, spinlock_t (raw)",
		    bench_spin_pairs());
	bench_print("raw_spin_lock+unlock, raw_spinlock_t", bench_raw_pairs());
	for (i = 0; i < ARRAY_SIZE(depths); i++) {
		ps = bench_pi_chain(depths[i]);
		if (ps < 0)
			return ps;
		snprintf(what, sizeof(what), "PI boost through %d lock%s (setsched)",
			 depths[i], depths[i] == 1 ? "" : "s");
		bench_print(what, ps);
	}
	return 0;
}
SHELL_COMMAND(lockbench, "cost of spin_lock pairs and of PI boosts through 1/4/16-lock chains",
	      cmd_lockbench);
