/*
 * tests/kernel/test_raw_spin_report.c - what a raw spinlock's "stuck"
 * report is built from (kernel/locking/raw_spinlock.c): every CPU that
 * spins for a lock publishes the lock and its ticket, so a report can
 * tell a served ticket whose CPU does not run (a vCPU the host starves,
 * or a spin nested under its own CPU's interrupted spin) from a ticket
 * nobody spins for (lost); and when it is reported: after the threshold
 * without a hand-over (raw_spin_stuck), not after the threshold of total
 * wait.  A real lock's report panics; the suite's own locks set
 * test_hooks, whose report only counts (raw_spin_test_reports), with a
 * threshold of STUCK_NS.
 */
#include "kernel/printk.h"
#include "kernel/ktest.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/sched/completion.h"
#include "kernel/debug/race_window.h"
#include "tests/kernel/sched_helpers.h"
#include "lib/string.h"
#include "lib/vsnprintf.h"

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

/*
 * The convoy case's times.  SEGMENT_NS: how long the lock stays with one
 * ticket (the test's hold; the hand-over to H parked in
 * raw_spin_handover_window, under RACE_WINDOW_MAX_NS); these lengths are
 * what is tested, not a wait for something to happen.  STUCK_NS, the
 * test lock's threshold (raw_spin_test_stuck_ns): above one segment,
 * below the two W waits through.  A report needs one segment to stretch
 * by 200 ms (a vCPU the host does not run that long): the case measures
 * each segment's upper bound and skips, saying so, when one did; a
 * detector that measures the whole wait reports before W gets the lock
 * whatever the host does.
 */
#define SEGMENT_NS (500LL * NSEC_PER_MSEC)
#define STUCK_NS   (700LL * NSEC_PER_MSEC)

/* spin_for - keep this CPU (the lock held) for ns of ktime. */
static void spin_for(s64 ns)
{
	ktime_t end = ktime_get() + ns;

	while (ktime_get() < end)
		cpu_relax();
}

/* wait_published - until cpu is published as spinning for lock (its
 * ticket in *ticket); false after PUBLISH_WAIT_NS. */
static bool wait_published(int cpu, raw_spinlock_t *lock, u16 *ticket)
{
	ktime_t end = ktime_get() + PUBLISH_WAIT_NS;
	struct task_struct *task;

	while (!raw_spin_cpu_waits_for(cpu, lock, ticket, &task))
		if (ktime_get() > end)
			return false;
	return true;
}

struct convoy_case {
	raw_spinlock_t lock;		  /* test_hooks set */
	int go_h, go_w;			  /* H, W may take the lock */
	struct completion h_done, w_done; /* H, W had it and let go */
};

static void wait_go(int *go)
{
	ktime_t end = ktime_get() + SAFETY_NS;

	while (!READ_ONCE(*go) && ktime_get() < end)
		cpu_relax();
}

static int convoy_h_fn(void *data)
{
	struct convoy_case *c = data;

	wait_go(&c->go_h);
	raw_spin_lock(&c->lock); /* parks at the hand-over */
	raw_spin_unlock(&c->lock);
	complete(&c->h_done);
	return 0;
}

static int convoy_w_fn(void *data)
{
	struct convoy_case *c = data;

	wait_go(&c->go_w);
	raw_spin_lock(&c->lock);
	raw_spin_unlock(&c->lock);
	complete(&c->w_done);
	return 0;
}

/*
 * Scenario (3 CPUs; issue 28 item 7, the "rq->lock stuck ... holder CPU
 * -1" panic under host load): a ticket convoy.  The test on CPU 0 holds
 * the lock; H (FIFO 10, CPU 1) and then W (FIFO 10, CPU 2) spin for it,
 * H first.  The lock changes hands twice while W spins: the test keeps
 * it one SEGMENT_NS, then hands it to H, whose hand-over is parked in
 * raw_spin_handover_window for another (the ticket served, its vCPU not
 * yet running); H then takes it and lets go at once.
 *
 *	CPU0 (test)		CPU1 (H)		CPU2 (W)
 *	lock: ticket T
 *				lock: ticket T+1, spins
 *							lock: ticket T+2,
 *							spins (clock starts)
 *	holds SEGMENT_NS
 *	unlock: owner_cpu = -1,
 *	owner = T+1		sees T+1 served, parks
 *	(the lock is handed	in the window: not
 *	 over, not taken)	taken yet, SEGMENT_NS	waited 2 SEGMENT_NS
 *							> STUCK_NS: a
 *							whole-wait clock
 *							reports it here
 *	release the window	takes it
 *				unlock: owner = T+2	takes it
 *
 * Observable: W never spins STUCK_NS without the lock changing hands,
 * so the detector, which must measure from the last hand-over, makes no
 * report (raw_spin_test_reports unchanged); H and W both get the lock.
 * And the report's holder half (raw_spin_describe_holder) names the
 * test as the holder while it holds the lock, and "handed to ticket
 * T+1 (CPU 1), not yet taken" while H is parked -- not "holder CPU -1"
 * with the previous holder's site.
 */
