/*
 * kernel/rcu/rcu.c - grace periods: per-CPU quiescent states and the
 * grace-period kthread ("rcu_preempt" under PREEMPT=rt, "rcu_sched"
 * under the other models), synchronize_rcu().
 *
 * A grace period ends when [a] every CPU online at its start has passed
 * a quiescent state since (a context switch, a tick that interrupted
 * code outside any read section, or the idle loop on its way into a
 * halt, rcu_idle_enter; a CPU idling with its tick stopped is kicked
 * by [3] so that it passes there again), and [b] under PREEMPT_RCU,
 * every reader that had been switched out inside its section by the
 * time [a] held has left it (rcu_preempt.c).  After [a], a reader that
 * began before the grace period is either done or on the blocked list:
 * its CPU could not pass a quiescent state while it ran in its section,
 * and a context switch puts it on the list before it counts as one.
 * [b] is conservative: it also waits for readers that began after the
 * grace period did.
 *
 * The kthread's loop, one grace period per turn:
 *	[1] sleep until someone needs a grace period (gp_requested)
 *	[2] start it: gp_started++, snapshot every online CPU's counter
 *	[3] poll once per tick until every snapshotted counter has moved;
 *	    kick the CPUs still pending that idle with their tick stopped
 *	[4] under PREEMPT_RCU: take the blocked-readers ticket and wait
 *	    until no reader with an older ticket is left; [5] boost the
 *	    oldest one once the grace period is boost_delay old
 *	[6] gp_completed = gp_started, wake synchronize_rcu and rcu_cb
 * Linux counterpart: kernel/rcu/tree.c (rcu_gp_kthread, rcu_gp_init,
 * rcu_gp_fqs_loop, rcu_gp_cleanup, rcu_qs, rcu_sched_clock_irq,
 * synchronize_rcu via wait_rcu_gp); rtk polls instead of combining
 * quiescent-state reports up an rcu_node tree, and has no expedited
 * grace periods nor dynticks counters (NO_HZ idle: rcu_idle_enter).
 */
#include "kernel/rcu/rcu_internal.h"
#include "kernel/sched/kthread.h"
#include "kernel/time/ktime.h"
#include "kernel/time/tick.h"
#include "kernel/smp.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "lib/bug.h"
#include "lib/string.h"

struct rcu_state rcu_state = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(rcu_state.lock),
	.phase = RCU_GP_IDLE,
	.blkd_tasks = LIST_HEAD_INIT(rcu_state.blkd_tasks),
	.boost_delay_ms = 10,	/* the threshold asked for in issue 5;
				 * Linux's RCU_BOOST_DELAY is 500 ms */
	.boost_prio = 1,	/* Linux's kthread_prio default with
				 * RCU_BOOST: SCHED_FIFO 1 */
	.boost_mtx = __RT_MUTEX_INITIALIZER(rcu_state.boost_mtx),
};

DEFINE_PER_CPU(unsigned long, rcu_qs_ctr);
DECLARE_WAIT_QUEUE_HEAD(rcu_gp_wq);
static DECLARE_WAIT_QUEUE_HEAD(rcu_gp_kthread_wq);

/* How often [3] looks at the counters: the tick reports a quiescent
 * state at most once per tick, so looking more often finds nothing. */
#define RCU_GP_POLL_NS TICK_NSEC

/* rcu_qs - this CPU passed a quiescent state.  The release fence orders
 * the reader accesses that came before it ahead of the new count (pairs
 * with the acquire load in rcu_gp_cpus_pending).  Context: this CPU,
 * irqs off (context switch) or hardirq (tick). */
static inline void rcu_qs(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	this_cpu_inc(rcu_qs_ctr);
}

void rcu_note_context_switch(struct task_struct *prev)
{
	BUG_ON(!raw_irqs_disabled());
	if (PREEMPT_RCU)
		rcu_preempt_note_context_switch(prev);
	rcu_qs();
}

/* rcu_idle_enter - see rcupdate.h: the idle task holds no reader, and
 * with interrupts off no handler runs one here. */
