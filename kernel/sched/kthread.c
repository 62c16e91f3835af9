/*
 * kernel/sched/kthread.c - kernel threads and task exit (see
 * kernel/sched/kthread.h).
 *
 * A kthread's struct task_struct and its struct kthread are one
 * allocation; the stack is kstack_alloc()ed with its guard page.  Life:
 * [1] kthread_create: allocated, refcount 1 (the "alive" reference),
 *     TASK_UNINTERRUPTIBLE, never run; its stack holds the first-switch
 *     frame (arch_task_stack_init) that enters fn(data);
 * [2] wake_up_process: queued like any wakeup;
 * [3] fn returns (or task_exit): exited is completed, state TASK_DEAD,
 *     last schedule(); finish_task_switch on the next task drops the
 *     alive reference; the last put frees stack and struct.
 * Linux counterpart: kernel/kthread.c, kernel/exit.c do_exit(),
 * kernel/fork.c free_task().  rtk creates threads directly instead of
 * through kthreadd.
 */
#include "kernel/sched/rq.h"
#include "kernel/sched/kthread.h"
#include "kernel/sched/completion.h"
#include "kernel/mm/kstack.h"
#include "kernel/mm/mm_struct.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "kernel/debug/hooks.h"
#include "lib/errno.h"
#include "lib/vsnprintf.h"
#include "lib/string.h"
#include <stdarg.h>


struct kthread {
	int (*fn)(void *data);
	void *data;
	bool should_stop;		/* set by kthread_stop */
	bool stopped_unwoken;		/* kthread_stop came before any
					 * wakeup: fn is never entered */
	bool started;			/* fn was entered */
	bool exited;			/* fn returned */
	struct completion done;		/* completed at exit */
};

struct kthread_task {
	struct task_struct task;
	struct kthread kthread;
};

/*
 * Freeing a dead task's stack: kstack_free() unmaps it and waits until
 * every CPU has dropped its TLB entries (a shootdown IPI round), which
 * needs interrupts on here and must not run in hardirq context.  The
 * usual last put (finish_task_switch, kthread_stop) is such a context;
 * a last put under a raw lock (the rt_mutex chain walk drops its task
 * references with interrupts off) parks the stack on dead_stacks, linked
 * through the stack's own first word (still mapped), and the next
 * kthread_create() or freeing put frees it.
 * Linux counterpart: kernel/fork.c frees vmap stacks through RCU
 * (delayed_free_task / vfree_atomic) for the same reason.
 */
static DEFINE_RAW_SPINLOCK(dead_stacks_lock);
static void *dead_stacks;	/* under dead_stacks_lock */

static bool can_shoot_down(void)
{
	return !raw_irqs_disabled() && !in_irq();
}

/* free_dead_stacks - free the parked stacks.  Context: task, irqs on.
 * Also called by tests before they take a kernel-stack baseline. */
void free_dead_stacks(void)
{
	unsigned long flags;
	void *list;

	if (!READ_ONCE(dead_stacks))
		return;
	raw_spin_lock_irqsave(&dead_stacks_lock, flags);
	list = dead_stacks;
	dead_stacks = NULL;
	raw_spin_unlock_irqrestore(&dead_stacks_lock, flags);
	while (list) {
		void *next = *(void **)list;

		kstack_free(list);
		list = next;
	}
}

static void task_stack_free(void *stack)
{
	unsigned long flags;

	if (!can_shoot_down()) {
		raw_spin_lock_irqsave(&dead_stacks_lock, flags);
		*(void **)stack = dead_stacks;
		dead_stacks = stack;
		raw_spin_unlock_irqrestore(&dead_stacks_lock, flags);
		return;
	}
	kstack_free(stack);
	free_dead_stacks();
}

/* kthread_entry - first code of every kthread: a thread stopped before
 * anyone woke it returns -EINTR without entering fn (Linux kthread());
 * one woken first (kthread_run) runs fn even if the stop comes before
 * it got a CPU. */
static int kthread_entry(void *arg)
{
	struct kthread *k = arg;
	int ret;

	if (READ_ONCE(k->stopped_unwoken))
		return -EINTR;
	WRITE_ONCE(k->started, true);
	ret = k->fn(k->data);
	if (current->mm && !current->user)	/* borrowed, not given back */
		kthread_unuse_mm(current->mm);
	return ret;
}

/*
 * kthread_use_mm / kthread_unuse_mm.  The switch of tables happens with
 * hard interrupts off (arch_switch_mm's rule; local_irq_save is
 * soft under PREEMPT_RT; preemption is off with them),
 * so that switch_mm (core.c) never sees the task on one
 * mm and the CPU on another: a switch away and back in between would
 * load the new tables and this one would load them again, harmless; a
 * switch between the two stores of unuse (mm NULL, active_mm still mm)
 * would make switch_mm [2] take the task for an exited user thread and
 * drop a reference it never took.  active_mm follows mm, so that [2]
 * never does that for a borrowing kernel thread.
 */
