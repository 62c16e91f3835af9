/*
 * kernel/workloads/pi_stress.c - inversion groups after rt-tests' pi_stress
 * (see pi_stress.h for the interface).
 *
 * One iteration of one group, all three threads bound to the group's CPU
 * (L = FIFO 20, M = FIFO 21, H = FIFO 22):
 *
 *	low                  medium                 high
 *	                                            [0] reset the events,
 *	                                                decide quit
 *	[1] ---------------- start barrier (all three) ------------------
 *	[2] lock(G)
 *	[3] ---------------- locked barrier: G is held ------------------
 *	[4] wait for         [5] spin up to         H runs first (highest):
 *	    high_trying          MED_STEPS steps    [6] high_trying, wake
 *	                         until high_got;        low; lock(G): blocks
 *	                         else med_gave_up
 *	    with PI: boosted to 22 > 21, runs now:
 *	    unlock(G)  -------------------------->  [7] high_got; count the
 *	                                                inversion: resolved
 *	                                                unless med_gave_up
 *	                                                was already set
 *	    without PI: stays at 20 < 21: medium spins its whole bound,
 *	    sets med_gave_up, sleeps in [8]; only then low unlocks: the
 *	    inversion is counted unresolved
 *	[8] ---------------- finish barrier; high counts the iteration ---
 *
 * Medium cannot take a step while high or a boosted low is runnable on
 * its CPU, so with PI med_gave_up is never set before high_got whatever
 * the host's speed, and without PI it always is: the verdict reads the
 * order of two events, not a clock.  (Without preemption, none and
 * voluntary, medium may be the one whose wake-ups end barrier [3] and
 * keeps the CPU; its first _cond_resched() then hands it to high, one
 * step of the bound.  _cond_resched(), not cond_resched(): under none
 * the latter is no scheduling point, medium would spin its whole bound
 * before high tried and PI would have nothing to resolve - the
 * article's reason PI needs a preemptible kernel.)  Low waits for [6]
 * before unlocking so every iteration is an inversion, where rt-tests
 * leaves that to the scheduler.
 * Over 400 lines: the three threads, their barrier and the controller
 * with its watchdog are one state machine, read together.
 * Linux counterpart: rt-tests src/pi_tests/pi_stress.c (low_priority(),
 * med_priority(), high_priority(), watchdog()).
 */
#include "kernel/workloads/pi_stress.h"
#include "kernel/printk.h"
#include "kernel/locking/rtmutex.h"
#include "kernel/locking/semaphore.h"
#include "kernel/locking/spinlock.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/sched/wait.h"
#include "kernel/mm/slab.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

/* [5] medium's bound: about 2 ms of spinning, only ever run in full
 * when the inversion is not resolved */
#define PI_STRESS_MED_STEPS 100
#define PI_STRESS_MED_STEP_US 20
#define PI_STRESS_POLL_MS 100
#define PI_STRESS_ASLEEP_POLLS 10	/* 1 s of polls */

enum { PI_LOW, PI_MED, PI_HIGH, PI_NR_THREADS };

struct pi_group {
	int cpu;
	bool compat;			/* sem, else rtm */
	struct rt_mutex rtm;
	struct compat_semaphore sem;
	/* the barrier, reused for [1], [3] and [8] */
	spinlock_t barrier_lock;
	int arrived;			/* under barrier_lock */
	unsigned long generation;	/* under barrier_lock */
	wait_queue_head_t barrier_wq;
	wait_queue_head_t low_wq;	/* [4] */
	/* this iteration's events, reset by high in [0] */
	bool high_trying, high_got, med_gave_up;
	bool quit;			/* [0] high's decision, read after [1] */
	bool stop;			/* the controller's request */
	unsigned long max_iters;
	unsigned int gap_us;
	/* written by high only, read racily by the controller */
	unsigned long iters, inversions, resolved, unresolved;
	int exited;			/* threads that returned (atomic) */
	/* the controller's watchdog */
	unsigned long seen_iters;
	ktime_t progress_at;
	int asleep_polls;		/* polls in a row: late, all asleep */
	bool stuck;
	struct task_struct *task[PI_NR_THREADS];
};

/*
 * pi_barrier - wait until the group's three threads have arrived; the
 * last one to arrive wakes the others.
 * Context: task, sleeps.  Locking: takes barrier_lock; may be called
 * holding the group's lock (low at [3]).
 */
static void pi_barrier(struct pi_group *g)
{
	unsigned long gen;

	might_sleep();
	spin_lock(&g->barrier_lock);
	gen = g->generation;
	if (++g->arrived == PI_NR_THREADS) {
		g->arrived = 0;
		WRITE_ONCE(g->generation, gen + 1);
		spin_unlock(&g->barrier_lock);
		wake_up_all(&g->barrier_wq);
		return;
	}
	spin_unlock(&g->barrier_lock);
	wait_event(g->barrier_wq, READ_ONCE(g->generation) != gen);
}

