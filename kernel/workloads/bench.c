/*
 * kernel/workloads/bench.c - the benchmark table, the runner thread and the
 * statistics shared by every figure (kernel/workloads/bench.h).
 *
 * A figure runs in a thread of its own, SCHED_FIFO 40 and bound to the
 * boot CPU, whoever asked for it (the shell at its priority, the ktest
 * runner): the same placement every time, below the IRQ threads (FIFO
 * 50) so a threaded handler preempts it at once, above every SCHED_OTHER
 * load.  Its samples are cycle counts; the median and the maximum are
 * converted to ns with the calibrated clock rate (ktime_cycles_to_ns).
 * Linux counterpart: none (see bench.h).
 */
#include "kernel/workloads/bench.h"
#include "kernel/printk.h"
#include "kernel/smp.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/time/ktime.h"
#include "lib/errno.h"
#include "lib/string.h"

#define BENCH_RUNNER_PRIO	40
#define BENCH_RUNNER_CPU	0	/* the boot CPU: always online */

struct bench_entry {
	const char *name;
	int (*fn)(int n, struct bench_result *res);
	int depth;		/* PI chain length; fn is NULL then */
	int n;			/* samples */
	int min_cpus;
};

/* Table order is the order of the rows in `make bench`'s table. */
static const struct bench_entry bench_table[] = {
	{ "tsc-read", bench_tsc_read, 0, BENCH_MAX_SAMPLES, 1 },
	{ "ctxsw", bench_ctxsw, 0, BENCH_SAMPLES, 1 },
	{ "wake-to-run", bench_wake_to_run, 0, BENCH_SAMPLES, 2 },
	{ "ipi-round-trip", bench_ipi_round_trip, 0, BENCH_SAMPLES, 2 },
	{ "irq-to-thread", bench_irq_to_thread, 0, BENCH_SAMPLES, 1 },
	{ "tick", bench_tick, 0, BENCH_SAMPLES, 1 },
	{ "raw_spinlock", bench_raw_spinlock, 0, BENCH_MAX_SAMPLES, 1 },
	{ "spinlock", bench_spinlock, 0, BENCH_MAX_SAMPLES, 1 },
	{ "rt_mutex", bench_rt_mutex, 0, BENCH_MAX_SAMPLES, 1 },
	{ "semaphore", bench_semaphore, 0, BENCH_MAX_SAMPLES, 1 },
	{ "rwlock-read", bench_rwlock_read, 0, BENCH_MAX_SAMPLES, 1 },
	{ "rwlock-write", bench_rwlock_write, 0, BENCH_MAX_SAMPLES, 1 },
	{ "handoff-raw_spinlock", bench_handoff_raw, 0, BENCH_SAMPLES, 2 },
	{ "handoff-spinlock", bench_handoff_spinlock, 0, BENCH_SAMPLES, 2 },
	{ "pi-boost-1", NULL, 1, BENCH_SAMPLES / 2, 1 },
	{ "pi-boost-2", NULL, 2, BENCH_SAMPLES / 2, 1 },
	{ "pi-boost-4", NULL, 4, BENCH_SAMPLES / 2, 1 },
	{ "pi-boost-8", NULL, 8, BENCH_SAMPLES / 2, 1 },
	{ "pi-boost-16", NULL, 16, BENCH_SAMPLES / 2, 1 },
	{ "pi-boost-32", NULL, 32, BENCH_SAMPLES / 2, 1 },
	{ "kmalloc-kfree-64", bench_kmalloc, 0, BENCH_MAX_SAMPLES, 1 },
};

int bench_count(void)
{
	return ARRAY_SIZE(bench_table);
}

const char *bench_name(int i)
{
	if (i < 0 || i >= bench_count())
		return NULL;
	return bench_table[i].name;
}

int bench_find(const char *name)
{
	for (int i = 0; i < bench_count(); i++)
		if (!strcmp(bench_table[i].name, name))
			return i;
	return -ENOENT;
}

int bench_min_cpus(int i)
{
	return bench_table[i].min_cpus;
}

static void bench_sort(u64 *v, int n)
{
	for (int i = 1; i < n; i++) {
		u64 x = v[i];
		int j = i - 1;

		while (j >= 0 && v[j] > x) {
			v[j + 1] = v[j];
			j--;
		}
		v[j + 1] = x;
	}
}

struct bench_job {
	const struct bench_entry *e;
	struct bench_result *res;
	int rc;			/* the figure's return value */
	struct completion done;
};

static int bench_runner_fn(void *arg)
{
	struct bench_job *job = arg;
	const struct bench_entry *e = job->e;

	if (e->fn)
		job->rc = e->fn(e->n, job->res);
	else
		job->rc = bench_pi_chain(e->depth, e->n, job->res);
	complete(&job->done);
	return 0;
}

int bench_run(int i, struct bench_result *res)
{
	static int busy;	/* one bench at a time: one sample buffer */
	static struct bench_job job;	/* static: the runner is still in
					 * complete() when we wake */
	struct task_struct *p;
	int rc;

	might_sleep();
	memset(res, 0, sizeof(*res));
	if (i < 0 || i >= bench_count())
		return -ENOENT;
	if (num_online_cpus() < bench_table[i].min_cpus)
		return -ENODEV;
	if (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
		return -EBUSY;
	job.e = &bench_table[i];
	job.res = res;
	job.rc = -EIO;
	init_completion(&job.done);
	p = kthread_create(bench_runner_fn, &job, "bench/%s", job.e->name);
	if (!p) {
		rc = -ENOMEM;
		goto out_busy;
	}
	kthread_bind(p, BENCH_RUNNER_CPU);
	bench_set_fifo(p, BENCH_RUNNER_PRIO);
	wake_up_process(p);
	wait_for_completion(&job.done);
	rc = job.rc;
	if (rc < 0)
		goto out_busy;
	/* the figure's count: fewer samples than asked is a failure */
	res->n = rc;
	rc = res->n == job.e->n ? 0 : -EIO;
	if (res->n > 0) {
		bench_sort(bench_samples, res->n);
		res->min_cyc = bench_samples[0];
		res->median_cyc = bench_samples[res->n / 2];
		res->max_cyc = bench_samples[res->n - 1];
		res->median_ns = ktime_cycles_to_ns(res->median_cyc);
		res->max_ns = ktime_cycles_to_ns(res->max_cyc);
	}
out_busy:
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
	return rc;
}

void bench_print(const char *indent, const char *name, int rc,
		 const struct bench_result *res)
{
	if (rc == -ENOSYS) {
		console_printf("%s# bench: %s n/a: %s\n", indent, name,
			       res->note ? res->note : "not built");
		return;
	}
	if (rc == -ENODEV) {
		console_printf("%s# bench: %s n/a: needs %d CPUs\n", indent,
			       name, bench_min_cpus(bench_find(name)));
		return;
	}
	if (rc < 0) {
		console_printf("%s# bench: %s failed: %d (%d samples)\n",
			       indent, name, rc, res->n);
		return;
	}
	console_printf("%s# bench: %s median %llu ns (%llu cyc) max %llu ns "
		       "(%llu cyc)\n", indent, name,
		       (unsigned long long)res->median_ns,
		       (unsigned long long)res->median_cyc,
		       (unsigned long long)res->max_ns,
		       (unsigned long long)res->max_cyc);
}
