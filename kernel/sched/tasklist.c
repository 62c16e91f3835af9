/*
 * kernel/sched/tasklist.c - the list of every task: a new task's
 * scheduling defaults and pid (sched_task_init), removal at reaping,
 * iteration for `ps`, lookup by pid for `chrt`, policy names.
 *
 * tasklist_lock is a raw spinlock taken with interrupts off: the list is
 * walked from the shell and changed by kthread creation and reaping,
 * never from a hard interrupt, but holders must not be preempted
 * (sched_for_each_task's callback runs under it and must not sleep).
 * Linux counterpart: kernel/fork.c (sched_fork, alloc_pid), kernel/pid.c
 * (find_task_by_vpid), include/linux/sched/signal.h (for_each_process).
 * rtk leaves out pid namespaces, pid reuse (pids only increase) and RCU
 * walking of the list.
 */
#include "kernel/sched/rq.h"
#include "lib/refcount.h"
#include "lib/string.h"
#include "lib/bug.h"
#include "lib/errno.h"

/* Every task, for ps and sched_find_task; taken with irqs off. */
static DEFINE_RAW_SPINLOCK(tasklist_lock);
static LIST_HEAD(task_list);
/* Every task takes the next number; the idle tasks (swapper/N) then show
 * pid 0, as on Linux.  The first task made is swapper/0, so number 1 is
 * spent on it and no kernel task ever shows pid 1: it is the init=
 * program's (sched_claim_init_pid), Linux's init pid, while every kernel
 * task keeps the pid it had before ("init", the boot flow running the
 * shell, is 2).  idle.c checks swapper/0 took INIT_PID. */
static int next_pid = INIT_PID;
/* tasks unlisted by __put_task_struct whose stack and struct are not yet
 * freed: see sched_nr_tasks_reaping() in sched.h.  Under tasklist_lock. */
static int tasks_reaping;

/* sched_task_init - fill a new task's scheduling fields: SCHED_OTHER,
 * nice 0, all CPUs, last CPU = the creator's.  Adds it to the list. */
void sched_task_init(struct task_struct *p, const char *name)
{
	unsigned long flags;

	strscpy(p->name, name, sizeof(p->name));
	p->refcount = 1;
	p->state = TASK_UNINTERRUPTIBLE;
	p->saved_state = TASK_RUNNING;
	p->policy = SCHED_OTHER;
	p->static_prio = DEFAULT_PRIO;
	p->normal_prio = p->prio = DEFAULT_PRIO;
	p->cpus_allowed.bits = ~0ULL;
	p->cpu = current_or_null() ? raw_smp_processor_id() : 0;
	INIT_LIST_HEAD(&p->run_list);
	p->rr_slice_ns = RR_TIMESLICE_NS;
	p->lock_depth = -1;
	/* what every switch runs with: __schedule's caller's
	 * preempt_disable + the rq lock; schedule_tail drops both */
	p->preempt_count = 2;
	raw_spin_lock_init(&p->pi_lock);
	lockdep_init_task(p);
	plist_head_init(&p->pi_waiters);
	INIT_LIST_HEAD(&p->pi_state_list);
	raw_spin_lock_irqsave(&tasklist_lock, flags);
	p->pid = next_pid++;
	list_add_tail(&p->tasks, &task_list);
	raw_spin_unlock_irqrestore(&tasklist_lock, flags);
}

/* sched_task_unlist - the first step of freeing p; sched_task_reaped()
 * is the last.  Context: task (__put_task_struct).  Locking: takes
 * tasklist_lock. */
void sched_task_unlist(struct task_struct *p)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tasklist_lock, flags);
	list_del(&p->tasks);
	tasks_reaping++;
	raw_spin_unlock_irqrestore(&tasklist_lock, flags);
}

/* sched_task_reaped - the stack and the struct of a task unlisted by
 * sched_task_unlist() are free now.  Locking: takes tasklist_lock. */
void sched_task_reaped(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tasklist_lock, flags);
	WARN_ON(tasks_reaping <= 0);
	tasks_reaping--;
	raw_spin_unlock_irqrestore(&tasklist_lock, flags);
}

int sched_nr_tasks_reaping(void)
{
	return READ_ONCE(tasks_reaping);
}

void sched_for_each_task(void (*fn)(struct task_struct *p, void *arg),
			 void *arg)
{
	struct task_struct *p;
	unsigned long flags;

	raw_spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(p, &task_list, tasks)
		fn(p, arg);
	raw_spin_unlock_irqrestore(&tasklist_lock, flags);
}

const char *sched_policy_name(int policy)
{
	switch (policy) {
	case SCHED_OTHER:
		return "OTHER";
	case SCHED_FIFO:
		return "FIFO";
	case SCHED_RR:
		return "RR";
	case SCHED_IDLE_TASK:
		return "IDLE";
	}
	return "?";
}

/*
 * sched_find_task - see sched.h.  A listed task whose last reference is
 * gone is being freed (__put_task_struct unlists it next, under this
 * lock): it is not found, and its count is not revived 0 -> 1, which
 * made the finder's put free it a second time (tests/kernel/
 * test_fault_inject.c test_dying_task_is_not_found).  Linux unlists a
 * task (release_task) before its last put, so a lookup there can use a
 * plain get.
 * Context: any.  Locking: takes tasklist_lock.
 */
/* pid_in_use - is a listed task's pid pid?  Locking: tasklist_lock. */
static bool pid_in_use(int pid)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list, tasks)
		if (p->pid == pid)
			return true;
	return false;
}

/*
 * sched_claim_init_pid - give the not yet started task p pid 1 (the
 * init= program, kernel/user/init_process.c).  -EBUSY while a listed
 * task has it: a second init while the first lives, or one not yet
 * reaped.  Context: task.  Locking: takes tasklist_lock.
 */
int sched_claim_init_pid(struct task_struct *p)
{
	unsigned long flags;
	int err = -EBUSY;

	raw_spin_lock_irqsave(&tasklist_lock, flags);
	if (!pid_in_use(INIT_PID)) {
		p->pid = INIT_PID;
		err = 0;
	}
	raw_spin_unlock_irqrestore(&tasklist_lock, flags);
	return err;
}

/*
 * sched_task_set_pid - p takes pid (execve from a non-leader thread takes
 * its thread group's id, Linux's de_thread exchange_tids).  The old
 * holder must have exited; its task may still be listed until it is
 * reaped, and a lookup by pid meanwhile finds whichever comes first.
 * Context: task.  Locking: takes tasklist_lock.
 */
void sched_task_set_pid(struct task_struct *p, int pid)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&tasklist_lock, flags);
	p->pid = pid;
	raw_spin_unlock_irqrestore(&tasklist_lock, flags);
}

struct task_struct *sched_find_task(int pid)
{
	struct task_struct *p, *found = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&tasklist_lock, flags);
	list_for_each_entry(p, &task_list, tasks) {
		if (p->pid != pid)
			continue;
		if (refcount_inc_not_zero(&p->refcount))
			found = p;
		break;
	}
	raw_spin_unlock_irqrestore(&tasklist_lock, flags);
	return found;
}
