/*
 * tests/kernel/test_deferred.c - deferred operations (article, "Deferred
 * operations"; kernel/sched/deferred.h, kernel/mm/mm_struct.h).
 *
 * - put_task_struct_delayed() and mmdrop_delayed() called with
 *   preemption and interrupts off do not release there: the release runs
 *   later in the desched thread, preemptible (stats count it).
 * - the scheduler's own last put of a dead task (finish_task_switch,
 *   preemption off) is a delayed put under rt and an immediate one under
 *   the other models: the delayed-put count moves by the exits under rt
 *   only.
 * - wake-then-unlock (scenario below): with wake_up_process() under rt
 *   the woken task preempts the waker only to block at once on the
 *   waker's lock; wake_up_process_sync() defers the preemption
 *   (TIF_NEED_RESCHED_DELAYED) to the waker's spin_unlock(), and the
 *   wasted switches disappear.  Elsewhere spinlock_t disables preemption,
 *   so neither wakeup wastes a switch; the delayed flag is still set by
 *   the sync wakeup and cleared by the unlock under every model.
 */
#include "kernel/ktest.h"
#include "kernel/irq/irq_stats.h"
#include "kernel/sched/sched.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/deferred.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/locking/spinlock.h"
#include "arch/x86_64/arch.h"
#include "arch/x86_64/mmu.h"
#include "kernel/printk.h"
#include "lib/string.h"
#include "lib/errno.h"

#ifdef CONFIG_PREEMPT_RT
#define IS_RT 1
#else
#define IS_RT 0
#endif

static int exit_at_once(void *unused)
{
	(void)unused;
	return 0;
}

static bool ran_in_desched(const struct deferred_stats *s)
{
	return s->last_release_task &&
	       !strcmp(s->last_release_task->name, "desched");
}

static void test_put_task_struct_delayed_releases_in_desched(struct ktest *t)
{
	struct deferred_stats before, after;
	struct task_struct *p;
	unsigned long flags;
	int spins = 0;

	p = kthread_create(exit_at_once, NULL, "def-exit");
	KTEST_ASSERT(t, p != NULL, "kthread_create failed");
	get_task_struct(p);	/* ours: the one put_task_struct_delayed drops */
	wake_up_process(p);
	KTEST_ASSERT_EQ(t, kthread_stop(p), 0);
	/* the scheduler's reference goes when the dead task has switched
	 * out (finish_task_switch): wait for that, not for a time */
	while (__atomic_load_n(&p->refcount, __ATOMIC_ACQUIRE) != 1) {
		schedule();
		KTEST_ASSERT(t, ++spins < 1000000, "refcount stuck at %d",
			     p->refcount);
	}
	deferred_get_stats(&before);
	raw_local_irq_save(flags);
	preempt_disable();
	put_task_struct_delayed(p);	/* the last reference, atomic */
	preempt_enable();
	raw_local_irq_restore(flags);
	deferred_flush();
	deferred_get_stats(&after);
	/* ours, and under rt perhaps an earlier suite's thread whose last
	 * put (finish_task_switch) came meanwhile: at least one */
	KTEST_EXPECT(t, after.tasks_queued - before.tasks_queued >= 1,
		     "%lu queued, expected at least ours",
		     after.tasks_queued - before.tasks_queued);
	KTEST_EXPECT(t, after.tasks_released - before.tasks_released >= 1,
		     "%lu released, expected at least ours",
		     after.tasks_released - before.tasks_released);
	KTEST_EXPECT_EQ(t, after.released_atomic, 0);
	KTEST_EXPECT(t, ran_in_desched(&after),
		     "release ran in %s, expected desched",
		     after.last_release_task ? after.last_release_task->name : "-");
}

static void test_put_task_struct_delayed_keeps_a_live_task(struct ktest *t)
{
	struct deferred_stats before, after;
	struct task_struct *p = current;

	deferred_get_stats(&before);
	get_task_struct(p);
	put_task_struct_delayed(p);	/* not the last: nothing queued */
	deferred_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.tasks_queued, before.tasks_queued);
}

