/*
 * tests/kernel/test_raw_spin_report.c - what a raw spinlock's "stuck"
 * report is built from (kernel/locking/raw_spinlock.c): every CPU that
 * has spun a while for a lock publishes the lock and its ticket, so a
 * report can tell a served ticket whose CPU does not run (a vCPU the
 * host starves, or a spin nested under its own CPU's interrupted spin)
 * from a ticket nobody spins for (lost).  The report itself panics and
 * is not run here; raw_spin_cpu_waits_for is the snapshot it prints.
 */
#include "kernel/ktest.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/sched/completion.h"
#include "tests/kernel/sched_helpers.h"

/* Bound of the wait for the waiter to publish its spin; under the 5 s
 * after which it would report the lock stuck (raw_spinlock.c). */
#define PUBLISH_WAIT_NS (2LL * NSEC_PER_SEC)

struct publish_case {
	raw_spinlock_t lock;
	int go;			/* the waiter may spin */
	struct completion done; /* the waiter had the lock */
};

static int publish_waiter_fn(void *data)
{
	struct publish_case *c = data;
	ktime_t end = ktime_get() + SAFETY_NS;

	while (!READ_ONCE(c->go) && ktime_get() < end)
		cpu_relax();
	raw_spin_lock(&c->lock);
	raw_spin_unlock(&c->lock);
	complete(&c->done);
	return 0;
}

/*
 * Scenario (2 CPUs): the test, on CPU 0, holds the lock (ticket owner);
 * W, a FIFO 10 kthread bound to CPU 1, spins for it.  Observable: within
 * PUBLISH_WAIT_NS raw_spin_cpu_waits_for(1) names the lock with ticket
 * owner + 1 (the one to be served next) and W as the spinner, and after the
 * unlock, once W has had the lock, CPU 1 is no longer published as waiting.
 */
static void test_long_spin_is_published_with_its_ticket(struct ktest *t)
{
	static struct publish_case c;
	struct task_struct *w, *spinner = NULL, *other;
	bool published = false, after, spinner_is_w;
	u16 ticket = 0, want;
	ktime_t end;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the waiter spins on another CPU");
	raw_spin_lock_init(&c.lock);
	c.go = 0;
	init_completion(&c.done);
	set_cpus_allowed(current, one_cpu(0));
	w = start_rt(publish_waiter_fn, &c, SCHED_FIFO, 10, 1, "publish-w");
	KTEST_ASSERT(t, w != NULL, "kthread_create failed");
	raw_spin_lock(&c.lock);
	want = (u16)(__atomic_load_n(&c.lock.owner, __ATOMIC_RELAXED) + 1);
	WRITE_ONCE(c.go, 1);
	end = ktime_get() + PUBLISH_WAIT_NS;
	while (!(published = raw_spin_cpu_waits_for(1, &c.lock, &ticket,
						    &spinner)) &&
	       ktime_get() < end)
		cpu_relax();
	raw_spin_unlock(&c.lock);
	KTEST_EXPECT(t, wait_for_completion_timeout(&c.done, SAFETY_NS) > 0,
		     "the waiter never got the lock");
	after = raw_spin_cpu_waits_for(1, &c.lock, &ticket, &other);
	spinner_is_w = spinner == w;
	kthread_stop(w);
	put_task_struct(w);
	set_cpus_allowed(current, (cpumask_t){.bits = ~0ULL});
	KTEST_ASSERT(t, published,
		     "CPU 1 spun for the lock %lld ms and was never published "
		     "as waiting",
		     PUBLISH_WAIT_NS / NSEC_PER_MSEC);
	KTEST_EXPECT(t, ticket == want,
		     "published ticket %u, want %u (owner + 1)", ticket, want);
	KTEST_EXPECT(t, spinner_is_w,
		     "the published spinner is not W (publish-w)");
	KTEST_EXPECT(t, !after,
		     "CPU 1 still published as waiting after it had the lock");
}

KTEST_SUITE(raw_spin_report,
	    KTEST_CASE(test_long_spin_is_published_with_its_ticket));
