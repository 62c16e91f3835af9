/*
 * tests/kernel/test_fault_inject.c - the fault_inject suite: with
 * allocation failures injected (kernel/mm/fault_inject.h), the callers
 * that allocate - kthread creation, request_irq (and its irq thread),
 * load_start - return a clean out-of-memory error and leave page, slab
 * and kernel-stack counts where they were.
 *
 * Scenario: the test runner's thread only; the failures are filtered to
 * it (fault_attr.task), so background threads (watchdogs, rcu, desched)
 * allocate normally.  Each test first runs its operations once without
 * failures (the first use of a kernel-stack slot or an irq line may
 * allocate page tables or descriptors for good), then takes the
 * baseline: deferred releases flushed, parked stacks freed, per-CPU
 * arrays drained; then "free pages + pages held by slab caches", the
 * slab objects in use and the kernel stacks in use.
 *   - 100%: failslab alone, then fail_page_alloc alone: every operation
 *     must fail with -ENOMEM (kthread_create: NULL), and the baseline
 *     must hold afterwards;
 *   - 1%, both: a loop of mixed operations (kthread run/stop, request/
 *     free_irq, load start/stop, kmalloc of 16 B .. 8 KiB); each must
 *     succeed or fail with -ENOMEM, some must fail, and the baseline
 *     must hold at the end.
 * Runs on one CPU and on all.  The software line FI_IRQ is this suite's.
 * The baseline also waits for tasks being freed on another CPU (off the
 * task list, memory not yet returned): test_reaping_task_is_counted.
 * Linux counterpart: tools/testing/fault-injection/failcmd.sh runs.
 */
#include "kernel/debug/race_window.h"
#include "kernel/ktest.h"
#include "kernel/printk.h"
#include "kernel/workloads/load.h"
#include "kernel/irq/manage.h"
#include "kernel/mm/fault_inject.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/slab.h"
#include "kernel/sched/deferred.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/sched.h"
#include "kernel/time/ktime.h"
#include "kernel/sched/wait.h"
#include "kernel/sched/completion.h"
#include "kernel/smp.h"
#include "tests/kernel/sched_helpers.h"
#include "arch/x86_64/arch.h"
#include "lib/errno.h"

#define FI_IRQ (ARCH_NR_ISA_IRQS + 3)	/* software line, vector 0x33;
					 * irqthreads +0/+1, bench +2 */
#define MIX_ROUNDS 200			/* ~1200 eligible calls: ~12 fail */
#define REAP_WAIT_NS (5LL * NSEC_PER_SEC)	/* hang guard only */

struct mm_snap {
	unsigned long pages;		/* free + held by slab caches */
	unsigned long objs;		/* slab objects handed out */
	unsigned int kstacks;
};

/* count_dead - also a task still on its way out: task_exit() completes
 * kthread_stop()'s wait before it sets TASK_DEAD, so the stopper may
 * run first and find the thread PF_EXITING but TASK_RUNNING (seen with
 * SMP=1: a `load cpu` thread left on the run queue, one stack short). */
static void count_dead(struct task_struct *p, void *arg)
{
	if (READ_ONCE(p->state) == TASK_DEAD ||
	    (READ_ONCE(p->flags) & PF_EXITING))
		(*(int *)arg)++;
}

/* tasks_in_exit - exited tasks still holding memory: on the list and
 * exiting, or off it and being freed (sched_nr_tasks_reaping, whose
 * comment in kernel/sched/sched.h draws the race this closes). */
static int tasks_in_exit(void)
{
	int dead = 0;

	sched_for_each_task(count_dead, &dead);
	return dead + sched_nr_tasks_reaping();
}

/* wait_dead_reaped - until no exited task waits for its last put: a
 * thread that returned is freed by the put after its last switch, on
 * its CPU, a moment after kthread_stop() returned.  The bound is a
 * hang guard; the poll ends as soon as the puts have run. */
static void wait_dead_reaped(void)
{
	u64 end = ktime_get_ns() + REAP_WAIT_NS;

	while (tasks_in_exit() && ktime_get_ns() < end)
		msleep(1);
}

static void snap(struct mm_snap *s)
{
	unsigned long slab_pages;

	wait_dead_reaped();
	deferred_flush();
	free_dead_stacks();
	slab_drain_all();
	kmem_cache_totals(&s->objs, &slab_pages);
	s->pages = pmm_nr_free_pages() + slab_pages;
	s->kstacks = kstack_nr_in_use();
}

