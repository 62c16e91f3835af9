/*
 * kernel/sched/sched.h - the scheduler's interface to the rest of the
 * kernel: current, schedule(), wakeups, task states, policies,
 * affinity, might_sleep(), and the three calls interrupt code makes into
 * it (scheduler_tick, scheduler_ipi, irqentry_exit_cond_resched).
 *
 * Includes the task structure (kernel/sched/task.h) and the preemption
 * primitives (kernel/sched/preempt.h).  Wait queues and completions have
 * their own headers (kernel/sched/wait.h, kernel/sched/completion.h),
 * kthreads too (kernel/sched/kthread.h).
 * Linux counterpart: include/linux/sched.h, include/linux/kernel.h
 * (might_sleep), include/uapi/linux/sched.h (policies).
 */
#ifndef KERNEL_SCHED_SCHED_H
#define KERNEL_SCHED_SCHED_H

#include "lib/types.h"
#include "lib/compiler.h"
#include "kernel/percpu.h"
#include "kernel/sched/task.h"
#include "kernel/sched/preempt.h"
#include "kernel/irqflags.h"
#include "kernel/debug/hooks.h"

/* current - the task running on this CPU (one gs-relative load: safe to
 * read with preemption on, the value is the reader's own task). */
DECLARE_PER_CPU(struct task_struct *, current_task);
#define current (this_cpu_read(current_task))

/* current_or_null - current, or NULL before sched_init() (early boot,
 * printk and lock debugging ask). */
static inline struct task_struct *current_or_null(void)
{
	return this_cpu_read(current_task);
}

/*
 * set_current_state - set current->state with a full barrier after it,
 * so the store is visible before the caller tests its wait condition
 * (pairs with the waker's condition store before wake_up_process()):
 *
 *	set_current_state(TASK_UNINTERRUPTIBLE);   cond = true;
 *	if (!cond) schedule();                     wake_up_process(p);
 */
#define set_current_state(s)                                                 \
	do {                                                                 \
		WRITE_ONCE(current->state, (s));                             \
		__atomic_thread_fence(__ATOMIC_SEQ_CST);                     \
	} while (0)
#define __set_current_state(s) WRITE_ONCE(current->state, (s))

struct sched_param {
	int sched_priority;
};

/* schedule - give up the CPU: current keeps running if its state is
 * TASK_RUNNING (then it is only a preemption point), else it sleeps until
 * woken.  Context: task, preemption and irqs on (BUG otherwise). */
void schedule(void);

/* sched_yield - let other runnable tasks of the same class go first. */
void sched_yield(void);

/* wake_up_process - make p runnable if it sleeps in TASK_NORMAL; returns
 * whether it was woken.  Preempts the waker (at the next preemption
 * point of the model) when p is more important.  Context: any. */
int wake_up_process(struct task_struct *p);

/* wake_up_state - the same, for sleepers in any of the states in mask. */
int wake_up_state(struct task_struct *p, unsigned int state);

/* wake_up_process_sync - wake p without preempting the waker at once:
 * if p would preempt current, the reschedule is delayed to the waker's
 * next schedule() (article, "Deferred operations": TIF_NEED_RESCHED_
 * DELAYED; mainline: wake_up_sync / lazy preemption).  Context: any. */
int wake_up_process_sync(struct task_struct *p);

/* wake_up_process_mutex - end a TASK_RUNNING_MUTEX sleep (the sleeping
 * lock's unlock path).  Context: any. */
int wake_up_process_mutex(struct task_struct *p);

/* sched_setscheduler - Linux semantics: SCHED_FIFO/SCHED_RR need
 * sched_priority 1..99, SCHED_OTHER needs 0; -EINVAL otherwise.
 * Context: task, may sleep. */
int sched_setscheduler(struct task_struct *p, int policy,
		       const struct sched_param *param);
