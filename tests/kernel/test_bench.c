/*
 * tests/kernel/test_bench.c - scheduler micro-benchmarks, printed as KTAP
 * diagnostics:
 *
 *	# bench: ctxsw median N ns max N ns (round trip median N ns, n=...)
 *	# bench: wake-to-run fifo99 idle-cpu median N ns max N ns (n=...)
 *
 * Pass/fail never depends on the figures (they depend on the host and on
 * TCG vs -icount); a test fails only when the measurement did not run or
 * gave an impossible value (a sample <= 0, fewer samples than asked).
 * `test bench` at the shell repeats them; `make test SELFTEST=bench
 * ICOUNT=5` measures in deterministic virtual time.
 *
 * ctxsw scenario: threads A and B, SCHED_FIFO 50, both bound to one CPU.
 * A: t0 = ktime; complete(ping); wait_for_completion(pong); sample.  B:
 * wait(ping); complete(pong).  Same priority, so neither wakeup preempts:
 * each round trip is exactly two switches (A->B when A blocks, B->A when
 * B blocks) plus two wakeups; the per-switch figure is half a round trip.
 *
 * wake-to-run scenario: wakee SCHED_FIFO 99 bound to CPU W, waker
 * SCHED_FIFO 98 bound to CPU K != W.  Per sample: the waker waits until
 * the wakee is asleep and off its CPU (so W runs its idle task), records
 * t0 and calls wake_up_process(); the wakee's first act on running is
 * t1 = ktime; sample = t1 - t0.  It covers the remote enqueue, the
 * reschedule IPI, W leaving HLT, the switch from idle and the return of
 * the wakee's schedule().
 * Linux counterpart: the figures of lmbench lat_ctx and of cyclictest /
 * rt-tests' "wakeup latency"; here measured in-kernel with ktime_get_ns().
 */
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/time/ktime.h"
#include "kernel/smp.h"
#include "lib/string.h"

#define BENCH_SAMPLES 256	/* enough for a stable median under TCG */

static s64 samples[BENCH_SAMPLES];

static void sort_samples(s64 *v, int n)
{
	for (int i = 1; i < n; i++) {
		s64 x = v[i];
		int j = i - 1;

		while (j >= 0 && v[j] > x) {
			v[j + 1] = v[j];
			j--;
		}
		v[j + 1] = x;
	}
}

static void set_fifo(struct task_struct *p, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	sched_setscheduler(p, SCHED_FIFO, &sp);
}

/* the last online CPU other than avoid (or avoid itself if alone) */
static int other_cpu(int avoid)
{
	int cpu, found = avoid;

	for_each_online_cpu (cpu)
		if (cpu != avoid)
			found = cpu;
	return found;
}

/* ---- context switch ---- */

struct pingpong {
	struct completion ping, pong, done;
	int n;			/* round trips done */
};

static int ping_fn(void *arg)
{
	struct pingpong *pp = arg;

	for (int i = 0; i < BENCH_SAMPLES; i++) {
		u64 t0 = ktime_get_ns();

		complete(&pp->ping);
		wait_for_completion(&pp->pong);
		samples[i] = (s64)(ktime_get_ns() - t0);
		pp->n++;
	}
	complete(&pp->done);
	return 0;
}

static int pong_fn(void *arg)
{
	struct pingpong *pp = arg;

	for (int i = 0; i < BENCH_SAMPLES; i++) {
		wait_for_completion(&pp->ping);
		complete(&pp->pong);
	}
	return 0;
}

static void test_bench_context_switch(struct ktest *t)
{
	static struct pingpong pp;
	struct task_struct *a, *b;
	int cpu = other_cpu(raw_smp_processor_id());

	memset(&pp, 0, sizeof(pp));
	init_completion(&pp.ping);
	init_completion(&pp.pong);
	init_completion(&pp.done);
	a = kthread_create(ping_fn, &pp, "bench-ping");
	b = kthread_create(pong_fn, &pp, "bench-pong");
	KTEST_ASSERT(t, a && b, "kthread_create, got NULL");
	kthread_bind(a, cpu);
	kthread_bind(b, cpu);
	set_fifo(a, 50);
	set_fifo(b, 50);
	get_task_struct(a);
	get_task_struct(b);
	wake_up_process(b);
	wake_up_process(a);
	wait_for_completion(&pp.done);
	kthread_stop(a);
	kthread_stop(b);
	put_task_struct(a);
	put_task_struct(b);
	KTEST_ASSERT_EQ(t, pp.n, BENCH_SAMPLES);
	sort_samples(samples, BENCH_SAMPLES);
	KTEST_ASSERT(t, samples[0] > 0, "round trips > 0 ns, shortest %lld",
		     (long long)samples[0]);
	console_printf("    # bench: ctxsw median %lld ns max %lld ns (round "
		       "trip median %lld ns, %d round trips on CPU %d)\n",
		       (long long)samples[BENCH_SAMPLES / 2] / 2,
		       (long long)samples[BENCH_SAMPLES - 1] / 2,
		       (long long)samples[BENCH_SAMPLES / 2], BENCH_SAMPLES,
		       cpu);
}