struct pid_probe {
	int pid;
	bool found;
};

static void probe_pid(struct task_struct *p, void *arg)
{
	struct pid_probe *probe = arg;

	if (p->pid == probe->pid)
		probe->found = true;
}

/* is pid still on the task list?  Takes no reference (one held here
 * could become the last one and hide the switch's put). */
static bool task_listed(int pid)
{
	struct pid_probe probe = { .pid = pid, .found = false };

	sched_for_each_task(probe_pid, &probe);
	return probe.found;
}

/*
 * Scenario: NR_EXITS kthreads are created and woken and return at once;
 * nobody but the scheduler holds a reference, so the last put of each is
 * the one in finish_task_switch, with preemption off.  The test waits
 * until every pid has left the task list (the release ran), polling with
 * schedule(), then compares the delayed-put counters: under rt each exit
 * was queued to desched and released there (NR_EXITS more queued and
 * released, none atomic); elsewhere the switch freed them itself (no
 * change).  Fails under rt without the finish_task_switch hook.
 */
#define NR_EXITS 3
static void test_dead_task_last_put_is_delayed_only_under_rt(struct ktest *t)
{
	struct deferred_stats before, after;
	int pid[NR_EXITS], i, spins = 0;
	struct task_struct *p;
	bool listed;

	deferred_flush();	/* earlier suites' releases out of the way */
	deferred_get_stats(&before);
	for (i = 0; i < NR_EXITS; i++) {
		p = kthread_create(exit_at_once, NULL, "def-die%d", i);
		KTEST_ASSERT(t, p != NULL, "kthread_create failed");
		pid[i] = p->pid;
		wake_up_process(p);	/* p may be gone once this returns */
	}
	do {
		listed = false;
		for (i = 0; i < NR_EXITS; i++)
			listed |= task_listed(pid[i]);
		if (listed)
			schedule();
		KTEST_ASSERT(t, ++spins < 1000000,
			     "exited threads still listed after %d polls", spins);
	} while (listed);
	/* desched unlists a task, then counts its release: wait for the
	 * count too (a no-op when nothing was queued, as outside rt) */
	deferred_flush();
	deferred_get_stats(&after);
	/* under rt another task's exit may add to the count, never less */
	if (IS_RT) {
		KTEST_EXPECT(t, after.tasks_queued - before.tasks_queued >= NR_EXITS,
			     "%lu delayed puts, expected at least %d",
			     after.tasks_queued - before.tasks_queued, NR_EXITS);
		KTEST_EXPECT(t, after.tasks_released - before.tasks_released >=
					NR_EXITS,
			     "%lu delayed releases, expected at least %d",
			     after.tasks_released - before.tasks_released,
			     NR_EXITS);
	} else {
		KTEST_EXPECT_EQ(t, after.tasks_queued, before.tasks_queued);
		KTEST_EXPECT_EQ(t, after.tasks_released, before.tasks_released);
	}
	KTEST_EXPECT_EQ(t, after.released_atomic, before.released_atomic);
	if (IS_RT)
		KTEST_EXPECT(t, ran_in_desched(&after),
			     "release ran in %s, expected desched",
			     after.last_release_task ?
				     after.last_release_task->name : "-");
}

static void test_init_mm_is_the_kernel_address_space(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, init_mm.pgd, mmu_kernel_cr3());
	KTEST_EXPECT(t, init_mm.mm_count >= 1, "init_mm.mm_count %d",
		     init_mm.mm_count);
	KTEST_EXPECT(t, !strcmp(init_mm.name, "init_mm"), "name %s",
		     init_mm.name);
}

