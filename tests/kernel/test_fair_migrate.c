/*
 * tests/kernel/test_fair_migrate.c - the fair_migrate suite: a
 * SCHED_OTHER task's vruntime follows it from one CPU's scale to
 * another's whenever its CPU changes (kernel/sched/affinity.c,
 * set_task_cpu), so a task moved while it sleeps is neither owed nor
 * owing the difference between the two CPUs' min_vruntime.
 *
 * The torture found the bug this pins (issue 12's non-rt finding: a woken
 * tpong/1, TASK_RUNNING, queued, never ran again while the soak's loads
 * ran): set_cpus_allowed() of a sleeping task rewrote p->cpu without its
 * vruntime, so the wake-up saw "same CPU" and queued the task with the
 * old CPU's (much larger) vruntime behind every task of the new one.
 * The state is made, not waited for: the test raises CPU1's
 * min_vruntime (and the sleeper's vruntime with it) by FM_GAP_NS, the
 * state CPU1 reaches naturally after running that much more SCHED_OTHER
 * work than CPU0.
 * Linux counterpart: set_task_cpu() -> migrate_task_rq_fair() (the
 * vruntime is made relative to the old cfs_rq and re-based on the new).
 * Needs 2 CPUs.
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/sched/rq.h"
#include "kernel/sched/wait.h"
#include "kernel/printk.h"
#include "lib/string.h"

/* The gap between the two CPUs' min_vruntime: far more CPU time than a
 * correct wake-up can make S wait (a few FAIR_LATENCY_NS periods), so the
 * two outcomes cannot be confused on a slow host. */
#define FM_GAP_NS (60LL * NSEC_PER_SEC)
/* S must run before H has been charged this much CPU time after S's
 * wake-up (H's charged time, not wall-clock time: a stalled vCPU charges
 * H, which only makes S's turn come sooner). */
#define FM_BOUND_NS (5LL * NSEC_PER_SEC)

static struct {
	int started;		/* S ran once on CPU1 */
	int go;			/* S may finish */
	int ran;		/* S ran after its wake-up */
	int h_started;		/* H runs on CPU0 */
	int stop;		/* H may end */
	int h_done;
	u64 h_ns_at_run;	/* H's charged time when S ran */
	struct task_struct *h;
} fm;

static int fm_sleeper_fn(void *arg)
{
	WRITE_ONCE(fm.started, 1);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(fm.go))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	WRITE_ONCE(fm.h_ns_at_run, READ_ONCE(fm.h->sum_exec_ns));
	WRITE_ONCE(fm.ran, 1);
	return 0;
}

/* H: busy on CPU0, giving the CPU away only where the fair rules say so
 * (_cond_resched is a preemption point under every model). */
static int fm_hog_fn(void *arg)
{
	WRITE_ONCE(fm.h_started, 1);
	while (!READ_ONCE(fm.stop))
		_cond_resched();
	WRITE_ONCE(fm.h_done, 1);
	return 0;
}

static bool fm_asleep(struct task_struct *p)
{
	return READ_ONCE(p->state) == TASK_UNINTERRUPTIBLE &&
	       !READ_ONCE(p->on_rq) && !READ_ONCE(p->on_cpu);
}

/*
 * Scenario (2 CPUs; the test task sleeps in msleep meanwhile):
 *  S (OTHER, allowed on CPU1) runs once there and sleeps; CPU1's
 *  min_vruntime and S's vruntime are raised by FM_GAP_NS (CPU1 ran that
 *  much more fair work than CPU0).  H (OTHER, bound to CPU0) spins with
 *  _cond_resched().  S is moved while asleep: set_cpus_allowed(S,
 *  {CPU0}), then woken.  It must run on CPU0 before H has been charged
 *  FM_BOUND_NS: its lag on CPU1 was 0, so on CPU0 it starts level with
 *  H.  Before the fix S kept CPU1's vruntime and waited behind H for
 *  FM_GAP_NS of H's CPU time.
 */
