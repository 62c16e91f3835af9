/*
 * tests/kernel/test_tasklet_races.c - the tasklet_races suite: a tasklet
 * scheduled again while it runs (found while reading kernel/irq/
 * tasklet.c for issue 12, "tasklets under rt"; the diagram is at
 * tasklet_action_common() there).
 *
 * test_tasklet_rescheduled_while_held_elsewhere_does_not_spin (rt only:
 * elsewhere a tasklet run cannot be held; needs 2 CPUs).
 * Scenario:
 *   K0  ksoftirqd/0 (SCHED_FIFO 1) runs T's first run, which sleeps
 *       until "go" (as if preempted by a higher-priority task: under rt a
 *       tasklet runs in a preemptible thread).
 *   T   the test task, SCHED_FIFO 10 on CPU 1: tasklet_schedule(T) there
 *       (it wakes ksoftirqd/1), wakes P, and waits for P.
 *   P   a SCHED_OTHER kthread on CPU 1: says it ran.
 *   K1  ksoftirqd/1 (SCHED_FIFO 1) finds T running on CPU 0.
 * Observable: P runs while T's first run is still held (CPU 1 is not
 * monopolised by K1), and after "go" T runs a second time (the schedule
 * is not lost).  Before the fix K1 requeued T on its own CPU and raised
 * the softirq again, round after round: a busy loop at SCHED_FIFO 1
 * that starved every task below it on CPU 1 for as long as T's run was
 * held on CPU 0 (P never ran: the test saw the 5 s safety net expire).
 *
 * test_tasklet_rescheduled_from_itself_runs_again (every model, one CPU
 * is enough): a tasklet that schedules itself from its function runs
 * once more, and then not again.
 */
#include "kernel/ktest.h"
#include "tests/kernel/sched_helpers.h"
#include "kernel/irq/irq_model.h"
#include "kernel/irq/tasklet.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"


static struct {
	struct tasklet_struct t;
	struct completion entered;	/* the first run started */
	struct completion go;		/* the first run may end */
	struct completion ran;		/* a run ended */
	struct completion probe_ran;
	bool hold_first;
	bool resched_first;		/* the first run schedules t again */
	unsigned int runs;
	int first_cpu;
} tk;

static void tk_func(unsigned long data)
{
	(void)data;
	if (++tk.runs == 1) {
		tk.first_cpu = raw_smp_processor_id();
		if (tk.resched_first)
			tasklet_schedule(&tk.t);
		if (tk.hold_first) {
			complete(&tk.entered);
			wait_for_completion(&tk.go);
		}
	}
	complete(&tk.ran);
}

static void tk_reset(bool hold_first, bool resched_first)
{
	tasklet_init(&tk.t, tk_func, 0);
	init_completion(&tk.entered);
	init_completion(&tk.go);
	init_completion(&tk.ran);
	init_completion(&tk.probe_ran);
	tk.hold_first = hold_first;
	tk.resched_first = resched_first;
	tk.runs = 0;
	tk.first_cpu = -1;
}

static bool tk_wait(struct completion *c)
{
	return wait_for_completion_timeout(c, SAFETY_NS) > 0;
}

static int tk_probe_fn(void *unused)
{
	(void)unused;
	complete(&tk.probe_ran);
	return 0;
}

static void
test_tasklet_rescheduled_while_held_elsewhere_does_not_spin(struct ktest *t)
{
	struct task_struct *p;
	bool entered, probe_ran = false, ran_twice;

	if (!SOFTIRQ_THREADED)
		ktest_skip(t, "softirqs run in ksoftirqd only under rt: "
			      "elsewhere a tasklet run cannot be held");
	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the tasklet is held on one and "
			      "scheduled on the other");
	tk_reset(true, false);
	me_rt(0, 0);
	tasklet_schedule(&tk.t);
	entered = tk_wait(&tk.entered);
	if (entered) {
		me_rt(SOFTIRQ_THREAD_PRIO + 9, 1);
		tasklet_schedule(&tk.t);
		p = kthread_create(tk_probe_fn, NULL, "tasklet-probe");
		if (p) {
			kthread_bind(p, 1);
			wake_up_process(p);
			probe_ran = tk_wait(&tk.probe_ran);
		}
		complete(&tk.go);
		if (p && !probe_ran)
			wait_for_completion(&tk.probe_ran);
	}
	tk_wait(&tk.ran);
	ran_twice = tk_wait(&tk.ran);
	me_restore();
	tasklet_kill(&tk.t);

	KTEST_ASSERT(t, entered, "the tasklet's first run started");
	KTEST_EXPECT(t, tk.first_cpu == 0, "first run on CPU 0, saw %d",
		     tk.first_cpu);
	KTEST_EXPECT(t, probe_ran,
		     "a SCHED_OTHER task on CPU 1 runs while the tasklet is "
		     "held on CPU 0; it did not within %lld s: ksoftirqd/1 "
		     "kept requeueing the running tasklet",
		     SAFETY_NS / NSEC_PER_SEC);
	KTEST_EXPECT(t, ran_twice && tk.runs == 2,
		     "the schedule made during the run is kept: 2 runs, saw %u",
		     tk.runs);
}

static void test_tasklet_rescheduled_from_itself_runs_again(struct ktest *t)
{
	bool ran;

	tk_reset(false, true);
	tasklet_schedule(&tk.t);
	ran = tk_wait(&tk.ran) && tk_wait(&tk.ran);
	tasklet_kill(&tk.t);
	KTEST_EXPECT(t, ran && tk.runs == 2,
		     "scheduled from its own run, the tasklet runs once more; "
		     "saw %u runs", tk.runs);
	KTEST_EXPECT(t, tk.t.state == 0, "idle at the end, state %#lx",
		     tk.t.state);
}

KTEST_SUITE(tasklet_races,
	    KTEST_CASE(test_tasklet_rescheduled_while_held_elsewhere_does_not_spin),
	    KTEST_CASE(test_tasklet_rescheduled_from_itself_runs_again));