void kthread_use_mm(struct mm_struct *mm)
{
	struct task_struct *tsk = current;
	unsigned long flags;

	BUG_ON(tsk->mm || tsk->user);	/* a kernel thread, not borrowing */
	mmget(mm);
	raw_local_irq_save(flags);
	tsk->mm = mm;
	tsk->active_mm = mm;
	arch_switch_mm(mm->pgd);
	raw_local_irq_restore(flags);
}

void kthread_unuse_mm(struct mm_struct *mm)
{
	struct task_struct *tsk = current;
	unsigned long flags;

	BUG_ON(tsk->mm != mm || tsk->user);
	raw_local_irq_save(flags);
	tsk->mm = NULL;
	tsk->active_mm = &init_mm;
	arch_switch_mm(init_mm.pgd);
	raw_local_irq_restore(flags);
	mmput(mm);
}

struct task_struct *kthread_create(int (*fn)(void *data), void *data,
				   const char *namefmt, ...)
{
	struct kthread_task *kt;
	char name[TASK_COMM_LEN];
	va_list ap;

	might_sleep();
	kt = kzalloc(sizeof(*kt), GFP_KERNEL);
	if (!kt)
		return NULL;
	free_dead_stacks();
	kt->task.stack = kstack_alloc();
	if (!kt->task.stack) {
		kfree(kt);
		return NULL;
	}
	va_start(ap, namefmt);
	vsnprintf(name, sizeof(name), namefmt, ap);
	va_end(ap);
	kt->kthread.fn = fn;
	kt->kthread.data = data;
	init_completion(&kt->kthread.done);
	sched_task_init(&kt->task, name);			/* [1] */
	kt->task.flags = PF_KTHREAD;
	kt->task.kthread = &kt->kthread;
	kt->task.sp = arch_task_stack_init(kstack_top(kt->task.stack),
					   kthread_entry, &kt->kthread);
	return &kt->task;
}

void kthread_bind(struct task_struct *p, int cpu)
{
	unsigned long flags;

	BUG_ON(cpu < 0 || cpu >= NR_CPUS);
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	WARN_ON(p->on_rq);	/* Linux: only before the thread starts */
	p->cpus_allowed.bits = 1ULL << cpu;
	p->cpu = cpu;
	p->flags |= PF_NO_SETAFFINITY;
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
}

bool kthread_should_stop(void)
{
	struct kthread *k = current->kthread;

	return k && READ_ONCE(k->should_stop);
}

bool kthread_exited(struct task_struct *p)
{
	return p->kthread && READ_ONCE(p->kthread->exited);
}

int kthread_stop(struct task_struct *p)
{
	struct kthread *k = p->kthread;
	unsigned long flags;
	struct rq *rq;
	int ret;

	might_sleep();
	BUG_ON(!k);
	get_task_struct(p);
	/* pi_lock orders this against a concurrent first wakeup (which
	 * queues p under it), p's rq lock against a push/pull/balance
	 * move (on_rq is false for a moment, under the rq locks only):
	 * not queued and never switched in = unwoken */
	rq = task_rq_lock(p, &flags);
	if (!p->on_rq && !p->nr_switches)
		WRITE_ONCE(k->stopped_unwoken, true);
	WRITE_ONCE(k->should_stop, true);
	task_rq_unlock(rq, p, flags);
	wake_up_process(p);
	wait_for_completion(&k->done);
	ret = READ_ONCE(k->started) ? p->exit_code : -EINTR;
	put_task_struct(p);
	return ret;
}

DEFINE_RACE_WINDOW(put_task_unlisted_window);
DEFINE_RACE_WINDOW(put_task_last_window);

/* task_exit - [3] of the file header.  Context: the exiting task. */
__noreturn void task_exit(int code)
{
	struct task_struct *p = current;
	unsigned long flags;

	BUG_ON(p->flags & PF_IDLE);
	p->exit_code = code;
	/* under pi_lock: a PI futex attach reads it there (pi_state.c) */
	raw_spin_lock_irqsave(&p->pi_lock, flags);
	p->flags |= PF_EXITING;
	raw_spin_unlock_irqrestore(&p->pi_lock, flags);
	if (p->kthread) {
		WRITE_ONCE(p->kthread->exited, true);
		complete_all(&p->kthread->done);
	}
	preempt_disable();
	set_current_state(TASK_DEAD);
	__schedule_dead();
	BUG();
}

/* __put_task_struct - the last reference went: free.  Context: task,
 * never on p's own stack (finish_task_switch runs on the next task). */
void __put_task_struct(struct task_struct *p)
{
	BUG_ON(p == current_or_null());
	BUG_ON(p->flags & PF_IDLE);
	trace_race_window(&put_task_last_window);	/* sched.h: lookups */
	sched_task_unlist(p);
	trace_race_window(&put_task_unlisted_window);	/* sched.h: reaping */
	if (p->stack)
		task_stack_free(p->stack);
	if (p->kthread)
		kfree(container_of(p, struct kthread_task, task));
	sched_task_reaped();
}