static void test_sleeper_moved_by_affinity_keeps_its_lag(struct ktest *t)
{
	struct task_struct *s;
	struct rq *rq1 = cpu_rq(1);
	unsigned long flags;
	u64 h_at_wake;
	ktime_t end;

	if (num_online_cpus() < 2) {
		ktest_skip(t, "needs 2 CPUs (a move between two run queues)");
		return;
	}
	memset(&fm, 0, sizeof(fm));
	s = kthread_create(fm_sleeper_fn, NULL, "fm_sleeper");
	KTEST_ASSERT(t, s, "kthread_create failed");
	get_task_struct(s);
	set_cpus_allowed(s, one_cpu(1));
	wake_up_process(s);
	end = ktime_get() + SAFETY_NS;
	while (!(READ_ONCE(fm.started) && fm_asleep(s)) && ktime_get() < end)
		msleep(1);
	KTEST_ASSERT(t, fm_asleep(s), "S did not start and sleep on CPU1 "
		     "(started %d state %ld on_rq %d)", READ_ONCE(fm.started),
		     (long)READ_ONCE(s->state), READ_ONCE(s->on_rq));

	raw_spin_lock_irqsave(&rq1->lock, flags);
	rq1->min_vruntime += FM_GAP_NS;
	s->vruntime += FM_GAP_NS;
	raw_spin_unlock_irqrestore(&rq1->lock, flags);

	fm.h = start_rt(fm_hog_fn, NULL, SCHED_OTHER, 0, 0, "fm_hog");
	KTEST_ASSERT(t, fm.h, "kthread_create failed");
	while (!READ_ONCE(fm.h_started))
		msleep(1);

	set_cpus_allowed(s, one_cpu(0));	/* S asleep: moved lazily */
	h_at_wake = READ_ONCE(fm.h->sum_exec_ns);
	WRITE_ONCE(fm.go, 1);
	wake_up_process(s);
	while (!READ_ONCE(fm.ran) &&
	       READ_ONCE(fm.h->sum_exec_ns) - h_at_wake < FM_BOUND_NS)
		msleep(1);
	KTEST_EXPECT(t, READ_ONCE(fm.ran),
		     "S had not run after H was charged %lld ms on CPU0 "
		     "(S vruntime %llu, CPU0 min_vruntime %llu, H vruntime "
		     "%llu): S kept CPU1's scale, %lld ms ahead",
		     (long long)(READ_ONCE(fm.h->sum_exec_ns) - h_at_wake) /
			     NSEC_PER_MSEC,
		     (unsigned long long)READ_ONCE(s->vruntime),
		     (unsigned long long)READ_ONCE(cpu_rq(0)->min_vruntime),
		     (unsigned long long)READ_ONCE(fm.h->vruntime),
		     (long long)(READ_ONCE(s->vruntime) -
				 READ_ONCE(cpu_rq(0)->min_vruntime)) /
			     NSEC_PER_MSEC);
	WRITE_ONCE(fm.stop, 1);
	end = ktime_get() + SAFETY_NS;	/* H ends: S runs, alone */
	while (!(READ_ONCE(fm.ran) && READ_ONCE(fm.h_done)) &&
	       ktime_get() < end)
		msleep(1);
	KTEST_EXPECT(t, READ_ONCE(fm.ran) && READ_ONCE(fm.h_done),
		     "S and H ended (S %d H %d)", READ_ONCE(fm.ran),
		     READ_ONCE(fm.h_done));
	if (READ_ONCE(fm.ran))
		pr_info("# fair_migrate: S ran after H was charged %lld us\n",
			(long long)(READ_ONCE(fm.h_ns_at_run) - h_at_wake) /
				NSEC_PER_USEC);
	put_task_struct(fm.h);
	put_task_struct(s);
}

KTEST_SUITE(fair_migrate,
	    KTEST_CASE(test_sleeper_moved_by_affinity_keeps_its_lag));
