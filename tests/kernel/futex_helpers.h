/*
 * tests/kernel/futex_helpers.h - what the futex suites (test_futex*.c)
 * share: the system call as a kernel thread makes it (futex words in
 * kernel memory, called through their alias in the test mm:
 * futex_test_mm.c) and waiting until a task sleeps in a futex.
 */
#ifndef TESTS_KERNEL_FUTEX_HELPERS_H
#define TESTS_KERNEL_FUTEX_HELPERS_H

#include "kernel/futex/futex.h"
#include "kernel/locking/rtmutex_internal.h"
#include "tests/kernel/sched_helpers.h"

/* futex_test_enter - current runs on the futex test mm from now on, as
 * a program's thread does: a thread that takes a PI word by cmpxchg
 * alone calls it first, so a waiter's LOCK_PI finds an owner on the
 * word's address space.  Context: task, a kernel thread; may sleep. */
void futex_test_enter(void);

/* futex_test_uaddr - the user address of kernel word kaddr in the
 * futex test mm, which current uses from now on (futex_test_mm.c, after
 * futex_test_enter); NULL for NULL.  Context: task, a kernel thread; may sleep. */
u32 __user *futex_test_uaddr(const u32 *kaddr);

/* futex_op - do_futex on kernel word uaddr, without the requeue and
 * bitset arguments.  Context: as futex_test_uaddr. */
static inline long futex_op(u32 *uaddr, int op, u32 val, ktime_t *abs)
{
	return do_futex(futex_test_uaddr(uaddr), op, val, abs, NULL, 0, 0);
}

/* futex_word_read - the word as user space would see it. */
static inline u32 futex_word_read(const u32 *uaddr)
{
	return __atomic_load_n(uaddr, __ATOMIC_ACQUIRE);
}

/* task_sleeping - p is off every run queue and CPU in a sleep state. */
static inline bool task_sleeping(struct task_struct *p)
{
	return READ_ONCE(p->state) != TASK_RUNNING && !READ_ONCE(p->on_cpu) &&
	       !READ_ONCE(p->on_rq);
}

/* wait_futex_pi_blocked - until p sleeps blocked on a PI futex's
 * rt_mutex (its chain walk is over then: it runs before the sleep);
 * false after SAFETY_NS.  Context: task; schedules meanwhile. */
static inline bool wait_futex_pi_blocked(struct task_struct *p)
{
	ktime_t end = ktime_get() + SAFETY_NS;

	while (ktime_get() < end) {
		if (READ_ONCE(p->pi_blocked_on) && task_sleeping(p))
			return true;
		schedule();
	}
	return false;
}

/* wait_flag_then_sleeping - until *flag is set (p is about to call the
 * futex) and p sleeps; false after SAFETY_NS.  Context: task. */
static inline bool wait_flag_then_sleeping(struct task_struct *p,
					   const bool *flag)
{
	ktime_t end = ktime_get() + SAFETY_NS;

	while (ktime_get() < end) {
		if (READ_ONCE(*flag) && task_sleeping(p))
			return true;
		schedule();
	}
	return false;
}

#endif /* TESTS_KERNEL_FUTEX_HELPERS_H */