void rcu_idle_enter(void)
{
	BUG_ON(!raw_irqs_disabled());
	rcu_qs();
}

/* rcu_kick_nohz_cpus - [3]: a CPU of pending that idles tickless gets a
 * reschedule IPI: its idle loop wakes, finds nothing to run, and passes
 * rcu_idle_enter on its way back into the halt (Linux instead reads its
 * dynticks counter, rcu_watching_snap_save). */
static void rcu_kick_nohz_cpus(u64 pending)
{
	int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if ((pending & (1ULL << cpu)) && tick_nohz_tick_stopped_cpu(cpu))
			smp_send_reschedule(cpu);
}

/*
 * rcu_sched_clock_irq - see rcupdate.h.  Under PREEMPT_RCU the
 * interrupted task is outside a section when its nesting count is 0, or
 * is already tracked when it is on the blocked list (it was preempted in
 * this section and runs again): either way this CPU holds no reader the
 * grace period does not know of.  Under the
 * other models a section is any preemption-off region: the tick must
 * have interrupted preempt_count 0, i.e. the count is the tick's own
 * HARDIRQ_OFFSET alone.
 */
void rcu_sched_clock_irq(void)
{
	struct task_struct *p = current_or_null();

	BUG_ON(!in_irq());
	if (!p)
		return;
	if (PREEMPT_RCU ? READ_ONCE(p->rcu.read_lock_nesting) == 0 ||
				  rcu_task_blocked(p)
			: preempt_count() == (int)HARDIRQ_OFFSET)
		rcu_qs();
}

unsigned long rcu_gp_request(void)
{
	unsigned long flags, need;

	raw_spin_lock_irqsave(&rcu_state.lock, flags);
	need = rcu_state.gp_started + 1;
	if (rcu_state.gp_requested < need)
		rcu_state.gp_requested = need;
	raw_spin_unlock_irqrestore(&rcu_state.lock, flags);
	wake_up(&rcu_gp_kthread_wq);
	return need;
}

unsigned long rcu_gp_snapshot(void)
{
	unsigned long flags, need;

	raw_spin_lock_irqsave(&rcu_state.lock, flags);
	need = rcu_state.gp_started + 1;
	raw_spin_unlock_irqrestore(&rcu_state.lock, flags);
	return need;
}

bool rcu_gp_done(unsigned long need)
{
	return __atomic_load_n(&rcu_state.gp_completed, __ATOMIC_ACQUIRE) >=
	       need;
}

static bool rcu_gp_needed(void)
{
	return READ_ONCE(rcu_state.gp_requested) >
	       READ_ONCE(rcu_state.gp_completed);
}

/* rcu_gp_init - [2].  The full fence orders the updates made before the
 * request (an unpublished pointer) before the counter snapshot. */
static void rcu_gp_init(void)
{
	int cpu;

	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	raw_spin_lock_irq(&rcu_state.lock);
	rcu_state.gp_started++;
	rcu_state.gp_start_ns = ktime_get_ns();
	rcu_state.cpus_pending = 0;
	rcu_state.blkd_gp_ticket = 0;
	for_each_online_cpu(cpu) {
		rcu_state.qs_snap[cpu] = __atomic_load_n(&per_cpu(rcu_qs_ctr, cpu),
							 __ATOMIC_ACQUIRE);
		rcu_state.cpus_pending |= 1ULL << cpu;
	}
	rcu_state.phase = RCU_GP_WAIT_QS;
	raw_spin_unlock_irq(&rcu_state.lock);
}

/* rcu_gp_cpus_pending - the CPUs of the snapshot still without a
 * quiescent state; stores the answer for `rcu` and the tests. */
static u64 rcu_gp_cpus_pending(void)
{
	u64 pending;
	int cpu;

	raw_spin_lock_irq(&rcu_state.lock);
	pending = rcu_state.cpus_pending;
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		if (!(pending & (1ULL << cpu)))
			continue;
		if (__atomic_load_n(&per_cpu(rcu_qs_ctr, cpu),
				    __ATOMIC_ACQUIRE) != rcu_state.qs_snap[cpu])
			pending &= ~(1ULL << cpu);
	}
	rcu_state.cpus_pending = pending;
	raw_spin_unlock_irq(&rcu_state.lock);
	return pending;
}

