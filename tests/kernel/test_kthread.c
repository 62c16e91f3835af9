/*
 * tests/kernel/test_kthread.c - kernel threads: kthread_create/run/stop/
 * should_stop, kthread_bind, task exit and the reaping of dead tasks.
 *
 * Scenario of every test: the runner (init, SCHED_OTHER) creates plain
 * SCHED_OTHER threads and synchronises with them by completions and
 * kthread_stop(); nothing is timed.  The reaping test creates
 * REAP_THREADS threads that exit on their own and then checks that the
 * kernel-stack count, the task list and the slab's objects in use are
 * back at their baselines: a leak of one task shows as a count off by
 * one.  The final put of an exited thread happens on the CPU it last ran
 * on, after its last switch (finish_task_switch), i.e. shortly after
 * kthread_stop() returns: the test waits for it with a bounded poll
 * (REAP_WAIT_NS is a hang guard, not the synchronisation).
 * Linux counterpart: none in-tree as a suite; the semantics are those of
 * kernel/kthread.c.
 */
#include "kernel/ktest.h"
#include "kernel/sched/deferred.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/wait.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/slab.h"
#include "kernel/time/ktime.h"
#include "kernel/smp.h"
#include "lib/errno.h"
#include "lib/string.h"

#define REAP_THREADS 40		/* more than any stack cache would keep */
#define REAP_WAIT_NS (5LL * NSEC_PER_SEC)

struct kt_arg {
	struct completion started;
	volatile bool ran;
	volatile int cpu;		/* CPU fn ran on */
	volatile int loops;		/* sleeps before should_stop */
	int ret;			/* what fn returns */
};

static void kt_arg_init(struct kt_arg *a, int ret)
{
	memset(a, 0, sizeof(*a));
	init_completion(&a->started);
	a->ret = ret;
}

/* kt_return - run once and return a->ret. */
static int kt_return(void *data)
{
	struct kt_arg *a = data;

	a->ran = true;
	a->cpu = raw_smp_processor_id();
	complete(&a->started);
	return a->ret;
}

/* kt_until_stop - sleep until kthread_stop(), as a service thread does. */
static int kt_until_stop(void *data)
{
	struct kt_arg *a = data;

	a->ran = true;
	a->cpu = raw_smp_processor_id();
	complete(&a->started);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
		a->loops++;
	}
	__set_current_state(TASK_RUNNING);
	return a->ret;
}

/* wait_dead - poll (sleeping 1 ms, so p can run on our CPU too) until
 * p, which has completed its exit, is TASK_DEAD; false after
 * REAP_WAIT_NS (a hang guard). */
static bool wait_dead(struct task_struct *p)
{
	u64 end = ktime_get_ns() + REAP_WAIT_NS;

	while (READ_ONCE(p->state) != TASK_DEAD) {
		if (ktime_get_ns() > end)
			return false;
		msleep(1);
	}
	return true;
}

static void test_kthread_create_does_not_run_until_woken(struct ktest *t)
{
	struct kt_arg a;
	struct task_struct *p;

	kt_arg_init(&a, 7);
	p = kthread_create(kt_return, &a, "kt/%d", 1);
	KTEST_ASSERT(t, p, "kthread_create, got NULL");
	KTEST_EXPECT(t, !strcmp(p->name, "kt/1"), "name \"kt/1\", saw \"%s\"",
		     p->name);
	KTEST_EXPECT(t, p->pid > 0, "a pid > 0, saw %d", p->pid);
	KTEST_EXPECT_EQ(t, p->policy, SCHED_OTHER);
	KTEST_EXPECT_EQ(t, p->state, TASK_UNINTERRUPTIBLE);
	/* give it every chance to run wrongly: yield a few times */
	for (int i = 0; i < 4; i++)
		sched_yield();
	KTEST_EXPECT(t, !a.ran, "fn ran before wake_up_process");
	get_task_struct(p);
	wake_up_process(p);
	wait_for_completion(&a.started);
	KTEST_EXPECT_EQ(t, kthread_stop(p), 7);
	KTEST_EXPECT(t, kthread_exited(p), "exited after kthread_stop");
	/* task_exit() completes "done" (kthread_stop returns) and only then
	 * sets TASK_DEAD, on the thread's CPU: poll for it, bounded */
	KTEST_EXPECT(t, wait_dead(p), "TASK_DEAD within 5 s, saw state %ld",
		     READ_ONCE(p->state));
	put_task_struct(p);
}

static void test_kthread_stop_never_started_returns_eintr(struct ktest *t)
{
	struct kt_arg a;
	struct task_struct *p;
	int ret;

	kt_arg_init(&a, 0);
	p = kthread_create(kt_return, &a, "kt-never");
	KTEST_ASSERT(t, p, "kthread_create, got NULL");
	ret = kthread_stop(p);
	KTEST_EXPECT_EQ(t, ret, -EINTR);
	KTEST_EXPECT(t, !a.ran, "fn never runs when stopped before it starts");
}

