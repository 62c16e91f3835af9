/*
 * kernel/locking/deadlock.h - RT_DEADLOCK_DETECT: the rt_mutex misuse
 * reports.  rtk builds are debug builds, so detection is on unless the
 * build says -DRT_DEADLOCK_DETECT=0.
 *
 * With detection on, every blocking rt_mutex acquisition walks the whole
 * PI chain (not only while priorities change), so any cycle through the
 * new waiter is found.  What a detected deadlock does:
 *	rt_mutex_lock_interruptible / rt_mutex_timed_lock / down_interruptible:
 *		print the cycle, return -EDEADLK (the waiter left the lock)
 *	rt_mutex_lock / spin_lock / down (no way to fail):
 *		print the cycle and stay blocked, as Linux's debug build does
 *		(rt_mutex_handle_deadlock); unlike Linux the task stays a
 *		normal waiter, so if another member of the cycle leaves
 *		(signal, timeout) it gets the lock
 * Taking a lock one already holds (AA) is reported the same way.
 * Unlocking a lock one does not own is reported and ignored; destroying a
 * held lock is reported.
 * Linux counterpart: kernel/locking/rtmutex-debug.c
 * (debug_rt_mutex_print_deadlock), lockdep's report format in spirit.
 */
#ifndef KERNEL_LOCKING_DEADLOCK_H
#define KERNEL_LOCKING_DEADLOCK_H

#include "lib/types.h"

#ifndef RT_DEADLOCK_DETECT
#define RT_DEADLOCK_DETECT 1
#endif

struct rt_mutex;
struct rt_mutex_waiter;
struct task_struct;

#define RT_DEADLOCK_MAX_LINKS 16	/* links a report prints */

/* The last cycle reported, for tests: task i waits for lock i, which is
 * held by task i+1 (task nr-1's lock is held by task 0). */
struct rt_deadlock_report {
	int nr;					/* links in the cycle */
	int pid[RT_DEADLOCK_MAX_LINKS];
	const struct rt_mutex *lock[RT_DEADLOCK_MAX_LINKS];
	bool closed;			/* the walk came back to task 0 */
};

enum rt_lock_report_kind {
	RT_REPORT_DEADLOCK,
	RT_REPORT_SELF_DEADLOCK,
	RT_REPORT_BAD_UNLOCK,
	RT_REPORT_DESTROY_HELD,
	RT_REPORT_DEPTH,
	RT_REPORT_NR,
};

/* rt_lock_reports - reports so far by kind (tests compare before/after). */
extern unsigned long rt_lock_reports[RT_REPORT_NR];
extern struct rt_deadlock_report rt_last_deadlock;

/* rt_mutex_report_deadlock - print the cycle through waiter (queued on
 * its lock, so the cycle is intact).  Context: task; takes no locks (it
 * reads the chain with READ_ONCE: every task in it is blocked). */
void rt_mutex_report_deadlock(struct rt_mutex_waiter *waiter);
void rt_mutex_report_self_deadlock(struct rt_mutex *lock);
void rt_mutex_report_bad_unlock(struct rt_mutex *lock);
void rt_mutex_report_destroy_held(struct rt_mutex *lock);
void rt_mutex_report_depth(struct task_struct *top_task,
			   struct rt_mutex *lock, int depth);

#endif /* KERNEL_LOCKING_DEADLOCK_H */
