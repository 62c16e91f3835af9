/*
 * tests/kernel/test_percpu_locked.c - the percpu_locked suite:
 * DEFINE_PER_CPU_LOCKED (kernel/percpu_locked.h; article, "Per-CPU
 * Variables").  The slab's per-CPU arrays built on it are
 * tests/kernel/test_slab_cpu.c.
 *
 * Under rt the per-CPU lock is a sleeping spinlock_t: its holder can be
 * preempted, and a contender for the same CPU's copy sleeps with PI
 * instead of spinning.  Under none/voluntary/desktop it is the raw lock:
 * the holder runs with preempt_count raised and a contender spins.  Each
 * case asserts the model it was built for.
 */
#include "kernel/ktest.h"
#include "kernel/percpu_locked.h"
#include "kernel/mm/slab.h"
#include "kernel/mm/mm_report.h"
#include "kernel/smp.h"
#include "kernel/irqflags.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/sched/wait.h"
#include "lib/string.h"
#include "kernel/time/ktime.h"
#include "kernel/version.h"

#define FIFO(p) (MAX_RT_PRIO - 1 - (p))
#define WAIT_NS (3 * NSEC_PER_SEC)
#define COUNT_ITERS 300

DEFINE_PER_CPU_LOCKED(unsigned long, pcl_counter);

/* start_bound - a kthread bound to cpu, SCHED_FIFO fifo (0: normal),
 * woken when wake. */
static struct task_struct *start_bound(struct ktest *t, int (*fn)(void *),
				       void *data, const char *name, int cpu,
				       int fifo, bool wake)
{
	struct sched_param sp = { .sched_priority = fifo };
	struct task_struct *p = kthread_create(fn, data, "%s", name);

	KTEST_ASSERT(t, p != NULL, "kthread_create(%s) failed", name);
	get_task_struct(p);
	kthread_bind(p, cpu);
	if (fifo)
		sched_setscheduler(p, SCHED_FIFO, &sp);
	if (wake)
		wake_up_process(p);
	return p;
}

static void reap(struct task_struct *p)
{
	kthread_stop(p);
	put_task_struct(p);
}

/* The init pass gave every CPU copy of the lock a valid, free lock (a
 * memcpy'd rt_mutex would point into the template). */
static void test_every_cpu_copy_of_the_lock_is_initialised(struct ktest *t)
{
	KTEST_ASSERT(t, percpu_locked_is_ready(), "percpu_locked_init not run");
	KTEST_EXPECT(t, percpu_locked_nr_defined() >= 2,
		     "at least 2 DEFINE_PER_CPU_LOCKED (slab, this test), saw %lu",
		     percpu_locked_nr_defined());
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		spinlock_t *l;

		if (!cpu_online(cpu))
			continue;
		l = &per_cpu_lock(pcl_counter, cpu);
		KTEST_EXPECT(t, cpu == 0 || l != &per_cpu_lock(pcl_counter, 0),
			     "CPU %d shares CPU 0's lock at %p", cpu, l);
		KTEST_EXPECT(t, !spin_is_locked(l), "CPU %d's lock held", cpu);
#if SPINLOCK_SLEEPS
		KTEST_EXPECT(t, plist_head_empty(&l->lock.wait_list),
			     "CPU %d's wait list not empty/self-linked (%p)",
			     cpu, l->lock.wait_list.node_list.next);
#endif
	}
}

/*
 * Scenario: one thread bound to each online CPU; each, COUNT_ITERS
 * times, increments every online CPU's copy of pcl_counter through
 * get_per_cpu_locked(pcl_counter, target) with a read / cpu_relax /
 * write window.  Expected: each copy ends at threads * COUNT_ITERS (no
 * lost update), and the sum at threads^2 * COUNT_ITERS.
 */
struct count_case {
	struct completion done;
};

static int counter_fn(void *data)
{
	struct count_case *c = data;
	unsigned long *v, old;

	for (int i = 0; i < COUNT_ITERS; i++) {
		for (int cpu = 0; cpu < NR_CPUS; cpu++) {
			if (!cpu_online(cpu))
				continue;
			v = &get_per_cpu_locked(pcl_counter, cpu);
			old = READ_ONCE(*v);
			cpu_relax();
			WRITE_ONCE(*v, old + 1);
			put_per_cpu_locked(pcl_counter, cpu);
		}
		if ((i & 31) == 0)
			cond_resched();
	}
	complete(&c->done);
	return 0;
}