static void test_kthread_should_stop_ends_service_loop(struct ktest *t)
{
	struct kt_arg a;
	struct task_struct *p;

	kt_arg_init(&a, 42);
	p = kthread_run(kt_until_stop, &a, "kt-loop");
	KTEST_ASSERT(t, p, "kthread_run, got NULL");
	wait_for_completion(&a.started);
	/* a plain wakeup is not a stop: the loop goes round once more */
	wake_up_process(p);
	KTEST_EXPECT(t, !kthread_exited(p), "still running after a wakeup");
	KTEST_EXPECT_EQ(t, kthread_stop(p), 42);
	KTEST_EXPECT(t, !kthread_should_stop(),
		     "the runner itself was never asked to stop");
}

/* Scenario: one thread per online CPU, each bound with kthread_bind()
 * before its first wakeup; each must report its own CPU and carry the
 * one-CPU affinity mask. */
static void test_kthread_bind_runs_thread_on_that_cpu(struct ktest *t)
{
	static struct kt_arg a[NR_CPUS];
	struct task_struct *p[NR_CPUS] = { NULL };
	int cpu;

	for_each_online_cpu (cpu) {
		kt_arg_init(&a[cpu], cpu);
		p[cpu] = kthread_create(kt_until_stop, &a[cpu], "kt-bind/%d",
					cpu);
		KTEST_ASSERT(t, p[cpu], "kthread_create, got NULL");
		kthread_bind(p[cpu], cpu);
		KTEST_EXPECT(t, p[cpu]->cpus_allowed.bits == 1ULL << cpu,
			     "affinity %#llx, saw %#llx", 1ULL << cpu,
			     (unsigned long long)p[cpu]->cpus_allowed.bits);
		wake_up_process(p[cpu]);
	}
	for_each_online_cpu (cpu) {
		wait_for_completion(&a[cpu].started);
		KTEST_EXPECT(t, a[cpu].cpu == cpu, "kt-bind/%d ran on CPU %d",
			     cpu, a[cpu].cpu);
		KTEST_EXPECT_EQ(t, kthread_stop(p[cpu]), cpu);
	}
}

static void count_task(struct task_struct *p, void *arg)
{
	(void)p;
	(*(int *)arg)++;
}

static int nr_tasks(void)
{
	int n = 0;

	sched_for_each_task(count_task, &n);
	return n;
}

static unsigned long slab_objs_in_use(void)
{
	struct kmem_cache_info ci;
	unsigned long sum = 0;

	for (int i = 0; kmem_cache_info_get(i, &ci) == 0; i++)
		sum += ci.objs_in_use;
	return sum;
}

static void count_exiting(struct task_struct *p, void *arg)
{
	if (READ_ONCE(p->flags) & PF_EXITING)
		(*(int *)arg)++;
}

/* settle_reaping - until no exited task is on its way out: listed and
 * exiting, or unlisted with its stack not yet freed
 * (sched_nr_tasks_reaping(), kernel/sched/sched.h); deferred releases
 * done.  Bounded as a hang guard. */
static void settle_reaping(void)
{
	u64 end = ktime_get_ns() + REAP_WAIT_NS;
	int n;

	do {
		deferred_flush();
		n = sched_nr_tasks_reaping();
		sched_for_each_task(count_exiting, &n);
		if (n)
			msleep(1);
	} while (n && ktime_get_ns() < end);
}

/* wait_reaped - poll until kstack_nr_in_use() is back to want (or
 * below: a thread an earlier suite started may end meanwhile, its last
 * put is not ours to wait for): the last puts run on other CPUs right
 * after the threads' last switches. */
static bool wait_reaped(unsigned int want)
{
	u64 end = ktime_get_ns() + REAP_WAIT_NS;

	while (kstack_nr_in_use() > want) {
		if (ktime_get_ns() > end)
			return false;
		msleep(1);
	}
	return true;
}

/*
 * Scenario: [1] note the baselines; [2] start REAP_THREADS threads that
 * return at once (none bound, so they spread over the CPUs); [3] wait
 * for each to have run, stop (= wait for the exit of) each while holding
 * a reference, drop the references; [4] once the last puts have run,
 * none of our pids is listed any more, and stacks, tasks and slab
 * objects are back at the baseline.  "At" is "at most": a thread of an
 * earlier suite may end during the test and take the counts under the
 * baseline (seen: stacks 24 after a baseline of 25); one of ours left
 * behind shows as its pid still listed or a count above.
 */