/* set_user_nice - nice -20..19 (clamped) for SCHED_OTHER. */
void set_user_nice(struct task_struct *p, long nice);
static inline int task_nice(const struct task_struct *p)
{
	return PRIO_TO_NICE(p->static_prio);
}

/* set_cpus_allowed - change p's affinity, migrating it if it runs or
 * waits outside the new mask.  -EINVAL for an empty or all-offline mask.
 * Context: task, may sleep. */
int set_cpus_allowed(struct task_struct *p, cpumask_t new_mask);

/* rt_mutex_setprio - set p's effective prio (PI boosting); prio in the
 * kernel scale.  Context: any; the locking code holds p->pi_lock. */
void rt_mutex_setprio(struct task_struct *p, int prio);

/* task_cpu - the CPU whose run queue has p (or where it ran last). */
static inline int task_cpu(const struct task_struct *p)
{
	return READ_ONCE(p->cpu);
}

/* INIT_PID - the init= program's pid (kernel/user/init_process.c). */
#define INIT_PID 1
/* sched_claim_init_pid - pid 1 for the unstarted task p; 0 or -EBUSY
 * (tasklist.c). */
int sched_claim_init_pid(struct task_struct *p);
/* sched_task_set_pid - p's pid becomes pid (execve's de_thread). */
void sched_task_set_pid(struct task_struct *p, int pid);
/* sched_find_task - the task with that pid, with a reference, or NULL. */
struct task_struct *sched_find_task(int pid);

/* sched_for_each_task - call fn(p, arg) for every task, under the task
 * list lock (fn must not sleep).  The `ps` command. */
void sched_for_each_task(void (*fn)(struct task_struct *p, void *arg),
			 void *arg);

/*
 * sched_nr_tasks_reaping - tasks being freed now: off the task list, but
 * their kernel stack and task struct not yet returned.  Whoever counts
 * memory after waiting for exited tasks to go (the fault_inject suite's
 * baseline, leak checks) must also wait for this to reach 0, because a
 * walk of the list cannot see these tasks:
 *
 *	CPU0 (last put, __put_task_struct)	CPU1 (counting)
 *	sched_task_unlist(p)
 *						sched_for_each_task: p gone
 *						kstack_nr_in_use(): p's stack
 *						still counted -> baseline +1
 *	task_stack_free(p->stack); kfree(p)
 *
 * Forced by tests/kernel/test_fault_inject.c
 * (test_reaping_task_is_counted, race window put_task_unlisted_window).
 * Locking: none; a snapshot.
 */
int sched_nr_tasks_reaping(void);

/* sched_policy_name - "FIFO", "RR", "OTHER", "IDLE" (ps, chrt); "?" for
 * anything else. */
const char *sched_policy_name(int policy);

/* resched_cpu - set TIF_NEED_RESCHED on cpu (IPI if remote). */
void resched_cpu(int cpu);

/* scheduler_tick - time accounting and slices.  Context: hard irq, the
 * per-CPU tick (tick_timer_interrupt in kernel/time/tick.c). */
void scheduler_tick(void);

/* scheduler_ipi - what a reschedule IPI does on its target, after it
 * was counted (generic_smp_reschedule_interrupt in kernel/smp.c):
 * nothing more, TIF_NEED_RESCHED is already set and the interrupt
 * return or the idle loop acts on it.  Defined in kernel/sched/rq.c.
 * Context: hardirq on the target, interrupts off. */
void scheduler_ipi(void);

/* irqentry_exit_cond_resched - preemption on return from interrupt,
 * called by irq_exit() (kernel/irq/irq_enter.c) once the CPU has left
 * every interrupt context.  Defined in kernel/sched/core.c.
 * Context: interrupts off, preempt_count back to the interrupted value,
 * on the interrupted task's stack (it may switch tasks). */
void irqentry_exit_cond_resched(void);

