/*
 * tools/linux_micro.c - rtk's scheduler and lock micro-costs, measured on
 * Linux from user space, each figure defined as rtk's bench defines it
 * (kernel/workloads/bench_sched.c, bench_lock.c), so that
 * tools/compare_linux.py --micro can set the two side by side (issue 14,
 * item 5).
 *
 *	clock-read	two back-to-back clock_gettime(CLOCK_MONOTONIC): the
 *			floor under every other figure (rtk: tsc-read)
 *	ctxsw		A and B, SCHED_FIFO 50 pinned to the last CPU,
 *			ping-pong through two futex counters; same priority,
 *			so a round trip is exactly two switches and two
 *			wakeups: sample = half (rtk: ctxsw, on completions)
 *	wake-to-run	wakee FIFO 99 pinned to the last CPU W, blocked in
 *			FUTEX_WAIT; waker FIFO 98 on CPU 0 waits until W
 *			runs its idle task, stamps and FUTEX_WAKEs; the
 *			wakee stamps first thing after the syscall returns
 *			(rtk: wake-to-run, wake_up_process of a kthread)
 *	mutex		one uncontended pthread_mutex_lock + unlock per
 *			sample, the two clock reads included (rtk: the
 *			raw_spinlock / spinlock figures)
 *	mutex-pi	the same on a PTHREAD_PRIO_INHERIT mutex: glibc's
 *			fast path is a cmpxchg of the owner's TID into the
 *			futex word, the rt_mutex fast path rtk's spinlock_t
 *			takes under rt
 *
 * The runner (the lock figures) is FIFO 40 on CPU 0, as rtk's bench
 * runner.  Every sample is a CLOCK_MONOTONIC difference in ns; each
 * figure prints its median (sorted[n/2], as rtk) and its maximum:
 *
 *	# micro: <name> median <ns> ns max <ns> ns n <n> bad <flagged>
 *	# micro: <name> n/a: <why>
 *
 * What Linux pays that rtk does not: ctxsw and wake-to-run go through
 * the futex system call (entry, exit, the futex hash), where rtk's
 * kthreads call complete()/wake_up_process() directly; that is what an
 * application on Linux sees.  Build: gcc -static -O2 -pthread.
 * Linux counterpart: rt-tests' ptsematest/sigwaittest, lmbench lat_ctx.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* rtk's BENCH_SAMPLES and BENCH_MAX_SAMPLES (kernel/workloads/bench.h): the
 * scheduler figures take N samples, the cheap ones 4 N. */
#define MICRO_SAMPLES 256
#define MICRO_MAX_N 4096
#define RUNNER_PRIO 40		/* rtk's BENCH_RUNNER_PRIO */
#define RUNNER_CPU 0		/* rtk's BENCH_RUNNER_CPU */

/*
 * The waker's wait for W to be idle, once the wakee shows state S in
 * /proc: the rest of its way into the idle task (futex_wait_queue ->
 * schedule -> the switch) is a few thousand instructions, some 10-20 us
 * under TCG; 500 us covers it unless the host deschedules the vCPU.
 * rtk reads the wakee's on_cpu instead, which user space cannot.
 */
#define SETTLE_NS 500000

static uint64_t samples[4 * MICRO_MAX_N];
static int nsched = MICRO_SAMPLES;	/* -n */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

_Static_assert(sizeof(atomic_int) == 4, "a futex word is 32 bits");

static long futex(atomic_int *word, int op, int val)
{
	return syscall(SYS_futex, word, op, val, NULL, NULL, 0);
}

/* counter_post - the futex "complete()": bump and wake one waiter. */
static void counter_post(atomic_int *c)
{
	atomic_fetch_add_explicit(c, 1, memory_order_release);
	futex(c, FUTEX_WAKE_PRIVATE, 1);
}

/* counter_wait - the futex "wait_for_completion()": sleep until the
 * counter reaches target (FUTEX_WAIT returns at once if it moved). */
static void counter_wait(atomic_int *c, int target)
{
	int v;

	while ((v = atomic_load_explicit(c, memory_order_acquire)) < target)
		futex(c, FUTEX_WAIT_PRIVATE, v);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *name, int n, int bad)
{
	if (n <= 0) {
		printf("# micro: %s n/a: no samples\n", name);
		return;
	}
	qsort(samples, n, sizeof(samples[0]), cmp_u64);
	printf("# micro: %s median %llu ns max %llu ns n %d bad %d\n", name,
	       (unsigned long long)samples[n / 2],
	       (unsigned long long)samples[n - 1], n, bad);
	fflush(stdout);
}