/* ---- wake-to-run ---- */

struct wake_bench {
	struct task_struct *wakee;
	int wakee_cpu;
	volatile u64 t0;	/* waker's ktime just before the wakeup */
	volatile int seq;	/* wakeups sent */
	struct completion ran;	/* wakee took its sample */
	int n;			/* samples taken */
	int wrong_cpu;		/* samples taken on another CPU than W */
	struct completion done;
};

static int wakee_fn(void *arg)
{
	struct wake_bench *wb = arg;
	int seen = 0;

	for (;;) {
		u64 t1;

		set_current_state(TASK_UNINTERRUPTIBLE);
		while (READ_ONCE(wb->seq) == seen && !kthread_should_stop()) {
			schedule();
			set_current_state(TASK_UNINTERRUPTIBLE);
		}
		t1 = ktime_get_ns();
		__set_current_state(TASK_RUNNING);
		if (kthread_should_stop())
			break;
		seen = READ_ONCE(wb->seq);
		if (wb->n < BENCH_SAMPLES)
			samples[wb->n++] = (s64)(t1 - wb->t0);
		if (raw_smp_processor_id() != wb->wakee_cpu)
			wb->wrong_cpu++;
		complete(&wb->ran);
	}
	return 0;
}

/* wakee_asleep - off its CPU and not runnable: W runs its idle task. */
static bool wakee_asleep(const struct task_struct *p)
{
	return READ_ONCE(p->state) != TASK_RUNNING &&
	       !__atomic_load_n(&p->on_cpu, __ATOMIC_ACQUIRE);
}

static int waker_fn(void *arg)
{
	struct wake_bench *wb = arg;

	for (int i = 0; i < BENCH_SAMPLES; i++) {
		while (!wakee_asleep(wb->wakee))
			arch_cpu_relax();
		wb->t0 = ktime_get_ns();
		__atomic_store_n(&wb->seq, i + 1, __ATOMIC_RELEASE);
		wake_up_process(wb->wakee);
		wait_for_completion(&wb->ran);
	}
	complete(&wb->done);
	return 0;
}

static void test_bench_wake_to_run_fifo99_idle_cpu(struct ktest *t)
{
	static struct wake_bench wb;
	struct task_struct *waker;
	int here = raw_smp_processor_id(), w, k;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs an idle CPU besides the waker's");
	w = other_cpu(here);
	k = num_online_cpus() > 2 ? other_cpu(w) : here;
	if (k == w)
		k = here;
	memset(&wb, 0, sizeof(wb));
	init_completion(&wb.ran);
	init_completion(&wb.done);
	wb.wakee_cpu = w;
	wb.wakee = kthread_create(wakee_fn, &wb, "bench-wakee");
	waker = kthread_create(waker_fn, &wb, "bench-waker");
	KTEST_ASSERT(t, wb.wakee && waker, "kthread_create, got NULL");
	kthread_bind(wb.wakee, w);
	kthread_bind(waker, k);
	set_fifo(wb.wakee, 99);
	set_fifo(waker, 98);
	get_task_struct(wb.wakee);
	get_task_struct(waker);
	wake_up_process(wb.wakee);
	wake_up_process(waker);
	wait_for_completion(&wb.done);
	kthread_stop(waker);
	kthread_stop(wb.wakee);
	put_task_struct(waker);
	put_task_struct(wb.wakee);
	KTEST_ASSERT_EQ(t, wb.n, BENCH_SAMPLES);
	KTEST_EXPECT_EQ(t, wb.wrong_cpu, 0);
	sort_samples(samples, BENCH_SAMPLES);
	KTEST_ASSERT(t, samples[0] > 0, "wake-to-run > 0 ns, shortest %lld",
		     (long long)samples[0]);
	console_printf("    # bench: wake-to-run fifo99 idle-cpu median %lld ns "
		       "max %lld ns (min %lld ns, %d wakeups CPU %d -> CPU %d)\n",
		       (long long)samples[BENCH_SAMPLES / 2],
		       (long long)samples[BENCH_SAMPLES - 1],
		       (long long)samples[0], BENCH_SAMPLES, k, w);
}

KTEST_SUITE(bench, KTEST_CASE(test_bench_context_switch),
	    KTEST_CASE(test_bench_wake_to_run_fifo99_idle_cpu));