/*
 * Test-only race windows in the wake-up and migration paths (kernel/debug/
 * race_window.h; each is defined beside its window):
 * migrate_enqueue_window - kernel/sched/affinity.c, migrate_enqueue()
 *	before it takes p->pi_lock: a task taken off a CPU its affinity
 *	forbids is on no run queue yet (tests/kernel/test_wakeup_races.c).
 * task_rq_lock_window - between reading p->cpu and locking that CPU's
 *	run queue (kernel/sched/rq.c __task_rq_lock): p may move meanwhile.
 * task_rq_lock_retry_window - __task_rq_lock found p moved and is about
 *	to lock its new run queue.
 * schedule_dequeue_window - kernel/sched/core.c __schedule, a sleeping
 *	prev about to leave its queue (its state already tested).
 * schedule_return_window - kernel/sched/core.c schedule(), after the
 *	switch back, preemption still off: a reschedule request that lands
 *	here must not be dropped (tests/kernel/test_sched_preempt.c).
 * set_cpus_allowed_relock_window - kernel/sched/affinity.c, moving a
 *	queued task: its run queue unlocked to lock it with the target's.
 * sched_setscheduler_pi_window - kernel/sched/setscheduler.c, a task's
 *	prio changed, its waiter not yet requeued by rt_mutex_adjust_pi.
 * put_task_last_window - kernel/sched/kthread.c __put_task_struct, the
 *	last reference gone, the task still on the list: a lookup
 *	(sched_find_task) must not revive it (test_fault_inject.c).
 * put_task_unlisted_window - kernel/sched/kthread.c __put_task_struct,
 *	the task off the list, its stack and struct not yet freed.
 * ap_startup_window - kernel/sched/idle.c cpu_startup_entry, an AP
 *	online but its scheduler not started; armed by the boot parameter
 *	sched.ap_startup_race, released by softirq_init
 *	(tests/kernel/test_ap_startup.c).
 */
extern struct race_window migrate_enqueue_window;
extern struct race_window task_rq_lock_window;
extern struct race_window task_rq_lock_retry_window;
extern struct race_window schedule_dequeue_window;
extern struct race_window schedule_return_window;
extern struct race_window set_cpus_allowed_relock_window;
extern struct race_window sched_setscheduler_pi_window;
extern struct race_window put_task_unlisted_window;
extern struct race_window put_task_last_window;
extern struct race_window ap_startup_window;
/* sched_ap_early_wakeups - tasks found queued on cpu's run queue when
 * its AP started its scheduler (kernel/sched/idle.c). */
unsigned int sched_ap_early_wakeups(int cpu);

/* sched_init - make the boot flow the boot CPU's first task (init,
 * running on the boot stack) and set up every run queue.
 * Context: boot CPU, once, after percpu_init_bsp(), interrupts off. */
void sched_init(void);

/* sched_nr_switches - context switches on cpu so far (tests, bench). */
unsigned long sched_nr_switches(int cpu);
/* sched_cpu_idle_ns - time cpu's idle task has run, as of its last
 * switch or tick (/proc/stat, /proc/uptime).  Context: any. */
u64 sched_cpu_idle_ns(int cpu);

/*
 * might_sleep - a function that may block calls this first: warn with a
 * backtrace when the caller is atomic (preemption or irqs off, in an
 * interrupt), then offer a voluntary preemption point.
 */
void __might_sleep(const char *file, int line);
#define might_sleep()                                                        \
	do {                                                                 \
		__might_sleep(__FILE__, __LINE__);                           \
		might_resched();                                             \
	} while (0)
/* might_sleep_warnings - how many might_sleep warnings so far (tests). */
extern unsigned long might_sleep_warnings;
/* might_sleep_expect_begin/end - warnings in between are provoked on
 * purpose: printed "might_sleep-expected: sleeping function called ..."
 * instead of "BUG: ..." (tools/harness.py fails a run on the BUG form),
 * still counted.  Global, nests (as lockdep_expect_begin/end).
 * Context: task. */
void might_sleep_expect_begin(void);
void might_sleep_expect_end(void);

#endif /* KERNEL_SCHED_SCHED_H */
