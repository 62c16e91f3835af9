/*
 * kernel/sched/task.h - struct task_struct: one thread, kernel or user.
 *
 * A task is created by kthread_create() (kernel/sched/kthread.c), or is
 * a CPU's idle task (kernel/sched/idle.c); a user thread is a kthread
 * with mm and user set (kernel/user/process.c).  It is freed when the last
 * reference goes: the creator's, the scheduler's while it is alive, and
 * any get_task_struct() a user took (kthread_stop holds one).
 *
 * Priorities use the kernel scale (lower = more important), as in Linux:
 *
 *	prio 0..99	SCHED_FIFO / SCHED_RR, prio = 99 - rt_priority
 *	prio 100..139	SCHED_OTHER, prio = 120 + nice
 *	prio 140	the idle task
 *
 * normal_prio follows the policy; prio (effective) equals normal_prio
 * except while the task is boosted by priority inheritance (the rt_mutex
 * code sets it through rt_mutex_setprio(), kernel/sched/core.c).
 * Linux counterpart: include/linux/sched.h (struct task_struct,
 * TASK_* states), include/linux/sched/prio.h.
 */
#ifndef KERNEL_SCHED_TASK_H
#define KERNEL_SCHED_TASK_H

#include "lib/types.h"
#include "lib/list.h"
#include "lib/plist.h"
#include "kernel/smp.h"
#include "kernel/locking/raw_spinlock.h"
#include "kernel/rcu/rcu_task.h"
#include "kernel/sched/rt_runqueue.h"	/* MAX_RT_PRIO */

#define TASK_COMM_LEN 16

/* Task states (task->state).  TASK_RUNNING is 0: "on a run queue or
 * running".  A task that blocks on a sleeping spinlock_t keeps the state
 * it had set in task->saved_state and sleeps in TASK_RUNNING_MUTEX
 * instead; the lock code restores it after the acquisition (article,
 * "Preemptible critical sections": Ingo Molnar's mylock1/mylock2).  Only
 * a wakeup of the lock (wake_up_process_mutex) ends that sleep; an
 * ordinary wake_up_process() of the saved state is remembered by setting
 * saved_state to TASK_RUNNING, so the task does not miss it. */
#define TASK_RUNNING		0x0000
#define TASK_INTERRUPTIBLE	0x0001
#define TASK_UNINTERRUPTIBLE	0x0002
#define TASK_RUNNING_MUTEX	0x0004	/* blocked on a sleeping lock */
#define TASK_DEAD		0x0080	/* exited, waiting to be reaped */
#define TASK_NORMAL		(TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)

/* Scheduling policies, Linux values. */
#define SCHED_OTHER	0
#define SCHED_NORMAL	SCHED_OTHER
#define SCHED_FIFO	1
#define SCHED_RR	2
#define SCHED_IDLE_TASK	5	/* the per-CPU idle tasks only */

#define MAX_USER_RT_PRIO 100
/* MAX_RT_PRIO (100) comes from kernel/sched/rt_runqueue.h, the queue it
 * sizes (that header is host-testable and cannot include this one). */
#define DEFAULT_PRIO	120	/* nice 0 */
#define MAX_PRIO	140
#define IDLE_PRIO	MAX_PRIO
#define NICE_TO_PRIO(n)	(DEFAULT_PRIO + (n))
#define PRIO_TO_NICE(p)	((p) - DEFAULT_PRIO)

#define RR_TIMESLICE_NS	(100LL * 1000 * 1000)	/* Linux RR_TIMESLICE */

/* task->flags */
#define PF_KTHREAD	0x1
#define PF_IDLE		0x2
#define PF_EXITING	0x4
#define PF_NO_SETAFFINITY 0x8	/* bound by kthread_bind */
#define PF_UNTHROTTLED	0x10	/* RT, and runs while its CPU's RT class is
				 * throttled: irq threads, ksoftirqd, the
				 * watchdog (kernel/sched/rt_bandwidth.c) */

struct rt_mutex_waiter;	/* kernel/locking: the PI code fills these in */
struct kthread;
struct mm_struct;
struct fs_struct;
struct files_struct;
struct user_thread;

struct task_struct {
	/* constant after creation */
	char name[TASK_COMM_LEN];	/* "irq/4-ttyS0", "ksoftirqd/1" */
	int pid;
	unsigned int flags;		/* PF_* */
	void *stack;			/* kstack_alloc()ed; NULL: boot stack */
	struct kthread *kthread;	/* kthread.c's data, NULL for idle */

	int refcount;			/* atomic; freed at 0 */

	/* state: written by the task itself (set_current_state) and by
	 * wakers under pi_lock */
	volatile long state;		/* TASK_* */
	long saved_state;		/* state kept across a lock sleep */