static void expect_baseline(struct ktest *t, const struct mm_snap *s0)
{
	struct mm_snap s1;

	snap(&s1);
	KTEST_EXPECT(t, s1.pages == s0->pages,
		     "free + slab pages back to %lu, saw %lu", s0->pages,
		     s1.pages);
	KTEST_EXPECT(t, s1.objs == s0->objs,
		     "slab objects in use back to %lu, saw %lu", s0->objs,
		     s1.objs);
	KTEST_EXPECT(t, s1.kstacks == s0->kstacks,
		     "kernel stacks back to %u, saw %u", s0->kstacks,
		     s1.kstacks);
}

/* fail_mine - percent of this task's eligible allocations from a fail. */
static void fail_mine(struct fault_attr *a, unsigned long percent)
{
	fault_attr_set(a, percent, 1, -1, 0, current);
}

static void faults_off(void)
{
	fault_attr_off(&failslab);
	fault_attr_off(&fail_page_alloc);
}

static int fi_return(void *arg)
{
	return 0;
}

static irqreturn_t fi_handler(int irq, void *dev_id)
{
	return IRQ_HANDLED;
}

/* op_kthread - run and stop a thread: 0, or -ENOMEM when its creation
 * failed.  The reference keeps p valid for kthread_stop even when the
 * thread has already returned and been reaped (Linux's rule too). */
static int op_kthread(void)
{
	struct task_struct *p = kthread_create(fi_return, NULL, "fault-inject");

	if (!p)
		return -ENOMEM;
	get_task_struct(p);
	wake_up_process(p);
	kthread_stop(p);
	put_task_struct(p);
	return 0;
}

static int op_irq(void)
{
	static int dev;
	int err = request_irq(FI_IRQ, fi_handler, 0, "fault-inject", &dev);

	if (!err)
		free_irq(FI_IRQ, &dev);
	return err;
}

static int op_load(void)
{
	int id = load_start(LOAD_CPU, 1, 0);

	if (id < 0)
		return id;
	load_stop(id);
	return 0;
}

/* op_kmalloc - eight allocations of 16 B .. 2 KiB and one of 8 KiB (the
 * page path); all freed.  -ENOMEM when any failed. */
static int op_kmalloc(void)
{
	void *p[9];
	int err = 0;

	for (int i = 0; i < 9; i++) {
		p[i] = kmalloc(i < 8 ? 16UL << i : 8192, GFP_KERNEL);
		if (!p[i])
			err = -ENOMEM;
	}
	for (int i = 0; i < 9; i++)
		kfree(p[i]);
	return err;
}

static void test_kthread_create_fails_cleanly(struct ktest *t)
{
	unsigned long f0 = failslab.failures, p0 = fail_page_alloc.failures;
	struct task_struct *p;
	struct mm_snap s0;

	KTEST_ASSERT_EQ(t, op_kthread(), 0);			/* warm-up */
	snap(&s0);
	fail_mine(&failslab, 100);		/* the task struct */
	p = kthread_create(fi_return, NULL, "fault-inject");
	faults_off();
	KTEST_EXPECT(t, !p, "kthread_create with kmalloc failing: NULL, saw %p",
		     p);
	fail_mine(&fail_page_alloc, 100);	/* its stack */
	p = kthread_create(fi_return, NULL, "fault-inject");
	faults_off();
	KTEST_EXPECT(t, !p, "kthread_create with pages failing: NULL, saw %p",
		     p);
	KTEST_EXPECT(t, failslab.failures > f0 && fail_page_alloc.failures > p0,
		     "both injected: failslab %lu, fail_page_alloc %lu",
		     failslab.failures - f0, fail_page_alloc.failures - p0);
	expect_baseline(t, &s0);
}

/* Under PREEMPT_NONE FI_IRQ gets no thread: with only pages failing,
 * request_irq may then succeed (its action came from a per-CPU array). */