static void test_exited_threads_are_reaped_and_freed(struct ktest *t)
{
	static struct kt_arg a[REAP_THREADS];
	static struct task_struct *p[REAP_THREADS];
	static int pids[REAP_THREADS];
	unsigned int stacks0;
	int tasks0;
	unsigned long objs0;

	/* [1] Earlier suites may have left releases pending (a desched
	 * queue entry, a stack parked by a last put with irqs off); the
	 * first kthread_create below would free those and push the counts
	 * under the baseline, so settle them first. */
	deferred_flush();
	free_dead_stacks();
	stacks0 = kstack_nr_in_use();
	tasks0 = nr_tasks();
	objs0 = slab_objs_in_use();
	int i, started = 0, bad_ret = 0;

	for (i = 0; i < REAP_THREADS; i++) {			/* [2] */
		kt_arg_init(&a[i], 1000 + i);
		p[i] = kthread_create(kt_return, &a[i], "kt-reap/%d", i);
		if (!p[i])
			break;
		pids[i] = p[i]->pid;
		get_task_struct(p[i]);
		wake_up_process(p[i]);
	}
	KTEST_EXPECT_EQ(t, i, REAP_THREADS);
	/* Each create took a stack; "at most" for the same reason as the
	 * end check: an earlier suite's thread may end meanwhile (seen in
	 * the matrix: 69 after a baseline of 60 and 10 creates). */
	KTEST_EXPECT(t, kstack_nr_in_use() <= stacks0 + i &&
			     kstack_nr_in_use() + 4 >= stacks0 + i,
		     "kernel stacks %u after %d creates from %u",
		     kstack_nr_in_use(), i, stacks0);
	for (int j = 0; j < i; j++) {				/* [3] */
		wait_for_completion(&a[j].started);
		started++;
		if (kthread_stop(p[j]) != 1000 + j)
			bad_ret++;
		put_task_struct(p[j]);
	}
	KTEST_EXPECT_EQ(t, started, i);
	KTEST_EXPECT_EQ(t, bad_ret, 0);
	KTEST_ASSERT(t, wait_reaped(stacks0),			/* [4] */
		     "kernel stacks back to %u within 5 s, still %u", stacks0,
		     kstack_nr_in_use());
	for (int j = 0; j < i; j++) {
		struct task_struct *found = sched_find_task(pids[j]);

		KTEST_EXPECT(t, !found, "kt-reap/%d (pid %d) still listed", j,
			     pids[j]);
		if (found)
			put_task_struct(found);
	}
	KTEST_EXPECT(t, nr_tasks() <= tasks0, "tasks back to %d, saw %d",
		     tasks0, nr_tasks());
	KTEST_EXPECT(t, slab_objs_in_use() <= objs0,
		     "slab objects in use back to %lu, saw %lu", objs0,
		     slab_objs_in_use());
}

/* A held reference keeps an exited task (listed, TASK_DEAD) until the
 * holder's put. */
static void test_reference_keeps_dead_task_until_put(struct ktest *t)
{
	unsigned int stacks0;
	int tasks0;
	struct task_struct *p, *found;
	struct kt_arg a;
	int pid;

	/* the +1 checks below are exact: settle tasks an earlier suite
	 * is still freeing (off the list, stack not yet returned) first */
	settle_reaping();
	stacks0 = kstack_nr_in_use();
	tasks0 = nr_tasks();
	kt_arg_init(&a, 5);
	p = kthread_create(kt_return, &a, "kt-ref");
	KTEST_ASSERT(t, p, "kthread_create, got NULL");
	get_task_struct(p);
	wake_up_process(p);
	wait_for_completion(&a.started);
	KTEST_EXPECT_EQ(t, kthread_stop(p), 5);
	/* the scheduler's reference goes after the last switch; ours stays */
	found = sched_find_task(p->pid);
	KTEST_EXPECT(t, found == p, "pid %d still listed while referenced",
		     p->pid);
	if (found)
		put_task_struct(found);
	KTEST_EXPECT_EQ(t, nr_tasks(), tasks0 + 1);
	KTEST_EXPECT_EQ(t, kstack_nr_in_use(), stacks0 + 1);
	pid = p->pid;
	put_task_struct(p);
	KTEST_ASSERT(t, wait_reaped(stacks0), "stack freed after the put, "
		     "still %u in use (want %u)", kstack_nr_in_use(), stacks0);
	found = sched_find_task(pid);
	KTEST_EXPECT(t, !found, "pid %d unlisted after the last put", pid);
	if (found)
		put_task_struct(found);
	KTEST_EXPECT(t, nr_tasks() <= tasks0, "tasks back to %d, saw %d",
		     tasks0, nr_tasks());
}

KTEST_SUITE(kthread,
	    KTEST_CASE(test_kthread_create_does_not_run_until_woken),
	    KTEST_CASE(test_kthread_stop_never_started_returns_eintr),
	    KTEST_CASE(test_kthread_should_stop_ends_service_loop),
	    KTEST_CASE(test_kthread_bind_runs_thread_on_that_cpu),
	    KTEST_CASE(test_exited_threads_are_reaped_and_freed),
	    KTEST_CASE(test_reference_keeps_dead_task_until_put));