	/* scheduling, under the task's run queue lock (task_rq(p)->lock)
	 * and pi_lock for the priority fields */
	int policy;			/* SCHED_* */
	int prio;			/* effective (boosted) prio */
	int normal_prio;		/* prio from policy alone */
	int static_prio;		/* 120 + nice */
	int rt_priority;		/* 1..99 for FIFO/RR, 0 otherwise */
	cpumask_t cpus_allowed;		/* affinity */
	int cpu;			/* CPU whose run queue holds it / last ran */
	bool on_rq;			/* queued (or running) on task_rq */
	bool on_cpu;			/* its registers are live on a CPU */
	bool migrate_pending;		/* off a forbidden CPU's queue, to be
					 * enqueued on an allowed one by
					 * migrate_enqueue (which clears it,
					 * under pi_lock); counts as queued
					 * for wakers meanwhile */
	struct list_head run_list;	/* RT prio queue or fair queue */
	s64 rr_slice_ns;		/* SCHED_RR time left */
	u64 vruntime;			/* SCHED_OTHER virtual runtime (ns) */
	u32 fair_weight;		/* weight it added to rq->fair_load
					 * when queued (nice may change) */
	u64 exec_start_ns;		/* when it last got the CPU */
	u64 sum_exec_ns;		/* total CPU time */
	unsigned long nr_switches;	/* times switched in */
	/* times switched out: asleep (voluntary) or preempted while
	 * runnable (involuntary); Linux's nvcsw / nivcsw */
	unsigned long nvcsw, nivcsw;
	unsigned long nr_migrations;	/* p->cpu changes (set_task_cpu) */

	/* saved while not on a CPU (context switch) */
	unsigned long sp;		/* RSP of arch_context_switch's frame */
	int preempt_count;		/* this task's per-CPU __preempt_count */
	int soft_irqs_off;		/* PREEMPT_RT local_irq_disable() */
	/* PREEMPT_RT local_bh_disable (kernel/irq/softirq.c); own */
	int softirq_disable_cnt;	/* bh nesting, SOFTIRQ_DISABLE_OFFSET
					 * steps; softirq_count() adds it */
	int softirq_lock_cpu;		/* CPU whose bh lock it holds, -1 if
					 * the section took none (valid
					 * while softirq_disable_cnt) */

	/* the global list of tasks (ps), under tasklist_lock */
	struct list_head tasks;

	/* wait_for_completion / schedule_timeout */
	bool timed_out;			/* set by the timeout callback */
	bool sigpending;		/* kernel_signal() (kernel/signal.h) */

	/* the big kernel lock (kernel/locking/bkl.h), own */
	int lock_depth;			/* BKL nesting; -1: not held */

	/* priority inheritance, under pi_lock (the locking code's) */
	struct plist_head pi_waiters;	/* waiters on locks it owns */
	struct rt_mutex_waiter *pi_blocked_on;	/* lock it waits for */
	raw_spinlock_t pi_lock;		/* prio fields, pi_waiters,
					 * pi_state_list, PF_EXITING's setting */
	struct list_head pi_state_list;	/* PI futexes it owns by proxy
					 * (kernel/futex/pi_exit.c) */
	int exit_code;			/* entry()'s return value */
	struct rcu_task rcu;		/* preemptible RCU reader state */

	/* address space (kernel/mm/mm_struct.h); written by the task itself
	 * and read by the context switch on its CPU */
	struct mm_struct *mm;		/* user address space; NULL: kernel thread
					 * (or a user thread past exit_mm) */
	struct mm_struct *active_mm;	/* the one its CPU runs on: mm, or the
					 * one a kernel thread borrowed (counted
					 * in mm_count unless == mm) */
	struct user_thread *user;	/* kernel/user/process.h; NULL: none */
	struct fs_struct *fs;		/* root and cwd (kernel/fs/fs_struct.h);
					 * NULL: init_fs (kernel threads) */
	struct files_struct *files;	/* fds (kernel/fs/fdtable.h); NULL:
					 * none (kernel threads, past exit) */
	int tgid;			/* its process's pid (user threads), 0 */
	struct lockdep_task lockdep;	/* held locks (lockdep.h); own */
};

/* get_task_struct / put_task_struct - take / drop a reference; the last
 * put frees the task and its stack.  Context: any except that the final
 * put must not be on the task's own stack (the reaper does that one). */
static inline struct task_struct *get_task_struct(struct task_struct *p)
{
	__atomic_fetch_add(&p->refcount, 1, __ATOMIC_RELAXED);
	return p;
}

void __put_task_struct(struct task_struct *p);

static inline void put_task_struct(struct task_struct *p)
{
	if (__atomic_sub_fetch(&p->refcount, 1, __ATOMIC_ACQ_REL) == 0)
		__put_task_struct(p);
}

static inline bool rt_prio(int prio)
{
	return prio < MAX_RT_PRIO;
}

static inline bool rt_task(const struct task_struct *p)
{
	return rt_prio(p->prio);
}

static inline bool task_has_rt_policy(const struct task_struct *p)
{
	return p->policy == SCHED_FIFO || p->policy == SCHED_RR;
}

#endif /* KERNEL_SCHED_TASK_H */