static void test_request_irq_fails_cleanly(struct ktest *t)
{
	struct mm_snap s0;
	int err;

	KTEST_ASSERT_EQ(t, op_irq(), 0);			/* warm-up */
	snap(&s0);
	fail_mine(&failslab, 100);
	err = op_irq();
	faults_off();
	KTEST_EXPECT_EQ(t, err, -ENOMEM);
	fail_mine(&fail_page_alloc, 100);
	err = op_irq();
	faults_off();
	KTEST_EXPECT(t, err == -ENOMEM || (err == 0 && !irq_is_threaded(FI_IRQ)),
		     "request_irq with pages failing: -ENOMEM (or 0 for an "
		     "unthreaded line), saw %d", err);
	KTEST_EXPECT_EQ(t, op_irq(), 0);	/* the line is usable again */
	expect_baseline(t, &s0);
}

static void test_load_start_fails_cleanly(struct ktest *t)
{
	int loads0 = load_count(), err;
	struct mm_snap s0;

	KTEST_ASSERT_EQ(t, op_load(), 0);			/* warm-up */
	snap(&s0);
	fail_mine(&failslab, 100);
	err = op_load();
	faults_off();
	KTEST_EXPECT_EQ(t, err, -ENOMEM);
	fail_mine(&fail_page_alloc, 100);
	err = op_load();
	faults_off();
	KTEST_EXPECT_EQ(t, err, -ENOMEM);
	KTEST_EXPECT_EQ(t, load_count(), loads0);
	expect_baseline(t, &s0);
}

static void test_mixed_operations_at_one_percent(struct ktest *t)
{
	unsigned long calls0 = failslab.calls + fail_page_alloc.calls;
	unsigned long fails0 = failslab.failures + fail_page_alloc.failures;
	int ok = 0, enomem = 0, other = 0, err = 0, last_other = 0;
	struct mm_snap s0;

	KTEST_ASSERT_EQ(t, op_kthread() | op_irq() | op_load() | op_kmalloc(),
			0);					/* warm-up */
	snap(&s0);
	fail_mine(&failslab, 1);
	fail_mine(&fail_page_alloc, 1);
	for (int i = 0; i < MIX_ROUNDS; i++) {
		switch (i % 4) {
		case 0:
			err = op_kthread();
			break;
		case 1:
			err = op_irq();
			break;
		case 2:
			err = op_load();
			break;
		case 3:
			err = op_kmalloc();
			break;
		}
		if (!err) {
			ok++;
		} else if (err == -ENOMEM) {
			enomem++;
		} else {
			other++;
			last_other = err;
		}
	}
	faults_off();
	pr_info("fault_inject: %d ops: %d ok, %d -ENOMEM; %lu eligible calls, %lu "
		     "failed\n", MIX_ROUNDS, ok, enomem,
		     failslab.calls + fail_page_alloc.calls - calls0,
		     failslab.failures + fail_page_alloc.failures - fails0);
	KTEST_EXPECT(t, other == 0, "only 0 or -ENOMEM, saw %d others (last %d)",
		     other, last_other);
	KTEST_EXPECT(t, enomem > 0, "some operations failed at 1%%, saw none "
		     "in %d", MIX_ROUNDS);
	expect_baseline(t, &s0);
}

struct reap_arg {
	struct task_struct *victim;
	struct completion done;
};

/* fi_put_last - drop the last reference to a->victim: this thread runs
 * __put_task_struct, and parks in its window when armed. */
static int fi_put_last(void *arg)
{
	struct reap_arg *a = arg;

	put_task_struct(a->victim);
	complete(&a->done);
	return 0;
}

/*
 * A task being freed on another CPU is off the task list but still holds
 * its stack and struct; the baseline must wait for it.  Forced: the last
 * put runs on CPU 1 in a thread parked in put_task_unlisted_window, and
 * the runner (CPU 0) must see one task in exit, not zero.  Before
 * sched_nr_tasks_reaping() the walk saw none, and test_load_start_fails_
 * cleanly failed one run in twelve under desktop SMP=4 with "kernel
 * stacks back to 25, saw 24".
 */
