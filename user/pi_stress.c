/*
 * user/pi_stress.c - rt-tests' pi_stress as a user program: "inversion
 * groups" of three SCHED_FIFO threads pinned to one CPU each, setting up
 * a priority inversion on a pthread mutex over and over and counting
 * how each one ends.  The same state machine as rtk's in-kernel
 * pi_stress (kernel/workloads/pi_stress.c), on user-space primitives: the
 * group's lock is a PTHREAD_PRIO_INHERIT mutex (the PI futex), or with
 * --no-pi a plain futex mutex, and the barrier a pthread barrier.
 *
 *	pi_stress [--groups N] [--duration S | --inversions N] [--no-pi]
 *
 * One iteration of one group (L = FIFO 20, M = FIFO 21, H = FIFO 22,
 * all on the group's CPU):
 *
 *	low                  medium                 high
 *	                                            [0] reset the events,
 *	                                                decide quit
 *	[1] ---------------- start barrier (all three) ------------------
 *	[2] lock(G)
 *	[3] ---------------- locked barrier: G is held ------------------
 *	[4] wait for         [5] spin up to         H runs first (highest):
 *	    high_trying          MED_STEPS x 20 us  [6] high_trying, wake
 *	    (futex)              until high_got;        low; lock(G): blocks
 *	                         else med_gave_up
 *	    with PI: FUTEX_LOCK_PI boosts low to 22 > 21, low runs now:
 *	    unlock(G)  -------------------------->  [7] high_got; count the
 *	                                                inversion: resolved
 *	                                                unless med_gave_up
 *	                                                was already set
 *	    without PI: low stays at 20 < 21: medium spins its whole
 *	    bound, sets med_gave_up, sleeps in [8]; only then low unlocks:
 *	    the inversion is counted unresolved (a failure)
 *	[8] ---------------- finish barrier; high counts the iteration ---
 *
 * Medium cannot take a step while high or a boosted low is runnable on
 * its CPU, so the verdict reads the order of two events, not a clock:
 * with PI med_gave_up is never set before high_got however slow the
 * machine, without PI it always is.  User mode is preemptible under
 * every preemption model, so this holds under rtk's none as well.
 *
 * The main thread (FIFO 23, above the groups, or back-to-back groups
 * would starve it) prints "Current Inversions: N" every second and
 * stops the groups after --duration (default 10 s) unless --inversions
 * bounds each group; a group that makes no progress for 20 s is
 * reported as deadlocked (rt-tests' watchdog).  Exit status: 0 if every
 * inversion was resolved and no group deadlocked, 1 otherwise (so
 * --no-pi exits 1: that failure is its point), 2 on a usage error.
 * Linux counterpart: rt-tests src/pi_tests/pi_stress.c.
 */
#include "user/lib/ulib.h"
#include "user/lib/clock.h"
#include "user/lib/pthread.h"

#define MAX_GROUPS 64
#define PRIO_LOW 20		/* rt-tests: min + 1, + 2, + 3 */
#define PRIO_MED 21
#define PRIO_HIGH 22
#define PRIO_CONTROL 23
#define MED_STEPS 100		/* [5] medium's bound: 100 x 20 us = 2 ms */
#define MED_STEP_NS (20 * NSEC_PER_USEC)
#define POLL_MS 100
#define WATCHDOG_NS (20 * NSEC_PER_SEC)	/* a hang net: an iteration is us..ms */
#define DEFAULT_SECONDS 10

enum { LOW, MED, HIGH, NR_THREADS };

struct group {
	int cpu;
	pthread_mutex_t lock;		/* G */
	pthread_barrier_t barrier;	/* [1], [3], [8] */
	/* this iteration's events, reset by high in [0] */
	u32 high_trying;		/* futex word: low waits on it in [4] */
	bool high_got, med_gave_up;
	bool quit;			/* [0] high's decision, read after [1] */
	bool stop;			/* the controller's request */
	unsigned long max_iters;	/* --inversions; 0: no bound */
	/* written by high only, read racily by the controller */
	unsigned long iters, inversions, resolved, unresolved;
	int error;			/* a thread's set-up failed */
	/* the controller's watchdog */
	unsigned long seen_iters;
	s64 progress_at;
	bool stuck;
	pthread_t thread[NR_THREADS];
};

static struct group groups[MAX_GROUPS];

#define LOAD(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define STORE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)

/* thread_setup - pin to the group's CPU at prio; a failure is recorded
 * for main, and the thread still runs the state machine (unpinned or
 * SCHED_OTHER) so its group's barriers do not hang. */
static void thread_setup(struct group *g, int prio)
{
	int ret = pin_self_to_cpu(g->cpu);

	if (!ret)
		ret = set_self_fifo(prio);
	if (ret)
		STORE(g->error, ret);
}

