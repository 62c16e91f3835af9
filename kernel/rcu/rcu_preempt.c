/*
 * kernel/rcu/rcu_preempt.c - preemptible RCU readers (PREEMPT=rt,
 * PREEMPT_RCU): the blocked-readers list, the outermost unlock of
 * a reader that was switched out, and priority boosting of a reader
 * that holds up a grace period.
 *
 * Mapping to Linux's kernel/rcu/tree_plugin.h:
 *   rcu_preempt_note_context_switch  = rcu_note_context_switch's PREEMPT
 *	half: a task switched out with ->rcu_read_lock_nesting > 0 is put
 *	on rnp->blkd_tasks with RCU_SPECIAL_BLOCKED (Linux's
 *	rcu_read_unlock_special.b.blocked).  rtk appends to one global
 *	list and gives each entry a ticket; Linux's gp_tasks pointer (the
 *	first entry the current gp waits for) becomes "every ticket up to
 *	blkd_gp_ticket".
 *   rcu_read_unlock_special  = the same name: dequeue, and if boosted
 *	release the boost rt_mutex, which deboosts (rt_mutex_futex_unlock
 *	of rcu_boost_mtx in Linux).
 *   rcu_boost  = rcu_boost() run by the rcub/N kthread: proxy-lock an
 *	rt_mutex on behalf of the reader (rt_mutex_init_proxy_locked),
 *	then block on it at SCHED_FIFO boost_prio, so that ordinary
 *	priority inheritance (kernel/locking/rtmutex.c) raises the reader
 *	and carries the boost down any lock chain it is blocked on.  rtk
 *	has no separate rcub thread: the gp kthread itself boosts, at the
 *	boost priority only while it does (a grace period cannot end
 *	before the reader leaves anyway).  One reader is boosted at a
 *	time, oldest first, as Linux's boost_tasks walk does.
 *   boost_delay_ms  = RCU_BOOST_DELAY (counted from the gp start, as
 *	Linux's rnp->boost_time), boost_prio = kthread_prio.
 * Article: "Preemptible critical sections" (RCU readers preemptible),
 * "PREEMPT_RT configuration options" (PREEMPT_RCU).
 */
#include "kernel/rcu/rcu_internal.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/cmdline.h"
#include "kernel/time/ktime.h"
#include "kernel/time/tick.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "lib/bug.h"
#include "lib/errno.h"
#include "lib/string.h"

/*
 * rcu_preempt_note_context_switch - prev leaves the CPU inside a read
 * section: queue it (once per section) so the grace periods that start
 * before it leaves wait for it.
 * Context: __schedule, irqs off.  Locking: prev's rq lock held; takes
 * rcu_state.lock (the lock order of rcu_internal.h).
 */
void rcu_preempt_note_context_switch(struct task_struct *prev)
{
	struct rcu_task *r = &prev->rcu;

	BUG_ON(!raw_irqs_disabled());
	if (r->read_lock_nesting <= 0 || (r->special & RCU_SPECIAL_BLOCKED))
		return;
	raw_spin_lock(&rcu_state.lock);
	r->blkd_ticket = ++rcu_state.blkd_enqueued;
	r->blkd_since_ns = ktime_get_ns();
	list_add_tail(&r->blkd_entry, &rcu_state.blkd_tasks);
	WRITE_ONCE(r->special, r->special | RCU_SPECIAL_BLOCKED);
	rcu_state.nr_blocked++;
	rcu_state.nr_blocked_total++;
	if (rcu_state.nr_blocked > rcu_state.nr_blocked_max)
		rcu_state.nr_blocked_max = rcu_state.nr_blocked;
	raw_spin_unlock(&rcu_state.lock);
}

/*
 * rcu_read_unlock_special - see rcupdate.h.  Reached from the outermost
 * rcu_read_unlock() with special set.  A hard irq whose own section
 * ended here returns: the interrupted task is itself on its way through
 * this function (special is only set while its count was > 0), and the
 * rt_mutex unlock below needs task context.
 * Context: task, any preemption/irq state.  Locking: takes
 * rcu_state.lock; the boost mutex is released after it is dropped.
 */
void rcu_read_unlock_special(struct task_struct *t)
{
	struct rt_mutex *boost = NULL;
	unsigned long flags;

	if (in_irq() || in_nmi())
		return;
	BUG_ON(t != current);
	raw_spin_lock_irqsave(&rcu_state.lock, flags);
	if (t->rcu.special & RCU_SPECIAL_BLOCKED) {
		list_del_init(&t->rcu.blkd_entry);
		rcu_state.nr_blocked--;
	}
	if (t->rcu.special & RCU_SPECIAL_BOOSTED) {
		boost = t->rcu.boost_mutex;
		t->rcu.boost_mutex = NULL;
	}
	WRITE_ONCE(t->rcu.special, 0);
	raw_spin_unlock_irqrestore(&rcu_state.lock, flags);
	if (boost) {
		/* rcu_boost() made t the owner by proxy, which the lock
		 * validator did not see: t takes it over (Linux unlocks
		 * with the unannotated rt_mutex_futex_unlock instead) */
		lock_acquire(&boost->dep_map, 0, true, 0, _THIS_IP_);
		rt_mutex_unlock(boost);	/* pairs with rcu_boost's lock */
	}
}

/* rcu_first_holdout - the oldest reader the current gp waits for.
 * Locking: rcu_state.lock held. */
static struct task_struct *rcu_first_holdout(void)
{
	struct rcu_task *r;

	raw_spin_assert_held(&rcu_state.lock);
	if (list_empty(&rcu_state.blkd_tasks))
		return NULL;
	r = list_first_entry(&rcu_state.blkd_tasks, struct rcu_task,
			     blkd_entry);
	if (r->blkd_ticket > rcu_state.blkd_gp_ticket)
		return NULL;
	return container_of(r, struct task_struct, rcu);
}

