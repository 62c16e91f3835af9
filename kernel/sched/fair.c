/*
 * kernel/sched/fair.c - SCHED_OTHER: weighted virtual-runtime fair
 * sharing per CPU, with periodic load balancing between CPUs.
 *
 * Each task's vruntime grows by its run time scaled by
 * NICE_0_WEIGHT / weight(nice); the CPU runs the queued task with the
 * smallest vruntime, so over time every task gets CPU in proportion to
 * its weight (nice 0 = 1024, each nice step ~1.25x, Linux's table).
 * Placement (Linux's place_entity): a task that has never run starts at
 * its run queue's min_vruntime (a new task neither owes nor is owed
 * anything); a woken task starts no further back than min_vruntime minus
 * half a latency period, so a long sleeper cannot monopolise the CPU; a
 * task moving between CPUs keeps its lag behind min_vruntime.  The
 * queue is a list sorted by vruntime (Linux uses an rbtree; rtk's queues
 * hold a handful of tasks).
 * vruntimes are u64 and only their differences mean anything: every
 * comparison is signed on the difference, (s64)(a - b) < 0, as Linux's
 * entity_before(), so a lag below zero (a task behind min_vruntime on
 * an rq whose min is small) never wraps into "far ahead".
 * Balancing (every 32 ticks per CPU): pull one task from the busiest
 * CPU when it has at least two more SCHED_OTHER tasks than this one.
 * Linux counterpart: kernel/sched/fair.c (CFS: update_curr, place_entity,
 * check_preempt_tick, load_balance), without groups or PELT.
 */
#include "kernel/sched/rq.h"
#include "kernel/smp.h"
#include "kernel/time/tick.h"

#define NICE_0_WEIGHT 1024
/* Each task gets at least this before a tick preempts it for an equal,
 * and a wakeup preempts only with at least this much vruntime lead:
 * Linux's sysctl_sched_min_granularity (0.75 ms) scaled up for TCG. */
#define FAIR_GRANULARITY_NS (4LL * 1000 * 1000)
#define FAIR_LATENCY_NS (24LL * 1000 * 1000)	/* sysctl_sched_latency */

/* Linux's sched_prio_to_weight[]: nice -20 .. 19. */
static const u32 nice_weight[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
	1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
	110,   87,    70,    56,    45,    36,    29,    23,    18,    15,
};

static u32 task_weight(const struct task_struct *p)
{
	int idx = p->static_prio - MAX_RT_PRIO;

	return nice_weight[idx < 0 ? 0 : idx > 39 ? 39 : idx];
}

/* vruntime_before - a before b, correct across u64 wrap-around. */
static bool vruntime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

static void insert_sorted(struct rq *rq, struct task_struct *p)
{
	struct task_struct *q;

	list_for_each_entry(q, &rq->fair, run_list)
		if (vruntime_before(p->vruntime, q->vruntime)) {
			list_add_tail(&p->run_list, &q->run_list);
			return;
		}
	list_add_tail(&p->run_list, &rq->fair);
}

/*
 * enqueue_fair - queue p by vruntime, placed first (see the file
 * header): [1] never ran (sum_exec_ns 0: created, maybe bound or moved,
 * but not started): at min_vruntime, whatever rq it was created on;
 * [2] a wakeup: not further back than min_vruntime - latency / 2.
 * Locking: rq->lock held.
 */
void enqueue_fair(struct rq *rq, struct task_struct *p, bool wakeup)
{
	u64 floor = rq->min_vruntime - FAIR_LATENCY_NS / 2;

	raw_spin_assert_held(&rq->lock);
	if (p->sum_exec_ns == 0)
		p->vruntime = rq->min_vruntime;			/* [1] */
	else if (wakeup && vruntime_before(p->vruntime, floor))
		p->vruntime = floor;				/* [2] */
	insert_sorted(rq, p);
	rq->nr_fair++;
	p->fair_weight = task_weight(p);
	rq->fair_load += p->fair_weight;
}

void dequeue_fair(struct rq *rq, struct task_struct *p)
{
	list_del_init(&p->run_list);
	rq->nr_fair--;
	rq->fair_load -= p->fair_weight;
}

struct task_struct *pick_fair(struct rq *rq)
{
	return list_first_entry_or_null(&rq->fair, struct task_struct,
					run_list);
}

/* put_prev_fair - curr ran and its vruntime grew: move it to its place. */
void put_prev_fair(struct rq *rq, struct task_struct *p)
{
	list_del(&p->run_list);
	insert_sorted(rq, p);
}