static void test_mmdrop_delayed_frees_later_in_task_context(struct ktest *t)
{
	struct deferred_stats before, mid, after;
	struct mm_struct *mm;
	unsigned long flags;
	int live;

	live = mm_count_live();
	mm = mm_alloc("test_deferred");
	KTEST_ASSERT(t, mm != NULL, "mm_alloc failed");
	KTEST_EXPECT_EQ(t, mm_count_live(), live + 1);
	KTEST_EXPECT_EQ(t, mm->pgd, init_mm.pgd);
	mmgrab(mm);
	mmdrop(mm);			/* not the last: still there */
	KTEST_EXPECT_EQ(t, mm_count_live(), live + 1);

	deferred_get_stats(&before);
	raw_local_irq_save(flags);
	preempt_disable();
	mmdrop_delayed(mm);		/* the last reference, atomic */
	deferred_get_stats(&mid);
	preempt_enable();
	raw_local_irq_restore(flags);
	/* one CPU: desched cannot have run while we were atomic */
	if (num_online_cpus() == 1)
		KTEST_EXPECT_EQ(t, mid.mms_released, before.mms_released);
	deferred_flush();
	deferred_get_stats(&after);
	KTEST_EXPECT_EQ(t, after.mms_queued - before.mms_queued, 1);
	KTEST_EXPECT_EQ(t, after.mms_released - before.mms_released, 1);
	KTEST_EXPECT_EQ(t, after.released_atomic, 0);
	KTEST_EXPECT(t, ran_in_desched(&after), "release ran in %s",
		     after.last_release_task ? after.last_release_task->name : "-");
	KTEST_EXPECT_EQ(t, mm_count_live(), live);
}

/*
 * Wake-then-unlock.  Tasks, both bound to CPU 0:
 *   W  SCHED_FIFO 10, the waker: N times { spin_lock(L); go = 1;
 *      wake H; spin_unlock(L); wait for H's iteration }
 *   H  SCHED_FIFO 20, the woken: sleeps until go, then
 *      if (!spin_trylock(L)) { blocked_at_once++; spin_lock(L); }
 * H is more important, so a wakeup that preempts W at once (rt,
 * wake_up_process) runs H while W still holds L: H blocks, PI boosts W
 * to 20, W unlocks, H runs again -- two wasted switches per iteration.
 * With wake_up_process_sync the preemption waits for spin_unlock(L): H
 * finds L free.  A tick or an irq thread landing between the wakeup and
 * the unlock also reschedules (the bound on the delay), so the sync
 * count may be a few, never most.
 */
#define WAKE_ITERS 200
#define WAKE_SLACK (WAKE_ITERS / 20)	/* ticks in the window; see above */

struct wake_test {
	spinlock_t lock;
	bool sync;
	bool go;			/* W -> H, under lock */
	struct task_struct *woken;
	struct completion iter_done;	/* H -> W, once per iteration */
	int blocked_at_once;		/* H's trylock failed */
	int delayed_seen;		/* W saw the delayed flag after waking */
	int need_resched_seen;		/* ... or the plain flag */
};

static int woken_fn(void *arg)
{
	struct wake_test *w = arg;
	int i;

	for (i = 0; i < WAKE_ITERS; i++) {
		for (;;) {
			set_current_state(TASK_UNINTERRUPTIBLE);
			if (READ_ONCE(w->go))
				break;
			schedule();
		}
		__set_current_state(TASK_RUNNING);
		if (!spin_trylock(&w->lock)) {
			w->blocked_at_once++;
			spin_lock(&w->lock);
		}
		w->go = false;
		spin_unlock(&w->lock);
		complete(&w->iter_done);
	}
	return 0;
}

static int waker_fn(void *arg)
{
	struct wake_test *w = arg;
	int i;

	/* H must be asleep before the first wakeup */
	while (READ_ONCE(w->woken->state) == TASK_RUNNING)
		schedule();
	for (i = 0; i < WAKE_ITERS; i++) {
		spin_lock(&w->lock);
		WRITE_ONCE(w->go, true);
		if (w->sync)
			wake_up_process_sync(w->woken);
		else
			wake_up_process(w->woken);
		if (need_resched_delayed())
			w->delayed_seen++;
		if (need_resched())
			w->need_resched_seen++;
		spin_unlock(&w->lock);
		wait_for_completion(&w->iter_done);
	}
	return 0;
}