/* rcu_gp_cleanup - [6]; the fence orders everything the grace period
 * waited for before what the woken waiters do next (free memory). */
static void rcu_gp_cleanup(void)
{
	raw_spin_lock_irq(&rcu_state.lock);
	__atomic_store_n(&rcu_state.gp_completed, rcu_state.gp_started,
			 __ATOMIC_RELEASE);
	rcu_state.phase = RCU_GP_IDLE;
	raw_spin_unlock_irq(&rcu_state.lock);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	wake_up_all(&rcu_gp_wq);
}

/*
 * rcu_gp_kthread - the loop of the file header.
 * Context: its own kthread, SCHED_OTHER (SCHED_FIFO boost_prio only
 * while it boosts a reader, rcu_preempt.c).
 */
static int rcu_gp_kthread(void *unused)
{
	u64 pending;

	(void)unused;
	for (;;) {
		wait_event(rcu_gp_kthread_wq, rcu_gp_needed());	/* [1] */
		rcu_gp_init();						/* [2] */
		while ((pending = rcu_gp_cpus_pending())) {		/* [3] */
			rcu_kick_nohz_cpus(pending);
			schedule_timeout_uninterruptible(RCU_GP_POLL_NS);
		}
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (PREEMPT_RCU)
			rcu_preempt_wait_readers();			/* [4] */
		rcu_gp_cleanup();					/* [6] */
	}
	return 0;
}

/*
 * synchronize_rcu - see rcupdate.h.  Before rcu_init() there is one
 * task and every other CPU idles, so no section can overlap the caller:
 * return at once (Linux: rcu_scheduler_active == RCU_SCHEDULER_INACTIVE).
 * Context: task, may sleep, not in a read section.
 */
void synchronize_rcu(void)
{
	unsigned long need;

	might_sleep();
	WARN(PREEMPT_RCU && current->rcu.read_lock_nesting,
	     "synchronize_rcu inside an RCU read-side section\n");
	if (!rcu_state.gp_kthread)
		return;
	need = rcu_gp_request();
	wait_event(rcu_gp_wq, rcu_gp_done(need));
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void rcu_get_stats(struct rcu_stats *st)
{
	unsigned long flags;
	u64 now = ktime_get_ns();

	memset(st, 0, sizeof(*st));
	raw_spin_lock_irqsave(&rcu_state.lock, flags);
	st->phase = rcu_state.phase;
	st->gp_started = rcu_state.gp_started;
	st->gp_completed = rcu_state.gp_completed;
	if (rcu_state.phase != RCU_GP_IDLE) {
		st->gp_age_ns = now - rcu_state.gp_start_ns;
		st->cpus_pending = rcu_state.cpus_pending;
	}
	st->nr_blocked = rcu_state.nr_blocked;
	st->nr_blocked_max = rcu_state.nr_blocked_max;
	st->nr_blocked_total = rcu_state.nr_blocked_total;
	st->boosts = rcu_state.boosts;
	st->boost_delay_ms = rcu_state.boost_delay_ms;
	st->boost_prio = rcu_state.boost_prio;
	rcu_preempt_fill_stats(st, now);
	raw_spin_unlock_irqrestore(&rcu_state.lock, flags);
	rcu_cb_counts(&st->cb_queued, &st->cb_invoked);
}

void __init rcu_init(void)
{
	struct task_struct *p;

	p = kthread_create(rcu_gp_kthread, NULL,
			   PREEMPT_RCU ? "rcu_preempt" : "rcu_sched");
	if (!p)
		panic("rcu_init: no grace-period kthread");
	rcu_state.gp_kthread = p;
	wake_up_process(p);
	rcu_callbacks_init();
	pr_info("rcu: %s, grace-period kthread %s/%d, callbacks in rcu_cb\n",
		PREEMPT_RCU ? "preemptible readers (PREEMPT_RCU)"
			    : "readers disable preemption",
		p->name, p->pid);
}