static void pi_group_lock(struct pi_group *g)
{
	if (g->compat)
		compat_down(&g->sem);
	else
		rt_mutex_lock(&g->rtm);
}

/* pi_group_trylock - true if the lock was taken. */
static bool pi_group_trylock(struct pi_group *g)
{
	if (g->compat)
		return compat_down_trylock(&g->sem) == 0;
	return rt_mutex_trylock(&g->rtm);
}

static void pi_group_unlock(struct pi_group *g)
{
	if (g->compat)
		compat_up(&g->sem);
	else
		rt_mutex_unlock(&g->rtm);
}

static int pi_thread_exit(struct pi_group *g)
{
	__atomic_add_fetch(&g->exited, 1, __ATOMIC_RELEASE);
	return 0;
}

static int pi_low_fn(void *arg)
{
	struct pi_group *g = arg;

	for (;;) {
		pi_barrier(g);					/* [1] */
		if (READ_ONCE(g->quit))
			break;
		pi_group_lock(g);				/* [2] */
		pi_barrier(g);					/* [3] */
		wait_event(g->low_wq, READ_ONCE(g->high_trying));	/* [4] */
		pi_group_unlock(g);
		pi_barrier(g);					/* [8] */
	}
	return pi_thread_exit(g);
}

static int pi_med_fn(void *arg)
{
	struct pi_group *g = arg;
	int i;

	for (;;) {
		pi_barrier(g);					/* [1] */
		if (READ_ONCE(g->quit))
			break;
		pi_barrier(g);					/* [3] */
		for (i = 0; i < PI_STRESS_MED_STEPS &&			/* [5] */
			    !READ_ONCE(g->high_got); i++) {
			udelay(PI_STRESS_MED_STEP_US);
			_cond_resched();	/* a point in every model */
		}
		if (!READ_ONCE(g->high_got))
			WRITE_ONCE(g->med_gave_up, true);
		pi_barrier(g);					/* [8] */
	}
	return pi_thread_exit(g);
}

static int pi_high_fn(void *arg)
{
	struct pi_group *g = arg;
	bool inversion;

	for (;;) {
		if (g->gap_us && g->iters)
			schedule_timeout_uninterruptible((s64)g->gap_us *
							 NSEC_PER_USEC);
		WRITE_ONCE(g->high_trying, false);			/* [0] */
		WRITE_ONCE(g->high_got, false);
		WRITE_ONCE(g->med_gave_up, false);
		WRITE_ONCE(g->quit, READ_ONCE(g->stop) ||
				    (g->max_iters && g->iters >= g->max_iters));
		pi_barrier(g);					/* [1] */
		if (READ_ONCE(g->quit))
			break;
		pi_barrier(g);					/* [3] */
		WRITE_ONCE(g->high_trying, true);			/* [6] */
		wake_up(&g->low_wq);
		inversion = !pi_group_trylock(g);
		if (inversion)
			pi_group_lock(g);
		WRITE_ONCE(g->high_got, true);				/* [7] */
		if (inversion) {
			WRITE_ONCE(g->inversions, g->inversions + 1);
			if (READ_ONCE(g->med_gave_up))
				WRITE_ONCE(g->unresolved, g->unresolved + 1);
			else
				WRITE_ONCE(g->resolved, g->resolved + 1);
		}
		pi_group_unlock(g);
		pi_barrier(g);					/* [8] */
		WRITE_ONCE(g->iters, g->iters + 1);
	}
	return pi_thread_exit(g);
}

static int (*const pi_thread_fn[PI_NR_THREADS])(void *) = {
	[PI_LOW] = pi_low_fn, [PI_MED] = pi_med_fn, [PI_HIGH] = pi_high_fn,
};
static const char *const pi_thread_name[PI_NR_THREADS] = {
	[PI_LOW] = "pi_low", [PI_MED] = "pi_med", [PI_HIGH] = "pi_high",
};
static const int pi_thread_prio[PI_NR_THREADS] = {
	[PI_LOW] = PI_STRESS_PRIO_LOW,
	[PI_MED] = PI_STRESS_PRIO_MED,
	[PI_HIGH] = PI_STRESS_PRIO_HIGH,
};

static void pi_group_init(struct pi_group *g, int cpu,
			  const struct pi_stress_opts *o)
{
	g->cpu = cpu;
	g->compat = o->compat;
	rt_mutex_init(&g->rtm);
	compat_sema_init(&g->sem, 1);
	spin_lock_init(&g->barrier_lock);
	init_waitqueue_head(&g->barrier_wq);
	init_waitqueue_head(&g->low_wq);
	g->max_iters = o->iterations;
	g->gap_us = o->gap_us;
}