static void test_counter_exclusive_from_every_cpu(struct ktest *t)
{
	static struct count_case c;
	struct task_struct *p[NR_CPUS];
	int n = 0, online = num_online_cpus();
	unsigned long sum = 0;

	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			per_cpu_locked(pcl_counter, cpu) = 0;
	init_completion(&c.done);
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			p[n++] = start_bound(t, counter_fn, &c, "pcl-count", cpu, 0, true);
	for (int i = 0; i < n; i++)
		KTEST_EXPECT(t, wait_for_completion_timeout(&c.done, 4 * WAIT_NS) > 0,
			     "counter thread %d of %d did not finish", i, n);
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!cpu_online(cpu))
			continue;
		KTEST_EXPECT_EQ(t, per_cpu_locked(pcl_counter, cpu),
				(unsigned long)n * COUNT_ITERS);
		sum += per_cpu_locked(pcl_counter, cpu);
	}
	KTEST_EXPECT_EQ(t, sum, (unsigned long)n * online * COUNT_ITERS);
	for (int i = 0; i < n; i++)
		reap(p[i]);
}

/*
 * Scenario: low (FIFO 10) and high (FIFO 20) bound to the same CPU X.
 * low takes get_per_cpu_locked(pcl_counter, X), notes preempt_count,
 * wakes high for the first time (it needs no lock) and waits for it to
 * run.  rt: high
 * preempts low inside the section (observed), preempt_count 0 there.
 * Other models: preempt_count is raised in the section and high runs
 * only after put_per_cpu_locked.
 */
struct preempt_case {
	int cpu;
	int inside_count;
	struct task_struct *high;	/* created, first woken by low */
	bool high_ran, high_ran_inside;
	struct completion high_done, low_done;
};

/* high's first run is the preemption being looked for */
static int high_fn(void *data)
{
	struct preempt_case *c = data;

	WRITE_ONCE(c->high_ran, true);
	complete(&c->high_done);
	return 0;
}

static int low_fn(void *data)
{
	struct preempt_case *c = data;
	/* rt: wait for the preemption (it comes at once); otherwise high
	 * cannot run here until the unlock: 20 ms of not seeing it */
	ktime_t end = ktime_get() + (SPINLOCK_SLEEPS ? WAIT_NS :
				     20 * NSEC_PER_MSEC);

	get_per_cpu_locked(pcl_counter, c->cpu)++;
	c->inside_count = preempt_count();
	wake_up_process(c->high);
	while (!READ_ONCE(c->high_ran) && ktime_get() < end)
		cpu_relax();
	c->high_ran_inside = READ_ONCE(c->high_ran);
	put_per_cpu_locked(pcl_counter, c->cpu);
	wait_for_completion_timeout(&c->high_done, WAIT_NS);
	complete(&c->low_done);
	return 0;
}

static void test_holder_preemptible_only_under_rt(struct ktest *t)
{
	static struct preempt_case c;
	struct task_struct *ph, *pl;

	c.cpu = raw_smp_processor_id();	/* a choice of CPU for the scene */
	c.high_ran = c.high_ran_inside = false;
	c.inside_count = -1;
	init_completion(&c.high_done);
	init_completion(&c.low_done);
	ph = start_bound(t, high_fn, &c, "pcl-high", c.cpu, 20, false);
	c.high = ph;
	pl = start_bound(t, low_fn, &c, "pcl-low", c.cpu, 10, true);
	KTEST_EXPECT(t, wait_for_completion_timeout(&c.low_done, WAIT_NS) > 0,
		     "low task did not finish");
	KTEST_EXPECT(t, c.high_ran, "high task never ran");
	KTEST_EXPECT(t, c.high_ran_inside == (bool)SPINLOCK_SLEEPS,
		     "PREEMPT_%s: high ran inside the get_per_cpu_locked section: "
		     "want %d, saw %d", RTK_PREEMPT_NAME, SPINLOCK_SLEEPS,
		     c.high_ran_inside);
	if (SPINLOCK_SLEEPS)
		KTEST_EXPECT_EQ(t, c.inside_count, 0);
	else
		KTEST_EXPECT(t, c.inside_count >= 1,
			     "preempt_count raised in the section, saw %d",
			     c.inside_count);
	reap(ph);
	reap(pl);
}

