/*
 * kernel/workloads/torture_lock_check.c - lock torture's checker thread: it
 * samples the threads of one lock test every LC_PERIOD_US and reports
 *
 *	PI		a task blocked on the lock (task->pi_blocked_on set)
 *			whose lock owner runs at a worse priority than the
 *			blocked task, for LC_PI_STRIKES samples in a row of
 *			the same wait and the same hold: the chain walk
 *			boosts synchronously inside the lock call, so a
 *			settled state that stays wrong is a bug, while a
 *			waiter that just timed out or was just woken is a
 *			transient the strikes filter out
 *	lost wake-up	a task inside a lock call for LC_LOST_WAIT_NS,
 *			asleep (off the run queues, not TASK_RUNNING) at
 *			every sample of the last LC_LOST_FREE_NS, like
 *			every other thread inside a lock call of that lock,
 *			while nobody held the lock (no holder counted in,
 *			no releaser still inside its unlock call) and
 *			nobody took it: a state in which no wake-up is
 *			pending, so the durations only filter samples, they
 *			are not the finding; printed with the waiter's and
 *			the last releaser's backtraces
 *
 * and it sends kernel_signal() to threads inside an interruptible
 * attempt (rt_mutex_lock_interruptible, down_interruptible), one sample
 * in LC_SIGNAL_ONE_IN, so waiters leave the wait queue mid-walk.
 * The fields it reads are written racily by the threads (WRITE_ONCE);
 * only states that persist across samples count.
 * Linux counterpart: none in locktorture (it checks mutual exclusion
 * only); the PI rule is the one rt-tests' pi_stress checks from outside.
 */
#include "kernel/workloads/torture_lock.h"
#include "kernel/sched/task.h"
#include "kernel/signal.h"
#include "kernel/printk.h"

#define LC_PERIOD_US 10000		/* a sample every 10 ms */
#define LC_PI_STRIKES 3			/* >= 20 ms of the same wrong state */
#define LC_LOST_WAIT_NS (5 * NSEC_PER_SEC)	/* far beyond any hold */
#define LC_LOST_FREE_NS (2 * NSEC_PER_SEC)	/* free and untaken */
#define LC_SIGNAL_ONE_IN 8
#define CHECKER_PRIO 90			/* above the workers: samples on time */

/* check_pi - the PI rule for th, blocked on slot.  Context: checker. */
static void check_pi(struct lock_torture *lt, struct lt_thread *th,
		     struct lt_slot *slot)
{
	struct lt_thread *o = READ_ONCE(slot->owner);
	int prio, oprio;

	/* settled: blocked (the chain walk ran before it went to sleep,
	 * so a waiter still on a run queue may be walking) */
	if (!o || o == th || !READ_ONCE(th->task->pi_blocked_on) ||
	    READ_ONCE(th->task->on_rq)) {
		th->pi_strikes = 0;
		return;
	}
	prio = READ_ONCE(th->task->prio);
	oprio = READ_ONCE(o->task->prio);
	if (oprio <= prio) {
		th->pi_strikes = 0;
		return;
	}
	if (th->pi_strikes && th->pi_wait_seq == READ_ONCE(th->wait_seq) &&
	    th->pi_hold_seq == READ_ONCE(slot->hold_seq)) {
		th->pi_strikes++;
	} else {
		th->pi_strikes = 1;
		th->pi_wait_seq = READ_ONCE(th->wait_seq);
		th->pi_hold_seq = READ_ONCE(slot->hold_seq);
	}
	if (th->pi_strikes != LC_PI_STRIKES)
		return;
	lt->pi_violations++;
	if (torture_error(lt->tt, "PI: %s (prio %d) blocked on the lock of "
			  "%s, which runs at prio %d for %d samples",
			  th->task->name, prio, o->task->name, oprio,
			  LC_PI_STRIKES)) {
		torture_show_task("blocked", th->task);
		torture_show_task("owner", o->task);
	}
}

/* task_asleep - p is blocked: off every run queue and not in
 * TASK_RUNNING.  A task that a push/pull/balance is moving is off the
 * run queues for a moment but TASK_RUNNING, as is a woken task before
 * its enqueue: neither is asleep. */
static bool task_asleep(struct task_struct *p)
{
	return !READ_ONCE(p->on_rq) && READ_ONCE(p->state) != TASK_RUNNING;
}