void update_curr_fair(struct rq *rq, struct task_struct *curr, u64 delta)
{
	struct task_struct *first = pick_fair(rq);
	u64 min = curr->vruntime;

	curr->vruntime += delta * NICE_0_WEIGHT / task_weight(curr);
	if (first && first != curr && vruntime_before(first->vruntime, min))
		min = first->vruntime;
	if (vruntime_before(rq->min_vruntime, min))
		rq->min_vruntime = min;
}

bool fair_wakeup_preempts(struct rq *rq, struct task_struct *p)
{
	struct task_struct *curr = rq->curr;

	if (curr->flags & PF_IDLE)
		return true;
	return (s64)(curr->vruntime - p->vruntime) > FAIR_GRANULARITY_NS;
}

/* task_tick_fair - preempt curr once it ran its granularity and another
 * queued task is behind it in vruntime.  Locking: rq->lock. */
void task_tick_fair(struct rq *rq, struct task_struct *curr)
{
	struct task_struct *q;

	if (rq->nr_fair < 2)
		return;
	list_for_each_entry(q, &rq->fair, run_list) {
		if (q == curr)
			continue;
		if (vruntime_before(q->vruntime, curr->vruntime))
			resched_curr(rq);
		return;
	}
}

int select_fair_cpu(struct task_struct *p)
{
	int cpu = task_cpu(p), best = -1, c;
	unsigned int least = ~0U;

	if (task_runnable_on(p, cpu) && READ_ONCE(cpu_rq(cpu)->nr_fair) == 0)
		return cpu;
	for (c = 0; c < NR_CPUS; c++) {
		unsigned int n;

		if (!task_runnable_on(p, c))
			continue;
		/* a CPU busy with RT counts one more, unless its RT
		 * class is throttled: then its fair tasks run now */
		n = READ_ONCE(cpu_rq(c)->nr_fair) +
		    (rt_prio(READ_ONCE(cpu_rq(c)->cpu_prio)) &&
				     !READ_ONCE(cpu_rq(c)->rt_throttled) ? 1 : 0);
		if (n < least || (n == least && c == cpu)) {
			least = n;
			best = c;
		}
	}
	return best;
}

/*
 * fair_migrate_vruntime - p moves from src to dst: keep its lag, the
 * signed distance to src's min_vruntime (negative for a task behind
 * it), on dst's scale.  u64 arithmetic, read as signed: a task at
 * vruntime 0 leaving an rq whose min is large gets a large negative
 * lag, which enqueue_fair's wakeup floor then bounds; it does not wrap
 * to the far end of dst's queue (the fairness bug this replaced).
 * Locking: dst->lock held (src->lock too, or p is not queued).
 */
void fair_migrate_vruntime(struct rq *src, struct rq *dst,
			   struct task_struct *p)
{
	s64 lag = (s64)(p->vruntime - src->min_vruntime);

	raw_spin_assert_held(&dst->lock);
	p->vruntime = dst->min_vruntime + (u64)lag;
}

/* fair_yield - sched_yield for SCHED_OTHER: move curr's vruntime up to
 * at least min_vruntime, and one ns past it, so it queues behind the
 * tasks level with it.  Locking: rq->lock held. */
void fair_yield(struct rq *rq, struct task_struct *curr)
{
	raw_spin_assert_held(&rq->lock);
	if (vruntime_before(curr->vruntime, rq->min_vruntime))
		curr->vruntime = rq->min_vruntime;
	curr->vruntime++;	/* behind its equals */
}

/*
 * fair_movable_hint - how many of src's fair tasks are queued but not
 * running, read without src's lock: src's curr is a fair task unless
 * src is idle (nr_fair 0) or runs, or is about to run, an RT task.  Only
 * a filter: load_balance_fair rechecks under the lock, and a wrong 0
 * costs one balance period.  Without it every CPU less loaded than
 * src took src's lock each period although src's one fair task was its
 * running curr, which cannot move: with 63 idle CPUs that is a convoy
 * on CPU0's rq->lock (make test-machines madt-66-cpus, 64 vCPUs on two
 * host CPUs: "raw spinlock rq->lock stuck ... at load_balance_fair",
 * the ticket's next owner a vCPU the host had not run for 5 s).
 * Linux: load_balance moves only from a busiest with nr_running > 1.
 */
static unsigned int fair_movable_hint(struct rq *src)
{
	unsigned int n = READ_ONCE(src->nr_fair);

	if (n && !rt_prio(READ_ONCE(src->cpu_prio)))
		n--; /* its curr */
	return n;
}

