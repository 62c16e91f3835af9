/*
 * tests/kernel/test_semaphore.c - the semaphore suite: struct semaphore
 * and struct rw_semaphore (PI under rt) against compat_semaphore and
 * compat_rw_semaphore (counting, no PI, every model)
 * (kernel/locking/semaphore.h; article, "Priority inheritance for
 * in-kernel spinlocks and semaphores", Quick Quiz #3).
 */
#include "tests/kernel/lock_probe.h"
#include "kernel/locking/semaphore.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/signal.h"
#include "kernel/version.h"
#include "lib/errno.h"

static DECLARE_MUTEX(pi_sem);
static DECLARE_COMPAT_SEMAPHORE(ev_sem, 0);
static DECLARE_RWSEM(pi_rwsem);
static DECLARE_COMPAT_RWSEM(c_rwsem);

/* compat_semaphore counts; up() may come from another task than the
 * one that will down() (an event). */
static int down_ev(void *arg)
{
	down(&ev_sem);
	return 7;
}

static void test_compat_semaphore_counts_and_posts_events(struct ktest *t)
{
	struct compat_semaphore cs;
	struct probe p;

	sema_init(&cs, 2);
	KTEST_EXPECT_EQ(t, down_trylock(&cs), 0);
	KTEST_EXPECT_EQ(t, down_trylock(&cs), 0);
	KTEST_EXPECT_EQ(t, down_trylock(&cs), 1);
	up(&cs);
	KTEST_EXPECT_EQ(t, down_trylock(&cs), 0);
	up(&cs);
	up(&cs);
	KTEST_EXPECT_EQ(t, cs.count, 2);

	probe_start(t, &p, down_ev, NULL, -1, 0);
	wake_up_process(p.task);
	KTEST_EXPECT(t, probe_blocked(&p), "down on count 0 did not sleep");
	KTEST_EXPECT(t, !READ_ONCE(p.done), "down on count 0 returned");
	up(&ev_sem);		/* the event, posted by another task */
	KTEST_EXPECT_EQ(t, probe_end(&p), 7);
	KTEST_EXPECT_EQ(t, ev_sem.count, 0);
}

/* A SCHED_OTHER holder and a FIFO 20 waiter: the holder is boosted on a
 * struct semaphore under rt only, and never on a compat_semaphore. */
struct hold_arg {
	void *sem;
	bool compat;
	struct completion release;
};

static int hold_sem(void *arg)
{
	struct hold_arg *h = arg;

	if (h->compat)
		down((struct compat_semaphore *)h->sem);
	else
		down((struct semaphore *)h->sem);
	wait_for_completion(&h->release);
	if (h->compat)
		up((struct compat_semaphore *)h->sem);
	else
		up((struct semaphore *)h->sem);
	return 0;
}

static int take_sem(void *arg)
{
	struct hold_arg *h = arg;

	if (h->compat) {
		down((struct compat_semaphore *)h->sem);
		up((struct compat_semaphore *)h->sem);
	} else {
		down((struct semaphore *)h->sem);
		up((struct semaphore *)h->sem);
	}
	return 1;
}

static int boost_seen(struct ktest *t, void *sem, bool compat)
{
	static struct hold_arg h;
	struct probe lo, hi;
	int prio;

	h.sem = sem;
	h.compat = compat;
	init_completion(&h.release);
	probe_start(t, &lo, hold_sem, &h, -1, 0);
	wake_up_process(lo.task);
	KTEST_EXPECT(t, probe_blocked(&lo), "holder not waiting for release");
	probe_start(t, &hi, take_sem, &h, -1, 20);
	wake_up_process(hi.task);
	KTEST_EXPECT(t, probe_blocked(&hi), "FIFO waiter not blocked");
	prio = READ_ONCE(lo.task->prio);
	complete(&h.release);
	KTEST_EXPECT_EQ(t, probe_end(&hi), 1);
	probe_end(&lo);
	return prio;
}

static void test_semaphore_pi_only_under_rt(struct ktest *t)
{
	KTEST_EXPECT(t, boost_seen(t, &pi_sem, false) ==
			(SEMAPHORE_PI ? PROBE_FIFO(20) : DEFAULT_PRIO),
		     "PREEMPT_%s: struct semaphore holder prio, want %d",
		     RTK_PREEMPT_NAME,
		     SEMAPHORE_PI ? PROBE_FIFO(20) : DEFAULT_PRIO);
	sema_init(&ev_sem, 1);
	KTEST_EXPECT_EQ(t, boost_seen(t, &ev_sem, true), DEFAULT_PRIO);
	sema_init(&ev_sem, 0);
}

/* down_interruptible returns -EINTR when the sleeper is signalled, on
 * both types; the semaphore stays with its holder. */
static int down_intr_pi(void *arg)
{
	int r = down_interruptible(&pi_sem);

	if (!r)
		up(&pi_sem);
	flush_signals(current);
	return r;
}

static int down_intr_ev(void *arg)
{
	int r = down_interruptible(&ev_sem);

	flush_signals(current);
	return r;
}

