/*
 * kernel/workloads/torture.c - the torture framework (torture.h): the table
 * of kinds, one run at a time, its threads, the CPU shuffler, the
 * control thread that prints statistics and the verdict, the PRNG and
 * the error reports the kinds share (torture_internal.h).
 *
 * A run goes:
 *	[1] torture_start checks the kind and claims the run (-EBUSY);
 *	[2] every test of the kind creates its threads (init);
 *	[3] the shuffler (>= 2 CPUs) and the control thread start;
 *	[4] the control thread sleeps to the deadline or torture_stop,
 *	    printing statistics every torture.stat_interval seconds;
 *	[5] it sets run.stopping, kthread_stops every thread newest first
 *	    (checkers and the shuffler before the workers they look at),
 *	    calls every test's cleanup (final checks) and prints the
 *	    statistics and the verdict line;
 *	[6] torture_wait reaps the control thread and frees the run.
 * A failure in [2] or [3] unwinds through [5] without a verdict.
 *
 * Parameters: torture.seed=N (default: the clock at the start; printed,
 * so a failing run can be retried with the same seed - the interleaving
 * still depends on timing), torture.stat_interval=S (0: only at the end).
 * Linux counterpart: kernel/torture.c (torture_random, torture_shuffle,
 * torture_stutter left out, torture_must_stop, torture_kthread_stopping).
 * Longer than 400 lines because the run's life cycle [1]-[6] reads best
 * in one file: the stop watchdog ([5], a thread that ignores the stop is
 * named with its backtrace) belongs to the same steps.
 */
#include "kernel/workloads/torture_internal.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/rt_bandwidth.h"
#include "kernel/sched/task.h"
#include "kernel/sched/wait.h"
#include "kernel/time/ktime.h"
#include "kernel/cmdline.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"
#include "lib/bug.h"
#include <stdarg.h>

#define CONTROL_PRIO 98		/* above every worker: keeps the timeline */
#define CONTROL_TICK_NS (100 * NSEC_PER_MSEC)	/* stop/ctrl-C latency */
#define STOP_WARN_POLLS 100	/* 10 s of polls: a thread that ignores the stop */

static const struct torture_kind {
	const char *name;
	const struct torture_ops *ops;
	int type;
} torture_kinds[] = {
	{ "lock:spinlock", &lock_torture_ops, TORTURE_SPINLOCK },
	{ "lock:raw_spinlock", &lock_torture_ops, TORTURE_RAW_SPINLOCK },
	{ "lock:rwlock", &lock_torture_ops, TORTURE_RWLOCK },
	{ "lock:rt_mutex", &lock_torture_ops, TORTURE_RT_MUTEX },
	{ "lock:semaphore", &lock_torture_ops, TORTURE_SEMAPHORE },
	{ "lock:rwsem", &lock_torture_ops, TORTURE_RWSEM },
	{ "lock:seqlock", &lock_torture_ops, TORTURE_SEQLOCK },
	{ "lock:percpu_locked", &lock_torture_ops, TORTURE_PERCPU_LOCKED },
	{ "rcu", &rcu_torture_ops, 0 },
	{ "sched", &sched_torture_ops, 0 },
	{ "timer", &timer_torture_ops, 0 },
};

enum run_state { RUN_IDLE, RUN_ACTIVE };

struct torture_thread {
	struct task_struct *task;
	bool shuffle;			/* the shuffler may move it */
};

/* The one run: claimed by torture_start (state, cmpxchg), then written
 * by torture_start and the control thread, which hands it back to
 * torture_wait by exiting. */
static struct {
	int state;			/* enum run_state, cmpxchg */
	const char *kind;		/* the kind as given (a table name) */
	unsigned int seconds;
	u64 seed;
	bool stopping;			/* the threads leave their loops */
	bool stop_requested;		/* torture_stop() */
	ktime_t started;
	unsigned int elapsed_s;		/* set at the end */
	unsigned long ops, errors;	/* totals, set at the end */
	int nr_tests;			/* initialised so far */
	int nr_selected;		/* the kind's tests */
	struct torture_test tests[TORTURE_MAX_TESTS];
	int nr_threads;			/* under the creator (one at a time) */
	struct torture_thread threads[TORTURE_MAX_THREADS];
	struct task_struct *control;	/* counted reference */
	int rt_period_us, rt_runtime_us; /* RT bandwidth before the run */
} run;