static void test_reaping_task_is_counted(struct ktest *t)
{
	struct reap_arg a = { 0 };
	struct task_struct *putter;
	u64 end = ktime_get_ns() + REAP_WAIT_NS;
	bool parked;
	int seen;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs a second CPU for the freeing side");
	init_completion(&a.done);
	me_rt(0, 0);
	a.victim = kthread_create(fi_return, NULL, "fi-victim");
	KTEST_ASSERT(t, a.victim != NULL, "kthread_create failed");
	get_task_struct(a.victim);
	wake_up_process(a.victim);
	kthread_stop(a.victim);
	/* the victim's own reference goes at its last switch */
	while (READ_ONCE(a.victim->refcount) > 1 && ktime_get_ns() < end)
		msleep(1);
	putter = kthread_create(fi_put_last, &a, "fi-putter");
	if (!putter) {
		put_task_struct(a.victim);
		me_restore();
		KTEST_ASSERT(t, 0, "kthread_create failed");
	}
	kthread_bind(putter, 1);
	parked = race_window_run_until_parked(&put_task_unlisted_window,
					      putter, RACE_WINDOW_MAX_NS);
	seen = tasks_in_exit();
	if (parked)
		race_window_release(&put_task_unlisted_window);
	wait_for_completion(&a.done);
	me_restore();
	KTEST_EXPECT(t, parked, "the putter parks in put_task_unlisted_window "
		     "within 1 s");
	KTEST_EXPECT(t, !parked || seen >= 1,
		     "a task freed on CPU 1 (unlisted, stack not yet freed) "
		     "counts as in exit: want >= 1, saw %d", seen);
	wait_dead_reaped();
	KTEST_EXPECT_EQ(t, tasks_in_exit(), 0);
}

/*
 * A task whose last reference is gone but which is still on the task
 * list must not be found by a lookup: sched_find_task (kill(pid, 0), a
 * PI futex's owner TID, chrt) took a reference on it, 0 -> 1, and the
 * finder's put freed it a second time:
 *
 *	CPU1 (last put)			CPU0 (sched_find_task(pid))
 *	refcount 1 -> 0
 *	__put_task_struct: parks	finds p on the list: 0 -> 1
 *	unlist, free stack and struct	put: 1 -> 0, __put_task_struct
 *					again: unlist a freed task (#PF)
 * Seen as a #PF in sched_task_unlist from attach_to_pi_owner when
 * t_pi_owner scanned every TID.  Forced: the putter parks in
 * put_task_last_window; the lookup must return NULL.
 */
static void test_dying_task_is_not_found(struct ktest *t)
{
	struct reap_arg a = { 0 };
	struct task_struct *putter, *found = NULL;
	u64 end = ktime_get_ns() + REAP_WAIT_NS;
	bool parked;
	int pid;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs a second CPU for the freeing side");
	init_completion(&a.done);
	me_rt(0, 0);
	a.victim = kthread_create(fi_return, NULL, "fi-victim");
	KTEST_ASSERT(t, a.victim != NULL, "kthread_create failed");
	pid = a.victim->pid;
	get_task_struct(a.victim);
	wake_up_process(a.victim);
	kthread_stop(a.victim);
	while (READ_ONCE(a.victim->refcount) > 1 && ktime_get_ns() < end)
		msleep(1);
	putter = kthread_create(fi_put_last, &a, "fi-putter");
	if (!putter) {
		put_task_struct(a.victim);
		me_restore();
		KTEST_ASSERT(t, 0, "kthread_create failed");
	}
	kthread_bind(putter, 1);
	parked = race_window_run_until_parked(&put_task_last_window, putter,
					      RACE_WINDOW_MAX_NS);
	if (parked)
		found = sched_find_task(pid);
	if (parked)
		race_window_release(&put_task_last_window);
	wait_for_completion(&a.done);
	me_restore();
	KTEST_EXPECT(t, parked, "the putter parks in put_task_last_window "
		     "within 1 s");
	/* a found task is not put: it is being freed, a put would free it
	 * twice (the bug) */
	KTEST_EXPECT(t, !found, "sched_find_task(%d) found a task whose last "
		     "reference was gone (refcount 0 -> %d)", pid,
		     found ? 1 : 0);
	wait_dead_reaped();
}

KTEST_SUITE(fault_inject,
	    KTEST_CASE(test_reaping_task_is_counted),
	    KTEST_CASE(test_dying_task_is_not_found),
	    KTEST_CASE(test_kthread_create_fails_cleanly),
	    KTEST_CASE(test_request_irq_fails_cleanly),
	    KTEST_CASE(test_load_start_fails_cleanly),
	    KTEST_CASE(test_mixed_operations_at_one_percent));