static void run_wake_test(struct ktest *t, struct wake_test *w, bool sync)
{
	struct sched_param hi = { .sched_priority = 20 };
	struct sched_param lo = { .sched_priority = 10 };
	struct task_struct *waker;

	memset(w, 0, sizeof(*w));
	spin_lock_init(&w->lock);
	init_completion(&w->iter_done);
	w->sync = sync;
	w->woken = kthread_create(woken_fn, w, "def-woken");
	waker = kthread_create(waker_fn, w, "def-waker");
	KTEST_ASSERT(t, w->woken && waker, "kthread_create failed");
	/* both exit by themselves: hold them for kthread_stop */
	get_task_struct(w->woken);
	get_task_struct(waker);
	kthread_bind(w->woken, 0);
	kthread_bind(waker, 0);
	sched_setscheduler(w->woken, SCHED_FIFO, &hi);
	sched_setscheduler(waker, SCHED_FIFO, &lo);
	wake_up_process(w->woken);
	wake_up_process(waker);
	KTEST_EXPECT_EQ(t, kthread_stop(waker), 0);
	KTEST_EXPECT_EQ(t, kthread_stop(w->woken), 0);
	put_task_struct(waker);
	put_task_struct(w->woken);
	(void)t;
	printk("    # %s: %d of %d wakeups ended with the woken task blocking "
		  "on the waker's lock (delayed flag seen %d, need_resched %d)\n",
		  sync ? "wake_up_process_sync" : "wake_up_process",
		  w->blocked_at_once, WAKE_ITERS, w->delayed_seen,
		  w->need_resched_seen);
}

static struct wake_test wake_plain, wake_sync;

static void test_wake_then_unlock_wastes_switches_without_sync(struct ktest *t)
{
	run_wake_test(t, &wake_plain, false);
	if (IS_RT) {
		/* every iteration: H preempted W inside the section */
		KTEST_EXPECT(t, wake_plain.blocked_at_once >= WAKE_ITERS - WAKE_SLACK,
			     "expected ~%d wasted switches, saw %d", WAKE_ITERS,
			     wake_plain.blocked_at_once);
	} else {
		/* the section has preemption off: H cannot run inside */
		KTEST_EXPECT_EQ(t, wake_plain.blocked_at_once, 0);
		KTEST_EXPECT_EQ(t, wake_plain.need_resched_seen, WAKE_ITERS);
	}
	KTEST_EXPECT_EQ(t, wake_plain.delayed_seen, 0);
}

static void test_wake_up_process_sync_defers_to_spin_unlock(struct ktest *t)
{
	run_wake_test(t, &wake_sync, true);
	KTEST_EXPECT(t, wake_sync.blocked_at_once <= WAKE_SLACK,
		     "expected ~0 wasted switches, saw %d of %d",
		     wake_sync.blocked_at_once, WAKE_ITERS);
	KTEST_EXPECT(t, wake_sync.delayed_seen >= WAKE_ITERS - WAKE_SLACK,
		     "TIF_NEED_RESCHED_DELAYED seen %d of %d times",
		     wake_sync.delayed_seen, WAKE_ITERS);
	KTEST_EXPECT(t, wake_sync.need_resched_seen <= WAKE_SLACK,
		     "TIF_NEED_RESCHED set at once %d times",
		     wake_sync.need_resched_seen);
	if (IS_RT)
		KTEST_EXPECT(t, wake_sync.blocked_at_once <
					wake_plain.blocked_at_once,
			     "sync %d not fewer than plain %d",
			     wake_sync.blocked_at_once,
			     wake_plain.blocked_at_once);
}