static void not_available(const char *name, const char *what, int err)
{
	printf("# micro: %s n/a: %s: %s\n", name, what, strerror(err));
	fflush(stdout);
}

/*
 * start_thread - a SCHED_FIFO thread at prio pinned to cpu; returns 0 or
 * the error (EPERM without CAP_SYS_NICE, EINVAL for an offline CPU).
 */
static int start_thread(pthread_t *t, void *(*fn)(void *), void *arg,
			int prio, int cpu)
{
	struct sched_param sp = { .sched_priority = prio };
	pthread_attr_t attr;
	cpu_set_t set;
	int rc;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	rc = pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return rc;
}

struct thread_spec {
	void *(*fn)(void *);
	int prio;		/* SCHED_FIFO */
	int cpu;		/* pinned to */
};

/*
 * run_pair - start first (the side that blocks first), then second, both
 * on arg, and join them; true when both ran.  If one cannot start, the
 * figure is said n/a; a started first is released by storing
 * release_val into *release and waking it (it waits on that word).
 */
static bool run_pair(const char *name, void *arg,
		     const struct thread_spec *first,
		     const struct thread_spec *second, atomic_int *release,
		     int release_val)
{
	pthread_t a, b;
	int rc;

	rc = start_thread(&a, first->fn, arg, first->prio, first->cpu);
	if (rc)
		goto out_na;
	rc = start_thread(&b, second->fn, arg, second->prio, second->cpu);
	if (rc) {
		atomic_store(release, release_val);
		futex(release, FUTEX_WAKE_PRIVATE, 1);
		pthread_join(a, NULL);
		goto out_na;
	}
	pthread_join(b, NULL);
	pthread_join(a, NULL);
	return true;
out_na:
	not_available(name, "SCHED_FIFO thread", rc);
	return false;
}

static void figure_clock_read(void)
{
	int n = 4 * nsched;

	for (int i = 0; i < n; i++) {
		uint64_t t0 = now_ns();

		samples[i] = now_ns() - t0;
	}
	report("clock-read", n, 0);
}

/* ---- ctxsw ---- */

struct pingpong {
	atomic_int ping, pong;	/* round trips posted by A, by B */
	int n;
};

static void *ping_fn(void *arg)
{
	struct pingpong *pp = arg;

	for (int i = 0; i < pp->n; i++) {
		uint64_t t0 = now_ns();

		counter_post(&pp->ping);
		counter_wait(&pp->pong, i + 1);
		samples[i] = (now_ns() - t0) / 2;
	}
	return NULL;
}

static void *pong_fn(void *arg)
{
	struct pingpong *pp = arg;

	for (int i = 0; i < pp->n; i++) {
		counter_wait(&pp->ping, i + 1);
		counter_post(&pp->pong);
	}
	return NULL;
}

static void figure_ctxsw(int cpu)
{
	static struct pingpong pp;
	const struct thread_spec b = { pong_fn, 50, cpu }, a = { ping_fn, 50, cpu };

	pp.n = nsched;
	/* without A, B is released by the whole run's pings at once */
	if (run_pair("ctxsw", &pp, &b, &a, &pp.ping, pp.n))
		report("ctxsw", pp.n, 0);
}

/* ---- wake-to-run ---- */

struct wake_bench {
	atomic_int waiting;	/* wakeups the wakee is ready for */
	atomic_int seq;		/* wakeups sent */
	atomic_int ran;		/* samples taken */
	atomic_int tid;		/* the wakee's TID, for /proc */
	uint64_t t0;		/* waker's stamp; published by seq */
	int n, cpu;
	int bad;		/* on another CPU than W, or never slept */
};

static void *wakee_fn(void *arg)
{
	struct wake_bench *wb = arg;

	atomic_store(&wb->tid, (int)syscall(SYS_gettid));
	for (int i = 0; i < wb->n; i++) {
		struct rusage before, after;
		uint64_t t1;

		getrusage(RUSAGE_THREAD, &before);
		atomic_store_explicit(&wb->waiting, i + 1,
				      memory_order_release);
		while (atomic_load_explicit(&wb->seq, memory_order_acquire) == i)
			futex(&wb->seq, FUTEX_WAIT_PRIVATE, i);
		t1 = now_ns();
		samples[i] = t1 - wb->t0;
		getrusage(RUSAGE_THREAD, &after);
		if (sched_getcpu() != wb->cpu || after.ru_nvcsw == before.ru_nvcsw)
			wb->bad++;
		counter_post(&wb->ran);
	}
	return NULL;
}