static void test_lock_handed_on_past_the_limit_is_not_stuck(struct ktest *t)
{
	static struct convoy_case c;
	struct race_window *win = &raw_spin_handover_window;
	bool h_waits = false, w_waits = false, parked = false, h_ok, w_ok;
	char held[160] = "", handed[160] = "", want_held[32], want_handed[64];
	s64 saved = raw_spin_test_stuck_ns;
	struct task_struct *h, *w;
	unsigned long reports0, reports;
	u16 ticket = 0, want_w;
	ktime_t t_go_w = 0, t_unlock, t_release, t_w_done;
	s64 longest;

	if (num_online_cpus() < 3)
		ktest_skip(t, "needs 3 CPUs: the holder, the hand-over and a "
			      "spinner behind it");
	raw_spin_lock_init(&c.lock);
	c.lock.test_hooks = true;
	c.go_h = c.go_w = 0;
	init_completion(&c.h_done);
	init_completion(&c.w_done);
	set_cpus_allowed(current, one_cpu(0));
	h = start_rt(convoy_h_fn, &c, SCHED_FIFO, 10, 1, "convoy-h");
	KTEST_ASSERT(t, h != NULL, "kthread_create failed");
	w = start_rt(convoy_w_fn, &c, SCHED_FIFO, 10, 2, "convoy-w");
	if (!w) {
		WRITE_ONCE(c.go_h, 1);
		kthread_stop(h);
		put_task_struct(h);
		KTEST_ASSERT(t, false, "kthread_create failed");
	}
	WRITE_ONCE(raw_spin_test_stuck_ns, STUCK_NS);
	reports0 = READ_ONCE(raw_spin_test_reports);
	race_window_arm(win, h);

	raw_spin_lock(&c.lock);
	want_w = (u16)(__atomic_load_n(&c.lock.owner, __ATOMIC_RELAXED) + 2);
	raw_spin_describe_holder(&c.lock, held, sizeof(held));
	WRITE_ONCE(c.go_h, 1);
	h_waits = wait_published(1, &c.lock, &ticket);
	if (h_waits) {
		t_go_w = ktime_get();
		WRITE_ONCE(c.go_w, 1);
		w_waits =
			wait_published(2, &c.lock, &ticket) && ticket == want_w;
	}
	spin_for(SEGMENT_NS);
	raw_spin_unlock(&c.lock); /* handed to H */
	t_unlock = ktime_get();
	if (h_waits)
		parked = race_window_wait_parked(win, SAFETY_NS);
	if (parked) {
		raw_spin_describe_holder(&c.lock, handed, sizeof(handed));
		spin_for(SEGMENT_NS);
	}
	t_release = ktime_get();
	race_window_release(win);
	WRITE_ONCE(c.go_w, 1); /* W ends even if it never queued */

	h_ok = wait_for_completion_timeout(&c.h_done, SAFETY_NS) > 0;
	w_ok = wait_for_completion_timeout(&c.w_done, 2 * SAFETY_NS) > 0;
	t_w_done = ktime_get();
	reports = READ_ONCE(raw_spin_test_reports) - reports0;
	/* an upper bound of each owner's segment as W saw it: a host that
	 * did not run a vCPU can stretch one past STUCK_NS, and then a
	 * report is right, not a false one */
	longest = max(max(t_unlock - t_go_w, t_release - t_unlock),
		      t_w_done - t_release);
	WRITE_ONCE(raw_spin_test_stuck_ns, saved);
	kthread_stop(h);
	put_task_struct(h);
	kthread_stop(w);
	put_task_struct(w);
	set_cpus_allowed(current, (cpumask_t){.bits = ~0ULL});
	KTEST_ASSERT(t, h_waits, "H never spun for the lock on CPU 1");
	KTEST_ASSERT(t, w_waits,
		     "W never spun for the lock on CPU 2 with "
		     "ticket %u",
		     want_w);
	KTEST_ASSERT(t, parked, "H did not park in raw_spin_handover_window");
	snprintf(want_held, sizeof(want_held), "holder CPU 0 task %s",
		 current->name);
	snprintf(want_handed, sizeof(want_handed),
		 "handed to ticket %u (CPU 1), not yet taken",
		 (u16)(want_w - 1));
	KTEST_EXPECT(t, strstr(held, want_held), "held: \"%s\", want \"%s\"",
		     held, want_held);
	KTEST_EXPECT(t, strstr(handed, want_handed),
		     "handed over: \"%s\", want \"%s\"", handed, want_handed);
	KTEST_EXPECT(t, h_ok && w_ok, "H %s, W %s the lock",
		     h_ok ? "had" : "never had", w_ok ? "had" : "never had");
	if (reports && longest >= STUCK_NS) {
		pr_info("raw_spin_report: longest segment %lld ms\n",
			longest / NSEC_PER_MSEC);
		ktest_skip(t, "the host stretched one owner's segment past the "
			      "threshold (printed above): a report is right then");
	}
	KTEST_EXPECT(t, reports == 0,
		     "W was reported stuck %lu time(s) while the lock changed "
		     "hands every %lld ms (threshold %lld ms)",
		     reports, SEGMENT_NS / NSEC_PER_MSEC,
		     STUCK_NS / NSEC_PER_MSEC);
}