/*
 * rt_throttling_off / rt_throttling_restore - a run turns RT throttling
 * off (runtime -1, kernel/sched/rt_bandwidth.h) from its start to its
 * verdict, and puts the settings back: its RT workers may take a CPU for
 * more than the runtime, and the placement and starvation checks hold
 * the scheduler to "the most important runnable RT tasks run", which a
 * throttled CPU rightly breaks.  Linux's RT test suites run the same
 * way (rt-tests' docs; stalld turns throttling off while it runs).
 */
static void rt_throttling_off(void)
{
	sched_rt_bandwidth_get(&run.rt_period_us, &run.rt_runtime_us);
	WARN_ON(sched_rt_bandwidth_set(run.rt_period_us,
				       SCHED_RT_RUNTIME_INF_US));
}

static void rt_throttling_restore(void)
{
	WARN_ON(sched_rt_bandwidth_set(run.rt_period_us, run.rt_runtime_us));
}

static unsigned long seed_param;	/* torture.seed=, 0: clock */
static unsigned long stat_interval_s = 10;	/* torture.stat_interval= */
/* torture.shuffle_us=: the shuffler's gap is 0..this (0: no shuffler) */
static unsigned long shuffle_max_us = 20000;

/* parse_ulong_max - val as a number in 0..max into *out (left alone on
 * an error), or -errno. */
static int __init parse_ulong_max(const char *val, unsigned long max,
				  unsigned long *out)
{
	unsigned long v;
	int ret = val ? kstrtoul(val, 0, &v) : -EINVAL;

	if (!ret && v > max)
		ret = -ERANGE;
	if (!ret)
		*out = v;
	return ret;
}

static int __init parse_torture_seed(const char *val)
{
	return parse_ulong_max(val, ~0UL, &seed_param);
}
CMDLINE_PARAM("torture.seed", parse_torture_seed);

static int __init parse_torture_stat_interval(const char *val)
{
	return parse_ulong_max(val, TORTURE_MAX_SECONDS, &stat_interval_s);
}
CMDLINE_PARAM("torture.stat_interval", parse_torture_stat_interval);

static int __init parse_torture_shuffle(const char *val)
{
	return parse_ulong_max(val, 10 * 1000 * 1000, &shuffle_max_us); /* 10 s */
}
CMDLINE_PARAM("torture.shuffle_us", parse_torture_shuffle);

