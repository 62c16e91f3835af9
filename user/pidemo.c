/*
 * user/pidemo.c - the article's priority-inversion story ("A realtime
 * preemption overview", section "Priority inheritance for in-kernel
 * spinlocks and semaphores": low-priority task A holds a lock, medium
 * task B hogs the CPU, high-priority task C wants the lock) told by
 * three user threads on one CPU, once with a PTHREAD_PRIO_INHERIT mutex
 * (the PI futex) and once with a plain futex mutex, for a growing hog.
 *
 *	pidemo [-c CPU] [-w WORK_US] [-m MAX_HOG_US]
 *
 * Scenario of one round, all three threads pinned to CPU (default: the
 * last one allowed), SCHED_FIFO:
 *	low  (A, FIFO 10): lock(m); [2]; WORK_US of CPU work; unlock(m)
 *	med  (B, FIFO 20): [2]; spin HOG_US of wall time (the CPU hog)
 *	high (C, FIFO 30): [2]; t0; lock(m); t1; unlock(m); wait = t1 - t0
 * [2] is a barrier releasing the three at once while low holds m: high
 * runs first and blocks on m.
 *	With PI: FUTEX_LOCK_PI boosts low to 30 > 20, so low finishes its
 *	work before medium runs: high's wait is about WORK_US, whatever
 *	HOG_US is (bounded), and medium starts only after high got m.
 *	Without PI: low stays at 10 < 20, medium spins its whole hog
 *	first, then low finishes: high's wait is about HOG_US + WORK_US
 *	(it grows with the hog: the article's "indefinitely delay").
 * The printed waits are timings and vary with the machine; the verdict
 * is not: it reads the order of two events (did medium start before
 * high got the lock?), which with PI must be "no" in every round and
 * without PI "yes" in every round.  Exit status 0 if so, 1 if not.
 * Rounds: HOG_US = WORK_US, 2 x, 4 x ... up to MAX_HOG_US, each once
 * with each mutex.  Low's work is a calibrated number of loop steps,
 * so being preempted does not shorten it (a spin on the clock would).
 */
#include "user/lib/ulib.h"
#include "user/lib/clock.h"
#include "user/lib/pthread.h"

#define PRIO_LOW 10
#define PRIO_MED 20
#define PRIO_HIGH 30
#define MAX_ROUNDS 32
#define DEFAULT_WORK_US 1000
#define DEFAULT_MAX_HOG_US 16000
#define CALIBRATE_STEPS 2000000UL

struct round {
	int protocol;			/* PTHREAD_PRIO_* */
	s64 hog_ns;
	s64 wait_ns;			/* high's wait for m */
	bool med_first;			/* medium started before high got m */
};

static struct round rounds[MAX_ROUNDS];
static int nr_rounds, cpu;
static unsigned long work_steps;	/* low's work, in loop steps */
static pthread_mutex_t m;
static pthread_barrier_t barrier;
static bool high_got;
static int setup_error;

static void spin_steps(unsigned long steps)
{
	for (volatile unsigned long i = 0; i < steps; i++)
		;
}

/* calibrate - loop steps per WORK_US: the fastest of three timings (a
 * preempted timing is slower, never faster) */
static unsigned long calibrate(long work_us)
{
	s64 best = 0, t;

	for (int k = 0; k < 3; k++) {
		t = clock_now_ns(CLOCK_MONOTONIC);
		spin_steps(CALIBRATE_STEPS);
		t = clock_now_ns(CLOCK_MONOTONIC) - t;
		if (!best || t < best)
			best = t;
	}
	if (best < 1)
		best = 1;
	return CALIBRATE_STEPS * work_us * NSEC_PER_USEC / best;
}

static void setup(int prio)
{
	int ret = pin_self_to_cpu(cpu);

	if (!ret)
		ret = set_self_fifo(prio);
	if (ret)
		__atomic_store_n(&setup_error, ret, __ATOMIC_RELAXED);
}

static void *low_fn(void *arg)
{
	setup(PRIO_LOW);
	for (int r = 0; r < nr_rounds; r++) {
		pthread_barrier_wait(&barrier);		/* [1] high set m up */
		pthread_mutex_lock(&m);
		pthread_barrier_wait(&barrier);		/* [2] */
		spin_steps(work_steps);
		pthread_mutex_unlock(&m);
		pthread_barrier_wait(&barrier);		/* [3] round over */
	}
	return NULL;
}

static void *med_fn(void *arg)
{
	s64 until;

	setup(PRIO_MED);
	for (int r = 0; r < nr_rounds; r++) {
		pthread_barrier_wait(&barrier);		/* [1] */
		pthread_barrier_wait(&barrier);		/* [2] */
		rounds[r].med_first = !__atomic_load_n(&high_got, __ATOMIC_ACQUIRE);
		until = clock_now_ns(CLOCK_MONOTONIC) + rounds[r].hog_ns;
		while (clock_now_ns(CLOCK_MONOTONIC) < until)
			;
		pthread_barrier_wait(&barrier);		/* [3] */
	}
	return NULL;
}