static void *low_fn(void *arg)
{
	struct group *g = arg;

	thread_setup(g, PRIO_LOW);
	for (;;) {
		pthread_barrier_wait(&g->barrier);			/* [1] */
		if (LOAD(g->quit))
			break;
		pthread_mutex_lock(&g->lock);				/* [2] */
		pthread_barrier_wait(&g->barrier);			/* [3] */
		while (!LOAD(g->high_trying))				/* [4] */
			futex(&g->high_trying, FUTEX_WAIT, 0, NULL, NULL, 0);
		pthread_mutex_unlock(&g->lock);
		pthread_barrier_wait(&g->barrier);			/* [8] */
	}
	return NULL;
}

static void *med_fn(void *arg)
{
	struct group *g = arg;
	s64 until;
	int i;

	thread_setup(g, PRIO_MED);
	for (;;) {
		pthread_barrier_wait(&g->barrier);			/* [1] */
		if (LOAD(g->quit))
			break;
		pthread_barrier_wait(&g->barrier);			/* [3] */
		for (i = 0; i < MED_STEPS && !LOAD(g->high_got); i++) {	/* [5] */
			until = clock_now_ns(CLOCK_MONOTONIC) + MED_STEP_NS;
			while (clock_now_ns(CLOCK_MONOTONIC) < until)
				;
		}
		if (!LOAD(g->high_got))
			STORE(g->med_gave_up, true);
		pthread_barrier_wait(&g->barrier);			/* [8] */
	}
	return NULL;
}

static void *high_fn(void *arg)
{
	struct group *g = arg;
	bool inversion;

	thread_setup(g, PRIO_HIGH);
	for (;;) {
		STORE(g->high_trying, 0);				/* [0] */
		STORE(g->high_got, false);
		STORE(g->med_gave_up, false);
		STORE(g->quit, LOAD(g->stop) ||
				(g->max_iters && g->iters >= g->max_iters));
		pthread_barrier_wait(&g->barrier);			/* [1] */
		if (LOAD(g->quit))
			break;
		pthread_barrier_wait(&g->barrier);			/* [3] */
		STORE(g->high_trying, 1);				/* [6] */
		futex(&g->high_trying, FUTEX_WAKE, 1, NULL, NULL, 0);
		inversion = pthread_mutex_trylock(&g->lock) != 0;
		if (inversion)
			pthread_mutex_lock(&g->lock);
		STORE(g->high_got, true);				/* [7] */
		if (inversion) {
			STORE(g->inversions, g->inversions + 1);
			if (LOAD(g->med_gave_up))
				STORE(g->unresolved, g->unresolved + 1);
			else
				STORE(g->resolved, g->resolved + 1);
		}
		pthread_mutex_unlock(&g->lock);
		pthread_barrier_wait(&g->barrier);			/* [8] */
		STORE(g->iters, g->iters + 1);
	}
	return NULL;
}

static void *(*const thread_fn[NR_THREADS])(void *) = {
	[LOW] = low_fn, [MED] = med_fn, [HIGH] = high_fn,
};

static __noreturn void usage(void)
{
	dprintf(2, "usage: pi_stress [--groups N] [--duration S | --inversions N] [--no-pi]\n");
	exit(2);
}

/* opt_value - the value of "--name V" or "--name=V", or NULL if argv[*i]
 * is not --name. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
	size_t len = strlen(name);

	if (strncmp(argv[*i], name, len))
		return NULL;
	if (argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (argv[*i][len] || *i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static unsigned long parse_num(const char *s, unsigned long lo,
			       unsigned long hi)
{
	unsigned long v;

	if (kstrtoul(s, 10, &v) || v < lo || v > hi)
		usage();
	return v;
}

/* watch - one watchdog pass; returns how many groups still run. */
static int watch(int n, s64 now, int *stuck)
{
	int running = 0;

	*stuck = 0;
	for (int i = 0; i < n; i++) {
		struct group *g = &groups[i];
		unsigned long it = LOAD(g->iters);

		if (g->stuck) {
			(*stuck)++;
			continue;
		}
		if (LOAD(g->quit))
			continue;	/* leaving: joined by main */
		if (it != g->seen_iters) {
			g->seen_iters = it;
			g->progress_at = now;
		} else if (now - g->progress_at > WATCHDOG_NS) {
			printf("pi_stress: group %d (CPU %d) stuck after %lu "
			       "iterations: high_trying %u high_got %d "
			       "med_gave_up %d\n", i, g->cpu, it,
			       LOAD(g->high_trying), LOAD(g->high_got),
			       LOAD(g->med_gave_up));
			g->stuck = true;
			(*stuck)++;
			continue;
		}
		running++;
	}
	return running;
}

