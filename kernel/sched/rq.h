/*
 * kernel/sched/rq.h - the per-CPU run queue and the helpers shared by
 * core.c, rt.c, fair.c and idle.c.  Not for use outside kernel/sched.
 *
 * One struct rq per CPU, in a static array (not per-CPU data: a wakeup
 * may target a CPU before its per-CPU copy exists, and the array makes
 * "lock two run queues in CPU order" trivial).
 *
 * The running task stays on its queue while it runs, as in Linux: a
 * preempted SCHED_FIFO task therefore keeps its place at the head of its
 * priority, and picking "the first queued task" includes it.
 * Linux counterpart: kernel/sched/sched.h (struct rq, struct rt_rq,
 * struct cfs_rq).
 */
#ifndef KERNEL_SCHED_RQ_H
#define KERNEL_SCHED_RQ_H

#include "kernel/sched/sched.h"
#include "kernel/sched/rt_runqueue.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/time/hrtimer.h"
#include "arch/x86_64/arch.h"

struct rq {
	raw_spinlock_t lock;
	/* everything below under lock */
	int cpu;
	bool online;			/* idle task runs here */
	struct task_struct *curr;	/* running now */
	struct task_struct *idle;	/* this CPU's idle task */
	struct rt_prio_array rt;	/* queued FIFO/RR tasks (with curr) */
	unsigned int rt_nr_migratory;	/* ... of them allowed on more
					 * than one CPU (rt_task_migratory) */
	struct list_head fair;		/* SCHED_OTHER, by vruntime */
	unsigned int nr_fair;
	unsigned long fair_load;	/* sum of the queued fair tasks'
					 * nice weights (curr included) */
	u64 min_vruntime;		/* never decreases */
	unsigned long nr_switches;
	unsigned long ticks;		/* scheduler_tick() calls here */
	/* RT bandwidth (rt_bandwidth.c; Linux's struct rt_rq), under lock: */
	u64 rt_time;			/* RT run time charged this period, ns */
	bool rt_throttled;		/* over the runtime: the pick skips the
					 * RT queues but for PF_UNTHROTTLED
					 * (also read locklessly as a hint) */
	bool rt_period_active;		/* rt_period_timer queued or running */
	struct hrtimer rt_period_timer;	/* this CPU's, fires on this CPU */
	unsigned long rt_nr_throttled;	/* times throttled */
	unsigned long rt_nr_periods;	/* period timer runs */
	/* read without the lock by other CPUs (placement, pull): */
	int cpu_prio;			/* prio of curr, or of a queued RT
					 * task that will preempt it */
	unsigned int rt_nr_pushable;	/* queued RT tasks not running,
					 * allowed on another CPU */
	/* NO_HZ idle balancing (fair.c), atomics, no lock: */
	bool nohz_balance_pending;	/* kicked: balance before halting */
	unsigned long nohz_balance_kicks;  /* kicks received */
	unsigned long nr_tick_balances;	/* periodic balances this CPU's
					 * own tick ran (scheduler_tick) */
	unsigned long nr_balance_locks;	/* times load_balance_fair here
					 * locked a busiest queue */
};

extern struct rq runqueues[NR_CPUS];

static inline struct rq *cpu_rq(int cpu)
{
	return &runqueues[cpu];
}

/* this_rq - the running CPU's queue; stable only with preemption or
 * interrupts off. */
static inline struct rq *this_rq(void)
{
	return cpu_rq(raw_smp_processor_id());
}

/* Lock two run queues in CPU order (never deadlocks against another
 * double lock).  Interrupts must be off. */
void double_rq_lock(struct rq *a, struct rq *b);
void double_rq_unlock(struct rq *a, struct rq *b);

/* rq.c */
struct rq *__task_rq_lock(struct task_struct *p);
struct rq *task_rq_lock(struct task_struct *p, unsigned long *flags);
void task_rq_unlock(struct rq *rq, struct task_struct *p,
		    unsigned long flags);
void activate_task(struct rq *rq, struct task_struct *p, bool head);
void deactivate_task(struct rq *rq, struct task_struct *p);
void resched_curr(struct rq *rq);
void rq_update_cpu_prio(struct rq *rq);

/* core.c */
void update_curr(struct rq *rq);

/* wakeup.c: does p, just queued on rq, preempt rq->curr (sync: leave it
 * to the waker's next schedule)?  The CPU a waking p should go to. */
void check_preempt(struct rq *rq, struct task_struct *p, bool sync);
int select_task_rq(struct task_struct *p);