static void test_down_interruptible_signalled(struct ktest *t)
{
	struct probe p;

	down(&pi_sem);
	probe_start(t, &p, down_intr_pi, NULL, -1, 0);
	wake_up_process(p.task);
	KTEST_EXPECT(t, probe_blocked(&p), "waiter not blocked");
	kernel_signal(p.task);
	KTEST_EXPECT_EQ(t, probe_end(&p), -EINTR);
	KTEST_EXPECT_EQ(t, down_trylock(&pi_sem), 1);	/* still ours */
	up(&pi_sem);
	KTEST_EXPECT_EQ(t, down_trylock(&pi_sem), 0);
	up(&pi_sem);

	probe_start(t, &p, down_intr_ev, NULL, -1, 0);
	wake_up_process(p.task);
	KTEST_EXPECT(t, probe_blocked(&p), "compat waiter not blocked");
	kernel_signal(p.task);
	KTEST_EXPECT_EQ(t, probe_end(&p), -EINTR);
	KTEST_EXPECT_EQ(t, ev_sem.count, 0);
}

/* rw_semaphore: recursion; a second reader only outside rt; downgrade
 * keeps out writers; compat_rw_semaphore has many readers everywhere. */
static int try_read_pi(void *arg)
{
	if (!down_read_trylock(&pi_rwsem))
		return 0;
	up_read(&pi_rwsem);
	return 1;
}

static int try_write_pi(void *arg)
{
	if (!down_write_trylock(&pi_rwsem))
		return 0;
	up_write(&pi_rwsem);
	return 1;
}

static int try_read_c(void *arg)
{
	if (!down_read_trylock(&c_rwsem))
		return 0;
	up_read(&c_rwsem);
	return 1;
}

/* down_trylock on struct semaphore under rt is a sleeping-lock call (the
 * article: it "can schedule"): called with preemption off it gives the
 * might_sleep warning, and still takes the free semaphore.  Under the
 * other models, and on compat_semaphore under every model, it is legal
 * there and quiet. */
static void test_down_trylock_may_not_be_atomic_only_under_rt(struct ktest *t)
{
	unsigned long warns = might_sleep_warnings;
	int got;

	might_sleep_expect_begin();	/* rt: the warning below */
	preempt_disable();
	got = down_trylock(&pi_sem);
	preempt_enable();
	might_sleep_expect_end();
	KTEST_ASSERT_EQ(t, got, 0);
	up(&pi_sem);
	KTEST_EXPECT_EQ(t, might_sleep_warnings - warns, SEMAPHORE_PI ? 1 : 0);

	warns = might_sleep_warnings;
	sema_init(&ev_sem, 1);
	preempt_disable();
	got = down_trylock(&ev_sem);
	preempt_enable();
	KTEST_EXPECT_EQ(t, got, 0);
	KTEST_EXPECT_EQ(t, might_sleep_warnings - warns, 0);
	sema_init(&ev_sem, 0);
}

static void test_rw_semaphore_readers_per_type_and_model(struct ktest *t)
{
	struct probe p;

	down_read(&pi_rwsem);
	down_read(&pi_rwsem);
	KTEST_EXPECT_EQ(t, probe_run(t, &p, try_read_pi, NULL, -1),
			!SEMAPHORE_PI);
	KTEST_EXPECT_EQ(t, probe_run(t, &p, try_write_pi, NULL, -1), 0);
	up_read(&pi_rwsem);
	up_read(&pi_rwsem);

	down_write(&pi_rwsem);
	KTEST_EXPECT_EQ(t, probe_run(t, &p, try_read_pi, NULL, -1), 0);
	downgrade_write(&pi_rwsem);
	KTEST_EXPECT_EQ(t, probe_run(t, &p, try_read_pi, NULL, -1),
			!SEMAPHORE_PI);
	KTEST_EXPECT_EQ(t, probe_run(t, &p, try_write_pi, NULL, -1), 0);
	up_read(&pi_rwsem);
	KTEST_EXPECT_EQ(t, probe_run(t, &p, try_write_pi, NULL, -1), 1);

	down_read(&c_rwsem);
	KTEST_EXPECT_EQ(t, probe_run(t, &p, try_read_c, NULL, -1), 1);
	up_read(&c_rwsem);
	down_write(&c_rwsem);
	KTEST_EXPECT_EQ(t, probe_run(t, &p, try_read_c, NULL, -1), 0);
	up_write(&c_rwsem);
	KTEST_EXPECT_EQ(t, c_rwsem.activity, 0);
}

KTEST_SUITE(semaphore,
	    KTEST_CASE(test_compat_semaphore_counts_and_posts_events),
	    KTEST_CASE(test_semaphore_pi_only_under_rt),
	    KTEST_CASE(test_down_interruptible_signalled),
	    KTEST_CASE(test_rw_semaphore_readers_per_type_and_model),
	    KTEST_CASE(test_down_trylock_may_not_be_atomic_only_under_rt));