int main(int argc, char **argv)
{
	unsigned long seconds = DEFAULT_SECONDS, max_iters = 0;
	unsigned long iters = 0, inversions = 0, resolved = 0, unresolved = 0;
	int n = nr_cpus_allowed(), i, k, ret, stuck = 0;
	pthread_mutexattr_t ma;
	bool pi = true, stopping = false;
	s64 start, now, next_emit;
	const char *v;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-pi") || !strcmp(argv[i], "--compat"))
			pi = false;
		else if ((v = opt_value(argc, argv, &i, "--groups")))
			n = parse_num(v, 1, MAX_GROUPS);
		else if ((v = opt_value(argc, argv, &i, "--duration")))
			seconds = parse_num(v, 0, 24 * 3600);
		else if ((v = opt_value(argc, argv, &i, "--inversions")))
			max_iters = parse_num(v, 1, 1UL << 40);
		else
			usage();
	}
	if (max_iters)
		seconds = 0;	/* bounded by the count, as in rt-tests */
	printf("Starting PI Stress Test\n");
	printf("Number of thread groups: %d (%s)\n", n,
	       pi ? "PTHREAD_PRIO_INHERIT mutex" : "plain futex mutex, no PI");
	if (max_iters)
		printf("Number of inversions per group: %lu\n", max_iters);
	else
		printf("Duration of test run: %s%lu seconds\n",
		       seconds ? "" : "until killed, ", seconds);
	ret = set_self_fifo(PRIO_CONTROL);
	if (ret)
		die("sched_setscheduler(SCHED_FIFO %d): %s", PRIO_CONTROL,
		    strerror_name(ret));

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setprotocol(&ma, pi ? PTHREAD_PRIO_INHERIT :
						PTHREAD_PRIO_NONE);
	start = next_emit = clock_now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < n; i++) {
		struct group *g = &groups[i];

		g->cpu = nth_cpu_allowed(i);
		g->max_iters = max_iters;
		g->progress_at = start;
		pthread_mutex_init(&g->lock, &ma);
		pthread_barrier_init(&g->barrier, NULL, NR_THREADS);
		for (k = 0; k < NR_THREADS; k++) {
			ret = pthread_create(&g->thread[k], NULL, thread_fn[k], g);
			if (ret)	/* a group missing a thread would hang */
				die("pthread_create: %s", strerror_name(ret));
		}
	}
	for (;;) {
		sleep_ns(POLL_MS * NSEC_PER_MSEC);
		now = clock_now_ns(CLOCK_MONOTONIC);
		if (!watch(n, now, &stuck))
			break;
		if (!stopping && (stuck || (seconds && now - start >=
					    (s64)seconds * NSEC_PER_SEC))) {
			stopping = true;
			for (i = 0; i < n; i++)
				STORE(groups[i].stop, true);
		}
		if (now >= next_emit) {
			unsigned long sum = 0;

			for (i = 0; i < n; i++)
				sum += LOAD(groups[i].inversions);
			printf("Current Inversions: %lu\n", sum);
			next_emit = now + NSEC_PER_SEC;
		}
	}
	for (i = 0; i < n; i++) {
		struct group *g = &groups[i];

		if (!g->stuck)	/* a stuck group's threads never end */
			for (k = 0; k < NR_THREADS; k++)
				pthread_join(g->thread[k], NULL);
		if (g->error)
			printf("pi_stress: group %d: a thread could not be "
			       "pinned to CPU %d at SCHED_FIFO: %s\n", i,
			       g->cpu, strerror_name(g->error));
		iters += g->iters;
		inversions += g->inversions;
		resolved += g->resolved;
		unresolved += g->unresolved;
	}
	ret = iters && !stuck && !unresolved ? 0 : 1;
	printf("Total inversion performed: %lu\n", inversions);
	printf("Resolved: %lu  Unresolved (high waited for medium): %lu  "
	       "Deadlocked groups: %d\n", resolved, unresolved, stuck);
	printf("Test Duration: %ld seconds, %lu iterations\n",
	       (long)((clock_now_ns(CLOCK_MONOTONIC) - start + NSEC_PER_SEC / 2) /
		      NSEC_PER_SEC), iters);
	printf("pi_stress-verdict: groups=%d inversions=%lu unresolved=%lu "
	       "deadlocks=%d result=%s\n", n, inversions, unresolved, stuck,
	       ret ? "FAIL" : "PASS");
	if (!pi && unresolved)
		printf("pi_stress: the FAIL is the point of --no-pi: no "
		       "priority inheritance, so medium ran while high waited\n");
	return ret;
}