/*
 * load_balance_fair - balance SCHED_OTHER load (the sum of nice weights,
 * not the task count: a nice -10 task weighs as much as ~9 nice 0 ones):
 * [1] find the CPU with the highest fair_load among those with a task
 * that can move (fair_movable_hint); [2] stop unless it is
 * above this one's; [3] move one of its queued, not running tasks
 * allowed here whose weight w is below the difference d: the imbalance
 * becomes |d - 2w| < d, so moving never makes it worse and two CPUs
 * cannot trade a task back and forth (equal weights: a task moves only
 * when the busiest has two more, as before).
 * Context: the tick (hard irq), or the idle loop when kicked
 * (nohz_idle_balance); no rq lock held.
 */
void load_balance_fair(struct rq *rq)
{
	struct rq *busiest = NULL;
	struct task_struct *p;
	unsigned long flags, most = 0;
	int c;

	for (c = 0; c < NR_CPUS; c++) {				/* [1] */
		struct rq *src = cpu_rq(c);

		if (src == rq || !READ_ONCE(src->online) ||
		    !fair_movable_hint(src))
			continue;
		if (READ_ONCE(src->fair_load) > most) {
			most = READ_ONCE(src->fair_load);
			busiest = src;
		}
	}
	if (!busiest || most <= READ_ONCE(rq->fair_load))	/* [2] */
		return;
	raw_local_irq_save(flags);
	double_rq_lock(rq, busiest);
	__atomic_fetch_add(&rq->nr_balance_locks, 1, __ATOMIC_RELAXED);
	list_for_each_entry(p, &busiest->fair, run_list) {	/* [3] */
		if (busiest->fair_load <= rq->fair_load)
			break;
		if (p == busiest->curr || p->on_cpu ||
		    !cpumask_test_cpu(rq->cpu, &p->cpus_allowed) ||
		    p->fair_weight >= busiest->fair_load - rq->fair_load)
			continue;
		move_queued_task(busiest, rq, p);
		if (rq->curr->flags & PF_IDLE)
			resched_curr(rq);
		break;
	}
	double_rq_unlock(rq, busiest);
	raw_local_irq_restore(flags);
}

/*
 * nohz_balance_kick - rq has fair tasks waiting: ask one CPU that idles
 * with its tick stopped (NO_HZ idle), which runs no periodic balance, to
 * pull: set its nohz_balance_pending and wake it; its idle loop runs
 * nohz_idle_balance before it halts again.  Linux: nohz_balancer_kick,
 * which sets NOHZ_BALANCE_KICK for the kicked CPU (it then balances for
 * every tickless one).  Context: the tick (hard irq), no rq lock.
 */
void nohz_balance_kick(struct rq *rq)
{
	int cpu;

	BUG_ON(!raw_irqs_disabled());
	if (READ_ONCE(rq->nr_fair) < 2)
		return;
	for (cpu = 0; cpu < NR_CPUS; cpu++) {
		struct rq *idle_rq = cpu_rq(cpu);

		if (cpu == rq->cpu || !READ_ONCE(idle_rq->online) ||
		    !tick_nohz_tick_stopped_cpu(cpu))
			continue;
		/* pairs with the exchange in nohz_idle_balance: the flag
		 * is set before the IPI that makes the CPU look at it */
		__atomic_store_n(&idle_rq->nohz_balance_pending, true,
				 __ATOMIC_SEQ_CST);
		smp_send_reschedule(cpu);
		return;
	}
}

/*
 * nohz_idle_balance - the idle loop's pull, only when a busy CPU's tick
 * asked for it (nohz_balance_kick).  Pulling on every way into idle
 * instead took the busiest CPU's rq->lock each time a task blocked:
 * with four CPUs handing a contended lock around (debug_locking's
 * test_rtlock_both_modes_exclude_from_every_cpu, SMP=4) the idle CPUs
 * hammered the one busy CPU's queue lock, and under TCG a vCPU the host
 * descheduled while holding it stalled every other (the run went from
 * under a minute to past its timeout: the "hang" of the first NO_HZ
 * branch).  test_idle_entry_balances_only_when_kicked counts it.
 * Linux also pulls when a CPU becomes idle (newidle_balance), but only
 * when the CPU's average idle time exceeds the cost of a balance.
 * Context: the idle task (interrupts on, or off on an AP's first pass
 * from cpu_startup_entry; load_balance_fair saves and restores them).
 */
void nohz_idle_balance(struct rq *rq)
{
	BUG_ON(!(current->flags & PF_IDLE));
	if (!__atomic_exchange_n(&rq->nohz_balance_pending, false,
				 __ATOMIC_SEQ_CST))
		return;
	__atomic_fetch_add(&rq->nohz_balance_kicks, 1, __ATOMIC_RELAXED);
	load_balance_fair(rq);
}