/* all_acquirers_asleep - every thread inside a lock call of slot is
 * blocked.  A thread that got the lock but has not counted itself in yet
 * is awake, so this rules out taking its slot for free; a waiter that
 * only starves is awake too, and starving is not a lost wake-up. */
static bool all_acquirers_asleep(struct lock_torture *lt,
				 struct lt_slot *slot)
{
	int i;

	for (i = 0; i < lt->nthreads; i++)
		if (READ_ONCE(lt->th[i].wait_slot) == slot &&
		    !task_asleep(lt->th[i].task))
			return false;
	return true;
}

/* slot_free - nobody holds slot's lock: no holder counted in, none
 * counted out but still inside its unlock call (a releaser preempted or
 * starved between [4] and [5] of lt_thread_fn still holds the lock). */
static bool slot_free(struct lt_slot *slot)
{
	return !READ_ONCE(slot->writers) && !READ_ONCE(slot->readers) &&
	       !__atomic_load_n(&slot->releasing, __ATOMIC_ACQUIRE);
}

/* check_lost_wakeup - th inside a lock call on slot for long while the
 * lock stays free and untaken.  Context: checker. */
static void check_lost_wakeup(struct lock_torture *lt, struct lt_thread *th,
			      struct lt_slot *slot, ktime_t now)
{
	bool is_free = slot_free(slot) && task_asleep(th->task) &&
		       all_acquirers_asleep(lt, slot);
	unsigned long wseq = READ_ONCE(th->wait_seq);
	unsigned long hseq = READ_ONCE(slot->hold_seq);
	struct lt_thread *last;

	if (!is_free) {
		th->free_since = 0;
		return;
	}
	if (!th->free_since || th->free_wait_seq != wseq ||
	    th->free_hold_seq != hseq) {
		th->free_since = now;
		th->free_wait_seq = wseq;
		th->free_hold_seq = hseq;
		th->reported = false;
		return;
	}
	if (th->reported || now - th->free_since < LC_LOST_FREE_NS ||
	    now - READ_ONCE(th->wait_start) < LC_LOST_WAIT_NS)
		return;
	th->reported = true;
	lt->lost_wakeups++;
	last = READ_ONCE(slot->last_owner);
	if (torture_error(lt->tt, "lost wake-up: %s in a lock call for %lld "
			  "ms, the lock free and untaken for %lld ms",
			  th->task->name,
			  (now - th->wait_start) / NSEC_PER_MSEC,
			  (now - th->free_since) / NSEC_PER_MSEC)) {
		torture_show_task("waiter", th->task);
		if (last)
			torture_show_task("last releaser", last->task);
	}
}

/* checker_fn - the sampling loop.  Context: kthread, SCHED_FIFO
 * CHECKER_PRIO; reads the threads' fields without locks. */
static int checker_fn(void *arg)
{
	struct lock_torture *lt = arg;
	struct torture_random rnd;
	int i;

	torture_random_init(&rnd, lt->tt, 0xc4ec);
	while (!torture_must_stop()) {
		ktime_t now = ktime_get();

		for (i = 0; i < lt->nthreads; i++) {
			struct lt_thread *th = &lt->th[i];
			struct lt_slot *slot = READ_ONCE(th->wait_slot);

			if (!slot) {
				th->pi_strikes = 0;
				th->free_since = 0;
				continue;
			}
			if (lt->pi)
				check_pi(lt, th, slot);
			check_lost_wakeup(lt, th, slot, now);
		}
		if (torture_random_below(&rnd, LC_SIGNAL_ONE_IN) == 0) {
			struct lt_thread *th =
				&lt->th[torture_random_below(&rnd, lt->nthreads)];

			if (READ_ONCE(th->interruptible)) {
				kernel_signal(th->task);
				lt->signals++;
			}
		}
		/* one test alone samples every LC_PERIOD_US; many at once
		 * share the machine, and sample less often each */
		torture_sleep_us(LC_PERIOD_US * torture_nr_tests());
	}
	return 0;
}

int lock_torture_start_checker(struct lock_torture *lt)
{
	return torture_kthread(lt->tt, checker_fn, lt, SCHED_FIFO, CHECKER_PRIO,
			       false, &lt->checker, "tlockchk/%d", lt->type);
}
