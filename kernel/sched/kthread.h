/*
 * kernel/sched/kthread.h - kernel threads: create, start, stop, bind.
 *
 *	p = kthread_create(fn, data, "name/%d", n);	 created, not running
 *	kthread_bind(p, cpu);				 optional, before start
 *	wake_up_process(p);				 runs fn(data)
 *	... fn loops until kthread_should_stop() ...
 *	ret = kthread_stop(p);				 fn's return value
 *
 * A thread may also just return from fn (or call task_exit): it is then
 * dead, and the scheduler's reference is dropped after its last switch
 * away (finish_task_switch).  The pointer kthread_create returns is not
 * a counted reference, as in Linux: whoever keeps it past the thread's
 * exit takes one (get_task_struct), as kthread_stop does.
 * Linux counterpart: include/linux/kthread.h, kernel/kthread.c.
 */
#ifndef KERNEL_SCHED_KTHREAD_H
#define KERNEL_SCHED_KTHREAD_H

#include "lib/compiler.h"
#include "kernel/sched/sched.h"

struct mm_struct;

/* kthread_create - a new SCHED_OTHER thread, TASK_UNINTERRUPTIBLE until
 * woken; NULL when out of memory.  Context: task or boot, may sleep. */
struct task_struct *kthread_create(int (*fn)(void *data), void *data,
				   const char *namefmt, ...) __printf(3, 4);

/* kthread_run - kthread_create + wake_up_process. */
#define kthread_run(fn, data, ...)                                           \
	({                                                                   \
		struct task_struct *__k = kthread_create(fn, data,           \
							 __VA_ARGS__);       \
		if (__k)                                                     \
			wake_up_process(__k);                                \
		__k;                                                         \
	})

/* kthread_bind - pin a not yet started thread to cpu. */
void kthread_bind(struct task_struct *p, int cpu);

/* kthread_should_stop - has kthread_stop() been called on current? */
bool kthread_should_stop(void);

/* kthread_stop - ask p to stop, wake it, wait for it to exit; returns
 * fn's return value (or -EINTR if it never started).  Context: task,
 * sleeps. */
int kthread_stop(struct task_struct *p);

/* kthread_exited - has p's function returned (tests, ps)? */
bool kthread_exited(struct task_struct *p);

/* kthread_use_mm - run current, a kernel thread, on mm's user half as
 * well as the kernel's: its uaccess (get_user_u32, the futex code) then
 * resolves user addresses in mm, and the futex code keys on mm.  The
 * in-kernel futex suites use it (tests/kernel/futex_test_mm.c), so that
 * a kernel thread reaches futexes only as a user thread does.  Takes a
 * user reference (mmget).  Context: task, a kernel thread with no mm.
 * Linux counterpart: kthread_use_mm (kernel/kthread.c; use_mm before
 * 5.8), which also lets io_uring and vhost workers borrow a process's
 * address space. */
void kthread_use_mm(struct mm_struct *mm);

/* kthread_unuse_mm - back to the kernel's tables alone; drops the
 * reference.  Called for a thread whose function returns while it still
 * uses an mm (Linux requires the call first).  Context: task, current
 * uses mm; may sleep (the last mmput unmaps). */
void kthread_unuse_mm(struct mm_struct *mm);

/* task_exit - end current with code (arch/x86_64/switch.h). */

/* free_dead_stacks - free stacks parked by last puts made with irqs off
 * (see kthread.c).  Context: task, irqs on, may sleep. */
void free_dead_stacks(void);

#endif /* KERNEL_SCHED_KTHREAD_H */