/*
 * preempt_check_resched_delayed() without a lock.  W (this test task,
 * made SCHED_FIFO 10 and bound to its CPU) wakes H (SCHED_FIFO 20, same
 * CPU) with wake_up_process_sync(): H has not run when the call returns;
 * after preempt_check_resched_delayed() it has, under the models that
 * preempt in the kernel (desktop, rt); under none/voluntary it runs at
 * W's next schedule().
 * An interrupt landing between the wake-up and the first look (a tick,
 * or a vCPU the host stalled) may legitimately run H there: the tick is
 * the bound on a delayed reschedule.  Such an attempt says nothing, so
 * it is repeated; the CPU's interrupt count tells which ones were hit.
 */
#define MARK_TRIES 10

struct mark_try {
	bool ran, ran_at_wake, ran_at_check, disturbed;
};

static int mark_ran(void *arg)
{
	WRITE_ONCE(*(bool *)arg, true);
	return 0;
}

static int mark_try_once(struct mark_try *m, int cpu)
{
	struct sched_param hi = { .sched_priority = 20 };
	struct sched_param lo = { .sched_priority = 10 };
	struct sched_param other = { .sched_priority = 0 };
	struct task_struct *h;
	u64 irqs;

	m->ran = false;
	h = kthread_create(mark_ran, &m->ran, "def-mark");
	if (!h)
		return -ENOMEM;
	get_task_struct(h);	/* it exits by itself */
	kthread_bind(h, cpu);
	sched_setscheduler(h, SCHED_FIFO, &hi);
	sched_setscheduler(current, SCHED_FIFO, &lo);
	irqs = irq_stat_cpu_total(cpu);
	wake_up_process_sync(h);
	m->ran_at_wake = READ_ONCE(m->ran);
	m->disturbed = irq_stat_cpu_total(cpu) != irqs;
	preempt_check_resched_delayed();
	m->ran_at_check = READ_ONCE(m->ran);
	sched_setscheduler(current, SCHED_OTHER, &other);
	kthread_stop(h);
	put_task_struct(h);
	return 0;
}

static void test_preempt_check_resched_delayed_is_a_preemption_point(struct ktest *t)
{
	cpumask_t one = { 0 }, old = current->cpus_allowed;
	struct mark_try m = { 0 };
	int cpu, i, ret = 0;

	cpu = task_cpu(current);
	cpumask_set_cpu(cpu, &one);
	KTEST_ASSERT_EQ(t, set_cpus_allowed(current, one), 0);
	KTEST_ASSERT_EQ(t, task_cpu(current), cpu);
	for (i = 0; i < MARK_TRIES; i++) {
		ret = mark_try_once(&m, cpu);
		if (ret || !m.disturbed)
			break;
	}
	set_cpus_allowed(current, old);
	KTEST_ASSERT_EQ(t, ret, 0);
	KTEST_ASSERT(t, !m.disturbed,
		     "an interrupt hit the wake-up window in all %d tries",
		     MARK_TRIES);
	KTEST_EXPECT(t, !m.ran_at_wake,
		     "woken task ran inside the sync wakeup (try %d, no "
		     "interrupt in the window)", i + 1);
	KTEST_EXPECT_EQ(t, m.ran_at_check, PREEMPT_ON_ENABLE);
	KTEST_EXPECT(t, READ_ONCE(m.ran), "woken task never ran");
}

KTEST_SUITE(deferred,
	    KTEST_CASE(test_put_task_struct_delayed_releases_in_desched),
	    KTEST_CASE(test_put_task_struct_delayed_keeps_a_live_task),
	    KTEST_CASE(test_dead_task_last_put_is_delayed_only_under_rt),
	    KTEST_CASE(test_init_mm_is_the_kernel_address_space),
	    KTEST_CASE(test_mmdrop_delayed_frees_later_in_task_context),
	    KTEST_CASE(test_wake_then_unlock_wastes_switches_without_sync),
	    KTEST_CASE(test_wake_up_process_sync_defers_to_spin_unlock),
	    KTEST_CASE(test_preempt_check_resched_delayed_is_a_preemption_point));
