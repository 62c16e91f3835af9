/*
 * kernel/rcu/rcu_callbacks.c - call_rcu(), the callback thread and
 * rcu_barrier().
 *
 * One global FIFO of rcu_heads and one kthread, "rcu_cb" (SCHED_OTHER),
 * under every model.  Why one thread and not Linux's per-CPU rcuc/N:
 * rtk's grace-period state is global (rcu.c), so a per-CPU list would
 * buy nothing but cache locality; one list keeps the order in which
 * callbacks were queued across CPUs, and rcu_barrier() becomes a ticket
 * ("everything queued before me has run") instead of one callback per
 * CPU.  Running callbacks in a thread keeps them preemptible and out of
 * softirq context (article, "Preemptible critical sections"; Linux
 * PREEMPT_RT offloads them to rcuo kthreads, rcu_nocbs, and runs them
 * in rcuc/N with RCU_BOOST).  SCHED_OTHER because freeing memory after a
 * grace period is not a real-time job; it must not delay RT tasks.
 *
 * Each rcu_head carries the grace-period number it needs
 * (rcu_gp_request); the thread runs the longest prefix of the list whose
 * grace periods are done, in order, then sleeps on rcu_gp_wq.
 * Linux counterpart: kernel/rcu/tree.c (call_rcu, rcu_do_batch,
 * rcu_barrier), kernel/rcu/rcu_segcblist.c (the list, by segments).
 */
#include "kernel/rcu/rcu_internal.h"
#include "kernel/sched/kthread.h"
#include "kernel/printk.h"
#include "kernel/panic.h"
#include "lib/bug.h"

static struct {
	raw_spinlock_t lock;		/* head, tail, queued */
	struct rcu_head *head;		/* oldest first */
	struct rcu_head **tail;
	unsigned long queued;		/* call_rcu calls */
	unsigned long invoked;		/* written by rcu_cb only */
	struct task_struct *thread;
} rcu_cbs = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(rcu_cbs.lock),
	.tail = &rcu_cbs.head,
};

/* rcu_barrier() sleeps here; woken after each batch. */
static DECLARE_WAIT_QUEUE_HEAD(rcu_barrier_wq);

/*
 * call_rcu - see rcupdate.h.  The grace period is requested before the
 * head is queued, so its number covers every reader that could still
 * see the object (the caller unpublished it before calling).
 * Context: any except NMI and the scheduler's rq-locked paths (it
 * wakes the gp kthread).  Locking: takes rcu_state.lock, rcu_cbs.lock.
 */
void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	unsigned long flags;

	BUG_ON(!func);
	head->func = func;
	head->next = NULL;
	head->gp_need = rcu_gp_request();
	raw_spin_lock_irqsave(&rcu_cbs.lock, flags);
	*rcu_cbs.tail = head;
	rcu_cbs.tail = &head->next;
	rcu_cbs.queued++;
	raw_spin_unlock_irqrestore(&rcu_cbs.lock, flags);
}

/* rcu_cb_ready - is the oldest callback's grace period over? */
static bool rcu_cb_ready(void)
{
	unsigned long flags;
	bool ready;

	raw_spin_lock_irqsave(&rcu_cbs.lock, flags);
	ready = rcu_cbs.head && rcu_gp_done(rcu_cbs.head->gp_need);
	raw_spin_unlock_irqrestore(&rcu_cbs.lock, flags);
	return ready;
}

/* rcu_cb_take_ready - unlink the ready prefix of the list.  A head
 * queued later may need an older grace period than one before it (two
 * CPUs racing between rcu_gp_request and the enqueue): the prefix stops
 * at the first that is not ready, so none runs early. */
static struct rcu_head *rcu_cb_take_ready(void)
{
	struct rcu_head *first, **end;

	raw_spin_lock_irq(&rcu_cbs.lock);
	first = rcu_cbs.head;
	end = &rcu_cbs.head;
	while (*end && rcu_gp_done((*end)->gp_need))
		end = &(*end)->next;
	if (end == &rcu_cbs.head) {
		raw_spin_unlock_irq(&rcu_cbs.lock);
		return NULL;
	}
	rcu_cbs.head = *end;
	if (!rcu_cbs.head)
		rcu_cbs.tail = &rcu_cbs.head;
	*end = NULL;	/* ends the batch */
	raw_spin_unlock_irq(&rcu_cbs.lock);
	return first;
}

/*
 * rcu_cb_thread - run each ready batch in queue order; invoked is
 * bumped after each callback returns, which is what rcu_barrier counts.
 * Context: its kthread, preemptible, callbacks may take sleeping locks.
 */
static int rcu_cb_thread(void *unused)
{
	struct rcu_head *h, *next;

	(void)unused;
	for (;;) {
		wait_event(rcu_gp_wq, rcu_cb_ready());
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		for (h = rcu_cb_take_ready(); h; h = next) {
			next = h->next;	/* func may free h */
			h->func(h);
			__atomic_store_n(&rcu_cbs.invoked, rcu_cbs.invoked + 1,
					 __ATOMIC_RELEASE);
		}
		wake_up_all(&rcu_barrier_wq);
		cond_resched();
	}
	return 0;
}

/*
 * rcu_barrier - see rcupdate.h: take the number of callbacks queued so
 * far and wait until that many have run; they run in queue order, so
 * those are exactly the ones queued before the call.
 * Context: task, may sleep; not from a callback (it would wait for
 * itself).
 */
void rcu_barrier(void)
{
	unsigned long flags, ticket;

	might_sleep();
	BUG_ON(current == rcu_cbs.thread);
	raw_spin_lock_irqsave(&rcu_cbs.lock, flags);
	ticket = rcu_cbs.queued;
	raw_spin_unlock_irqrestore(&rcu_cbs.lock, flags);
	if (WARN(!rcu_cbs.thread && ticket, "rcu_barrier before rcu_init\n"))
		return;
	wait_event(rcu_barrier_wq,
		   __atomic_load_n(&rcu_cbs.invoked, __ATOMIC_ACQUIRE) >= ticket);
}

void rcu_cb_counts(unsigned long *queued, unsigned long *invoked)
{
	*queued = READ_ONCE(rcu_cbs.queued);
	*invoked = READ_ONCE(rcu_cbs.invoked);
}

void __init rcu_callbacks_init(void)
{
	rcu_cbs.thread = kthread_run(rcu_cb_thread, NULL, "rcu_cb");
	if (!rcu_cbs.thread)
		panic("rcu_init: no rcu_cb thread");
}