/*
 * Scenario, rt: holder H (FIFO 10, CPU X) takes CPU X's pcl_counter lock
 * and sleeps holding it (legal for a sleeping lock); contender C (FIFO
 * 30, CPU X) asks for the same CPU's copy.  Expected: C blocks -
 * pi_blocked_on set, state TASK_RUNNING_MUTEX, off the CPU - and H runs
 * boosted at C's prio until the release, then C gets the copy and H is
 * back at FIFO 10.  Other models (needs 2 CPUs): the runner itself holds
 * CPU X's lock (preemption off, no sleeping), C on another CPU spins: a
 * second ticket is out; C gets the copy after the release.
 */
struct contend_case {
	int cpu;
	bool release;
	bool c_got;
	struct completion taken, h_done, c_done;
};

static int holder_fn(void *data)
{
	struct contend_case *c = data;

	get_per_cpu_locked(pcl_counter, c->cpu)++;
	complete(&c->taken);
	while (!READ_ONCE(c->release))
		schedule_timeout_uninterruptible(NSEC_PER_MSEC);
	put_per_cpu_locked(pcl_counter, c->cpu);
	complete(&c->h_done);
	return 0;
}

static int contender_fn(void *data)
{
	struct contend_case *c = data;

	get_per_cpu_locked(pcl_counter, c->cpu)++;
	WRITE_ONCE(c->c_got, true);
	put_per_cpu_locked(pcl_counter, c->cpu);
	complete(&c->c_done);
	return 0;
}

/* contender_seen_waiting - C sleeps on the lock (rt) or spins (else). */
static bool contender_seen_waiting(struct contend_case *c,
				   struct task_struct *pc)
{
	ktime_t end = ktime_get() + WAIT_NS;

	while (ktime_get() < end) {
#if SPINLOCK_SLEEPS
		if (READ_ONCE(pc->pi_blocked_on) &&
		    READ_ONCE(pc->state) == TASK_RUNNING_MUTEX &&
		    !READ_ONCE(pc->on_cpu))
			return true;
		schedule();
#else
		raw_spinlock_t *rl = &per_cpu_lock(pcl_counter, c->cpu).rlock;

		if ((u16)(READ_ONCE(rl->next) - READ_ONCE(rl->owner)) == 2)
			return true;
		cpu_relax();
#endif
	}
	return false;
}

static void test_contender_sleeps_with_pi_under_rt_spins_otherwise(struct ktest *t)
{
	static struct contend_case c;
	struct task_struct *ph = NULL, *pc;
	int other = -1;
	bool waiting;

	c.cpu = raw_smp_processor_id();	/* a choice of CPU for the scene */
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu) && cpu != c.cpu)
			other = cpu;
	if (!SPINLOCK_SLEEPS && other < 0)
		ktest_skip(t, "a spinning contender needs a second CPU");
	c.release = c.c_got = false;
	init_completion(&c.taken);
	init_completion(&c.h_done);
	init_completion(&c.c_done);
	if (SPINLOCK_SLEEPS) {
		ph = start_bound(t, holder_fn, &c, "pcl-holder", c.cpu, 10, true);
		KTEST_ASSERT(t, wait_for_completion_timeout(&c.taken, WAIT_NS) > 0,
			     "holder never took the lock");
		pc = start_bound(t, contender_fn, &c, "pcl-contend", c.cpu, 30,
				 true);
	} else {
		pc = start_bound(t, contender_fn, &c, "pcl-contend", other, 30,
				 false);
		c.cpu = raw_smp_processor_id();	/* fixed: preemption off */
		get_per_cpu_locked(pcl_counter, c.cpu)++;
		wake_up_process(pc);
	}
	waiting = contender_seen_waiting(&c, pc);
	KTEST_EXPECT(t, waiting, "PREEMPT_%s: contender never seen %s",
		     RTK_PREEMPT_NAME, SPINLOCK_SLEEPS ? "sleeping on the lock" :
		     "spinning on the lock");
	KTEST_EXPECT(t, !READ_ONCE(c.c_got), "contender got a held lock");
	if (ph)
		KTEST_EXPECT_EQ(t, READ_ONCE(ph->prio), FIFO(30));
	if (ph)
		WRITE_ONCE(c.release, true);
	else
		put_per_cpu_locked(pcl_counter, c.cpu);
	KTEST_EXPECT(t, wait_for_completion_timeout(&c.c_done, WAIT_NS) > 0,
		     "contender never got the lock after the release");
	if (ph) {
		KTEST_EXPECT(t, wait_for_completion_timeout(&c.h_done, WAIT_NS) > 0,
			     "holder did not finish");
		KTEST_EXPECT_EQ(t, READ_ONCE(ph->prio), FIFO(10));
		reap(ph);
	}
	reap(pc);
}