/*
 * pi_create_threads - create (not start) every group's three threads,
 * bound to the group's CPU at their priority, each with a reference.
 * On a failure stop and put the ones created: a thread stopped before
 * it started never runs its function.  Returns 0 or -ENOMEM.
 * Context: task, sleeps.
 */
static int pi_create_threads(struct pi_group *grp, int n,
			     const struct pi_stress_opts *o)
{
	int i, k, made = 0;

	might_sleep();
	for (i = 0; i < n; i++) {
		for (k = 0; k < PI_NR_THREADS; k++) {
			struct sched_param sp = {
				.sched_priority = pi_thread_prio[k],
			};
			struct task_struct *p = NULL;

			if (++made != o->fail_create_at)
				p = kthread_create(pi_thread_fn[k], &grp[i],
						   "%s/%d", pi_thread_name[k],
						   i);
			if (!p)
				goto out_unwind;
			kthread_bind(p, grp[i].cpu);
			sched_setscheduler(p, SCHED_FIFO, &sp);
			get_task_struct(p);
			grp[i].task[k] = p;
		}
	}
	return 0;

out_unwind:
	for (i = 0; i < n; i++)
		for (k = 0; k < PI_NR_THREADS; k++) {
			if (!grp[i].task[k])
				continue;
			kthread_stop(grp[i].task[k]);
			put_task_struct(grp[i].task[k]);
			grp[i].task[k] = NULL;
		}
	return -ENOMEM;
}

static unsigned long pi_sum_inversions(struct pi_group *grp, int n)
{
	unsigned long sum = 0;

	for (int i = 0; i < n; i++)
		sum += READ_ONCE(grp[i].inversions);
	return sum;
}

/* pi_group_asleep - none of g's threads is runnable (each sleeps in a
 * barrier, a wait or on the lock): racy reads, which is why pi_watch
 * wants PI_STRESS_ASLEEP_POLLS of them in a row. */
static bool pi_group_asleep(struct pi_group *g)
{
	for (int k = 0; k < PI_NR_THREADS; k++)
		if (READ_ONCE(g->task[k]->state) == TASK_RUNNING)
			return false;
	return true;
}

/* pi_report_stuck - what a stuck group was doing, for the report. */
static void pi_report_stuck(struct pi_group *g, int id)
{
	printk(KERN_ERR "pi_stress: group %d (CPU %d) stuck after %lu "
	       "iterations: states low %#lx med %#lx high %#lx, barrier "
	       "%d/%d gen %lu, high_trying %d high_got %d med_gave_up %d\n",
	       id, g->cpu, READ_ONCE(g->iters),
	       (unsigned long)g->task[PI_LOW]->state,
	       (unsigned long)g->task[PI_MED]->state,
	       (unsigned long)g->task[PI_HIGH]->state, READ_ONCE(g->arrived),
	       PI_NR_THREADS, READ_ONCE(g->generation),
	       READ_ONCE(g->high_trying), READ_ONCE(g->high_got),
	       READ_ONCE(g->med_gave_up));
}

/*
 * pi_watch - one watchdog pass: a group that has not exited, whose
 * iteration count has not moved for PI_STRESS_WATCHDOG_NS and whose
 * three threads were all asleep at PI_STRESS_ASLEEP_POLLS polls in a
 * row is stuck: nobody can wake them (a deadlock, a lost wake-up).  A
 * late group with a runnable thread is only starved (higher-priority
 * work on its CPU: the soak's torture threads, cyclictest) and goes on
 * being watched.  Returns how many groups are still running (not
 * exited, not stuck); *stuck gets how many are stuck.
 */
static int pi_watch(struct pi_group *grp, int n, ktime_t now, int *stuck)
{
	int running = 0;

	*stuck = 0;
	for (int i = 0; i < n; i++) {
		struct pi_group *g = &grp[i];
		unsigned long it = READ_ONCE(g->iters);

		if (g->stuck)
			(*stuck)++;
		if (g->stuck ||
		    __atomic_load_n(&g->exited, __ATOMIC_ACQUIRE) ==
			    PI_NR_THREADS)
			continue;
		if (it != g->seen_iters) {
			g->seen_iters = it;
			g->progress_at = now;
			g->asleep_polls = 0;
		} else if (now - g->progress_at > PI_STRESS_WATCHDOG_NS &&
			   pi_group_asleep(g)) {
			if (++g->asleep_polls >= PI_STRESS_ASLEEP_POLLS) {
				pi_report_stuck(g, i);
				g->stuck = true;
				(*stuck)++;
				continue;
			}
		} else {
			g->asleep_polls = 0;
		}
		running++;
	}
	return running;
}