/*
 * rcu_boost - [5]: boost t through the boost rt_mutex and wait for it to
 * leave its section.  The caller has proxy-locked the mutex for t.
 * Context: the gp kthread, may sleep, no locks held.
 */
static void rcu_boost(struct task_struct *t, unsigned long gp, u64 age_ns)
{
	struct sched_param sp = { .sched_priority = READ_ONCE(rcu_state.boost_prio) };

	might_sleep();
	pr_info("rcu: reader %s/%d preempted in its read section holds up "
		"grace period %lu for %llu ms: boosting it to SCHED_FIFO %d\n",
		t->name, t->pid, gp, (unsigned long long)(age_ns / NSEC_PER_MSEC),
		sp.sched_priority);
	sched_setscheduler(current, SCHED_FIFO, &sp);
	rt_mutex_lock(&rcu_state.boost_mtx);	/* PI: t runs at our prio */
	rt_mutex_unlock(&rcu_state.boost_mtx);
	sp.sched_priority = 0;
	sched_setscheduler(current, SCHED_OTHER, &sp);
	put_task_struct(t);
}

/*
 * rcu_preempt_wait_readers - [4] and [5] of rcu.c's loop: every reader
 * queued by now (ticket <= blkd_gp_ticket) must leave its section; the
 * oldest is boosted once the gp is boost_delay old.
 * Context: the gp kthread, may sleep.
 */
void rcu_preempt_wait_readers(void)
{
	struct task_struct *t;
	unsigned long gp;
	u64 age;

	raw_spin_lock_irq(&rcu_state.lock);				/* [4] */
	rcu_state.blkd_gp_ticket = rcu_state.blkd_enqueued;
	rcu_state.phase = RCU_GP_WAIT_READERS;
	for (;;) {
		t = rcu_first_holdout();
		if (!t)
			break;
		age = ktime_get_ns() - rcu_state.gp_start_ns;
		if (age < (u64)rcu_state.boost_delay_ms * NSEC_PER_MSEC ||
		    (t->rcu.special & RCU_SPECIAL_BOOSTED)) {
			raw_spin_unlock_irq(&rcu_state.lock);
			schedule_timeout_uninterruptible(TICK_NSEC);
			raw_spin_lock_irq(&rcu_state.lock);
			continue;
		}
		/* [5] proxy-lock for t (rt_mutex_init_proxy_locked): t stays
		 * queued until it takes rcu_state.lock, so it sees BOOSTED */
		if (!rt_mutex_cmpxchg(&rcu_state.boost_mtx, 0, (uintptr_t)t))
			panic("rcu: boost mutex already held");
		t->rcu.boost_mutex = &rcu_state.boost_mtx;
		WRITE_ONCE(t->rcu.special, t->rcu.special | RCU_SPECIAL_BOOSTED);
		get_task_struct(t);
		rcu_state.boosts++;
		rcu_state.phase = RCU_GP_BOOSTING;
		gp = rcu_state.gp_started;
		raw_spin_unlock_irq(&rcu_state.lock);
		rcu_boost(t, gp, age);
		raw_spin_lock_irq(&rcu_state.lock);
		rcu_state.phase = RCU_GP_WAIT_READERS;
	}
	raw_spin_unlock_irq(&rcu_state.lock);
}

void rcu_preempt_fill_stats(struct rcu_stats *st, u64 now)
{
	struct rcu_task *r;
	struct rcu_reader_info *ri;
	struct task_struct *t;

	raw_spin_assert_held(&rcu_state.lock);
	list_for_each_entry(r, &rcu_state.blkd_tasks, blkd_entry) {
		if (st->nr_readers == RCU_STATS_READERS)
			break;
		t = container_of(r, struct task_struct, rcu);
		ri = &st->readers[st->nr_readers++];
		ri->pid = t->pid;
		strscpy(ri->name, t->name, sizeof(ri->name));
		ri->boosted = r->special & RCU_SPECIAL_BOOSTED;
		ri->blocked_ns = now - r->blkd_since_ns;
		ri->holds_gp = rcu_state.phase >= RCU_GP_WAIT_READERS &&
			       r->blkd_ticket <= rcu_state.blkd_gp_ticket;
	}
}

int rcu_set_boost_delay(unsigned int ms)
{
	if (ms < 1 || ms > RCU_BOOST_DELAY_MAX_MS)
		return -EINVAL;
	WRITE_ONCE(rcu_state.boost_delay_ms, ms);
	return 0;
}

int rcu_set_boost_prio(int prio)
{
	if (prio < 1 || prio > MAX_USER_RT_PRIO - 1)
		return -EINVAL;
	WRITE_ONCE(rcu_state.boost_prio, prio);
	return 0;
}

unsigned int rcu_get_boost_delay(void)
{
	return READ_ONCE(rcu_state.boost_delay_ms);
}

int rcu_get_boost_prio(void)
{
	return READ_ONCE(rcu_state.boost_prio);
}

static int __init parse_rcu_boost_delay(const char *val)
{
	unsigned long ms;

	if (!val || kstrtoul(val, 10, &ms) || ms > RCU_BOOST_DELAY_MAX_MS)
		return -EINVAL;
	return rcu_set_boost_delay((unsigned int)ms);
}
CMDLINE_PARAM("rcu_boost_delay", parse_rcu_boost_delay);

static int __init parse_rcu_boost_prio(const char *val)
{
	long prio;

	if (!val || kstrtol(val, 10, &prio))
		return -EINVAL;
	return rcu_set_boost_prio((int)prio);
}
CMDLINE_PARAM("rcu_boost_prio", parse_rcu_boost_prio);
