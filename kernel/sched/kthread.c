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
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "lib/errno.h"
#include "lib/vsnprintf.h"
#include "lib/string.h"
#include <stdarg.h>


struct kthread {
	int (*fn)(void *data);
	void *data;
	bool should_stop;		/* set by kthread_stop */
	bool started;			/* fn was entered */
	bool exited;			/* fn returned */
	struct completion done;		/* completed at exit */
};

struct kthread_task {
	struct task_struct task;
	struct kthread kthread;
};

/*
 * Stacks of reaped tasks are kept for reuse instead of kstack_free():
 * kstack_free unmaps the pages and invalidates only this CPU's TLB, and
 * a CPU that ran the dead task may still hold the old translation; a
 * new stack mapped at the same address would then be read through it.
 * Reusing the same mapping keeps any stale entry correct (Linux keeps a
 * small per-CPU cache of vmap stacks too, kernel/fork.c cached_stacks).
 */
#define STACK_CACHE_MAX 64
static DEFINE_RAW_SPINLOCK(stack_cache_lock);
static void *stack_cache[STACK_CACHE_MAX];
static int stack_cache_nr;

static void *task_stack_get(void)
{
	unsigned long flags;
	void *stack = NULL;

	raw_spin_lock_irqsave(&stack_cache_lock, flags);
	if (stack_cache_nr)
		stack = stack_cache[--stack_cache_nr];
	raw_spin_unlock_irqrestore(&stack_cache_lock, flags);
	return stack ? stack : kstack_alloc();
}

static void task_stack_put(void *stack)
{
	unsigned long flags;
	bool cached = false;

	raw_spin_lock_irqsave(&stack_cache_lock, flags);
	if (stack_cache_nr < STACK_CACHE_MAX) {
		stack_cache[stack_cache_nr++] = stack;
		cached = true;
	}
	raw_spin_unlock_irqrestore(&stack_cache_lock, flags);
	if (!cached)
		kstack_free(stack);	/* TODO: needs a TLB shootdown */
}

static int kthread_entry(void *arg)
{
	struct kthread *k = arg;

	WRITE_ONCE(k->started, true);
	return k->fn(k->data);
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
	kt->task.stack = task_stack_get();
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
	int ret;

	might_sleep();
	BUG_ON(!k);
	get_task_struct(p);
	WRITE_ONCE(k->should_stop, true);
	wake_up_process(p);
	wait_for_completion(&k->done);
	ret = READ_ONCE(k->started) ? p->exit_code : -EINTR;
	put_task_struct(p);
	return ret;
}

/* task_exit - [3] of the file header.  Context: the exiting task. */
__noreturn void task_exit(int code)
{
	struct task_struct *p = current;

	BUG_ON(p->flags & PF_IDLE);
	p->exit_code = code;
	p->flags |= PF_EXITING;
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
	sched_task_unlist(p);
	if (p->stack)
		task_stack_put(p->stack);
	if (p->kthread)
		kfree(container_of(p, struct kthread_task, task));
}