/*
 * pi_stress_run - see pi_stress.h.
 *   [1] check the options, allocate and initialise the groups, one per
 *       CPU round-robin; raise the caller to PI_STRESS_PRIO_CONTROL;
 *   [2] create every thread before starting any (a failure unwinds
 *       without a group half started: a group missing a thread would
 *       wait in its first barrier for ever);
 *   [3] start them all;
 *   [4] every PI_STRESS_POLL_MS: the watchdog pass, the time limit and
 *       should_stop(), a stuck group (the others are stopped then), a
 *       progress line about every second; until every group exited or
 *       is stuck;
 *   [5] join the threads of the groups that exited, add up the counts;
 *       a stuck group's threads and the groups' memory stay (a thread
 *       blocked for ever still points into them).
 */
int pi_stress_run(const struct pi_stress_opts *o, struct pi_stress_result *res)
{
	int n = o->groups ? o->groups : num_online_cpus();
	struct pi_group *grp;
	ktime_t start, now, next_emit;
	bool stopping = false;
	struct sched_param control = { .sched_priority = PI_STRESS_PRIO_CONTROL };
	struct sched_param old_param;
	int old_policy;
	char line[64];
	int i, k, err, stuck;

	might_sleep();
	memset(res, 0, sizeof(*res));
	if (n < 1 || n > PI_STRESS_MAX_GROUPS)				/* [1] */
		return -EINVAL;
	grp = kzalloc(sizeof(*grp) * n, GFP_KERNEL);
	if (!grp)
		return -ENOMEM;
	old_policy = current->policy;
	old_param.sched_priority = current->rt_priority;
	sched_setscheduler(current, SCHED_FIFO, &control);
	for (i = 0; i < n; i++)
		pi_group_init(&grp[i], i % num_online_cpus(), o);
	err = pi_create_threads(grp, n, o);				/* [2] */
	if (err)
		goto out_free;
	start = next_emit = ktime_get();
	for (i = 0; i < n; i++) {					/* [3] */
		grp[i].progress_at = start;
		for (k = 0; k < PI_NR_THREADS; k++)
			wake_up_process(grp[i].task[k]);
	}
	for (;;) {							/* [4] */
		msleep(PI_STRESS_POLL_MS);
		now = ktime_get();
		if (!pi_watch(grp, n, now, &stuck))
			break;
		if (!stopping &&
		    (stuck ||
		     (o->seconds && now - start >= o->seconds * NSEC_PER_SEC) ||
		     (o->should_stop && o->should_stop()))) {
			stopping = true;
			for (i = 0; i < n; i++)
				WRITE_ONCE(grp[i].stop, true);
		}
		if (o->emit && now >= next_emit) {
			snprintf(line, sizeof(line), "Current Inversions: %lu",
				 pi_sum_inversions(grp, n));
			o->emit(o->ctx, line);
			next_emit = now + NSEC_PER_SEC;
		}
	}
	res->groups = n;						/* [5] */
	res->seconds = (ktime_get() - start + NSEC_PER_SEC / 2) / NSEC_PER_SEC;
	for (i = 0; i < n; i++) {
		struct pi_group *g = &grp[i];

		res->iterations += g->iters;
		res->inversions += g->inversions;
		res->resolved += g->resolved;
		res->unresolved += g->unresolved;
		if (g->stuck) {
			res->deadlocks++;
			continue;
		}
		for (k = 0; k < PI_NR_THREADS; k++) {
			kthread_stop(g->task[k]);
			put_task_struct(g->task[k]);
		}
	}
	if (res->deadlocks) {
		err = -EDEADLK;		/* grp stays: stuck threads use it */
		goto out_prio;
	}
	err = 0;
out_free:
	for (i = 0; i < n; i++)
		rt_mutex_destroy(&grp[i].rtm);
	kfree(grp);
out_prio:
	sched_setscheduler(current, old_policy, &old_param);
	return err;
}

bool pi_stress_passed(const struct pi_stress_result *res)
{
	return res->iterations > 0 && res->deadlocks == 0 &&
	       res->unresolved == 0;
}

char *pi_stress_verdict(char *buf, size_t size,
			const struct pi_stress_result *res)
{
	snprintf(buf, size,
		 "pi_stress-verdict: groups=%d inversions=%lu unresolved=%lu "
		 "deadlocks=%d result=%s",
		 res->groups, res->inversions, res->unresolved,
		 res->deadlocks, pi_stress_passed(res) ? "PASS" : "FAIL");
	return buf;
}
