/*
 * kernel/workloads/torture_sched.c - scheduler torture (torture.h, kind
 * sched): wake-ups racing migrations, and global RT placement checked.
 *
 * Ping-pong pairs: two threads (one FIFO, one OTHER) hand a token back
 * and forth with wake_up_process() while the shuffler and the threads
 * themselves change their affinity (set_cpus_allowed of the partner,
 * which is waking or going to sleep).  Half the time the sleeper takes
 * a spinlock_t, contended by a hog thread, between setting its sleeping
 * state and testing the token: under rt that sleeps on the lock with
 * the state saved, and the token's wake-up must be remembered
 * (task.h, saved_state).  The checker reports a token that stays
 * unconsumed while the sleeper stays asleep for SP_LOST_NS: a lost
 * wake-up, with the sleeper's backtrace.
 *
 * RT placement: SP_RT_EXTRA more FIFO threads than CPUs, distinct
 * priorities, alternate busy and sleeping at random, shuffled.  The
 * checker samples every SP_PERIOD_US the rule "no CPU runs a lower-
 * priority task (or idles) while a higher-priority runnable RT task
 * allowed on it waits" (article, "Priority inheritance ..." on global
 * RT placement; kernel/sched/rt_placement.h): a waiting thread p and an
 * allowed CPU c running something worse is a candidate; it counts only
 * if it persists while c has taken SP_TOLERANCE_TICKS ticks (a reschedule
 * it could have used) and at least one reschedule of c, while p has
 * neither run nor moved nor changed affinity, each sample taken under
 * the run-queue locks (kernel/workloads/torture_placement.c).  Needs 2 CPUs.
 * Linux counterpart: none in mainline torture; rt-tests' rt-migrate-test
 * checks the same placement rule from user space.
 */
#include "kernel/workloads/torture_internal.h"
#include "kernel/workloads/torture_placement.h"
#include "kernel/time/ktime.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/rq.h"
#include "kernel/sched/task.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/vsnprintf.h"

#define SP_PAIRS 2
#define SP_PAIR_PRIO 20
#define SP_RT_EXTRA 1			/* RT threads = CPUs + 1 */
#define SP_RT_PRIO 41			/* 41.. : above lock torture's 1..40 */
#define SP_RT_MAX 17
#define SP_BUSY_US 1000			/* RT threads: busy 0..1 ms ... */
#define SP_SLEEP_US 3000		/* ... then asleep 1..3 ms */
#define SP_CHECKER_PRIO 95
#define SP_PERIOD_US 2000
#define SP_TOLERANCE_TICKS 3
#define SP_LOST_NS (2 * NSEC_PER_SEC)	/* asleep with the token */
#define SP_LOST_SAMPLES 10		/* ... and seen so at 10 samples */

/* The token of a sleeper: given (stored) first, then its wake-up sent;
 * only a token whose wake_up_process() has returned can be lost. */
enum { TOKEN_NONE, TOKEN_GIVEN, TOKEN_WOKEN };

struct sp_thread {
	struct sched_torture *st;
	struct task_struct *task;
	struct sp_thread *partner;	/* ping-pong only */
	struct torture_random rnd;
	int token;			/* atomic: TOKEN_* */
	int in_wait;			/* [2] of pingpong_fn, nowhere else */
	ktime_t token_at;		/* when it was given */
	bool reported;
	unsigned long ops;
	struct placement_snap cand;	/* the wait the checker follows */
	ktime_t asleep_since;		/* token woken, sleeper blocked */
	unsigned int lost_samples;	/* samples seen so since then */
	unsigned long lost_round;	/* th->ops then */
};

struct sched_torture {
	struct torture_test *tt;
	spinlock_t lock;		/* what the sleepers take, hogged */
	bool ready;			/* every thread exists */
	unsigned long violations, samples, lost;
	int nrt;			/* RT placement threads */
	int nthreads;
	struct sp_thread th[2 * SP_PAIRS + SP_RT_MAX];
};

static cpumask_t random_mask(struct torture_random *rnd)
{
	cpumask_t mask = { torture_random(rnd) & cpu_online_mask.bits };

	return mask.bits ? mask : cpu_online_mask;
}

/*
 * pingpong_fn - [1] hand the token to the partner and wake it, now and
 * then moving the partner first; [2] set our sleeping state, maybe take
 * and drop the hogged spinlock_t, sleep until our token comes; [3] take
 * it.  Context: kthread, FIFO or OTHER.  Locking: st->lock briefly.
 */
