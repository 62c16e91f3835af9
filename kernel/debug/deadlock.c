/*
 * kernel/debug/deadlock.c - the rt_mutex misuse reports (see
 * kernel/locking/deadlock.h): print who and which locks, count them,
 * and keep the last cycle for the tests.
 *
 * A report names a task as "pid N (name)" and a lock as "NAME
 * (init FILE:LINE)", the place it was initialised, which is what a reader
 * needs to find it in the source.
 * Linux counterpart: kernel/locking/rtmutex-debug.c.
 */
#include "kernel/locking/deadlock.h"
#include "kernel/locking/rtmutex_internal.h"
#include "kernel/printk.h"
#include "kernel/panic.h"

unsigned long rt_lock_reports[RT_REPORT_NR];
struct rt_deadlock_report rt_last_deadlock;

static void count_report(enum rt_lock_report_kind kind)
{
	__atomic_fetch_add(&rt_lock_reports[kind], 1, __ATOMIC_RELAXED);
}

static void print_lock(const char *what, const struct rt_mutex *lock)
{
	struct task_struct *owner = rt_mutex_owner(lock);

	pr_cont("%s %s (init %s:%d)", what, lock->name, lock->file,
		lock->line);
	if (owner)
		pr_cont(" held by pid %d (%s)", owner->pid, owner->name);
	pr_cont("\n");
}

/*
 * Walk task -> the lock it waits for -> its owner -> ... until the walk
 * returns to the first task, reaches a task that does not wait, or has
 * printed RT_DEADLOCK_MAX_LINKS links.
 */
void rt_mutex_report_deadlock(struct rt_mutex_waiter *waiter)
{
	struct task_struct *start = waiter->task, *task = start;
	struct rt_deadlock_report rep = { .nr = 0, .closed = false };

	count_report(RT_REPORT_DEADLOCK);
	pr_err("rt_mutex: deadlock detected: pid %d (%s) would wait for ever\n",
	       start->pid, start->name);
	while (rep.nr < RT_DEADLOCK_MAX_LINKS) {
		struct rt_mutex_waiter *w = READ_ONCE(task->pi_blocked_on);
		struct rt_mutex *lock;

		if (task == start && rep.nr)
			w = waiter;	/* current's entry, for the last link */
		if (!w)
			break;
		lock = w->lock;
		rep.pid[rep.nr] = task->pid;
		rep.lock[rep.nr] = lock;
		rep.nr++;
		printk(KERN_ERR "  pid %d (%s) waits for ", task->pid,
		       task->name);
		print_lock("lock", lock);
		task = rt_mutex_owner(lock);
		if (!task)
			break;
		if (task == start) {
			rep.closed = true;
			break;
		}
	}
	pr_err("  %s\n", rep.closed ? "-> back to the first task: cycle"
				    : "(chain ends without closing)");
	rt_last_deadlock = rep;
}

void rt_mutex_report_self_deadlock(struct rt_mutex *lock)
{
	struct task_struct *me = current;

	count_report(RT_REPORT_SELF_DEADLOCK);
	rt_last_deadlock = (struct rt_deadlock_report){
		.nr = 1, .pid = { me->pid }, .lock = { lock }, .closed = true };
	pr_err("rt_mutex: self-deadlock: pid %d (%s) takes ", me->pid, me->name);
	print_lock("lock", lock);
	dump_stack();
}

void rt_mutex_report_bad_unlock(struct rt_mutex *lock)
{
	struct task_struct *me = current;

	count_report(RT_REPORT_BAD_UNLOCK);
	pr_err("rt_mutex: pid %d (%s) unlocks ", me->pid, me->name);
	print_lock("lock", lock);
	pr_err("  which it does not own: ignored\n");
	dump_stack();
}

void rt_mutex_report_destroy_held(struct rt_mutex *lock)
{
	count_report(RT_REPORT_DESTROY_HELD);
	pr_err("rt_mutex: destroying a held or contended ");
	print_lock("lock", lock);
	dump_stack();
}

void rt_mutex_report_depth(struct task_struct *top_task, struct rt_mutex *lock,
			   int depth)
{
	count_report(RT_REPORT_DEPTH);
	pr_warn("rt_mutex: max_lock_depth %d reached walking the chain of pid %d (%s)",
		depth, top_task->pid, top_task->name);
	if (lock)
		pr_cont(" from lock %s (init %s:%d)", lock->name, lock->file,
			lock->line);
	pr_cont(": treated as a deadlock\n");
}