/* per_cpu_lock is the spinlock_t lvalue: a function handed it releases
 * the lock taken by get_per_cpu_locked (the article's use for it). */
static void release_lock(spinlock_t *lock)
{
	spin_unlock(lock);
}

static void test_per_cpu_lock_handed_to_a_releasing_function(struct ktest *t)
{
	int cpu = raw_smp_processor_id();
	unsigned long *v = &get_per_cpu_locked(pcl_counter, cpu);

	KTEST_EXPECT(t, spin_is_locked(&per_cpu_lock(pcl_counter, cpu)),
		     "CPU %d's lock not held after get_per_cpu_locked", cpu);
	KTEST_EXPECT(t, v == &per_cpu_locked(pcl_counter, cpu),
		     "get_per_cpu_locked gave %p, per_cpu_locked %p", v,
		     &per_cpu_locked(pcl_counter, cpu));
	release_lock(&per_cpu_lock(pcl_counter, cpu));
	KTEST_EXPECT(t, !spin_is_locked(&per_cpu_lock(pcl_counter, cpu)),
		     "CPU %d's lock still held after release_lock", cpu);
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
}

/* per_cpu_locked reads and writes each CPU's own copy and takes no lock. */
static void test_per_cpu_locked_access_without_locking(struct ktest *t)
{
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpu_online(cpu))
			per_cpu_locked(pcl_counter, cpu) = 1000 + cpu;
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		unsigned long got;

		if (!cpu_online(cpu))
			continue;
		KTEST_EXPECT(t, !spin_is_locked(&per_cpu_lock(pcl_counter, cpu)),
			     "per_cpu_locked took CPU %d's lock", cpu);
		got = get_per_cpu_locked(pcl_counter, cpu);
		put_per_cpu_locked(pcl_counter, cpu);
		KTEST_EXPECT_EQ(t, got, 1000UL + cpu);
	}
}

/* ---- the slab per-CPU arrays ---- */

/* Two CPUs' copies are two locks: holding CPU 0's copy of pcl_counter
 * leaves CPU 1's free (a single lock for every copy would be correct,
 * and as contended as a global). */
static void test_copies_are_locked_independently(struct ktest *t)
{
	bool other_free;

	if (!cpu_online(1))
		ktest_skip(t, "needs 2 CPUs: CPU 1 has no copy");
	get_per_cpu_locked(pcl_counter, 0)++;
	other_free = spin_trylock(&per_cpu_lock(pcl_counter, 1));
	if (other_free)
		spin_unlock(&per_cpu_lock(pcl_counter, 1));
	put_per_cpu_locked(pcl_counter, 0);
	KTEST_EXPECT(t, other_free, "CPU 1's copy was locked while only "
		     "CPU 0's was held");
}

KTEST_SUITE(percpu_locked,
	    KTEST_CASE(test_every_cpu_copy_of_the_lock_is_initialised),
	    KTEST_CASE(test_counter_exclusive_from_every_cpu),
	    KTEST_CASE(test_holder_preemptible_only_under_rt),
	    KTEST_CASE(test_contender_sleeps_with_pi_under_rt_spins_otherwise),
	    KTEST_CASE(test_per_cpu_lock_handed_to_a_releasing_function),
	    KTEST_CASE(test_per_cpu_locked_access_without_locking),
	    KTEST_CASE(test_copies_are_locked_independently));