static int pingpong_fn(void *arg)
{
	struct sp_thread *th = arg, *o = th->partner;
	struct sched_torture *st = th->st;

	while (!READ_ONCE(st->ready) && !torture_must_stop())
		torture_sleep_us(1000);	/* until the partner exists */
	while (!torture_must_stop()) {
		u32 dice = torture_random(&th->rnd);

		if (dice % 8 == 0)					/* [1] */
			set_cpus_allowed(o->task, random_mask(&th->rnd));
		WRITE_ONCE(o->token_at, ktime_get());
		__atomic_store_n(&o->token, TOKEN_GIVEN, __ATOMIC_RELEASE);
		wake_up_process(o->task);
		/* only if o has not taken it meanwhile */
		__atomic_compare_exchange_n(&o->token, &(int){ TOKEN_GIVEN },
					    TOKEN_WOKEN, false, __ATOMIC_ACQ_REL,
					    __ATOMIC_RELAXED);
		WRITE_ONCE(th->in_wait, 1);
		for (;;) {						/* [2] */
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (dice % 2) {
				spin_lock(&st->lock);
				spin_unlock(&st->lock);
			}
			if (__atomic_load_n(&th->token, __ATOMIC_ACQUIRE) ||
			    torture_must_stop())
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		WRITE_ONCE(th->in_wait, 0);
		__atomic_store_n(&th->token, TOKEN_NONE, __ATOMIC_RELEASE); /* [3] */
		th->reported = false;
		th->ops++;
		torture_busy_ns(torture_random_below(&th->rnd, 20000));
	}
	return 0;
}

/* hog_fn - keeps st->lock contended so the sleepers block on it.
 * Context: kthread, OTHER. */
static int hog_fn(void *arg)
{
	struct sp_thread *th = arg;

	while (!torture_must_stop()) {
		spin_lock(&th->st->lock);
		torture_busy_ns(torture_random_below(&th->rnd, 50000));
		spin_unlock(&th->st->lock);
		th->ops++;
		torture_sleep_us(torture_random_below(&th->rnd, 100));
	}
	return 0;
}

/* rt_fn - RT placement load: busy, then asleep, at random. */
static int rt_fn(void *arg)
{
	struct sp_thread *th = arg;

	while (!torture_must_stop()) {
		torture_busy_ns((u64)torture_random_below(&th->rnd, SP_BUSY_US) *
				NSEC_PER_USEC);
		th->ops++;
		torture_sleep_us(1 + torture_random_below(&th->rnd, SP_SLEEP_US));
	}
	return 0;
}

/* check_placement - the RT rule for th's task (torture_placement.h).
 * Context: checker, may sleep. */
static void check_placement(struct sched_torture *st, struct sp_thread *th)
{
	struct task_struct *p = th->task;
	struct placement_snap now;

	if (!placement_snapshot(p, th->cand.cpu, &now)) {
		th->cand.cpu = -1;
		return;
	}
	if (!placement_same_wait(&th->cand, &now)) {
		th->cand = now;					/* a new wait */
		return;
	}
	if (!placement_violated(&th->cand, &now, SP_TOLERANCE_TICKS))
		return;
	st->violations++;
	torture_error(st->tt, "RT placement: %s (prio %d, on CPU %d's queue) "
		      "waits while CPU %d runs %s (prio %d) after a reschedule and "
		      "%d ticks", p->name, p->prio, now.queue, now.cpu,
		      now.curr_comm, now.curr_prio, SP_TOLERANCE_TICKS);
	th->cand.cpu = -1;
}

/*
 * check_token - a lost wake-up: th's sleeper is in [2] of pingpong_fn,
 * asleep (off the run queues, TASK_UNINTERRUPTIBLE, not blocked on the
 * hogged lock), although its token was stored and the wake_up_process()
 * after the store has returned (TOKEN_WOKEN).  The sleeper tests the
 * token after setting its state, the waker wakes after storing it, so
 * that state has no wake-up pending: it must never persist.  It counts
 * when seen at SP_LOST_SAMPLES samples over SP_LOST_NS in the same round
 * (th->ops unchanged).  A sleeper that starves is on a run queue, one in
 * set_cpus_allowed() or elsewhere is not in [2], a waker descheduled
 * between its store and its wake-up leaves TOKEN_GIVEN: none of these
 * counts, however long the host keeps it so.
 */
static void check_token(struct sched_torture *st, struct sp_thread *th,
			ktime_t now)
{
	struct task_struct *p = th->task;
	unsigned long round = READ_ONCE(th->ops);

	if (__atomic_load_n(&th->token, __ATOMIC_ACQUIRE) != TOKEN_WOKEN ||
	    !READ_ONCE(th->in_wait) || READ_ONCE(p->on_rq) ||
	    READ_ONCE(p->state) != TASK_UNINTERRUPTIBLE ||
	    READ_ONCE(p->pi_blocked_on) || th->lost_round != round) {
		th->asleep_since = 0;
		th->lost_samples = 0;
		th->lost_round = round;
		return;
	}
	if (!th->asleep_since)
		th->asleep_since = now;
	th->lost_samples++;
	if (th->reported || th->lost_samples < SP_LOST_SAMPLES ||
	    now - th->asleep_since < SP_LOST_NS)
		return;
	th->reported = true;
	st->lost++;
	if (torture_error(st->tt, "lost wake-up: %s asleep for %lld ms (%u "
			  "samples) with its token given and woken %lld ms "
			  "ago", p->name,
			  (now - th->asleep_since) / NSEC_PER_MSEC,
			  th->lost_samples,
			  (now - READ_ONCE(th->token_at)) / NSEC_PER_MSEC))
		torture_show_task("sleeper", p);
}

static int checker_fn(void *arg)
{
	struct sched_torture *st = arg;
	int i;

	while (!torture_must_stop()) {
		ktime_t now = ktime_get();

		for (i = 0; i < 2 * SP_PAIRS; i++)
			check_token(st, &st->th[i], now);
		if (num_online_cpus() > 1)
			for (i = 0; i < st->nrt; i++)
				check_placement(st, &st->th[2 * SP_PAIRS + 1 + i]);
		st->samples++;
		torture_sleep_us(SP_PERIOD_US);
	}
	return 0;
}

/*
 * sched_torture_init - threads in st->th: the pairs (0..2*SP_PAIRS-1),
 * the hog, the RT placement threads, then the checker.  Context: task.
 */
static int sched_torture_init(struct torture_test *tt)
{
	struct sched_torture *st = kzalloc(sizeof(*st), GFP_KERNEL);
	int i, n, ret;

	if (!st)
		return -ENOMEM;
	tt->priv = st;
	st->tt = tt;
	spin_lock_init(&st->lock);
	st->nrt = num_online_cpus() + SP_RT_EXTRA;
	if (st->nrt > SP_RT_MAX)
		st->nrt = SP_RT_MAX;
	if (num_online_cpus() < 2)
		pr_info("torture: sched: 1 CPU, the RT placement check needs "
			">= 2 CPUs: skipped (wake-ups still run)\n");
	n = 2 * SP_PAIRS + 1 + st->nrt;
	for (i = 0; i < n; i++) {
		struct sp_thread *th = &st->th[i];

		th->st = st;
		th->cand.cpu = -1;
		torture_random_init(&th->rnd, tt, i);
		if (i < 2 * SP_PAIRS)
			th->partner = &st->th[i ^ 1];
	}
	for (i = 0; i < n; i++) {
		struct sp_thread *th = &st->th[i];
		bool pair = i < 2 * SP_PAIRS, fifo = i % 2 == 0;

		if (pair)
			ret = torture_kthread(tt, pingpong_fn, th,
					      fifo ? SCHED_FIFO : SCHED_OTHER,
					      fifo ? SP_PAIR_PRIO : 0, true,
					      &th->task, "tpong/%d", i);
		else if (i == 2 * SP_PAIRS)
			ret = torture_kthread(tt, hog_fn, th, SCHED_OTHER, 0,
					      true, &th->task, "tshog");
		else
			ret = torture_kthread(tt, rt_fn, th, SCHED_FIFO,
					      SP_RT_PRIO + i, true, &th->task,
					      "trt/%d", i);
		if (ret)
			return ret;
		st->nthreads++;
	}
	WRITE_ONCE(st->ready, true);
	return torture_kthread(tt, checker_fn, st, SCHED_FIFO, SP_CHECKER_PRIO,
			       false, NULL, "tschedchk");
}

static void sched_torture_cleanup(struct torture_test *tt)
{
	kfree(tt->priv);
	tt->priv = NULL;
}

static unsigned long sched_torture_stats(struct torture_test *tt, char *buf,
					 size_t len)
{
	struct sched_torture *st = tt->priv;
	unsigned long pp = 0, rt = 0;
	int i;

	if (!st)
		return 0;
	for (i = 0; i < st->nthreads; i++) {
		if (i < 2 * SP_PAIRS)
			pp += READ_ONCE(st->th[i].ops);
		else if (i > 2 * SP_PAIRS)
			rt += READ_ONCE(st->th[i].ops);
	}
	scnprintf(buf, len, "wakeups %lu rt-bursts %lu samples %lu "
		  "placement-viol %lu lost-wake %lu", pp, rt, st->samples,
		  st->violations, st->lost);
	return pp + rt;
}

const struct torture_ops sched_torture_ops = {
	.init = sched_torture_init,
	.cleanup = sched_torture_cleanup,
	.stats = sched_torture_stats,
};