/* task_state - the state letter of thread tid ('S': sleeping), '?' if
 * /proc cannot say. */
static char task_state(int tid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t len;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return '?';
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	p = strrchr(buf, ')');	/* the comm may hold spaces */
	return p && p[1] == ' ' ? p[2] : '?';
}

static void *waker_fn(void *arg)
{
	struct wake_bench *wb = arg;

	for (int i = 0; i < wb->n; i++) {
		uint64_t until;

		while (atomic_load_explicit(&wb->waiting,
					    memory_order_acquire) != i + 1)
			;
		while (task_state(atomic_load(&wb->tid)) != 'S')
			;
		until = now_ns() + SETTLE_NS;
		while (now_ns() < until)
			;
		wb->t0 = now_ns();
		atomic_store_explicit(&wb->seq, i + 1, memory_order_release);
		futex(&wb->seq, FUTEX_WAKE_PRIVATE, 1);
		counter_wait(&wb->ran, i + 1);
	}
	return NULL;
}

static void figure_wake_to_run(int cpu)
{
	static struct wake_bench wb;
	const struct thread_spec wakee = { wakee_fn, 99, cpu },
				 waker = { waker_fn, 98, RUNNER_CPU };

	if (cpu == RUNNER_CPU) {
		printf("# micro: wake-to-run n/a: needs 2 CPUs\n");
		return;
	}
	wb.n = nsched;
	wb.cpu = cpu;
	/* without a waker, the wakee is released by every wakeup "sent"
	 * at once */
	if (run_pair("wake-to-run", &wb, &wakee, &waker, &wb.seq, wb.n))
		report("wake-to-run", wb.n, wb.bad);
}

/* ---- uncontended pthread mutexes ---- */

static void figure_mutex(const char *name, int protocol)
{
	pthread_mutexattr_t attr;
	pthread_mutex_t m;
	int n = 4 * nsched, rc;

	pthread_mutexattr_init(&attr);
	rc = pthread_mutexattr_setprotocol(&attr, protocol);
	if (!rc)
		rc = pthread_mutex_init(&m, &attr);
	pthread_mutexattr_destroy(&attr);
	if (rc) {
		not_available(name, "pthread_mutex_init", rc);
		return;
	}
	for (int i = 0; i < n; i++) {
		uint64_t t0 = now_ns();

		pthread_mutex_lock(&m);
		pthread_mutex_unlock(&m);
		samples[i] = now_ns() - t0;
	}
	pthread_mutex_destroy(&m);
	report(name, n, 0);
}

static void print_clocksource(void)
{
	char cs[64] = "?";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/"
			"current_clocksource", "r");

	if (f) {
		if (fscanf(f, "%63s", cs) != 1)
			strcpy(cs, "?");
		fclose(f);
	}
	printf("clocksource %s", cs);
}

/* runner_setup - FIFO 40 on CPU 0 with memory locked, as rtk's runner
 * (a kthread: never faults); a failure is said and the run goes on. */
static void runner_setup(void)
{
	struct sched_param sp = { .sched_priority = RUNNER_PRIO };
	cpu_set_t set;

	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		printf("linux-micro: mlockall: %s\n", strerror(errno));
	CPU_ZERO(&set);
	CPU_SET(RUNNER_CPU, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		printf("linux-micro: CPU %d: %s\n", RUNNER_CPU,
		       strerror(errno));
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		printf("linux-micro: SCHED_FIFO %d: %s\n", RUNNER_PRIO,
		       strerror(errno));
}

int main(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int last = ncpu > 1 ? (int)ncpu - 1 : 0;	/* bench_other_cpu(0) */
	struct utsname u;
	int opt;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n' || atoi(optarg) < 1 || atoi(optarg) > MICRO_MAX_N) {
			fprintf(stderr, "usage: %s [-n 1..%d]\n", argv[0],
				MICRO_MAX_N);
			return 2;
		}
		nsched = atoi(optarg);
	}
	uname(&u);
	printf("linux-micro: %s cpus %ld samples %d ", u.release, ncpu,
	       nsched);
	print_clocksource();
	printf("\n");
	runner_setup();
	figure_clock_read();
	figure_ctxsw(last);
	figure_wake_to_run(last);
	figure_mutex("mutex", PTHREAD_PRIO_NONE);
	figure_mutex("mutex-pi", PTHREAD_PRIO_INHERIT);
	printf("linux-micro: done\n");
	return 0;
}
