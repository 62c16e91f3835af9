/*
 * tests/kernel/test_smp_call_races.c - the smp_call_races suite: the
 * cross-CPU call paths against a caller that is preempted and migrated
 * (found while reading kernel/smp.c for issue 12, "call-function paths";
 * the diagram is at smp_call_function_single() there).
 *
 * test_call_single_to_own_cpu_runs_there.
 * Scenario (models that preempt at interrupt return; needs 2 CPUs):
 *   X   a kthread on CPU 1, SCHED_OTHER: smp_call_function_single(1,
 *       record_cpu, ...): "run it on CPU 1".  X finds CPU 1 is its own
 *       and parks in smp_call_self_window before running it here.
 *   T   the test task on CPU 0 moves X to CPU 0 (set_cpus_allowed); if X
 *       is preemptible in the window, it is preempted and migrated, and T
 *       waits until X is on CPU 0; then T releases X.
 * Observable: record_cpu ran on CPU 1, as asked.  Before the fix X ran
 * it on CPU 0, where it had been migrated after its "is it me?" check.
 */
#include "kernel/ktest.h"
#include "kernel/debug/race_window.h"
#include "kernel/preempt_count.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/preempt_model.h"
#include "kernel/smp.h"
#include "kernel/time/ktime.h"

#define SAFETY_NS (5LL * NSEC_PER_SEC)	/* a hung test, not a timing */

static int ran_on;
static struct completion caller_done;

static void record_cpu(void *info)
{
	(void)info;
	WRITE_ONCE(ran_on, raw_smp_processor_id());
}

static int call_own_cpu_fn(void *unused)
{
	(void)unused;
	smp_call_function_single(1, record_cpu, NULL, true);
	complete(&caller_done);
	return 0;
}

static void test_call_single_to_own_cpu_runs_there(struct ktest *t)
{
	struct task_struct *x;
	bool parked, preemptible_in_window = false, moved = false;
	ktime_t end;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the caller is moved off its CPU");
	if (!PREEMPT_ON_IRQ_RETURN)
		ktest_skip(t, "this model does not preempt kernel code at "
			      "interrupt return: the caller cannot be moved");
	WRITE_ONCE(ran_on, -1);
	init_completion(&caller_done);
	set_cpus_allowed(current, (cpumask_t){ .bits = 1ULL << 0 });
	x = kthread_create(call_own_cpu_fn, NULL, "call-own-cpu");
	KTEST_ASSERT(t, x != NULL, "kthread_create failed");
	get_task_struct(x);
	kthread_bind(x, 1);
	parked = race_window_run_until_parked(&smp_call_self_window, x,
					      SAFETY_NS);
	if (parked) {
		preemptible_in_window =
			!(READ_ONCE(per_cpu(__preempt_count, 1)) & PREEMPT_MASK);
		set_cpus_allowed(x, (cpumask_t){ .bits = 1ULL << 0 });
		end = ktime_get() + SAFETY_NS;
		while (preemptible_in_window && READ_ONCE(x->cpu) != 0 &&
		       ktime_get() < end)
			schedule();
		moved = READ_ONCE(x->cpu) == 0;
	}
	race_window_release(&smp_call_self_window);
	wait_for_completion(&caller_done);
	put_task_struct(x);
	set_cpus_allowed(current, (cpumask_t){ .bits = ~0ULL });

	KTEST_EXPECT(t, parked, "the caller parks in smp_call_self_window");
	KTEST_EXPECT(t, ran_on == 1,
		     "func runs on the CPU asked for (1); it ran on CPU %d: "
		     "the caller was %s in the window and %s to CPU 0 before "
		     "running it \"here\"", ran_on,
		     preemptible_in_window ? "preemptible" : "not preemptible",
		     moved ? "moved" : "not moved");
}

KTEST_SUITE(smp_call_races,
	    KTEST_CASE(test_call_single_to_own_cpu_runs_there));