/* affinity.c */
/* p (on no queue) goes to cpu next: vruntime re-based, p->cpu set */
void set_task_cpu(struct task_struct *p, int cpu);
/* move p (queued, not running) from src to dst; both locked */
void move_queued_task(struct rq *src, struct rq *dst, struct task_struct *p);
bool task_runnable_on(const struct task_struct *p, int cpu);
/* put p, taken off a CPU its affinity forbids, on an allowed one */
void migrate_enqueue(struct task_struct *p);

/* rt.c */
void enqueue_rt(struct rq *rq, struct task_struct *p, bool head);
void dequeue_rt(struct rq *rq, struct task_struct *p);
bool rt_task_migratory(const struct task_struct *p);
void set_cpus_allowed_rt(struct rq *rq, struct task_struct *p,
			 cpumask_t new_mask);
struct task_struct *pick_rt(struct rq *rq);
int select_rt_cpu(struct task_struct *p);
void push_rt_tasks(struct rq *rq);
bool task_woken_rt(struct rq *rq, struct task_struct *p);
void pull_rt_task(struct rq *this_rq);
bool prio_changed_rt(struct rq *rq, struct task_struct *p, int oldprio);
/* test-only race windows inside pull_rt_task and push_rt_tasks
 * (rt_balance suite) */
extern struct race_window pull_rt_unlocked;
extern struct race_window push_rt_unlocked;
/* test-only: a waker between select_task_rq and the lock of its choice */
extern struct race_window ttwu_cpu_selected;
void task_tick_rt(struct rq *rq, struct task_struct *curr);
void requeue_rt(struct rq *rq, struct task_struct *p);

/* rt_bandwidth.c */
void rt_bandwidth_init(struct rq *rq);
void update_curr_rt(struct rq *rq, u64 delta);
struct task_struct *pick_rt_unthrottled(struct rq *rq);

/* rt_rq_throttled - is rq's RT class throttled (Linux: rt_rq_throttled,
 * without RT group scheduling's boosted exception)?  Locking: rq->lock. */
static inline bool rt_rq_throttled(const struct rq *rq)
{
	return rq->rt_throttled;
}

/* rt_task_throttled - is p, an RT task queued on rq, held back by rq's
 * throttle?  Locking: rq->lock. */
static inline bool rt_task_throttled(const struct rq *rq,
				     const struct task_struct *p)
{
	return rt_rq_throttled(rq) && !(p->flags & PF_UNTHROTTLED);
}

/* rq_rt_runnable_hint - may the pick take an RT task queued on rq?  Any
 * while rq is not throttled; while it is, only a PF_UNTHROTTLED one,
 * whose wake-up rescheduled rq (check_preempt), so a queued count alone
 * does not call for a schedule.  Context: any; lockless, a hint for the
 * idle loop. */
static inline bool rq_rt_runnable_hint(const struct rq *rq)
{
	return READ_ONCE(rq->rt.nr_queued) && !READ_ONCE(rq->rt_throttled);
}

/* fair.c */
void enqueue_fair(struct rq *rq, struct task_struct *p, bool wakeup);
void dequeue_fair(struct rq *rq, struct task_struct *p);
struct task_struct *pick_fair(struct rq *rq);
void put_prev_fair(struct rq *rq, struct task_struct *p);
void update_curr_fair(struct rq *rq, struct task_struct *curr, u64 delta);
bool fair_wakeup_preempts(struct rq *rq, struct task_struct *p);
void task_tick_fair(struct rq *rq, struct task_struct *curr);
int select_fair_cpu(struct task_struct *p);
void load_balance_fair(struct rq *rq);
/* nohz_balance_kick - fair tasks wait on rq: kick a tickless idle CPU
 * to pull (fair.c).  Context: the tick. */
void nohz_balance_kick(struct rq *rq);
/* nohz_idle_balance - the idle loop, before it halts: balance if a
 * kick asked for it (fair.c).  Context: the idle task. */
void nohz_idle_balance(struct rq *rq);
void fair_migrate_vruntime(struct rq *src, struct rq *dst,
			   struct task_struct *p);
void fair_yield(struct rq *rq, struct task_struct *curr);

/* idle.c */
void idle_task_init(struct rq *rq, struct task_struct *idle, int cpu);

/* tasklist.c, for kthread.c and idle.c */
void sched_task_init(struct task_struct *p, const char *name);
void sched_task_unlist(struct task_struct *p);
void sched_task_reaped(void);
/* core.c, for kthread.c */
void __schedule_dead(void) __noreturn;

/* idle.c, for sched_init() in rq.c: the boot flow becomes "init" */
void sched_init_boot_task(void);

#endif /* KERNEL_SCHED_RQ_H */
