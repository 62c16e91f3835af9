/*
 * tests/kernel/test_sched_fair.c - the sched_fair suite: two busy nice-0
 * SCHED_OTHER threads on one CPU share it fairly under every model
 * (through preemption points, or sched_yield under none).  The window
 * the shares are measured over is explained at FAIR_WINDOW_NS.
 * Set-up helpers: tests/kernel/sched_helpers.h.
 * Linux counterpart: the CFS fairness checks of kernel/sched/fair.c
 * (place_entity's min_vruntime start); rtk's SCHED_OTHER is
 * kernel/sched/fair.c.
 * Article: "Miscellaneous" (non-realtime tasks are scheduled per CPU in
 * the traditional manner).
 */
#include "tests/kernel/sched_helpers.h"
#include "kernel/sched/completion.h"
#include "lib/string.h"

/*
 * The fairness window, in CPU time the two threads got together: it
 * closes once they used FAIR_WINDOW_NS and each had 25..75% of it, or
 * at FAIR_WINDOW_MAX_NS, whatever the shares.  Why not a fixed length:
 * a TCG vCPU is a host thread, and a loaded host stalls it for tens of
 * ms, sometimes hundreds; the thread that was current is charged the
 * stall and the scheduler repays the other afterwards (as CFS does).
 * A fixed window can end between the stall and the repayment; a fair
 * scheduler gets the shares back into the band well within 4x, an
 * unfair one (a starved thread, or slices of a second) does not.
 */
#define FAIR_WINDOW_NS (300 * NSEC_PER_MSEC)
#define FAIR_WINDOW_MAX_NS (4 * FAIR_WINDOW_NS)

static struct {
	int started;		/* threads that reached their loop */
	volatile bool open;	/* both run: the window is open */
	volatile bool closed;	/* see FAIR_WINDOW_NS */
	volatile u64 ran[2];	/* CPU time of each inside the window */
} fair;

struct fair_arg {
	int id;			/* 0 or 1: slot in fair.ran */
	struct completion *done;
	u64 ran_ns;		/* CPU time inside the window */
	bool partner_seen;	/* the partner started before the deadline */
	unsigned long switches;	/* times switched in inside the window */
};

/* fair_give_way - the model's way for a busy SCHED_OTHER loop to let
 * its equal run: a preemption point (the tick sets need_resched), or
 * under none, where there is none, an explicit yield. */
static void fair_give_way(void)
{
	if (PREEMPT_VOLUNTARY_POINTS)
		cond_resched();
	else
		sched_yield();
}

/* fair_window_done - FAIR_WINDOW_NS used with shares in the band, or
 * FAIR_WINDOW_MAX_NS used. */
static bool fair_window_done(void)
{
	u64 a = fair.ran[0], b = fair.ran[1], sum = a + b;

	if (sum >= FAIR_WINDOW_MAX_NS)
		return true;
	return sum >= FAIR_WINDOW_NS && a * 4 >= sum && b * 4 >= sum;
}

/*
 * fair_thread - [1] announce we run; the second one to get here opens
 * the window; [2] until it opens, give way, so the partner can start;
 * [3] baseline our CPU time when we first see the window open (we did
 * not run since it opened: the partner opened it); [4] busy, giving way
 * as the model allows and publishing our in-window CPU time, until the
 * window closes.
 */
static int fair_thread(void *arg)
{
	struct fair_arg *a = arg;
	ktime_t hang = ktime_get() + SAFETY_NS;
	unsigned long sw0;
	u64 base;

	if (__atomic_add_fetch(&fair.started, 1, __ATOMIC_SEQ_CST) == 2)
		WRITE_ONCE(fair.open, true);				/* [1] */
	while (!READ_ONCE(fair.open) && ktime_get() < hang)
		fair_give_way();					/* [2] */
	a->partner_seen = READ_ONCE(fair.open);
	base = current->sum_exec_ns;					/* [3] */
	sw0 = current->nr_switches;
	while (a->partner_seen && !READ_ONCE(fair.closed)) {		/* [4] */
		fair_give_way();
		fair.ran[a->id] = current->sum_exec_ns - base;
		if (fair_window_done())
			WRITE_ONCE(fair.closed, true);
	}
	a->ran_ns = current->sum_exec_ns - base;
	a->switches = current->nr_switches - sw0;
	complete(a->done);
	return 0;
}

/*
 * Scenario (one CPU, the last): two nice-0 SCHED_OTHER busy threads
 * bound to the same CPU.  From the moment both have run (the second
 * one opens the window) each gets 25..75% of the CPU time the two got
 * in the window (see FAIR_WINDOW_NS for when it closes).  New threads
 * start at their run queue's min_vruntime, wherever they were created,
 * so neither starts with a debt or a credit against the other.
 */
static void test_sched_other_busy_threads_share_fairly(struct ktest *t)
{
	struct completion done;
	struct fair_arg a = { .id = 0, .done = &done };
	struct fair_arg b = { .id = 1, .done = &done };
	struct task_struct *pa, *pb;
	int cpu = num_online_cpus() - 1;
	u64 sum;

	init_completion(&done);
	memset(&fair, 0, sizeof(fair));
	pa = start_rt(fair_thread, &a, SCHED_OTHER, 0, cpu, "fairA");
	pb = start_rt(fair_thread, &b, SCHED_OTHER, 0, cpu, "fairB");
	KTEST_ASSERT(t, pa && pb, "kthread_create failed");
	wait_for_completion(&done);
	wait_for_completion(&done);
	put_task_struct(pa);
	put_task_struct(pb);
	KTEST_EXPECT(t, a.partner_seen && b.partner_seen,
		     "both threads ran within %lld s, saw A %d B %d",
		     SAFETY_NS / NSEC_PER_SEC, a.partner_seen, b.partner_seen);
	sum = a.ran_ns + b.ran_ns;
	KTEST_EXPECT(t, sum > 0 && a.ran_ns * 4 >= sum && b.ran_ns * 4 >= sum,
		     "each 25..75%% of the window, saw A %llu us (%lu switches) "
		     "B %llu us (%lu)", (unsigned long long)(a.ran_ns / 1000),
		     a.switches, (unsigned long long)(b.ran_ns / 1000),
		     b.switches);
}

KTEST_SUITE(sched_fair,
	    KTEST_CASE(test_sched_other_busy_threads_share_fairly));
