/*
 * tests/kernel/test_rt_pushable.c - the rt_pushable suite: what a run
 * queue publishes as "pushable" (rq->rt_nr_pushable), the lockless hint
 * every other CPU's pull_rt_task and the switch path's push_rt_tasks
 * read before they take this queue's lock (kernel/sched/rt.c).
 *
 * A queued RT task that may run on this CPU alone can be neither pushed
 * nor pulled; counted as pushable, it makes every other CPU that
 * schedules lock this queue for nothing.  With 63 idle CPUs that was a
 * convoy on CPU 0's rq->lock while the boot CPU's per-CPU threads sat
 * queued behind init (the herd drawn at rq_update_cpu_prio in
 * kernel/sched/rq.c; make test-machines madt-66-cpus panicked "raw
 * spinlock rq->lock ... stuck ... at pull_rt_task").
 *
 * Scenario (every case): T, the test task, runs at SCHED_FIFO 90 bound
 * to CPU 0 and wakes W (SCHED_FIFO 50) without blocking; W is queued on
 * CPU 0 behind T, not running.  T reads CPU 0's published count before
 * it blocks on W's completion, then W runs and completes.
 *  - W bound to CPU 0: 0 must be published (runs on 1 CPU and on all);
 *  - W allowed everywhere, one CPU: 1 must be published (with more CPUs
 *    the wakeup places W on an idle CPU, so the case needs exactly one).
 * Linux counterpart: kernel/sched/rt.c enqueue_pushable_task (only
 * tasks with nr_cpus_allowed > 1), rt_rq->rt_nr_migratory (before 6.8).
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/rq.h"	/* rt_nr_pushable: a test-only read */

#define T_PRIO 90
#define W_PRIO 50

static struct completion w_ran;

static int w_fn(void *arg)
{
	complete(&w_ran);
	return 0;
}

/* Wake W (mask) behind T on CPU 0; what CPU 0 publishes while it waits. */
static int pushable_with_queued_w(struct ktest *t, cpumask_t mask)
{
	struct task_struct *w;
	unsigned int seen;

	init_completion(&w_ran);
	me_rt(T_PRIO, 0);
	w = create_fifo(w_fn, NULL, W_PRIO, mask, "rtpush-w");
	if (!w) {
		me_restore();
		KTEST_ASSERT(t, false, "kthread_create failed");
		return -1;
	}
	wake_up_process(w);	/* T (90) keeps CPU 0: W stays queued */
	seen = READ_ONCE(cpu_rq(0)->rt_nr_pushable);
	wait_for_completion(&w_ran);
	kthread_stop(w);
	put_task_struct(w);
	me_restore();
	return (int)seen;
}

static void test_rt_task_pinned_to_its_cpu_is_not_pushable(struct ktest *t)
{
	int seen = pushable_with_queued_w(t, one_cpu(0));

	KTEST_EXPECT(t, seen == 0,
		     "CPU 0 published %d pushable RT tasks while W (bound to "
		     "CPU 0) was queued behind T; expected 0: every other "
		     "CPU's pull would lock CPU 0's rq->lock for it", seen);
}

static void test_rt_task_allowed_elsewhere_is_pushable(struct ktest *t)
{
	int seen;

	if (num_online_cpus() != 1) {
		ktest_skip(t, "needs exactly one CPU: with more, W's wakeup "
			      "places it on an idle CPU instead of behind T");
		return;
	}
	seen = pushable_with_queued_w(t, (cpumask_t){ .bits = ~0ULL });
	KTEST_EXPECT(t, seen == 1,
		     "CPU 0 published %d pushable RT tasks while W (any CPU) "
		     "was queued behind T; expected 1", seen);
}

KTEST_SUITE(rt_pushable,
	    KTEST_CASE(test_rt_task_pinned_to_its_cpu_is_not_pushable),
	    KTEST_CASE(test_rt_task_allowed_elsewhere_is_pushable));
