/*
 * tests/kernel/test_sched_placement.c - the sched_placement suite: where
 * tasks run on SMP.  Global RT placement puts the N most important
 * never-blocking FIFO hogs on the N CPUs (the lowest one waits), and a
 * task runs only on the CPUs its affinity allows.
 * Set-up helpers: tests/kernel/sched_helpers.h.
 * Linux counterpart: kernel/sched/rt.c's push/pull (find_lowest_rq),
 * set_cpus_allowed_ptr; rtk's placement is kernel/sched/rt_placement.c.
 * Article: "Miscellaneous" (the reschedule IPI that finds another CPU for
 * a woken realtime task: global realtime scheduling).
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/sched/completion.h"
#include "lib/errno.h"

struct hog {
	volatile unsigned long runs;
	bool top;			/* one of the N most important */
	unsigned long low_before, low_after;	/* lowest hog's runs */
};

static struct hog hogs[9];
static int hog_n, hogs_started, hogs_finished;
static volatile bool hogs_stop;
static struct completion hogs_done;	/* the last top hog finished [3] */

/* HOG_SPIN: iterations a top hog runs while watching the lowest one;
 * enough for several ticks under TCG, no timing depends on it. */
#define HOG_SPIN 200000

static int hog_thread(void *arg)
{
	struct hog *h = arg;
	unsigned long i;

	if (!h->top) {
		while (!hogs_stop) {
			h->runs++;
			cond_resched();
		}
		return 0;
	}
	/* [1] wait until all N top hogs run at the same time */
	__atomic_add_fetch(&hogs_started, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&hogs_started, __ATOMIC_SEQ_CST) < hog_n &&
	       !hogs_stop)
		cond_resched();
	/* [2] meanwhile the lowest hog must not run at all */
	h->low_before = hogs[0].runs;
	for (i = 0; i < HOG_SPIN; i++) {
		h->runs++;
		cond_resched();
	}
	h->low_after = hogs[0].runs;
	/* [3] the last one done stops everybody */
	if (__atomic_add_fetch(&hogs_finished, 1, __ATOMIC_SEQ_CST) == hog_n) {
		hogs_stop = true;
		complete(&hogs_done);
	}
	while (!hogs_stop)
		cond_resched();
	return 0;
}

/*
 * Scenario (SMP, N CPUs): the test, at FIFO 99 on CPU 0, starts N+1
 * unbound FIFO hogs, most important first (10+N .. 10), then drops to
 * SCHED_OTHER and waits for the last top hog to finish.  Global placement must put the
 * N most important on the N CPUs: [1] each of them waits until all N
 * run at once (they never block, so this needs N CPUs), [2] each then
 * spins HOG_SPIN times and checks the lowest hog made no progress
 * meanwhile, [3] the last one stops all.  Under none the test's own CPU
 * is given up by blocking, as the model requires.  With one CPU it is
 * the same test with two hogs: the more important one runs its whole
 * spin before the other runs at all.
 */
static void test_rt_hogs_n_highest_run_on_n_cpus(struct ktest *t)
{
	struct task_struct *p[9];
	int n = num_online_cpus(), i;

	if (n + 1 > (int)ARRAY_SIZE(hogs))
		n = ARRAY_SIZE(hogs) - 1;
	hog_n = n;
	hogs_started = hogs_finished = 0;
	hogs_stop = false;
	init_completion(&hogs_done);
	me_rt(99, 0);
	for (i = n; i >= 0; i--) {
		hogs[i] = (struct hog){ .top = i > 0 };
		p[i] = start_rt(hog_thread, &hogs[i], SCHED_FIFO, 10 + i, -1,
				"hog");
	}
	me_restore();
	/* stop only after [3]: kthread_stop before a thread first ran
	 * would end it without running it (Linux's -EINTR case) */
	if (!wait_for_completion_timeout(&hogs_done, RR_SAFETY_NS))
		hogs_stop = true;
	for (i = n; i >= 0; i--)
		if (p[i]) {
			kthread_stop(p[i]);
			put_task_struct(p[i]);
		}
	KTEST_EXPECT_EQ(t, hogs_started, n);
	KTEST_EXPECT_EQ(t, hogs_finished, n);
	for (i = 1; i <= n; i++)
		KTEST_EXPECT(t, hogs[i].low_after == hogs[i].low_before,
			     "lowest hog ran while top hog %d watched: %lu -> "
			     "%lu", i, hogs[i].low_before, hogs[i].low_after);
}

struct aff_arg {
	int cpu, bad;
	struct completion done;
};

static int affinity_thread(void *arg)
{
	struct aff_arg *a = arg;
	int i;

	for (i = 0; i < 2000; i++) {
		if (raw_smp_processor_id() != a->cpu)
			a->bad++;
		if (i % 100 == 0)
			sched_yield();
	}
	complete(&a->done);
	return 0;
}

/* A thread allowed only on the last CPU runs only there; the test task
 * moved by set_cpus_allowed lands on the CPU it asked for. */
static void test_affinity_is_respected(struct ktest *t)
{
	struct aff_arg a = { .cpu = num_online_cpus() - 1 };
	struct task_struct *p;

	init_completion(&a.done);
	p = kthread_create(affinity_thread, &a, "aff");
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	KTEST_EXPECT_EQ(t, set_cpus_allowed(p, one_cpu(a.cpu)), 0);
	get_task_struct(p);
	wake_up_process(p);
	wait_for_completion(&a.done);
	KTEST_EXPECT_EQ(t, a.bad, 0);
	put_task_struct(p);
	set_cpus_allowed(current, one_cpu(a.cpu));
	KTEST_EXPECT_EQ(t, raw_smp_processor_id(), a.cpu);
	KTEST_EXPECT_EQ(t, set_cpus_allowed(current, (cpumask_t){ 0 }),
			-EINVAL);
	me_restore();
}

KTEST_SUITE(sched_placement,
	    KTEST_CASE(test_rt_hogs_n_highest_run_on_n_cpus),
	    KTEST_CASE(test_affinity_is_respected));