/*
 * Scenario (2 CPUs): the test on CPU 0 takes the lock and does not let
 * go; W (FIFO 10, CPU 1) spins for it.  Observable: W's CPU reports the
 * lock stuck (raw_spin_test_reports grows: the report a real lock
 * panics with), not before STUCK_NS after the test took the lock, and
 * once the test unlocks, W gets the lock.
 */
static void test_lock_never_released_is_still_reported(struct ktest *t)
{
	static struct convoy_case c;
	s64 saved = raw_spin_test_stuck_ns;
	unsigned long reports0;
	bool reported = false, w_ok;
	struct task_struct *w;
	ktime_t t0, end, elapsed = 0;

	if (num_online_cpus() < 2)
		ktest_skip(t, "needs 2 CPUs: the waiter spins on another CPU");
	raw_spin_lock_init(&c.lock);
	c.lock.test_hooks = true;
	c.go_w = 0;
	init_completion(&c.w_done);
	set_cpus_allowed(current, one_cpu(0));
	w = start_rt(convoy_w_fn, &c, SCHED_FIFO, 10, 1, "stuck-w");
	KTEST_ASSERT(t, w != NULL, "kthread_create failed");
	WRITE_ONCE(raw_spin_test_stuck_ns, STUCK_NS);
	reports0 = READ_ONCE(raw_spin_test_reports);

	raw_spin_lock(&c.lock);
	t0 = ktime_get();
	WRITE_ONCE(c.go_w, 1);
	end = t0 + STUCK_NS + SAFETY_NS;
	while (!(reported = READ_ONCE(raw_spin_test_reports) != reports0) &&
	       ktime_get() < end)
		cpu_relax();
	elapsed = ktime_get() - t0;
	raw_spin_unlock(&c.lock);

	w_ok = wait_for_completion_timeout(&c.w_done, SAFETY_NS) > 0;
	WRITE_ONCE(raw_spin_test_stuck_ns, saved);
	kthread_stop(w);
	put_task_struct(w);
	set_cpus_allowed(current, (cpumask_t){.bits = ~0ULL});
	KTEST_EXPECT(t, reported,
		     "W spun %lld ms on a lock that was never released and "
		     "was not reported (threshold %lld ms)",
		     elapsed / NSEC_PER_MSEC, STUCK_NS / NSEC_PER_MSEC);
	KTEST_EXPECT(t, !reported || elapsed >= STUCK_NS,
		     "reported after %lld ms, before the %lld ms threshold",
		     elapsed / NSEC_PER_MSEC, STUCK_NS / NSEC_PER_MSEC);
	KTEST_EXPECT(t, w_ok, "W never had the lock after the unlock");
}

/*
 * raw_spin_stuck, fed by hand (limit 100): the first look starts the
 * clock; the same owner past the limit is stuck (a holder that never
 * lets go), at the limit not yet; a new owner -- a hand-over, also
 * across the u16 wrap -- restarts the clock, however long the total
 * wait; a stuck owner stays stuck.
 */
static void test_stuck_decision_restarts_at_each_hand_over(struct ktest *t)
{
	struct raw_spin_watch w = {0};

	KTEST_EXPECT(t, !raw_spin_stuck(&w, 7, 1000, 100), "first look");
	KTEST_EXPECT(t, !raw_spin_stuck(&w, 7, 1100, 100), "at the limit");
	KTEST_EXPECT(t, raw_spin_stuck(&w, 7, 1101, 100),
		     "same owner past the limit");
	KTEST_EXPECT(t, raw_spin_stuck(&w, 7, 5000, 100), "still stuck");
	KTEST_EXPECT(t, !raw_spin_stuck(&w, 8, 5001, 100), "hand-over");
	KTEST_EXPECT(t, !raw_spin_stuck(&w, 8, 5101, 100),
		     "at the limit after the hand-over");
	KTEST_EXPECT(t, raw_spin_stuck(&w, 8, 5102, 100),
		     "past the limit after the hand-over");
	w.owner = 0xffff;
	w.since = 6000;
	KTEST_EXPECT(t, !raw_spin_stuck(&w, 0, 7000, 100),
		     "hand-over across the wrap");
	KTEST_EXPECT(t, raw_spin_stuck(&w, 0, 7101, 100),
		     "past the limit after the wrap");
}

KTEST_SUITE(raw_spin_report,
	    KTEST_CASE(test_long_spin_is_published_with_its_ticket),
	    KTEST_CASE(test_lock_handed_on_past_the_limit_is_not_stuck),
	    KTEST_CASE(test_lock_never_released_is_still_reported),
	    KTEST_CASE(test_stuck_decision_restarts_at_each_hand_over));