/* splitmix64: turns related seeds (seed + salt) into unrelated states. */
static u64 mix64(u64 z)
{
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void torture_random_init(struct torture_random *r,
			 const struct torture_test *tt, unsigned long salt)
{
	r->state = mix64(tt->seed + salt) | 1;	/* xorshift needs != 0 */
}

u32 torture_random(struct torture_random *r)
{
	u64 x = r->state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->state = x;
	return (u32)((x * 0x2545f4914f6cdd1dULL) >> 32);
}

int torture_nr_tests(void)
{
	return run.nr_selected;
}

bool torture_must_stop(void)
{
	return READ_ONCE(run.stopping) || kthread_should_stop();
}

void torture_sleep_us(unsigned int us)
{
	might_sleep();
	if (!us) {
		_cond_resched();
		return;
	}
	schedule_timeout_uninterruptible((s64)us * NSEC_PER_USEC);
}

void torture_busy_ns(u64 ns)
{
	ktime_t end = ktime_get() + (s64)ns;

	while (ktime_get() < end)
		arch_cpu_relax();
}

bool torture_error(struct torture_test *tt, const char *fmt, ...)
{
	unsigned long n = __atomic_add_fetch(&tt->errors, 1, __ATOMIC_RELAXED);
	char buf[160];
	va_list ap;

	if (n > TORTURE_MAX_REPORTS)
		return false;
	va_start(ap, fmt);
	vscnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pr_err("torture: %s: ERROR %lu: %s (seed %#llx)%s\n", tt->name, n, buf,
	       (unsigned long long)tt->seed,
	       n == TORTURE_MAX_REPORTS ? " - further errors only counted" : "");
	return true;
}

void torture_show_task(const char *role, struct task_struct *p)
{
	pr_err("  %s: %s pid %d state %#lx prio %d cpu %d%s\n", role, p->name,
	       p->pid, (unsigned long)READ_ONCE(p->state), READ_ONCE(p->prio),
	       task_cpu(p), READ_ONCE(p->on_cpu) ? " (running)" : "");
	if (!READ_ONCE(p->on_cpu))
		arch_show_backtrace(arch_switched_frame_pointer(READ_ONCE(p->sp)));
}

int torture_kthread(struct torture_test *tt, int (*fn)(void *arg), void *arg,
		    int policy, int rt_prio, bool shuffle,
		    struct task_struct **out, const char *fmt, ...)
{
	struct sched_param sp = { .sched_priority = rt_prio };
	struct task_struct *p;
	char name[TASK_COMM_LEN];
	va_list ap;
	int ret;

	might_sleep();
	if (run.nr_threads == TORTURE_MAX_THREADS) {
		pr_err("torture: %s: more than %d threads\n", tt->name,
		       TORTURE_MAX_THREADS);
		return -EBUSY;
	}
	va_start(ap, fmt);
	vscnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	p = kthread_create(fn, arg, "%s", name);
	if (!p) {
		pr_err("torture: %s: cannot create thread %s\n", tt->name, name);
		return -ENOMEM;
	}
	/* recorded before it runs: the unwind stops it whatever happens;
	 * counted, because the thread may leave its loop (run.stopping)
	 * and exit before stop_threads gets to its kthread_stop */
	run.threads[run.nr_threads].task = get_task_struct(p);
	run.threads[run.nr_threads].shuffle = shuffle;
	run.nr_threads++;
	if (out)
		*out = p;
	ret = sched_setscheduler(p, policy, &sp);
	if (ret)
		return ret;
	wake_up_process(p);
	return 0;
}

/*
 * wait_thread_exit - [5] wake p (it sees run.stopping) and wait until it
 * has left its function, polling every CONTROL_TICK_NS; after
 * STOP_WARN_POLLS polls of our own (a count of our own progress, not of
 * wall time: a host that deschedules this vCPU delays the warning, it
 * does not fake one) print p with its backtrace once: a torture thread
 * that does not come back is stuck in a lock or wait nobody ends (a lost
 * wake-up) or loops without torture_must_stop(), and a silent
 * kthread_stop would hide which.  Context: the control thread.
 */
static void wait_thread_exit(struct task_struct *p)
{
	unsigned int polls = 0;

	might_sleep();
	wake_up_process(p);
	while (!kthread_exited(p)) {
		if (++polls == STOP_WARN_POLLS) {
			pr_err("torture: %s has not left its loop %u polls "
			       "after the stop:\n", p->name, polls);
			torture_show_task("stuck", p);
		}
		schedule_timeout_uninterruptible(CONTROL_TICK_NS);
	}
	if (polls >= STOP_WARN_POLLS)
		pr_err("torture: %s exited after %u polls\n", p->name, polls);
}

/* stop_threads - [5] every thread, newest first; watch: every thread was
 * woken (a run, not the unwind of a failed start, whose threads may
 * never have started), so wait_thread_exit may wait for each to leave.
 * Context: task. */
static void stop_threads(bool watch)
{
	WRITE_ONCE(run.stopping, true);
	while (run.nr_threads > 0) {
		run.nr_threads--;
		if (watch)
			wait_thread_exit(run.threads[run.nr_threads].task);
		kthread_stop(run.threads[run.nr_threads].task);
		put_task_struct(run.threads[run.nr_threads].task);
		run.threads[run.nr_threads].task = NULL;
	}
}

static void cleanup_tests(void)
{
	int i;

	for (i = 0; i < run.nr_tests; i++)
		run.tests[i].ops->cleanup(&run.tests[i]);
}

/* print_stats - one line per test; returns the ops of all of them. */
static unsigned long print_stats(const char *when)
{
	unsigned long ops = 0;
	char buf[200];
	int i;

	for (i = 0; i < run.nr_tests; i++) {
		struct torture_test *tt = &run.tests[i];

		buf[0] = '\0';
		ops += tt->ops->stats(tt, buf, sizeof(buf));
		pr_info("torture: %s %s: %s errors %lu\n", when, tt->name, buf,
			READ_ONCE(tt->errors));
	}
	return ops;
}

/*
 * shuffle_fn - move a random shuffled thread to a random non-empty set
 * of online CPUs (one CPU half the time), every 0..SHUFFLE_MAX_US: the
 * migrations race the threads' own wake-ups and lock hand-offs.
 * Context: kthread.  Locking: none (set_cpus_allowed takes its own).
 */
static int shuffle_fn(void *arg)
{
	struct torture_random rnd;
	int online = num_online_cpus();

	torture_random_init(&rnd, &run.tests[0], 0x5f);
	while (!torture_must_stop()) {
		struct torture_thread *t =
			&run.threads[torture_random_below(&rnd, (u32)(long)arg)];
		cpumask_t mask = { 0 };

		if (t->shuffle) {
			if (torture_random(&rnd) & 1) {
				cpumask_set_cpu(nth_online_cpu(torture_random_below(
							&rnd, online)),
						&mask);
			} else {
				mask.bits = torture_random(&rnd) &
					    cpu_online_mask.bits;
				if (!mask.bits)
					mask = cpu_online_mask;
			}
			set_cpus_allowed(t->task, mask);
		}
		torture_sleep_us(torture_random_below(&rnd, shuffle_max_us));
	}
	return 0;
}

/* control_fn - [4] and [5].  Context: kthread, SCHED_FIFO CONTROL_PRIO. */
static int control_fn(void *unused)
{
	ktime_t end = run.started + (s64)run.seconds * NSEC_PER_SEC;
	ktime_t next = run.started + (s64)stat_interval_s * NSEC_PER_SEC;
	ktime_t now;
	int i;

	while (!READ_ONCE(run.stop_requested) && (now = ktime_get()) < end) {
		schedule_timeout_uninterruptible(
			end - now < CONTROL_TICK_NS ? end - now : CONTROL_TICK_NS);
		if (stat_interval_s && ktime_get() >= next) {		/* [4] */
			print_stats("stats");
			next += (s64)stat_interval_s * NSEC_PER_SEC;
		}
	}
	pr_info("torture: stopping %d threads\n", run.nr_threads);
	stop_threads(true);						/* [5] */
	pr_info("torture: threads stopped, final checks\n");
	run.elapsed_s = (unsigned int)((ktime_get() - run.started +
					NSEC_PER_SEC / 2) / NSEC_PER_SEC);
	run.ops = print_stats("end");
	cleanup_tests();	/* its final checks may add errors */
	run.errors = 0;
	for (i = 0; i < run.nr_tests; i++)
		run.errors += READ_ONCE(run.tests[i].errors);
	pr_info("torture-verdict: kind=%s seconds=%u ops=%lu errors=%lu "
		"result=%s\n", run.kind, run.elapsed_s, run.ops, run.errors,
		run.errors ? "FAIL" : "PASS");
	rt_throttling_restore();	/* pairs with torture_start's */
	return 0;
}

static bool kind_selects(const char *kind, const char *name)
{
	if (!strcmp(kind, "all"))
		return true;
	if (!strcmp(kind, "lock"))
		return !strncmp(name, "lock:", 5);
	return !strcmp(kind, name);
}

const char *torture_kinds_help(void)
{
	return "all, lock, lock:spinlock, lock:raw_spinlock, lock:rwlock, "
	       "lock:rt_mutex, lock:semaphore, lock:rwsem, lock:seqlock, "
	       "lock:percpu_locked, rcu, sched, timer";
}

/* kind_name - the table's copy of kind (it outlives the caller's). */
static const char *kind_name(const char *kind)
{
	size_t i;

	if (!strcmp(kind, "all"))
		return "all";
	if (!strcmp(kind, "lock"))
		return "lock";
	for (i = 0; i < ARRAY_SIZE(torture_kinds); i++)
		if (!strcmp(kind, torture_kinds[i].name))
			return torture_kinds[i].name;
	return NULL;
}

int torture_start(const char *kind, unsigned int seconds)
{
	const char *name = kind ? kind_name(kind) : NULL;
	int expected = RUN_IDLE, ret = 0;
	size_t i;

	might_sleep();
	if (!name || seconds < 1 || seconds > TORTURE_MAX_SECONDS) {	/* [1] */
		pr_err("torture: unknown kind '%s' or seconds %u not in "
		       "1..%u; kinds: %s\n", kind ? kind : "(null)", seconds,
		       TORTURE_MAX_SECONDS, torture_kinds_help());
		return -EINVAL;
	}
	if (!__atomic_compare_exchange_n(&run.state, &expected, RUN_ACTIVE,
					 false, __ATOMIC_ACQ_REL,
					 __ATOMIC_RELAXED))
		return -EBUSY;
	run.kind = name;
	run.seconds = seconds;
	run.seed = seed_param ? seed_param : (u64)ktime_get();
	run.stopping = false;
	run.stop_requested = false;
	run.nr_tests = 0;
	run.nr_threads = 0;
	run.started = ktime_get();
	run.nr_selected = 0;
	for (i = 0; i < ARRAY_SIZE(torture_kinds); i++)
		run.nr_selected += kind_selects(name, torture_kinds[i].name);
	rt_throttling_off();	/* restored after the verdict or unwind */
	pr_info("torture: start kind=%s seconds=%u seed=%#llx cpus=%d "
		"(torture.seed=%#llx repeats the seeds)\n", name, seconds,
		(unsigned long long)run.seed, num_online_cpus(),
		(unsigned long long)run.seed);
	for (i = 0; i < ARRAY_SIZE(torture_kinds); i++) {		/* [2] */
		const struct torture_kind *k = &torture_kinds[i];
		struct torture_test *tt;

		if (!kind_selects(name, k->name))
			continue;
		tt = &run.tests[run.nr_tests++];
		memset(tt, 0, sizeof(*tt));
		tt->name = k->name;
		tt->ops = k->ops;
		tt->type = k->type;
		tt->seed = mix64(run.seed ^ (i + 1));
		ret = tt->ops->init(tt);
		if (ret)
			goto out_unwind;
	}
	if (num_online_cpus() > 1 && run.nr_threads && shuffle_max_us) { /* [3] */
		ret = torture_kthread(&run.tests[0], shuffle_fn,
				      (void *)(long)run.nr_threads, SCHED_OTHER,
				      0, false, NULL, "tshuffle");
		if (ret)
			goto out_unwind;
	}
	run.control = kthread_create(control_fn, NULL, "tcontrol");
	if (!run.control) {
		ret = -ENOMEM;
		goto out_unwind;
	}
	get_task_struct(run.control);
	sched_setscheduler(run.control, SCHED_FIFO,
			   &(struct sched_param){ .sched_priority = CONTROL_PRIO });
	wake_up_process(run.control);
	return 0;

out_unwind:
	pr_err("torture: %s: start failed (%d), unwinding\n", name, ret);
	stop_threads(false);
	cleanup_tests();
	rt_throttling_restore();
	__atomic_store_n(&run.state, RUN_IDLE, __ATOMIC_RELEASE);
	return ret;
}

int torture_wait(struct torture_summary *sum)
{
	might_sleep();
	if (__atomic_load_n(&run.state, __ATOMIC_ACQUIRE) != RUN_ACTIVE ||
	    !run.control)
		return -ENOENT;
	kthread_stop(run.control);	/* returns once control_fn did [5] */
	put_task_struct(run.control);
	run.control = NULL;
	if (sum) {
		sum->kind = run.kind;
		sum->seconds = run.elapsed_s;
		sum->ops = run.ops;
		sum->errors = run.errors;
	}
	__atomic_store_n(&run.state, RUN_IDLE, __ATOMIC_RELEASE);
	return run.errors ? -EIO : 0;
}

void torture_stop(void)
{
	WRITE_ONCE(run.stop_requested, true);
}

bool torture_done(void)
{
	struct task_struct *c = READ_ONCE(run.control);

	return !c || kthread_exited(c);
}