static void *high_fn(void *arg)
{
	pthread_mutexattr_t ma;
	s64 t0;

	setup(PRIO_HIGH);
	for (int r = 0; r < nr_rounds; r++) {
		pthread_mutexattr_init(&ma);		/* nobody holds m here */
		pthread_mutexattr_setprotocol(&ma, rounds[r].protocol);
		pthread_mutex_init(&m, &ma);
		__atomic_store_n(&high_got, false, __ATOMIC_RELEASE);
		pthread_barrier_wait(&barrier);		/* [1] */
		pthread_barrier_wait(&barrier);		/* [2] */
		t0 = clock_now_ns(CLOCK_MONOTONIC);
		pthread_mutex_lock(&m);
		rounds[r].wait_ns = clock_now_ns(CLOCK_MONOTONIC) - t0;
		__atomic_store_n(&high_got, true, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&m);
		pthread_barrier_wait(&barrier);		/* [3] */
	}
	return NULL;
}

static __noreturn void usage(void)
{
	dprintf(2, "usage: pidemo [-c CPU] [-w WORK_US] [-m MAX_HOG_US]\n");
	exit(2);
}

static long flag_value(int argc, char **argv, int *i, long lo, long hi)
{
	long v;

	if (*i + 1 >= argc || kstrtol(argv[*i + 1], 10, &v) || v < lo || v > hi)
		usage();
	++*i;
	return v;
}

int main(int argc, char **argv)
{
	long work_us = DEFAULT_WORK_US, max_hog_us = DEFAULT_MAX_HOG_US, hog;
	s64 pi_max = 0, plain_max = 0;
	void *(*fn[3])(void *) = { low_fn, med_fn, high_fn };
	pthread_t t[3];
	int i, ret, bad = 0, p;

	cpu = nth_cpu_allowed(nr_cpus_allowed() - 1);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-c"))
			cpu = flag_value(argc, argv, &i, 0, 63);
		else if (!strcmp(argv[i], "-w"))
			work_us = flag_value(argc, argv, &i, 10, 1000000);
		else if (!strcmp(argv[i], "-m"))
			max_hog_us = flag_value(argc, argv, &i, 10, 10000000);
		else
			usage();
	}
	for (p = 0; p < 2; p++)
		for (hog = work_us; hog <= max_hog_us && nr_rounds < MAX_ROUNDS;
		     hog *= 2) {
			rounds[nr_rounds].protocol = p ? PTHREAD_PRIO_NONE :
							 PTHREAD_PRIO_INHERIT;
			rounds[nr_rounds++].hog_ns = hog * NSEC_PER_USEC;
		}
	printf("pidemo: priority inversion, the article's tasks as threads on CPU %d:\n"
	       "  low (FIFO %d) holds the lock for %ld us of work, medium (FIFO %d)\n"
	       "  hogs the CPU, high (FIFO %d) waits for the lock\n",
	       cpu, PRIO_LOW, work_us, PRIO_MED, PRIO_HIGH);
	ret = pin_self_to_cpu(cpu);
	if (ret)
		die("sched_setaffinity(CPU %d): %s", cpu, strerror_name(ret));
	work_steps = calibrate(work_us);
	pthread_barrier_init(&barrier, NULL, 3);
	for (i = 0; i < 3; i++) {
		ret = pthread_create(&t[i], NULL, fn[i], NULL);
		if (ret)
			die("pthread_create: %s", strerror_name(ret));
	}
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	if (setup_error)
		die("pinning to CPU %d at SCHED_FIFO failed: %s (root?)", cpu,
		    strerror_name(setup_error));

	printf("%-22s %12s %14s  %s\n", "mutex", "medium hog", "high's wait",
	       "medium ran before high got the lock");
	for (i = 0; i < nr_rounds; i++) {
		struct round *r = &rounds[i];
		bool pi = r->protocol == PTHREAD_PRIO_INHERIT;
		bool ok = pi ? !r->med_first : r->med_first;

		printf("%-22s %9ld us %11ld us  %s%s\n",
		       pi ? "PTHREAD_PRIO_INHERIT" : "plain futex (no PI)",
		       (long)(r->hog_ns / NSEC_PER_USEC),
		       (long)(r->wait_ns / NSEC_PER_USEC),
		       r->med_first ? "yes" : "no",
		       ok ? "" : pi ? "  <- UNEXPECTED: PI did not boost low" :
				      "  <- UNEXPECTED: high was not held up");
		bad += !ok;
		if (pi && r->wait_ns > pi_max)
			pi_max = r->wait_ns;
		if (!pi && r->wait_ns > plain_max)
			plain_max = r->wait_ns;
	}
	printf("pidemo: high's longest wait: %ld us with PI (bounded by low's "
	       "work), %ld us without (grows with medium's hog)\n",
	       (long)(pi_max / NSEC_PER_USEC), (long)(plain_max / NSEC_PER_USEC));
	printf("pidemo-verdict: rounds=%d unexpected=%d result=%s\n", nr_rounds,
	       bad, bad ? "FAIL" : "PASS");
	return bad ? 1 : 0;
}
